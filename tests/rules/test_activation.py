"""Applying actions: apply_action(state, plan, ruleset, rng) -> (state, events)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.rules.activation import BikeState, TestEvent, apply_action, start_activation
from entropy3d.rules.dice import BustResult, never_push

BIKE = BikeState("k1", "police", Pose(10, 10, 0), speed=3, stress=0, turn_number=2)


def test_EC_TURN_3_two_actions_per_activation(rules):
    """Clause: EC-TURN-3."""
    rng = np.random.default_rng(1)
    state, _ = apply_action(BIKE, "s3: straight 12", rules, rng)
    state, _ = apply_action(state, "s3: straight 12", rules, rng)
    with pytest.raises(IllegalPlanError) as err:
        apply_action(state, "s3: straight 12", rules, rng)
    assert err.value.clause == "EC-TURN-3"
    again, _ = apply_action(start_activation(state), "s3: straight 12", rules, rng)
    assert again.pose.x == 10 + 36 and again.actions_taken == 1


def test_EC_ACT_GUNGHO_takes_the_whole_activation(rules):
    """Clause: EC-ACT-GUNGHO."""
    state, _ = apply_action(BIKE, "gungho s3: straight 32", rules, np.random.default_rng(1))
    with pytest.raises(IllegalPlanError):
        apply_action(state, "s3: straight 12", rules, np.random.default_rng(1))


def test_EC_TMPL_2_failed_template_test_adds_its_stress(rules, dice):
    """Clause: EC-TMPL-2. Speed 3 wide: 0 stress, TN 14; 5+5 fails -> +2 stress."""
    state, events = apply_action(BIKE, "s3: straight 6, right wide 7", rules, dice([5, 5]),
                                 policy=never_push)
    test = [e for e in events if isinstance(e, TestEvent)][0]
    assert test.roll.total == 10 and test.stress_change == 2 and state.stress == 2


def test_EC_DICE_4_busting_a_template_test_runs_the_crash_sequence(rules, dice):
    """Clause: EC-DICE-4. Stress 5 + 2 (tight at speed 3) = 7; 9+9+7 = 25 busts; 3 wounds -> 2;
    remount TN 17-2 = 15 at stress 7: 5+5+7 = 17 passes and skips the next action."""
    bike = BikeState("k1", "police", Pose(0, 0, 0), speed=3, stress=5, wounds=3, turn_number=2)
    state, events = apply_action(bike, "s3: straight 9, right tight 3", rules, dice([9, 9, 5, 5]),
                                 policy=never_push)
    bust = [e for e in events if isinstance(e, BustResult)][0]
    assert bust.remount.tn == 15 and bust.remount.total == 17 and not bust.out_of_game
    assert state.wounds == 2 and state.skip_next_action and not state.out_of_game


def test_EC_ACT_STOPPIE_forces_the_next_action_to_speed_1(rules):
    """Clause: EC-ACT-STOPPIE."""
    bike = BikeState("s", "sportsbike", Pose(0, 0, 0), speed=2, turn_number=2)
    state, _ = apply_action(bike, "stoppie s2: straight 7, pivot left 90", rules, np.random.default_rng(0))
    assert state.stress == 4 and state.forced_speed == 1
    with pytest.raises(IllegalPlanError):
        apply_action(state, "s2: straight 8", rules, np.random.default_rng(0))
    after, _ = apply_action(state, "s1: straight 3", rules, np.random.default_rng(0))
    assert after.forced_speed is None and after.speed == 1


def test_EC_TURN_4_first_action_of_the_game_at_speed_1(rules):
    """Clause: EC-TURN-4."""
    bike = BikeState("k", "police", Pose(0, 0, 0), speed=2, turn_number=1)
    with pytest.raises(IllegalPlanError) as err:
        apply_action(bike, "s2: straight 8", rules, np.random.default_rng(0))
    assert err.value.clause == "EC-TURN-4"
    state, _ = apply_action(bike, "s1: straight 6", rules, np.random.default_rng(0))
    state, _ = apply_action(state, "s2: straight 8", rules, np.random.default_rng(0))
    assert state.speed == 2


def test_EC_ACT_FOCUS_lowers_stress_never_below_zero(rules):
    """Clause: EC-ACT-FOCUS."""
    bike = BikeState("k", "police", Pose(0, 0, 0), speed=2, stress=2, turn_number=2)
    state, _ = apply_action(bike, "focus s2: straight 12", rules, np.random.default_rng(0))
    assert state.stress == 0


def test_EC_ACT_STOP_leaves_the_bike_stopped_and_skipping(rules):
    """Clause: EC-ACT-STOP."""
    bike = BikeState("k", "police", Pose(0, 0, 0), speed=2, turn_number=2)
    state, _ = apply_action(bike, "stop s2: straight 8", rules, np.random.default_rng(0))
    assert state.speed == 0 and state.skip_next_activation


def test_apply_is_seeded_and_leaves_the_input_state_alone(rules):
    """Clause: EC-DICE-1. Same seed, same events; states are immutable values."""
    runs = [apply_action(BIKE, "s3: straight 6, right wide 7", rules, np.random.default_rng(9))
            for _ in range(2)]
    assert runs[0][0] == runs[1][0] and runs[0][1][1] == runs[1][1][1]
    assert BIKE.actions_taken == 0 and BIKE.pose == Pose(10, 10, 0)
