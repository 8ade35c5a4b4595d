"""What Jailbreak and Rescue & Survive ask of an automatic rider (EC-MISSION-JAIL,
EC-MISSION-RESCUE), beside :mod:`entropy3d.game.mission_goals`.

Jailbreak: while the NPC is locked in, a rider rides for the jail's door and windows and weighs
Stop actions that end within reach of one (the rules then roll the NPC's test); a holder rides for
the nearest road exit and off the table through it. Rescue & Survive: a rider holding nothing rides
for an NPC standing on the table (a pickup, as for a package); a holder rides for the NPC's
destination. The ways are measured along open ground (:class:`~entropy3d.game.routes.RouteMap`).
Nothing here decides a rule: :mod:`entropy3d.systems.entropy_city.npc_actions` does. Lengths in inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from entropy3d.systems.entropy_city.items import disc_reach_in
from entropy3d.systems.entropy_city.npc import JAILBREAK, through_road_exit
from entropy3d.systems.entropy_city.npc_actions import STOP
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import distance_band
from entropy3d.systems.entropy_city.state import Item, ModelState, State

#: inches inside the table edge of the point a holder rides for at a road exit's middle
MOUTH_IN = 0.5


@dataclass(frozen=True)
class NpcRun:
    """Where the holder of an NPC rides (``spots``: the middles of the road exits over open edges
    in Jailbreak, the NPC's destination in Rescue & Survive) and how it arrives: off the table
    through a road exit (``road_exits``), or a ride within ``reach`` of ``to``."""

    spots: tuple[tuple[float, float], ...]
    road_exits: tuple[tuple[str, float, float], ...] = ()
    to: tuple[float, float] | None = None
    reach: float = 0.0

    @classmethod
    def of(cls, state: State, bike: ModelState, held: Item, probe, ruleset: Ruleset) -> NpcRun:
        """The run of ``bike`` holding ``held`` on ``probe``'s table."""
        if state.mission == JAILBREAK:
            exits = tuple(e for e in state.road_exits if probe.edges.get(e[0], "open") == "open")
            return cls(tuple(_mouth(edge, 0.5 * (lo + hi), probe) for edge, lo, hi in exits), exits)
        reach = disc_reach_in(bike, float(ruleset.data("missions.rescue_survive.deliver_in")), ruleset)
        return cls((held.to,), to=held.to, reach=reach)

    def gap(self, xy: np.ndarray, routes) -> float:
        """Inches from ``xy`` to the nearest spot, along open ground when ``routes`` is given."""
        if routes is not None:
            return float(routes.to_points(list(self.spots), xy))
        return min(float(math.hypot(x - xy[0], y - xy[1])) for x, y in self.spots)

    def progress(self, start_xy: np.ndarray, end_xy: np.ndarray, routes) -> float:
        """Inches a ride from ``start_xy`` to ``end_xy`` takes the holder nearer the spot it gains
        most on (along open ground when ``routes`` is given). Not the nearest spot's: a Jailbreak
        holder stopped by the jail faces away from the nearest road exit, and every ride forward
        took it further from that one, so it crept forward at the least length the rules allow
        (issue 45: holders that never left in six turns); it rides on for the exit ahead."""
        def gaps(xy: np.ndarray) -> list[float]:
            if routes is not None:
                return [float(routes.to_points([spot], xy)) for spot in self.spots]
            return [float(math.hypot(x - xy[0], y - xy[1])) for x, y in self.spots]

        return max(before - after for before, after in zip(gaps(start_xy), gaps(end_xy)))

    def arrives(self, move: PlannedMove, probe) -> bool:
        """Whether ``move`` escapes through a road exit, or comes within reach of the destination."""
        path = np.asarray(move.path, float)
        if self.to is not None:
            return float(np.hypot(path[:, 0] - self.to[0], path[:, 1] - self.to[1]).min()) <= self.reach
        off = probe.off_table(path)
        if not off.any():
            return False
        crossed = probe.edge_crossed(path)
        x, y = path[int(np.argmax(off))]
        return crossed is not None and through_road_exit(crossed[0], float(x), float(y), self.road_exits)


def _mouth(edge: str, along: float, probe) -> tuple[float, float]:
    """The point :data:`MOUTH_IN` inside ``edge`` at ``along`` inches along it."""
    return {"west": (MOUTH_IN, along), "east": (probe.width - MOUTH_IN, along), "south": (along, MOUTH_IN),
            "north": (along, probe.depth - MOUTH_IN)}[edge]


def locked_npc(state: State) -> Item | None:
    """Jailbreak's NPC while it is still locked in the jail, else None."""
    return next((i for i in state.items if i.locked and i.fate is None), None)


def stops_by_the_jail(jail: Item, bike: ModelState, move: PlannedMove, ruleset: Ruleset) -> bool:
    """Whether ``move`` is a Stop action ending with ``bike``'s base within
    ``missions.jailbreak.stop_within_in`` of a door or window of the jail (EC-MISSION-JAIL)."""
    if move.plan.action != STOP:
        return False
    reach = disc_reach_in(bike, float(ruleset.data("missions.jailbreak.stop_within_in")), ruleset)
    end = move.end_pose
    return any(math.hypot(x - end.x, y - end.y) <= reach for x, y in jail.openings)


def stop_plans(bike: ModelState, speeds: Sequence[int], ruleset: Ruleset) -> list[str]:
    """Stop actions (EC-ACT-STOP: speed 1 or 2, the minimum distance ridden) straight on and
    along a turn each way, at each of ``speeds`` a stop may be declared at; none on foot."""
    if bike.on_foot:
        return []
    allowed = [int(s) for s in ruleset.data("actions.stop.speeds")]
    defaults = ruleset.data("turn_templates.default_for_speed")
    plans = []
    for speed in (s for s in speeds if s in allowed):
        lo = int(math.ceil(distance_band(bike.bike_type, speed, ruleset).min - 1e-9))
        arc = int(ruleset.data(f"turn_templates.{defaults[speed]}.arc_length_in"))
        plans.append(f"stop s{speed}: straight {lo}")
        for side in ("left", "right"):
            along = min(lo, arc)
            plans.append(f"stop s{speed}: {side} {defaults[speed]} {along}" + (f", straight {lo - along}"
                                                                                 if lo > along else ""))
    return plans


__all__ = ["NpcRun", "locked_npc", "stop_plans", "stops_by_the_jail"]
