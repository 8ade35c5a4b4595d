"""The shared table's facts in the plain terms a game system reads (:mod:`entropy3d.systems.readings`).

A producer-level module like :mod:`entropy3d.geometric`: it turns line-of-sight results and a
ride's :class:`~entropy3d.core.facts.Facts` into :class:`~entropy3d.systems.readings.Sighting` and
:class:`~entropy3d.systems.readings.Impact` values and decides no rule. Every system reads the same
facts, so a new system changes nothing here.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping, Sequence

import numpy as np
import shapely

from entropy3d.core.facts import Facts
from entropy3d.geometry import BaseShape, Pose, normalize_deg, storey_of
from entropy3d.systems.readings import MINIATURE_SURFACE, Impact, LevelChange, RiddenMove, Sighting
from entropy3d.units import GRAVITY_M_S2, TableScale

#: inches above a landing's height from which the surface it came down on is looked for
LANDING_PROBE_ABOVE_IN = 0.25
#: a flight's ``from_kind`` when what it left was a miniature's top (another model's, or a wreck's:
#: the same hull, scene.probe.obstacle_kind), not the table
MINIATURE_KINDS = ("model", "wreck")
#: inches a landing may stand over the table's surface under its centre and still be on that
#: surface (a base resting across a low edge); higher, it came down on a miniature (a bike and
#: rider are ~1.8" tall), which is no surface: the fall goes on down to the table
ON_THE_TABLE_IN = 0.5


def bearing_deg(pose: Pose, point_xy) -> float:
    """Degrees (0-180) between the way ``pose`` faces and the direction to ``point_xy``."""
    offset = np.asarray(point_xy, float) - pose.xy
    if not np.any(offset):
        return 0.0
    along = float(np.clip(np.dot(offset / np.linalg.norm(offset), pose.forward), -1.0, 1.0))
    return math.degrees(math.acos(along))


def level_change(model: str, from_z_in: float, to_z_in: float, storey_in: float) -> LevelChange:
    """The storeys a move started and ended on, from the heights (inches) of the surfaces under
    the model before and after it (the game state's poses)."""
    return LevelChange(model, storey_of(from_z_in, storey_in), storey_of(to_z_in, storey_in))


def nearer_viewer(outline_xy: np.ndarray, viewer_xy, target_xy) -> bool:
    """Whether a blocker whose plan points are ``outline_xy`` ((N, 2) inches: a piece's corners,
    a miniature's base centre) stands nearer ``viewer_xy`` than ``target_xy``: the distance to
    its convex outline, 0 from inside it. A tie (a wall halfway) is the target's."""
    hull = shapely.MultiPoint(np.asarray(outline_xy, float).reshape(-1, 2)).convex_hull
    return hull.distance(shapely.Point(*viewer_xy)) < hull.distance(shapely.Point(*target_xy))


def sightings(world, poses: Mapping[str, Pose | None] | None = None,
              pairs: Sequence[tuple[str, str]] | None = None, results: Mapping | None = None) -> list[Sighting]:
    """What every viewer sees of every target (``pairs``, default every ordered pair), from a
    :class:`~entropy3d.los.LosWorld`: distance and bearing between base centres, the true-LOS
    visible share, the surface heights and what blocks the rays (with their terrain).
    ``results``: the world's ``all_pairs`` answer for these poses, when already asked."""
    minis = world.miniatures(poses)
    results = results if results is not None else world.all_pairs(poses, pairs=pairs)
    pieces = {piece.id: piece for piece in world.pieces}
    storey = world.rules.level_height_in
    found = []
    for (viewer, target), result in results.items():
        a, b = minis[viewer].pose, minis[target].pose
        blockers = tuple(sorted(set(result.true_los.blockers)))
        near = tuple(nearer_viewer(pieces[k].mesh.vertices[:, :2] if k in pieces else minis[k].pose.xy, a.xy, b.xy)
                     for k in blockers)
        found.append(Sighting(
            viewer, target, float(np.linalg.norm(b.xy - a.xy)), bearing_deg(a, b.xy),
            float(result.true_los.visible_fraction), float(a.z), float(b.z),
            storey_of(a.z, storey), storey_of(b.z, storey), blockers,
            tuple(pieces[k].terrain if k in pieces else MINIATURE_SURFACE for k in blockers),
            tuple(float(pieces[k].top) if k in pieces else float(minis[k].top) for k in blockers),
            (minis[viewer].base.length, minis[viewer].base.width),
            (minis[target].base.length, minis[target].base.width), near))
    return found


def speed_before_in_s(trajectory: np.ndarray, t_s: float) -> float:
    """Speed over the ground and up or down (inches per second) over the last trajectory step
    that ends before ``t_s``, the time of an impact: the step that holds the impact is already
    slowed by it (a bike at 40 kph read 13.5 kph from it). An impact in the ride's first step
    reads that step; 0 when the ride has fewer than two samples by then."""
    rows = np.asarray(trajectory, float)
    k = int(np.searchsorted(rows[:, 0], t_s, side="left")) - 1
    if k < 1:
        k = int(np.searchsorted(rows[:, 0], t_s, side="right")) - 1
    if k < 1:
        return 0.0
    step = rows[k, 1:4] - rows[k - 1, 1:4]
    dt = rows[k, 0] - rows[k - 1, 0]
    return float(np.linalg.norm(step) / dt) if dt > 0 else 0.0


def impacts(model: str, facts: Facts, scale: TableScale, geometry, stood_z_in: float | None = None) -> list[Impact]:
    """The ride's contacts and landings as impacts in depicted metres and seconds, in time order.

    geometry: the :class:`~entropy3d.scene.build.TableGeometry` whose pieces' terrains are the
    materials hit (None where a piece has none: the system decides; another miniature is
    :data:`MINIATURE_SURFACE`). A landing's fall height is from the top of the
    flight (its launch height plus its rise) down to where it came down.

    stood_z_in: where the game stood the model (inches) when its ride ended in the air (the
    state after the ride): a flight still in the air then comes down there, at the end of the
    ride, at its last speed plus what the rest of the drop adds under gravity. Without it such a
    flight is left out. A flight that began in the air is the end of one that left a surface in
    an earlier ride, and was a fall there: it is no second fall.

    A miniature is no surface to fall onto (issue 46: on rooftop_fall, seed 1, physics, the
    spotter rode off the bridge, came down on Brick's rider 1.8" up and rolled off him into the
    yard, and was ruled two falls, 3.36 m and 2.60 m): a landing more than :data:`ON_THE_TABLE_IN`
    over the table's surface under it fell on down to that surface (5.96 m, as the geometric
    producer, whose flights pass over miniatures, measures it), and the flight off a miniature's
    top is no fall of its own."""
    terrain = {piece.id: piece.terrain for piece in geometry.pieces}
    found = []
    for contact in facts.contacts:
        surface = MINIATURE_SURFACE if contact.kind == "model" else terrain.get(contact.piece_id)
        found.append(Impact(model, "contact", contact.piece_id, surface,
                            scale.metres(speed_before_in_s(facts.trajectory, contact.t_s)),
                            angle_deg=contact.angle_deg, t_s=contact.t_s))
    for flight in facts.flights:
        if flight.from_kind == "air" or flight.from_kind in MINIATURE_KINDS:
            continue
        if flight.landed:
            land_xy, land_z, t_s = flight.land_xy, flight.land_z, flight.land_t_s
            speed_m_s = scale.metres(speed_before_in_s(facts.trajectory, t_s))
            table_z = float(geometry.surface_height(land_xy, below=land_z + LANDING_PROBE_ABOVE_IN)[0])
            if land_z - table_z > ON_THE_TABLE_IN:  # on a miniature: down to the table under it
                land_z = table_z
        elif stood_z_in is not None:
            land_xy, land_z, speed_m_s, t_s = _still_flying(facts.trajectory, stood_z_in, scale)
        else:
            continue
        drop_in = flight.launch_z + flight.rise_in - land_z
        surface = geometry.surface_terrain(land_xy, below=land_z + LANDING_PROBE_ABOVE_IN)
        found.append(Impact(model, "fall", None, surface, speed_m_s, drop_m=scale.metres(max(drop_in, 0.0)), t_s=t_s))
    return sorted(found, key=lambda impact: impact.t_s)


def _still_flying(trajectory: np.ndarray, stood_z_in: float, scale: TableScale):
    """Where, how fast (m/s) and when a ride that ended in the air comes down at ``stood_z_in``:
    below its last point, at its last speed with the rest of the drop's fall added
    (v^2 = v_end^2 + 2 g h), at the ride's last time."""
    rows = np.asarray(trajectory, float)
    end = rows[-1]
    v_end_m_s = scale.metres(speed_before_in_s(rows, float(end[0]) + 1.0))
    rest_m = scale.metres(max(float(end[3]) - stood_z_in, 0.0))
    speed_m_s = math.sqrt(v_end_m_s ** 2 + 2.0 * GRAVITY_M_S2 * rest_m)
    return (float(end[1]), float(end[2])), stood_z_in, speed_m_s, float(end[0])


def ride_cut(facts: Facts, inches: float) -> Facts | None:
    """The ride of ``facts`` as far as ``inches`` over the ground (table inches): its trajectory
    up to there (the last row between two ridden rows), ending there, having run into nothing;
    None when the ride never went further than ``inches``."""
    rows = np.asarray(facts.trajectory, float)
    if len(rows) < 2:
        return None
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(rows[:, 1:3], axis=0).T))])
    if along[-1] <= inches:
        return None
    k = max(int(np.searchsorted(along, inches)), 1)
    share = (inches - along[k - 1]) / max(along[k] - along[k - 1], 1e-9)
    last = rows[k - 1] + share * (rows[k] - rows[k - 1])
    cut = np.vstack([rows[:k], last[None, :]])
    end = Pose(float(last[1]), float(last[2]), normalize_deg(float(last[4])), float(last[3]))
    return dataclasses.replace(facts, progress_in=float(inches), completed=False, trajectory=cut, contacts=(),
                               scenery=(), flights=(), edge=None, edge_kind=None, end_pose=end)


def ridden_move(model: str, facts: Facts, probe, base: BaseShape | None = None) -> RiddenMove:
    """A ride's :class:`~entropy3d.systems.readings.RiddenMove`: how far, over which terrain (the
    :class:`~entropy3d.scene.probe.SceneProbe`'s surfaces under the ridden trajectory at its
    starting level), how it turned, what it went through or ran into, and the solid piece
    nearest its end (with ``base``, the model's: where it would stand moved into that piece)."""
    rows = np.asarray(facts.trajectory, float)
    if len(rows) < 2:
        return RiddenMove(model, float(facts.progress_in))
    steps = np.hypot(*np.diff(rows[:, 1:3], axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(steps)])
    _, names = probe.level_under(rows[:, 1:3], float(rows[0, 3]))
    terrain: dict[str, float] = {}
    for name, step in zip(names[:-1], steps):
        if name:
            terrain[name] = terrain.get(name, 0.0) + float(step)
    end = rows[-1]
    nearest = probe.nearest_solid(end[1:3], float(end[3]))
    touching = None if nearest is None or base is None else base.moved_to_touch(facts.end_pose, nearest[2])
    return RiddenMove(
        model, float(facts.progress_in),
        tuple(sorted(((k, round(v, 4)) for k, v in terrain.items()), key=lambda item: -item[1])),
        tuple((float(a), float(h)) for a, h in zip(along, rows[:, 4])),
        tuple(hit.piece_id for hit in facts.scenery), tuple(contact.piece_id for contact in facts.contacts),
        None if nearest is None else nearest[0], None if nearest is None else float(nearest[1]), touching)
