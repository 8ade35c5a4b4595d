"""The top-down line tests in numpy, as los/topdown.py made them before its C module
(``entropy3d/los/_toplines.c``, issue 17): the reference the C answers are held to, test by test
and line by line, and the statement of what each cheap sure answer promises."""

from __future__ import annotations

import numpy as np

from entropy3d.los.rays import group_rows, segment_box_hits_inverse, take_rows
from entropy3d.los.topdown import Footprints, inner_radius

#: (piece, edge, segment) tests done at once by :func:`segments_touch_convex`: arrays of half a MB
EDGE_TESTS_PER_CHUNK = 65536


def segments_touch_convex(starts: np.ndarray, deltas: np.ndarray, normals: np.ndarray,
                          offsets: np.ndarray) -> np.ndarray:
    """(N,) True where segment n touches any of the Q convex pieces (Cyrus-Beck, every piece at
    once: (Q, E, N) arrays, segments in chunks; fewer numpy calls than piece by piece, which
    costs more than the arithmetic for the few pieces and lines of a row).

    The reductions over a piece's few edges run along the middle axis (row against row), not
    along a short last axis.
    """
    touched = np.zeros(len(starts), bool)
    normal_x, normal_y = normals[:, :, 0:1], normals[:, :, 1:2]                  # (Q, E, 1)
    step = max(1, EDGE_TESTS_PER_CHUNK // max(1, normals.shape[0] * normals.shape[1]))
    for k in range(0, len(starts), step):
        s, d = starts[k:k + step], deltas[k:k + step]
        numerators = offsets[:, :, None] - (s[:, 0] * normal_x + s[:, 1] * normal_y)
        denominators = d[:, 0] * normal_x + d[:, 1] * normal_y
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = numerators / denominators
        t_enter = np.where(denominators < 0, ratio, 0.0).max(axis=1)
        t_exit = np.where(denominators > 0, ratio, 1.0).min(axis=1)
        outside = ((denominators == 0) & (numerators < 0)).any(axis=1)
        touched[k:k + step] = ((t_enter <= t_exit) & ~outside).any(axis=0)
    return touched


#: a row's largest pieces, tested first against every line near it, before the rest at once
FIRST_PIECES = 3


def surely_touching(starts: np.ndarray, ends: np.ndarray, centre: np.ndarray, normals: np.ndarray,
                    offsets: np.ndarray, margin: float = 1e-9) -> np.ndarray:
    """(N,) True where a segment passes well inside a one-piece convex outline: within the
    largest circle about ``centre`` that the outline holds, less ``margin`` inches. A cheap
    first answer that :func:`segments_touch_convex` would give too; False says nothing."""
    return passes_within(starts, ends, centre, inner_radius(centre, normals, offsets), margin)


def passes_within(starts: np.ndarray, ends: np.ndarray, centre: np.ndarray, inner, margin: float = 1e-9) -> np.ndarray:
    """(N,) True where a segment passes within ``inner`` less ``margin`` inches of ``centre``
    (one centre and radius, or one per segment: (N, 2) and (N,); a nan radius: never)."""
    # squared distance of the centre to each segment, coordinate by coordinate ((N,) arrays)
    ax, ay = starts[:, 0] - centre[..., 0], starts[:, 1] - centre[..., 1]
    dx, dy = ends[:, 0] - starts[:, 0], ends[:, 1] - starts[:, 1]
    length2 = dx * dx + dy * dy
    along = np.clip(-(ax * dx + ay * dy) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    cx, cy = ax + along * dx, ay + along * dy
    reach = inner - margin
    return (cx * cx + cy * cy < reach * reach) & (reach > 0)


def ellipse_sides(starts: np.ndarray, ends: np.ndarray, ellipse: tuple,
                  margin: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """(N,) masks of the segments that surely touch a base outline (they pass inside its inner
    ellipse) and of those left undecided (they pass between the two ellipses); the rest surely
    miss it (they stay outside the edge ellipse, which holds the outline). ``margin`` in
    unit-disc lengths keeps both answers clear of rounding. ``ellipse`` is one
    :func:`base_ellipse`, or the same six items with one value (centre: one row) per segment."""
    centre, cos, sin, half_length, half_width, inner = ellipse
    ax, ay = starts[:, 0] - centre[..., 0], starts[:, 1] - centre[..., 1]
    bx, by = ends[:, 0] - centre[..., 0], ends[:, 1] - centre[..., 1]
    a_along, a_across = (ax * cos + ay * sin) / half_length, (-ax * sin + ay * cos) / half_width
    b_along, b_across = (bx * cos + by * sin) / half_length, (-bx * sin + by * cos) / half_width
    dx, dy = b_along - a_along, b_across - a_across
    length2 = dx * dx + dy * dy
    along = np.clip(-(a_along * dx + a_across * dy) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    cx, cy = a_along + along * dx, a_across + along * dy
    distance2 = cx * cx + cy * cy
    inside = inner - margin
    sure = (distance2 < inside * inside) & (inside > 0)
    return sure, ~sure & (distance2 <= (1.0 + margin) ** 2)


def lines_blocked_reference(blocks: np.ndarray, first: np.ndarray, counts: np.ndarray, lines: np.ndarray,
                            footprints: Footprints) -> tuple[np.ndarray, np.ndarray]:
    """(blocked (L,), blocker_of_pair (P, R)) for top-down ``lines`` (L, 2, 2), pair after pair
    (``first``, ``counts``), that the footprint rows ``blocks`` (P, R) allows may block: the
    row-by-row numpy loop of top_down_batch before the C module."""
    starts, ends = np.asfortranarray(lines[:, 0]), np.asfortranarray(lines[:, 1])
    inverse = ends - starts
    with np.errstate(divide="ignore"):
        np.divide(1.0, inverse, out=inverse)
    blocked = np.zeros(len(lines), bool)
    blocker_of_pair = np.zeros(blocks.shape, bool)
    sure_lines, sure_rows, rest_lines, rest_rows = [], [], [], []
    ellipses = footprints.ellipses or (None,) * len(footprints.convex)
    inner_boxes = footprints.inner_boxes or (None,) * len(footprints.convex)
    for row in np.flatnonzero(blocks.any(axis=0)).tolist():
        _, low, high, normals, offsets = footprints.convex[row]
        candidates = np.flatnonzero(blocks[:, row])
        near = group_rows(first[candidates], counts[candidates])
        near_starts, near_inverse = take_rows(starts, near), take_rows(inverse, near)
        crossing = segment_box_hits_inverse(near_starts, near_inverse, low, high)
        near = near[crossing]
        if not len(near):  # common: its box is near the pairs' bases but crossed by no line
            continue
        near_starts = take_rows(near_starts, crossing)
        if inner_boxes[row] is not None:
            sure = segment_box_hits_inverse(near_starts, take_rows(near_inverse, crossing), *inner_boxes[row])
            undecided = ~sure
        elif ellipses[row] is not None:
            sure, undecided = ellipse_sides(near_starts, take_rows(ends, near), ellipses[row])
        else:
            sure = surely_touching(near_starts, take_rows(ends, near), (low + high) / 2, normals, offsets)
            undecided = ~sure
        rest = near[undecided]
        # a row's largest pieces first (lines touching one are done), its others later
        if len(rest):
            rest_starts = take_rows(starts, rest)
            hit = segments_touch_convex(rest_starts, take_rows(ends, rest) - rest_starts, normals[:FIRST_PIECES],
                                        offsets[:FIRST_PIECES])
        else:  # every line near a box was surely in it
            hit = np.zeros(0, bool)
        sure_lines.append(np.concatenate([near[sure], rest[hit]]))
        sure_rows.append(np.full(len(sure_lines[-1]), row))
        if len(normals) > FIRST_PIECES:
            rest_lines.append(rest[~hit])
            rest_rows.append(row)
    for rest, row in zip(rest_lines, rest_rows):
        _, _, _, normals, offsets = footprints.convex[row]
        rest_starts = take_rows(starts, rest)
        hit = segments_touch_convex(rest_starts, take_rows(ends, rest) - rest_starts, normals[FIRST_PIECES:],
                                    offsets[FIRST_PIECES:])
        sure_lines.append(rest[hit])
        sure_rows.append(np.full(len(sure_lines[-1]), row))
    touched = np.concatenate([np.zeros(0, dtype=np.int64), *sure_lines])
    touched_row = np.concatenate([np.zeros(0, dtype=np.int64), *sure_rows])
    blocked[touched] = True
    pair_of_line = np.repeat(np.arange(len(counts)), counts)
    blocker_of_pair[pair_of_line[touched], touched_row] = True
    return blocked, blocker_of_pair
