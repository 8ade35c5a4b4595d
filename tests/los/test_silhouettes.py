"""True LOS's ray grids in C (``entropy3d/los/_silhouettes.c``) give numpy's bits
(``silhouettes_reference.py``, the code they replaced): where each ray meets the target, which
part, its end and its cell."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.los import LosWorld
from entropy3d.los.truelos import _ray_ends, _silhouette_hits, clip_grid, ray_ends, view_windows
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from tests.los.silhouettes_reference import ray_ends_reference, silhouette_hits_reference
from tests.los.test_verdicts_kept import scattered_poses


def pair_inputs(world: LosWorld, poses) -> tuple:
    """The eyes, slabs and windows of every ordered pair of miniatures at ``poses``, as
    ``LosWorld.all_pairs`` hands them to the grids."""
    minis = list(world.miniatures(poses).values())
    pairs = [(v, t) for v in range(len(minis)) for t in range(len(minis)) if v != t]
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
    rng = np.random.default_rng(9)
    rays = 0
    for poses in [world.start_poses(), scattered_poses(world, rng), scattered_poses(world, rng)]:
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
