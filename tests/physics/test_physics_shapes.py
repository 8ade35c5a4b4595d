"""Pure helpers of the physics package: polyline arithmetic, collision pieces, the bike hull."""

import bisect
import math

import numpy as np
import pytest
import trimesh
from shapely.geometry import Polygon

from entropy3d.geometry import BaseShape
from entropy3d.physics import polyline
from entropy3d.physics.world import bike_hull, convex_pieces, debris_mass_kg
from entropy3d.units import TableScale


def test_point_at_and_heading_at_walk_an_l_shaped_path():
    points = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]])
    lengths = polyline.cumulative_lengths(points)
    assert lengths[-1] == pytest.approx(7.0)
    assert polyline.point_at(points, lengths, 5.5) == pytest.approx([4.0, 1.5])
    assert polyline.heading_at(points, lengths, 1.0) == pytest.approx(0.0)
    assert polyline.heading_at(points, lengths, 6.0) == pytest.approx(90.0)
    assert polyline.point_at(points, lengths, 99.0) == pytest.approx([4.0, 3.0])


def test_project_follows_a_self_crossing_path_in_order():
    """A figure that passes (2, 0) twice: from s=0 the first pass is found, from s=9 the second."""
    points = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [2.0, 2.0], [2.0, -2.0]])
    lengths = polyline.cumulative_lengths(points)
    here = np.array([2.0, 0.0])
    assert polyline.project(points, lengths, here, 0.0, window=2.0) == pytest.approx(2.0)
    assert polyline.project(points, lengths, here, 9.0, window=2.0) == pytest.approx(10.0)


def test_resample_keeps_corners_and_spacing():
    points = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 1.0]])
    dense = polyline.resample(points, 0.5)
    assert np.max(np.hypot(*np.diff(dense, axis=0).T)) <= 0.5 + 1e-12
    assert any(np.allclose(p, [3.0, 0.0]) for p in dense)


def test_a_mesh_of_convex_solids_becomes_their_hulls_and_a_concave_one_stays_a_mesh():
    moved = trimesh.transformations.translation_matrix((3, 0, 0))
    two_boxes = trimesh.util.concatenate([trimesh.creation.box((1, 1, 1)), trimesh.creation.box((1, 1, 1), moved)])
    pieces = convex_pieces(two_boxes)
    assert len(pieces) == 2 and all(faces is None for _, faces in pieces)
    l_shape = trimesh.creation.extrude_polygon(
        Polygon([(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)]), 1.0)
    ((vertices, faces),) = convex_pieces(l_shape)
    assert faces is not None and len(faces) == len(l_shape.faces)


def test_bike_hull_is_the_base_outline_to_the_riders_head_in_metres():
    base = BaseShape(75 / 25.4, 42 / 25.4)
    scale = TableScale(1.42, 1.5)
    hull = trimesh.convex.convex_hull(bike_hull(base, 1.8, scale))
    assert hull.extents == pytest.approx([scale.metres(base.length), scale.metres(base.width), scale.metres(1.8)])
    assert hull.bounds[0][2] == pytest.approx(0.0)


def test_heavier_risk_means_heavier_debris():
    """EC-DEST-1: a risk 3 piece is harder to knock about than a risk 1 piece of the same size."""
    assert debris_mass_kg(0.5, 3) == pytest.approx(3 * debris_mass_kg(0.5, 1))
    # a crate of 0.5 m^3 at risk 1 weighs 30 kg: 60 kg/m^3 a risk level (the rules-free constant), not nothing
    assert debris_mass_kg(0.5, 1) == pytest.approx(30.0)


def test_cursor_agrees_with_the_array_functions():
    rng = np.random.default_rng(3)
    points = np.cumsum(rng.uniform(-1.0, 2.0, size=(12, 2)), axis=0)
    lengths = polyline.cumulative_lengths(points)
    cursor = polyline.Cursor(points)
    for s in np.linspace(0.0, lengths[-1], 17):
        assert cursor.point_at(s) == pytest.approx(tuple(polyline.point_at(points, lengths, s)))
        assert np.degrees(cursor.heading_at(s)) == pytest.approx(polyline.heading_at(points, lengths, s))
        assert cursor.direction_at(s) == (math.cos(cursor.heading_at(s)), math.sin(cursor.heading_at(s)), 0.0)
        xy = polyline.point_at(points, lengths, s) + rng.normal(0.0, 0.05, size=2)
        assert cursor.project(*xy, s) == pytest.approx(polyline.project(points, lengths, xy, s, window=2.0))



def _scanned(cursor: polyline.Cursor, x: float, y: float, s_from: float, window: float) -> float:
    """Cursor.project as a plain scan, in order, of every segment in its window (first nearest wins)."""
    lengths, last = cursor.lengths, cursor.last_segment
    first = min(max(bisect.bisect_right(lengths, s_from - 1.0) - 1, 0), last)
    end = min(max(bisect.bisect_right(lengths, s_from + window) - 1, 0), last)
    best, best_s = float("inf"), s_from
    for ax, ay, dx, dy, span, along, length in cursor.segments[first:end + 1]:
        t = 0.0 if span <= 0 else min(max(((x - ax) * dx + (y - ay) * dy) / span, 0.0), 1.0)
        ex, ey = ax + t * dx - x, ay + t * dy - y
        if ex * ex + ey * ey < best:
            best, best_s = ex * ex + ey * ey, along + t * length
    return best_s


@pytest.mark.parametrize("path", ["wander", "straight_doubled", "spiral", "closed_corner"])
def test_cursor_projection_skipping_far_segments_gives_the_scans_bits(path):
    """The ride's progress is the same bits whether far segments are skipped or scanned: on paths
    with repeated points (ties between segments), crossing themselves, and points on vertices."""
    rng = np.random.default_rng(17)
    if path == "wander":
        points = np.cumsum(rng.uniform(-1.0, 1.0, size=(25, 2)), axis=0)
    elif path == "straight_doubled":
        points = np.repeat(np.column_stack([np.linspace(0.0, 10.0, 41), np.full(41, 22.7)]), 2, axis=0)
    elif path == "spiral":
        a = np.linspace(0.0, 4.0 * np.pi, 60)
        points = np.column_stack([2.0 * np.cos(a) + 0.05 * a, 2.0 * np.sin(a)])
    else:
        points = polyline.resample(np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 0.0], [3.0, 3.0], [0.0, 0.0]]), 0.5)
    cursor = polyline.Cursor(points)
    skipped_some = False
    for _ in range(300):
        s = float(rng.uniform(-1.0, cursor.total + 1.0))
        near = np.array(cursor.point_at(s))
        for xy in (near, near + rng.normal(0.0, float(rng.choice([1e-9, 0.05, 2.0])), 2),
                   np.array(cursor.points[rng.integers(len(cursor.points))])):
            for window in (2.0, 0.5, cursor.total):
                x, y = float(xy[0]), float(xy[1])
                assert cursor.project(x, y, s, window) == _scanned(cursor, x, y, s, window), (x, y, s, window)
                skipped_some |= window == cursor.total
    assert skipped_some


def test_cursor_projection_equally_near_segments_the_first_wins():
    """From the centre of three sides of a square every side is 1" away, bit for bit: the first
    side in the window wins, as in a scan, though the projection measures the one at ``s_from`` first."""
    cursor = polyline.Cursor(np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]))
    assert cursor.project(1.0, 1.0, 2.5) == _scanned(cursor, 1.0, 1.0, 2.5, 2.0) == 1.0
    assert cursor.project(1.0, 1.0, 4.5) == _scanned(cursor, 1.0, 1.0, 4.5, 2.0) == 3.0


def _textured_tile(relief_in: float) -> trimesh.Trimesh:
    """A 2" x 2" x 0.2" tile of 49k triangles whose top is rippled ``relief_in`` deep, like a
    3D-printed terrain tile's texture (watertight, not convex)."""
    tile = trimesh.creation.box(extents=[2.0, 2.0, 0.2]).subdivide().subdivide().subdivide()
    tile = tile.subdivide().subdivide().subdivide()
    vertices = tile.vertices.copy()
    top = vertices[:, 2] > 0.0999
    vertices[top, 2] -= relief_in * 0.5 * (1 + np.sin(9.0 * vertices[top, 0]) * np.sin(7.0 * vertices[top, 1]))
    return trimesh.Trimesh(vertices, tile.faces)


def test_a_detailed_print_within_tolerance_rides_as_its_hull_and_a_grooved_one_stays_a_mesh():
    """Collision proxy (issue 17): a tile with 0.4 mm of texture becomes one convex hull that
    strays at most PROXY_TOLERANCE_IN from the drawn mesh; 3 mm grooves are shape, not texture."""
    from entropy3d.physics.hulls import PROXY_MIN_FACES, PROXY_TOLERANCE_IN, hull_deviation_in

    textured, grooved = _textured_tile(0.016), _textured_tile(0.12)
    assert len(textured.faces) >= PROXY_MIN_FACES and not textured.is_convex and textured.is_watertight
    assert hull_deviation_in(textured, textured.convex_hull) <= PROXY_TOLERANCE_IN
    pieces = convex_pieces(textured)
    assert len(pieces) == 1 and pieces[0][1] is None
    assert np.allclose(pieces[0][0].max(axis=0), textured.vertices.max(axis=0))
    assert hull_deviation_in(grooved, grooved.convex_hull) > PROXY_TOLERANCE_IN
    (kept,) = convex_pieces(grooved)
    assert kept[1] is not None and len(kept[1]) == len(grooved.faces)


def _bundled_solids() -> list[np.ndarray]:
    """The vertices of every connected solid of every concave static part of the bundled scenes:
    what :func:`convex_pieces` takes hulls of (the meshes of models/ as the scenes place them)."""
    from entropy3d.resources import bundled_dir
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    solids = []
    for scene in sorted(bundled_dir("scenes").glob("*.yaml")):
        for piece in build_table_geometry(load_scene(scene)).pieces:
            for part in () if piece.dynamic else piece.parts:
                if not part.is_convex:
                    solids += [np.asarray(c.vertices) for c in part.split(only_watertight=False)
                               if len(c.vertices) >= 4]
    return solids


def test_hull_corners_are_trimeshs_convex_hull_corners_on_every_bundled_mesh():
    """hull_corners skips the mesh trimesh builds around qhull's answer: the same corners to the
    bit, in the same order (physics builds the static shapes from them), and the same volume."""
    from entropy3d.physics.hulls import hull_corners

    solids = _bundled_solids()
    rng = np.random.default_rng(5)
    # clouds with corners, points inside and on faces, repeated points, and a flat one (qhull
    # fails, then joggled finds a hull of no volume: convex_pieces keeps such a solid as a mesh)
    clouds = [np.vstack([trimesh.creation.box((2, 1, 0.5)).vertices, rng.uniform(-0.2, 0.2, (30, 3)),
                         [[1.0, 0.0, 0.0], [1.0, 0.5, 0.25]]]),
              np.repeat(trimesh.creation.icosphere(1).vertices, 2, axis=0),
              np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0]], float)]
    assert len(solids) > 100
    for points in solids + clouds:
        corners, volume = hull_corners(points)
        with np.errstate(invalid="ignore"):  # trimesh divides by a flat hull's volume, 0, for its centre
            hull = trimesh.convex.convex_hull(points)
            assert volume == pytest.approx(hull.volume, rel=1e-9, abs=1e-12)
        assert np.array_equal(corners, hull.vertices)
    assert volume == 0.0

