"""plan_outline drops points that cannot be hull corners before shapely sees them (issue 17: a
100k-vertex mesh's shadow and footprint); the outline must stay exactly the same polygon."""

import numpy as np
import pytest
from shapely.geometry import MultiPoint

from entropy3d.scene.footprints import hull_candidates, plan_outline


def _grid(count: int, turn_deg: float) -> np.ndarray:
    x, y = np.meshgrid(np.linspace(0, 2.0, count), np.linspace(0, 1.5, count))
    c, s = np.cos(np.radians(turn_deg)), np.sin(np.radians(turn_deg))
    return np.column_stack([x.ravel(), y.ravel()]) @ np.array([[c, s], [-s, c]])


CLOUDS = {
    "uniform": np.random.default_rng(1).uniform(size=(5000, 2)),
    "normal": np.random.default_rng(2).normal(size=(20000, 2)),
    "many ties": np.round(np.random.default_rng(3).uniform(size=(3000, 2)) * 4) / 4,
    "axis-aligned grid": _grid(150, 0.0),
    "turned grid": _grid(150, 37.0),
    "a line": np.column_stack([np.linspace(0, 1, 100), np.zeros(100)]),
}


@pytest.mark.parametrize("name", sorted(CLOUDS))
def test_the_hull_of_the_candidates_is_the_hull_of_all_points(name):
    points = CLOUDS[name]
    assert MultiPoint(hull_candidates(points)).convex_hull.wkb == MultiPoint(points).convex_hull.wkb


def test_a_mesh_grid_is_cut_to_a_few_candidates_and_its_outline_is_the_rectangle():
    points = _grid(150, 0.0)
    assert len(hull_candidates(points)) < 0.05 * len(points)
    outline = plan_outline(np.column_stack([points, np.ones(len(points))]))
    assert outline.area == pytest.approx(3.0) and outline.bounds == pytest.approx((0, 0, 2.0, 1.5))
