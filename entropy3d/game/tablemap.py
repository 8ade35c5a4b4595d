"""The game's top-down map of the table: the scene's :class:`~entropy3d.scene.probe.SceneProbe`
(terrain, curbs, buildings for the rules planner) plus the automatic players' questions (does this
path run into a wall, over a ramp, through a destructible, off the table). All lengths are table
inches.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from entropy3d.scene.probe import STEP_HEIGHT_IN, SceneProbe

_FLAT_KINDS = ("ground", "zone", "road")


class TableMap(SceneProbe):
    """Footprints of a :class:`~entropy3d.scene.build.TableGeometry`'s pieces, with ramp headings."""

    def __init__(self, geometry, ramp_headings: dict[str, float] | None = None):
        super().__init__(geometry)
        self.ramp_headings = dict(ramp_headings or {})

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
