"""Meshes repaired or refused at load (issue 18): stray parts dropped with a note, flat meshes
refused, geometry only (no textures copied), unsupported formats named with those that load."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image

from entropy3d.errors import MeshError, SceneError
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.meshes import read_mesh_file

STRAY = trimesh.Trimesh([[100, 0, 0], [101, 0, 0], [100, 1, 0]], [[0, 1, 2]])


def scene_with(tmp_path, file: str, extra: str = "") -> object:
    path = tmp_path / "scene.yaml"
    path.write_text(f"name: x\nmeshes:\n  - {{id: m, file: {file}, units: mm, position: [10, 10, 0]{extra}}}\n")
    return path


def test_stray_parts_are_dropped_with_a_note_and_physics_builds(tmp_path):
    trimesh.util.concatenate([trimesh.creation.box(extents=[20, 20, 20]), STRAY]).export(tmp_path / "m.stl")
    table = load_scene(scene_with(tmp_path, "m.stl"))
    (where, line, note), = table.notes
    assert (where, line) == ("meshes[0].file", 3) and "dropped 1 stray part" in note
    assert len(table.meshes["m"].vertices) == 8
    from entropy3d.physics.world import convex_pieces

    pieces = [p for part in build_table_geometry(table).by_id("m").parts for p in convex_pieces(part)]
    assert len(pieces) == 1 and len(pieces[0][0]) == 8


@pytest.mark.parametrize("extra", ["", ", destructible_risk: 2"])
def test_one_triangle_is_refused_as_flat(tmp_path, extra):
    STRAY.export(tmp_path / "m.stl")
    with pytest.raises(SceneError) as error:
        load_scene(scene_with(tmp_path, "m.stl", extra))
    (where, line, message), = error.value.problems
    assert (where, line) == ("meshes[0].file", 3) and "is flat" in message and "thickness" in message


def test_flat_square_is_refused(tmp_path):
    trimesh.Trimesh([[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0]], [[0, 1, 2], [0, 2, 3]]).export(tmp_path / "m.ply")
    with pytest.raises(MeshError, match="is flat"):
        read_mesh_file(tmp_path / "m.ply")


def test_unsupported_format_lists_every_format_that_loads(tmp_path):
    (tmp_path / "m.fbx").write_text("x")
    with pytest.raises(MeshError) as error:
        read_mesh_file(tmp_path / "m.fbx")
    for name in ("STL", "OBJ", "glTF", "GLB", "PLY", "OFF"):
        assert name in str(error.value)


def test_textured_multi_part_glb_loads_geometry_only(tmp_path):
    texture = Image.fromarray(np.random.default_rng(0).integers(0, 255, (256, 256, 3), dtype=np.uint8))
    scene = trimesh.Scene()
    for k in range(6):
        part = trimesh.creation.box(extents=[5, 5, 5])
        part.apply_translation((k * 10, 0, 0))
        uv = np.random.default_rng(k).random((len(part.vertices), 2))
        part.visual = trimesh.visual.TextureVisuals(uv=uv, image=texture)
        scene.add_geometry(part, node_name=f"p{k}")
    scene.export(tmp_path / "m.glb")
    mesh = read_mesh_file(tmp_path / "m.glb")
    assert len(mesh.faces) == 6 * 12
    assert mesh.visual.kind is None  # no texture carried (nor copied into every part later)


def test_a_mesh_file_read_again_comes_from_the_cache_as_its_own_copy_with_its_notes(tmp_path):
    """Scenes of a batch share mesh files: the second read is the cached one, but each caller gets
    a copy it may move, the same notes, and a file changed on disk is read again."""
    path = tmp_path / "m.stl"
    stray = trimesh.Trimesh([[40, 0, 0], [41, 0, 0], [40, 1, 0]], [[0, 1, 2]])
    trimesh.util.concatenate([trimesh.creation.box(extents=(10, 10, 10)), stray]).export(path)
    first_notes, second_notes = [], []
    first = read_mesh_file(path, first_notes)
    first.apply_translation((100, 0, 0))
    second = read_mesh_file(path, second_notes)
    assert second.bounds[1][0] == pytest.approx(5.0)
    assert first_notes == second_notes and "dropped 1 stray part" in second_notes[0]
    trimesh.creation.box(extents=(20, 20, 20)).export(path)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert read_mesh_file(path).bounds[1][0] == pytest.approx(10.0)


def _soup_stl(path, triangles) -> str:
    """An STL file of ``triangles`` (N, 3, 3), every corner written out as STL stores it."""
    trimesh.Trimesh(**trimesh.triangles.to_kwargs(np.asarray(triangles, float)), process=False).export(path)
    return str(path)


def test_an_stl_is_welded_as_trimesh_processes_it(tmp_path):
    """The fast weld gives trimesh's own vertices and faces to the bit: a cobbled tile of 20k
    triangles, and a soup with -0.0 beside 0.0, corners within trimesh's merge tolerance (1e-8),
    a corner just outside it and a face with a NaN corner (dropped)."""
    from entropy3d.scene.meshes import welded

    u = np.linspace(0.0, 30.0, 71)
    x, y = np.meshgrid(u, u, indexing="ij")
    z = 0.3 * np.sin(x) * np.cos(1.3 * y)
    grid = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    index = np.arange(len(grid)).reshape(71, 71)
    a, b, c, d = index[:-1, :-1].ravel(), index[1:, :-1].ravel(), index[1:, 1:].ravel(), index[:-1, 1:].ravel()
    tile = grid[np.vstack([np.column_stack([a, b, c]), np.column_stack([a, c, d])])]
    soup = [[[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[-0.0, 0, 0], [0, 1, 0], [0, 0, 1 + 1e-12]],
            [[1, 0, 0], [0, 1, 0], [0, 0, 1 + 3e-8]], [[np.nan, 0, 0], [1, 0, 0], [0, 0, 1]]]
    for triangles in (tile, soup):
        path = _soup_stl(tmp_path / "soup.stl", triangles)
        theirs = next(iter(trimesh.load_scene(path).geometry.values()))
        ours = welded(next(iter(trimesh.load_scene(path, process=False).geometry.values())))
        assert len(ours.vertices) < len(triangles) * 3
        assert np.array_equal(ours.vertices, theirs.vertices) and np.array_equal(ours.faces, theirs.faces)


def test_rows_sharing_a_hash_are_still_told_apart(monkeypatch):
    """Rows that differ but hash alike (forced here: every row one hash) fall back to trimesh's grouping."""
    from entropy3d.scene import meshes

    rows = np.array([[1, 2, 3], [4, 5, 6], [1, 2, 3], [7, 8, 9], [4, 5, 6]], np.int64)
    assert [list(part) for part in meshes.unique_rows_in_order(rows)] == [[0, 1, 3], [0, 1, 0, 2, 1]]
    monkeypatch.setattr(meshes, "_mixed", lambda values: np.zeros_like(values))
    assert [list(part) for part in meshes.unique_rows_in_order(rows)] == [[0, 1, 3], [0, 1, 0, 2, 1]]


def test_face_components_group_faces_as_trimesh_does():
    """Components through edges two faces share: three boxes (two overlapping, sharing no edge),
    a fan of three triangles on one edge (which joins none of them), a bowtie meeting at one
    corner, and the bundled police bike (3,500 faces in 38 parts); the same partition as trimesh's labels."""
    from entropy3d.scene.meshes import face_components

    boxes = trimesh.util.concatenate([trimesh.creation.box(), trimesh.creation.icosphere().apply_translation([3, 0, 0]),
                                      trimesh.creation.box().apply_translation([0.5, 0.5, 0.5])])
    fan = trimesh.Trimesh([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [2, 1, 0], [2, -1, 0]],
                          [[0, 1, 2], [1, 0, 3], [0, 1, 4], [1, 5, 6]], process=False)
    bike_file = Path(__file__).resolve().parents[2] / "models" / "bike_police.glb"
    bike = trimesh.load_scene(bike_file).to_mesh()  # every node of the file in one mesh
    for mesh, count in ((boxes, 3), (fan, 4), (bike, 38)):
        theirs = trimesh.graph.connected_component_labels(mesh.face_adjacency, node_count=len(mesh.faces))
        ours = face_components(np.asarray(mesh.faces), len(mesh.vertices))
        pairs = {(int(a), int(b)) for a, b in zip(theirs, ours)}
        assert len(pairs) == len(set(theirs.tolist())) == len(set(ours.tolist()))
        assert len(pairs) == count


def test_an_stl_of_only_non_finite_corners_holds_no_triangles(tmp_path):
    """Every corner NaN: welding drops every face, and the file is refused as holding no
    triangles (as trimesh's processing left it), not as flat."""
    path = _soup_stl(tmp_path / "nan.stl", np.full((2, 3, 3), np.nan))
    with pytest.raises(MeshError, match="holds no triangles"):
        read_mesh_file(Path(path))


@pytest.mark.parametrize("suffix", ["glb", "obj", "ply"])
def test_a_closed_solid_whose_corners_are_not_shared_is_accepted(tmp_path, suffix):
    """Issue 49, F1: exporters keep a corner apart for each face that meets it (flat shading,
    per-face normals, UV seams); such a 40 mm cube is a solid, not 12 flat triangles."""
    cube = trimesh.creation.box(extents=[40, 40, 40])
    cube.unmerge_vertices()
    corners = np.tile([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], (12, 1))  # each face its own UVs, as a texture atlas has
    cube.visual = trimesh.visual.TextureVisuals(uv=corners, image=Image.new("RGB", (4, 4), (200, 80, 40)))
    assert len(cube.vertices) == 36
    cube.export(tmp_path / f"cube.{suffix}")
    table = load_scene(scene_with(tmp_path, f"cube.{suffix}"))
    assert not table.notes
    loaded = table.meshes["m"]
    assert len(loaded.vertices) == 8 and loaded.is_volume
    assert np.allclose(loaded.extents, 40 / 25.4)


def test_a_flat_square_with_unshared_corners_is_still_refused_as_flat(tmp_path):
    square = trimesh.Trimesh([[0, 0, 0], [20, 0, 0], [20, 20, 0], [0, 0, 0], [20, 20, 0], [0, 20, 0]],
                             [[0, 1, 2], [3, 4, 5]], process=False)
    square.export(tmp_path / "square.glb")
    with pytest.raises(MeshError, match="is flat"):
        read_mesh_file(tmp_path / "square.glb")


def _binary_stl_header(triangles: int) -> bytes:
    return b"\0" * 80 + triangles.to_bytes(4, "little")


@pytest.mark.parametrize("case", ["a sparse binary STL claiming 42.9 million triangles", "2 GB of zeros"])
def test_a_mesh_too_big_to_read_is_refused_from_its_size_before_reading(tmp_path, case):
    """Issue 49, item 4: a 2 GB sparse binary STL whose header claims 42.9 million triangles, and
    2 GB of zeros named .stl, kept `validate` busy past 180 s with no answer. The header and the
    file's size are judged first: refused at once, naming the file and the fix."""
    path = tmp_path / "huge.stl"
    if case.startswith("a sparse"):
        count = 42_900_000
        with open(path, "wb") as stream:
            stream.write(_binary_stl_header(count))
            stream.truncate(84 + 50 * count)  # sparse: no disk taken
        said = "is a binary STL of 42,900,000 triangles, more than the 2,000,000 a mesh may hold; decimate it"
    else:
        with open(path, "wb") as stream:
            stream.truncate(2 * 1024**3)
        said = "is no STL: not a binary one (its header says 0 triangles, 84 bytes, and the file holds 2,147,483,648)"
    with pytest.raises(SceneError) as refused:
        load_scene(scene_with(tmp_path, "huge.stl"))
    (where, line, message), = refused.value.problems
    assert (where, line) == ("meshes[0].file", 3) and said in message, message


def test_a_large_file_of_another_format_is_refused_by_its_size(tmp_path, monkeypatch):
    from entropy3d.scene import meshes

    trimesh.creation.box(extents=[20, 20, 20]).export(tmp_path / "m.obj")
    size = (tmp_path / "m.obj").stat().st_size
    monkeypatch.setattr(meshes, "MAX_MESH_BYTES", size - 1)
    with pytest.raises(MeshError, match=f"mesh file 'm.obj' holds {size:,} bytes, more than the {size - 1:,} a mesh "):
        read_mesh_file(tmp_path / "m.obj")
    monkeypatch.setattr(meshes, "MAX_MESH_BYTES", size)
    assert len(read_mesh_file(tmp_path / "m.obj").faces) == 12


def test_an_stl_of_exactly_its_declared_size_and_an_ascii_stl_still_load(tmp_path):
    box = trimesh.creation.box(extents=[20, 20, 20])
    box.export(tmp_path / "binary.stl")
    (tmp_path / "ascii.stl").write_text(trimesh.exchange.stl.export_stl_ascii(box))
    for name in ("binary.stl", "ascii.stl"):
        assert len(read_mesh_file(tmp_path / name).faces) == 12


@pytest.mark.parametrize("kind", ["a named pipe", "a device", "a folder"])
def test_a_mesh_path_that_is_no_file_says_what_is_there(tmp_path, kind):
    """Issue 49, item 7: a FIFO or a link to /dev/zero as a mesh was "not found"."""
    path = tmp_path / "m.stl"
    if kind == "a named pipe":
        os.mkfifo(path)
    elif kind == "a device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with pytest.raises(SceneError) as refused:
        load_scene(scene_with(tmp_path, "m.stl"))
    (where, _, message), = refused.value.problems
    assert where == "meshes[0].file" and f"is {kind}, not a file; give a mesh file" in message, message


def test_a_mesh_file_with_no_extension_is_named_with_the_formats_that_load(tmp_path):
    trimesh.creation.box(extents=[20, 20, 20]).export(tmp_path / "m.stl")
    (tmp_path / "m.stl").rename(tmp_path / "m")
    with pytest.raises(SceneError) as refused:
        load_scene(scene_with(tmp_path, "m"))
    (_, _, message), = refused.value.problems
    assert f"mesh file {str(tmp_path / 'm')!r} has no extension; give a file in one of" in message
    assert ".stl" in message and "GLB" in message


@pytest.mark.parametrize("suffix", [".glb", ".obj"])
def test_two_boxes_side_by_side_are_one_solid_with_no_stray_part_told(tmp_path, suffix):
    """Two boxes of one file that touch face to face leave a pair of faces back to back between
    them: dropped (they join nothing), but no stray part to tell of (ruined_wall.glb's bricks made
    crossroads warn on every validate). A real stray triangle beside them is still told."""
    left = trimesh.creation.box(extents=[10, 10, 10]).apply_translation([-5, 0, 5])
    right = trimesh.creation.box(extents=[10, 10, 10]).apply_translation([5, 0, 5])
    trimesh.util.concatenate([left, right]).export(tmp_path / f"pair{suffix}")
    notes: list[str] = []
    mesh = read_mesh_file(tmp_path / f"pair{suffix}", notes)
    assert notes == [] and len(mesh.faces) == 20 and mesh.is_watertight
    assert mesh.volume == pytest.approx(2000)
    trimesh.util.concatenate([left, right, STRAY]).export(tmp_path / f"stray{suffix}")
    read_mesh_file(tmp_path / f"stray{suffix}", notes)
    assert len(notes) == 1 and "dropped 1 stray part" in notes[0]
