"""The cheap sure answer for top-down lines over a piece square to the table (its outline is its
own bounding box) agrees with the exact convex test, grazing lines included."""

from __future__ import annotations

import numpy as np
import shapely

from entropy3d.los.rays import segment_box_hits_inverse
from entropy3d.los.topdown import convex_outlines, inner_box
from tests.los.topdown_reference import segments_touch_convex


def _outline(polygon):
    normals, offsets = convex_outlines(polygon)
    low, high = np.array(polygon.bounds[:2]), np.array(polygon.bounds[2:])
    return low, high, normals, offsets


def test_only_an_outline_that_is_its_own_box_gets_an_inner_box():
    low, high, normals, offsets = _outline(shapely.box(3.0, 4.0, 9.5, 6.25))
    inner = inner_box(low, high, normals, offsets)
    assert inner is not None
    assert np.all(inner[0] > low) and np.all(inner[1] < high) and np.allclose(inner, (low, high), atol=1e-8)
    turned = shapely.affinity.rotate(shapely.box(3.0, 4.0, 9.5, 6.25), 20.0)
    l_shape = shapely.union_all([shapely.box(0, 0, 4, 1), shapely.box(0, 0, 1, 4)])
    for polygon in (turned, l_shape, shapely.Polygon([(0, 0), (4, 0), (4, 3)])):
        assert inner_box(*_outline(polygon)) is None, polygon.wkt


def test_lines_surely_in_the_inner_box_touch_the_outline_exactly_EC_LOS_1():
    """Clause: EC-LOS-1 - every line the inner box says touches, the exact test says touches too,
    for random lines and for lines along the box's sides and through its corners to the last
    bit; lines the inner box leaves undecided are only those grazing the box."""
    low, high, normals, offsets = _outline(shapely.box(3.0, 4.0, 9.5, 6.25))
    inner = inner_box(low, high, normals, offsets)
    rng = np.random.default_rng(11)
    starts = rng.uniform([0.0, 1.0], [12.5, 9.0], size=(20000, 2))
    ends = starts + rng.normal(0.0, 4.0, size=starts.shape)
    corners = np.array([low, (high[0], low[1]), high, (low[0], high[1])])
    # along each side, exactly on it, and a hair inside or outside; through each corner
    along = [np.stack([np.full(50, x), rng.uniform(0, 10, 50)], axis=1) for x in (low[0], high[0])] + \
        [np.stack([rng.uniform(0, 12, 50), np.full(50, y)], axis=1) for y in (low[1], high[1])]
    grazing_starts = np.concatenate([*along, np.repeat(corners, 50, axis=0)])
    grazing_ends = grazing_starts + np.concatenate([
        np.tile([[0.0, 3.0]], (100, 1)), np.tile([[3.0, 0.0]], (100, 1)), rng.normal(0.0, 3.0, (200, 2))])
    for nudge in (0.0, 1e-12, -1e-12, 1e-10, -1e-10):
        starts = np.concatenate([starts, grazing_starts + nudge])
        ends = np.concatenate([ends, grazing_ends + nudge])
    with np.errstate(divide="ignore"):
        sure = segment_box_hits_inverse(starts, 1.0 / (ends - starts), *inner)
    exact = segments_touch_convex(starts, ends - starts, normals, offsets)
    assert sure.sum() > 5000
    assert np.all(exact[sure])
    missed = exact & ~sure  # touching, left to the exact test: within a hair of the box's edge
    with np.errstate(divide="ignore"):
        assert not np.any(segment_box_hits_inverse(starts[missed], 1.0 / (ends - starts)[missed],
                                                   low + 1e-6, high - 1e-6))
