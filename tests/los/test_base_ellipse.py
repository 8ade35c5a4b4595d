"""The cheap answers for top-down lines near a miniature's base agree with the exact test."""

from __future__ import annotations

import numpy as np
import shapely

from entropy3d.geometry import BaseShape, Pose
from entropy3d.los.topdown import base_ellipse, convex_outlines
from tests.los.topdown_reference import ellipse_sides, segments_touch_convex


def ellipse_against_exact(base: BaseShape, seed: int):
    """The base (at (10, 7) facing 33 deg) as the sight lines' cheap ellipse and 20,000 random
    short segments around it: (ellipse, starts, decided touching, undecided, touching by the
    exact convex test)."""
    rng = np.random.default_rng(seed)
    pose = Pose(10.0, 7.0, 33.0, 0.0)
    normals, offsets = convex_outlines(shapely.Polygon(base.outline(pose)))
    ellipse = base_ellipse(pose, base, normals, offsets)
    starts = rng.uniform([7.0, 4.0], [13.0, 10.0], size=(20000, 2))
    ends = starts + rng.normal(0.0, 1.5, size=starts.shape)
    sure, undecided = ellipse_sides(starts, ends, ellipse)
    return ellipse, starts, sure, undecided, segments_touch_convex(starts, ends - starts, normals, offsets)


def test_lines_sure_to_touch_or_miss_a_base_do_so_exactly():
    """Clause: EC-LOS-1 - lines the ellipses decide (inside the inner one: touching; outside the
    edge ellipse: missing) get the same answer from the exact convex test, and every line the
    exact test finds touching is decided touching or left undecided."""
    ellipse, starts, sure, undecided, exact = ellipse_against_exact(BaseShape(length=2.95, width=1.65), seed=5)
    assert 0.95 < ellipse[-1] < 1.0
    assert sure.sum() > 1000 and (~sure & ~undecided).sum() > 1000
    assert np.all(exact[sure])
    assert not np.any(exact[~sure & ~undecided])
    assert undecided.sum() < 0.05 * len(starts)


def test_a_vehicle_footprint_is_decided_by_the_ellipse_that_holds_it():
    """Clause: EC-LOS-1 - a car's footprint (its plan, a superellipse of power 4, 3.17" x 1.27")
    reaches past the ellipse of its own axes at its corners: the cheap answers use the ellipse
    that holds it (``BaseShape.enclosing_axes``), so a line past its corner is never decided
    missing while the exact test finds it touching (with the plan's own axes, it was)."""
    ellipse, starts, sure, undecided, exact = ellipse_against_exact(BaseShape(length=3.17, width=1.27, power=4.0),
                                                                    seed=7)
    assert 0.8 < ellipse[-1] < 0.9, "the plan fills most of the ellipse that holds it"
    assert sure.sum() > 1000 and (~sure & ~undecided).sum() > 1000
    assert np.all(exact[sure])
    assert not np.any(exact[~sure & ~undecided])
