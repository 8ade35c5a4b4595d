"""The geometric fact producer: rides a checked action over the table's footprints and levels,
with no dynamics and no physics engine, and reports :class:`~entropy3d.core.facts.Facts`.

It is the tabletop way of moving a miniature, made exact: the base follows its planned path on
the level it stands on, climbing what is no higher than a step (``ride.step_height_in``) and
ramps; where the level under it falls away (a ramp's lip, a deck's edge) it flies a ballistic
arc with the depicted world's gravity at its speed's velocity, straight on along its heading
(no control in the air), until it comes down, and rides on from the path's point nearest
there; where the front of its base meets a wall, another model or a destructible it reports a
contact. It is fast (no world to build) and needs no display or engine, so tests, the viewer's
previews and sweeps can use it. What it cannot see: debris knocked about, a bike deflected by
a glancing hit, a base still carried by its rear past a level's edge (its centre leaves first
here). All lengths are table inches, times seconds.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from entropy3d.core.facts import Contact, Facts, Flight, SceneryHit
from entropy3d.geometry import Pose, progress_lookup
from entropy3d.scene.build import level_below
from entropy3d.scene.probe import (
    GROUND_BEYOND_IN,
    SceneProbe,
    ground_profile,
    models_in_the_way,
    obstacle_kind,
    piece_side,
)
from entropy3d.systems.entropy_city.combat import base_gap_in
from entropy3d.systems.entropy_city.riding import full_distance_in
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import Action
from entropy3d.units import GRAVITY_M_S2

FLIGHT_DT_S = 1.0 / 120.0
#: a flying base this close above a level (inches) has come down on it
TOUCHDOWN_IN = 0.05
#: inches between the points under a flight where the levels are found
LINE_SPACING_IN = 0.25


class GeometricProducer:
    """Rides actions over footprints and levels (no physics engine).

    margin_in: grows the front of the base by this much (inches) when meeting walls, for players
    who look ahead and want room to spare (physics rides a box around the oval base); 0 for facts.
    """

    name = "geometric"

    def __init__(self, table, geometry, probe: SceneProbe | None = None, margin_in: float = 0.0):
        self.margin_in = float(margin_in)
        self.table = table
        self.geometry = geometry
        self.ruleset = table.ruleset
        self.probe = probe if probe is not None else SceneProbe.from_table(table, geometry)
        self.step_in = float(self.ruleset.data("ride.step_height_in"))
        self.height_in = float(self.ruleset.bike_height_in + self.ruleset.rider_height_in)
        self.destructibles = [f for f in self.probe.footprints if f.kind == "destructible"]

    def close(self) -> None:
        """Nothing to release (the same call as the physics producer's)."""

    def _levels(self, path: np.ndarray, lengths: np.ndarray, headings: np.ndarray):
        """A function (distance along the path, below) -> the highest static level under that
        point lower than ``below``: every surface under the path and its straight extension is
        found with one batch of rays."""
        total = float(lengths[-1])
        heading = math.radians(float(headings[-1]))
        beyond = np.arange(total + 0.25, total + GROUND_BEYOND_IN, 0.25)
        points = np.vstack([path, path[-1] + (beyond - total)[:, None] * [math.cos(heading), math.sin(heading)]])
        along = np.concatenate([lengths, beyond])
        stacks = self.geometry.surface_stacks(points, static_only=True)

        def level(distance: float, below: float) -> float:
            k = min(max(int(np.searchsorted(along, distance - 1e-9)), 0), len(along) - 1)
            return level_below(stacks[k], below)

        return level

    def ride(self, state: State, action: Action) -> Facts:
        """What happens on the table when ``action`` (checked) is ridden from ``state`` (walked,
        for a model on foot: :func:`walk`)."""
        ruleset = self.ruleset
        model = state.model(action.model_id)
        if model.on_foot:
            return walk(state, action, self.probe, self.geometry)
        move = action.move
        path, headings = np.asarray(move.path, float), np.asarray(move.headings_deg, float)
        lengths = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
        total = float(lengths[-1])
        speed = full_distance_in(move, ruleset) / ruleset.scale.seconds_per_activation
        slice_s = ruleset.scale.seconds_per_activation
        base = ruleset.base_for(model.bike_type)
        others = models_in_the_way(state, model.id, ruleset)
        g_in = GRAVITY_M_S2 / ruleset.scale.metres_per_inch
        level_at = self._levels(path, lengths, headings)
        progress_at = progress_lookup(path)

        z = float(model.pose.z)
        rows: list[tuple] = []  # trajectory rows: t, x, y, z, heading
        along: list[float] = []  # distance along the path of each row
        contacts: list[Contact] = []
        hits: list[SceneryHit] = []
        flights: list[Flight] = []
        edge = None
        s_stop = 0.0
        prev_s, prev_z = 0.0, z
        k = 0
        # (seconds, inches along) the ground ride goes on from: the start, then each landing (a
        # flight covers the path at its own pace: timed from the start, the clock would go back)
        from_t, from_s = 0.0, 0.0
        while k < len(path):
            s, xy, heading = float(lengths[k]), path[k], float(headings[k])
            t = from_t + (s - from_s) / speed
            launch = None  # (speed along, speed up, piece left, its kind, drop) when it leaves the ground
            if model.air is not None and k == 0:
                vx, vy, vz = model.air.velocity_in_s
                launch = (math.hypot(vx, vy) or speed, vz, None, "air", 0.0)
            else:
                edge = self.probe.edge_crossed(xy[None, :])
                if edge is not None:
                    s_stop = s
                    break
                pose = Pose(float(xy[0]), float(xy[1]), heading, z)
                before = Pose(float(path[k - 1][0]), float(path[k - 1][1]), float(headings[k - 1]), z) if k else pose
                # climbing, the front of the base is higher than its centre by the slope over half
                # its length: a ramp's top meets a deck level with it, not the deck's side
                climb = max(0.0, (z - prev_z) / (s - prev_s)) if s > prev_s else 0.0
                contact = self._contact(pose, base, z, others, s, t, k, level_at, before,
                                        nose_level=z + climb * 0.5 * base.length)
                if contact is not None:
                    contacts.append(contact)
                    break
                self._scenery(pose, base, s, t, hits, state)
                rows.append((t, float(xy[0]), float(xy[1]), z, heading))
                along.append(s)
                s_stop = s
                ahead = level_at(float(lengths[k + 1]), below=z + self.step_in) if k + 1 < len(path) else z
                if ahead < z - self.step_in:  # the level falls away: it leaves the ground
                    angle = math.atan(max(0.0, (z - prev_z) / max(s - prev_s, 1e-9)))
                    launch = (speed * math.cos(angle), speed * math.sin(angle), *self._standing_on(xy, z), z - ahead)
                prev_s, prev_z, z = s, z, ahead
            if launch is None:
                k += 1
                continue
            along_v, up_v, piece, kind, drop = launch
            flight, land_k, s_end = self._fly(path, lengths, k, flight_heading(model, k, heading),
                                              prev_z if kind != "air" else z, along_v, up_v, t, g_in, slice_s,
                                              rows, along, piece, kind, drop, progress_at)
            flights.append(flight)
            if land_k is None:
                s_stop = min(s_end, total)
                edge = self.probe.edge_crossed(np.atleast_2d(rows[-1][1:3]))  # it flew off the table
                break
            k, z = land_k, float(flight.land_z)
            prev_s, prev_z = float(lengths[k]), z
            from_t, from_s = float(flight.land_t_s), prev_s
        completed = not contacts and edge is None and s_stop >= total - 1e-6
        if not rows:
            rows, along = [(0.0, *map(float, model.pose.xy), z, model.pose.facing_deg)], [0.0]
        trajectory = np.array(rows, float)
        last = trajectory[-1]
        end = Pose(float(last[1]), float(last[2]), float(last[4]) % 360.0, float(last[3]))
        heights = np.column_stack([along, trajectory[:, 3]])
        ground = ground_profile(self.geometry, path, heights, float(end.z))
        velocity = (0.0, 0.0, 0.0)
        if flights and not flights[-1].landed:
            h = math.radians(end.facing_deg)
            velocity = (speed * math.cos(h), speed * math.sin(h), 0.0)
        return Facts("geometric", total, min(s_stop, total), completed, trajectory, tuple(contacts), tuple(hits),
                     tuple(flights), None if edge is None else edge[0], None if edge is None else edge[1], end,
                     velocity, ground)

    # -- what the base meets ---------------------------------------------------------------------

    def _contact(self, pose: Pose, base, level: float, others, s: float, t: float, k: int, level_at,
                 previous: Pose, nose_level: float | None = None) -> Contact | None:
        """The first solid thing the front of the base runs into at this point (coming from
        ``previous``), if any. ``nose_level``: the height (inches) of the ground under the front
        of the base, where walls are looked for (``level``, the centre's, when not given)."""
        def nose(at: Pose) -> np.ndarray:
            front = at.xy + (0.5 * base.length + self.margin_in) * at.forward
            side = 0.45 * base.width + self.margin_in
            return np.array([front, front + side * at.left, front - side * at.left])

        corners, before = nose(pose), nose(previous)
        front = corners[0]
        if k == 0:
            return None  # a bike that starts touching something and rides away does not hit it
        low, high = corners.min(axis=0), corners.max(axis=0)
        for footprint in self.probe.solid_footprints(level if nose_level is None else nose_level,
                                                     kinds_ignored=("destructible",)):
            x0, y0, x1, y1 = footprint.plan_box
            if x0 > high[0] or x1 < low[0] or y0 > high[1] or y1 < low[1]:
                continue  # no corner lies in the outline's box, so none in the outline
            inside = shapely.contains_xy(footprint.outline, corners[:, 0], corners[:, 1])
            if inside.any():
                j = int(np.argmax(inside))
                return self._wall(footprint, corners[j], before[j], pose, s, t, level)
        over = level_at(s, below=level + self.height_in)
        if over > level + self.step_in:  # a surface too high to ride onto under the base: a ramp's side
            for footprint in self.probe.footprints:
                if abs(footprint.top - over) < 0.05 or (footprint.kind == "ramp" and footprint.bottom < over
                                                        < footprint.top + 1e-6):
                    if shapely.contains_xy(footprint.outline, pose.x, pose.y):
                        return self._wall(footprint, pose.xy, previous.xy, pose, s, t, level)
        for other, other_base in others:
            reach = base.radius + other_base.radius  # farther apart than this, bases cannot touch
            # a base already touching another that rides away from (or along) it is not hitting it
            closing = math.hypot(*(other.pose.xy - pose.xy)) < math.hypot(*(other.pose.xy - previous.xy)) - 1e-6
            if (closing and abs(other.pose.z - level) < self.height_in and abs(other.pose.x - pose.x) < reach
                    and abs(other.pose.y - pose.y) < reach and base_gap_in(pose, base, other.pose, other_base) <= 0.0):
                # the way in is the reversed outward normal of the other base's edge where it
                # is nearest to this base's front
                normal = other_base.edge_normal(other.pose, front)
                into_deg = math.degrees(math.atan2(-normal[1], -normal[0])) % 360.0
                return Contact(other.id, obstacle_kind(other), s, t, pose.facing_deg % 360.0, into_deg,
                               (*map(float, front), level))
        return None

    @staticmethod
    def _wall(footprint, point, before, pose: Pose, s: float, t: float, level: float) -> Contact:
        """A contact with ``footprint`` where the base's ``point`` (coming from ``before``) went in;
        the way into it is the reversed outward normal of the outline edge it crossed (else of the
        nearest edge)."""
        ring = np.asarray(footprint.outline.exterior.coords)
        centre = np.asarray(footprint.outline.centroid.coords[0])
        crossing = shapely.LineString([before, point])
        edge = None
        for a, b in zip(ring[:-1], ring[1:]):
            if shapely.intersects(crossing, shapely.LineString([a, b])):
                edge = (a, b)
                break
        if edge is None:
            nearest = np.asarray(shapely.get_coordinates(
                shapely.shortest_line(shapely.get_exterior_ring(footprint.outline), shapely.Point(point))))[0]
            k = int(np.argmin([shapely.distance(shapely.LineString([a, b]), shapely.Point(nearest))
                               for a, b in zip(ring[:-1], ring[1:])]))
            edge = (ring[k], ring[k + 1])
        a, b = edge
        normal = np.array([b[1] - a[1], a[0] - b[0]])
        if np.dot(normal, 0.5 * (a + b) - centre) < 0:
            normal = -normal  # outward
        into_deg = math.degrees(math.atan2(-normal[1], -normal[0])) if np.hypot(*normal) > 1e-9 else pose.facing_deg
        return Contact(footprint.piece_id, footprint.kind, s, t, pose.facing_deg % 360.0, into_deg % 360.0,
                       (float(point[0]), float(point[1]), level))

    def _scenery(self, pose: Pose, base, s: float, t: float, hits: list, state: State) -> None:
        """Destructibles the base runs into (each once)."""
        front = pose.xy + 0.5 * base.length * pose.forward
        done = {h.piece_id for h in hits}
        reach = 0.3 * base.width
        near = reach * (1.0 + 1e-9) + 1e-9  # the box test's reach, wider than rounding
        for footprint in self.destructibles:
            if footprint.piece_id in done:
                continue
            spot = state.scenery.get(footprint.piece_id)
            if spot is not None and spot.removed:
                continue
            dx, dy = (spot.dx, spot.dy) if spot is not None else (0.0, 0.0)
            x0, y0, x1, y1 = footprint.plan_box
            if (x0 + dx - near > front[0] or x1 + dx + near < front[0] or y0 + dy - near > front[1]
                    or y1 + dy + near < front[1]):
                continue  # farther than the reach from the outline's box, so from the outline
            outline = footprint.outline if spot is None else shapely.affinity.translate(footprint.outline, spot.dx,
                                                                                       spot.dy)
            if shapely.dwithin(outline, shapely.Point(front), reach):
                piece = self.geometry.by_id(footprint.piece_id)
                side = piece_side(self.geometry, piece.id, (spot.dx, spot.dy) if spot else (0.0, 0.0), pose)
                hits.append(SceneryHit(piece.id, int(piece.risk or 1), s, t, pose.facing_deg % 360.0, side))
                done.add(piece.id)

    def _standing_on(self, xy, level: float) -> tuple[str | None, str]:
        """The piece whose top the bike stands on at ``xy`` (highest first) and its kind."""
        point = shapely.Point(float(xy[0]), float(xy[1]))
        under = [f for f in self.probe.footprints if f.bottom - 0.05 <= level <= f.top + 0.05
                 and shapely.dwithin(f.outline, point, 0.05)]
        if not under:
            return None, "ground"
        best = min(under, key=lambda f: (f.kind != "ramp", abs(f.top - level)))
        return best.piece_id, best.kind

    def _fly(self, path, lengths, k, heading_deg, z, v_along, v_up, t, g_in, slice_s, rows, along, from_piece,
             from_kind, drop_in, progress_at):
        """A ballistic arc from path point ``k`` straight on along ``heading_deg`` (degrees): with its
        wheels off the ground a bike has no control, so it does not follow the path's turns (as
        physics flies it). Appends its rows; returns the flight, the path index it rides on from
        (the point of the path after the take-off nearest to where it came down; None: it came
        down past the path's end, or is still flying when the activation's time runs out) and
        the distance along the path it got to."""
        total = float(lengths[-1])
        start = np.asarray(path[k], float)
        direction = np.array([math.cos(math.radians(heading_deg)), math.sin(math.radians(heading_deg))])
        reach = v_along * (max(slice_s - t, 0.0) + FLIGHT_DT_S)
        flown = np.arange(0.0, reach + LINE_SPACING_IN, LINE_SPACING_IN)
        line = start + flown[:, None] * direction
        level_at = self._levels(line, flown, np.full(len(line), heading_deg))
        distance, height, vz, time = 0.0, z, v_up, t
        top = z
        first_row = len(rows)
        while True:
            distance += v_along * FLIGHT_DT_S
            vz -= g_in * FLIGHT_DT_S
            height += vz * FLIGHT_DT_S
            time += FLIGHT_DT_S
            top = max(top, height)
            xy = start + distance * direction
            ground = level_at(distance, below=height + TOUCHDOWN_IN)
            landed = height <= ground and vz < 0
            if landed:
                height = ground
            rows.append((time, float(xy[0]), float(xy[1]), float(height), float(heading_deg)))
            if landed or time >= slice_s or self.probe.off_table(np.atleast_2d(xy)).any():
                break
        along.extend(progress_at(np.array([row[1:3] for row in rows[first_row:]])).tolist())  # all at once
        s = along[-1]
        flight = Flight(from_piece, from_kind, float(lengths[k]), t, (float(start[0]), float(start[1])), float(z),
                        float(math.hypot(v_along, v_up)), drop_in=float(drop_in), rise_in=max(0.0, top - z),
                        land_progress_in=s if landed else None, land_t_s=time if landed else None,
                        land_xy=(float(xy[0]), float(xy[1])) if landed else None, land_z=height if landed else None)
        if landed and s <= total and k + 1 < len(path):  # on from a point past the take-off's: it moves on
            return flight, k + 1 + int(np.argmin(np.hypot(*(path[k + 1:] - xy).T))), s
        return flight, None, (total if landed else s)


def flight_heading(model, k: int, heading_deg: float) -> float:
    """The heading a flight goes straight on along, degrees: a bike carried over in the air from
    its last activation keeps its velocity's; one leaving the ground, the path's where it leaves."""
    if model.air is not None and k == 0:
        vx, vy, _ = model.air.velocity_in_s
        if math.hypot(vx, vy) > 1e-9:
            return math.degrees(math.atan2(vy, vx))
    return heading_deg


def walk(state: State, action: Action, probe: SceneProbe, geometry) -> Facts:
    """What happens when a model on foot walks ``action`` (checked): its figure follows the path
    on the level it stands on (a curb's step up or down followed), turning where it pivots; it
    stops where the path leaves the table. No dynamics and no contacts: the rules already kept
    the walk clear of walls and edges (EC-FOOT-MOVE), and a figure steps round bases in its way.
    Both producers walk a model this way (physics has no body for a figure). The walk takes one
    activation's move time (``scale.seconds_per_activation``), spread evenly over its points."""
    model, move = state.model(action.model_id), action.move
    path, headings = np.asarray(move.path, float), np.asarray(move.headings_deg, float)
    lengths = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
    off = probe.off_table(path)
    edge = probe.edge_crossed(path[off][:1]) if off.any() else None
    last = int(np.argmax(off)) - 1 if off.any() else len(path) - 1
    kept = max(0, last) + 1
    heights, _ = probe.level_under(path[:kept], float(model.pose.z))
    z = np.where(np.isfinite(heights), heights, float(model.pose.z))
    t = np.linspace(0.0, float(geometry.ruleset.scale.seconds_per_activation), len(path))[:kept]
    trajectory = np.column_stack([t, path[:kept], z, headings[:kept]])
    end = Pose(float(path[kept - 1, 0]), float(path[kept - 1, 1]), float(headings[kept - 1]) % 360.0, float(z[-1]))
    ground = ground_profile(geometry, path, np.column_stack([lengths[:kept], z]), float(end.z))
    edge_name, edge_kind = (None, None) if edge is None else edge
    return Facts("geometric", float(lengths[-1]), float(lengths[kept - 1]), edge is None, trajectory,
                 edge=edge_name, edge_kind=edge_kind, end_pose=end, ground=ground)

