"""Rest and snap checked (issue 18, part 5): after every ridden move the rules pose is checked
against the table: no base inside a solid (moved back along the ridden path, said in a ``rest``
event), no bike floating (it rests on the surface below). The two cases of the issue are built on
tests/physics/data/rest_cases.yaml: a bike whose jump leaves its base inside a building, and a
crash that stops a bike in mid-air."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.core.facts import Facts
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.planner import plan_move
from entropy3d.systems.entropy_city.rest import settle
from entropy3d.table_answers import rests_of_ride
from tests.physics.test_one_path import ROOT, Setup


@pytest.fixture(scope="module")
def cases():
    return Setup(ROOT / "tests" / "physics" / "data" / "rest_cases.yaml")


def _base_inside(cases, model):
    base = cases.table.ruleset.base_for(model.bike_type)
    return cases.probe.solid_under_base(base.outline(model.pose, samples=48), model.pose.z)


def _rode_to(cases, model_id, start: Pose, plan: str, end: Pose):
    """The state with ``model_id`` where a ride left it (``end``), the checked move and minimal facts."""
    model = cases.state.model(model_id)
    move = plan_move(plan, start, model.bike_type, model.speed, cases.table.ruleset)
    facts = Facts("geometric", move.length_in, move.length_in, True, np.zeros((0, 5)), end_pose=end)
    return cases.state.with_model(model.but(pose=end)), move, facts


def _settled(cases, state, model_id, move, facts):
    """:func:`settle` with what the table says of where the bike may rest given with the facts, as
    the one path gives them before resolve (:func:`entropy3d.table_answers.rests_of_ride`)."""
    rests = rests_of_ride(cases.probe, state, model_id, move, facts, cases.table.ruleset)
    return settle(state, model_id, dataclasses.replace(facts, rests=rests), cases.table.ruleset)


def test_EC_TER_BUILDING_a_base_left_064_inside_a_building_is_moved_back_along_its_path(cases):
    """Clause: EC-TER-BUILDING: the issue's case: after a jump the rules put the bike with its base
    0.64" inside building 'shop' (its wall at y = 10.6); the check moves it back along the path it
    rode to the nearest pose where the base is clear, and says so."""
    half_width = cases.table.ruleset.base_for("police").width / 2
    y = 10.6 + 0.64 - half_width
    state, move, facts = _rode_to(cases, "jumper", Pose(14.0, y, 0.0), "s3: straight 16", Pose(30.0, y, 0.0))
    assert _base_inside(cases, state.model("jumper"))[0] == "shop"
    after, events = _settled(cases, state, "jumper", move, facts)
    (event,) = events
    assert event.kind == "rest" and event.piece == "shop" and event.clauses == ("EC-TER-BUILDING",)
    assert event.figures["inside_in"] == pytest.approx(0.64, abs=0.03)
    assert event.figures["along_path"] and "back along its path" in event.rules
    moved = after.model("jumper")
    assert _base_inside(cases, moved) is None
    assert moved.pose.y == pytest.approx(y) and moved.pose.x < 30.0
    ahead = moved.but(pose=dataclasses.replace(moved.pose, x=moved.pose.x + 0.3))
    assert _base_inside(cases, ahead) is not None, "not the nearest clear pose along the path"


def test_a_bike_left_floating_52_above_the_ground_rests_on_it(cases):
    """The issue's case: a crash left the bike 5.2" above the ground; it rests on the ground."""
    state, move, facts = _rode_to(cases, "jumper", Pose(3.0, 20.0, 0.0), "s3: straight 12",
                                  Pose(15.0, 20.0, 0.0, 5.2))
    after, (event,) = _settled(cases, state, "jumper", move, facts)
    assert event.kind == "rest" and event.figures["dropped_in"] == pytest.approx(5.2)
    assert after.model("jumper").pose.z == pytest.approx(0.0)


def test_a_legal_pose_and_a_model_in_the_air_are_left_alone(cases):
    state, move, facts = _rode_to(cases, "jumper", Pose(3.0, 20.0, 0.0), "s3: straight 12", Pose(15.0, 20.0, 0.0))
    assert _settled(cases, state, "jumper", move, facts) == (state, [])
    from entropy3d.systems.entropy_city.state import AirTime

    flying = state.with_model(state.model("jumper").but(pose=Pose(15.0, 20.0, 0.0, 5.2),
                                                        air=AirTime(3, 4.0, (10.0, 0.0, 0.0))))
    assert _settled(cases, flying, "jumper", move, facts) == (flying, [])


def test_a_crash_in_mid_air_leaves_the_bike_on_the_ground_not_floating(cases):
    """Physics: off the kicker at speed 2 straight into a wall close past its lip, the crash stops
    the bike in the air; the rules pose rests on the ground under it."""
    steps = cases.run("physics", cases.state, "flyer", ["s2: straight 12"], push="never")
    crash = next(st for st in steps if any(e.kind == "crash" for e in st.events))
    assert crash.facts.end_pose.z > 0.5, "the producer stopped the bike on the ground: the case is not built"
    (rest,) = [e for e in crash.events if e.kind == "rest"]
    assert rest.figures["dropped_in"] == pytest.approx(crash.facts.end_pose.z)
    assert crash.after.model("flyer").pose.z == pytest.approx(0.0)


@pytest.mark.parametrize("producer", ["physics", "geometric"])
def test_after_a_jump_beside_a_building_no_base_is_inside_it_or_floating(cases, producer):
    """Clause: EC-TER-BUILDING, EC-JUMP-2: a speed-3 jump landing beside 'shop' in the next action;
    after every action the base is clear of solids and the bike on the surface under it."""
    steps = cases.run(producer, cases.state, "jumper", ["s3: straight 16", "s3: straight 12"], push="never")
    on_the_table = 0
    for step in steps:
        model = step.after.model("jumper")
        if not model.in_play or model.air is not None:
            continue
        on_the_table += 1
        assert _base_inside(cases, model) is None, step.events
        assert model.pose.z == pytest.approx(cases.probe.rest_level(model.pose.xy, model.pose.z), abs=0.1)
    assert on_the_table >= 2  # the activation's start and at least its landing were checked, not nothing


@pytest.fixture
def low_print(tmp_path):
    """A 3D-printed door step 0.28" high and 1.18" deep across the road at x 11.4-12.6 (a mesh in
    millimetres), and a cruiser riding east at y 10: the rules of issue 49's case."""
    import trimesh

    from entropy3d.scene import load_scene
    from entropy3d.scene.probe import SceneProbe

    trimesh.creation.box(extents=[30, 120, 7]).apply_translation([0, 0, 3.5]).export(tmp_path / "step.stl")
    (tmp_path / "scene.yaml").write_text(
        "name: t\ngangs: {hades: {name: Hades, colour: '#ff0000'}}\nmeshes:\n"
        "  - {id: door_step, file: step.stl, units: mm, position: [12, 10, 0]}\n"
        "models:\n  - {id: a, gang: hades, bike: cruiser, position: [4, 10], facing: 0, speed: 2}\n")
    table = load_scene(tmp_path / "scene.yaml")
    return table, SceneProbe.from_table(table)


@pytest.mark.parametrize("end_x", [12.8, 13.2])
def test_EC_TER_BUILDING_a_bike_put_back_from_a_low_print_is_clear_of_it_not_perched_on_it(low_print, end_x):
    """Clause: EC-TER-BUILDING. Issue 49, item 6: physics rode a bike over a low print and
    stopped it just past, its base 0.5" into the print's far side; the rules "put it back clear"
    0.2" along its path, onto the print, its 2.95" base perched on the 1.18" step and still over
    it. Clear is now clear: no solid under the base and no part of it more than a step above what
    is under it, so it goes back before the print."""
    import shapely

    from entropy3d.table_answers import is_clear

    table, probe = low_print
    state = table.initial_state()
    model = state.model("a")
    move = plan_move("s2: straight 9", model.pose, model.bike_type, 2, table.ruleset)
    end = Pose(end_x, 10.0, 0.0, 0.0)
    facts = Facts("physics", move.length_in, end_x - 4.0, False, np.zeros((0, 5)), end_pose=end)
    there = state.with_model(model.but(pose=end))
    facts = dataclasses.replace(facts, rests=rests_of_ride(probe, there, "a", move, facts, table.ruleset))
    after, (event,) = settle(there, "a", facts, table.ruleset)
    assert event.piece == "door_step" and event.figures["along_path"] and "back along its path" in event.rules
    rests = after.model("a").pose
    base = table.ruleset.base_for(model.bike_type)
    step = [f for f in probe.footprints if f.piece_id == "door_step"][0]
    assert shapely.Polygon(base.outline(rests, samples=48)).intersection(step.outline).area == 0.0
    assert rests.z == 0.0 and rests.x < 11.4 - 1.4
    assert is_clear(rests, base, probe, table.ruleset.data("ride.step_height_in"))
    perched = Pose(12.0, 10.0, 0.0, 0.28)  # on the step: no solid under it at its level, yet not clear
    assert probe.solid_under_base(base.outline(perched, samples=48), perched.z) is None
    assert not is_clear(perched, base, probe, table.ruleset.data("ride.step_height_in"))


def test_EC_TER_BUILDING_a_base_with_no_clear_spot_near_stays_and_the_event_says_so(cases):
    """Clause: EC-TER-BUILDING. Issue 49, item 6: where no point of the path and no spot within 4"
    is clear, the bike was "moved 0.0\" to the nearest clear spot" inside the wall. It stays, and
    the event says that no clear spot was found."""
    state, move, facts = _rode_to(cases, "jumper", Pose(28.0, 14.3, 0.0), "s2: straight 8", Pose(36.0, 14.3, 0.0))
    assert _base_inside(cases, state.model("jumper"))[0] == "shop"
    after, (event,) = _settled(cases, state, "jumper", move, facts)
    assert event.piece == "shop" and event.figures["clear"] is False and event.figures["moved_in"] == 0.0
    assert "no clear spot is on its path or within 4\" of it: it stays where it stopped" in event.rules
    assert after.model("jumper").pose == state.model("jumper").pose


def test_a_bike_halfway_up_a_ramp_is_clear_though_its_ends_are_a_step_off_its_level():
    """Clause: EC-TER-BUILDING (the put-back's "clear"), EC-JUMP-1 (ramps). On review of issue 49's
    rule: a base along a 1:3 ramp has its ends 0.49" above and below its
    centre's level, more than a step, and every put-back candidate on a ramp was refused as
    "perched". On a ramp only solids count; off it, the step test stands."""
    from entropy3d.scene import load_scene
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.table_answers import is_clear

    # the crossroads' street_kicker: from (37, 25) heading 180 (west), 3" long, rising 1"
    table = load_scene(ROOT / "scenes" / "crossroads.yaml")
    probe = SceneProbe.from_table(table)
    base = table.ruleset.base_for("sportsbike")
    step = table.ruleset.data("ride.step_height_in")
    halfway = Pose(35.5, 25.0, 180.0, probe.rest_level(np.array([35.5, 25.0]), 1.0))
    assert halfway.z == pytest.approx(0.5, abs=0.02)
    levels = probe.rest_levels(base.outline(halfway, samples=48), halfway.z)
    assert levels.max() - levels.min() > 2 * step  # the slope under the base
    assert is_clear(halfway, base, probe, step)
