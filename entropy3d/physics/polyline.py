"""Arc-length arithmetic on a 2D polyline (the intended path of a move): numpy, and the
:class:`Cursor` the ride's controller asks every physics step, whose queries run in C
(``_rideloop.Track``).

Units are whatever the points are in (table inches throughout entropy3d).
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.physics import _rideloop


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
    """The polyline with vertices no further apart than ``spacing`` (its corners kept): a segment
    p -> q of n pieces gets the points p + (q - p) * (i / n), i = 1..n, all segments at once."""
    points = np.asarray(points, float)
    start, step = points[:-1], points[1:] - points[:-1]
    pieces = np.maximum(1, np.ceil(np.hypot(step[:, 0], step[:, 1]) / spacing).astype(int))
    segment = np.repeat(np.arange(len(start)), pieces)
    i = np.arange(1, len(segment) + 1) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    fraction = i / pieces[segment]
    return np.concatenate([points[:1], start[segment] + step[segment] * fraction[:, None]])


#: a segment is skipped by :meth:`Cursor.project` only when it lies this much (relative and
#: absolute, inches) further than the nearest found so far: far above the rounding of the sums
PRUNE_MARGIN = 1e-9


class Cursor:
    """Fast arc-length queries near a moving point, for a controller that asks every physics step.

    Each segment's start, direction, squared length and length are computed once here, by the
    same float operations a query would do, so a query gives the same bits as computing them on
    the spot; the queries run in C over a short window of segments (numpy's per-call overhead is
    larger than the work on the handful of segments a bike can reach in one step).
    """

    def __init__(self, points: np.ndarray):
        points = np.asarray(points, float)
        self.points = [(x, y) for x, y in points.tolist()]  # Python floats, converted in one call
        self.lengths = cumulative_lengths(points).tolist()
        self.total = self.lengths[-1]
        self.last_segment = len(self.points) - 2
        #: per segment: (start x, start y, dx, dy, squared length, distance along at its start, length)
        self.segments = []
        #: per segment: (midpoint x, midpoint y, half its length widened by the margin), for pruning
        self.reach = []
        for k in range(len(self.points) - 1):
            (ax, ay), (bx, by) = self.points[k], self.points[k + 1]
            dx, dy = bx - ax, by - ay
            span = dx * dx + dy * dy
            self.segments.append((ax, ay, dx, dy, span, self.lengths[k], span ** 0.5))
            self.reach.append((ax + 0.5 * dx, ay + 0.5 * dy,
                               0.5 * span ** 0.5 * (1.0 + PRUNE_MARGIN) + PRUNE_MARGIN))
        #: per segment: the heading (radians) :meth:`heading_at` gives on it (zero-length ones skipped)
        self.headings = []
        for k in range(len(self.points) - 1):
            while k < self.last_segment and self.lengths[k + 1] - self.lengths[k] <= 0:
                k += 1
            (ax, ay), (bx, by) = self.points[k], self.points[k + 1]
            self.headings.append(math.atan2(by - ay, bx - ax))
        #: per segment: its heading as a unit 3-vector (cos, sin, 0), for :meth:`direction_at`
        self.directions = [(math.cos(heading), math.sin(heading), 0.0) for heading in self.headings]

        #: the queries below, in C (physics/_rideloop.c: the ride's loop asks them every step)
        self.track = _rideloop.Track(self.lengths, self.segments, self.reach, self.directions, PRUNE_MARGIN)

    def project(self, x: float, y: float, s_from: float, window: float = 2.0) -> float:
        """Like :func:`project`, over the segments overlapping [s_from - 1, s_from + window].

        The same bits as scanning them in order (the first of equally near segments wins), with
        less work: the segment at ``s_from``, where the point most likely is, is measured first,
        and then every segment whose midpoint is further from the point than its half length and
        the nearest distance found so far (and :data:`PRUNE_MARGIN`) is skipped unmeasured: it
        cannot be nearer."""
        return self.track.project(x, y, s_from, window)

    def point_at(self, s: float) -> tuple[float, float]:
        """The point at distance ``s`` along the path (clamped to its ends)."""
        return self.track.point_at(s)

    def heading_at(self, s: float) -> float:
        """Heading in radians of the segment at ``s`` (skipping zero-length ones)."""
        return self.headings[self.track.segment(s)]

    def direction_at(self, s: float) -> tuple[float, float, float]:
        """(cos, sin, 0) of :meth:`heading_at`: the path's direction at ``s`` in the table's plane."""
        return self.directions[self.track.segment(s)]
