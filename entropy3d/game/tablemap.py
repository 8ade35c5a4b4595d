"""A top-down map of the table for the game: footprints of every piece with its height range.

It answers the planner's :class:`~entropy3d.rules.planner.TableProbe` questions (terrain along a
path, curb crossings, building entry) and the automatic players' questions (does this path run
into a wall, over a ramp, through a destructible, off the table). Everything is vectorised with
shapely over the pieces' convex parts, so hundreds of candidate paths cost milliseconds.
All lengths are table inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Polygon

#: a rise no higher than this (inches) is ridden over, not hit (curbs are 0.12")
STEP_HEIGHT_IN = 0.2
_FLAT_KINDS = ("ground", "zone", "road")


@dataclass(frozen=True, eq=False)
class Footprint:
    """One convex part of a piece seen from above: outline, bottom and top heights (inches)."""

    piece_id: str
    kind: str
    terrain: str | None
    outline: Polygon
    bottom: float
    top: float


class TableMap:
    """Footprints of a :class:`~entropy3d.scene.build.TableGeometry`'s pieces."""

    def __init__(self, geometry, ramp_headings: dict[str, float] | None = None):
        self.ramp_headings = dict(ramp_headings or {})
        self.width = float(geometry.width)
        self.depth = float(geometry.depth)
        self.footprints: list[Footprint] = []
        for piece in geometry.pieces:
            for part in piece.parts:
                vertices = np.asarray(part.vertices)
                hull = MultiPoint(vertices[:, :2]).convex_hull
                if not isinstance(hull, Polygon) or hull.area <= 1e-9:
                    continue
                shapely.prepare(hull)
                self.footprints.append(Footprint(piece.id, piece.kind, piece.terrain, hull,
                                                 float(vertices[:, 2].min()), float(vertices[:, 2].max())))

    def _inside(self, footprint: Footprint, points: np.ndarray) -> np.ndarray:
        return shapely.contains_xy(footprint.outline, points[:, 0], points[:, 1])

    def level_under(self, points: np.ndarray, level: float) -> tuple[np.ndarray, list[str | None]]:
        """Height and terrain of the highest surface at most a step above ``level`` under each point."""
        points = np.atleast_2d(np.asarray(points, float))
        heights = np.full(len(points), -math.inf)
        terrain: list[str | None] = [None] * len(points)
        for footprint in self.footprints:
            if footprint.top > level + STEP_HEIGHT_IN and footprint.kind != "ramp":
                continue
            inside = self._inside(footprint, points)
            top = footprint.top if footprint.kind != "ramp" else min(footprint.top, level + STEP_HEIGHT_IN)
            for k in np.flatnonzero(inside & (top >= heights)):
                heights[k] = top
                terrain[k] = footprint.terrain
        return heights, terrain

    def blocked(self, points: np.ndarray, level: float, kinds_ignored: tuple[str, ...] = (),
                clearance: float = 0.0) -> np.ndarray:
        """Points where a bike riding at ``level`` would hit something solid (a wall, a pillar,
        a railing, a deck's side, scenery not in ``kinds_ignored``) within ``clearance`` inches."""
        points = np.atleast_2d(np.asarray(points, float))
        hit = np.zeros(len(points), bool)
        probe_z = level + STEP_HEIGHT_IN
        for footprint in self.footprints:
            if footprint.kind in _FLAT_KINDS + ("ramp",) + kinds_ignored:
                continue
            if footprint.bottom <= probe_z < footprint.top:
                if clearance > 0:
                    hit |= shapely.dwithin(footprint.outline, shapely.points(points), clearance)
                else:
                    hit |= self._inside(footprint, points)
        return hit

    def touches(self, points: np.ndarray, kind: str) -> set[str]:
        """Ids of the pieces of ``kind`` (ramp, destructible, ...) under any of the points."""
        points = np.atleast_2d(np.asarray(points, float))
        return {f.piece_id for f in self.footprints if f.kind == kind and self._inside(f, points).any()}

    def _ramp_entries(self, path: np.ndarray) -> list[tuple[str, float]]:
        """(ramp id, angle between the path and the ramp's heading) where the path enters a ramp."""
        path = np.atleast_2d(np.asarray(path, float))
        entries = []
        for f in self.footprints:
            if f.kind != "ramp" or f.piece_id not in self.ramp_headings:
                continue
            inside = self._inside(f, path)
            if not inside.any():
                continue
            k = max(1, int(np.argmax(inside)))
            direction = path[min(k + 1, len(path) - 1)] - path[k - 1]
            heading = math.degrees(math.atan2(direction[1], direction[0]))
            off = abs((heading - self.ramp_headings[f.piece_id] + 180.0) % 360.0 - 180.0)
            entries.append((f.piece_id, off))
        return entries

    def ramps_taken(self, path: np.ndarray, max_angle_deg: float = 30.0) -> set[str]:
        """Ramps the path rides up, entering within ``max_angle_deg`` of the ramp's heading."""
        return {rid for rid, off in self._ramp_entries(path) if off <= max_angle_deg}

    def ramp_sides_hit(self, path: np.ndarray, max_angle_deg: float = 45.0) -> np.ndarray:
        """Mask of path points inside a ramp entered from its side or top end (a wall there)."""
        path = np.atleast_2d(np.asarray(path, float))
        hit = np.zeros(len(path), bool)
        bad = {rid for rid, off in self._ramp_entries(path) if off > max_angle_deg}
        for f in self.footprints:
            if f.piece_id in bad:
                hit |= self._inside(f, path)
        return hit

    def off_table(self, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
        points = np.atleast_2d(np.asarray(points, float))
        return ((points[:, 0] < margin) | (points[:, 1] < margin) | (points[:, 0] > self.width - margin)
                | (points[:, 1] > self.depth - margin))

    # -- TableProbe (entropy3d.rules.planner) ----------------------------------------------------

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
