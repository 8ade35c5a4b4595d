"""The automatic player's look-ahead on the real crossroads table: a rider a crash left beside a
wall is not cornered when the game's own producer rides a plan clear (issue 11: no crash into
static scenery that a straight or a template within the rules would have avoided)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.game.action_view import ActionView
from entropy3d.game.candidates import candidate_plans, check_plans
from entropy3d.game.players import AutoPlayer, ride_meets
from entropy3d.game.tableview import LOOKAHEAD_MARGIN_IN, TableView
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.state import OUT, Wreck


@pytest.fixture(scope="module")
def beside_corner_flats():
    """Seed 14 of the default demo, turn 3: the trailbike hades_4 on the sidewalk 1" west of the
    corner_flats building, heading north along its wall at speed 1, its second action to come;
    hades_2 in the alley 2" to its west, hades_3's wreck beyond."""
    table = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=3)
    rider = state.model("hades_4").but(pose=Pose(12.0117, 17.6419, 90.0, 0.12), speed=1, actions_taken=1,
                                       only_moved=True)
    state = state.with_model(rider).with_model(state.model("hades_2").but(pose=Pose(9.9099, 16.3901, 270.0, 0.01),
                                                                         speed=1))
    state = state.with_model(state.model("hades_3").but(status=OUT, wounds=0))
    state = dataclasses.replace(state, wrecks=(Wreck("wreck_hades_3", "hades_3", Pose(9.1981, 21.2, 0.0, 0.01)),))
    view = ActionView(state, state.model("hades_4"), 1, TableView(table, geometry), table.ruleset)
    physics = PhysicsProducer(table, geometry, rides_per_process=None)
    yield view, GeometricProducer(table, geometry, margin_in=LOOKAHEAD_MARGIN_IN), physics
    physics.close()


def _player(view, lookahead, physics, **changes) -> AutoPlayer:
    return AutoPlayer(np.random.default_rng(14), view.ruleset, 0.8, 1.5, lookahead=lookahead, confirm=physics,
                      **changes)


def test_beside_a_wall_the_player_rides_the_plan_physics_finds_clear(beside_corner_flats):
    """The look-ahead keeps 0.3" from walls, so beside one it finds every plan meeting something;
    physics rides some straights clear. The player rides one of those (it rode the plan that got
    furthest in the look-ahead, into the building's wall, before it rode its best plans through
    the game's producer: ``rescues=0`` shows it still would)."""
    view, lookahead, physics = beside_corner_flats
    legal = []
    for move in check_plans(view, candidate_plans(view)):
        try:
            legal.append((view.checked(move.plan), move))
        except IllegalPlanError:  # refused against the table (a curb, the building)
            continue
    assert legal and all(ride_meets(view, action, move, lookahead) is not None for action, move in legal)
    clear = {str(move.plan) for action, move in legal if ride_meets(view, action, move, physics) is None}
    assert clear, "no plan rides clear: the state no longer shows the case"

    chosen = _player(view, lookahead, physics).choose_plan(view)
    assert chosen in clear
    assert ride_meets(view, view.checked(chosen), view.check(chosen), physics) is None

    old = _player(view, lookahead, physics, rescues=0, confirms=3).choose_plan(view)
    assert ride_meets(view, view.checked(old), view.check(old), physics) is not None



def test_plans_past_the_look_ahead_are_checked_against_the_table_only_to_be_rescued(beside_corner_flats):
    """The player checks a plan against the table (curbs, buildings: the plan's path traced
    again) only when it rides it: ahead, within ``looks``, or through the game's producer in a
    rescue. Beside the wall every plan meets something ahead; with no producer to rescue one (a
    geometric game) it checks as many legal plans as it looks at (4, then 2 of the escapes), not
    every legal one, and rides one of those it checked."""
    view, lookahead, _ = beside_corner_flats
    legal: list[str] = []

    class Counting(ActionView):
        def checked(self, plan, table=True):
            action = super().checked(plan, table)  # raises for a plan the table refuses
            if table:  # not the plan alone (candidate plans, before they are scored)
                legal.append(str(plan))
            return action

    counting = Counting(view.state, view.model, view.action_index, view.probe, view.ruleset)
    every = [move for move in check_plans(view, candidate_plans(view)) if _legal(view, move)]
    assert len(every) > 4, "too few legal plans to show the case"
    chosen = _player(view, lookahead, None, looks=4).choose_plan(counting)
    assert len(legal) == 4 + 2
    assert chosen in legal


def _legal(view: ActionView, move) -> bool:
    """Whether the table lets ``move``'s plan be ridden."""
    try:
        view.checked(move.plan)
    except IllegalPlanError:
        return False
    return True
