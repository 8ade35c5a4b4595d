"""A table as it stands written back as a scene file (the viewer's s): the file validates, loads
back to the same table, and finds its meshes from another folder."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from entropy3d.geometry import Pose
from entropy3d.scene import load_scene
from entropy3d.scene.saving import free_path, scene_as_it_stands

CROSSROADS = Path(__file__).resolve().parents[2] / "scenes" / "crossroads.yaml"


@pytest.fixture(scope="module")
def crossroads():
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(CROSSROADS)
    geometry = build_table_geometry(table)
    return table, table.initial_state(geometry.surface_height)


def test_EC_GUN_2_a_saved_table_loads_back_as_it_stood_from_another_folder(crossroads, tmp_path):
    """Clauses EC-GUN-2, EC-COND-BLEED, EC-TRAP: Viper moved and turned, stopped (speed 0) with
    stress 4 and bleeding; Scale with one shot left of two; Pip still carrying its molotov; Brakes
    out of the game (left off the table: it is not on it). Written into a
    folder that is not the scene's, its mesh paths ("../models/car_wreck.glb", relative to
    scenes/) are written absolute; loaded back, every other model stands where it started and
    Viper where it was tried."""
    table, state = crossroads
    state = state.with_model(state.model("komodo_1").but(speed=0, stress=4, conditions=("bleeding",)))
    state = state.with_model(state.model("hades_1").but(status="out"))
    state = state.with_model(state.model("komodo_2").but(ammo=1))  # Scale fired one of its shotgun's 2
    poses = {m.id: m.pose for m in state.models.values() if m.in_play}
    poses["komodo_1"] = Pose(24.0, 11.25, 195.0, 0.01)
    path = free_path(tmp_path, "crossroads")
    assert path.name == "crossroads-tried.yaml"
    path.write_text(scene_as_it_stands(table, state, poses, path), encoding="utf-8")
    assert free_path(tmp_path, "crossroads").name == "crossroads-tried-2.yaml"
    meshes = yaml.safe_load(path.read_text())["meshes"]
    assert meshes and all(Path(mesh["file"]).is_absolute() for mesh in meshes)  # all beside the scene
    assert Path(meshes[0]["file"]) == (CROSSROADS.parent / "../models/car_wreck.glb").resolve()
    loaded = load_scene(path)
    assert "hades_1" not in {m.id for m in loaded.models}
    again = {m.id: m for m in loaded.models}
    viper = again["komodo_1"]
    assert tuple(viper.position) == (24.0, 11.25, 0.01) and viper.facing == 195.0 and viper.speed == 0
    assert viper.rider.stress == 4 and viper.rider.conditions == ["bleeding"]
    assert again["komodo_2"].rider.ammo == 1 and again["komodo_3"].rider.traps == ["molotov"]
    for model_id, pose in poses.items():
        if model_id != "komodo_1":
            assert tuple(again[model_id].position) == pytest.approx((pose.x, pose.y, pose.z), abs=1e-3)


def test_a_table_saved_beside_its_scene_keeps_its_relative_paths(crossroads, tmp_path):
    table, state = crossroads
    poses = {m.id: m.pose for m in state.models.values()}
    text = scene_as_it_stands(table, state, poses, CROSSROADS.parent / "crossroads-tried.yaml")
    assert yaml.safe_load(text)["meshes"][0]["file"] == "../models/car_wreck.glb"
    assert text.startswith("# crossroads.yaml as it stood in `entropy3d view` (turn 0)")
