"""Where the camera looks: a drone camera over the active bike, a low chase camera for jumps,
an overview for cards; all in table inches, pure numpy plus ray tests on the table's meshes.

A shot's camera offset is chosen once per action: the first of several directions around the
bike (then higher up) from which the whole trajectory is in clear view: no building between the
eye and the bike, nor over the ground just in front of it (a roof filling the foreground). Then
every frame the eye and the look-at point follow the bike, smoothed so the picture never jerks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import trimesh

#: (distance in inches, elevation in degrees) of each camera style
STYLES = {"drone": (22.0, 52.0), "chase": (11.0, 24.0), "wide": (34.0, 58.0)}
#: azimuths tried around "behind the bike", degrees
AZIMUTH_TRIES = (0.0, 35.0, -35.0, 70.0, -70.0, 110.0, -110.0, 180.0)
ELEVATION_STEPS = (0.0, 12.0, 24.0, 32.0)
#: how far around the bike (share of the camera distance) the foreground must be clear
FOREGROUND_SHARE = 0.22
SMOOTHING = 0.18  #: share of the way to the target the camera moves each frame (at 30 fps)


@dataclass(frozen=True)
class CameraPlan:
    """A shot's camera: ``style``, and the azimuth (relative to the bike's heading, 180 is
    straight behind) and elevation it was given to see the action clearly. fov in degrees."""

    style: str
    azimuth_deg: float
    elevation_deg: float
    distance_in: float
    fov_deg: float = 50.0


def occluder_mesh(geometry) -> trimesh.Trimesh | None:
    """Every raised static piece in one mesh (what can hide a bike from the camera)."""
    solids = [p.mesh for p in geometry.static_pieces if p.kind not in ("ground", "zone", "road")]
    return trimesh.util.concatenate(solids) if solids else None


def eye_for(point: np.ndarray, heading_deg: float, plan: CameraPlan) -> np.ndarray:
    """The eye position of ``plan`` around a bike at ``point`` facing ``heading_deg``."""
    azimuth = math.radians(heading_deg + 180.0 + plan.azimuth_deg)
    elevation = math.radians(plan.elevation_deg)
    offset = np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation),
                       math.sin(elevation)]) * plan.distance_in
    return np.asarray(point, float) + offset


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


def clear_view(mesh: trimesh.Trimesh | None, eyes: np.ndarray, targets: np.ndarray) -> bool:
    """True when no occluder lies between every eye and its target."""
    return not bool(blocked(mesh, eyes, targets).any())


def sight_targets(bike: np.ndarray, eye: np.ndarray, radius: float) -> np.ndarray:
    """The points a shot must see around a bike at ``bike``: the bike itself, then the ground
    ``radius`` inches in front of it toward the camera and to either side (the lower half and
    the flanks of the frame), so a roof just under the line of sight still counts as blocking."""
    toward = np.asarray(eye, float)[:2] - np.asarray(bike, float)[:2]
    toward = toward / max(float(np.linalg.norm(toward)), 1e-9)
    side = np.array([-toward[1], toward[0]])
    ground = np.asarray(bike, float) - np.array([0.0, 0.0, 0.5])
    offsets = [toward, 0.7 * toward + 0.7 * side, 0.7 * toward - 0.7 * side]
    return np.vstack([bike] + [ground + np.array([*(radius * o), 0.0]) for o in offsets])


def plan_camera(mesh, trajectory: np.ndarray, style: str, table_size: tuple[float, float] | None = None,
                margin: float = 3.0) -> CameraPlan:
    """The camera for one action, chosen once so the shot never flickers: its style and the
    azimuth/elevation that best sees the bike all along ``trajectory`` (rows t, x, y, z,
    heading). Each candidate is scored by its sight segments blocked by the static occluders:
    to the bike (weighted heavily) and to the ground around it on the camera's side (a building
    filling the foreground). The first candidate with nothing blocked wins, else the least
    blocked one, in the fixed try order (deterministic). Given ``table_size`` (width, depth
    inches) the eye also stays over the table (within ``margin``)."""
    distance, elevation = STYLES[style]
    samples = trajectory[np.linspace(0, len(trajectory) - 1, min(6, len(trajectory))).astype(int)]
    targets = samples[:, 1:4] + np.array([0.0, 0.0, 0.6])
    radius = FOREGROUND_SHARE * distance
    best, best_score = CameraPlan(style, 0.0, 80.0, distance), math.inf
    for lift in ELEVATION_STEPS:
        for azimuth in AZIMUTH_TRIES:
            plan = CameraPlan(style, azimuth, min(80.0, elevation + lift), distance)
            eyes = np.array([eye_for(t, h, plan) for t, h in zip(targets, samples[:, 4])])
            if table_size is not None and not _over_table(eyes, table_size, margin):
                continue
            points = [sight_targets(t, e, radius) for t, e in zip(targets, eyes)]
            per_target = len(points[0])
            hidden = blocked(mesh, np.repeat(eyes, per_target, axis=0), np.vstack(points))
            hidden = hidden.reshape(len(eyes), per_target)
            score = 10.0 * hidden[:, 0].sum() + hidden[:, 1:].sum() + lift / 100.0
            if not hidden.any():
                return plan
            if score < best_score:
                best, best_score = plan, score
    return best


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

    def follow(self, eye: np.ndarray, look: np.ndarray, amount: float = SMOOTHING) -> tuple[np.ndarray, np.ndarray]:
        self.eye = self.eye + amount * (np.asarray(eye, float) - self.eye)
        self.look = self.look + amount * (np.asarray(look, float) - self.look)
        return self.eye, self.look

    def cut(self, eye: np.ndarray, look: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.eye, self.look = np.asarray(eye, float), np.asarray(look, float)
        return self.eye, self.look


def pose_at(trajectory: np.ndarray, t: float) -> np.ndarray:
    """(x, y, z, heading) on a trajectory at time ``t`` (clamped), headings unwrapped."""
    times = trajectory[:, 0]
    headings = np.degrees(np.unwrap(np.radians(trajectory[:, 4])))
    columns = [np.interp(t, times, trajectory[:, k]) for k in (1, 2, 3)]
    return np.array(columns + [float(np.interp(t, times, headings))])
