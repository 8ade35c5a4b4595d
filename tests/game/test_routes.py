"""The automatic players' ways along open ground (entropy3d.game.routes) and what a Grab n Go
holder makes of them (entropy3d.game.mission_goals), on the Grab yard (tests/data/grab_yard.yaml):
a 36" x 24" yard, shed_west across x 9-11, y 7-19 between Hades' west edge and the packages."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.game.mission_goals import STAGE_IN, RiderGoal
from entropy3d.game.routes import RouteMap
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import Item
from entropy3d.systems.entropy_city.transition import Action, check
from tests.systems.entropy_city.test_grab import YARD


@pytest.fixture(scope="module")
def yard():
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe

    table = load_scene(YARD)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    return table, geometry, probe, RouteMap(probe, 0.5 * table.ruleset.base_for("sportsbike").width + 0.1)


def test_the_way_to_a_package_goes_round_the_shed_and_an_edge_is_as_far_as_open_ground_lets_it(yard):
    """From (4, 12), west of the shed, package_1 at (18, 12) is 14" as the crow flies; round the
    shed's nearer end (its corners (9, 19) and (11, 19)) the way is at least hypot(5, 7) + 2 +
    hypot(7, 7) = 20.5"; the west edge is 4" away along open ground, straight."""
    *_, routes = yard
    way = routes.to_points([(18, 12)], (4, 12))
    assert np.hypot(5.0, 7.0) + 2.0 + np.hypot(7.0, 7.0) <= way <= 26.0
    assert routes.to_points([(18, 12)], (17, 12)) == pytest.approx(1.0, abs=0.5)
    assert routes.to_edge("west", (4, 12)) == pytest.approx(4.0, abs=0.5)
    assert routes.to_edge("east", (4, 12)) > 32.0  # round the shed, not through it


def test_EC_MISSION_GRAB_a_holder_waits_out_its_hold_short_of_its_edge_then_rides_for_it(yard):
    """Clause: EC-MISSION-GRAB. Ash holds package_2 at (22, 3), below the sheds, facing west: with 0
    complete actions held (this move makes 1, so it may not ride off next) its pull favours ending
    STAGE_IN (10") along open ground from the west edge over ending 3" from it; with 1 held (this
    move completes its hold) the nearer end is the better."""
    table, geometry, probe, routes = yard
    start = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    state = start.with_model(start.model("h1").but(pose=Pose(22, 3, 180), speed=2))
    for held, nearer_better in ((0, False), (1, True)):
        holding = state.with_item(Item("package_2", 22, 3, carrier="h1", held=held))
        goal = RiderGoal.of(holding, holding.model("h1"), table.ruleset, routes)
        assert goal.carrying and goal.home == "west" and goal.ready_next == nearer_better
        staged = check(holding, Action.ride("h1", "s2: straight 12"), table.ruleset, probe).move  # ends x 10
        near = check(holding, Action.ride("h1", "s3: straight 16"), table.ruleset, probe).move  # ends x 6
        assert routes.to_edge("west", staged.end_pose.xy) == pytest.approx(STAGE_IN, abs=1.0)  # a cell out
        staged_pull, _ = goal.home_points(holding.model("h1"), staged, probe)
        near_pull, _ = goal.home_points(holding.model("h1"), near, probe)
        assert (near_pull > staged_pull) == nearer_better, (held, near_pull, staged_pull)
