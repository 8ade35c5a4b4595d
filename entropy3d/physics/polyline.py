"""Arc-length arithmetic on a 2D polyline (the intended path of a move), pure numpy.

Units are whatever the points are in (table inches throughout entropy3d).
"""

from __future__ import annotations

import bisect
import math

import numpy as np


def cumulative_lengths(points: np.ndarray) -> np.ndarray:
    """Distance along the polyline to each vertex; starts at 0."""
    steps = np.hypot(*np.diff(points, axis=0).T)
    return np.concatenate([[0.0], np.cumsum(steps)])


def point_at(points: np.ndarray, lengths: np.ndarray, s: float) -> np.ndarray:
    """The point at distance ``s`` along the polyline (clamped to its ends)."""
    s = min(max(float(s), 0.0), float(lengths[-1]))
    k = min(max(int(np.searchsorted(lengths, s, side="right")) - 1, 0), len(points) - 2)
    span = lengths[k + 1] - lengths[k]
    f = 0.0 if span <= 0 else (s - lengths[k]) / span
    return points[k] + f * (points[k + 1] - points[k])


def heading_at(points: np.ndarray, lengths: np.ndarray, s: float) -> float:
    """Heading (degrees CCW from +x) of the polyline's segment at distance ``s``."""
    s = min(max(float(s), 0.0), float(lengths[-1]))
    k = min(max(int(np.searchsorted(lengths, s, side="right")) - 1, 0), len(points) - 2)
    while k < len(points) - 2 and lengths[k + 1] - lengths[k] <= 0:
        k += 1
    d = points[k + 1] - points[k]
    return float(np.degrees(np.arctan2(d[1], d[0])))


def project(points: np.ndarray, lengths: np.ndarray, xy: np.ndarray, s_from: float = 0.0,
            window: float = np.inf) -> float:
    """Distance along the polyline of the point nearest ``xy``, searched among the segments that
    overlap [s_from - 1, s_from + window] so that a path crossing itself is followed in order."""
    first = max(0, int(np.searchsorted(lengths, s_from - 1.0, side="left")) - 1)
    last = len(points) - 1 if np.isinf(window) else min(len(points) - 1,
                                                         int(np.searchsorted(lengths, s_from + window)) + 1)
    a, b = points[first:last], points[first + 1:last + 1]
    d = b - a
    span = np.einsum("ij,ij->i", d, d)
    safe = np.where(span > 0, span, 1.0)
    t = np.minimum(np.maximum(np.einsum("ij,ij->i", xy - a, d) / safe, 0.0), 1.0) * (span > 0)
    nearest = a + t[:, None] * d
    k = int(np.argmin(np.einsum("ij,ij->i", nearest - xy, nearest - xy)))
    return float(lengths[first + k] + t[k] * np.sqrt(span[k]))


def resample(points: np.ndarray, spacing: float) -> np.ndarray:
    """The polyline with vertices no further apart than ``spacing`` (its corners kept)."""
    out = [points[:1]]
    for p, q in zip(points[:-1], points[1:]):
        n = max(1, int(np.ceil(np.hypot(*(q - p)) / spacing)))
        out.append(p + (q - p) * (np.arange(1, n + 1) / n)[:, None])  # p + (q - p) * (i / n), i = 1..n
    return np.concatenate(out)


class Cursor:
    """Fast arc-length queries near a moving point, for a controller that asks every physics step.

    Plain Python floats over a short window of segments: numpy's per-call overhead is larger than
    the work on the handful of segments a bike can reach in one step. Each segment's start,
    direction, squared length and length are computed once, by the same float operations a
    query would do, so a query gives the same bits as computing them on the spot.
    """

    def __init__(self, points: np.ndarray):
        self.points = [(float(x), float(y)) for x, y in points]
        self.lengths = [float(v) for v in cumulative_lengths(np.asarray(points, float))]
        self.total = self.lengths[-1]
        self.last_segment = len(self.points) - 2
        #: per segment: (start x, start y, dx, dy, squared length, distance along at its start, length)
        self.segments = []
        for k in range(len(self.points) - 1):
            (ax, ay), (bx, by) = self.points[k], self.points[k + 1]
            dx, dy = bx - ax, by - ay
            span = dx * dx + dy * dy
            self.segments.append((ax, ay, dx, dy, span, self.lengths[k], span ** 0.5))

    def _segment(self, s: float) -> int:
        k = bisect.bisect_right(self.lengths, s) - 1
        if k < 0:
            k = 0
        return k if k < self.last_segment else self.last_segment

    def project(self, x: float, y: float, s_from: float, window: float = 2.0) -> float:
        """Like :func:`project`, over the segments overlapping [s_from - 1, s_from + window]."""
        lengths, last = self.lengths, self.last_segment
        first = bisect.bisect_right(lengths, s_from - 1.0) - 1
        end = bisect.bisect_right(lengths, s_from + window) - 1
        first = 0 if first < 0 else first if first < last else last
        end = 0 if end < 0 else end if end < last else last
        best, best_s = float("inf"), s_from
        for ax, ay, dx, dy, span, along, length in self.segments[first:end + 1]:
            if span <= 0:
                t = 0.0
            else:  # clamped to the segment (no min/max calls: this runs every physics step)
                t = ((x - ax) * dx + (y - ay) * dy) / span
                if t < 0.0:
                    t = 0.0
                elif t > 1.0:
                    t = 1.0
            ex, ey = ax + t * dx - x, ay + t * dy - y
            distance = ex * ex + ey * ey
            if distance < best:
                best, best_s = distance, along + t * length
        return best_s

    def point_at(self, s: float) -> tuple[float, float]:
        s = min(max(s, 0.0), self.total)
        k = self._segment(s)
        span = self.lengths[k + 1] - self.lengths[k]
        f = 0.0 if span <= 0 else (s - self.lengths[k]) / span
        (ax, ay), (bx, by) = self.points[k], self.points[k + 1]
        return ax + f * (bx - ax), ay + f * (by - ay)

    def heading_at(self, s: float) -> float:
        """Heading in radians of the segment at ``s`` (skipping zero-length ones)."""
        k = self._segment(min(max(s, 0.0), self.total))
        while k < len(self.points) - 2 and self.lengths[k + 1] - self.lengths[k] <= 0:
            k += 1
        (ax, ay), (bx, by) = self.points[k], self.points[k + 1]
        return math.atan2(by - ay, bx - ax)
