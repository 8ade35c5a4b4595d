"""Camera views of a table: the built-in ``overview``, ``iso`` and ``low``, and a scene's own.

A :class:`CameraView` is a plain value (where the eye is, what it looks at, how wide it sees), so
the demo-video work can interpolate between views. Built-in views are fitted to the frame's
aspect ratio: ``overview`` to the whole table, ``iso`` and ``low`` to the miniatures.

What a camera sees is judged here for the film's director and the stills alike: the raised
pieces that can hide a miniature (:func:`occluder_mesh`), which sight lines they cut
(:func:`blocked`), when a rider counts as hidden (:func:`rider_hidden`) and the box round a bike
that must stay in frame (:func:`bike_boxes`).
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
#: inches over a miniature's base of its focus point (what the built-in views are given of each)
FOCUS_LIFT_IN = 0.8


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
             aspect: float, margin: float = 0.92, top: float | None = None) -> CameraView:
    """The closest view from a direction (``azimuth`` CCW from +x, ``elevation`` above the table)
    that keeps all ``points`` (N, 3), inches, inside ``margin`` of the frame, centred; given
    ``top`` (frame height above the middle, 0 to 1, 1 the top edge), under it instead: the band
    above left for a caption."""
    top = margin if top is None else top
    if not 0.0 < top <= 1.0:
        raise ValueError(f"top {top} must lie above the frame's middle: 0 < top <= 1")
    middle = np.array([0.0, (top - margin) / 2])
    corners = np.atleast_2d(np.asarray(points, float))
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    target = (lo + hi) / 2
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    direction = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])
    # the camera's axes depend on its direction alone, not on how far back it stands
    _, right, up = camera_axes(direction, np.zeros(3))
    tan_v = math.tan(math.radians(fov_deg) / 2)

    def closest() -> float:
        """The least distance from ``target`` that frames every point: a point ``behind`` inches
        nearer the eye than the target, ``across`` right of it and ``upward`` above it stands at
        depth ``distance - behind`` and at ``across / (depth tan_h)`` across the frame, so each
        bound of the frame asks for a distance of its own, and the farthest of those frames all."""
        offsets = corners - target
        behind, across, upward = offsets @ direction, offsets @ right, offsets @ up
        needed = np.concatenate([behind + np.abs(across) / (margin * tan_v * aspect), behind + upward / (top * tan_v),
                                 behind - upward / (margin * tan_v), behind + 1e-3])
        distance = float(needed.max())
        if not math.isfinite(distance):
            raise ValueError(f"cannot fit {len(corners)} points in a {fov_deg} degree view")
        return distance * (1.0 + 1e-9) + 1e-9  # on the frame's side of the bound, rounding and all

    # centre the bounds in the frame: shift the target by the projected bounds' off-centre,
    # then move in again; two rounds settle it
    for _ in range(3):
        distance = closest()
        view = CameraView(tuple(target + distance * direction), tuple(target), fov_deg)
        ndc = project(view, corners, aspect)
        centre = (ndc.min(axis=0) + ndc.max(axis=0)) / 2 - middle
        target = target + distance * tan_v * (centre[0] * aspect * right + centre[1] * up)
    distance = closest()
    position = target + distance * direction
    return CameraView(tuple(float(v) for v in position), tuple(float(v) for v in target), fov_deg)


#: half-size of the box around a bike that must stay in frame (x, y, and its height), inches
BIKE_BOX = (1.2, 1.2, 1.4)
#: inches to either side of a rider that a wall must also hide for it to count as hidden
HIDDEN_SPREAD_IN = 1.0
#: inches over a miniature's base of the point a camera aims at (its rider's middle, as the film aims)
RIDER_MIDDLE_IN = 0.6


def occluder_mesh(geometry) -> trimesh.Trimesh | None:
    """Every raised static piece in one mesh (what can hide a bike from the camera)."""
    solids = [p.mesh for p in geometry.static_pieces if p.kind not in ("ground", "zone", "road")]
    return trimesh.util.concatenate(solids) if solids else None


def blocked(mesh: trimesh.Trimesh | None, eyes: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Per segment, True when an occluder lies between the eye and its target (inches)."""
    eyes, targets = np.atleast_2d(eyes), np.atleast_2d(targets)
    hidden = np.zeros(len(eyes), bool)
    if mesh is None or len(eyes) == 0:
        return hidden
    directions = eyes - targets
    lengths = np.linalg.norm(directions, axis=1)
    directions = directions / lengths[:, None]
    origins = targets + directions * 0.3
    locations, index, _ = mesh.ray.intersects_location(origins, directions, multiple_hits=False)
    if len(index):
        distances = np.linalg.norm(locations - origins[index], axis=1)
        hidden[index[distances < lengths[index] - 0.3]] = True
    return hidden


def rider_sight_points(eye: np.ndarray, bike: np.ndarray) -> np.ndarray:
    """The 3 points (3, 3) of a bike standing at ``bike`` (x, y, z inches) that an ``eye`` must
    see: its rider's middle (:data:`RIDER_MIDDLE_IN` up), then both its ends across the line of
    sight (:data:`HIDDEN_SPREAD_IN` to either side)."""
    eye, middle = np.asarray(eye, float), np.asarray(bike, float)[:3] + [0.0, 0.0, RIDER_MIDDLE_IN]
    toward = eye[:2] - middle[:2]
    side = np.array([-toward[1], toward[0], 0.0]) / max(float(np.linalg.norm(toward)), 1e-9)
    return np.array([middle, middle + HIDDEN_SPREAD_IN * side, middle - HIDDEN_SPREAD_IN * side])


def rider_hidden(mesh: trimesh.Trimesh | None, eye: np.ndarray, bike: np.ndarray) -> bool:
    """True when occluders stand between ``eye`` and a bike at ``bike`` (x, y, z inches): all 3
    of its :func:`rider_sight_points` are cut off. A lamp post or a sign in front of the rider
    hides one of them, a wall all three."""
    eye = np.asarray(eye, float)
    return bool(blocked(mesh, np.repeat(eye[None], 3, axis=0), rider_sight_points(eye, bike)).all())


def bike_boxes(points: np.ndarray) -> np.ndarray:
    """The 8 corners of the box each of K bikes standing at ``points`` (K, 3; x, y, z inches)
    fills: (K, 8, 3)."""
    return points[:, None, :3] + _BIKE_BOX_CORNERS


_BIKE_BOX_CORNERS = np.array([[a, b, c] for a in (-BIKE_BOX[0], BIKE_BOX[0]) for b in (-BIKE_BOX[1], BIKE_BOX[1])
                              for c in (0.0, BIKE_BOX[2])])


#: the ``iso`` camera's directions, tried in this order: azimuths (degrees CCW from +x) from the
#: south-west corner (the one view before issue 48), then the other corners; elevations above
#: the table from the most three-dimensional (42) up to where the streets between 4-storey
#: buildings show (66: a 4-storey wall, 6.4", hides 2.8" of street behind it, under a street's width)
ISO_AZIMUTHS_DEG = (225.0, 315.0, 135.0, 45.0)
ISO_ELEVATIONS_DEG = (42.0, 50.0, 58.0, 66.0)
ISO_FOV_DEG = 35.0
#: the share of the frame's height over the miniatures the ``iso`` camera leaves to the caption
#: and the gang legend along the top edge (the caption's panel reaches 7.6% down a 1280x720 frame)
ISO_CAPTION_BAND = 0.10
#: inches of table kept in frame round the miniatures (the street a bike stands in, the next curb)
ISO_CONTEXT_IN = 3.0
#: the least share of the table's width and depth the ``iso`` camera frames, so that miniatures
#: standing close together are seen on their table, not in a close-up
ISO_LEAST_SHARE = 0.5
#: a sight line to a rider's middle counts this many times one to either of its ends (the film's
#: director weighs its sight lines to the bike as heavily against those to the ground beside it)
MIDDLE_WEIGHT = 10.0


def iso_framing(bases: np.ndarray, width: float, depth: float) -> np.ndarray:
    """The points (N, 3) inches the ``iso`` camera keeps in frame: each miniature's box
    (:func:`bike_boxes` about its base at ``bases`` (K, 3)) and the table round it
    (:data:`ISO_CONTEXT_IN` each way, at its base's height, within the table); where those span
    less than :data:`ISO_LEAST_SHARE` of the table's width or depth, the table round them is
    stretched about their middle to that share."""
    bases = np.atleast_2d(np.asarray(bases, float))
    size = np.array([width, depth], float)
    reach = np.array([(x, y, 0.0) for x in (-1, 1) for y in (-1, 1)]) * ISO_CONTEXT_IN
    around = (bases[:, None, :] + reach).reshape(-1, 3)
    around[:, :2] = np.clip(around[:, :2], 0.0, size)
    low, high = around[:, :2].min(axis=0), around[:, :2].max(axis=0)
    stretch = ISO_LEAST_SHARE * size / np.maximum(high - low, 1e-9)
    middle = (low + high) / 2
    around[:, :2] = np.clip(middle + (around[:, :2] - middle) * np.maximum(stretch, 1.0), 0.0, size)
    return np.concatenate([bike_boxes(bases).reshape(-1, 3), around])


def iso_view(bases: np.ndarray, width: float, depth: float, occluders: trimesh.Trimesh | None,
             aspect: float) -> CameraView:
    """The ``iso`` view of miniatures standing at ``bases`` (K, 3 inches) on a ``width`` x
    ``depth`` table: a 3/4 view fitted to :func:`iso_framing` (every miniature in frame, as large
    as that allows, under the caption's band :data:`ISO_CAPTION_BAND`). Its direction is the
    film's director's rule: the first elevation of :data:`ISO_ELEVATIONS_DEG` (the lowest, the
    most depth) from which some azimuth of :data:`ISO_AZIMUTHS_DEG` sees every rider unblocked
    by ``occluders``, and of those azimuths the one that shows the smallest miniature largest (the first
    of equals); when none does, the one that hides the least, a rider's middle counting
    :data:`MIDDLE_WEIGHT` times either of its ends (:func:`rider_sight_points`), the first of
    equals. Deterministic: the same table gives the same view."""
    bases = np.atleast_2d(np.asarray(bases, float))
    framing = iso_framing(bases, width, depth)
    boxes = bike_boxes(bases)
    best, best_score = None, math.inf
    for elevation in ISO_ELEVATIONS_DEG:
        clear, clear_size = None, -math.inf
        for azimuth in ISO_AZIMUTHS_DEG:
            view = fit_view(framing, azimuth, elevation, ISO_FOV_DEG, aspect, top=1.0 - 2.0 * ISO_CAPTION_BAND)
            eye = np.asarray(view.position)
            points = np.concatenate([rider_sight_points(eye, base) for base in bases])
            hidden = blocked(occluders, np.repeat(eye[None], len(points), axis=0), points).reshape(-1, 3)
            score = MIDDLE_WEIGHT * float(hidden[:, 0].sum()) + float(hidden[:, 1:].sum())
            if score == 0.0:
                corners = project(view, boxes.reshape(-1, 3), aspect).reshape(boxes.shape[0], -1, 2)
                size = float(np.min(np.ptp(corners[..., 1], axis=1)))  # the smallest box's height in the frame
                if size > clear_size:
                    clear, clear_size = view, size
            elif score < best_score:
                best, best_score = view, score
        if clear is not None:
            return clear
    return best


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
        seen = ~blocked(occluders, np.repeat(eye[None], len(focus), axis=0), focus)
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
    be in the frame (the table's and its pieces' corners), inches; ``focus`` (K, 3) the
    miniatures' focus points (:data:`FOCUS_LIFT_IN` over their bases).

    iso: a 3/4 view of the miniatures that hides none of them behind ``occluders`` where it can
    (see :func:`iso_view`); of a table without miniatures, the whole table from the south-west
    corner, 45 degrees round and 42 degrees up.
    overview: from the south, 75 degrees up: nearly top-down, but walls still show.
    low: street level (see :func:`low_view`), aimed at ``focus`` (default the table centre) or
    one of its ``groups``.
    """
    extent = np.atleast_2d(np.asarray(extent, float))
    if name == "iso":
        if focus is None or len(focus) == 0:
            return fit_view(extent, ISO_AZIMUTHS_DEG[0], ISO_ELEVATIONS_DEG[0], ISO_FOV_DEG, aspect)
        bases = np.atleast_2d(np.asarray(focus, float)) - [0.0, 0.0, FOCUS_LIFT_IN]
        return iso_view(bases, width, depth, occluders, aspect)
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
