"""Playing Jailbreak's holder (EC-MISSION-JAIL, issue 45): the prisoner leaves "through a road
exit", so the rider carrying it keeps to the roads.

The automatic holder pulls for whichever road exit a ride gains most on
(:meth:`~entropy3d.game.npc_goals.NpcRun.progress`), and on the bundled Jailbreak table that pull
led it off the avenue into the park: its cafe tables, benches and trees leave a cruiser no ride
out, and it busted on them turn after turn until it was out, the prisoner with it (seeds 0-9 of a
6-turn geometric sweep: 3 of the 7 holders lost so, in the park at (28, 33), (36, 37) and
(37, 37); the avenue's truck wreck stood in the way north, a rival in another). A holder's move
ending off every road costs it :data:`HOLDER_OFF_ROAD` points: it takes the avenue's clear lane
at a lower speed rather than the one clear ride into a dead end.

A road here is the scene's (its centre line and width, :class:`~entropy3d.scene.schema.Road`);
on a table the player sees only as a bare :class:`~entropy3d.scene.probe.SceneProbe` (no scene)
nothing is off the roads. Nothing here decides a rule; the weight is the player's taste.
Lengths in inches.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from entropy3d.game.holder_goals import holds
from entropy3d.game.npc_goals import stops_by_the_jail
from entropy3d.los.rays import point_segment_distances
from entropy3d.systems.entropy_city.npc import JAILBREAK
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import Item, ModelState, State

#: points off a Jailbreak holder's move that ends off every road: more than a clear ride's pull
#: into the park gains over a slower one up the avenue (4 points an inch, 6-10 inches)
HOLDER_OFF_ROAD = 30.0


def road_strips(probe) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The roads of ``probe``'s scene as straight strips: (start, end, half width), inches; none
    when the probe has no scene (a bare :class:`~entropy3d.scene.probe.SceneProbe`)."""
    table = getattr(probe, "table", None)
    strips = []
    for road in getattr(getattr(table, "spec", None), "roads", None) or []:
        points = np.asarray(road.points, float)
        strips += [(a, b, 0.5 * float(road.width)) for a, b in zip(points[:-1], points[1:])]
    return strips


def off_roads(xy, probe) -> bool:
    """Whether the point ``xy`` (inches) lies off every road of ``probe``'s scene (further than
    half its width from its centre line); False on a table without roads."""
    strips = road_strips(probe)
    point = np.asarray(xy, float)[:2]
    return bool(strips) and all(float(point_segment_distances(point, a, b)) > half for a, b, half in strips)


def off_road_points(state: State, bike: ModelState, move: PlannedMove, probe) -> float:
    """Points off ``move`` of ``bike``: :data:`HOLDER_OFF_ROAD` when it holds Jailbreak's
    prisoner (:func:`~entropy3d.game.holder_goals.holds`) and the move ends on the table off the
    roads; else 0 (a ride off the table is weighed as an escape, or a loss, by the player)."""
    if state.mission != JAILBREAK or not holds(state, bike):
        return 0.0
    end = np.asarray(move.end_pose.xy, float)
    if bool(probe.off_table(end[None, :])[0]):
        return 0.0
    return HOLDER_OFF_ROAD if off_roads(end, probe) else 0.0


def freeing_stops(jail: Item, bike: ModelState, stops: Sequence[PlannedMove], ruleset: Ruleset) -> list[PlannedMove]:
    """The Stop actions of ``stops`` (:func:`~entropy3d.game.npc_goals.stop_plans`, checked) that
    end ``bike`` within reach of one of ``jail``'s openings: only these free the prisoner
    (EC-MISSION-JAIL). A stop anywhere else costs the rider its next activation (a complex action,
    EC-ACT-STOP) and leaves it stopped, easier to hit, for nothing; weighed as a ride of the same
    path it was taken as often as the ride: in a 50-game 6-turn geometric sweep (beab8e6) riders
    without a gun (whose only stop is this one) stopped 54 times out of an opening's reach, 55
    times within it (Hades' second freer in the alley mouth, 7" from the door, seed 17;
    Komodo's in the park's cafe plaza, seeds 10 and 20)."""
    return [move for move in stops if stops_by_the_jail(jail, bike, move, ruleset)]


__all__ = ["HOLDER_OFF_ROAD", "freeing_stops", "off_road_points", "off_roads", "road_strips"]
