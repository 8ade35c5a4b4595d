"""The table seen from above, answering the rules planner's questions about a path.

:class:`SceneProbe` implements :class:`entropy3d.rules.planner.TableProbe` for a built scene:
the terrain a path rides over (EC-TER-SAND, EC-TER-GRAVEL, ...), the angle at which it crosses
each curb (EC-TER-CURB) and whether it enters a building (EC-TER-BUILDING). It works on the
top-down footprints of every convex part of every piece (:mod:`entropy3d.scene.footprints`),
vectorised with shapely, so hundreds of candidate paths cost milliseconds. Pure
numpy/shapely/trimesh: the CLI's ``plan`` command and the game both use it without a physics
world. All lengths are table inches.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LineString

from entropy3d.scene.footprints import Footprint, footprints_of

#: DEPRECATED: for entropy3d.game.tablemap until it reads ``SceneProbe.step_height_in``. The rules
#: data's ``ride.step_height_in`` (rules/entropy_city.yaml) is the value; tests check they agree.
STEP_HEIGHT_IN = 0.2


class SceneProbe:
    """The planner's :class:`~entropy3d.rules.planner.TableProbe` over a scene's built geometry."""

    def __init__(self, geometry):
        self.width = float(geometry.width)
        self.depth = float(geometry.depth)
        self.step_height_in = float(geometry.ruleset.data("ride.step_height_in"))
        """A rise no higher than this (inches) is ridden over, not hit (rules ``ride.step_height_in``)."""
        self.footprints: list[Footprint] = footprints_of(geometry)

    @classmethod
    def from_table(cls, table, geometry=None) -> SceneProbe:
        """Probe a loaded :class:`~entropy3d.scene.Table`, building its geometry unless given."""
        if geometry is None:
            from entropy3d.scene.build import build_table_geometry

            geometry = build_table_geometry(table)
        return cls(geometry)

    def _inside(self, footprint: Footprint, points: np.ndarray) -> np.ndarray:
        return shapely.contains_xy(footprint.outline, points[:, 0], points[:, 1])

    def level_under(self, points: np.ndarray, level: float) -> tuple[np.ndarray, list[str | None]]:
        """Height and terrain of the highest surface at most a step above ``level`` under each point
        (a ramp counts up to a step above ``level``: a bike rides onto it, not into it)."""
        points = np.atleast_2d(np.asarray(points, float))
        heights = np.full(len(points), -math.inf)
        terrain: list[str | None] = [None] * len(points)
        for footprint in self.footprints:
            if footprint.top > level + self.step_height_in and footprint.kind != "ramp":
                continue
            inside = self._inside(footprint, points)
            top = footprint.top if footprint.kind != "ramp" else min(footprint.top, level + self.step_height_in)
            for k in np.flatnonzero(inside & (top >= heights)):
                heights[k] = top
                terrain[k] = footprint.terrain
        return heights, terrain

    def terrain_along(self, path: np.ndarray) -> list[str]:
        """Terrain names under the path's points at the ground level of its start."""
        path = np.atleast_2d(np.asarray(path, float))
        start_level, _ = self.level_under(path[:1], 1e6)
        level = float(start_level[0]) if np.isfinite(start_level[0]) else 0.0
        _, names = self.level_under(path, level)
        return sorted({n for n in names if n})

    def curb_crossings_deg(self, path: np.ndarray) -> list[float]:
        """Angle (0-90 degrees) between the path and each block edge (curb) it crosses."""
        line = LineString(np.asarray(path, float))
        angles: list[float] = []
        for footprint in self.footprints:
            if footprint.kind != "block":
                continue
            ring = np.asarray(footprint.outline.exterior.coords)
            for a, b in zip(ring[:-1], ring[1:]):
                edge = LineString([a, b])
                if not line.intersects(edge):
                    continue
                crossing = line.intersection(edge)
                point = np.asarray(crossing.representative_point().coords[0])
                along = np.asarray(path, float)
                k = int(np.argmin(np.linalg.norm(along - point, axis=1)))
                k = min(max(k, 1), len(along) - 1)
                direction = along[k] - along[k - 1]
                edge_dir = b - a
                cos = abs(float(np.dot(direction, edge_dir))) / max(
                    1e-9, float(np.linalg.norm(direction) * np.linalg.norm(edge_dir)))
                angles.append(math.degrees(math.acos(min(1.0, cos))))
        return angles

    def enters_building(self, path: np.ndarray) -> bool:
        """Whether any point of the path lies inside a building's footprint."""
        path = np.atleast_2d(np.asarray(path, float))
        return any(f.kind == "building" and self._inside(f, path).any() for f in self.footprints)
