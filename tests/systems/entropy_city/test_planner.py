"""Move planning (EC-TMPL-*, EC-MOVE-*, EC-WEAVE-1, EC-ACT-*, EC-BIKE-*, EC-TER-*)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entropy3d.errors import IllegalPlanError, PlanError
from entropy3d.geometry import Pose, polyline_length
from entropy3d.systems.entropy_city.plan import Plan, Straight, Turn, Weave, parse_plan
from entropy3d.systems.entropy_city.planner import plan_move, template_radius
from entropy3d.systems.entropy_city.speeds import distance_band

ORIGIN = Pose(10.0, 10.0, 0.0)


def refuse(rules, text, bike="police", speed=None, **kw):
    speed = parse_plan(text).speed if speed is None else speed
    with pytest.raises(IllegalPlanError) as err:
        plan_move(text, ORIGIN, bike, speed, rules, **kw)
    return err.value.clause


class FakeTable:
    """A TableProbe fake: fixed terrain everywhere (and on turns), curbs and buildings."""

    def __init__(self, terrain=("asphalt",), turn_terrain=None, curbs=(), building=False):
        self.terrain, self.turn_terrain = list(terrain), turn_terrain
        self.curbs, self.building = list(curbs), building
        self.calls = 0

    def terrain_along(self, path):
        self.calls += 1
        if self.turn_terrain is not None and self.calls > 1:
            return list(self.turn_terrain)
        return self.terrain

    def curb_crossings(self, path):
        return [(angle, "block", 1.0) for angle in self.curbs]

    def building_entered(self, path, level=0.0):
        return ("shop", 2.0) if self.building else None


def test_EC_TMPL_1_speed3_full_wide_template_is_7_inches_of_arc(rules):
    """Clause: EC-TMPL-1. A 90-degree arc whose length (7") counts toward the move."""
    move = plan_move("s3: straight 6, right wide 7", ORIGIN, "police", 3, rules)
    r = 14 / math.pi
    assert math.isclose(template_radius("wide", rules), r)
    assert move.length_in == 13
    assert math.isclose(move.end_pose.x, 10 + 6 + r, abs_tol=1e-9)
    assert math.isclose(move.end_pose.y, 10 - r, abs_tol=1e-9)
    assert math.isclose(move.end_pose.facing_deg, 270.0)
    # the arc's own polyline length matches its counted length
    assert math.isclose(polyline_length(move.path), 13, rel_tol=1e-3)


def test_EC_TMPL_1_partial_turn_stops_at_an_inch_mark(rules):
    """Clause: EC-TMPL-1. 3" along the 7" wide template turns 3/7 of 90 degrees."""
    move = plan_move("s3: straight 10, left wide 3", ORIGIN, "police", 3, rules)
    assert math.isclose(move.end_pose.facing_deg, 90 * 3 / 7)
    with pytest.raises(PlanError):
        plan_move("s3: straight 10, left wide 2.5", ORIGIN, "police", 3, rules)


def test_EC_TMPL_1_a_turn_cannot_run_past_the_template(rules):
    """Clause: EC-TMPL-1."""
    assert refuse(rules, "s1: straight 2, left tight 4") == "EC-TMPL-1"


def test_EC_BIKE_SPORT_turns_further_for_stress_at_speed_2_and_3(rules):
    """Clause: EC-BIKE-SPORT. x+2 inches further for x stress (x >= 1)."""
    base = plan_move("s2: straight 4, right medium 5", ORIGIN, "sportsbike", 2, rules)
    longer = plan_move("s2: straight 4, right medium 8", ORIGIN, "sportsbike", 2, rules)
    assert longer.stress - base.stress == 1 and "EC-BIKE-SPORT" in longer.clauses
    longest = plan_move("s2: straight 1, right medium 10", ORIGIN, "sportsbike", 2, rules)
    assert longest.stress - base.stress == 3
    assert refuse(rules, "s1: straight 1, left tight 4", bike="sportsbike") == "EC-TMPL-1"
    assert refuse(rules, "s2: straight 1, left medium 8", bike="police") == "EC-TMPL-1"


TABLE = {  # speed, template -> (instant stress, stress on a failed TN 14 test or None)
    (1, "tight"): (0, 1), (1, "medium"): (0, None), (1, "wide"): (0, None),
    (2, "tight"): (1, 2), (2, "medium"): (0, 1), (2, "wide"): (0, None),
    (3, "tight"): (2, 4), (3, "medium"): (1, 2), (3, "wide"): (0, 2),
}


@pytest.mark.parametrize("speed, template", sorted(TABLE))
def test_EC_TMPL_2_speed_by_template_stress_table(rules, speed, template):
    """Clause: EC-TMPL-2."""
    length = {"tight": 3, "medium": 5, "wide": 7}[template]
    straight = max(1, rules.speeds[speed].min - length + 1)
    move = plan_move(f"s{speed}: straight {straight:g}, left {template} {length}", ORIGIN, "police",
                     speed, rules)
    instant, on_fail = TABLE[(speed, template)]
    assert move.stress == instant
    if on_fail is None:
        assert move.tests == ()
    else:
        assert [(t.tn, t.stress_on_fail, t.clause) for t in move.tests] == [(14, on_fail, "EC-TMPL-2")]


def test_EC_TMPL_3_one_template_per_standard_action(rules):
    """Clause: EC-TMPL-3."""
    assert refuse(rules, "s2: right medium 5, left medium 5") == "EC-TMPL-3"


def test_EC_MOVE_2_turn_only_at_start_or_end(rules):
    """Clause: EC-MOVE-2."""
    assert refuse(rules, "s2: straight 3, right medium 3, straight 3") == "EC-MOVE-2"
    start = plan_move("s2: right medium 3, straight 6", ORIGIN, "police", 2, rules)
    end = plan_move("s2: straight 6, right medium 3", ORIGIN, "police", 2, rules)
    assert start.length_in == end.length_in == 9 and "EC-MOVE-2" in start.clauses


def test_EC_MOVE_1_minimum_distance(rules):
    """Clause: EC-MOVE-1."""
    assert refuse(rules, "s2: straight 7") == "EC-MOVE-1"
    assert plan_move("s2: straight 8", ORIGIN, "police", 2, rules).length_in == 8


def test_EC_SPD_2_maximum_distance(rules):
    """Clause: EC-SPD-2."""
    assert refuse(rules, "s2: straight 13") == "EC-SPD-2"
    assert refuse(rules, "s1: straight 9") == "EC-SPD-2"
    assert plan_move("s1: straight 10", ORIGIN, "sportsbike", 1, rules).length_in == 10


def test_EC_SPD_1_plan_speed_must_follow_the_previous_speed(rules):
    """Clause: EC-SPD-1, EC-TURN-4."""
    assert refuse(rules, "s3: straight 12", speed=1) == "EC-SPD-1"
    assert refuse(rules, "s2: straight 8", speed=1, first_action_of_game=True) == "EC-TURN-4"
    quad = plan_move("s1: straight 4", ORIGIN, "quad", 3, rules)
    assert quad.stress == 1


def test_EC_WEAVE_1_first_inch_free_then_2_stress_per_inch(rules):
    """Clause: EC-WEAVE-1."""
    costs = {w: plan_move(f"s2: straight 4, weave left {w}, straight 4", ORIGIN, "police", 2, rules).stress
             for w in (0.5, 1, 1.5, 2, 3)}
    assert costs == {0.5: 0, 1: 0, 1.5: 2, 2: 2, 3: 4}
    move = plan_move("s2: straight 4, weave left 1, straight 4", ORIGIN, "police", 2, rules)
    assert math.isclose(move.end_pose.y, 11.0) and math.isclose(move.end_pose.x, 18.0)
    assert move.length_in == 8  # the sidestep does not count toward the move


def test_EC_WEAVE_1_once_and_only_in_straight_movement(rules):
    """Clause: EC-WEAVE-1."""
    assert refuse(rules, "s2: straight 4, weave left, straight 2, weave right, straight 2") == "EC-WEAVE-1"
    assert refuse(rules, "s2: right medium 5, weave left") == "EC-WEAVE-1"


def test_EC_ACT_FOCUS_full_move_no_turn_relieves_stress(rules):
    """Clause: EC-ACT-FOCUS. -3 stress, -2 if the speed changed."""
    assert plan_move("focus s2: straight 12", ORIGIN, "police", 2, rules).stress == -3
    assert plan_move("focus s2: straight 12", ORIGIN, "police", 1, rules).stress == -2
    assert refuse(rules, "focus s2: straight 11") == "EC-ACT-FOCUS"
    assert refuse(rules, "focus s2: straight 7, left medium 5") == "EC-ACT-FOCUS"
    assert plan_move("focus s2: straight 12", ORIGIN, "police", 2, rules).attacks_allowed == 0


def test_EC_ACT_CHICANE_up_to_three_templates_no_weave(rules):
    """Clause: EC-ACT-CHICANE. +1 stress per template after the first, no attack."""
    move = plan_move("chicane s1: left tight 2, straight 1, right tight 2, left tight 3", ORIGIN, "police",
                     1, rules)
    assert move.stress == 2 and move.attacks_allowed == 0 and len(move.tests) == 3
    assert refuse(rules, "chicane s1: left tight 1, right tight 1, left tight 1, right tight 1") == \
        "EC-ACT-CHICANE"
    assert refuse(rules, "chicane s1: straight 3, weave left, straight 2") == "EC-ACT-CHICANE"


def test_EC_ACT_GUNGHO_double_full_movement_two_turns_anywhere(rules):
    """Clause: EC-ACT-GUNGHO."""
    move = plan_move("gungho s3: straight 10, left wide 7, straight 3, right wide 7, straight 5", ORIGIN,
                     "police", 3, rules)
    assert move.length_in == 32 and move.attacks_allowed == 4
    assert refuse(rules, "gungho s3: straight 31") == "EC-ACT-GUNGHO"
    assert refuse(rules, "gungho s3: left wide 7, straight 4, left wide 7, straight 7, left wide 7") == \
        "EC-ACT-GUNGHO"
    assert refuse(rules, "gungho s3: straight 32", action_index=1) == "EC-ACT-GUNGHO"


def test_EC_ACT_STOPPIE_rules(rules):
    """Clause: EC-ACT-STOPPIE. Sport/trail at speed 1-2, +2 x speed stress, 45-180 degree pivot on
    the front of the base, next action at speed 1."""
    move = plan_move("stoppie s2: straight 7, pivot left 180", ORIGIN, "trailbike", 2, rules)
    length = rules.base_for("trailbike").length
    assert move.stress == 4 and move.next_action_speed == 1
    front_before = np.array([17.0 + length / 2, 10.0])
    front_after = move.end_pose.xy + length / 2 * move.end_pose.forward
    assert np.allclose(front_before, front_after) and math.isclose(move.end_pose.facing_deg, 180)
    assert plan_move("stoppie s1: straight 3, pivot right 45", ORIGIN, "sportsbike", 1, rules).stress == 2
    assert refuse(rules, "stoppie s2: straight 9, pivot left 90", bike="cruiser") == "EC-ACT-STOPPIE"
    assert refuse(rules, "stoppie s3: straight 11, pivot left 90", bike="sportsbike") == "EC-ACT-STOPPIE"
    assert refuse(rules, "stoppie s2: straight 7, pivot left 30", bike="sportsbike") == "EC-ACT-STOPPIE"
    assert refuse(rules, "s2: straight 8, pivot left 90") == "EC-ACT-STOPPIE"


def test_EC_ACT_STOP_speed_1_or_2_minimum_distance_then_stopped(rules):
    """Clause: EC-ACT-STOP."""
    move = plan_move("stop s2: straight 8", ORIGIN, "police", 2, rules)
    assert move.stopped and move.skips_next_activation and move.attacks_allowed == 0
    assert refuse(rules, "stop s3: straight 12") == "EC-ACT-STOP"
    assert refuse(rules, "stop s2: straight 9") == "EC-ACT-STOP"


def test_EC_ACT_LAYTRAP_speed_1_minimum_distance(rules):
    """Clause: EC-ACT-LAYTRAP."""
    assert plan_move("laytrap s1: straight 4", ORIGIN, "police", 1, rules).stopped
    assert refuse(rules, "laytrap s2: straight 8") == "EC-ACT-LAYTRAP"
    assert refuse(rules, "laytrap s1: straight 5") == "EC-ACT-LAYTRAP"


def test_EC_JUMP_1_a_jump_needs_speed_2_or_3(rules):
    """Clause: EC-JUMP-1."""
    assert plan_move("jump s2: straight 10", ORIGIN, "police", 2, rules).airborne
    assert refuse(rules, "jump s1: straight 6") == "EC-JUMP-1"


def test_EC_BIKE_QUAD_turns_only_at_speed_1_and_2_and_always_pays_at_2(rules):
    """Clause: EC-BIKE-QUAD."""
    assert refuse(rules, "s3: straight 6, right wide 7", bike="quad") == "EC-BIKE-QUAD"
    quad = plan_move("s2: straight 4, right wide 7", ORIGIN, "quad", 2, rules)
    police = plan_move("s2: straight 4, right wide 7", ORIGIN, "police", 2, rules)
    assert (quad.stress, police.stress) == (1, 0)


def test_EC_TER_GRASS_turn_stress_plus_one(rules):
    """Clause: EC-TER-GRASS."""
    move = plan_move("s3: straight 6, right wide 7", ORIGIN, "police", 3, rules,
                     table=FakeTable(turn_terrain=["grass"]))
    assert move.stress == 1 and move.tests[0].stress_on_fail == 3


def test_EC_TER_RUINS_every_turn_costs_a_stress_and_the_max_drops(rules):
    """Clause: EC-TER-RUINS."""
    move = plan_move("s1: straight 2, left tight 3", ORIGIN, "police", 1, rules,
                     table=FakeTable(terrain=["ruins"], turn_terrain=["ruins"]))
    assert move.stress == 1
    assert refuse(rules, "s3: straight 16", table=FakeTable(terrain=["ruins"])) == "EC-SPD-2"
    trail = plan_move("s1: straight 2, left tight 3", ORIGIN, "trailbike", 1, rules,
                      table=FakeTable(terrain=["ruins"], turn_terrain=["ruins"]))
    assert trail.stress == 0


def test_EC_TER_SAND_one_stress_trailbike_first_free(rules):
    """Clause: EC-TER-SAND."""
    sand = FakeTable(terrain=["sand"])
    assert plan_move("s1: straight 5", ORIGIN, "police", 1, rules, table=sand).stress == 1
    trail = plan_move("s1: straight 5", ORIGIN, "trailbike", 1, rules, table=FakeTable(terrain=["sand"]))
    assert trail.stress == 0 and trail.sand_free_used
    again = plan_move("s1: straight 5", ORIGIN, "trailbike", 1, rules, table=FakeTable(terrain=["sand"]),
                      sand_free_available=False)
    assert again.stress == 1


def test_EC_TER_GRAVEL_in_the_planner(rules):
    """Clause: EC-TER-GRAVEL. A cruiser at speed 3 on gravel may not ride 17"."""
    assert plan_move("s3: straight 17", ORIGIN, "cruiser", 3, rules).length_in == 17
    assert refuse(rules, "s3: straight 17", bike="cruiser", table=FakeTable(["gravel"])) == "EC-SPD-2"


def test_EC_TER_CURB_crossing_needs_45_degrees(rules):
    """Clause: EC-TER-CURB."""
    assert refuse(rules, "s1: straight 6", table=FakeTable(curbs=[30.0])) == "EC-TER-CURB"
    assert plan_move("s1: straight 6", ORIGIN, "police", 1, rules, table=FakeTable(curbs=[45.0, 90.0]))


def test_EC_TER_BUILDING_bikes_cannot_enter(rules):
    """Clause: EC-TER-BUILDING."""
    assert refuse(rules, "s1: straight 6", table=FakeTable(building=True)) == "EC-TER-BUILDING"


def test_EC_BIKE_SCOOTER_may_not_cross_dangerous_terrain(rules):
    """Clause: EC-BIKE-SCOOTER."""
    assert refuse(rules, "s1: straight 5", bike="scooter", table=FakeTable(["ruins"])) == "EC-BIKE-SCOOTER"
    assert plan_move("s1: straight 5", ORIGIN, "police", 1, rules, table=FakeTable(["ruins"]))


def test_EC_TMPL_1_path_is_dense_continuous_and_headings_follow_it(rules):
    """Clause: EC-TMPL-1. Points <= 0.25" apart; headings match the travel direction."""
    move = plan_move("s3: right wide 7, straight 6", Pose(5, 5, 30), "police", 3, rules)
    steps = np.diff(move.path, axis=0)
    lengths = np.linalg.norm(steps, axis=1)
    assert lengths.max() <= 0.25 + 1e-9 and len(move.path) == len(move.headings_deg)
    travel = np.degrees(np.arctan2(steps[:, 1], steps[:, 0]))
    mid = 0.5 * (move.headings_deg[1:] + move.headings_deg[:-1])
    diff = (travel - mid + 180) % 360 - 180
    assert np.abs(diff).max() < 1.0


segment = st.one_of(
    st.builds(Straight, st.integers(1, 18).map(float)),
    st.builds(Turn, st.sampled_from(["left", "right"]), st.sampled_from(["tight", "medium", "wide"]),
              st.integers(1, 10).map(float)),
    st.builds(Weave, st.sampled_from(["left", "right"]), st.sampled_from([0.5, 1.0, 2.0])),
)


@settings(deadline=None, max_examples=150)
@given(action=st.sampled_from(["move", "focus", "chicane", "gungho", "stop", "jump"]),
       speed=st.integers(1, 3), before=st.integers(1, 3),
       bike=st.sampled_from(["police", "sportsbike", "cruiser", "trailbike", "quad", "scooter"]),
       segs=st.lists(segment, min_size=1, max_size=4), heading=st.floats(0, 359))
def test_EC_SPD_2_planning_never_exceeds_the_allowed_maximum(rules, action, speed, before, bike, segs,
                                                               heading):
    """Clause: EC-SPD-2, EC-ACT-GUNGHO. Any accepted plan stays within its band (gung-ho: double);
    a plan longer than the band is always refused, and every refusal names a clause."""
    plan = Plan(action, speed, tuple(segs))
    counted = sum(s.inches for s in segs if isinstance(s, (Straight, Turn)))
    limit = distance_band(bike, speed, rules).max * (2 if action == "gungho" else 1)
    try:
        move = plan_move(plan, Pose(0, 0, heading), bike, before, rules)
    except IllegalPlanError as err:
        assert re.fullmatch(r"EC-[A-Z0-9]+(-[A-Z0-9]+)*", err.clause)
    else:
        weave = sum(s.inches for s in segs if isinstance(s, Weave))
        assert counted <= limit + 1e-9 and math.isclose(move.length_in, counted)
        assert polyline_length(move.path) <= limit + weave + 1e-6


def test_EC_TER_CURB_angle_is_folded_either_way_along_the_curb(rules):
    """Clause: EC-TER-CURB. 135 degrees is 45 from the curb line the other way; 170 is 10."""
    from entropy3d.systems.entropy_city.planner import curb_crossing_allowed

    assert curb_crossing_allowed(45, rules) and curb_crossing_allowed(90, rules)
    assert curb_crossing_allowed(135, rules) and curb_crossing_allowed(-60, rules)
    assert not curb_crossing_allowed(44, rules) and not curb_crossing_allowed(170, rules)
