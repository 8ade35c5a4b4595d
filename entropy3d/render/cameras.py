"""Camera views of a table: the built-in ``overview``, ``iso`` and ``low``, and a scene's own.

A :class:`CameraView` is a plain value (where the eye is, what it looks at, how wide it sees), so
the demo-video work can interpolate between views. Built-in views are fitted to the table and the
frame's aspect ratio so the whole table fills the frame whatever the table size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import trimesh

from entropy3d.geometry import camera_axes, project_points

#: the built-in views, in the order ``--camera`` lists them
PRESETS = ("iso", "overview", "low")
DEFAULT_CAMERA = "iso"


@dataclass(frozen=True)
class CameraView:
    """A perspective camera in table inches."""

    position: tuple[float, float, float]
    """Where the eye is, inches (x, y, z)."""
    look_at: tuple[float, float, float]
    """The point at the centre of the frame, inches."""
    fov_deg: float = 50.0
    """Vertical field of view, degrees; the horizontal one follows from the frame's aspect ratio."""

    def __repr__(self) -> str:
        p, t = self.position, self.look_at
        return (f"CameraView(position=({p[0]:.1f}, {p[1]:.1f}, {p[2]:.1f}), "
                f"look_at=({t[0]:.1f}, {t[1]:.1f}, {t[2]:.1f}), fov={self.fov_deg:.0f}°)")

    def blend(self, other: "CameraView", t: float) -> "CameraView":
        """The view a fraction ``t`` (0..1) of the way to ``other``, for camera moves in videos."""
        mix = lambda a, b: tuple(float(x + (y - x) * t) for x, y in zip(a, b))  # noqa: E731
        return CameraView(mix(self.position, other.position), mix(self.look_at, other.look_at),
                          float(self.fov_deg + (other.fov_deg - self.fov_deg) * t))


def project(view: CameraView, points: np.ndarray, aspect: float) -> np.ndarray:
    """Table points (N, 3) to normalised frame coordinates (N, 2): x right, y up, both in [-1, 1]
    inside the frame. Points behind the eye get NaN."""
    return project_points(view.position, view.look_at, view.fov_deg, points, aspect)


def to_pixels(ndc: np.ndarray, width: int, height: int) -> np.ndarray:
    """Normalised frame coordinates (N, 2) to pixel (column, row), row 0 at the top."""
    ndc = np.atleast_2d(ndc)
    return np.column_stack([(ndc[:, 0] + 1) / 2 * width, (1 - ndc[:, 1]) / 2 * height])


def box_corners(lo, hi) -> np.ndarray:
    """The 8 corners (8, 3) of the axis-aligned box from ``lo`` to ``hi``."""
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], float)


def fit_view(points: np.ndarray, azimuth_deg: float, elevation_deg: float, fov_deg: float,
             aspect: float, margin: float = 0.92) -> CameraView:
    """The closest view from a direction (``azimuth`` CCW from +x, ``elevation`` above the table)
    that keeps all ``points`` (N, 3), inches, inside ``margin`` of the frame, centred."""
    corners = np.atleast_2d(np.asarray(points, float))
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    target = (lo + hi) / 2
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    direction = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])

    def fits(distance: float) -> bool:
        view = CameraView(tuple(target + distance * direction), tuple(target), fov_deg)
        ndc = project(view, corners, aspect)
        return bool(np.all(np.isfinite(ndc)) and np.all(np.abs(ndc) <= margin))

    def closest() -> float:
        near, far = 1e-3, 1.0
        while not fits(far):
            far *= 2.0
            if far > 1e6:
                raise ValueError(f"cannot fit {len(corners)} points in a {fov_deg} degree view")
        for _ in range(40):
            middle = (near + far) / 2
            near, far = (near, middle) if fits(middle) else (middle, far)
        return far

    # centre the bounds in the frame: shift the target by the projected bounds' off-centre,
    # then move in again; two rounds settle it
    tan_v = math.tan(math.radians(fov_deg) / 2)
    for _ in range(3):
        distance = closest()
        view = CameraView(tuple(target + distance * direction), tuple(target), fov_deg)
        ndc = project(view, corners, aspect)
        centre = (ndc.min(axis=0) + ndc.max(axis=0)) / 2
        _, right, up = camera_axes(np.asarray(view.position), target)
        target = target + distance * tan_v * (centre[0] * aspect * right + centre[1] * up)
    distance = closest()
    position = target + distance * direction
    return CameraView(tuple(float(v) for v in position), tuple(float(v) for v in target), fov_deg)


#: eye height of the ``low`` camera, inches: about a rider's head (~3 m depicted), whatever the table
LOW_EYE_HEIGHT = 2.2
LOW_FOV_DEG = 50.0
#: inches: the ``low`` camera stands this far outside the play area, over the table's wooden frame
#: (0.9 in wide): from further out the table's own sides filled a third of the frame
LOW_EYE_OUTSET = 0.45
#: inches between the places round the table the ``low`` camera chooses from
LOW_PLACE_SPACING = 6.0
#: inches: a miniature nearer the eye than this (across the table) is cut by the frame whatever the aim
LOW_TOO_NEAR = 3.5
#: inches: the corners of the box a miniature stands in, about its focus point (0.8 in over its
#: base): a bike's length each way, from its base to over its rider's head
LOW_MINIATURE_BOX = np.array([(x, y, z) for x in (-1.3, 1.3) for y in (-1.3, 1.3) for z in (-0.8, 1.2)])


def _unblocked(eye: np.ndarray, points: np.ndarray, occluders: trimesh.Trimesh | None) -> np.ndarray:
    """Mask of ``points`` (N, 3) that a straight line from ``eye`` reaches without hitting ``occluders``."""
    seen = np.ones(len(points), bool)
    if occluders is None or not len(occluders.faces):
        return seen
    rays = points - eye
    distances = np.linalg.norm(rays, axis=1)
    hits, ray_index, _ = occluders.ray.intersects_location(
        np.repeat(eye[None], len(points), axis=0), rays / distances[:, None], multiple_hits=False)
    for hit, index in zip(hits, ray_index):
        if np.linalg.norm(hit - eye) < distances[index] - 0.3:
            seen[index] = False
    return seen


def low_view(width: float, depth: float, focus: np.ndarray, occluders: trimesh.Trimesh | None,
             aspect: float = 16 / 9, groups: list[np.ndarray] | None = None) -> CameraView:
    """A street-level view from the table's edge: of the places round the table
    (:func:`low_places`), aimed at the centre of all ``focus`` points (the miniatures) or of one
    of ``groups`` (index arrays into ``focus``, e.g. each gang), the one that shows the most
    miniatures whole and unblocked, then the closest to what it aims at (more dramatic).

    A miniature is whole in frame when the box it stands in (``LOW_MINIATURE_BOX`` about its
    ``focus`` point) is; one cut by the frame's edge counts half when its centre is in frame (a
    close-up), against the place when only a sliver of it shows or it stands nearer the eye than
    ``LOW_TOO_NEAR``. Ties go to the earliest place, from the south-west corner anticlockwise,
    so the choice is deterministic.
    """
    focus = np.atleast_2d(np.asarray(focus, float))
    targets = [focus.mean(axis=0)] + [focus[g].mean(axis=0) for g in (groups or []) if len(g)]
    boxes = (focus[:, None] + LOW_MINIATURE_BOX).reshape(-1, 3)  # each miniature's box, 8 corners
    best, best_score = None, -np.inf
    for x, y in low_places(width, depth):
        eye = np.array([x, y, LOW_EYE_HEIGHT])
        seen = _unblocked(eye, focus, occluders)
        too_near = np.hypot(focus[:, 0] - x, focus[:, 1] - y) < LOW_TOO_NEAR
        for centre in targets:
            view = CameraView(tuple(eye), (float(centre[0]), float(centre[1]), 0.6), LOW_FOV_DEG)
            corners_in = _in_frame(view, boxes, aspect).reshape(len(focus), -1)
            whole, shown = corners_in.all(axis=1), corners_in.any(axis=1)
            close_up = shown & ~whole & _in_frame(view, focus, aspect) & ~too_near
            spoilt = (shown & ~whole & ~close_up) | too_near
            score = float(np.sum(seen & whole & ~too_near) + 0.5 * np.sum(seen & close_up) - np.sum(spoilt)) \
                - 0.001 * float(np.linalg.norm(centre[:2] - eye[:2]))
            if score > best_score:
                best, best_score = view, score
    return best


def low_places(width: float, depth: float) -> list[tuple[float, float]]:
    """Where the ``low`` camera may stand (x, y inches): round the table ``LOW_EYE_OUTSET``
    outside its edge, about ``LOW_PLACE_SPACING`` apart, from the south-west corner anticlockwise."""
    off = LOW_EYE_OUTSET
    x0, y0, x1, y1 = -off, -off, width + off, depth + off
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    places = []
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1]):
        count = max(1, round(math.hypot(bx - ax, by - ay) / LOW_PLACE_SPACING))
        places += [(ax + (bx - ax) * k / count, ay + (by - ay) * k / count) for k in range(count)]
    return places


def _in_frame(view: CameraView, points: np.ndarray, aspect: float) -> np.ndarray:
    """Mask of ``points`` (N, 3) inside the frame, a 5% margin in (behind the eye: outside)."""
    return np.all(np.abs(np.nan_to_num(project(view, points, aspect), nan=9.0)) <= 0.95, axis=1)


def preset_view(name: str, width: float, depth: float, extent: np.ndarray, aspect: float,
                focus: np.ndarray | None = None, occluders: trimesh.Trimesh | None = None,
                groups: list[np.ndarray] | None = None) -> CameraView:
    """A built-in view of a ``width`` x ``depth`` table; ``extent`` (N, 3) are the points that must
    be in the frame (the table's and its pieces' corners), inches.

    iso: a 3/4 view from the south-west corner, 45 degrees round and 42 degrees up.
    overview: from the south, 75 degrees up: nearly top-down, but walls still show.
    low: street level (see :func:`low_view`), aimed at ``focus`` (default the table centre) or
    one of its ``groups``.
    """
    extent = np.atleast_2d(np.asarray(extent, float))
    if name == "iso":
        return fit_view(extent, 225.0, 42.0, 35.0, aspect)
    if name == "overview":
        # tall towers may leave the top edge; the table itself must not
        flat = np.column_stack([extent[:, :2], np.minimum(extent[:, 2], 2.0)])
        return fit_view(flat, 270.0, 75.0, 35.0, aspect, margin=0.9)
    if name == "low":
        if focus is None or len(focus) == 0:
            focus = np.array([[width / 2, depth / 2, 0.8]])
        return low_view(width, depth, focus, occluders, aspect, groups)
    raise ValueError(f"unknown built-in camera {name!r}; use one of {', '.join(PRESETS)}")


def camera_names(scene_cameras: dict) -> list[str]:
    """Every camera name a scene offers: the built-ins, then its own (which override built-ins)."""
    return list(PRESETS) + [name for name in scene_cameras if name not in PRESETS]


def resolve_camera(name: str, scene_cameras: dict, width: float, depth: float, extent: np.ndarray,
                   aspect: float, focus: np.ndarray | None = None,
                   occluders: trimesh.Trimesh | None = None, groups: list[np.ndarray] | None = None) -> CameraView:
    """The view called ``name``: a camera of the scene's ``cameras:`` section, else a built-in.

    Raises ValueError listing every name there is when ``name`` is neither.
    """
    if name in scene_cameras:
        camera = scene_cameras[name]
        return CameraView(tuple(camera.position), tuple(camera.look_at), float(camera.fov))
    if name in PRESETS:
        return preset_view(name, width, depth, extent, aspect, focus, occluders, groups)
    raise ValueError(f"unknown camera {name!r}; this scene has: {', '.join(camera_names(scene_cameras))}")
