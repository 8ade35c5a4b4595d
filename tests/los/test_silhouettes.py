"""True LOS's ray grids in C (``entropy3d/los/_silhouettes.c``) give numpy's bits
(``silhouettes_reference.py``, the code they replaced): where each ray meets the target, which
part, its end and its cell."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.los import LosWorld
from entropy3d.los.truelos import (
    _ray_ends,
    _silhouette_hits,
    clip_grid,
    ray_ends,
    ray_stops,
    rays_ahead,
    rays_in_front,
    silhouette_rays,
    stops_short,
    view_windows,
)
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from tests.los.silhouettes_reference import (
    ray_ends_reference,
    rays_ahead_reference,
    silhouette_hits_reference,
    stops_short_reference,
)
from tests.los.test_verdicts_kept import compared_states, miniatures_and_pairs


def pair_inputs(world: LosWorld, poses) -> tuple:
    """The eyes, slabs and windows of every ordered pair of miniatures at ``poses``, as
    ``LosWorld.all_pairs`` hands them to the grids."""
    minis, pairs = miniatures_and_pairs(world, poses)
    eyes = np.array([minis[v].eye for v, _ in pairs]).reshape(-1, 3)
    targets = np.array([t for _, t in pairs], dtype=np.int64)
    vertices = np.array([np.concatenate([m.parts[0][0], m.parts[1][0]]) for m in minis])[targets]
    slabs = [np.array([m.sight_slabs[k] for m in minis])[targets] for k in range(3)]
    return eyes, slabs, view_windows(eyes, vertices)


@pytest.mark.parametrize("scene", ["crossroads", "lovers_point", "ruined_highway"])
def test_the_grids_meet_the_targets_where_numpy_did_to_the_bit_EC_LOS_4(scene):
    """Clause: EC-LOS-4 - every ray of every pair's grid, at the scene's start and two scatters
    (eyes on roofs, in buildings, beside targets): the same t, part, end and cell, bit for bit."""
    world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    grid = world.rules.silhouette_grid
    rays = 0
    for poses in compared_states(world, 9):
        eyes, slabs, windows = pair_inputs(world, poses)
        ours = _silhouette_hits(eyes, *slabs, grid, windows)
        reference = silhouette_hits_reference(eyes, *slabs, grid, windows)
        for mine, theirs in zip(ours, reference):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
        t_hit, hit, _, counts = ours
        ends, cells = np.empty((len(hit), 3), order="F"), np.empty(len(hit), np.int32)
        reference_ends, reference_cells = np.empty((len(hit), 3), order="F"), np.empty(len(hit), np.int32)
        _ray_ends(eyes, grid, windows, t_hit, hit, ends, cells)
        ray_ends_reference(eyes, grid, windows, t_hit, hit, counts, reference_ends, reference_cells)
        assert np.array_equal(ends.view(np.uint64), reference_ends.view(np.uint64))
        assert np.array_equal(cells, reference_cells)
        rays += len(hit)
    assert rays > 20_000


def test_the_grids_refuse_arrays_that_do_not_fit():
    """Arrays of the wrong size, or a ray's cell outside the grids, are errors, never a read or a
    write outside the arrays."""
    pairs, parts, slabs, grid = 2, 2, 3, 4
    along = np.zeros((3, pairs, parts, slabs))
    near, far = np.ones((pairs, parts, slabs)), np.ones((pairs, parts, slabs))
    a, b = np.zeros((pairs, grid)), np.zeros((pairs, grid))
    seen = np.ones(pairs, np.uint8)
    cells = pairs * grid * grid
    answers = [np.zeros(cells), np.zeros(cells, np.int64), np.zeros(cells, np.int8), np.zeros(pairs, np.int64)]
    assert clip_grid(along, near, far, a, b, parts, slabs, seen, *answers) == 0   # no slab faces the rays
    with pytest.raises(ValueError, match="expected"):
        clip_grid(along, near, far, a, b, parts, slabs, seen, answers[0][:-1], *answers[1:])
    with pytest.raises(ValueError, match="expected"):
        clip_grid(np.ascontiguousarray(along[:, :1]), near, far, a, b, parts, slabs, seen, *answers)
    with pytest.raises(ValueError, match="expected"):
        clip_grid(along, near, far, a, b, parts, slabs, seen[:1], *answers)
    frames, scale, eyes = np.zeros((pairs, 3, 3)), np.ones(pairs), np.zeros((pairs, 3))
    x, y, z, cells = np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3, np.int32)
    with pytest.raises(ValueError, match="outside the grids"):
        ray_ends(np.array([0, 5, pairs * grid * grid]), np.ones(3), frames, a, b, scale, eyes, x, y, z, cells)
    with pytest.raises(ValueError, match="expected"):
        ray_ends(np.array([0, 5, 7]), np.ones(3), frames, a, b, scale, eyes, x, y, z, cells[:2])
    assert not x.any() and not cells.any()


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(np.ascontiguousarray(a).view(np.uint64),
                                                 np.ascontiguousarray(b).view(np.uint64))


@pytest.mark.parametrize("scene", ["crossroads", "lovers_point", "ruined_highway"])
def test_which_rays_look_ahead_and_where_they_stop_are_numpys_to_the_bit_EC_LOS_2(scene):
    """Clause: EC-LOS-2 - every ray of every pair at the scene's start and two scatters: whether
    its end is in front of the viewer's base centre line, and where a ray cast stops short of its
    end, bit for bit as numpy had them (and a ray of no length, or with no number, as numpy)."""
    world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    rng = np.random.default_rng(4)
    rays = 0
    for poses in compared_states(world, 4):
        minis, pairs = miniatures_and_pairs(world, poses)
        viewers = np.array([v for v, _ in pairs])
        eyes, slabs, windows = pair_inputs(world, poses)
        ends, _, _, counts = silhouette_rays(eyes, None, *slabs, world.rules.silhouette_grid, windows)  # windows given
        ends[:3] = [eyes[0], [np.nan, 1.0, 2.0], [1.0, np.inf, 0.5]]  # no length, no number
        centres = np.array([m.pose.xy for m in minis])[viewers]
        forwards = np.array([m.pose.forward for m in minis])[viewers]
        ahead = rays_ahead(ends, counts, centres, forwards)
        with np.errstate(invalid="ignore"):  # the rays with no number
            assert np.array_equal(ahead, rays_ahead_reference(ends, counts, centres, forwards))
        casting = ahead & (rng.random(len(ends)) < 0.7)
        casting[:3] = True
        start_of = np.repeat(np.arange(len(pairs)), counts)[casting]
        stops = stops_short(ends, np.flatnonzero(casting), eyes, start_of, 1e-4)
        assert stops.flags.f_contiguous
        with np.errstate(invalid="ignore"):
            assert same_bits(stops, stops_short_reference(ends, casting, eyes, start_of, 1e-4))
        rays += len(ends)
    assert rays > 20_000


def test_looking_ahead_and_stopping_refuse_arrays_that_do_not_fit():
    """Counts that do not add up to the rays, a row or an eye outside the arrays, or an answer of
    the wrong size are errors, never a read or a write outside the arrays."""
    x, y, z = np.zeros(4), np.zeros(4), np.zeros(4)
    one = np.zeros(2)
    ahead = np.zeros(4, bool)
    rays_in_front(x, y, np.array([1, 3]), one, one, one, one, ahead)
    for counts in ([1, 2], [3, 3], [-1, 5]):
        with pytest.raises(ValueError, match="counts"):
            rays_in_front(x, y, np.array(counts), one, one, one, one, ahead)
    with pytest.raises(ValueError, match="expected"):
        rays_in_front(x, y, np.array([1, 3]), one, one, one, one, ahead[:3])
    eyes, stops = np.zeros((2, 3)), [np.full(2, 7.0) for _ in range(3)]
    for rows, start_of in (([0, 4], [0, 1]), ([0, -1], [0, 1]), ([0, 1], [0, 2])):
        with pytest.raises(ValueError, match="outside the arrays"):
            ray_stops(x, y, z, np.array(rows), eyes, np.array(start_of), 1e-4, *stops)
    with pytest.raises(ValueError, match="expected"):
        ray_stops(x, y, z, np.array([0, 1]), eyes, np.array([0, 1]), 1e-4, stops[0][:1], *stops[1:])
    assert all((stop == 7.0).all() for stop in stops)
