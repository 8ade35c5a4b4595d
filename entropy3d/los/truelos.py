"""True line of sight (EC-LOS-4, EC-COVER-1): how much of the target the rider's eye can see.

The target's bike and rider are convex solids. Seen from the eye they cover a patch of the view;
a grid of rays over that patch's bounding box finds the silhouette (the rays that hit the
target) and which target part each ray meets first. The caller then casts the same rays against
everything else on the table; the share that arrives unblocked is the visible fraction.
Sampling the silhouette (not the surface) makes an open view exactly 100% visible.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from entropy3d.los._silhouettes import clip_grid, ray_ends, ray_stops, rays_in_front
from entropy3d.los.losrules import LosRules
from entropy3d.los.rays import boxes_touching, group_rows

BIKE, RIDER = 0, 1
#: pairs whose rays are clipped together: (pairs x rays) arrays small enough to stay in cache
PAIRS_PER_CHUNK = 32
#: cells: a box's window in a ray grid is widened this much past its corners' slopes, far more
#: than the rounding of a slope (about 1e-13 of a cell) and far less than a cell
CELL_MARGIN = 1e-3
#: (8, 3) which corner of a box each of its 8 corners is: 1 the high side, 0 the low side, per axis
BOX_CORNERS = np.stack(np.meshgrid([0, 1], [0, 1], [0, 1], indexing="ij"), axis=-1).reshape(8, 3)


def view_frames(eyes: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(P, 3, 3) frames, rows forward (eye to centre), right, up; orthonormal."""
    forward = centres - eyes
    forward /= np.linalg.norm(forward, axis=1, keepdims=True)
    up = np.where(np.abs(forward[:, 2:3]) < 0.999, [[0.0, 0.0, 1.0]], [[0.0, 1.0, 0.0]])
    right = np.cross(forward, up)
    right /= np.linalg.norm(right, axis=1, keepdims=True)
    return np.stack([forward, right, np.cross(right, forward)], axis=1)


def slab_planes(parts: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Convex solids' face planes as slabs ``-far <= n . x <= near``: each plane paired with the
    one facing the opposite way (a box is 3 slabs), a plane with no opposite alone (far = inf).

    ``parts`` are (vertices, plane normals, plane offsets). Returns (K, S, 3) normals, (K, S)
    near and far offsets, padded with neutral slabs (n = 0, offsets inf) that never clip.
    """
    slabs = []
    for _, normals, offsets in parts:
        kept, used = [], set()
        for i in range(len(normals)):
            if i in used:
                continue
            opposite = [j for j in range(i + 1, len(normals))
                        if j not in used and float(normals[i] @ normals[j]) < -1 + 1e-9]
            far = offsets[opposite[0]] if opposite else np.inf
            used.update([i, *opposite[:1]])
            kept.append((normals[i], offsets[i], far))
        slabs.append(kept)
    count = max(len(kept) for kept in slabs)
    normals = np.zeros((len(parts), count, 3))
    near = np.full((len(parts), count), np.inf)
    far = np.full((len(parts), count), np.inf)
    for k, kept in enumerate(slabs):
        for q, (normal, near_offset, far_offset) in enumerate(kept):
            normals[k, q], near[k, q], far[k, q] = normal, near_offset, far_offset
    return normals, near, far


def silhouette_rays(eyes: np.ndarray, vertices: np.ndarray, normals: np.ndarray, near: np.ndarray,
                    far: np.ndarray, grid: int, windows: tuple | None = None):
    """For each pair, rays from its eye through a grid x grid bundle over the target's angular
    bounding box, many pairs at once.

    Per pair: ``vertices`` (P, V, 3) of the target's convex solids and the solids as slabs
    (:func:`slab_planes`: (P, K, S, 3) normals, (P, K, S) near and far offsets), bike first.
    Returns, pair after pair, for every ray that hits the target: the point where it first
    meets it (R, 3), which part that is (R,), its cell of the grid (R,), numbered row by row,
    and (P,) how many rays each pair has. ``windows``: :func:`view_windows` of the same eyes and
    vertices when the caller has them already.
    """
    eyes = np.asarray(eyes, float).reshape(-1, 3)
    windows = windows or view_windows(eyes, vertices)
    chunks = [slice(k, k + PAIRS_PER_CHUNK) for k in range(0, len(eyes), PAIRS_PER_CHUNK)]
    hits = [_silhouette_hits(eyes[chunk], normals[chunk], near[chunk], far[chunk], grid,
                             tuple(item[chunk] for item in windows)) for chunk in chunks]
    if not hits:
        return np.zeros((0, 3)), np.zeros(0, np.int8), np.zeros(0, np.int32), np.zeros(0, np.int64)
    # the ends and cells written chunk by chunk into their final arrays (no chunks of them to
    # join: a copy of the ends less at the peak), the ends column-major (the caller reads them
    # by column)
    rays = sum(len(hit) for _, hit, _, _ in hits)
    ends, cells = np.empty((rays, 3), order="F"), np.empty(rays, dtype=np.int32)   # a cell < grid * grid
    first = 0
    for chunk, (t_hit, hit, _, _) in zip(chunks, hits):
        rows = slice(first, first + len(hit))
        _ray_ends(eyes[chunk], grid, tuple(item[chunk] for item in windows), t_hit, hit, ends[rows],
                  cells[rows])
        first += len(hit)
    return ends, np.concatenate([part for _, _, part, _ in hits]), cells, np.concatenate([c for *_, c in hits])


def _grid_slopes(grid: int, depth: np.ndarray, low: np.ndarray, high: np.ndarray):
    """(P, G) slopes right and up of the grid's cells, and (P,) how far the rays reach (past the
    target's far side)."""
    cells = (np.arange(grid) + 0.5) / grid
    a = low[:, 0:1] + cells * (high - low)[:, 0:1]    # (P, G) slopes right
    b = low[:, 1:2] + cells * (high - low)[:, 1:2]    # (P, G) slopes up
    return a, b, 1.01 * depth.max(axis=1)


def slab_terms(eyes, normals, near, far, grid: int, windows: tuple):
    """What clipping a grid's rays against the targets' slabs reads, per pair: (P,) whether the
    eye is clear of the target (not inside or beside it), the (P, G) slopes right and up of the
    grid's cells, (3, P, K, S) the dot products of a ray's forward, right and up terms with each
    slab normal (scaled by the rays' reach), and (P, K, S) the slabs' near and far offsets from
    the eye."""
    frames, depth, low, high = windows
    seen = np.all(depth > 1e-6, axis=1)
    a, b, scale = _grid_slopes(grid, depth, low, high)
    # a ray's direction is forward + a right + b up, so its dot product with a slab normal n is
    # n.forward + a n.right + b n.up: three terms per slab
    along = np.einsum("pksj,pij->ipks", normals, frames) * scale[:, None, None]   # (3, P, K, S)
    inward = np.einsum("pksj,pj->pks", normals, eyes)
    to_near, to_far = near - inward, -far - inward   # the eye is inside a slab: to_near >= 0 >= to_far
    return seen, a, b, along, to_near, to_far


def _silhouette_hits(eyes, normals, near, far, grid: int, windows: tuple):
    """Of each pair's grid, the rays that hit the target: (R,) t along the ray of the hit, flat
    index into the (P, G, G) grids, part hit, and (P,) how many each pair has (clipped in C)."""
    seen, a, b, along, to_near, to_far = slab_terms(eyes, normals, near, far, grid, windows)
    cells = len(eyes) * grid * grid
    t_hit, hit, part = np.empty(cells), np.empty(cells, np.int64), np.empty(cells, np.int8)
    counts = np.empty(len(eyes), np.int64)
    found = clip_grid(*(np.ascontiguousarray(item, dtype=float) for item in (along, to_near, to_far, a, b)),
                      normals.shape[1], normals.shape[2], seen.view(np.uint8), t_hit, hit, part, counts)
    return t_hit[:found], hit[:found], part[:found], counts


def _ray_ends(eyes, grid: int, windows: tuple, t_hit, hit, ends, cells) -> None:
    """Where :func:`_silhouette_hits`' rays meet the target, into ``ends`` (R, 3), and their
    cells (numbered row by row) into ``cells`` (R,)."""
    frames, depth, low, high = windows
    a, b, scale = _grid_slopes(grid, depth, low, high)
    ray_ends(hit, np.ascontiguousarray(t_hit, dtype=float), np.ascontiguousarray(frames, dtype=float), a, b, scale,
             np.ascontiguousarray(eyes, dtype=float), ends[:, 0], ends[:, 1], ends[:, 2], cells)


def rays_ahead(ends: np.ndarray, counts: np.ndarray, centres: np.ndarray, forwards: np.ndarray) -> np.ndarray:
    """(R,) whether each ray's end (R, 3, column-major) lies strictly in front of its viewer's base
    centre line (EC-LOS-2: a rider sees nothing out of the back half of its base), the rays pair
    after pair, ``counts`` (P,) of them per pair, whose viewers stand at ``centres`` facing
    ``forwards`` ((P, 2) each, inches and unit vectors)."""
    ahead = np.empty(len(ends), dtype=bool)
    rays_in_front(ends[:, 0], ends[:, 1], np.ascontiguousarray(counts, dtype=np.int64),
                  *(np.ascontiguousarray(column, dtype=float) for column in (*centres.T, *forwards.T)), ahead)
    return ahead


def stops_short(ends: np.ndarray, rows: np.ndarray, eyes: np.ndarray, start_of: np.ndarray, gap: float) -> np.ndarray:
    """(M, 3, column-major) where the rays ``rows`` of ``ends`` (R, 3, column-major), cast from
    ``eyes`` (Q, 3) at ``start_of`` (M,), stop: ``gap`` inches short of their ends, so that a ray
    is not stopped by the surface it was aimed at."""
    stops = np.empty((len(rows), 3), order="F")
    ray_stops(ends[:, 0], ends[:, 1], ends[:, 2], np.ascontiguousarray(rows, dtype=np.int64),
              np.ascontiguousarray(eyes, dtype=float), np.ascontiguousarray(start_of, dtype=np.int64), float(gap),
              stops[:, 0], stops[:, 1], stops[:, 2])
    return stops


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
                   box_high: np.ndarray, windows: tuple | None = None,
                   which: tuple[np.ndarray, np.ndarray] | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Which cells of each pair's ray grid may pass through each of M boxes, as index ranges.

    ``eyes`` and ``vertices`` are what :func:`silhouette_rays` was given (per pair), ``box_low``
    and ``box_high`` (M, 3). Returns (P, M) first and last row and first and last column of the
    cells whose rays may meet box m (first > last: none): a box wholly in front of the eye is
    seen inside the window of its corners' slopes, widened by ``CELL_MARGIN`` for rounding; a box
    reaching behind the eye inside the slopes its sideways extent allows; a box wholly behind the
    eye or beyond the target none. ``windows``: :func:`view_windows` of the eyes and vertices
    when the caller has them already. ``which``: only these (K,) pairs and (K,) boxes, side by
    side: (K,) answers, each the same as its (pair, box) of the (P, M) ones.
    """
    frames, target_depth, low, high = windows or view_windows(eyes, vertices)
    if which is None:
        pair, box = (index.ravel() for index in np.meshgrid(np.arange(len(eyes)), np.arange(len(box_low)),
                                                            indexing="ij"))
        answers = grid_rows_near(eyes, vertices, grid, box_low, box_high, windows, (pair, box))
        return tuple(answer.reshape(len(eyes), len(box_low)) for answer in answers)
    pair, box = which
    eyes, frames, low, high = (item.take(pair, axis=0) for item in (eyes, frames, low, high))
    target_far = target_depth.max(axis=1).take(pair)
    points = np.where(BOX_CORNERS[:, None], box_high.take(box, axis=0)[None], box_low.take(box, axis=0)[None])
    # (8, K) coordinates in each pair's frame, corners first: reductions over the corners run
    # row against row, not along a short last axis
    offsets = [points[:, :, j] - eyes[None, :, j] for j in range(3)]
    depth, right, up = (sum(offsets[j] * frames[None, :, axis, j] for j in range(3)) for axis in range(3))
    ahead = depth > 1e-6
    in_front = np.all(ahead, axis=0)                                              # (K,)
    safe_depth = np.where(ahead, depth, 1.0)
    # a box reaching behind the eye: a ray meets it at a depth d in (0, farthest], where a point
    # whose sideways offset is at least lateral_low > 0 has a slope of at least lateral_low /
    # farthest (and likewise below a negative lateral_high); any other side is unbounded
    farthest = depth.max(axis=0)                                                  # (K,)
    reaching = farthest > 1e-6
    divisor = np.where(reaching, farthest, 1.0)
    slope_low, slope_high = [], []
    for lateral in (right, up):
        slope = lateral / safe_depth
        lateral_low, lateral_high = lateral.min(axis=0), lateral.max(axis=0)
        slope_low.append(np.where(in_front, slope.min(axis=0),
                                  np.where(lateral_low > 0, lateral_low / divisor, -np.inf)))
        slope_high.append(np.where(in_front, slope.max(axis=0),
                                   np.where(lateral_high < 0, lateral_high / divisor, np.inf)))
    slope_low, slope_high = np.stack(slope_low, axis=-1), np.stack(slope_high, axis=-1)   # (K, 2)
    reaching = reaching[..., None]
    span = np.where(high - low > 0, high - low, 1.0)                             # (K, 2)
    first = np.floor((slope_low - low) / span * grid - 0.5 - CELL_MARGIN)
    last = np.ceil((slope_high - low) / span * grid - 0.5 + CELL_MARGIN)
    windowed = (reaching & np.all(high - low > 0, axis=1)[:, None])                # else: the whole grid
    first = np.where(windowed, np.clip(first, 0, grid), 0).astype(np.int64)
    last = np.where(windowed, np.clip(last, -1, grid - 1), grid - 1).astype(np.int64)
    # the rays end on the target: a box wholly behind the eye or beyond the target meets none
    beyond = depth.min(axis=0) > 1.001 * target_far + 1e-6
    last[np.all(depth < -1e-6, axis=0) | beyond] = -1
    return first[..., 0], last[..., 0], first[..., 1], last[..., 1]


def true_verdict_numbers(part: np.ndarray, visible: np.ndarray, rules: LosRules,
                         behind: np.ndarray | None = None) -> dict:
    """The numbers of a :class:`~entropy3d.los.results.TrueVerdict` from per-ray outcomes."""
    return true_verdicts_numbers(np.zeros(len(part), dtype=np.int64), part, visible, 1, rules, behind)[0]


def true_verdicts_numbers(pair_of_ray: np.ndarray, part: np.ndarray, visible: np.ndarray, pairs: int,
                          rules: LosRules, behind: np.ndarray | None = None) -> list[dict]:
    """:func:`true_verdict_numbers` of many pairs at once; ``pair_of_ray`` says whose each ray is,
    ``behind`` which rays end behind the viewer's front half (EC-LOS-2), counted for the verdict."""
    rays = np.bincount(pair_of_ray, minlength=pairs)
    behind_rays = (np.bincount(pair_of_ray[behind], minlength=pairs) if behind is not None
                   else np.zeros(pairs, dtype=np.int64))
    on_bike = part == BIKE
    bike_rays = np.bincount(pair_of_ray[on_bike], minlength=pairs)
    seen = np.bincount(pair_of_ray[visible], minlength=pairs)
    bike_seen_rays = np.bincount(pair_of_ray[visible & on_bike], minlength=pairs)
    with np.errstate(divide="ignore", invalid="ignore"):
        fractions = np.where(rays > 0, seen / rays, 0.0)
        bike_fractions = np.where(bike_rays > 0, bike_seen_rays / bike_rays, 0.0)
    numbers = []
    for fraction, bike_fraction, count, back in zip(fractions.tolist(), bike_fractions.tolist(), rays.tolist(),
                                                    behind_rays.tolist()):
        bike_seen = bike_fraction >= rules.bike_seen_min and bike_fraction > 0.0
        numbers.append({
            "visible_fraction": fraction,
            "bike_fraction": bike_fraction,
            "bike_seen": bike_seen,
            "cover": fraction > 0.0 and (1.0 - fraction) >= rules.cover_min_hidden,
            "rays": count,
            "rays_behind": back,
        })
    return numbers


def box_windows(pair_eyes: np.ndarray, target_vertices: np.ndarray, grid: int, low: np.ndarray,
                high: np.ndarray, skipped: np.ndarray, windows: tuple | None = None) -> tuple[np.ndarray, ...]:
    """The windows of M boxes (``low``, ``high`` (M, 3)) on the pairs' ray grids
    (:func:`grid_rows_near`) that hold a cell, except where ``skipped`` (P, M) is True: (K,) box,
    pair, first and last row, first and last column, ordered by box, then pair."""
    box, pair = np.nonzero(~skipped.T)                                           # by box, then pair
    row_first, row_last, column_first, column_last = grid_rows_near(
        pair_eyes, target_vertices, grid, low, high, windows, (pair, box))
    wanted = np.flatnonzero((row_last >= row_first) & (column_last >= column_first))
    return tuple(item.take(wanted) for item in (box, pair, row_first, row_last, column_first, column_last))


def rows_in_windows(windows: tuple[np.ndarray, ...], boxes: int, grid: int,
                    row_of_cell: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cast rays inside each box's :func:`box_windows` (of ``boxes`` boxes), cell by cell:
    the rows ordered by box, then pair, then grid cell, and (``boxes``,) how many each box has.
    ``row_of_cell`` (P * grid * grid,) is the row of the ray cast through each pair's cell, -1
    where none is."""
    box, pair, row_first, row_last, column_first, column_last = windows
    rows_n, columns_n = row_last - row_first + 1, column_last - column_first + 1
    # a window is rows_n runs of columns_n cells side by side in row_of_cell: expand runs, not
    # cells (no division per cell)
    window = np.repeat(np.arange(len(box)), rows_n)
    grid_row = np.arange(len(window)) - np.repeat(np.cumsum(rows_n) - rows_n, rows_n) + row_first[window]
    flat = group_rows(pair[window] * (grid * grid) + grid_row * grid + column_first[window], columns_n[window])
    rows = row_of_cell.take(flat)
    kept = rows >= 0
    # the windows come box by box, so each box's cells are one span of ``flat``: it ends where
    # the windows of the boxes up to it end
    cells_before = np.concatenate([[0], np.cumsum(rows_n * columns_n)])
    box_ends = cells_before.take(np.searchsorted(box, np.arange(boxes), side="right"))
    kept_before = np.concatenate([[0], np.cumsum(kept)])
    return rows.compress(kept), np.diff(kept_before.take(box_ends), prepend=0)


def rows_in_any_window(windows: tuple[np.ndarray, ...], pairs: int, grid: int, cell_of_row: np.ndarray) -> np.ndarray:
    """The cast rays inside any of :func:`box_windows` (sorted, unique), never expanded cell by
    cell: each row of a window adds one at its first column and takes it away past its last, so
    a running sum along each pair's grid, row after row, counts the windows holding each cell
    (a grid row has one spare column, where the runs ending at its last column take theirs away).
    ``cell_of_row``: each ray's pair * grid * grid + cell."""
    _, pair, row_first, row_last, column_first, column_last = windows
    if not len(pair):
        return np.zeros(0, dtype=np.int64)
    rows_n = row_last - row_first + 1
    window = np.repeat(np.arange(len(pair)), rows_n)
    grid_row = np.arange(len(window)) - np.repeat(np.cumsum(rows_n) - rows_n, rows_n) + row_first[window]
    run_first = (pair[window] * grid + grid_row) * (grid + 1) + column_first[window]
    # counted by bincount, several times faster than np.add.at on a grid of ~60,000 slots
    slots = pairs * grid * (grid + 1)
    holding = np.bincount(run_first, minlength=slots)
    holding -= np.bincount(run_first + (column_last - column_first + 1)[window], minlength=slots)
    np.cumsum(holding, out=holding)
    return np.flatnonzero(holding.reshape(pairs * grid, grid + 1)[:, :grid].reshape(-1).take(cell_of_row) > 0)


def rays_near_miniatures(pair_eyes: np.ndarray, target_vertices: np.ndarray, grid: int,
                         pairs: Sequence[tuple[int, int]], minis: Sequence, pair_of_row: np.ndarray,
                         cell_of_row: np.ndarray, boxes: tuple[np.ndarray, np.ndarray] | None = None,
                         windows: tuple | None = None, more_boxes: tuple[np.ndarray, np.ndarray] | None = None):
    """Per miniature (:class:`~entropy3d.los.world.Miniature`), per part of it (bike, rider,
    base), the rows of the cast silhouette rays that may meet that part (pair by pair): the rays
    of each pair's grid inside the window the part's box covers seen from the pair's eye
    (:func:`grid_rows_near`); never the pair's own viewer or target.

    ``pair_of_row`` and ``cell_of_row`` say which pair and grid cell each cast ray is. With
    ``boxes`` (low, high (B, 3)), also the rows that may meet any of them (sorted, unique), as
    a second answer, and with ``more_boxes`` too, the rows that may meet any of those as a
    third: one pass over the grids for all.
    """
    groups = [group for group in (boxes, more_boxes) if group is not None]
    extra = (np.concatenate([np.zeros((0, 3))] + [low for low, _ in groups]),
             np.concatenate([np.zeros((0, 3))] + [high for _, high in groups]))
    if not len(pairs):
        answer = [np.zeros(0, dtype=np.int64) for _ in minis]
        return answer if boxes is None else (answer, *(np.zeros(0, dtype=np.int64) for _ in groups))
    # one box per miniature's part (bike, rider, base): the rays near a part need no box test
    parts = len(minis[0].part_boxes) if len(minis) else 0
    skipped = np.zeros((len(pairs), len(minis) * parts + len(extra[0])), bool)
    each_pair, (viewers, targets) = np.arange(len(pairs)), np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    for part in range(parts):
        skipped[each_pair, viewers * parts + part] = True
        skipped[each_pair, targets * parts + part] = True
    low = np.concatenate([np.array([box[0] for m in minis for box in m.part_boxes]).reshape(-1, 3), extra[0]])
    high = np.concatenate([np.array([box[1] for m in minis for box in m.part_boxes]).reshape(-1, 3), extra[1]])
    # a pair's rays run from its eye to its target's solids, inside the box of both: the boxes it
    # does not touch are near none of them (the ground under the bases, most buildings)
    skipped |= ~boxes_touching(np.minimum(pair_eyes, target_vertices.min(axis=1)),
                               np.maximum(pair_eyes, target_vertices.max(axis=1)), low, high)
    found = box_windows(pair_eyes, target_vertices, grid, low, high, skipped, windows)
    flat_cell = pair_of_row * (grid * grid)
    flat_cell += cell_of_row
    row_of_cell = np.full(len(pairs) * grid * grid, -1, dtype=np.int32)     # fewer rows than 2**31
    row_of_cell[flat_cell] = np.arange(len(pair_of_row), dtype=np.int32)
    first = len(minis) * parts
    ends = np.searchsorted(found[0], np.cumsum([first] + [len(low) for low, _ in groups])).tolist()
    rows, per_box = rows_in_windows(tuple(item[:ends[0]] for item in found), first, grid, row_of_cell)
    del row_of_cell
    bounds = np.concatenate([[0], np.cumsum(per_box)]).tolist()   # box b's rows: bounds[b] to bounds[b + 1]
    near = [tuple(rows[bounds[box]:bounds[box + 1]] for box in range(index * parts, (index + 1) * parts))
            for index in range(len(minis))]
    if boxes is None:
        return near
    # a group's rays are a union: painted on the grids, not listed box by box
    return (near, *(rows_in_any_window(tuple(item[begin:end] for item in found), len(pairs), grid, flat_cell)
                    for begin, end in zip(ends, ends[1:])))
