"""Where the camera looks: a drone camera over the active bike, a low chase camera for jumps,
an overview for cards; all in table inches, pure numpy plus ray tests on the table's meshes.

A shot's camera offset is chosen once per action: the first of several directions around the
bike from which the whole trajectory is in clear view (no building between eye and bike). Then
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


def clear_view(mesh: trimesh.Trimesh | None, eyes: np.ndarray, targets: np.ndarray) -> bool:
    """True when no occluder lies between every eye and its target."""
    if mesh is None:
        return True
    eyes, targets = np.atleast_2d(eyes), np.atleast_2d(targets)
    directions = eyes - targets
    lengths = np.linalg.norm(directions, axis=1)
    directions = directions / lengths[:, None]
    origins = targets + directions * 0.3
    locations, index, _ = mesh.ray.intersects_location(origins, directions, multiple_hits=False)
    if len(index) == 0:
        return True
    distances = np.linalg.norm(locations - origins[index], axis=1)
    return bool(np.all(distances >= lengths[index] - 0.3))


def plan_camera(mesh, trajectory: np.ndarray, style: str, table_size: tuple[float, float] | None = None,
                margin: float = 3.0) -> CameraPlan:
    """The camera for one action: its style and the first azimuth/elevation with a clear view of
    the bike all along ``trajectory`` (rows t, x, y, z, heading) and, given ``table_size``
    (width, depth inches), an eye over the table (within ``margin``) so the frame shows the table,
    not the room beyond its edge."""
    distance, elevation = STYLES[style]
    samples = trajectory[np.linspace(0, len(trajectory) - 1, min(6, len(trajectory))).astype(int)]
    targets = samples[:, 1:4] + np.array([0.0, 0.0, 0.6])
    for lift in ELEVATION_STEPS:
        for azimuth in AZIMUTH_TRIES:
            plan = CameraPlan(style, azimuth, min(80.0, elevation + lift), distance)
            eyes = np.array([eye_for(t, h, plan) for t, h in zip(targets, samples[:, 4])])
            if table_size is not None and not _over_table(eyes, table_size, margin):
                continue
            if clear_view(mesh, eyes, targets):
                return plan
    return CameraPlan(style, 0.0, 80.0, distance)


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
