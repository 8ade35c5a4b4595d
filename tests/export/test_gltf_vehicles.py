"""Issue 46: the glTF export draws the car chase's vehicles as their kind: the van's node holds
the van mesh's parts (body, trim, windows, wheels: the triangles of models/vehicle_van.glb), the
patrol cars' the police car's, on their oval bases at the physical size."""

from __future__ import annotations

import io

import pytest
import trimesh

from entropy3d.export.gltf import glb_bytes, model_node
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.miniature import load_model_file, miniature_model_path
from entropy3d.units import MM_PER_INCH

CHASE = bundled_dir("scenes") / "systems" / "car_chase.yaml"


@pytest.fixture(scope="module")
def chase_glb():
    table = load_scene(CHASE)
    return table, trimesh.load(io.BytesIO(glb_bytes(table, build_table_geometry(table))), file_type="glb")


def parts_of(scene: trimesh.Scene, model_id: str) -> dict[str, int]:
    """Triangles per part (node names ``model ID/PARTk``, k the colour piece) of one miniature."""
    prefix = model_node(model_id) + "/"
    found: dict[str, int] = {}
    for node in scene.graph.nodes_geometry:
        if node.startswith(prefix):
            part = node[len(prefix):].rstrip("0123456789")
            mesh = scene.geometry[scene.graph[node][1]]
            found[part] = found.get(part, 0) + len(mesh.faces)
    return found


@pytest.mark.parametrize("model_id, kind", [("van", "van"), ("rammer", "police_car")])
def test_the_exported_chase_draws_the_van_and_the_patrol_cars_as_their_kind(chase_glb, model_id, kind):
    table, scene = chase_glb
    parts = parts_of(scene, model_id)
    authored = load_model_file(miniature_model_path(table.ruleset, kind))
    expected = {name: len(mesh.faces) for name, mesh in authored.items() if name != "base"}
    assert {name: count for name, count in parts.items() if name != "base"} == expected
    assert "bike" not in parts and "rider" not in parts


def test_the_exported_van_stands_on_a_plate_of_its_89_by_36_mm_plan(chase_glb):
    """The footprint at the physical size the rules data gives (a van 5 x 2 m at 1.42 m an inch
    is 3.52" x 1.41" = 89.4 x 35.8 mm; it stood on a 107 x 45 mm oval past its bumpers), glTF metres."""
    _, scene = chase_glb
    base = next(scene.geometry[scene.graph[node][1]] for node in scene.graph.nodes_geometry
                if node.startswith(model_node("van") + "/base"))
    lengths = sorted(base.extents[[0, 2]] * 1000.0)
    assert lengths == pytest.approx([2.0 / 1.42 * MM_PER_INCH, 5.0 / 1.42 * MM_PER_INCH], abs=0.2)
    assert base.extents[1] * 1000.0 == pytest.approx(0.12 * MM_PER_INCH, abs=0.05)
