"""``entropy3d export``: glTF 2.0 of every bundled table and of a replay, checked by the Khronos
glTF validator and re-imported with trimesh at the physical table's size (a 48" table is
1.2192 m, an oval base 75 x 42 mm as the rules data gives it, EC-BASE), Y up."""

from __future__ import annotations

import json
import struct
import subprocess
import sys

import numpy as np
import pytest
import trimesh
import yaml

from entropy3d.resources import bundled_dir
from tests.export.conftest import ROOT, validate_gltf

#: every bundled table: the Entropy City ones and the other systems' (scenes/systems)
SCENES = sorted((ROOT / "scenes").glob("*.yaml")) + sorted((ROOT / "scenes" / "systems").glob("*.yaml"))
RULES = yaml.safe_load((ROOT / "rules" / "entropy_city.yaml").read_text(encoding="utf-8"))


def export(source, output):
    done = subprocess.run([sys.executable, "-m", "entropy3d", "export", str(source), "-o", str(output)],
                          capture_output=True, text=True, timeout=600)
    return done


def read_glb(path) -> tuple[dict, bytes]:
    """The JSON and binary chunks of a GLB file."""
    data = path.read_bytes()
    magic, version, _ = struct.unpack("<III", data[:12])
    assert magic == 0x46546C67 and version == 2
    json_length = struct.unpack("<I", data[12:16])[0]
    tree = json.loads(data[20:20 + json_length])
    binary_start = 20 + json_length + 8
    return tree, data[binary_start:]


def accessor_values(tree: dict, binary: bytes, index: int) -> np.ndarray:
    accessor = tree["accessors"][index]
    view = tree["bufferViews"][accessor["bufferView"]]
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[accessor["type"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    values = np.frombuffer(binary, np.float32, accessor["count"] * width, start)
    return values.reshape(accessor["count"], width)


@pytest.fixture(scope="session")  # as a module fixture it was built twice in one run of this file, ~50 s each
def scene_glbs(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("glb")
    files = {}
    for scene in SCENES:
        output = folder / f"{scene.stem}.glb"
        done = export(scene, output)
        assert done.returncode == 0, done.stderr
        files[scene.stem] = output
    return files


def test_every_bundled_scene_passes_the_khronos_validator_with_its_paint(scene_glbs):
    """Issue 48: the glTF was a blockout (no textures, no UVs). Every bundled table is clean in the
    validator and carries its paint: each image the tops use embedded once, and every painted
    piece's tops (the film paints them: look.paint.layer_of) with texture coordinates and a
    material textured from the image of its layer."""
    from entropy3d.look.paint import layer_of
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    reports = validate_gltf(*scene_glbs.values())
    for (name, path), report in zip(scene_glbs.items(), reports):
        issues = report["issues"]
        assert issues["numErrors"] == 0 and issues["numWarnings"] == 0, (name, issues["messages"][:5])
        assert report["info"]["hasTextures"] and report["info"]["maxUVs"] == 1, name
        tree, _ = read_glb(path)
        geometry = build_table_geometry(load_scene(next(s for s in SCENES if s.stem == name)))
        layers = {p.id: layer_of(p) for p in geometry.pieces if layer_of(p) is not None}
        images = [image["name"] for image in tree["images"]]
        assert sorted(images) == sorted(f"table paint ({layer})" for layer in set(layers.values())), name
        nodes = {node["name"]: node for node in tree["nodes"]}
        for piece_id, layer in layers.items():
            primitive, = tree["meshes"][nodes[piece_id]["mesh"]]["primitives"]
            assert "TEXCOORD_0" in primitive["attributes"], (name, piece_id)
            texture = tree["materials"][primitive["material"]]["pbrMetallicRoughness"]["baseColorTexture"]
            assert images[tree["textures"][texture["index"]]["source"]] == f"table paint ({layer})", (name, piece_id)


def test_painted_tops_show_the_films_paint_and_its_road_markings(scene_glbs):
    """The export paints with look.paint, never a second way: the embedded ground image is
    paint_table's, and a texel sampled through main_street's texture coordinates (glTF's: v from
    the image's top row) shows a centre-line dash exactly where paint_table puts one."""
    from entropy3d.look.paint import paint_table
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    imported = trimesh.load_scene(str(scene_glbs["crossroads"]))
    transform, name = imported.graph["main_street"]
    road = imported.geometry[name].copy()
    road.apply_transform(transform)
    assert getattr(road.visual, "uv", None) is not None and road.visual.material.baseColorTexture is not None
    texture = np.asarray(road.visual.material.baseColorTexture.convert("RGB"), int)
    n = texture.shape[0]
    table = load_scene(ROOT / "scenes" / "crossroads.yaml")
    paint = paint_table(table.spec, build_table_geometry(table), n)
    assert texture.shape == paint.ground.shape
    assert np.abs(texture[::-1] - paint.ground).mean() < 2.0  # the same picture, but for JPEG's rounding

    street = next(r for r in table.spec.roads if r.id == "main_street")
    (x0, y0), (x1, y1) = street.points[0], street.points[-1]
    along = np.linspace(0.02, 0.98, 1500)[:, None]
    plan = np.array([x0, y0]) + along * np.array([x1 - x0, y1 - y0])
    points = np.column_stack([plan[:, 0] * 0.0254, np.full(len(plan), road.bounds[1][1]), -plan[:, 1] * 0.0254])
    closest, _, faces = trimesh.proximity.closest_point(road, points)
    assert np.abs(closest - points).max() < 1e-6  # every point is on the road's top
    weights = trimesh.triangles.points_to_barycentric(road.triangles[faces], closest)
    uv = np.einsum("nk,nkj->nj", weights, road.visual.uv[road.faces[faces]])
    uv[:, 1] = 1.0 - uv[:, 1]  # trimesh keeps OpenGL's v (from the bottom); glTF's runs from the top
    rows = np.floor(uv[:, 1] * texture.shape[0]).astype(int)
    cols = np.floor(uv[:, 0] * texture.shape[1]).astype(int)
    exported = texture[rows, cols]

    painted_row, painted_col = (plan[:, 1] / table.depth * n).astype(int), (plan[:, 0] / table.width * n).astype(int)
    assert (painted_row == n - 1 - rows).all() and (painted_col == cols).all()

    def yellow(rgb):
        rgb = np.asarray(rgb, int)
        return rgb[..., 0] - rgb[..., 2] > 60  # the marking #e7d36b, not asphalt #3b3d42

    near = np.stack([yellow(paint.ground[painted_row + dr, painted_col + dc])
                     for dr in (-2, 0, 2) for dc in (-2, 0, 2)])
    clear = near.all(axis=0) | ~near.any(axis=0)  # away from a dash's end, where JPEG blurs
    marked = yellow(paint.ground[painted_row, painted_col])
    assert marked[clear].sum() > 200 and (~marked[clear]).sum() > 200  # dashes and gaps along the street
    assert (yellow(exported)[clear] == marked[clear]).all()


def test_buildings_have_windows_proud_of_their_walls(scene_glbs):
    """Issue 48: buildings were 12-triangle boxes. Each building has its window rows
    (look.facades.building_windows) as its own node of window glass, standing just outside its
    walls, between its foot and its roof."""
    import shapely

    from entropy3d.look.facades import PROUD, building_windows
    from entropy3d.scene import load_scene

    table = load_scene(ROOT / "scenes" / "crossroads.yaml")
    tree, _ = read_glb(scene_glbs["crossroads"])
    imported = trimesh.load_scene(str(scene_glbs["crossroads"]))
    nodes = {node["name"]: node for node in tree["nodes"]}
    for building in table.spec.buildings:
        node = nodes[f"{building.id}/windows"]
        assert nodes[building.id]["children"] and tree["nodes"].index(node) in nodes[building.id]["children"]
        primitive, = tree["meshes"][node["mesh"]]["primitives"]
        assert tree["materials"][primitive["material"]]["name"] == "window glass #2b3440"
        transform, name = imported.graph[f"{building.id}/windows"]
        panes = trimesh.transform_points(imported.geometry[name].vertices, transform)
        assert len(imported.geometry[name].faces) == len(building_windows(building)) > 20
        x, y, z = panes[:, 0] / 0.0254, -panes[:, 2] / 0.0254, panes[:, 1] / 0.0254
        footprint = shapely.Polygon(building.corners())
        outside = np.array([footprint.exterior.distance(shapely.Point(p)) for p in zip(x, y)])
        assert not any(footprint.contains(shapely.Point(p)) for p in zip(x, y)), building.id
        assert outside == pytest.approx(np.full(len(outside), PROUD), abs=1e-4), building.id
        assert z.min() > building.base_height and z.max() < building.height, building.id


@pytest.mark.parametrize("scene", [s.stem for s in SCENES])
def test_EC_BASE_reimported_table_and_bases_are_at_the_physical_size(scene_glbs, scene):
    from entropy3d.scene import load_scene

    table = load_scene(next(s for s in SCENES if s.stem == scene))
    imported = trimesh.load_scene(str(scene_glbs[scene]))
    ground = imported.geometry[imported.graph["table"][1]]
    transform = imported.graph["table"][0]
    bounds = trimesh.transform_points(ground.bounds, transform)
    # a 48" table is 48 x 25.4 mm wide and deep; glTF is Y up, the table's y runs to glTF -z
    assert bounds[1][0] - bounds[0][0] == pytest.approx(table.width * 0.0254, abs=1e-5)
    assert bounds[1][2] - bounds[0][2] == pytest.approx(table.depth * 0.0254, abs=1e-5)
    assert bounds[1][1] == pytest.approx(0.0, abs=1e-6)  # the table top, with everything above it
    assert imported.bounds[1][1] > 0.05
    for model in table.models:  # EC-BASE: 75 x 42 mm ovals, 70 mm rounds; figures on foot on 25 mm
        if model.on_foot:
            length = width = RULES["on_foot"]["base_diameter_mm"]
        elif model.vehicle:  # a chase's car or van: a plate of its plan, its real size at the table's scale
            spec, inch_m = RULES["vehicles"][model.vehicle], RULES["scale"]["metres_per_inch"]
            length, width = (spec[f"{side}_m"] / inch_m * 25.4 for side in ("length", "width"))
        else:
            base_rules = RULES["bases"][RULES["bike_types"][model.bike]["base"]]
            length = base_rules.get("length_mm", base_rules.get("diameter_mm"))
            width = base_rules.get("width_mm", base_rules.get("diameter_mm"))
        base = imported.geometry[imported.graph[f"model {model.id}/base"][1]]
        along, _, across = base.extents
        assert (along, across) == pytest.approx((length / 1000, width / 1000), abs=1e-4), model.id
        where = imported.graph[f"model {model.id}"][0][:3, 3]
        assert where[0] == pytest.approx(model.position[0] * 0.0254, abs=1e-5)
        assert where[2] == pytest.approx(-model.position[1] * 0.0254, abs=1e-5)


def test_materials_are_named_for_what_they_cover(scene_glbs):
    """Issue 48: the park trees' material was named "concrete #4a7a35" (their riding terrain). A
    mesh or a destructible is named by what it is, a surface by its terrain."""
    tree, _ = read_glb(scene_glbs["crossroads"])
    names = {node["name"]: tree["materials"][tree["meshes"][node["mesh"]]["primitives"][0]["material"]]["name"]
             for node in tree["nodes"] if "mesh" in node}
    assert names["park_tree_1"] == "park_tree #4a7a35"
    assert names["main_street"].startswith("asphalt #")
    assert names["flats_tower/walls"] == "building walls #9c8f80" and names["flats_west/walls"] == "block kerb #9a9890"
    assert names["flats_tower/windows"] == "window glass #2b3440"
    assert not any(name.startswith("concrete") for node, name in names.items() if node.startswith("park_tree"))


def test_base_colours_are_linear_and_walls_darken_at_their_foot(scene_glbs):
    """glTF's baseColorFactor and vertex colours are linear (glTF 2.0, 3.9.2): the scene's sRGB
    "#4a7a35" tree green written as it is (0.29, 0.48, 0.21) showed pale. Walls carry the film's
    shade at their foot (look.paint.wall_shade) as vertex colours: darker there than higher up."""
    tree, _ = read_glb(scene_glbs["crossroads"])
    srgb = np.array([0x4A, 0x7A, 0x35]) / 255
    expected = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    tree_green = next(m for m in tree["materials"] if m["name"] == "park_tree #4a7a35")
    assert tree_green["pbrMetallicRoughness"]["baseColorFactor"][:3] == pytest.approx(expected, abs=0.6 / 255)

    imported = trimesh.load_scene(str(scene_glbs["crossroads"]))
    walls = imported.geometry[imported.graph["flats_tower/walls"][1]]
    shade = np.asarray(walls.visual.vertex_attributes["color"], float)[:, 0] / 255
    height = walls.vertices[:, 1] / 0.0254 - 0.12  # inches above the block it stands on
    assert shade[height < 0.01].max() < 0.6 and shade[height > 2.0].min() > 0.99  # linear: 0.6 shows as 0.8


def test_buildings_stand_up_and_keep_their_footprint(scene_glbs):
    from entropy3d.scene import load_scene

    table = load_scene(ROOT / "scenes" / "crossroads.yaml")
    building = next(b for b in table.spec.buildings if b.rect is not None)
    imported = trimesh.load_scene(str(scene_glbs["crossroads"]))
    transform, name = imported.graph[building.id]
    lo, hi = trimesh.transform_points(imported.geometry[name].bounds, transform)
    x0, y0, x1, y1 = building.rect
    assert [lo[0], hi[0]] == pytest.approx([x0 * 0.0254, x1 * 0.0254], abs=1e-5)
    assert [lo[2], hi[2]] == pytest.approx([-y1 * 0.0254, -y0 * 0.0254], abs=1e-5)
    assert hi[1] == pytest.approx(building.height * 0.0254, abs=1e-5)


def test_replay_animates_bikes_and_the_smashed_bench_EC_DEST_4(bench_replay, tmp_path):
    from entropy3d.game import read_replay

    output = tmp_path / "bench.glb"
    done = export(bench_replay, output)
    assert done.returncode == 0, done.stderr
    assert "2 activations animated" in done.stdout
    report, = validate_gltf(output)
    assert report["issues"]["numErrors"] == 0 and report["issues"]["numWarnings"] == 0, report["issues"]["messages"]

    replay = read_replay(bench_replay)
    tree, binary = read_glb(output)
    animation, = tree["animations"]
    names = [node.get("name") for node in tree["nodes"]]
    targets = {(names[c["target"]["node"]], c["target"]["path"]): animation["samplers"][c["sampler"]]
               for c in animation["channels"]}
    assert {("model h1", "translation"), ("model h1", "rotation"), ("bench1", "translation")} <= set(targets)

    # the bench ends where the rules moved it (ScenerySpot, inches from where the scene put it)
    spot = replay.activations[-1].state_after.scenery["bench1"]
    bench = next(d for d in replay_scene_spec(replay).destructibles if d.id == "bench1")
    end = accessor_values(tree, binary, targets[("bench1", "translation")]["output"])[-1]
    assert end[0] == pytest.approx((bench.position[0] + spot.dx) * 0.0254, abs=1e-4)
    assert end[2] == pytest.approx(-(bench.position[1] + spot.dy) * 0.0254, abs=1e-4)
    assert spot.dx ** 2 + spot.dy ** 2 == pytest.approx(16.0, abs=0.01)  # moved speed 2 x 2"

    # h1 ends where the rules left it after its activation, and its keys run forward in time
    h1 = targets[("model h1", "translation")]
    times = accessor_values(tree, binary, h1["input"])[:, 0]
    assert np.all(np.diff(times) > 0)
    last = next(a for a in reversed(replay.activations) if a.model_id == "h1").state_after.model("h1").pose
    end = accessor_values(tree, binary, h1["output"])[-1]
    assert end == pytest.approx([last.x * 0.0254, last.z * 0.0254, -last.y * 0.0254], abs=1e-4)


def replay_scene_spec(replay):
    from entropy3d.scene import load_scene

    return load_scene(replay.header.scene).spec


def test_export_refuses_a_wrong_suffix_and_writes_nothing(tmp_path):
    output = tmp_path / "table.gltf"
    done = export(bundled_dir("scenes") / "crossroads.yaml", output)
    assert done.returncode == 1
    assert "table.gltf" in done.stderr and ".glb" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
