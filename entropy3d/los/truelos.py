"""True line of sight (EC-LOS-4, EC-COVER-1): how much of the target the rider's eye can see.

The target's bike and rider are convex solids. Seen from the eye they cover a patch of the view;
a grid of rays over that patch's bounding box finds the silhouette (the rays that hit the
target) and which target part each ray meets first. The caller then casts the same rays against
everything else on the table; the share that arrives unblocked is the visible fraction.
Sampling the silhouette (not the surface) makes an open view exactly 100% visible.
"""

from __future__ import annotations

import numpy as np

from entropy3d.los.losrules import LosRules

BIKE, RIDER = 0, 1
#: pairs whose rays are clipped together: (pairs x rays) arrays small enough to stay in cache
PAIRS_PER_CHUNK = 32


def view_frames(eyes: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(P, 3, 3) frames, rows forward (eye to centre), right, up; orthonormal."""
    forward = centres - eyes
    forward /= np.linalg.norm(forward, axis=1, keepdims=True)
    up = np.where(np.abs(forward[:, 2:3]) < 0.999, [[0.0, 0.0, 1.0]], [[0.0, 1.0, 0.0]])
    right = np.cross(forward, up)
    right /= np.linalg.norm(right, axis=1, keepdims=True)
    return np.stack([forward, right, np.cross(right, forward)], axis=1)


def _padded_planes(parts_per_pair) -> tuple[np.ndarray, np.ndarray]:
    """(P, K, F, 3) normals and (P, K, F) offsets; missing planes padded with a neutral
    0 . x <= 1 that never clips."""
    count = max(len(normals) for parts in parts_per_pair for _, normals, _ in parts)
    pairs, kinds = len(parts_per_pair), len(parts_per_pair[0])
    normals = np.zeros((pairs, kinds, count, 3))
    offsets = np.ones((pairs, kinds, count))
    for p, parts in enumerate(parts_per_pair):
        for k, (_, part_normals, part_offsets) in enumerate(parts):
            normals[p, k, :len(part_normals)] = part_normals
            offsets[p, k, :len(part_offsets)] = part_offsets
    return normals, offsets


def silhouette_rays(eyes: np.ndarray, parts_per_pair: list, grid: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each pair, rays from its eye through a grid x grid bundle over the target's angular
    bounding box, many pairs at once.

    ``parts_per_pair[p]`` are the target's convex solids as (vertices, plane normals, plane
    offsets), bike first, the same number for every pair. Returns per pair ``(ends, part, cells)``:
    for every ray that hits the target, the point where it first meets it (R, 3), which part that
    is (R,) and its cell of the grid (R,), numbered row by row.
    """
    eyes = np.asarray(eyes, float).reshape(-1, 3)
    result = []
    for first in range(0, len(parts_per_pair), PAIRS_PER_CHUNK):
        chunk = slice(first, first + PAIRS_PER_CHUNK)
        result.extend(_silhouette_rays(eyes[chunk], parts_per_pair[chunk], grid))
    return result


def _silhouette_rays(eyes: np.ndarray, parts_per_pair: list, grid: int) -> list[tuple[np.ndarray, np.ndarray]]:
    frames, depth, low, high = view_windows(eyes, target_vertices(parts_per_pair))
    seen = np.all(depth > 1e-6, axis=1)            # the eye is not inside or beside the target
    cells = (np.arange(grid) + 0.5) / grid
    a = low[:, 0:1] + cells * (high - low)[:, 0:1]    # (P, G)
    b = low[:, 1:2] + cells * (high - low)[:, 1:2]
    directions = (frames[:, None, None, 0] + a[:, :, None, None] * frames[:, None, None, 1]
                  + b[:, None, :, None] * frames[:, None, None, 2]).reshape(len(eyes), grid * grid, 3)
    deltas = directions * (1.01 * depth.max(axis=1))[:, None, None]   # (P, R, 3) past the far side
    normals, offsets = _padded_planes(parts_per_pair)                # (P, K, F, 3), (P, K, F)
    numerators = offsets - np.einsum("pkfj,pj->pkf", normals, eyes)   # >= 0: eye inside that plane
    entry = np.empty(deltas.shape[:2] + normals.shape[1:2])           # (P, R, K)
    for k in range(normals.shape[1]):  # Cyrus-Beck, plane by plane over (P, R) arrays
        t_enter = np.full(deltas.shape[:2], -np.inf)
        t_exit = np.full(deltas.shape[:2], np.inf)
        outside = np.zeros(deltas.shape[:2], bool)
        for f in range(normals.shape[2]):
            denominators = np.einsum("prj,pj->pr", deltas, normals[:, k, f])
            numerator = numerators[:, k, f, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = numerator / denominators
            np.maximum(t_enter, np.where(denominators < 0, ratio, 0.0), out=t_enter)
            np.minimum(t_exit, np.where(denominators > 0, ratio, 1.0), out=t_exit)
            outside |= (denominators == 0) & (numerator < 0)
        entry[:, :, k] = np.where((t_enter <= t_exit) & ~outside, t_enter, np.inf)
    part = np.argmin(entry, axis=2)
    t = np.take_along_axis(entry, part[..., None], axis=2)[..., 0]
    result = []
    for p in range(len(eyes)):
        hit = np.isfinite(t[p]) & seen[p]
        result.append((eyes[p] + t[p, hit, None] * deltas[p, hit], part[p, hit], np.flatnonzero(hit)))
    return result


def target_vertices(parts_per_pair: list) -> np.ndarray:
    """(P, V, 3) the vertices of each pair's target solids."""
    return np.stack([np.concatenate([v for v, _, _ in parts]) for parts in parts_per_pair])


def view_windows(eyes: np.ndarray, vertices: np.ndarray):
    """Each pair's view of its target from the eye: the frames (:func:`view_frames`, towards the
    vertices' mean), the vertices' depths along it (P, V), and the low and high corners (P, 2)
    of their slopes (right / forward, up / forward): the window the ray grid spans."""
    frames = view_frames(eyes, vertices.mean(axis=1))
    relative = np.einsum("pvj,pij->pvi", vertices - eyes[:, None], frames)
    depth = relative[..., 0]
    slope = relative[..., 1:] / np.where(depth > 1e-6, depth, 1.0)[..., None]
    return frames, depth, slope.min(axis=1), slope.max(axis=1)


def grid_rows_near(eyes: np.ndarray, vertices: np.ndarray, grid: int, box_low: np.ndarray,
                   box_high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Which cells of each pair's ray grid may pass through each of M boxes, as index ranges.

    ``eyes`` and ``vertices`` are what :func:`silhouette_rays` was given (per pair), ``box_low``
    and ``box_high`` (M, 3). Returns (P, M) first and last row and first and last column of the
    cells whose rays may meet box m (first > last: none): a box wholly in front of the eye is
    seen inside the window of its corners' slopes, widened by a cell for rounding; a box wholly
    behind the eye or beyond the target none; any other box the whole grid.
    """
    frames, target_depth, low, high = view_windows(eyes, vertices)
    corners = np.stack(np.meshgrid([0, 1], [0, 1], [0, 1], indexing="ij"), axis=-1).reshape(8, 3)
    points = np.where(corners[None], box_high[:, None], box_low[:, None])        # (M, 8, 3)
    relative = np.matmul(points.reshape(1, -1, 3) - eyes[:, None], frames.transpose(0, 2, 1)).reshape(
        len(eyes), len(points), 8, 3)
    depth = relative[..., 0]
    in_front = np.all(depth > 1e-6, axis=2)                                       # (P, M)
    slope = relative[..., 1:] / np.where(depth > 1e-6, depth, 1.0)[..., None]
    span = np.where(high - low > 0, high - low, 1.0)[:, None]                    # (P, 1, 2)
    first = np.floor((slope.min(axis=2) - low[:, None]) / span * grid - 0.5) - 1
    last = np.ceil((slope.max(axis=2) - low[:, None]) / span * grid - 0.5) + 1
    windowed = (in_front & np.all(high - low > 0, axis=1)[:, None])[..., None]   # else: the whole grid
    first = np.where(windowed, np.clip(first, 0, grid), 0).astype(np.int64)
    last = np.where(windowed, np.clip(last, -1, grid - 1), grid - 1).astype(np.int64)
    # the rays end on the target: a box wholly behind the eye or beyond the target meets none
    beyond = depth.min(axis=2) > 1.001 * target_depth.max(axis=1)[:, None] + 1e-6
    last[np.all(depth < -1e-6, axis=2) | beyond] = -1
    return first[..., 0], last[..., 0], first[..., 1], last[..., 1]


def true_verdict_numbers(part: np.ndarray, visible: np.ndarray, rules: LosRules) -> dict:
    """The numbers of a :class:`~entropy3d.los.results.TrueVerdict` from per-ray outcomes."""
    return true_verdicts_numbers(np.zeros(len(part), dtype=np.int64), part, visible, 1, rules)[0]


def true_verdicts_numbers(pair_of_ray: np.ndarray, part: np.ndarray, visible: np.ndarray, pairs: int,
                          rules: LosRules) -> list[dict]:
    """:func:`true_verdict_numbers` of many pairs at once; ``pair_of_ray`` says whose each ray is."""
    rays = np.bincount(pair_of_ray, minlength=pairs)
    on_bike = part == BIKE
    bike_rays = np.bincount(pair_of_ray[on_bike], minlength=pairs)
    seen = np.bincount(pair_of_ray[visible], minlength=pairs)
    bike_seen_rays = np.bincount(pair_of_ray[visible & on_bike], minlength=pairs)
    with np.errstate(divide="ignore", invalid="ignore"):
        fractions = np.where(rays > 0, seen / rays, 0.0)
        bike_fractions = np.where(bike_rays > 0, bike_seen_rays / bike_rays, 0.0)
    numbers = []
    for fraction, bike_fraction, count in zip(fractions.tolist(), bike_fractions.tolist(), rays.tolist()):
        bike_seen = bike_fraction >= rules.bike_seen_min and bike_fraction > 0.0
        numbers.append({
            "visible_fraction": fraction,
            "bike_fraction": bike_fraction,
            "bike_seen": bike_seen,
            "cover": fraction > 0.0 and (1.0 - fraction) >= rules.cover_min_hidden,
            "rays": count,
        })
    return numbers
