"""The table seen from above, answering the rules planner's questions about a path.

:class:`SceneProbe` implements :class:`entropy3d.systems.entropy_city.planner.TableProbe` for a built scene:
the terrain a path rides over (EC-TER-SAND, EC-TER-GRAVEL, ...), the angle at which it crosses
each curb (EC-TER-CURB) and whether it enters a building (EC-TER-BUILDING). It works on the
top-down footprints of every convex part of every piece (:mod:`entropy3d.scene.footprints`),
vectorised with shapely, so hundreds of candidate paths cost milliseconds. Pure
numpy/shapely/trimesh: the CLI's ``plan`` command and the game both use it without a physics
world. All lengths are table inches.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import LineString

from entropy3d.geometry import Pose
from entropy3d.scene.build import level_below
from entropy3d.scene.footprints import Footprint, footprints_of

#: how far (inches) past the end of a path the level under it is reported, for jumps landing beyond it
GROUND_BEYOND_IN = 40.0
#: spacing (inches) of the level profile along the path
GROUND_STEP_IN = 0.25
#: a level this far (inches) above the bike still counts as under it (a ramp's lip, a curb)
LEVEL_CLEARANCE_IN = 0.3


def points_along(path: np.ndarray, distances_in: np.ndarray) -> np.ndarray:
    """(M, 2) points at ``distances_in`` along ``path`` (N, 2), extended straight on past its end
    (where a jump may come down)."""
    path = np.asarray(path, float)
    s = np.asarray(distances_in, float)
    steps = np.hypot(*np.diff(path, axis=0).T) if len(path) > 1 else np.zeros(0)
    lengths = np.concatenate([[0.0], np.cumsum(steps)])
    total = float(lengths[-1])
    x = np.interp(s, lengths, path[:, 0])
    y = np.interp(s, lengths, path[:, 1])
    direction = path[-1] - path[-2] if len(path) > 1 else np.array([1.0, 0.0])
    direction = direction / max(float(np.linalg.norm(direction)), 1e-9)
    past = s > total
    x[past] = path[-1, 0] + (s[past] - total) * direction[0]
    y[past] = path[-1, 1] + (s[past] - total) * direction[1]
    return np.column_stack([x, y])


def ground_profile(geometry, path: np.ndarray, heights_along: np.ndarray | None, last_z: float,
                   beyond_in: float = GROUND_BEYOND_IN, step_in: float = GROUND_STEP_IN) -> np.ndarray:
    """(M, 4) rows of distance along ``path`` (extended straight on by ``beyond_in``), x, y and the
    highest static level under the bike there: below the bike's height at that distance
    (``heights_along``: (K, 2) rows of distance and height, or None) plus a small clearance, and
    below ``last_z`` past the ride's end. Shared by both producers."""
    path = np.asarray(path, float)
    steps = np.hypot(*np.diff(path, axis=0).T) if len(path) > 1 else np.zeros(0)
    total = float(np.sum(steps))
    s = np.arange(0.0, total + beyond_in + 1e-9, step_in)
    x, y = points_along(path, s).T
    if heights_along is not None and len(heights_along):
        order = np.argsort(heights_along[:, 0])
        ceiling = np.interp(s, heights_along[order, 0], heights_along[order, 1], right=last_z)
    else:
        ceiling = np.full(len(s), last_z)
    levels = geometry.surface_height(np.column_stack([x, y]), below=ceiling + LEVEL_CLEARANCE_IN, static_only=True)
    return np.column_stack([s, x, y, levels])



def piece_side(geometry, piece_id: str, offset: tuple[float, float], at: Pose) -> str:
    """Which side (left or right) of a bike at ``at`` a piece's centre is on."""
    centre = geometry.by_id(piece_id).mesh.centroid[:2] + np.asarray(offset)
    local = at.to_local(centre)[0]
    return "left" if float(local[1]) >= 0.0 else "right"


def models_in_the_way(state, model_id: str, ruleset) -> list:
    """The other models in play and the wrecks (EC-WOUND) a ride of ``model_id`` can run into, as
    (model or wreck, base) pairs (:func:`obstacle_kind` tells which); both producers ask this, so
    they put the same things in the way.

    DECISION: a model or wreck already base to base with the rider when it sets off (bases within
    ``ride.base_to_base_in``) is not in its way: a bike stopped against another after a crash
    (EC-COL-HEAD) slides off past it rather than crashing into it again at 0", and so does the
    winner of a melee from the wreck of the rider it took out.
    """
    from entropy3d.systems.entropy_city.combat import base_gap_in
    from entropy3d.systems.entropy_city.wrecks import wreck_base

    model = state.model(model_id)
    base = ruleset.base_for(model.bike_type)
    touching = float(ruleset.data("ride.base_to_base_in"))
    out = []
    riding = [(other, ruleset.base_for(other.bike_type)) for other in state.models.values()
              if other.id != model.id and other.in_play]
    for other, other_base in riding + [(wreck, wreck_base(state, wreck, ruleset)) for wreck in state.wrecks]:
        # the same float operations as on the poses' xy arrays, without making the arrays
        gap = float(np.hypot(other.pose.x - model.pose.x, other.pose.y - model.pose.y))
        near = gap < base.radius + other_base.radius + touching
        if near and base_gap_in(model.pose, base, other.pose, other_base) <= touching:
            continue
        out.append((other, other_base))
    return out


def obstacle_kind(thing) -> str:
    """The contact kind a producer reports for a pair of :func:`models_in_the_way`: ``wreck``
    (scenery, EC-WOUND) or ``model``."""
    from entropy3d.systems.entropy_city.state import Wreck

    return "wreck" if isinstance(thing, Wreck) else "model"


_FLAT_KINDS = ("ground", "zone", "road")
#: table edges by name: (axis, side) of the outline they bound
EDGES = ("south", "north", "west", "east")


class SceneProbe:
    """The table from above: the rules' :class:`~entropy3d.systems.entropy_city.transition.TableChecks` (terrain,
    curbs, buildings, table edges) over a scene's built geometry, and the questions the
    automatic players and the geometric producer ask (walls, ramps, destructibles on a path).

    ramp_headings: ramp id -> heading up the ramp, degrees. edges: the scene's special table
    edges (name -> ``open`` or ``cliff``); an edge not named is open.
    """

    def __init__(self, geometry, ramp_headings: dict[str, float] | None = None, edges: dict[str, str] | None = None):
        self.width = float(geometry.width)
        self.depth = float(geometry.depth)
        self.step_height_in = float(geometry.ruleset.data("ride.step_height_in"))
        """A rise no higher than this (inches) is ridden over, not hit (rules ``ride.step_height_in``)."""
        self.footprints: list[Footprint] = footprints_of(geometry)
        self._surfaces = geometry
        self.moving = frozenset(p.id for p in geometry.pieces if p.dynamic)
        """Ids of the pieces a ride knocks about (destructibles, meshes with a risk)."""
        self.ramp_headings = dict(ramp_headings or {})
        self.edges = dict(edges or {})

    @classmethod
    def from_table(cls, table, geometry=None) -> SceneProbe:
        """Probe a loaded :class:`~entropy3d.scene.Table`, building its geometry unless given."""
        if geometry is None:
            from entropy3d.scene.build import build_table_geometry

            geometry = build_table_geometry(table)
        return cls(geometry, {r.id: r.heading for r in table.spec.ramps}, dict(table.spec.table.edges))

    def _inside(self, footprint: Footprint, points: np.ndarray) -> np.ndarray:
        return shapely.contains_xy(footprint.outline, points[:, 0], points[:, 1])

    def level_under(self, points: np.ndarray, level: float) -> tuple[np.ndarray, list[str | None]]:
        """Height and terrain of the highest surface at most a step above ``level`` under each point
        (a ramp counts up to a step above ``level``: a bike rides onto it, not into it)."""
        points = np.atleast_2d(np.asarray(points, float))
        heights = np.full(len(points), -math.inf)
        terrain: list[str | None] = [None] * len(points)
        if not len(points):
            return heights, terrain
        # a footprint whose box holds none of the points holds none of them: each planned move asks
        # this of every footprint of the table, and a path lies over a few of them
        (low_x, low_y), (high_x, high_y) = points.min(axis=0), points.max(axis=0)
        for footprint in self.footprints:
            if footprint.top > level + self.step_height_in and footprint.kind != "ramp":
                continue
            x0, y0, x1, y1 = footprint.plan_box
            if x0 > high_x or x1 < low_x or y0 > high_y or y1 < low_y:
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

    def curb_crossings(self, path: np.ndarray) -> list[tuple[float, str, float]]:
        """Every block edge (curb) the path crosses, in order along it: (angle 0-90 degrees between
        path and curb, the block's id, inches along the path)."""
        along = np.asarray(path, float)
        lengths = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(along, axis=0).T))])
        line = LineString(along)
        found: list[tuple[float, str, float]] = []
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
                k = int(np.argmin(np.linalg.norm(along - point, axis=1)))
                k = min(max(k, 1), len(along) - 1)
                direction = along[k] - along[k - 1]
                edge_dir = b - a
                cos = abs(float(np.dot(direction, edge_dir))) / max(
                    1e-9, float(np.linalg.norm(direction) * np.linalg.norm(edge_dir)))
                found.append((math.degrees(math.acos(min(1.0, cos))), footprint.piece_id, float(lengths[k])))
        return sorted(found, key=lambda crossing: crossing[2])

    def curb_crossings_deg(self, path: np.ndarray) -> list[float]:
        """Angle (0-90 degrees) between the path and each curb it crosses (:meth:`curb_crossings`)."""
        return [angle for angle, _, _ in self.curb_crossings(path)]

    def building_entered(self, path: np.ndarray, level: float = 0.0) -> tuple[str, float] | None:
        """The first building the path runs into and how many inches along the path, or None.

        A bike riding the path from ``level`` (inches, the level it starts on) runs into a
        building where it comes into the building's footprint from more than a step below its
        roof. Arriving at the roof's height (up a ramp that leads onto it, off a deck level with
        it, or starting on the roof) it rides onto the roof: a multi-level table's rooftops."""
        path = np.atleast_2d(np.asarray(path, float))
        lengths = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
        met = [(footprint, inside) for footprint in self.footprints if footprint.kind == "building"
               for inside in [self._inside(footprint, path)] if inside.any()]
        if not met:
            return None
        last = max(int(np.flatnonzero(inside)[-1]) for _, inside in met)
        levels = self._levels_along(path[:last + 1], level)
        first = None
        for footprint, inside in met:
            comes_in = np.flatnonzero(inside & ~np.concatenate([[False], inside[:-1]]))
            into = [k for k in comes_in if footprint.top > (level if k == 0 else levels[k - 1]) + self.step_height_in]
            if into and (first is None or lengths[into[0]] < first[1]):
                first = (footprint.piece_id, float(lengths[into[0]]))
        return first

    def _levels_along(self, path: np.ndarray, level: float) -> np.ndarray:
        """The static level (inches) a bike starting on ``level`` rides at each point of ``path``,
        point by point: the highest surface at most a step above where it was (it climbs a ramp,
        keeps to a deck, drops off an edge)."""
        stacks = self._surfaces.surface_stacks(path, static_only=True)
        levels = np.empty(len(path))
        for k, stack in enumerate(stacks):
            level = level_below(stack, level + self.step_height_in + 1e-9)
            levels[k] = level
        return levels

    def walk_met(self, path: np.ndarray, level: float, clearance: float) -> tuple[str, str, float] | None:
        """What a figure on foot walking ``path`` (N, 2 inches) at ``level`` meets first: (piece id,
        ``wall``, inches along) for a solid rising more than a step that its centre comes within
        ``clearance`` of (one it already stands that close to only when the path goes into it), or
        (piece id, ``drop``, inches along) where the level under it falls more than a step (the edge
        of the roof or deck it stands on); None when the walk meets neither."""
        path = np.atleast_2d(np.asarray(path, float))
        lengths = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
        points = shapely.points(path)
        met = []
        for footprint in self.solid_footprints(level):
            near = shapely.dwithin(footprint.outline, points, clearance)
            if near[0]:
                near = self._inside(footprint, path)
            if near.any():
                met.append((float(lengths[int(np.argmax(near))]), footprint.piece_id, "wall"))
        heights, _ = self.level_under(path, level)
        falls = heights < level - self.step_height_in
        if falls.any():
            k = int(np.argmax(falls))
            stood = [f for f in self.footprints if abs(f.top - level) <= self.step_height_in
                     and self._inside(f, path[max(0, k - 1)][None, :])[0]]
            met.append((float(lengths[k]), max(stood, key=lambda f: f.top).piece_id if stood else "the table", "drop"))
        if not met:
            return None
        at_in, piece, kind = min(met)
        return piece, kind, at_in

    def closest_solid(self, path: np.ndarray, level: float, within: float = 0.0
                      ) -> tuple[str, float, float] | None:
        """The solid piece (wall, pillar, railing, scenery) the path comes nearest at ``level``:
        its id, that distance (inches from the path's centre line), and the inches along the path
        where it first comes within ``within`` of it (else where it is nearest); None if none."""
        path = np.atleast_2d(np.asarray(path, float))
        lengths = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
        points = shapely.points(path)
        best = None
        for footprint in self.solid_footprints(level):
            gaps = shapely.distance(footprint.outline, points)
            close = np.flatnonzero(gaps < within)
            k = int(close[0]) if len(close) else int(np.argmin(gaps))
            if best is None or gaps.min() < best[1]:
                best = (footprint.piece_id, float(gaps.min()), float(lengths[k]))
        return best

    def nearest_solid(self, xy, level: float) -> tuple[str, float, tuple[float, float]] | None:
        """The solid piece nearest the point ``xy`` at ``level`` (as :meth:`closest_solid` finds it
        for a one-point path): its id, the distance (inches) and its point nearest ``xy``; None if
        none."""
        point = shapely.Point(*np.asarray(xy, float)[:2])
        best = None
        for footprint in self.solid_footprints(level):
            gap = float(shapely.distance(footprint.outline, point))
            if best is None or gap < best[1]:
                best = (footprint, gap)
        if best is None:
            return None
        x, y = shapely.shortest_line(best[0].outline, point).coords[0]
        return best[0].piece_id, best[1], (float(x), float(y))

    def edge_crossed(self, path: np.ndarray) -> tuple[str, str] | None:
        """The first table edge the path leaves the table over and its kind (open or cliff)."""
        path = np.atleast_2d(np.asarray(path, float))
        for x, y in path:
            edge = ("west" if x < 0 else "east" if x > self.width else "south" if y < 0
                    else "north" if y > self.depth else None)
            if edge is not None:
                return edge, self.edges.get(edge, "open")
        return None

    def off_table(self, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Mask of points less than ``margin`` inches inside the table's outline (or outside it)."""
        points = np.atleast_2d(np.asarray(points, float))
        return ((points[:, 0] < margin) | (points[:, 1] < margin) | (points[:, 0] > self.width - margin)
                | (points[:, 1] > self.depth - margin))

    def room_to_move(self, piece_id: str, spots: Mapping, direction, up_to_in: float, step_in: float = 0.25
                     ) -> float:
        """How far (inches, a multiple of ``step_in`` up to ``up_to_in``) the piece ``piece_id``,
        standing where ``spots`` (piece id -> :class:`~entropy3d.core.scenery.ScenerySpot`) puts
        it, can slide along the unit vector ``direction`` before its outline meets something solid
        on its level (a wall, a building, another piece where it stands now) or leaves the table.
        What it already touches where it stands does not count."""
        own = [f for f in self.footprints if f.piece_id == piece_id]
        if not own:
            return float(up_to_in)

        def placed(footprint: Footprint):
            spot = spots.get(footprint.piece_id)
            return footprint.outline if spot is None else shapely.affinity.translate(footprint.outline, spot.dx,
                                                                                    spot.dy)

        outlines = [placed(f) for f in own]
        others = [placed(f) for f in self.solid_footprints(min(f.bottom for f in own))
                  if f.piece_id != piece_id and not getattr(spots.get(f.piece_id), "removed", False)]
        others = [o for o in others if not any(o.intersects(mine) for mine in outlines)]  # touching already
        dx, dy = (float(v) for v in np.asarray(direction, float)[:2])
        clear = 0.0
        for k in range(1, int(math.floor(up_to_in / step_in + 1e-9)) + 1):
            moved = [shapely.affinity.translate(o, k * step_in * dx, k * step_in * dy) for o in outlines]
            corners = np.vstack([np.asarray(m.exterior.coords) for m in moved])
            if self.off_table(corners).any() or any(m.intersects(o) for m in moved for o in others):
                break
            clear = k * step_in
        return clear

    def solid_footprints(self, level: float, kinds_ignored: tuple[str, ...] = ()) -> list[Footprint]:
        """Footprints a bike riding at ``level`` would hit (a wall, a pillar, a railing, a deck's
        side, scenery not in ``kinds_ignored``): they rise more than a step above it."""
        probe_z = level + self.step_height_in
        return [f for f in self.footprints if f.kind not in _FLAT_KINDS + ("ramp",) + kinds_ignored
                and f.bottom <= probe_z < f.top]

    def blocked(self, points: np.ndarray, level: float, kinds_ignored: tuple[str, ...] = (),
                clearance: float = 0.0) -> np.ndarray:
        """Points where a bike riding at ``level`` would hit something solid within ``clearance``
        inches (see :meth:`solid_footprints`)."""
        points = np.atleast_2d(np.asarray(points, float))
        hit = np.zeros(len(points), bool)
        if not len(points):
            return hit
        low, high = points.min(axis=0), points.max(axis=0)
        # a footprint whose box lies further than the clearance from the points' box (widened by
        # far more than rounding) is within it of none of them: the players ask this thousands of
        # times a game, with a table of footprints and a handful of points near one spot
        reach = clearance * (1.0 + 1e-9) + 1e-9
        geometries = None
        for footprint in self.solid_footprints(level, kinds_ignored):
            x0, y0, x1, y1 = footprint.plan_box
            if x0 - reach > high[0] or x1 + reach < low[0] or y0 - reach > high[1] or y1 + reach < low[1]:
                continue
            if clearance > 0:
                geometries = shapely.points(points) if geometries is None else geometries
                hit |= shapely.dwithin(footprint.outline, geometries, clearance)
            else:
                hit |= self._inside(footprint, points)
        return hit

    def solid_under_base(self, outline: np.ndarray, level: float) -> tuple[str, float] | None:
        """The solid piece (:meth:`solid_footprints`; destructibles and other :attr:`moving` pieces
        excepted, a ride knocks them aside) that a base with this (N, 2) outline standing at
        ``level`` overlaps by more than :data:`~entropy3d.systems.entropy_city.rest.INSIDE_TOLERANCE_IN`, and how
        deep (inches: the furthest a point of either outline lies inside the other); None when the
        base is clear."""
        from entropy3d.systems.entropy_city.rest import INSIDE_TOLERANCE_IN

        outline = np.asarray(outline, float)
        base = shapely.Polygon(outline)
        edge = points = None
        deepest = None
        for footprint in self.solid_footprints(level, ("destructible",)):
            if footprint.piece_id in self.moving or not footprint.outline.intersects(base):
                continue
            if points is None:
                points, edge = shapely.points(outline), base.exterior
            into = shapely.contains_xy(footprint.outline, outline[:, 0], outline[:, 1])
            depth = float(shapely.distance(footprint.outline.exterior, points[into]).max()) if into.any() else 0.0
            corners = np.asarray(footprint.outline.exterior.coords)
            held = shapely.contains_xy(base, corners[:, 0], corners[:, 1])
            if held.any():
                depth = max(depth, float(shapely.distance(edge, shapely.points(corners[held])).max()))
            if depth > INSIDE_TOLERANCE_IN and (deepest is None or depth > deepest[1]):
                deepest = (footprint.piece_id, depth)
        return deepest

    def rest_level(self, xy: np.ndarray, z: float) -> float:
        """Height (inches) of the highest static surface under ``xy`` no more than
        :data:`LEVEL_CLEARANCE_IN` above ``z``: what a bike at height ``z`` rests on (0, the table's
        level, where there is none)."""
        point = np.asarray(xy, float).reshape(1, 2)
        return float(self._surfaces.surface_height(point, below=z + LEVEL_CLEARANCE_IN, static_only=True)[0])

    def rest_levels(self, points: np.ndarray, z: float) -> np.ndarray:
        """:meth:`rest_level` under each of the (N, 2) ``points`` (inches), in one cast."""
        points = np.atleast_2d(np.asarray(points, float))
        return self._surfaces.surface_height(points, below=z + LEVEL_CLEARANCE_IN, static_only=True)

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
