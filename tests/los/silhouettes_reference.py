"""True LOS's silhouette grids in numpy, as los/truelos.py made them before its C module
(``entropy3d/los/_silhouettes.c``, issue 17): the reference the C answers are held to, bit for bit."""

from __future__ import annotations

import numpy as np

from entropy3d.los.truelos import _grid_slopes, slab_terms


def silhouette_hits_reference(eyes, normals, near, far, grid: int, windows: tuple):
    """Of each pair's grid, the rays that hit the target: (R,) t along the ray of the hit, flat
    index into the (P, G, G) grids, part hit, and (P,) how many each pair has."""
    seen, a, b, along, to_near, to_far = slab_terms(eyes, normals, near, far, grid, windows)
    shape = (len(eyes), grid, grid)
    t = np.full(shape, np.inf)                      # entry into the nearest part
    part = np.zeros(shape, dtype=np.int8)           # bike or rider: a byte, not eight
    # the work arrays, allocated once for every part and slab
    denominators, near_t, far_t, t_enter, t_exit = (np.empty(shape) for _ in range(5))
    for k in range(normals.shape[1]):  # slab clipping (Cyrus-Beck by opposite plane pairs)
        t_enter.fill(0.0)
        t_exit.fill(1.0)
        for q in range(normals.shape[2]):
            np.add((along[0, :, k, q, None] + a * along[1, :, k, q, None])[:, :, None],
                   (b * along[2, :, k, q, None])[:, None, :], out=denominators)
            with np.errstate(divide="ignore", invalid="ignore"):
                np.divide(to_near[:, k, q, None, None], denominators, out=near_t)
                np.divide(to_far[:, k, q, None, None], denominators, out=far_t)
            np.maximum(t_enter, np.minimum(near_t, far_t, out=denominators), out=t_enter)
            np.minimum(t_exit, np.maximum(near_t, far_t, out=near_t), out=t_exit)
        nearer = (t_enter <= t_exit) & (t_enter < t)   # ties go to the part listed first
        np.copyto(t, t_enter, where=nearer)
        part[nearer] = k
    # the hits as flat indices into the (P, G, G) grids: taken out of each grid by np.take,
    # cheaper than boolean masks and np.nonzero of three axes
    hitting = np.isfinite(t) & seen[:, None, None]
    hit = np.flatnonzero(hitting)
    counts = np.count_nonzero(hitting.reshape(len(eyes), -1), axis=1)
    return t.take(hit), hit, part.take(hit), counts


def ray_ends_reference(eyes, grid: int, windows: tuple, t_hit, hit, counts, ends, cells) -> None:
    """Where :func:`silhouette_hits_reference`' rays meet the target, into ``ends`` (R, 3), and their
    cells (numbered row by row) into ``cells`` (R,)."""
    frames, depth, low, high = windows
    a, b, scale = _grid_slopes(grid, depth, low, high)
    # hits come pair after pair: the pair of each is a run, and its cell the rest (no division)
    pair = np.repeat(np.arange(len(eyes)), counts)
    np.subtract(hit, pair * (grid * grid), out=cells)
    # ends = eye + t * (forward + a right + b up) * scale, coordinate by coordinate: the direction
    # on the whole grid (a sum of a row and a column term), then the rest at the hits only; in
    # place where the same arithmetic allows (fewer arrays at the query's peak)
    for j in range(3):
        direction = np.add((frames[:, 0, j, None] + a * frames[:, 1, j, None])[:, :, None],
                           (b * frames[:, 2, j, None])[:, None, :])
        direction *= scale[:, None, None]
        along = direction.take(hit)
        del direction
        along *= t_hit
        np.add(eyes[:, j].take(pair), along, out=ends[:, j])


def rays_ahead_reference(ends, counts, centres, forwards):
    """Whether each ray's end lies strictly in front of its viewer's base centre line (EC-LOS-2),
    as ``LosWorld.all_pairs`` computed it in numpy."""
    pair_of_ray = np.repeat(np.arange(len(counts)), counts)
    centres, forwards = centres.T, forwards.T
    return ((ends[:, 0] - centres[0].take(pair_of_ray)) * forwards[0].take(pair_of_ray)
            + (ends[:, 1] - centres[1].take(pair_of_ray)) * forwards[1].take(pair_of_ray)) > 0


def stops_short_reference(ends, casting, eyes, start_of, gap):
    """Where the rays ``casting`` (a mask) stop, ``gap`` short of their ends, as
    ``LosWorld.all_pairs`` computed it in numpy."""
    cast_ends = np.asfortranarray(ends[casting])
    reach = np.empty_like(cast_ends)
    for j in range(3):
        np.subtract(cast_ends[:, j], eyes[:, j].take(start_of), out=reach[:, j])
    x, y, z = reach.T
    lengths = np.sqrt((x * x + z * z) + y * y)
    reach *= (gap / np.maximum(lengths, 1e-9, out=lengths))[:, None]
    return np.subtract(cast_ends, reach, out=reach)
