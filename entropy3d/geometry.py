"""Pure-numpy table geometry in table inches: poses, headings and base footprints.

Conventions (used everywhere in entropy3d):
- origin at a table corner, x to the right, y away from the player, z up; all in inches;
- a heading (``facing_deg``) is measured counter-clockwise from +x: 0 faces +x, 90 faces +y.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np


def unit_vector(heading_deg: float) -> np.ndarray:
    """The 2D unit vector of a heading in degrees (counter-clockwise from +x)."""
    a = math.radians(heading_deg)
    return np.array([math.cos(a), math.sin(a)])


def normalize_deg(angle_deg: float) -> float:
    """An angle folded into [0, 360)."""
    folded = angle_deg % 360.0
    return 0.0 if math.isclose(folded, 360.0) else folded


def angle_between_deg(a_deg: float, b_deg: float) -> float:
    """The unsigned smallest angle between two headings, in [0, 180]."""
    d = abs(normalize_deg(a_deg) - normalize_deg(b_deg))
    return min(d, 360.0 - d)


@dataclass(frozen=True)
class Pose:
    """Where a model stands on the table.

    x, y: the centre of its base, inches. z: the height of the surface it stands on, inches.
    facing_deg: its heading, degrees counter-clockwise from +x.
    """

    x: float
    y: float
    facing_deg: float = 0.0
    z: float = 0.0

    def __repr__(self) -> str:
        return f"Pose(x={self.x:.2f}, y={self.y:.2f}, z={self.z:.2f}, facing={self.facing_deg:.1f}°)"

    @property
    def xy(self) -> np.ndarray:
        return np.array([self.x, self.y])

    @property
    def forward(self) -> np.ndarray:
        """Unit vector the model faces."""
        return unit_vector(self.facing_deg)

    @property
    def left(self) -> np.ndarray:
        """Unit vector to the model's left."""
        return unit_vector(self.facing_deg + 90.0)

    def moved(self, forward_in: float = 0.0, left_in: float = 0.0, turn_deg: float = 0.0) -> "Pose":
        """A new pose moved in the model's own frame, then turned."""
        xy = self.xy + forward_in * self.forward + left_in * self.left
        return Pose(float(xy[0]), float(xy[1]), normalize_deg(self.facing_deg + turn_deg), self.z)

    def to_local(self, points: np.ndarray) -> np.ndarray:
        """Table points (N, 2) into this pose's frame: column 0 forward, column 1 left."""
        rel = np.atleast_2d(points) - self.xy
        return np.stack([rel @ self.forward, rel @ self.left], axis=1)

    def to_table(self, local: np.ndarray) -> np.ndarray:
        """Points (N, 2) in this pose's frame (forward, left) to table coordinates."""
        local = np.atleast_2d(local)
        return self.xy + local[:, :1] * self.forward + local[:, 1:2] * self.left


#: inches added to a superellipse's sampled farthest reach: more than the 4,096-point sampling's
#: shortfall (under 1e-6" for a car's plan), so :attr:`BaseShape.radius` holds the whole base
RADIUS_PAD_IN = 1e-5


@dataclass(frozen=True)
class BaseShape:
    """A miniature's footprint, in inches: a base ``length`` long (along the facing) and ``width``
    wide. Its edge is the superellipse ``|x / (length/2)|^power + |y / (width/2)|^power = 1``:
    ``power`` 2 (every base, EC-BASE) an ellipse, a round base when length == width; a larger
    power a rectangle with rounded corners, the plan of a car or van, which stands on no base
    (the chase's vehicles: its footprint is what collides, touches and is drawn, bumper to bumper)."""

    length: float
    width: float
    power: float = 2.0

    @property
    def is_round(self) -> bool:
        return self.power == 2.0 and math.isclose(self.length, self.width)

    @property
    def radius(self) -> float:
        """Inches: how far the edge reaches from the centre at most (the circle that holds it):
        half the longer axis of an ellipse; for a superellipse the farthest of 4,096 points round its
        edge, padded by :data:`RADIUS_PAD_IN` (96 points fell 0.0006" short of a car's corner, and the
        producers and sight lines use this as the distance beyond which two bases cannot touch)."""
        if self.power == 2.0:
            return max(self.length, self.width) / 2
        return float(np.hypot(*self.local_outline(4096).T).max()) + RADIUS_PAD_IN

    @property
    def enclosing_axes(self) -> tuple[float, float]:
        """(length, width) inches of the smallest ellipse of the base's proportions that holds it:
        the base itself for an ellipse; a superellipse of power p reaches 2^(1/2 - 1/p) times its
        axes out along its diagonal (sight lines test a miniature's base against an ellipse first)."""
        if self.power == 2.0:
            return self.length, self.width
        grow = 2.0 ** (0.5 - 1.0 / self.power)
        return self.length * grow, self.width * grow

    def reach(self, pose: Pose, direction: np.ndarray) -> float:
        """Inches: how far the base edge reaches from its centre towards the unit table vector
        ``direction`` (the edge's support: a line square to ``direction`` that far out touches
        it; for a superellipse of power p the dual norm, of power p / (p - 1))."""
        along, across = float(np.dot(direction, pose.forward)), float(np.dot(direction, pose.left))
        if self.power == 2.0:
            return math.hypot(0.5 * self.length * along, 0.5 * self.width * across)
        dual = self.power / (self.power - 1.0)
        return (abs(0.5 * self.length * along) ** dual + abs(0.5 * self.width * across) ** dual) ** (1.0 / dual)

    def moved_to_touch(self, pose: Pose, point) -> Pose:
        """``pose`` moved straight towards the table point ``point`` (heading kept) until the base
        edge reaches the line through ``point`` square to the move: the base touches what
        ``point`` is the nearest point of, from ``pose``'s centre, without crossing into it (a
        convex piece lies beyond that line). Already there or past it: ``pose`` unchanged."""
        offset = np.asarray(point, float) - pose.xy
        distance = float(np.hypot(*offset))
        if distance <= 0.0:
            return pose
        direction = offset / distance
        travel = distance - self.reach(pose, direction)
        if travel <= 0.0:
            return pose
        xy = pose.xy + travel * direction
        return Pose(float(xy[0]), float(xy[1]), pose.facing_deg, pose.z)

    def outline(self, pose: Pose, samples: int = 48) -> np.ndarray:
        """The base edge as (samples, 2) table points, counter-clockwise from the front."""
        return pose.to_table(self.local_outline(samples))

    def front_half_outline(self, pose: Pose, samples: int = 25) -> np.ndarray:
        """The front half of the base edge (from the left side through the nose to the right side)."""
        return pose.to_table(self.local_front_half(samples))

    def local_outline(self, samples: int = 48) -> np.ndarray:
        """:meth:`outline` in the base's own frame (forward, left), read-only; computed once."""
        return _edge_points(self.length, self.width, self.power, 0.0, 2.0 * math.pi, samples, False)

    def local_front_half(self, samples: int = 25) -> np.ndarray:
        """:meth:`front_half_outline` in the base's own frame (forward, left), read-only; computed once."""
        return _edge_points(self.length, self.width, self.power, -0.5 * math.pi, 0.5 * math.pi, samples, True)

    def contains(self, pose: Pose, points: np.ndarray) -> np.ndarray:
        """Boolean mask of table points (N, 2) inside the base."""
        local = pose.to_local(points)
        if self.power == 2.0:
            return (local[:, 0] / (0.5 * self.length)) ** 2 + (local[:, 1] / (0.5 * self.width)) ** 2 <= 1.0
        return (np.abs(local[:, 0] / (0.5 * self.length)) ** self.power
                + np.abs(local[:, 1] / (0.5 * self.width)) ** self.power) <= 1.0

    def edge_normal(self, pose: Pose, point) -> np.ndarray:
        """The outward normal (a table vector, not of unit length) of the base edge where the ray
        from its centre through the table point ``point`` crosses it, scaled to the unit disc:
        the way out of the base there (reversed, the way into it of something hitting it)."""
        local = pose.to_local(np.asarray(point, float)[None, :])[0]
        a, b = 0.5 * self.length, 0.5 * self.width
        if self.power == 2.0:
            angle = math.atan2(local[1] / b, local[0] / a)
            normal_local = np.array([math.cos(angle) / a, math.sin(angle) / b])
        else:
            # the edge point (a sgn c |c|^(2/p), b sgn s |s|^(2/p)) on the ray has |tan t| =
            # |y/b / (x/a)|^(p/2); the gradient of |x/a|^p + |y/b|^p there is (sgn c |c|^(2-2/p) / a,
            # sgn s |s|^(2-2/p) / b), up to a factor
            half = 0.5 * self.power
            angle = math.atan2(math.copysign(abs(local[1] / b) ** half, local[1]),
                               math.copysign(abs(local[0] / a) ** half, local[0]))
            bend = 2.0 - 2.0 / self.power
            c, s = math.cos(angle), math.sin(angle)
            normal_local = np.array([math.copysign(abs(c) ** bend, c) / a, math.copysign(abs(s) ** bend, s) / b])
        return pose.to_table(normal_local[None, :])[0] - pose.xy


@functools.lru_cache(maxsize=256)
def _edge_points(length: float, width: float, power: float, start: float, stop: float, samples: int,
                 endpoint: bool) -> np.ndarray:
    """Points of the superellipse of ``power`` ``length`` by ``width`` (inches; power 2 an ellipse)
    at evenly spaced parameter angles from ``start`` to ``stop`` radians, (samples, 2), read-only
    (shared by every caller)."""
    t = np.linspace(start, stop, samples, endpoint=endpoint)
    c, s = np.cos(t), np.sin(t)
    if power != 2.0:  # x = a sgn(cos t) |cos t|^(2/p): the ellipse's points pushed out to the corners
        c, s = np.sign(c) * np.abs(c) ** (2.0 / power), np.sign(s) * np.abs(s) ** (2.0 / power)
    points = np.stack([0.5 * length * c, 0.5 * width * s], axis=1)
    points.flags.writeable = False
    return points


def poses_to_table(poses: Sequence[Pose], local: np.ndarray) -> np.ndarray:
    """:meth:`Pose.to_table` of many poses at once, the same arithmetic: ``local`` (M, N, 2),
    pose m's points in its own frame (forward, left); returns (M, N, 2) table points."""
    xy = np.array([(pose.x, pose.y) for pose in poses], float).reshape(-1, 1, 2)
    forward = np.array([pose.forward for pose in poses]).reshape(-1, 1, 2)
    left = np.array([pose.left for pose in poses]).reshape(-1, 1, 2)
    return xy + local[:, :, :1] * forward + local[:, :, 1:2] * left


def arc_points(start: Pose, radius: float, length: float, left: bool,
               spacing: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
    """Points along a circular arc that starts at ``start`` tangent to its facing.

    radius and length (along the arc) in inches; turns counter-clockwise when ``left``.
    Returns (points (N, 2) including the start, headings_deg (N,)), spaced at most ``spacing``.
    """
    n = max(1, int(math.ceil(length / spacing)))
    s = np.linspace(0.0, length, n + 1)
    sign = 1.0 if left else -1.0
    theta = s / radius
    local = np.stack([radius * np.sin(theta), sign * radius * (1.0 - np.cos(theta))], axis=1)
    headings = start.facing_deg + sign * np.degrees(theta)
    return start.to_table(local), headings


def polyline_length(points: np.ndarray) -> float:
    """Total length of a polyline (N, 2), inches."""
    points = np.asarray(points, dtype=float)
    if len(points) < 2:
        return 0.0
    return float(np.linalg.norm(np.diff(points, axis=0), axis=1).sum())


def densify(a: np.ndarray, b: np.ndarray, spacing: float = 0.25) -> np.ndarray:
    """Points from ``a`` to ``b`` (both included) spaced at most ``spacing`` inches."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    n = max(1, int(math.ceil(float(np.linalg.norm(b - a)) / spacing)))
    t = np.linspace(0.0, 1.0, n + 1)[:, None]
    return a + t * (b - a)


class PathFeet:
    """Where points fall on a polyline ``path`` (N, 2), inches: for each point and each segment,
    the foot of the point's perpendicular on it (clamped to the segment), as its squared gap to
    the point and its distance along the path. The path's sums are made once; points are asked
    in batches, by x and y columns (no (M, N, 2) arrays)."""

    def __init__(self, path: np.ndarray):
        self.path = path = np.asarray(path, float).reshape(-1, 2)
        self.start_x, self.start_y = path[:-1, 0], path[:-1, 1]
        self.step_x, self.step_y = np.diff(path[:, 0]), np.diff(path[:, 1])
        spans = self.step_x * self.step_x + self.step_y * self.step_y
        self.inverse_spans = np.divide(1.0, spans, out=np.zeros_like(spans), where=spans > 0)
        self.lengths = np.concatenate([[0.0], np.cumsum(np.sqrt(spans))])

    def feet(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(M, N - 1) squared gaps, distances along the path and fractions along each segment."""
        points = np.atleast_2d(np.asarray(points, float))
        offset_x = points[:, 0:1] - self.start_x
        offset_y = points[:, 1:2] - self.start_y
        t = np.clip((offset_x * self.step_x + offset_y * self.step_y) * self.inverse_spans, 0.0, 1.0)
        gap_x, gap_y = offset_x - t * self.step_x, offset_y - t * self.step_y
        lengths = self.lengths
        return gap_x * gap_x + gap_y * gap_y, lengths[:-1] + t * (lengths[1:] - lengths[:-1]), t


def progress_lookup(path: np.ndarray):
    """A function mapping (N, 2) table points to their distance along ``path`` (inches): that of
    the path's nearest point (on a segment, not only at its ends), or past the end along the
    path's last direction (where a bike that rode or flew on beyond the path is). Both fact
    producers measure where a ride's points and a flight's landing are along the path with it."""
    along_path = PathFeet(path)
    path = along_path.path
    direction = path[-1] - path[-2] if len(path) > 1 else np.array([1.0, 0.0])
    direction = direction / max(float(np.linalg.norm(direction)), 1e-9)

    def lookup(points: np.ndarray) -> np.ndarray:
        points = np.atleast_2d(np.asarray(points, float))
        if len(path) < 2:
            return np.zeros(len(points))
        gaps, distances, fractions = along_path.feet(points)
        nearest = np.argmin(gaps, axis=1)
        rows = np.arange(len(points))
        along = distances[rows, nearest]
        beyond = points @ direction - path[-1] @ direction
        past = (nearest == len(path) - 2) & (fractions[rows, nearest] >= 1.0) & (beyond > 0)
        along[past] = along_path.lengths[-1] + beyond[past]
        return along

    return lookup


def matrix_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` (``a``: ... x K, ``b``: K x M) as a sum of elementwise products in a fixed order.

    A BLAS product rounds by the kernel OpenBLAS picks for the CPU (Haswell, AVX-512...), and
    ``numpy.linalg`` likewise, so a shape built with them has other last bits on another machine,
    and a ride that grazes it can end otherwise: the same seed must play the same game anywhere.
    Elementwise products and sums round the same on every CPU."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    out = a[..., 0:1] * b[0]
    for k in range(1, b.shape[0]):
        out = out + a[..., k:k + 1] * b[k]
    return out


def transform_points(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``points`` (N x 3) moved by the 4x4 homogeneous ``matrix``, rounding as :func:`matrix_product`."""
    matrix = np.asarray(matrix, float)
    return matrix_product(points, matrix[:3, :3].T) + matrix[:3, 3]


def _cross(a, b) -> np.ndarray:
    """``np.cross`` of two 3-vectors: the same products and differences in the same order, so the
    same bits, for a twentieth of its cost (a video's camera fitting asks for thousands)."""
    a0, a1, a2 = (float(v) for v in a)
    b0, b1, b2 = (float(v) for v in b)
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def camera_axes(eye: np.ndarray, look: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit forward, right and up vectors (table frame) of a camera at ``eye`` looking at
    ``look``, level (right has no z); looking straight down, +y is up in the frame."""
    forward = look - eye
    forward = forward / _norm(forward)
    right = _cross(forward, (0.0, 0.0, 1.0))
    if _norm(right) < 1e-6:
        right = np.array([1.0, 0.0, 0.0])
    right = right / _norm(right)
    return forward, right, _cross(right, forward)


def _norm(vector) -> float:
    """The length of a 3-vector: sqrt((x*x + y*y) + z*z), in that order, as :func:`_row_norms`
    takes it. ``np.linalg.norm`` is BLAS's dot product, whose rounding depends on the CPU kernel
    OpenBLAS picks (an FMA kernel gave 274 of 2,600 cameras other bits than the rows' sum)."""
    x, y, z = (float(v) for v in vector)
    return math.sqrt((x * x + y * y) + z * z)


def camera_axes_of(eyes: np.ndarray, looks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`camera_axes` of K cameras at ``eyes`` looking at ``looks`` (each (K, 3)): forward,
    right and up, each (K, 3). Row by row the same products, sums and quotients as one camera
    alone, so the same bits whatever K (``tests/render/test_render_geometry.py`` holds them to
    it): the video director judges thousands of frames at once, where one camera at a time in
    Python floats is the faster way for one."""
    forward = looks - eyes
    forward = forward / _row_norms(forward)[:, None]
    right = _cross_rows(forward, np.array([0.0, 0.0, 1.0]))
    level = _row_norms(right) < 1e-6  # looking straight down
    right[level] = [1.0, 0.0, 0.0]
    right = right / _row_norms(right)[:, None]
    return forward, right, _cross_rows(right, forward)


def _row_norms(rows: np.ndarray) -> np.ndarray:
    """The length of each 3-vector row: sqrt((x*x + y*y) + z*z), as ``np.linalg.norm`` of one."""
    return np.sqrt(rows[:, 0] * rows[:, 0] + rows[:, 1] * rows[:, 1] + rows[:, 2] * rows[:, 2])


def _cross_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.cross`` of 3-vector rows ``a`` (K, 3) and ``b`` (K, 3) or (3,): the same products and
    differences in the same order."""
    a0, a1, a2 = a[:, 0], a[:, 1], a[:, 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.column_stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def project_points(eye, look, fov_deg: float, points: np.ndarray, aspect: float) -> np.ndarray:
    """Table points (N, 3) seen by a camera at ``eye`` looking at ``look`` (inches; ``fov_deg``
    vertical, ``aspect`` width over height) to normalised frame coordinates (N, 2): x right and
    y up, -1..1 inside the frame; NaN behind the eye."""
    eye, look = np.asarray(eye, float), np.asarray(look, float)
    axes = [axis[None] for axis in camera_axes(eye, look)]
    return project_on_axes(eye[None], axes, fov_deg, np.atleast_2d(points)[None], aspect)[0]


def project_on_axes(eyes: np.ndarray, axes, fov_deg: float, points: np.ndarray, aspect: float) -> np.ndarray:
    """:func:`project_points` of K cameras at once, their axes given (forward, right and up, each
    (K, 3), from :func:`camera_axes`): each camera's points (K, N, 3) to frame coordinates
    (K, N, 2), the same bits as one camera at a time (one matrix-vector product a camera)."""
    forward, right, up = (np.asarray(axis, float)[:, :, None] for axis in axes)
    rel = points - np.asarray(eyes, float)[:, None, :]
    depth = (rel @ forward)[..., 0]
    tan_v = math.tan(math.radians(fov_deg) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.stack([(rel @ right)[..., 0] / depth / (tan_v * aspect), (rel @ up)[..., 0] / depth / tan_v],
                          axis=-1)
    result[depth <= 1e-6] = np.nan
    return result


def pose_at(trajectory: np.ndarray, t: float) -> np.ndarray:
    """(x, y, z, heading) on a trajectory of (K, 5) rows ``t, x, y, z, heading`` (seconds, inches,
    degrees) at time ``t`` (clamped to its ends), headings unwrapped so a turn through 0 degrees
    does not swing the long way round."""
    times = trajectory[:, 0]
    headings = np.degrees(np.unwrap(np.radians(trajectory[:, 4])))
    columns = [np.interp(t, times, trajectory[:, k]) for k in (1, 2, 3)]
    return np.array(columns + [float(np.interp(t, times, headings))])


def poses_along(trajectory: np.ndarray | None, every_in: float = 1.0) -> list[Pose]:
    """Poses on a ridden trajectory of (K, 5) rows ``t, x, y, z, heading`` (seconds, inches,
    degrees) about ``every_in`` inches apart along it, from its start (the rows nearest each mark;
    none for no trajectory). The points an attack along the move may be made from (EC-ACT-ATTACK)."""
    if trajectory is None or len(trajectory) < 2:
        return []
    steps = np.hypot(*np.diff(trajectory[:, 1:3], axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(steps)])
    picks = np.unique(np.searchsorted(along, np.arange(0.0, along[-1], every_in)).clip(0, len(trajectory) - 1))
    return [Pose(float(r[1]), float(r[2]), float(r[4]) % 360.0, float(r[3])) for r in trajectory[picks]]


def storey_of(z_in: float, storey_in: float) -> int:
    """A height (inches) in storeys of ``storey_in`` inches, rounded to the nearest: the level a
    model stands on, as the table's sightings and a rulebook's elevation rules count it."""
    return int(round(z_in / storey_in))
