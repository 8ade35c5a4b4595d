"""Where the camera looks: a drone camera over the active bike, a low chase camera for jumps,
an overview for cards; all in table inches, pure numpy plus ray tests on the table's meshes.

A shot's camera offset is chosen once per action: the first of several directions around the
bike (then higher up) from which the whole trajectory is in clear view: no building between the
eye and the bike, nor over the ground just in front of it (a roof filling the foreground). Then
every frame the eye and the look-at point follow the bike, smoothed so the picture never jerks.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import hashlib
import math
from dataclasses import dataclass

import numpy as np
import trimesh

from entropy3d.geometry import camera_axes, camera_axes_of, project_on_axes, project_points

# what hides a bike and the box that must stay in frame: the film's rules, shared with the stills
from entropy3d.render.cameras import (
    bike_boxes,
    blocked,
)

#: (distance in inches, elevation in degrees) of each camera style
STYLES = {"drone": (22.0, 52.0), "chase": (11.0, 24.0), "wide": (34.0, 58.0)}
#: a shot fails when the bike's box comes nearer a frame edge than this share of the half-frame,
#: or when more than OFF_TABLE_LIMIT of the frame shows the void beyond the table
FRAME_MARGIN = 0.08
OFF_TABLE_LIMIT = 0.10
#: the margin the director's search asks of a sampled frame (the frames between samples vary)
WELL_IN_MARGIN = FRAME_MARGIN * 1.5
#: share of OFF_TABLE_LIMIT a sampled frame may show: frames between the samples vary
HEADROOM = 0.75
ASPECT = 16 / 9
#: azimuths tried around "behind the bike", degrees
AZIMUTH_TRIES = (0.0, 35.0, -35.0, 70.0, -70.0, 110.0, -110.0, 180.0)
ELEVATION_STEPS = (0.0, 12.0, 24.0, 32.0)
#: closer shots tried when no camera at the style's distance frames the action cleanly
DISTANCE_STEPS = (1.0, 0.75, 0.55)
#: closer still, tried only when none of those frames a bike beside a table edge
EDGE_DISTANCE_STEPS = (0.45, 0.35)
#: how far (inches) a shot may look past a bike near an edge toward the table, tried in order (the
#: smaller shifts last: a bike starting at an edge riding inward is cut by 5" and shows void at 0")
SHIFT_STEPS = (0.0, 5.0, 9.0, 2.5, 3.5)
EDGE_REACH = 16.0  #: a bike nearer an edge than this (inches) is framed off-centre by a shifted shot
#: how far around the bike (share of the camera distance) the foreground must be clear
FOREGROUND_SHARE = 0.22
#: cameras a search frames at once (a few past the last it needs, in one batch of arrays)
FRAMING_BATCH = 48
SMOOTHING = 0.18  #: share of the way to the target the camera moves each frame (at 30 fps)
#: degrees above the horizon of a camera craned up over a rider a building hid (:func:`craned_up`)
CRANE_ELEVATION_DEG = 80.0


@dataclass(frozen=True)
class CameraPlan:
    """A shot's camera: ``style``, and the azimuth (relative to the bike's heading, 180 is
    straight behind) and elevation it was given to see the action clearly. fov in degrees."""

    style: str
    azimuth_deg: float
    elevation_deg: float
    distance_in: float
    fov_deg: float = 50.0
    shift_in: float = 0.0

    def target(self, point, table_size: tuple[float, float] | None) -> np.ndarray:
        """Where the camera looks for a bike at ``point``: the bike itself, or, near a table edge,
        up to ``shift_in`` inches toward the table so the frame shows table, not void (see
        :func:`framed_target`)."""
        if table_size is None or not self.shift_in:
            return np.asarray(point, float)
        return framed_target(point, table_size, self.shift_in)


def framed_target(point, table_size: tuple[float, float], shift_in: float, reach: float = EDGE_REACH) -> np.ndarray:
    """``point`` moved toward the table by up to ``shift_in`` inches on each axis, the more the
    nearer it lies to an edge (nothing beyond ``reach`` inches): continuous, so a following
    camera never jumps."""
    result = np.array(point, float)
    for axis, size in enumerate(table_size):
        low, high = result[axis], size - result[axis]
        result[axis] += shift_in * (max(0.0, 1.0 - low / reach) - max(0.0, 1.0 - high / reach))
    return result


def eye_for(point: np.ndarray, heading_deg: float, plan: CameraPlan) -> np.ndarray:
    """The eye position of ``plan`` around a bike at ``point`` facing ``heading_deg``."""
    direction = _eye_direction(heading_deg, plan.azimuth_deg, plan.elevation_deg)
    return np.asarray(point, float) + direction * plan.distance_in


def _eye_direction(heading_deg: float, azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    """The unit vector from a bike facing ``heading_deg`` to the eye of a camera at
    ``azimuth_deg`` (180 is straight behind) and ``elevation_deg``."""
    azimuth = math.radians(heading_deg + 180.0 + azimuth_deg)
    elevation = math.radians(elevation_deg)
    return np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation),
                     math.sin(elevation)])


def craned_up(plan: CameraPlan) -> CameraPlan:
    """``plan`` raised to look down on the bike from :data:`CRANE_ELEVATION_DEG`, where no wall
    beside it stands in the way: the camera of a chase whose planned eye, checked at a few
    points of the ride only, turned out to have a building between it and the rider."""
    return dataclasses.replace(plan, elevation_deg=max(plan.elevation_deg, CRANE_ELEVATION_DEG))


def clear_view(mesh: trimesh.Trimesh | None, eyes: np.ndarray, targets: np.ndarray) -> bool:
    """True when no occluder lies between every eye and its target."""
    return not bool(blocked(mesh, eyes, targets).any())


def sight_targets(bikes: np.ndarray, eyes: np.ndarray, radius) -> np.ndarray:
    """The points (K, 4, 3) a shot must see around each of K bikes at ``bikes`` (K, 3) from its
    eye in ``eyes`` (K, 3): the bike itself, then the ground ``radius`` inches (one, or one per
    bike) in front of it toward the camera and to either side (the lower half and the flanks of
    the frame), so a roof just under the line of sight still counts as blocking."""
    x, y, z = bikes[:, 0], bikes[:, 1], bikes[:, 2]
    toward_x, toward_y = eyes[:, 0] - x, eyes[:, 1] - y
    length = np.maximum(np.sqrt(toward_x * toward_x + toward_y * toward_y), 1e-9)
    ahead, aside = toward_x / length, toward_y / length  # toward the camera
    offsets = ((ahead, aside), (0.7 * ahead + 0.7 * -aside, 0.7 * aside + 0.7 * ahead),
               (0.7 * ahead - 0.7 * -aside, 0.7 * aside - 0.7 * ahead))
    ground = [np.column_stack([x + radius * dx, y + radius * dy, z - 0.5]) for dx, dy in offsets]
    return np.stack([np.column_stack([x, y, z])] + ground, axis=1)


def project(eye, look, fov_deg: float, points: np.ndarray, aspect: float = ASPECT) -> np.ndarray:
    """Table points (N, 3) to frame coordinates (N, 2), x right and y up, -1..1 inside the
    frame (``fov_deg`` vertical); NaN behind the eye."""
    return project_points(eye, look, fov_deg, points, aspect)


def in_frame(eye, look, fov_deg: float, point, aspect: float = ASPECT, margin: float = FRAME_MARGIN) -> bool:
    """True when the bike at ``point`` lies inside the frame with ``margin`` to spare."""
    eye = np.asarray(eye, float)
    axes = [axis[None] for axis in camera_axes(eye, np.asarray(look, float))]
    return bool(_in_frames(eye[None], axes, fov_deg, np.asarray(point, float)[None], aspect, margin)[0])


def _in_frames(eyes, axes, fov_deg: float, bikes: np.ndarray, aspect: float, margin: float) -> np.ndarray:
    """:func:`in_frame` of K cameras (eyes and their axes, :func:`camera_axes_of`) and K bikes: (K,) bools."""
    corners = project_on_axes(eyes, axes, fov_deg, bike_boxes(bikes), aspect)
    return np.isfinite(corners).all(axis=(1, 2)) & (np.abs(corners) <= 1.0 - margin).all(axis=(1, 2))


@functools.lru_cache(maxsize=4)
def _frame_grid(grid: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The frame coordinates (-1..1) of the middles of a (columns, rows) grid's cells, as two
    (columns * rows, 1) columns: across, then up."""
    cols, rows = grid
    u = (np.arange(cols) + 0.5) / cols * 2 - 1
    v = (np.arange(rows) + 0.5) / rows * 2 - 1
    uu, vv = np.meshgrid(u, v)
    across, upward = uu.reshape(-1, 1), vv.reshape(-1, 1)
    across.flags.writeable = upward.flags.writeable = False
    return across, upward


def off_table_share(eye, look, fov_deg: float, table_size: tuple[float, float], mesh=None,
                    aspect: float = ASPECT, grid: tuple[int, int] = (32, 18)) -> float:
    """The share of the frame that shows the void beyond the table: rays through a grid of the
    frame that meet the ground plane outside the table (or never) and hit no raised piece."""
    eyes, looks = np.asarray(eye, float).reshape(1, 3), np.asarray(look, float).reshape(1, 3)
    directions, off = _ground_void(eyes, camera_axes_of(eyes, looks), fov_deg, table_size, aspect, grid)
    return float(_past_the_pieces(mesh, eyes, directions, off)[0].mean())


def too_much_void(eye, look, fov_deg: float, table_size: tuple[float, float], mesh, limit: float,
                  aspect: float = ASPECT, grid: tuple[int, int] = (32, 18)) -> bool:
    """Whether :func:`off_table_share` exceeds ``limit``; no ray is cast at the pieces when the
    ground alone keeps the share within it (a piece in the way can only lower the share)."""
    eyes, looks = np.asarray(eye, float).reshape(1, 3), np.asarray(look, float).reshape(1, 3)
    return bool(_too_much_void(eyes, camera_axes_of(eyes, looks), fov_deg, table_size, mesh, limit, aspect, grid)[0])


def _too_much_void(eyes, axes, fov_deg: float, table_size, mesh, limit: float, aspect: float,
                   grid: tuple[int, int]) -> np.ndarray:
    """:func:`too_much_void` of several cameras at once (eyes (K, 3) and their axes,
    :func:`camera_axes_of`; the rays at the pieces in one batch)."""
    directions, off = _ground_void(eyes, axes, fov_deg, table_size, aspect, grid)
    over = off.mean(axis=1) > limit  # a share of whole cells: the same sum in any order
    if over.any():
        off = _past_the_pieces(mesh, eyes[over], directions[over], off[over])
        over[over] = off.mean(axis=1) > limit
    return over


def _ground_void(eyes: np.ndarray, axes, fov_deg: float, table_size: tuple[float, float], aspect: float,
                 grid: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per camera (eyes (K, 3) and their axes, :func:`camera_axes_of`): the unit directions (K, N, 3)
    of the rays through the grid's N cells and which of them (K, N) meet the ground plane outside
    the table (or never). Each camera's figures are computed as they would be alone, to the bit."""
    forward, right, up = axes
    tan_v = math.tan(math.radians(fov_deg) / 2)
    across, upward = _frame_grid(grid)
    directions = (forward[:, None, :] + (across * tan_v * aspect)[None] * right[:, None, :]
                  + (upward * tan_v)[None] * up[:, None, :])
    directions = directions / np.linalg.norm(directions, axis=2, keepdims=True)
    width, depth = table_size
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -eyes[:, None, 2] / directions[..., 2]
    hit = eyes[:, None, :2] + t[..., None] * directions[..., :2]
    on_table = (t > 0) & (hit[..., 0] >= 0) & (hit[..., 0] <= width) & (hit[..., 1] >= 0) & (hit[..., 1] <= depth)
    return directions, ~on_table


def _past_the_pieces(mesh, eyes: np.ndarray, directions: np.ndarray, off: np.ndarray) -> np.ndarray:
    """``off`` (K, N) without the rays that hit a raised piece of ``mesh`` (a copy)."""
    off = off.copy()
    if mesh is not None and off.any():
        camera, cell = np.nonzero(off)
        hits = mesh.ray.intersects_any(eyes[camera], directions[camera, cell])
        off[camera[hits], cell[hits]] = False
    return off


def shot_fails(eye, look, fov_deg: float, point, table_size, mesh=None, headroom: float = HEADROOM,
               grid: tuple[int, int] = (16, 9)) -> bool:
    """A frame the rule refuses: the bike near an edge, or too much void beyond the table (checked
    on a coarse grid against ``headroom`` of the limit, since frames between samples vary)."""
    return (not _bike_well_in(eye, look, fov_deg, point)
            or _void_refused(eye, look, fov_deg, table_size, mesh, headroom, grid))


def _bike_well_in(eye, look, fov_deg: float, point) -> bool:
    """The first half of :func:`shot_fails`' rule: the bike inside the frame with a wider margin."""
    return in_frame(eye, look, fov_deg, point, margin=WELL_IN_MARGIN)


def _void_refused(eye, look, fov_deg: float, table_size, mesh, headroom: float, grid: tuple[int, int]) -> bool:
    """The second half of :func:`shot_fails`' rule: more void than ``headroom`` of the limit."""
    return too_much_void(eye, look, fov_deg, table_size, mesh, OFF_TABLE_LIMIT * headroom, grid=grid)


#: plans already made, by table and ride (:func:`plan_camera`); a plan is a few numbers
_PLANS: collections.OrderedDict = collections.OrderedDict()
PLANS_KEPT = 1024


def plan_camera(mesh, trajectory: np.ndarray, style: str, table_size: tuple[float, float] | None = None,
                margin: float = 3.0) -> CameraPlan:
    """:func:`search_camera`'s plan, remembered for the same occluders, ride, style, table and
    margin: a replay filmed again in the same process (a second video, a still of one action, a
    highlight reel) is not searched again, and the search's answer depends on nothing else."""
    key = (None if mesh is None else hashlib.blake2b(np.ascontiguousarray(mesh.vertices).tobytes()
                                                     + np.ascontiguousarray(mesh.faces).tobytes()).digest(),
           trajectory.shape, np.ascontiguousarray(trajectory, float).tobytes(), style,
           None if table_size is None else tuple(map(float, table_size)), float(margin))
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = search_camera(mesh, trajectory, style, table_size, margin)
        while len(_PLANS) > PLANS_KEPT:
            _PLANS.popitem(last=False)
    return plan


def search_camera(mesh, trajectory: np.ndarray, style: str, table_size: tuple[float, float] | None = None,
                  margin: float = 3.0) -> CameraPlan:
    """The camera for one action, chosen once so the shot never flickers: its style and the
    azimuth/elevation that best sees the bike all along ``trajectory`` (rows t, x, y, z,
    heading). Each candidate is scored by its sight segments blocked by the static occluders:
    to the bike (weighted heavily) and to the ground around it on the camera's side (a building
    filling the foreground). The first candidate with nothing blocked wins, else the least
    blocked one, in the fixed try order (deterministic). Given ``table_size`` (width, depth
    inches) the eye also stays over the table (within ``margin``) and a candidate must pass the
    framing rule (:func:`shot_fails`: the bike inside the frame with a margin, at most
    :data:`OFF_TABLE_LIMIT` of the frame beyond the table) at every sample, else the director
    tries the next camera, then closer ones (:data:`DISTANCE_STEPS`, then :data:`EDGE_DISTANCE_STEPS`
    judged on a finer grid)."""
    base_distance, elevation = STYLES[style]
    samples = trajectory[np.linspace(0, len(trajectory) - 1, min(6, len(trajectory))).astype(int)]
    plans = ((base_distance * k, shift, lift, azimuth) for k in DISTANCE_STEPS for shift in SHIFT_STEPS
             for lift in ELEVATION_STEPS for azimuth in AZIMUTH_TRIES)
    sights: dict = {}  # the blocked sight lines of each camera judged: the same on either grid
    plan, clean, score = _search(mesh, samples, style, elevation, plans, table_size, margin, (16, 9), sights)
    if clean or table_size is None:
        return plan
    # nothing framed it cleanly (a bike riding off from right beside an edge, where one row of the
    # coarse grid is already too much void): closer shots judged on the frame's own grid
    plans = ((base_distance * k, shift, lift, azimuth) for k in DISTANCE_STEPS + EDGE_DISTANCE_STEPS
             for shift in SHIFT_STEPS for lift in ELEVATION_STEPS for azimuth in AZIMUTH_TRIES)
    edge_plan, edge_clean, edge_score = _search(mesh, samples, style, elevation, plans, table_size, margin, (32, 18),
                                                sights)
    return edge_plan if edge_clean or edge_score < score else plan


def _search(mesh, samples: np.ndarray, style: str, elevation: float, plans, table_size, margin: float,
            grid: tuple[int, int], sights: dict) -> tuple[CameraPlan, bool, float]:
    """The first of ``plans`` (distance, shift, lift, azimuth) with nothing blocked and every
    sample framed (judged on ``grid``), else the least blocked: (plan, clean, score). ``sights``
    keeps each camera's blocked sight lines for the next search of the same action.

    A candidate whose sight lines alone score no better than the best so far is not framed at all
    (the framing rule only adds to a score), and one whose eyes and looks are those of a
    candidate already judged (a shift that moves nothing, for a bike far from the edges) is not
    judged again: it would score the same and the first of equals wins. The choice is the same
    as judging every candidate in full, for a fraction of the framing tests."""
    targets = samples[:, 1:4] + np.array([0.0, 0.0, 0.6])
    bikes = np.array([t - [0.0, 0.0, 0.6] for t in targets])
    cameras = _cameras(plans, style, elevation, targets, samples[:, 4], table_size, margin)
    _judge_sights(mesh, targets, [camera for camera in cameras if camera[0] not in sights], sights)
    best, best_score = None, math.inf
    fails_of: dict[int, int] = {}  # framed a batch at a time, from the first camera that needs it
    for k, (seen, plan, lift, *_) in enumerate(cameras):
        hidden = sights[seen]
        score = 10.0 * hidden[:, 0].sum() + hidden[:, 1:].sum() + lift / 100.0
        clean = not hidden.any()
        if table_size is not None and (clean or score < best_score):  # the framing rule
            if k not in fails_of:
                batch = cameras[k:k + FRAMING_BATCH]
                fails_of.update(zip(range(k, k + len(batch)), _framing_fails(batch, bikes, table_size, mesh, grid)))
            fails = fails_of[k]
            score += 5.0 * fails
            clean = clean and not fails
        if clean:
            return plan, True, score
        if score < best_score:
            best, best_score = plan, score
    return best or CameraPlan(style, 0.0, 80.0, STYLES[style][0]), False, best_score


def _cameras(plans, style: str, elevation: float, targets: np.ndarray, headings: np.ndarray, table_size,
             margin: float) -> list[tuple[tuple, CameraPlan, float, np.ndarray, np.ndarray]]:
    """The cameras of ``plans`` a search judges, in its order: ``(seen, plan, lift, looks,
    eyes)`` of each whose eyes stay over the table, but for one whose eyes and looks repeat an
    earlier one's (``seen``: its distance, lift, eyes and looks)."""
    cameras, judged = [], set()
    looks_of: dict[float, np.ndarray] = {}  # where the camera looks depends on the shift alone
    directions_of: dict[tuple[float, float], np.ndarray] = {}
    for distance, shift, lift, azimuth in plans:
        if shift and table_size is None:
            continue
        plan = CameraPlan(style, azimuth, min(80.0, elevation + lift), distance, shift_in=shift)
        if shift not in looks_of:
            looks_of[shift] = np.array([plan.target(t, table_size) for t in targets])
        looks = looks_of[shift]
        key = (plan.azimuth_deg, plan.elevation_deg)
        if key not in directions_of:
            directions_of[key] = np.array([_eye_direction(h, *key) for h in headings])
        eyes = looks + directions_of[key] * plan.distance_in  # eye_for of every sample, to the bit
        if table_size is not None and not _over_table(eyes, table_size, margin):
            continue
        seen = (distance, lift, eyes.tobytes(), looks.tobytes())
        if seen in judged:
            continue
        judged.add(seen)
        cameras.append((seen, plan, lift, looks, eyes))
    return cameras


def _judge_sights(mesh, targets: np.ndarray, cameras, sights: dict) -> None:
    """Cast every sight line of ``cameras`` (:func:`_cameras`) in one batch: into ``sights``, per
    camera, which of its :func:`sight_targets` are hidden from its eye, (samples, 4) bools. A
    ray's verdict does not depend on the others in its batch."""
    if not cameras:
        return
    eyes = np.concatenate([eyes for *_, eyes in cameras])
    radii = np.repeat([FOREGROUND_SHARE * plan.distance_in for _, plan, *_ in cameras], len(targets))
    points = sight_targets(np.tile(targets, (len(cameras), 1)), eyes, radii)
    per_target = points.shape[1]
    hidden = blocked(mesh, np.repeat(eyes, per_target, axis=0), points.reshape(-1, 3))
    for (seen, *_), verdicts in zip(cameras, hidden.reshape(len(cameras), len(targets), per_target)):
        sights[seen] = verdicts


def _framing_fails(cameras, bikes: np.ndarray, table_size, mesh, grid: tuple[int, int]) -> list[int]:
    """Per camera of ``cameras`` (:func:`_cameras`, of one style: one field of view), how many
    of its frames (eye, look, bike at each sample) fail the framing rule of :func:`shot_fails`:
    the cheap in-frame test on every frame, then the void's share on the others, every camera's
    frames at once. A frame's verdict is the one it gets alone."""
    eyes = np.concatenate([eyes for *_, eyes in cameras])
    looks = np.concatenate([looks for *_, looks, _ in cameras])
    camera_of = np.repeat(np.arange(len(cameras)), len(bikes))
    fov_deg = cameras[0][1].fov_deg
    axes = camera_axes_of(eyes, looks)
    framed = _in_frames(eyes, axes, fov_deg, np.tile(bikes, (len(cameras), 1)), ASPECT, WELL_IN_MARGIN)
    fails = np.bincount(camera_of[~framed], minlength=len(cameras))
    if framed.any():
        void = _too_much_void(eyes[framed], [axis[framed] for axis in axes], fov_deg, table_size, mesh,
                              OFF_TABLE_LIMIT * HEADROOM, ASPECT, grid)
        fails += np.bincount(camera_of[framed][void], minlength=len(cameras))
    return fails.tolist()


def _over_table(eyes: np.ndarray, table_size: tuple[float, float], margin: float) -> bool:
    width, depth = table_size
    return bool(np.all((eyes[:, 0] >= -margin) & (eyes[:, 0] <= width + margin)
                       & (eyes[:, 1] >= -margin) & (eyes[:, 1] <= depth + margin)))


def overview_eye(width: float, depth: float) -> tuple[np.ndarray, np.ndarray]:
    """A high three-quarter view of the whole table: (eye, look_at)."""
    centre = np.array([width / 2, depth / 2, 0.0])
    eye = centre + np.array([-0.15 * width, -0.95 * depth, 0.95 * max(width, depth)])
    return eye, centre


class CameraRig:
    """A camera that eases toward its target every frame (exponential smoothing)."""

    def __init__(self, eye: np.ndarray, look: np.ndarray):
        self.eye = np.asarray(eye, float)
        self.look = np.asarray(look, float)

    def follow(self, eye: np.ndarray, look: np.ndarray, fps: float = 30.0) -> tuple[np.ndarray, np.ndarray]:
        """Move :data:`SMOOTHING` of the way per 1/30 s, whatever the frame rate: the camera lags
        a moving bike by the same inches at 8 fps as at 30 (a lag of whole frames at a low rate
        let a bike ride out of a shot planned for it)."""
        amount = 1.0 - (1.0 - SMOOTHING) ** (30.0 / fps)
        self.eye = self.eye + amount * (np.asarray(eye, float) - self.eye)
        self.look = self.look + amount * (np.asarray(look, float) - self.look)
        return self.eye, self.look

    def cut(self, eye: np.ndarray, look: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.eye, self.look = np.asarray(eye, float), np.asarray(look, float)
        return self.eye, self.look


def kept_in_width(eye, look, fov_deg: float, point, aspect: float, margin: float = 0.7) -> np.ndarray:
    """Where a camera at ``eye`` looking at ``look`` should look so that ``point`` stays within
    ``margin`` of the frame's half width (frame coordinates, -1..1): ``look`` turned about the
    vertical through ``eye`` just enough, or unchanged. A portrait frame (1080x1920) sees a
    third as wide as the director's 16:9 plans assume, which lost the acting model in 280 of
    1,890 frames of the default demo's short cut."""
    x = float(project_points(eye, look, fov_deg, np.asarray(point, float)[None], aspect)[0, 0])
    if abs(x) <= margin:
        return np.asarray(look, float)
    offset = np.asarray(look, float) - np.asarray(eye, float)
    to_point = np.asarray(point, float) - np.asarray(eye, float)
    turn = math.atan2(to_point[1], to_point[0]) - math.atan2(offset[1], offset[0])
    turn = (turn + math.pi) % (2 * math.pi) - math.pi
    # the frame's half width as an angle, and the share of the turn that brings it to the margin
    half = math.atan(math.tan(math.radians(fov_deg) / 2) * aspect)
    turn *= 1.0 - margin * half / max(abs(turn), half * margin, 1e-9)
    cos, sin = math.cos(turn), math.sin(turn)
    turned = np.array([offset[0] * cos - offset[1] * sin, offset[0] * sin + offset[1] * cos, offset[2]])
    return np.asarray(eye, float) + turned


def kept_in_height(eye, look, fov_deg: float, point, aspect: float, margin: float = 0.85) -> np.ndarray:
    """Where a camera at ``eye`` looking at ``look`` should look so that ``point`` stays within
    ``margin`` of the frame's half height: ``look`` tilted up or down about ``eye`` just enough, or
    unchanged. A shot planned around a ride's middle can leave the rider at its end on the
    frame's bottom edge (95% down in one frame of seed 10's short cut)."""
    y = float(project_points(eye, look, fov_deg, np.asarray(point, float)[None], aspect)[0, 1])
    if abs(y) <= margin:
        return np.asarray(look, float)
    offset = np.asarray(look, float) - np.asarray(eye, float)
    to_point = np.asarray(point, float) - np.asarray(eye, float)
    flat = max(float(np.hypot(offset[0], offset[1])), 1e-9)
    pitch = math.atan2(offset[2], flat)
    turn = math.atan2(to_point[2], float(np.hypot(to_point[0], to_point[1]))) - pitch
    half = math.radians(fov_deg) / 2
    turn *= 1.0 - margin * half / max(abs(turn), half * margin, 1e-9)
    pitched, length = pitch + turn, float(np.linalg.norm(offset))
    return np.asarray(eye, float) + length * np.array([offset[0] / flat * math.cos(pitched),
                                                       offset[1] / flat * math.cos(pitched), math.sin(pitched)])


def drifted(eye: np.ndarray, look: np.ndarray, degrees: float) -> np.ndarray:
    """``eye`` turned ``degrees`` counter-clockwise about the vertical through ``look`` (a held
    shot's slow drift)."""
    angle = math.radians(degrees)
    offset = np.asarray(eye, float) - np.asarray(look, float)
    turned = np.array([offset[0] * math.cos(angle) - offset[1] * math.sin(angle),
                       offset[0] * math.sin(angle) + offset[1] * math.cos(angle), offset[2]])
    return np.asarray(look, float) + turned
