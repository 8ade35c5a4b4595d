"""Triangle soups for the overlays a renderer adds to the table, as plain numpy functions.

Everything is in table inches, z up, and returns ``(N, 3, 3)`` float arrays of triangles
(counter-clockwise seen from outside) so that the Panda3D adapter has one input format. Lines are
drawn as thin solids rather than GL lines because the software rasteriser draws every line one
pixel wide, whatever its thickness, and a line's width should scale with the view like the table.
"""

from __future__ import annotations

import numpy as np


def colour_rgb(colour: str) -> np.ndarray:
    """``"#rrggbb"`` as three floats in [0, 1]."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"colour {colour!r} is not #rrggbb")
    return np.array([int(text[i:i + 2], 16) for i in (0, 2, 4)], float) / 255.0


def quad_triangles(corners: np.ndarray) -> np.ndarray:
    """Quads (N, 4, 3), corners in order, as triangles (2N, 3, 3)."""
    corners = np.asarray(corners, float)
    return np.concatenate([corners[:, [0, 1, 2]], corners[:, [0, 2, 3]]])


def flat_strips(starts: np.ndarray, ends: np.ndarray, width: float, z: float) -> np.ndarray:
    """Horizontal strips ``width`` wide from ``starts`` (N, 2) to ``ends`` (N, 2), facing up at ``z``."""
    starts, ends = np.atleast_2d(starts).astype(float), np.atleast_2d(ends).astype(float)
    along = ends - starts
    lengths = np.linalg.norm(along, axis=1, keepdims=True)
    along = along / np.where(lengths > 0, lengths, 1.0)
    side = np.stack([-along[:, 1], along[:, 0]], axis=1) * (width / 2)
    corners = np.stack([starts - side, ends - side, ends + side, starts + side], axis=1)
    corners = np.concatenate([corners, np.full(corners.shape[:2] + (1,), float(z))], axis=2)
    return quad_triangles(corners)


def grid_strips(width: float, depth: float, spacing: float, line_width: float, z: float,
                every: int = 1, skip_every: int = 0) -> np.ndarray:
    """Grid lines across a ``width`` x ``depth`` table as strips, one every ``spacing`` * ``every``.

    ``skip_every`` > 0 leaves out the lines that fall on multiples of it (drawn by a stronger grid).
    """
    def positions(extent: float) -> np.ndarray:
        count = int(np.floor(extent / spacing + 1e-9))
        index = np.arange(0, count + 1)
        keep = index % every == 0
        if skip_every:
            keep &= index % skip_every != 0
        return index[keep] * spacing

    xs, ys = positions(width), positions(depth)
    starts = np.concatenate([np.column_stack([xs, np.zeros_like(xs)]),
                             np.column_stack([np.zeros_like(ys), ys])])
    ends = np.concatenate([np.column_stack([xs, np.full_like(xs, depth)]),
                           np.column_stack([np.full_like(ys, width), ys])])
    if len(starts) == 0:
        return np.zeros((0, 3, 3))
    return flat_strips(starts, ends, line_width, z)


def tube_triangles(points: np.ndarray, width: float) -> np.ndarray:
    """A polyline (N, 3) as a chain of square-section boxes ``width`` across, visible from anywhere:
    per segment (none shorter than 1e-9 inches), its four sides then its two caps, each quad as
    two triangles (:func:`quad_triangles`)."""
    points = np.asarray(points, float)
    if points.ndim != 2 or points.shape[1] != 3 or len(points) < 2:
        raise ValueError("a polyline needs at least two (x, y, z) points")
    axis = points[1:] - points[:-1]
    length = np.linalg.norm(axis, axis=1)
    kept = length >= 1e-9
    if not kept.any():
        return np.zeros((0, 3, 3))
    starts, ends, axis = points[:-1][kept], points[1:][kept], axis[kept] / length[kept, None]
    helper = np.where((np.abs(axis[:, 2]) < 0.9)[:, None], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0])
    u = np.cross(axis, helper)
    u /= np.linalg.norm(u, axis=1)[:, None]
    v = np.cross(axis, u)
    ring = np.stack([u + v, -u + v, -u - v, u - v], axis=1) * (width / 2)  # (S, 4, 3)
    a, b = starts[:, None] + ring, ends[:, None] + ring
    after = [1, 2, 3, 0]
    sides = np.stack([a, a[:, after], b[:, after], b], axis=2)  # (S, 4 sides, 4 corners, 3)
    caps = np.stack([a[:, ::-1], b], axis=1)  # (S, 2, 4, 3)
    quads = np.concatenate([sides, caps], axis=1)  # (S, 6, 4, 3)
    return np.concatenate([quads[:, :, [0, 1, 2]], quads[:, :, [0, 2, 3]]], axis=1).reshape(-1, 3, 3)


def dashed_centre_line(points: np.ndarray, dash: float, gap: float, width: float, z: float) -> np.ndarray:
    """Road markings: dashes ``dash`` long every ``dash + gap`` along a 2D polyline (N, 2)."""
    points = np.asarray(points, float)
    starts, ends = [], []
    for p, q in zip(points[:-1], points[1:]):
        length = float(np.linalg.norm(q - p))
        if length < 1e-9:
            continue
        direction = (q - p) / length
        offsets = np.arange(gap / 2, length - dash / 2, dash + gap)
        for offset in offsets:
            starts.append(p + direction * offset)
            ends.append(p + direction * min(offset + dash, length))
    if not starts:
        return np.zeros((0, 3, 3))
    return flat_strips(np.array(starts), np.array(ends), width, z)


def hazard_stripes(start, end, band: float, stripe: float, z: float) -> tuple[np.ndarray, np.ndarray]:
    """A warning band ``band`` wide centred on the edge from ``start`` to ``end`` (2D), cut into
    stripes about ``stripe`` long; returns (even stripes, odd stripes) to draw in two colours."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    length = float(np.linalg.norm(end - start))
    count = max(2, int(round(length / stripe)))
    cuts = start + np.outer(np.linspace(0.0, 1.0, count + 1), end - start)
    triangles = flat_strips(cuts[:-1], cuts[1:], band, z)
    # flat_strips returns every stripe's first triangles, then every stripe's second triangles
    first, second = triangles[:count], triangles[count:]
    even = np.concatenate([first[0::2], second[0::2]])
    odd = np.concatenate([first[1::2], second[1::2]])
    return even, odd


def box_triangles(lo, hi) -> np.ndarray:
    """An axis-aligned box between corners ``lo`` and ``hi`` (inches) as outward-facing triangles."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    quads = np.array([
        [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)],  # top
        [(x0, y1, z0), (x1, y1, z0), (x1, y0, z0), (x0, y0, z0)],  # bottom
        [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)],  # south
        [(x1, y1, z0), (x0, y1, z0), (x0, y1, z1), (x1, y1, z1)],  # north
        [(x0, y1, z0), (x0, y0, z0), (x0, y0, z1), (x0, y1, z1)],  # west
        [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)],  # east
    ], float)
    return quad_triangles(quads)
