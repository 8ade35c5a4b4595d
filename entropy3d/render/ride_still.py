"""A 3D still of one ridden action: the table from a camera square onto the ride's side, nearly
level with it (the pieces between it and the ride cut away), that frames the whole ride, the path
as a ribbon at its true height (on the wheels and in the air in the key's colours), the bike as
fading ghosts at its moments (start, take-off, peak, touchdown, end), the rules' landing point
and the snap from the physical pose to it. Rendered offscreen (the software renderer by default).

The caller gives the moments and colours (``RideStill``): the renderer knows no rules and no key.
Lengths are table inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from panda3d.core import TransparencyAttrib

from entropy3d.geometry import camera_axes
from entropy3d.look.shapes import box_triangles
from entropy3d.render.cameras import CameraView, box_corners, fit_view
from entropy3d.render.miniatures import build_miniature_node
from entropy3d.render.nodes import unlit_node
from entropy3d.render.renderer import TableRenderer

#: how far above its surface (inches) the path ribbon is drawn, so it reads over the table
RIBBON_LIFT_IN = 0.06
#: ghost opacity at the first and the last moment
GHOST_ALPHA = (0.35, 1.0)
#: the film's side camera: its elevation above the table, degrees, and its angle off the ride's side
ELEVATION_DEG, SIDE_OFFSET_DEG = 22.0, 20.0
#: the still's camera looks square onto the ride's side from this little above it (degrees): a
#: true side view, in which a flight's height reads as it is, with the table's top just seen
TRUE_SIDE_ELEVATION_DEG = 3.0
#: pieces no higher than this above the ride's lowest point (inches) never hide it (ground,
#: roads, curbs); the ride's own path, this far (inches) around, is never cut away
LOW_PIECE_IN, PATH_CLEAR_IN = 0.3, 1.0


@dataclass(frozen=True)
class RideStill:
    """What to draw: ``model_id`` riding ``segments`` (list of ((K, 3) points, rgb) ribbons),
    ``ghosts`` (:class:`~entropy3d.geometry.Pose` with z the bike's height), ``marks`` (list of
    ((x, y, z), rgb) posts), ``snap`` ((from xyz, to xyz), rgb) or None, ``moved`` (piece id ->
    (dx, dy) or None for a piece smashed away), ``others`` (model id -> pose of the other bikes
    in play; any other miniature is hidden)."""

    model_id: str
    segments: list = field(default_factory=list)
    ghosts: list = field(default_factory=list)
    marks: list = field(default_factory=list)
    snap: tuple | None = None
    moved: dict = field(default_factory=dict)
    others: dict = field(default_factory=dict)


def side_view(points: np.ndarray, aspect: float, fov_deg: float = 40.0,
              band: tuple[float, float] = (-1.0, 1.0), elevation_deg: float = ELEVATION_DEG,
              right_side: bool = False, offset_deg: float = SIDE_OFFSET_DEG) -> CameraView:
    """A view from the side of a ride through ``points`` (N, 3) inches, a little behind it and
    above, keeping every point (with a bike's size around it) in frame: the view that shows a
    flight's arc. ``band`` (bottom, top, in -1..1 of the frame's height) keeps the ride inside a
    horizontal band, clear of what is drawn over the rest of the frame (a video's inset).
    ``elevation_deg``: the eye's height above the ride, degrees; ``right_side``: look from the
    ride's right (else its left); ``offset_deg``: how far round from square onto its side
    (towards behind the ride), degrees."""
    cloud = np.atleast_2d(np.asarray(points, float))
    sample = cloud[:: max(1, len(cloud) // 40)]
    corners = np.vstack([box_corners(p - [1.2, 1.2, 0.2], p + [1.2, 1.2, 1.6]) for p in sample])
    ends = cloud[[0, -1], :2]
    heading = math.degrees(math.atan2(*(ends[1] - ends[0])[::-1])) if np.ptp(ends, axis=0).any() else 0.0
    tan_frame = math.tan(math.radians(fov_deg) / 2)
    half, centre = (band[1] - band[0]) / 2, (band[1] + band[0]) / 2
    band_fov = math.degrees(2 * math.atan(half * tan_frame))
    azimuth = heading - 90.0 - offset_deg if not right_side else heading + 90.0 + offset_deg
    view = fit_view(corners, azimuth, elevation_deg, band_fov, aspect / half, margin=0.9)
    # tilt the eye so that the band's middle (not the frame's) looks at the ride
    eye, look = np.asarray(view.position), np.asarray(view.look_at)
    forward, _, up = camera_axes(eye, look)
    tilt = -math.atan(centre * tan_frame)
    turned = forward * math.cos(tilt) + up * math.sin(tilt)
    distance = float(np.linalg.norm(look - eye))
    return CameraView(view.position, tuple(float(v) for v in eye + turned * distance), fov_deg)


def ride_points(still: RideStill) -> np.ndarray:
    """(N, 3) inches: every ribbon point, ghost and mark of the still."""
    points = [np.asarray(p, float) for p, _ in still.segments]
    points += [np.array([[g.x, g.y, g.z]]) for g in still.ghosts]
    points += [np.array([m]) for m, _ in still.marks]
    return np.vstack(points)


def in_front(geometry, points: np.ndarray, eye) -> list[str]:
    """Ids of the static pieces standing between ``eye`` (x, y, z inches) and the ride through
    ``points`` (N, 3): higher than the ride's lowest point by :data:`LOW_PIECE_IN` and on the
    ground between the eye and the ride; none within :data:`PATH_CLEAR_IN` of the ride's path
    (what it rides on, over and past stays)."""
    import shapely

    from entropy3d.scene.footprints import footprints_of

    ride = shapely.LineString(points[:, :2]) if len(points) > 1 else shapely.Point(points[0, :2])
    between = shapely.MultiPoint([*map(tuple, points[:, :2]), tuple(eye[:2])]).convex_hull
    lowest = float(points[:, 2].min())
    footprints = footprints_of(geometry)
    ridden = {f.piece_id for f in footprints if f.outline.intersects(ride.buffer(PATH_CLEAR_IN))}
    return sorted({f.piece_id for f in footprints if f.top > lowest + LOW_PIECE_IN and f.piece_id not in ridden
                   and f.outline.intersection(between).area > 0.01})


def ride_camera(still: RideStill, aspect: float, geometry=None) -> tuple[CameraView, list[str]]:
    """A true side view of the still's ride (:func:`side_view` square onto its side from
    :data:`TRUE_SIDE_ELEVATION_DEG` above) and the pieces to cut away so that it is seen
    (:func:`in_front`): from the ride's left or right, whichever has less to cut away."""
    points = ride_points(still)
    views = []
    for right in (False, True):
        view = side_view(points, aspect, elevation_deg=TRUE_SIDE_ELEVATION_DEG, right_side=right, offset_deg=0.0)
        hidden = [] if geometry is None else in_front(geometry, points, np.asarray(view.position))
        views.append((len(hidden), right, view, hidden))
    _, _, view, hidden = min(views, key=lambda found: found[:2])
    return view, hidden


def _post(renderer: TableRenderer, name: str, xyz, rgb) -> None:
    """A thin upright post with a cap, so a point on the table reads in 3D."""
    x, y, z = xyz
    node = unlit_node(name, np.vstack([box_triangles((x - 0.06, y - 0.06, z), (x + 0.06, y + 0.06, z + 1.4)),
                                       box_triangles((x - 0.22, y - 0.22, z + 1.4), (x + 0.22, y + 0.22, z + 1.8))]),
                      (*np.asarray(rgb) / 255.0, 1.0))
    node.reparent_to(renderer.overlays)


def render_ride_still(table, geometry, still: RideStill, size: tuple[int, int], backend: str | None = None,
                      ) -> np.ndarray:
    """The still as an (height, width, 3) uint8 image."""
    with TableRenderer(table, size, geometry=geometry, title="", backend=backend) as renderer:
        for piece_id, offset in still.moved.items():
            if piece_id not in renderer.piece_nodes:
                continue
            if offset is None:
                renderer.piece_nodes[piece_id].hide()
            else:
                renderer.set_piece_transform(piece_id, np.array([[1, 0, 0, offset[0]], [0, 1, 0, offset[1]],
                                                                 [0, 0, 1, 0], [0, 0, 0, 1]], float))
        for model_id, pose in still.others.items():
            renderer.place_model(model_id, pose)
        for model_id in renderer.model_nodes:
            if model_id not in still.others:
                renderer.show_model(model_id, False)
        for k, (points, rgb) in enumerate(still.segments):
            lifted = np.asarray(points, float) + [0.0, 0.0, RIBBON_LIFT_IN]
            renderer.add_polyline(lifted, "#%02x%02x%02x" % tuple(rgb), width=0.14, name=f"ribbon{k}")
        for k, (xyz, rgb) in enumerate(still.marks):
            _post(renderer, f"mark{k}", xyz, rgb)
        if still.snap is not None:
            (a, b), rgb = still.snap
            renderer.add_polyline(np.array([a, b], float) + [0, 0, 0.3], "#%02x%02x%02x" % tuple(rgb), 0.08, "snap")
        model = table.model(still.model_id)
        for k, pose in enumerate(still.ghosts):
            ghost = build_miniature_node(table, model)
            ghost.reparent_to(renderer.scene)
            ghost.set_pos(pose.x, pose.y, pose.z)
            ghost.set_hpr(pose.facing_deg, 0, 0)
            f = k / max(1, len(still.ghosts) - 1)
            alpha = GHOST_ALPHA[0] + f * (GHOST_ALPHA[1] - GHOST_ALPHA[0])
            if alpha < 1.0:
                ghost.set_transparency(TransparencyAttrib.M_alpha)
                ghost.set_alpha_scale(alpha)
        view, hidden = ride_camera(still, renderer.aspect, geometry)
        for piece_id in hidden:
            if piece_id in renderer.piece_nodes:
                renderer.piece_nodes[piece_id].hide()
        renderer.set_camera(view)
        return renderer.render_to_array()

