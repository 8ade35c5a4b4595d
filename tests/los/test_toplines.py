"""The top-down line tests in C (``entropy3d/los/_toplines.c``) give numpy's answers line by line
(``topdown_reference.py``, the code they replaced), and their cheap sure answers never change one."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from entropy3d.geometry import BaseShape, Pose
from entropy3d.los import LosWorld
from entropy3d.los.topdown import (
    SURE_MARGIN,
    Footprints,
    base_outlines,
    convex_outlines,
    inner_box,
    lines_blocked,
    row_tests,
    sight_lines,
)
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from tests.los.test_verdicts_kept import compared_states, miniatures_and_pairs
from tests.los.topdown_reference import lines_blocked_reference


def c_answers(blocks: np.ndarray, counts: np.ndarray, lines: np.ndarray, footprints: Footprints,
              exact_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(blocked, blocker_of_pair) from the C tests; ``exact_only``: no cheap sure answers, every
    line that crosses a row's box is tested against its convex pieces."""
    blocked = np.zeros(len(lines), bool)
    blocker_of_pair = np.zeros(blocks.shape, bool)
    rows = np.flatnonzero(blocks.any(axis=0))
    tests = list(row_tests(footprints, rows))
    if exact_only:
        tests[1] = np.full(len(rows), 2, np.int64)
        tests[2] = np.full((len(rows), 8), np.nan)
    lines_blocked(np.ascontiguousarray(blocks).view(np.uint8), rows, np.cumsum(counts) - counts, counts,
                  *(np.ascontiguousarray(lines[:, end, axis]) for end in (0, 1) for axis in (0, 1)),
                  *tests, blocked.view(np.uint8), blocker_of_pair.view(np.uint8), SURE_MARGIN)
    return blocked, blocker_of_pair


@pytest.mark.parametrize("scene", ["crossroads", "lovers_point", "ruined_highway"])
def test_the_c_tests_block_the_lines_numpy_blocked_on_the_bundled_scenes_EC_LOS_1(scene):
    """Clause: EC-LOS-1 - every top-down line of every pair, against every footprint row (the
    pieces' and the bases'), at the scene's start and two scatters: the same lines blocked, and
    the same rows blocking each pair, as the numpy row-by-row tests."""
    world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    compared = 0
    for poses in compared_states(world, 3):
        minis, pairs = miniatures_and_pairs(world, poses)
        lines, counts = sight_lines(pairs, [m.pose for m in minis], [m.base for m in minis], world.rules)
        footprints = world._footprints(minis)
        blocks = np.ones((len(pairs), len(footprints.convex)), bool)   # every row may block every pair
        ours = c_answers(blocks, counts, lines, footprints)
        reference = lines_blocked_reference(blocks, np.cumsum(counts) - counts, counts, lines, footprints)
        assert np.array_equal(ours[0], reference[0]) and np.array_equal(ours[1], reference[1])
        compared += len(lines) * len(footprints.convex)
    assert compared > 100_000


def awkward_rows() -> Footprints:
    """Four rows, one of each kind of sure answer and one with none: a square building (inner
    box), a turned one (inner circle), an L (several convex pieces: none) and a bike's base
    (ellipses)."""
    square = shapely.box(3.0, 4.0, 9.5, 6.25)
    turned = shapely.affinity.rotate(shapely.box(12.0, 2.0, 16.0, 5.0), 20.0)
    l_shape = shapely.union_all([shapely.box(2.0, 8.0, 6.0, 9.0), shapely.box(2.0, 8.0, 3.0, 12.0)])
    base = base_outlines([BaseShape(length=2.95, width=1.65)], [Pose(10.0, 9.0, 33.0, 0.0)])[0]
    convex, ellipses, inner_boxes = [], [], []
    for row, polygon in enumerate((square, turned, l_shape)):
        normals, offsets = convex_outlines(polygon)
        low, high = np.array(polygon.bounds[:2]), np.array(polygon.bounds[2:])
        convex.append((row, low, high, normals, offsets))
        ellipses.append(None)
        inner_boxes.append(inner_box(low, high, normals, offsets))
    convex.append((3, base.low, base.high, base.normals, base.offsets))
    ellipses.append(base.ellipse)
    inner_boxes.append(None)
    polygons = np.array([square, turned, l_shape, base.polygon], dtype=object)
    return Footprints(polygons, np.full(4, 2), np.zeros(4), np.ones(4), np.array([-1, -1, -1, 0]), tuple(convex),
                      tuple(ellipses), tuple(inner_boxes))


def awkward_lines(footprints: Footprints, rng: np.random.Generator) -> np.ndarray:
    """(L, 2, 2) lines over the rows: random ones, and ones along each box's sides and through
    its corners, exactly and nudged by a hair either way, points (zero length) among them."""
    starts = rng.uniform([0.0, 0.0], [18.0, 13.0], size=(6000, 2))
    ends = starts + rng.normal(0.0, 3.0, size=starts.shape)
    ends[:200] = starts[:200]                                                 # points
    special_starts, special_ends = [starts], [ends]
    for _, low, high, _, _ in footprints.convex:
        corners = np.array([low, (high[0], low[1]), high, (low[0], high[1])])
        along = np.concatenate(
            [np.stack([np.full(30, x), rng.uniform(0, 13, 30)], axis=1) for x in (low[0], high[0])]
            + [np.stack([rng.uniform(0, 18, 30), np.full(30, y)], axis=1) for y in (low[1], high[1])])
        steps = np.concatenate([np.tile([[0.0, 3.0]], (60, 1)), np.tile([[3.0, 0.0]], (60, 1))])
        through = np.repeat(corners, 30, axis=0)
        for nudge in (0.0, 1e-12, -1e-12, 1e-10, -1e-10):
            special_starts += [along + nudge, through + nudge]
            special_ends += [along + steps + nudge, through + rng.normal(0.0, 3.0, through.shape) + nudge]
    return np.stack([np.concatenate(special_starts), np.concatenate(special_ends)], axis=1)


def test_the_c_tests_give_numpys_answers_on_grazing_lines_and_points_EC_LOS_1():
    """Clause: EC-LOS-1 - lines along a row's box sides, through its corners, a hair either side
    of them, and lines of zero length: the C tests block exactly the lines numpy blocked, row by
    row (each line its own pair, so a row's verdict is seen line by line)."""
    footprints = awkward_rows()
    lines = awkward_lines(footprints, np.random.default_rng(21))
    counts = np.ones(len(lines), np.int64)
    blocks = np.ones((len(lines), len(footprints.convex)), bool)
    ours = c_answers(blocks, counts, lines, footprints)
    reference = lines_blocked_reference(blocks, np.arange(len(lines)), counts, lines, footprints)
    assert np.array_equal(ours[1], reference[1])
    assert np.array_equal(ours[0], reference[0])
    assert 0.05 < ours[1].mean() < 0.5     # both kinds of answer are well represented


def test_the_cheap_sure_answers_never_change_a_verdict_EC_LOS_1():
    """Clause: EC-LOS-1 - with every row's inner box, inner circle and ellipses taken away (each
    line that crosses a row's box tested against its convex pieces), the same lines are blocked
    by the same rows."""
    footprints = awkward_rows()
    lines = awkward_lines(footprints, np.random.default_rng(22))
    counts = np.ones(len(lines), np.int64)
    blocks = np.ones((len(lines), len(footprints.convex)), bool)
    cheap = c_answers(blocks, counts, lines, footprints)
    exact = c_answers(blocks, counts, lines, footprints, exact_only=True)
    assert np.array_equal(cheap[1], exact[1])


def test_the_c_tests_refuse_arrays_that_do_not_fit():
    """A row index past the footprints, or a pair whose lines run past the last line, is an
    error, never a read outside the arrays."""
    footprints = awkward_rows()
    lines = awkward_lines(footprints, np.random.default_rng(23))[:10]
    counts = np.array([10], np.int64)
    blocks = np.ones((1, 4), bool)
    tests = row_tests(footprints, np.arange(4))
    columns = [np.ascontiguousarray(lines[:, end, axis]) for end in (0, 1) for axis in (0, 1)]
    blocked, blocker = np.zeros(10, np.uint8), np.zeros((1, 4), np.uint8)
    with pytest.raises(ValueError, match="out of range"):
        lines_blocked(blocks.view(np.uint8), np.array([0, 1, 2, 7]), np.zeros(1, np.int64), counts, *columns,
                      *tests, blocked, blocker, SURE_MARGIN)
    with pytest.raises(ValueError, match="out of range"):
        lines_blocked(blocks.view(np.uint8), np.arange(4), np.array([5]), counts, *columns,
                      *tests, blocked, blocker, SURE_MARGIN)
    with pytest.raises(ValueError, match="expected"):
        lines_blocked(blocks.view(np.uint8), np.arange(4), np.zeros(1, np.int64), counts, *columns,
                      *tests, blocked[:5], blocker, SURE_MARGIN)
    assert not blocked.any() and not blocker.any()
