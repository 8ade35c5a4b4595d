"""Distances, speed changes and turn order (EC-SPD-*, EC-BIKE-*, EC-TER-GRAVEL/RUINS, EC-TURN-*)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.speeds import (
    Activator,
    activation_order,
    check_speed_change,
    distance_band,
    roll_off,
)


def band(rules, bike, speed, terrain=()):
    b = distance_band(bike, speed, rules, terrain)
    return (b.min, b.max)


def test_EC_SPD_2_standard_bands(rules):
    """Clause: EC-SPD-2. 8/4, 12/8, 16/12 inches."""
    assert [band(rules, "police", s) for s in (1, 2, 3)] == [(4, 8), (8, 12), (12, 16)]


def test_EC_BIKE_POLICE_is_the_baseline(rules):
    """Clause: EC-BIKE-POLICE."""
    for speed, std in rules.speeds.items():
        assert band(rules, "police", speed) == (std.min, std.max)


def test_EC_BIKE_SPORT_distances(rules):
    """Clause: EC-BIKE-SPORT. Speed 1 max +2; min -1 at all speeds."""
    assert [band(rules, "sportsbike", s) for s in (1, 2, 3)] == [(3, 10), (7, 12), (11, 16)]


def test_EC_BIKE_CRUISER_distances(rules):
    """Clause: EC-BIKE-CRUISER. Speed 1 max -1, speed 3 max +2, min +1 at all speeds."""
    assert [band(rules, "cruiser", s) for s in (1, 2, 3)] == [(5, 7), (9, 12), (13, 18)]


def test_EC_BIKE_TRAIL_distances(rules):
    """Clause: EC-BIKE-TRAIL. Speed 2 max +1; min -1 at all speeds."""
    assert [band(rules, "trailbike", s) for s in (1, 2, 3)] == [(3, 8), (7, 13), (11, 16)]


def test_EC_BIKE_SCOOTER_lower_max_at_every_speed(rules):
    """Clause: EC-BIKE-SCOOTER."""
    for speed in (1, 2, 3):
        assert band(rules, "scooter", speed)[1] < band(rules, "police", speed)[1]


def test_EC_TER_GRAVEL_cruisers_and_sportsbikes_only(rules):
    """Clause: EC-TER-GRAVEL. Min +1, max -2 at every speed, for cruisers and sportsbikes."""
    for terrain in ("gravel", "dirt"):
        assert band(rules, "cruiser", 3, [terrain]) == (14, 16)
        assert band(rules, "sportsbike", 1, [terrain]) == (4, 8)
        assert band(rules, "police", 2, [terrain]) == (8, 12)
    # gravel and dirt together are one rule, applied once
    assert band(rules, "cruiser", 3, ["gravel", "dirt"]) == (14, 16)


def test_EC_TER_RUINS_max_is_min_plus_speed_except_trailbikes(rules):
    """Clause: EC-TER-RUINS."""
    assert band(rules, "police", 2, ["ruins"]) == (8, 10)
    assert band(rules, "police", 3, ["ruins"]) == (12, 15)
    assert band(rules, "trailbike", 2, ["ruins"]) == (7, 13)


def test_EC_SPD_1_speed_changes_by_one(rules):
    """Clause: EC-SPD-1."""
    for before, after in [(1, 2), (2, 3), (3, 2), (2, 1), (2, 2), (0, 1)]:
        assert check_speed_change("police", before, after, rules).stress == 0
    with pytest.raises(IllegalPlanError) as err:
        check_speed_change("police", 1, 3, rules)
    assert err.value.clause == "EC-SPD-1"
    with pytest.raises(IllegalPlanError):
        check_speed_change("police", 3, 1, rules)


def test_EC_BIKE_QUAD_drops_from_3_to_1_for_one_stress(rules):
    """Clause: EC-BIKE-QUAD."""
    change = check_speed_change("quad", 3, 1, rules)
    assert change.stress == 1 and "EC-BIKE-QUAD" in change.clauses
    with pytest.raises(IllegalPlanError):
        check_speed_change("quad", 1, 3, rules)


def test_EC_TURN_4_first_action_of_the_game_is_at_speed_1(rules):
    """Clause: EC-TURN-4."""
    assert check_speed_change("police", 1, 1, rules, first_action_of_game=True).after == 1
    with pytest.raises(IllegalPlanError) as err:
        check_speed_change("police", 1, 2, rules, first_action_of_game=True)
    assert err.value.clause == "EC-TURN-4"


def test_EC_TURN_1_roll_off_highest_chooses_and_ties_reroll(rules, dice):
    """Clause: EC-TURN-1."""
    result = roll_off(dice([5, 5, 3, 7]), rules)
    assert result.rounds == ((5, 5), (3, 7)) and result.winner == 1
    assert roll_off(dice([9, 2]), rules).winner == 0
    seeded = [roll_off(np.random.default_rng(3), rules) for _ in range(2)]
    assert seeded[0] == seeded[1]


def test_EC_TURN_2_speed_bands_in_order_players_alternate(rules):
    """Clause: EC-TURN-2. Speed 3, then 2, then 1, then on foot; players alternate."""
    models = [Activator("a1", "A", 1), Activator("a3", "A", 3), Activator("a3b", "A", 3),
              Activator("b3", "B", 3), Activator("b2", "B", 2), Activator("a2", "A", 2),
              Activator("b0", "B", 0), Activator("b1", "B", 1)]
    order = activation_order(models, "B", rules)
    assert order == ["b3", "a3", "a3b", "b2", "a2", "b1", "a1", "b0"]
    assert activation_order(models, "A", rules)[:3] == ["a3", "b3", "a3b"]


def test_EC_TURN_3_two_actions_per_activation_in_data(rules):
    """Clause: EC-TURN-3 (data; applied in test_activation)."""
    assert rules.data("turn.actions_per_activation") == 2


def test_EC_BASE_bike_bases_are_75x42_ovals_and_quads_70_round(rules):
    """Clause: EC-BASE."""
    oval = rules.base_for("police")
    assert math.isclose(oval.length, 75 / 25.4) and math.isclose(oval.width, 42 / 25.4)
    quad = rules.base_for("quad")
    assert quad.is_round and math.isclose(quad.length, 70 / 25.4)


def test_EC_TER_TABLE_is_48_by_48_inches(rules):
    """Clause: EC-TER-TABLE."""
    assert (rules.data("table.width_in"), rules.data("table.depth_in")) == (48, 48)
