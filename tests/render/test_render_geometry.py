"""The numpy side of rendering: overlay triangles and camera maths, no Panda3D frame needed."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from entropy3d.look import shapes
from entropy3d.render.cameras import CameraView, box_corners, fit_view, preset_view, project, to_pixels


def test_grid_strips_one_strip_per_line_and_major_lines_split_out():
    faint = shapes.grid_strips(24, 12, 1.0, 0.02, 0.0, skip_every=6)
    strong = shapes.grid_strips(24, 12, 1.0, 0.05, 0.0, every=6)
    # 25 x-lines and 13 y-lines; every 6th (0, 6, 12, 18, 24 and 0, 6, 12) is strong
    assert len(strong) == 2 * (5 + 3)
    assert len(faint) == 2 * (25 - 5 + 13 - 3)
    assert np.allclose(faint[..., 2], 0.0)
    vertical = strong[np.ptp(strong[..., 1], axis=1) > 1.0]  # triangles of the lines along y
    xs = vertical[..., 0].ravel()
    assert np.all(np.abs(xs - 6.0 * np.round(xs / 6.0)) <= 0.026)
    assert set(np.round(xs / 6.0).astype(int).tolist()) == {0, 1, 2, 3, 4}


def test_flat_strip_has_the_asked_width_and_faces_up():
    triangles = shapes.flat_strips(np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]]), 0.5, 0.1)
    assert triangles.shape == (2, 3, 3)
    assert np.isclose(triangles[..., 1].max() - triangles[..., 1].min(), 0.5)
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    assert np.all(normals[:, 2] > 0)


def test_tube_is_closed_and_follows_the_polyline():
    points = np.array([[0.0, 0.0, 1.0], [4.0, 0.0, 1.0], [4.0, 3.0, 2.0]])
    triangles = shapes.tube_triangles(points, 0.2)
    assert triangles.shape == (2 * 12, 3, 3)
    lo, hi = triangles.reshape(-1, 3).min(axis=0), triangles.reshape(-1, 3).max(axis=0)
    # square section 0.2 across: 0.1 either side of the centre line, across each segment
    assert np.allclose(lo[:2], [0.0, -0.1], atol=1e-9) and np.isclose(hi[0], 4.1)
    assert 3.0 < hi[1] <= 3.1 and np.isclose(lo[2], 0.9) and 2.0 < hi[2] <= 2.1
    for box in triangles.reshape(2, 12, 3, 3):  # each segment's box is closed: every edge met twice
        edges = Counter(tuple(sorted(map(tuple, corners.round(9)))) for triangle in box
                        for corners in (triangle[[0, 1]], triangle[[1, 2]], triangle[[2, 0]]))
        assert set(edges.values()) == {2}
    repeated = np.insert(points, 1, points[1], axis=0)  # a point twice: no segment between them
    assert np.array_equal(shapes.tube_triangles(repeated, 0.2), triangles)
    with pytest.raises(ValueError, match="two"):
        shapes.tube_triangles(points[:1], 0.2)


def test_hazard_stripes_alternate_and_cover_the_edge():
    red, white = shapes.hazard_stripes((0.0, 0.0), (10.0, 0.0), 0.4, 1.0, 0.0)
    assert len(red) == len(white) == 10
    covered = np.concatenate([red, white]).reshape(-1, 3)
    assert np.isclose(covered[:, 0].min(), 0.0) and np.isclose(covered[:, 0].max(), 10.0)
    stripe_of = lambda triangles: set(np.floor(triangles[..., 0].mean(axis=1)).astype(int).tolist())  # noqa: E731
    assert stripe_of(red) == {0, 2, 4, 6, 8} and stripe_of(white) == {1, 3, 5, 7, 9}


def test_dashed_centre_line_dashes_fit_the_road():
    dashes = shapes.dashed_centre_line(np.array([[0.0, 5.0], [18.0, 5.0]]), 1.0, 0.8, 0.1, 0.0)
    assert len(dashes) == 2 * 10
    assert dashes[..., 0].min() >= 0.0 and dashes[..., 0].max() <= 18.0


def test_colour_rgb_parses_and_rejects():
    assert np.allclose(shapes.colour_rgb("#ff8000"), [1.0, 128 / 255, 0.0])
    with pytest.raises(ValueError, match="#rrggbb"):
        shapes.colour_rgb("#fff")


def test_projection_puts_the_look_at_point_in_the_centre():
    view = CameraView((10.0, -20.0, 15.0), (10.0, 10.0, 0.0), 40.0)
    ndc = project(view, np.array([[10.0, 10.0, 0.0], [10.0, -40.0, 15.0]]), 16 / 9)
    assert np.allclose(ndc[0], 0.0, atol=1e-9)
    assert np.all(np.isnan(ndc[1]))  # behind the eye
    assert np.allclose(to_pixels(ndc[:1], 640, 360), [[320.0, 180.0]])


@pytest.mark.parametrize("aspect", [16 / 9, 1.0, 0.6])
def test_fitted_view_keeps_every_point_in_frame_and_fills_it(aspect):
    points = box_corners((-1, -1, -2), (49, 49, 12))
    view = fit_view(points, 225.0, 42.0, 35.0, aspect, margin=0.9)
    ndc = project(view, points, aspect)
    assert np.all(np.abs(ndc) <= 0.9 + 1e-6)
    spread = ndc.max(axis=0) - ndc.min(axis=0)
    assert max(spread) > 1.75, "the fit should be tight on at least one axis"
    assert np.allclose((ndc.max(axis=0) + ndc.min(axis=0)) / 2, 0.0, atol=0.05), "fitted view is off-centre"


def test_low_view_avoids_a_wall_between_eye_and_miniatures():
    import trimesh

    # a long wall just inside the south edge hides the table centre from every southern spot
    wall = trimesh.creation.box(extents=(60, 1, 8), transform=trimesh.transformations.translation_matrix((24, 3, 4)))
    focus = np.array([[24.0, 24.0, 0.8]])
    view = preset_view("low", 48, 48, box_corners((0, 0, 0), (48, 48, 8)), 1.5, focus, wall)
    assert view.position[1] > 20, f"low camera {view} still behind the wall"
    assert view.position[2] < 3.0
    open_view = preset_view("low", 48, 48, box_corners((0, 0, 0), (48, 48, 8)), 1.5, focus, None)
    assert open_view.position[1] < 0  # unobstructed: the first candidate, south-west


def test_low_view_stands_on_the_table_frame_not_outside_the_table():
    """From 3 in outside the edge (the old places), the table's own sides and frame filled the
    bottom third of the street-level frame; the eye now stands over the 0.9 in wooden frame."""
    from entropy3d.look.frame import FRAME_WIDTH

    rng = np.random.default_rng(7)
    for _ in range(20):
        focus = np.column_stack([rng.uniform(3, 45, (6, 2)), np.full(6, 0.8)])
        view = preset_view("low", 48, 48, box_corners((0, 0, 0), (48, 48, 8)), 16 / 9, focus, None)
        x, y, z = view.position
        outside = max(-x, -y, x - 48, y - 48)
        assert 0 < outside < FRAME_WIDTH, f"{view} is not over the table's frame"
        assert z < 3.0


def test_low_view_keeps_clear_of_a_miniature_beside_its_eye():
    """A bike 1 in inside the south-west corner (where the first place is) would stand in the
    eye's face, cut by the frame: the camera stands elsewhere and shows every bike whole or its
    centre at least."""
    from entropy3d.render.cameras import LOW_MINIATURE_BOX, LOW_TOO_NEAR, project

    focus = np.array([[1.0, 1.0, 0.8], [24.0, 24.0, 0.8], [26.0, 22.0, 0.8], [22.0, 27.0, 0.8]])
    view = preset_view("low", 48, 48, box_corners((0, 0, 0), (48, 48, 8)), 16 / 9, focus, None)
    assert np.hypot(*(focus[:, :2] - view.position[:2]).T).min() >= LOW_TOO_NEAR, view
    centres = project(view, focus, 16 / 9)
    assert np.all(np.abs(centres) <= 0.95), f"{view}: a bike's centre is out of frame: {centres}"
    boxes = project(view, (focus[:, None] + LOW_MINIATURE_BOX).reshape(-1, 3), 16 / 9)
    assert np.isfinite(boxes).all(), f"{view}: a bike stands behind the eye"


def test_unknown_preset_is_an_error():
    with pytest.raises(ValueError, match="iso, overview, low"):
        preset_view("drone", 48, 48, box_corners((0, 0, 0), (48, 48, 1)), 1.5)


def test_cast_shadow_of_a_box_stretches_away_from_the_sun():
    import trimesh

    from entropy3d.look.shadows import cast_shadow

    box = trimesh.creation.box(extents=(2, 2, 4), transform=trimesh.transformations.translation_matrix((0, 0, 2)))
    sun = np.array([1.0, 0.0, 1.0]) / np.sqrt(2)  # 45 degrees up, from +x
    ground = cast_shadow([box], sun, 0.0)
    assert np.allclose(ground.bounds, (-5.0, -1.0, 1.0, 1.0))  # 4" tall box: shadow 4" long towards -x
    raised = cast_shadow([box], sun, 3.0)  # only the top inch is above a 3" surface
    assert np.allclose(raised.bounds, (-2.0, -1.0, 1.0, 1.0))
    assert cast_shadow([box], sun, 5.0).is_empty


def test_small_table_shadows_fall_on_the_ground_and_on_the_towers_block(small_table):
    from entropy3d.look.light import SUN_DIRECTION
    from entropy3d.look.shadows import table_shadows, top_outline
    from entropy3d.scene.build import build_table_geometry

    geometry = build_table_geometry(small_table)
    shadows = dict(table_shadows(geometry, SUN_DIRECTION))
    assert shadows[0.0].area > 20
    block = geometry.by_id("block_a")
    assert np.isclose(top_outline(block.mesh).area, 64.0)
    on_block = shadows[block.top]
    assert on_block.area > 1.0 and top_outline(block.mesh).buffer(1e-6).contains(on_block)
    # the sun is in the south-east, so the tower darkens the block's west and north sidewalks only
    assert on_block.bounds[0] < 2.0 and on_block.bounds[1] > 1.5


def test_windows_one_row_per_storey_facing_out_of_every_wall():
    from entropy3d.look.facades import PROUD, building_windows
    from entropy3d.scene.schema import Building

    # a 6" x 3" block of 2 storeys, outline given clockwise on purpose
    tower = Building(id="t", polygon=[(0, 0), (0, 3), (6, 3), (6, 0)], storeys=2, storey_height=2.0)
    triangles = building_windows(tower)
    per_storey = 2 * (5 + 2 + 5 + 2)  # 5 windows on the long walls, 2 on the short, 2 triangles each
    assert len(triangles) == 2 * per_storey
    heights = np.unique(np.round(triangles[..., 2], 6))
    assert np.allclose(heights, [0.7, 1.6, 2.7, 3.6])
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    centres = triangles.mean(axis=1)
    outward = (centres[:, :2] - [3.0, 1.5]) * normals[:, :2]
    assert np.all(outward.sum(axis=1) > 0), "a window faces into its building"
    outside = (np.abs(centres[:, 0] - 3.0) >= 3.0 + PROUD - 1e-9) | (np.abs(centres[:, 1] - 1.5) >= 1.5 + PROUD - 1e-9)
    assert np.all(outside)
    ruined = building_windows(tower.model_copy(update={"ruined": True}))
    assert 0 < len(ruined) < len(triangles)


def test_camera_blend_goes_from_one_view_to_the_other():
    a = CameraView((0.0, 0.0, 10.0), (5.0, 5.0, 0.0), 40.0)
    b = CameraView((10.0, -10.0, 20.0), (15.0, 5.0, 2.0), 60.0)
    assert a.blend(b, 0.0) == a and b == a.blend(b, 1.0)
    middle = a.blend(b, 0.5)
    assert middle.position == (5.0, -5.0, 15.0) and middle.look_at == (10.0, 5.0, 1.0) and middle.fov_deg == 50.0


def test_raised_shadows_leave_out_only_casters_whose_shadow_cannot_reach_the_top():
    """Each raised top is shaded by the parts whose stretched plan box reaches it, not by every
    taller part: on crossroads the shadows are the same regions as with every taller part cast
    onto every top (the oracle below), top by top."""
    from entropy3d.look.light import SUN_DIRECTION
    from entropy3d.look.shadows import FLAT_KINDS, RECEIVER_KINDS, cast_shadow, table_shadows, top_outline
    from entropy3d.resources import default_scene
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    geometry = build_table_geometry(load_scene(default_scene()))
    solids = [p for p in geometry.pieces if p.kind not in FLAT_KINDS and not p.dynamic]
    every = []
    for receiver in solids:
        casters = [part for p in solids if p is not receiver and p.top > receiver.top + 0.05 for part in p.parts]
        if receiver.kind in RECEIVER_KINDS and casters:
            shade = cast_shadow(casters, SUN_DIRECTION, receiver.top).intersection(top_outline(receiver.mesh))
            if shade.area > 1e-4:
                every.append((receiver.top, shade))
    drawn = table_shadows(geometry, SUN_DIRECTION)[1:]  # after the ground's
    assert len(every) >= 5 and [height for height, _ in drawn] == [height for height, _ in every]
    for (_, ours), (_, oracle) in zip(drawn, every):
        assert ours.symmetric_difference(oracle).area < 1e-9


def test_a_shadow_reaches_only_away_from_the_sun():
    """A 4" tall box on x, y 10..12 lit from the south-east (45 degrees up): its shadow on the
    ground stretches 2.83" west and north, so it reaches a top at x 7.5..8.5, y 13..14 but not
    one further out, nor one to the south-east; on a plane at its top it stays on its own box."""
    from entropy3d.look.shadows import shadow_reaches

    sun = np.array([0.5, -0.5, np.sqrt(0.5)])  # towards the sun: east, south and up
    bounds = np.array([[10.0, 10.0, 0.0], [12.0, 12.0, 4.0]])
    assert shadow_reaches(bounds, 0.0, sun, [(7.5, 13.0), (8.5, 14.0)])
    assert not shadow_reaches(bounds, 0.0, sun, [(5.0, 16.0), (6.0, 17.0)])
    assert not shadow_reaches(bounds, 0.0, sun, [(15.0, 7.0), (16.0, 8.0)])
    assert not shadow_reaches(bounds, 4.0, sun, [(7.5, 13.0), (8.5, 14.0)])


@pytest.mark.parametrize("length, width", [(1.0, 1.0), (1.6, 0.9), (2.36, 1.18)])
def test_a_drawn_base_is_the_base_sight_lines_and_physics_use(length, width):
    """Bases are drawn from a cache by shape; each is the disc of ``miniature_shape`` (what line
    of sight and physics use) at the origin, to the bit, whatever was drawn before it."""
    from entropy3d.geometry import BaseShape, Pose
    from entropy3d.render.miniatures import BASE_SMOOTH_DEG, base_arrays
    from entropy3d.render.nodes import shaded_triangles
    from entropy3d.scene.miniature import miniature_shape
    from entropy3d.scene.rulesfile import load_ruleset

    base = BaseShape(length, width)
    disc = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), load_ruleset()).base
    expected = shaded_triangles(disc, BASE_SMOOTH_DEG)
    for _ in range(2):
        drawn = base_arrays(base)
        assert all(np.array_equal(a, b) for a, b in zip(drawn, expected))
    extent = drawn[0].reshape(-1, 3).max(axis=0) - drawn[0].reshape(-1, 3).min(axis=0)
    assert extent[:2] == pytest.approx([length, width])


def test_the_axes_of_many_cameras_are_each_cameras_own_to_the_bit():
    """``camera_axes_of`` (the director's batches) gives every camera the axes ``camera_axes``
    gives it alone, to the bit: anywhere, looking straight down, and nearly so."""
    from entropy3d.geometry import camera_axes, camera_axes_of

    rng = np.random.default_rng(5)
    eyes, looks = rng.normal(0.0, 30.0, (3000, 3)), rng.normal(0.0, 30.0, (3000, 3))
    looks[:200] = eyes[:200] * [1.0, 1.0, 0.0]  # straight down
    looks[200:400, :2] = eyes[200:400, :2] + 1e-9  # all but straight down
    batch = camera_axes_of(eyes, looks)
    for k in range(len(eyes)):
        alone = camera_axes(eyes[k], looks[k])
        assert all(a.tobytes() == b[k].tobytes() for a, b in zip(alone, batch)), k
    assert np.array_equal(batch[1][:200], np.tile([1.0, 0.0, 0.0], (200, 1)))


def test_a_smooth_mesh_is_stored_once_per_corner_and_drawn_through_an_index():
    """The renderer stores each distinct corner (position and normal) once: a smooth sphere keeps
    trimesh's own vertex count, and the index gives back every triangle as given."""
    import trimesh
    from panda3d.core import GeomVertexReader

    from entropy3d.render.nodes import mesh_node, shaded_triangles

    sphere = trimesh.creation.icosphere(subdivisions=2)
    node = mesh_node("ball", sphere, (0.5, 0.5, 0.5), smooth_angle_deg=40.0)
    geom = node.node().get_geom(0)
    data, triangles = geom.get_vertex_data(), geom.get_primitive(0)
    assert data.get_num_rows() == len(sphere.vertices)  # 162, not 3 x 320
    reader = GeomVertexReader(data, "vertex")
    stored = []
    while not reader.is_at_end():
        stored.append(tuple(reader.get_data3()))
    corners = np.array([stored[triangles.get_vertex(k)] for k in range(triangles.get_num_vertices())])
    expected, _ = shaded_triangles(sphere, 40.0)
    np.testing.assert_array_equal(corners, expected.reshape(-1, 3).astype(np.float32))


def test_records_whose_hashes_collide_are_kept_apart():
    """Two different records built to share a hash (FNV-1a over 64-bit words is easy to steer) stay
    two vertices: the grouping is checked record by record, not trusted to the hash."""
    from entropy3d.render.nodes import _UNLIT, shared_vertices

    mask, prime, start = (1 << 64) - 1, 0x100000001B3, 0xCBF29CE484222325
    a0, a1, b0 = 0x3F8000003F800000, 0x12345678, 0x4000000040000000
    b1 = (((start ^ a0) * prime) & mask) ^ a1 ^ (((start ^ b0) * prime) & mask)
    records = np.array([a0, a1, b0, b1, a0, a1], np.uint64).view(_UNLIT)
    vertices, index = shared_vertices(records)
    assert len(vertices) == 3 and np.array_equal(vertices[index], records)
    same = np.array([a0, a1, a0, a1, b0, 7], np.uint64).view(_UNLIT)
    vertices, index = shared_vertices(same)
    assert len(vertices) == 2 and index[0] == index[1] != index[2]
