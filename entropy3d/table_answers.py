"""The table's answers Entropy City's resolve reads, given with the facts before it resolves.

A producer-level module like :mod:`entropy3d.table_readings`: where
:func:`entropy3d.systems.entropy_city.transition.resolve` once asked the table itself in the middle of deciding
(issue 44: "Entropy City's ``resolve`` still asks the table"), the one path
(:func:`entropy3d.game.step.take`) now asks it here first and hands the answers over with the
ride's :class:`~entropy3d.core.facts.Facts`, so resolve decides from the state, the action, the
facts and the dice alone. Every answer is what the table shows, never what the rules make of it:

- :func:`watched_ride`: what each enemy on overwatch sees of the mover at each point of its ride
  within its gun's reach (the sight the rules' overwatch shot reads, EC-GUN-STOPPED, EC-COVER-1).
- :func:`rest_answer`: for each pose the rules may leave the ridden bike at
  (:func:`~entropy3d.systems.entropy_city.riding.end_poses`), the surface under it, the solid its base overlaps
  and, if one does, the nearest clear pose back along its path or around it (what
  :func:`~entropy3d.systems.entropy_city.rest.settle` reads, EC-TER-BUILDING).
- :func:`start_sights`: as a model's activation begins, what it sees of each enemy that may hide
  by Stealth and what each enemy on overwatch sees of it (EC-STEALTH).
- :func:`knock_rooms`: for each destructible a ride went into, how far it could be moved square to
  the bike's heading to either side before it meets something solid or leaves the table (where a
  rider who passes its test knocks it, EC-DEST-4).
- :func:`wreck_answers`: once resolve has taken riders out, the spots around each where the
  opponent may place its wreck: on the table and out of every solid, on the level under them
  (what :func:`~entropy3d.systems.entropy_city.wrecks.place_wrecks` reads, EC-WOUND).

Lengths are table inches.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from entropy3d.core.facts import Facts, RestAnswer, Sight, StartSights, WreckSpots
from entropy3d.geometry import BaseShape, Pose, normalize_deg
from entropy3d.systems.entropy_city.choice_traits import stealth_covers, stealthy_enemies
from entropy3d.systems.entropy_city.combat import gun_range_in
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.rest import (
    INSIDE_TOLERANCE_IN,
    SEARCH_DIRECTIONS,
    SEARCH_RADIUS_IN,
    SEARCH_STEP_IN,
    RestChecks,
    stays_at,
)
from entropy3d.systems.entropy_city.riding import end_poses
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.stopped_guns import Sights, facing, ride_points, watchers
from entropy3d.systems.entropy_city.transition import ACTIVATE
from entropy3d.systems.entropy_city.wrecks import BASE_SAMPLES, wreck_spots, wrecks_wanted


def watched_ride(table: Sights, state: State, mover_id: str, trajectory: np.ndarray, ruleset: Ruleset
                 ) -> dict[str, tuple[Sight | None, ...]]:
    """What each enemy of ``mover_id`` on overwatch with a shot left
    (:func:`~entropy3d.systems.entropy_city.stopped_guns.watchers`
    in ``state``, before the ride) sees of it at each point of its ridden ``trajectory``
    (:func:`~entropy3d.systems.entropy_city.stopped_guns.ride_points`), looking its way (a watcher sees all
    round), everyone else where ``state`` has them: watcher id -> one sight per point, None where
    the point is beyond the watcher's gun's reach (no shot is looked for there)."""
    mover = state.model(mover_id)
    points = ride_points(trajectory)
    seen: dict[str, tuple[Sight | None, ...]] = {}
    for watcher in watchers(state, mover_id):
        reach = gun_range_in(watcher.gun, ruleset)
        row: list[Sight | None] = []
        for _, _, pose in points:
            if math.hypot(pose.x - watcher.pose.x, pose.y - watcher.pose.y) > reach:
                row.append(None)
                continue
            there = state.with_model(mover.but(pose=pose))
            row.append(table.sight(there, watcher.id, mover_id, facing(watcher.pose, pose.xy)))
        seen[watcher.id] = tuple(row)
    return seen


def rest_answer(table: RestChecks, pose: Pose, base: BaseShape, move: PlannedMove, facts: Facts, step: float
                ) -> RestAnswer:
    """What ``table`` says of a base (``base``) left at ``pose`` after riding ``move`` (``facts``):
    the pose on the surface under it, the solid the base overlaps there and, if one does, the
    nearest clear pose (:func:`clear_pose_along`; ``step``: the highest step, inches, a base may
    stand over)."""
    rests_at = stays_at(pose, table.rest_level(pose.xy, pose.z))
    inside = table.solid_under_base(base.outline(rests_at, samples=48), rests_at.z)
    if inside is None:
        return RestAnswer(pose, rests_at)
    return RestAnswer(pose, rests_at, inside, clear_pose_along(move, facts, rests_at, base, table, step))


def clear_pose_along(move: PlannedMove, facts: Facts, pose: Pose, base: BaseShape, table: RestChecks, step: float
                     ) -> tuple[Pose, float, bool] | None:
    """The nearest pose back along the move's path from ``pose`` whose base is clear
    (:func:`is_clear`) at the level it rode there (on a roof it rode off, the roof), how far back
    (inches) and True; when no point of the path is clear (a path that scraped a wall all along),
    the nearest clear spot around ``pose`` (:func:`clear_pose_around`), how far and False; None
    when there is none either."""
    path = np.asarray(move.path, float)
    steps = np.hypot(*np.diff(path, axis=0).T) if len(path) > 1 else np.zeros(0)
    lengths = np.concatenate([[0.0], np.cumsum(steps)])
    nearest = int(np.argmin(np.hypot(*(path - pose.xy).T)))
    for k in range(nearest, -1, -1):
        ridden = facts.level_at(float(lengths[k]))[1] if len(facts.ground) else pose.z
        level = table.rest_level(path[k], ridden)
        candidate = Pose(float(path[k, 0]), float(path[k, 1]), normalize_deg(float(move.headings_deg[k])), level)
        if is_clear(candidate, base, table, step):
            return candidate, float(lengths[nearest] - lengths[k]), True
    around = clear_pose_around(pose, base, table, step)
    if around is None:
        return None
    return around, float(np.hypot(around.x - pose.x, around.y - pose.y)), False


def is_clear(pose: Pose, base: BaseShape, table: RestChecks, step: float) -> bool:
    """Whether a base at ``pose`` (its z the level it rests on) may rest there: no solid under it
    at that level, and no point of its outline more than ``step`` (inches) above the surface under
    that point (a base perched on a narrow piece, or half over a roof's edge, is not). On a ramp
    the base lies along the slope, its ends above and below its centre's level by more than a step
    (a 1:3 ramp under a 2.95" base: 0.49"), so there only solids count."""
    outline = base.outline(pose, samples=48)
    if table.solid_under_base(outline, pose.z) is not None:
        return False
    if table.touches(np.array([pose.xy]), "ramp"):
        return True
    return bool(np.all(pose.z - table.rest_levels(outline[::3], pose.z) <= step))


def clear_pose_around(pose: Pose, base: BaseShape, table: RestChecks, step: float) -> Pose | None:
    """The nearest spot around ``pose`` (same heading, rings ``SEARCH_STEP_IN`` apart) where the
    base is clear (:func:`is_clear`); None if none is within ``SEARCH_RADIUS_IN``
    (:mod:`entropy3d.systems.entropy_city.rest`)."""
    angles = np.linspace(0.0, 2.0 * np.pi, SEARCH_DIRECTIONS, endpoint=False)
    for radius in np.arange(SEARCH_STEP_IN, SEARCH_RADIUS_IN + 1e-9, SEARCH_STEP_IN):
        for angle in angles:
            xy = pose.xy + radius * np.array([np.cos(angle), np.sin(angle)])
            level = table.rest_level(xy, pose.z)
            candidate = Pose(float(xy[0]), float(xy[1]), pose.facing_deg, level)
            if is_clear(candidate, base, table, step):
                return candidate
    return None


def rests_of_ride(table: RestChecks, state: State, model_id: str, move: PlannedMove, facts: Facts,
                  ruleset: Ruleset) -> tuple[RestAnswer, ...]:
    """:func:`rest_answer` for every pose the rules may leave ``model_id`` at after riding ``move``
    (:func:`~entropy3d.systems.entropy_city.riding.end_poses`)."""
    model = state.model(model_id)
    base = ruleset.base_for(model.bike_type)
    step = float(ruleset.data("ride.step_height_in"))
    return tuple(rest_answer(table, pose, base, move, facts, step) for pose in end_poses(model, move, facts))


def start_sights(table: Sights, state: State, model_id: str, ruleset: Ruleset) -> StartSights:
    """What ``table`` shows as ``model_id``'s activation begins in ``state``: what it sees, where it
    stands, of each enemy that may hide by Stealth
    (:func:`~entropy3d.systems.entropy_city.choice_traits.stealthy_enemies`)
    and, when its own Stealth covers guns, what each enemy on overwatch sees of it looking its way."""
    model = state.model(model_id)
    sees = {enemy: table.sight(state, model_id, enemy, model.pose)
            for enemy in stealthy_enemies(state, model_id, ruleset)}
    seen_by = {} if stealth_covers(model, "gun", ruleset) is None else {
        watcher.id: table.sight(state, watcher.id, model_id, facing(watcher.pose, model.pose.xy))
        for watcher in watchers(state, model_id)}
    return StartSights(sees, seen_by)


def with_table_answers(table, state: State, action, facts: Facts | None,
                       ruleset: Ruleset) -> Facts | StartSights | None:
    """What resolve reads of ``action`` (checked, taken from ``state``): a ride's ``facts`` with the
    table's answers (the module's list), an activation's start the table's sights then; ``facts``
    as they are for anything else or with no table (then resolve sees nothing, as the table's
    absence always meant)."""
    if table is None:
        return facts
    if action.kind == ACTIVATE:
        return start_sights(table, state, action.model_id, ruleset)
    if facts is None:
        return facts
    return dataclasses.replace(facts, watched=watched_ride(table, state, action.model_id, facts.trajectory, ruleset),
                               rests=rests_of_ride(table, state, action.model_id, action.move, facts, ruleset),
                               knock_room=knock_rooms(table, state, facts))


#: the farthest a knocked piece's room is measured, inches (the rules move one speed x 2, at most 6")
KNOCK_ROOM_IN = 12.0


def knock_rooms(table, state: State, facts: Facts) -> dict[str, tuple[float, float, float]]:
    """For each destructible the ride went into (``facts.scenery``), how far it could be moved
    from where ``state`` has it, square to the bike's heading at the hit to the bike's left and
    to its right, and straight ahead along the heading, before it meets something solid or
    leaves the table (up to :data:`KNOCK_ROOM_IN`): the rules knock it where there is room (EC-DEST-4)."""
    rooms = {}
    for hit in facts.scenery:
        heading = math.radians(hit.heading_deg)
        left, ahead = (-math.sin(heading), math.cos(heading)), (math.cos(heading), math.sin(heading))
        rooms[hit.piece_id] = tuple(table.room_to_move(hit.piece_id, state.scenery, way, KNOCK_ROOM_IN)
                                    for way in (left, (-left[0], -left[1]), ahead))
    return rooms


def wreck_spots_around(table: RestChecks, pose: Pose, base: BaseShape, ruleset: Ruleset) -> WreckSpots:
    """What ``table`` says of the spots around ``pose`` where a wreck with ``base`` may be placed
    (:func:`~entropy3d.systems.entropy_city.wrecks.wreck_spots`): whether ``pose``'s centre is off the table and,
    for each spot, the spot on the level under it (its own height when within
    :data:`~entropy3d.systems.entropy_city.rest.INSIDE_TOLERANCE_IN`) when the base there is on the table and out of
    every solid, else None."""
    answers: list[Pose | None] = []
    for spot in wreck_spots(pose, ruleset):
        outline = base.outline(spot, BASE_SAMPLES)
        if bool(table.off_table(outline).any()):
            answers.append(None)
            continue
        level = table.rest_level(spot.xy, spot.z)
        if table.solid_under_base(outline, level) is not None:
            answers.append(None)
            continue
        answers.append(Pose(spot.x, spot.y, spot.facing_deg, level) if abs(level - spot.z) > INSIDE_TOLERANCE_IN
                       else spot)
    return WreckSpots(pose, bool(table.off_table(pose.xy[None, :])[0]), tuple(answers))


def wreck_answers(table, before: State, after: State, ruleset: Ruleset) -> dict[str, WreckSpots] | None:
    """What :func:`~entropy3d.systems.entropy_city.wrecks.place_wrecks` reads once an action took ``before`` to
    ``after``: for each rider it took out (:func:`~entropy3d.systems.entropy_city.wrecks.wrecks_wanted`), the
    spots around where it went out (:func:`wreck_spots_around`); None with no table."""
    if table is None:
        return None
    return {model.id: wreck_spots_around(table, model.pose, ruleset.base_for(model.bike_type), ruleset)
            for model in wrecks_wanted(before, after)}
