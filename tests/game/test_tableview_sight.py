"""The table's line of sight kept by its question (issue 50: sight was 2 s of a 15 s profile of two
games, the player and the rules asking the same questions again): asked again, the LOS engine is
not; anything that changes the answer (another model's place, the scenery) asks it afresh."""

from __future__ import annotations

import dataclasses

import pytest

from entropy3d.game.tableview import TableView
from entropy3d.geometry import Pose
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.state import OUT, Wreck


@pytest.fixture(scope="module")
def crossroads():
    table = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    geometry = build_table_geometry(table)
    return table, geometry, table.initial_state(geometry.surface_height)


def test_a_sight_asked_again_is_kept_and_a_blocker_moved_in_asks_again(crossroads, monkeypatch):
    table, geometry, state = crossroads
    view = TableView(table, geometry)
    asked = []
    engine = view.los.line_of_sight
    monkeypatch.setattr(view.los, "line_of_sight", lambda *args: asked.append(args) or engine(*args))
    eye = state.model("hades_1").pose
    seen = view.sight(state, "hades_1", "komodo_1", eye)
    assert view.sight(state, "hades_1", "komodo_1", eye) == seen
    assert len(asked) == 1  # the second answer was kept
    # hades_2's wreck across the street between them (EC-WOUND, EC-LOS-3): a new question
    out = state.with_model(state.model("hades_2").but(status=OUT, wounds=0))
    blocked = dataclasses.replace(out, wrecks=(Wreck("wreck_hades_2", "hades_2", Pose(24.0, 22.7, 0.0, eye.z)),))
    hidden = view.sight(blocked, "hades_1", "komodo_1", eye)
    assert len(asked) == 2 and hidden.visible_fraction < seen.visible_fraction - 0.3
    # from another spot: asked again, and the same answer a table that kept nothing gives
    step = Pose(eye.x + 2.0, eye.y, eye.facing_deg, eye.z)
    assert view.sight(state, "hades_1", "komodo_1", step) == TableView(table, geometry).sight(
        state, "hades_1", "komodo_1", step)
    assert len(asked) == 3
