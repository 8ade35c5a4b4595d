"""What the levels map marks besides the levels: where a jump off each kicker lands, and the drop
edges a bike can ride off.

A kicker's landing is the rules' (EC-JUMP-4, :func:`~entropy3d.systems.entropy_city.events.resolve_jump`): a
bike that leaves it at a speed with air time lands the maximum distance of that speed for its bike
type from take-off, straight on along the ramp (a bike in the air keeps its heading). The take-off
is the kicker's top end, where both producers find the level falling away. So the map shows, for
each speed with air time, the span of landings of the table's bike types.

A drop edge is a stretch of a deck's or a roof's edge where the level beyond lies more than a step
(``ride.step_height_in``) lower and nothing solid (a railing, a wall) stands in the way: riding off
it is a jump (EC-JUMP-1). Only the decks and roofs a bike can get onto are asked: those a ramp
leads up to, a kicker stands on, a jump lands on or a bike starts on, and every deck or roof
joined to one of them at the same height. Lengths are table inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.polygon import orient

from entropy3d.errors import RulesDataError
from entropy3d.scene.footprints import footprints_of
from entropy3d.scene.probe import SceneProbe

RAISED_KINDS = ("platform", "building")
#: spacing (inches) of the points along an edge asked whether it drops
EDGE_STEP_IN = 0.25
#: how far (inches) beyond an edge its level below is read, and inside it what stands on it
BEYOND_IN, INSIDE_IN = 0.3, 0.15
#: a drop edge shorter than this (inches) is a corner's rounding, not a place to ride off
MIN_DROP_EDGE_IN = 0.75
#: drops within this many inches of each other are one drop edge
SAME_DROP_IN = 0.05
#: pieces a bike rides through rather than meeting as a wall
RIDDEN_THROUGH = ("destructible",)


@dataclass(frozen=True)
class LandingSpan:
    """Where a jump off kicker ``ramp_id`` at ``speed`` lands: ``near_in``..``far_in`` from the
    take-off ``takeoff_xy`` straight on along ``heading_deg`` (the shortest and the longest
    landing of the table's bike types, ``by_bike_type`` bike type -> inches), ``width_in`` across."""

    ramp_id: str
    speed: int
    near_in: float
    far_in: float
    takeoff_xy: tuple[float, float]
    heading_deg: float
    width_in: float
    by_bike_type: dict

    def point(self, distance_in: float) -> np.ndarray:
        """The table point ``distance_in`` from take-off along the flight."""
        heading = math.radians(self.heading_deg)
        return np.asarray(self.takeoff_xy) + distance_in * np.array([math.cos(heading), math.sin(heading)])

    def outline(self) -> shapely.Polygon:
        """The span's footprint: near to far along the flight, the kicker's width across."""
        heading = math.radians(self.heading_deg)
        side = np.array([-math.sin(heading), math.cos(heading)]) * self.width_in / 2
        near, far = self.point(self.near_in), self.point(max(self.far_in, self.near_in + 0.1))
        return shapely.Polygon([near + side, far + side, far - side, near - side])


@dataclass(frozen=True)
class DropEdge:
    """A stretch ``a``..``b`` (xy inches) of ``piece_id``'s edge a bike rides off, ``drop_in``
    down to the level beyond; ``outward`` is the unit vector off the edge."""

    piece_id: str
    a: tuple[float, float]
    b: tuple[float, float]
    drop_in: float
    outward: tuple[float, float]

    @property
    def line(self) -> shapely.LineString:
        return shapely.LineString([self.a, self.b])


def bike_types_on(table) -> list[str]:
    """The bike types ridden on ``table`` (every type of its rules when no model rides one); a
    chase's cars and vans are no bike and take no jump (EC-JUMP-4 gives bikes' distances)."""
    ridden = sorted({model.bike_type for model in table.models
                     if not model.on_foot and model.bike_type in table.ruleset.bike_types})
    return ridden or sorted(table.ruleset.bike_types)


def landing_spans(table, leads) -> list[LandingSpan]:
    """The rules' landings of every kicker among ``leads`` (:func:`~entropy3d.render.levels_map.ramp_leads`
    rows; a kicker's top leads to no level) at each speed with air time; none when the rules
    land a jump elsewhere (option ``jump_landing``: where it comes down) or have no jumps."""
    from entropy3d.systems.entropy_city.events import resolve_jump

    ruleset = table.ruleset
    try:
        if ruleset.option("jump_landing") != "launch_speed_max":
            return []
        speeds = sorted(ruleset.speeds)
        bike_types = bike_types_on(table)
        found = {speed: {bike_type: resolve_jump(speed, bike_type, ruleset) for bike_type in bike_types}
                 for speed in speeds}
    except RulesDataError:
        return []
    ramps = {ramp.id: ramp for ramp in table.spec.ramps}
    spans = []
    for ramp_id, _, high, _, top in leads:
        if top is not None:
            continue
        for speed, results in found.items():
            distances = {bike: result.landing_distance_in for bike, result in results.items() if result.air_time}
            if distances:
                spans.append(LandingSpan(ramp_id, speed, min(distances.values()), max(distances.values()),
                                         (float(high[0]), float(high[1])), float(ramps[ramp_id].heading),
                                         float(ramps[ramp_id].width), distances))
    return spans


def ridden_pieces(table, geometry, leads, spans, probe: SceneProbe) -> set[str]:
    """Ids of the decks and roofs a bike can get onto (see the module's note)."""
    raised = {}
    for footprint in footprints_of(geometry):
        if footprint.kind in RAISED_KINDS:
            raised.setdefault(footprint.piece_id, []).append(footprint)
    outlines = {pid: shapely.union_all([f.outline for f in parts]) for pid, parts in raised.items()}
    tops = {pid: max(f.top for f in parts) for pid, parts in raised.items()}

    def under(xy, height: float) -> set[str]:
        point = shapely.Point(*map(float, xy))
        return {pid for pid, outline in outlines.items() if abs(tops[pid] - height) <= probe.step_height_in
                and outline.distance(point) <= 0.05}

    ramps = {ramp.id: ramp for ramp in table.spec.ramps}
    reached: set[str] = set()
    for ramp_id, low, high, _, top in leads:
        ramp = ramps[ramp_id]
        forward = np.subtract(high, low) / max(1e-9, float(np.hypot(*np.subtract(high, low))))
        reached |= under(np.asarray(low) - forward * 0.3, ramp.base_height)
        if top is not None:
            reached |= under(np.asarray(high) + forward * 0.3, top.height_in)
    for span in spans:
        for distance in (span.near_in, span.far_in):
            point = span.point(distance)
            heights, _ = probe.level_under(point[None, :], 1e6)
            reached |= under(point, float(heights[0]))
    for model in table.models:
        if not model.on_foot and len(model.position) > 2 and model.position[2] > probe.step_height_in:
            reached |= under(model.position[:2], float(model.position[2]))
    frontier = list(reached)
    while frontier:
        piece = frontier.pop()
        for other, outline in outlines.items():
            if other not in reached and abs(tops[other] - tops[piece]) <= probe.step_height_in \
                    and outline.distance(outlines[piece]) <= 0.05:
                reached.add(other)
                frontier.append(other)
    return reached


def drop_edges(table, geometry, leads, spans) -> list[DropEdge]:
    """Every drop edge of the decks and roofs a bike can get onto, each stretch of one drop
    height as one :class:`DropEdge`; a table's own edge is no drop edge (riding off it leaves the
    table, or is the cliff)."""
    probe = SceneProbe.from_table(table, geometry)
    reached = ridden_pieces(table, geometry, leads, spans, probe)
    found = []
    for piece_id in sorted(reached):
        parts = [f for f in footprints_of(geometry) if f.piece_id == piece_id]
        top = max(f.top for f in parts)
        outline = shapely.union_all([f.outline for f in parts])
        for polygon in getattr(outline, "geoms", [outline]):
            ring = np.asarray(orient(polygon, 1.0).exterior.coords)  # counter-clockwise: outward is right
            found += _edge_drops(piece_id, ring, top, probe)
    return found


def _edge_drops(piece_id: str, ring: np.ndarray, top: float, probe: SceneProbe) -> list[DropEdge]:
    """The drop edges along one counter-clockwise ``ring`` of a piece whose top is ``top``."""
    points, outward = [], []
    for p, q in zip(ring[:-1], ring[1:]):
        length = float(np.hypot(*(q - p)))
        if length < 1e-6:
            continue
        along = (q - p) / length
        count = max(1, int(round(length / EDGE_STEP_IN)))
        for k in range(count):
            points.append(p + along * length * (k + 0.5) / count)
            outward.append(np.array([along[1], -along[0]]))
    points, outward = np.asarray(points), np.asarray(outward)
    beyond = points + outward * BEYOND_IN
    heights, _ = probe.level_under(beyond, top)
    drops = top - heights
    on_table = ~probe.off_table(beyond)
    open_edge = ~probe.blocked(points - outward * INSIDE_IN, top, RIDDEN_THROUGH, clearance=INSIDE_IN + 0.05)
    falls = on_table & open_edge & np.isfinite(drops) & (drops > probe.step_height_in)
    runs, current = [], []
    for k in range(len(points)):
        if falls[k] and current and abs(drops[k] - drops[current[-1]]) <= SAME_DROP_IN \
                and np.hypot(*(points[k] - points[current[-1]])) <= 2 * EDGE_STEP_IN:
            current.append(k)
            continue
        if current:
            runs.append(current)
        current = [k] if falls[k] else []
    if current:
        runs.append(current)
    if len(runs) > 1 and runs[0][0] == 0 and runs[-1][-1] == len(points) - 1 \
            and abs(drops[0] - drops[-1]) <= SAME_DROP_IN:  # the ring's start cut one edge in two
        runs[0] = runs.pop() + runs[0]
    edges = []
    for run in runs:  # a run round a corner is cut at it: each straight stretch is its own edge
        run = np.asarray(run)
        turns = np.flatnonzero(np.any(np.abs(np.diff(outward[run], axis=0)) > 1e-6, axis=1)) + 1
        for stretch in np.split(run, turns):
            if len(stretch) * EDGE_STEP_IN < MIN_DROP_EDGE_IN:
                continue
            along = np.array([-outward[stretch[0]][1], outward[stretch[0]][0]]) * EDGE_STEP_IN / 2
            edges.append(DropEdge(piece_id, tuple(map(float, points[stretch[0]] - along)),
                                  tuple(map(float, points[stretch[-1]] + along)), float(np.median(drops[stretch])),
                                  tuple(map(float, outward[stretch[0]]))))
    return edges
