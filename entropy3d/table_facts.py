"""The table's answers Entropy City's resolve reads, given with the facts before it resolves.

A producer-level module like :mod:`entropy3d.table_readings`: where
:func:`entropy3d.rules.transition.resolve` once asked the table itself in the middle of deciding
(issue 44: "Entropy City's ``resolve`` still asks the table"), the one path
(:func:`entropy3d.game.step.take`) now asks it here first and hands the answers over with the
ride's :class:`~entropy3d.rules.facts.Facts`, so resolve decides from the state, the action, the
facts and the dice alone. Every answer is what the table shows, never what the rules make of it:

- :func:`watched_ride`: what each enemy on overwatch sees of the mover at each point of its ride
  within its gun's reach (the sight the rules' overwatch shot reads, EC-GUN-STOPPED, EC-COVER-1).

Lengths are table inches.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from entropy3d.rules.combat import gun_range_in
from entropy3d.rules.facts import Facts, Sight
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import State
from entropy3d.rules.stopped_guns import Sights, facing, ride_points, watchers


def watched_ride(table: Sights, state: State, mover_id: str, trajectory: np.ndarray, ruleset: Ruleset
                 ) -> dict[str, tuple[Sight | None, ...]]:
    """What each enemy of ``mover_id`` on overwatch with a shot left (:func:`~entropy3d.rules.stopped_guns.watchers`
    in ``state``, before the ride) sees of it at each point of its ridden ``trajectory``
    (:func:`~entropy3d.rules.stopped_guns.ride_points`), looking its way (a watcher sees all
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


def told(table, state: State, action, facts: Facts | None, ruleset: Ruleset) -> Facts | None:
    """``facts`` of ``action`` (checked, taken from ``state``) with the table's answers resolve
    reads (the module's list); ``facts`` as they are when nothing was ridden or there is no table
    (then resolve sees nothing, as the table's absence always meant)."""
    if facts is None or table is None:
        return facts
    return dataclasses.replace(facts, watched=watched_ride(table, state, action.model_id, facts.trajectory, ruleset))
