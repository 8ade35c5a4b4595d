"""Table events: crashes, the cliff edge, destructibles, jumps (EC-COL-*, EC-DEST-*, EC-JUMP-*)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.systems.entropy_city.dice import never_push
from entropy3d.systems.entropy_city.events import (
    HEAD_ON,
    SIDE_ON,
    crash_kind,
    resolve_cliff_edge,
    resolve_crash,
    resolve_destructible,
    resolve_jump,
    takes_off,
)


def test_EC_COL_HEAD_within_45_degrees_of_straight_ahead_is_head_on(rules):
    """Clause: EC-COL-HEAD, EC-COL-SIDE. Threshold 45 degrees (data)."""
    assert crash_kind(0, 0, rules) == HEAD_ON
    assert crash_kind(90, 135, rules) == HEAD_ON
    assert crash_kind(350, 30, rules) == HEAD_ON
    assert crash_kind(0, 46, rules) == SIDE_ON
    assert crash_kind(0, -90, rules) == SIDE_ON


def test_EC_COL_HEAD_survival_tn_21_minus_dodge_stops_with_4_stress(rules, dice):
    """Clause: EC-COL-HEAD, EC-COL-1. Dodge 2 -> TN 19; 9+10 = 19 survives."""
    result = resolve_crash(0, 10, 2, 0, rules, dice([9, 10]), never_push)
    assert result.kind == HEAD_ON and result.tn == 19 and result.survived
    assert result.stress_added == 4 and result.skip_next_activation and result.speed_after is None
    assert "EC-COL-1" in result.clauses and "EC-COL-HEAD" in result.clauses


def test_EC_COL_SIDE_survival_tn_18_minus_dodge_speed_1_and_2_stress(rules, dice):
    """Clause: EC-COL-SIDE. Dodge 1 -> TN 17; 8+9 = 17 survives."""
    result = resolve_crash(0, 90, 1, 0, rules, dice([8, 9]), never_push)
    assert result.kind == SIDE_ON and result.tn == 17 and result.survived
    assert result.stress_added == 2 and result.speed_after == 1 and not result.skip_next_activation


def test_EC_COL_1_failed_survival_is_a_crash(rules, dice):
    """Clause: EC-COL-1, EC-DICE-4."""
    result = resolve_crash(0, 90, 0, 0, rules, dice([8, 9]), never_push)
    assert result.survived is False and result.stress_added == 0 and "EC-DICE-4" in result.clauses
    unrolled = resolve_crash(0, 0, 0, 0, rules)
    assert unrolled.roll is None and unrolled.tn == 21


def test_EC_COL_EDGE_over_the_cliff_busts_without_a_test():
    """Clause: EC-COL-EDGE."""
    edge = resolve_cliff_edge()
    assert edge.busts and edge.out_of_game and edge.clauses == ("EC-COL-EDGE",)


def test_EC_DEST_2_needs_full_movement_at_speed_2_or_more(rules):
    """Clause: EC-DEST-2."""
    assert not resolve_destructible(1, True, 1, 0, rules).eligible
    assert not resolve_destructible(3, False, 1, 0, rules).eligible
    assert resolve_destructible(2, True, 1, 0, rules).eligible


def test_EC_DEST_3_risk_stress_and_tn_13_test_fail_turns_the_bike_2_inches(rules, dice):
    """Clause: EC-DEST-3. Risk 3 stress is taken before the test: 4+5+3 = 12 < 13 fails."""
    result = resolve_destructible(2, True, 3, 0, rules, dice([4, 5]), never_push)
    assert result.stress_added == 3 and result.tn == 13 and result.roll.total == 12
    assert not result.roll.succeeded and result.forced_turn_in == 2 and result.item_moved_in == 0


def test_EC_DEST_4_success_moves_the_item_speed_x_2_inches(rules, dice):
    """Clause: EC-DEST-4. 6+6+risk 1 = 13 succeeds; at speed 3 the item moves 6 inches."""
    result = resolve_destructible(3, True, 1, 0, rules, dice([6, 6]), never_push)
    assert result.roll.succeeded and result.item_moved_in == 6 and result.forced_turn_in == 0


def test_EC_DEST_1_risk_is_1_to_3(rules):
    """Clause: EC-DEST-1."""
    with pytest.raises(ValueError):
        resolve_destructible(2, True, 4, 0, rules)
    with pytest.raises(ValueError):
        resolve_destructible(2, True, 0, 0, rules)


def test_EC_JUMP_1_air_time_needs_speed_2_or_3(rules):
    """Clause: EC-JUMP-1."""
    assert not resolve_jump(1, "police", rules).air_time
    assert resolve_jump(2, "police", rules).air_time


def test_EC_JUMP_1_a_jump_is_off_a_ramp_or_a_levels_edge_not_a_bump(rules):
    """Clause: EC-JUMP-1: off a ramp, or off a level's edge dropping more than the step height
    (ride.step_height_in, 0.2"), is a jump; a 0.12" curb is a bump."""
    assert takes_off("ramp", 0.0, rules)
    assert takes_off("platform", 2.0, rules)
    assert not takes_off("block", 0.12, rules)
    assert not takes_off("ground", 0.0, rules)


def test_EC_JUMP_4_lands_at_the_max_distance_of_the_launch_speed(rules):
    """Clause: EC-JUMP-4."""
    assert resolve_jump(2, "police", rules).landing_distance_in == 12
    assert resolve_jump(3, "cruiser", rules).landing_distance_in == 18


def test_events_are_seeded(rules):
    """Clause: EC-COL-HEAD. Same seed, same crash roll."""
    a = resolve_crash(0, 0, 2, 3, rules, np.random.default_rng(5))
    b = resolve_crash(0, 0, 2, 3, rules, np.random.default_rng(5))
    assert a == b
