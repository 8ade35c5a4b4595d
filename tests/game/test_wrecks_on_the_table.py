"""A wreck on a real table (EC-WOUND: "the wreck is scenery from then on"): both producers put it
in the way of a ride, the rules make running into it a crash like any scenery (EC-COL-1), and
line of sight sees it as a blocker."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.game.tableview import TableView
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.state import OUT, Wreck
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from entropy3d.table_answers import with_table_answers


@pytest.fixture(scope="module")
def crossroads():
    table = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    geometry = build_table_geometry(table)
    view = TableView(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    return table, geometry, view, state


def wrecked(state, model_id: str, x: float, y: float, facing: float = 90.0):
    """``state`` with ``model_id`` taken out and its wreck at (x, y)."""
    model = state.model(model_id)
    state = state.with_model(model.but(status=OUT, wounds=0))
    return dataclasses.replace(state, wrecks=(Wreck(f"wreck_{model_id}", model_id, Pose(x, y, facing, model.pose.z)),))


@pytest.mark.parametrize("producer", ["geometric", "physics"])
def test_EC_WOUND_EC_COL_1_a_ride_into_a_wreck_is_a_scenery_crash(crossroads, producer):
    """Clause: EC-WOUND, EC-COL-1, EC-COL-HEAD: hades_1 rides 12" straight along its street; clear,
    it rides them all; with hades_2's wreck 5" ahead across its way, it hits the wreck head on
    and crashes there, ~3" along, as into any scenery."""
    table, geometry, view, state = crossroads
    ride = (GeometricProducer(table, geometry, view) if producer == "geometric"
            else PhysicsProducer(table, geometry, rides_per_process=None))
    action = check(state, Action.ride("hades_1", "s2: straight 12"), table.ruleset, view)
    clear = ride.ride(state, action)
    assert clear.completed and not clear.contacts
    blocked_state = wrecked(state, "hades_2", 14.5, 22.7)
    facts = ride.ride(blocked_state, check(blocked_state, Action.ride("hades_1", "s2: straight 12"),
                                           table.ruleset, view))
    assert [(c.piece_id, c.kind) for c in facts.contacts] == [("wreck_hades_2", "wreck")]
    assert 2.0 < facts.contacts[0].progress_in < 3.5
    answered = with_table_answers(view, blocked_state, action, facts, table.ruleset)  # as the one path asks them
    after, events = resolve(blocked_state, action, answered, np.random.default_rng(3), table.ruleset)
    crash = next(e for e in events if e.kind == "crash")
    assert crash.piece == "wreck_hades_2" and "EC-COL-1" in crash.clauses and "hit wreck 'wreck_hades_2'" in crash.text
    assert after.model("hades_1").pose.x < 14.5 - 1.4


def test_EC_WOUND_EC_LOS_3_a_wreck_blocks_line_of_sight(crossroads):
    """Clause: EC-WOUND, EC-LOS-3: hades_1 sees komodo_1 down the street; hades_2's wreck placed
    on the line between them hides most of it. A rider out with no wreck (its gang-mate
    komodo_2, out over the edge) blocks nothing where it started."""
    table, geometry, view, state = crossroads
    seen = view.sight(state, "hades_1", "komodo_1", state.model("hades_1").pose)
    hidden_state = wrecked(state, "hades_2", 24.0, 22.7, facing=0.0)
    hidden = view.sight(hidden_state, "hades_1", "komodo_1", state.model("hades_1").pose)
    assert seen.visible_fraction > 0.9
    assert hidden.visible_fraction < seen.visible_fraction - 0.3
    gone = hidden_state.with_model(hidden_state.model("komodo_2").but(status=OUT))
    assert view.sight(gone, "hades_1", "komodo_1", gone.model("hades_1").pose) == hidden


def test_the_automatic_player_steers_clear_of_a_wreck(crossroads):
    """A wreck is scenery a ride crashes into (EC-WOUND, EC-COL-1): the automatic player scores
    the ride straight into one well below the same ride on an empty street."""
    from entropy3d.game.action_view import ActionView
    from entropy3d.game.players import AutoPlayer

    table, geometry, view, state = crossroads
    player = AutoPlayer(np.random.default_rng(0), table.ruleset)
    move = check(state, Action.ride("hades_1", "s2: straight 12"), table.ruleset, view).move
    blocked_state = wrecked(state, "hades_2", 14.5, 22.7)
    clear = player.score(ActionView(state, state.model("hades_1"), 0, view, table.ruleset), move)
    into = player.score(ActionView(blocked_state, blocked_state.model("hades_1"), 0, view, table.ruleset), move)
    assert into <= clear - 25.0
