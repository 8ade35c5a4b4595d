"""Playing Jailbreak's holder (entropy3d.game.jail_goals, issue 45): the rider carrying the
prisoner keeps to the roads it must leave by (EC-MISSION-JAIL)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.game.action_view import ActionView
from entropy3d.game.jail_goals import HOLDER_OFF_ROAD, off_road_points, off_roads
from entropy3d.game.npc_goals import stops_by_the_jail
from entropy3d.game.players import AutoPlayer
from entropy3d.game.tableview import LOOKAHEAD_MARGIN_IN, TableView
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.npc_actions import STOP
from entropy3d.systems.entropy_city.state import OUT


@pytest.fixture(scope="module")
def jailbreak():
    table = load_scene(bundled_dir("scenes") / "jailbreak.yaml")
    geometry = build_table_geometry(table)
    return table, geometry, TableView(table, geometry)


def _held_up_the_avenue(table, geometry):
    """Seed 7 of a 6-turn geometric sweep, turn 4 (main d1a25cd): hades_1 holds the prisoner on
    the avenue at (23.68, 32.88) heading north at speed 2, the truck wreck ahead in the avenue's
    west lane, komodo_3 beside it in the east lane at (26.0, 33.57); the other riders out of play
    (a position of the game's, without the far riders)."""
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=4)
    for model in list(state.models.values()):
        if model.id not in ("hades_1", "komodo_3"):
            state = state.with_model(model.but(status=OUT, wounds=0))
    state = state.with_model(state.model("hades_1").but(pose=Pose(23.68, 32.88, 90.0, 0.01), speed=2))
    state = state.with_model(state.model("komodo_3").but(pose=Pose(26.0, 33.57, 90.0, 0.01), speed=1, wounds=2))
    prisoner = dataclasses.replace(state.items[0], carrier="hades_1", locked=False, x=14.5, y=22.7)
    return dataclasses.replace(state, items=(prisoner,))


def test_the_roads_are_the_scenes_strips(jailbreak):
    """The avenue and the main street are roads; the cafe plaza and the park's lawn are not; a
    bare probe with no scene has no roads, so nothing is off them."""
    table, geometry, view = jailbreak
    assert not off_roads((23.7, 40.0), view) and not off_roads((14.5, 22.7), view)
    assert off_roads((30.0, 33.0), view) and off_roads((36.1, 37.3), view)
    assert not off_roads((36.1, 37.3), object())


def test_EC_MISSION_JAIL_the_holder_keeps_to_the_avenue_not_the_park(jailbreak):
    """Clause: EC-MISSION-JAIL. Held up the avenue (the truck wreck ahead, a rival beside it),
    the old player's best clear ride took the prisoner's holder into the park (seed 7: 's3:
    right wide 7, straight 8' to (36.1, 37.3), where it busted on a bench three times and was
    out); ending off the roads now costs HOLDER_OFF_ROAD and it ends its ride on a road."""
    table, geometry, view = jailbreak
    state = _held_up_the_avenue(table, geometry)
    holder = state.model("hades_1")
    action_view = ActionView(state, holder, 0, view, table.ruleset)
    player = AutoPlayer(np.random.default_rng(7), table.ruleset, 1.2, 1.3,
                        lookahead=GeometricProducer(table, geometry, margin_in=LOOKAHEAD_MARGIN_IN))
    plan = player.choose_plan(action_view)
    move = action_view.check(plan)
    end = move.end_pose
    assert not off_roads(end.xy, view), (plan, end)
    assert off_road_points(state, holder, move, view) == 0.0
    park = action_view.check("s3: right wide 7, straight 8")
    assert off_road_points(state, holder, park, view) == HOLDER_OFF_ROAD


def _second_hades_rider_in_the_alley_mouth(table, geometry):
    """Seed 17 of a 6-turn geometric sweep, turn 1 (beab8e6): hades_1 stopped by the door at
    (14.5, 22.7) and its prisoner's test failed (it stays locked in); hades_2 has ridden its first
    action ('s1: straight 4, right tight 3') to (9.91, 23.39), facing south down the alley mouth
    at speed 1; komodo_1 has ridden into the cafe plaza, to (30.09, 27.61); every other model
    where it started."""
    state = table.initial_state(geometry.surface_height)
    state = state.with_model(state.model("hades_1").but(pose=Pose(14.5, 22.7, 0.0, 0.01), speed=0, stopped=True))
    state = state.with_model(state.model("komodo_1").but(pose=Pose(30.09, 27.61, 90.0, 0.12), speed=1))
    return state.with_model(state.model("hades_2").but(pose=Pose(9.91, 23.39, 270.0, 0.01), speed=1,
                                                       actions_taken=1))


@pytest.mark.parametrize("seed", range(8))
def test_EC_MISSION_JAIL_a_rider_stops_only_where_the_stop_frees_the_prisoner(jailbreak, seed):
    """Clause: EC-MISSION-JAIL. A Stop action (EC-ACT-STOP) frees the prisoner only within 4" of
    the jail's door or window; anywhere else it costs the rider its next activation and leaves it
    stopped. From the alley mouth (7" and more from the door whatever it rides) the old player
    weighed 'stop s1: straight 5' as a ride of the same path and took it (seed 17: hades_2
    stopped at (9.91, 18.39) and skipped turn 2); the stops it is offered now are only those
    that end within reach of an opening, so it rides on."""
    table, geometry, view = jailbreak
    state = _second_hades_rider_in_the_alley_mouth(table, geometry)
    rider = state.model("hades_2")
    action_view = ActionView(state, rider, 1, view, table.ruleset)
    player = AutoPlayer(np.random.default_rng(seed), table.ruleset, 1.2, 1.3,
                        lookahead=GeometricProducer(table, geometry, margin_in=LOOKAHEAD_MARGIN_IN))
    plan = player.choose_plan(action_view)
    move = action_view.check(plan)
    assert not (move.plan.action == STOP and not stops_by_the_jail(state.items[0], rider, move, table.ruleset)), plan

