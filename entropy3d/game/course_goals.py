"""What Corners, Hoon Hour and the Law ask of an automatic rider
(:class:`~entropy3d.game.players.AutoPlayer`, through :mod:`entropy3d.game.mission_goals`).

Corners (EC-MISSION-CORNERS): a rider rides for a corner zone its gang does not hold yet (the
nearest along open ground, counting the friends already in it) and ends its move inside one,
still moving ("harder if you're not allowed to park"). Hoon Hour (EC-MISSION-HOON): a rider rides
the circuit, for its next checkpoint along open ground, most of all through it. The Law (EC-LAW):
a police rider rides at the riders the rules data's aggression reading sends it after
(:func:`~entropy3d.systems.entropy_city.law.law_targets`). Points only: nothing here decides a rule. Inches.
"""

from __future__ import annotations

import numpy as np

from entropy3d.game.routes import RouteMap
from entropy3d.systems.entropy_city.corners import holds
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.race import next_checkpoint
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.table_marks import Zone

#: Corners: points for each inch a move takes a rider nearer its zone, and for ending it in the zone
ZONE_PULL = 3.0
ZONE_END = 30.0
#: Corners: inches a friend already holding a zone counts as, so the gang spreads over the zones
FRIEND_IN_ZONE_IN = 14.0
#: Hoon Hour: points for each inch a move takes a rider nearer its next checkpoint, and for passing it
GATE_PULL = 3.0
GATE_PASSED = 60.0


def zone_for(state: State, bike: ModelState, routes: RouteMap, ruleset: Ruleset) -> Zone | None:
    """The Corners zone ``bike`` rides for: the one it holds now if no friend holds it too, else
    the nearest along open ground, each friend already holding a zone adding
    :data:`FRIEND_IN_ZONE_IN` to it (None with no zones)."""
    if not state.zones:
        return None
    friends = [m for m in state.models.values() if m.gang == bike.gang and m.id != bike.id]

    def cost(zone: Zone) -> float:
        crowd = sum(1 for m in friends if holds(m, zone, ruleset))
        if zone.holds(bike.pose.x, bike.pose.y) and crowd == 0:
            return -1.0
        return routes.to_points([zone.centre], bike.pose.xy) + FRIEND_IN_ZONE_IN * crowd

    return min(state.zones, key=cost)


def zone_points(zone: Zone, bike: ModelState, move: PlannedMove, routes: RouteMap) -> float:
    """A Corners rider's points for ``move``: nearer its zone, and ending in it (EC-MISSION-CORNERS)."""
    end = move.end_pose
    if zone.holds(end.x, end.y):
        return ZONE_END + ZONE_PULL * routes.to_points([zone.centre], bike.pose.xy)
    return ZONE_PULL * (routes.to_points([zone.centre], bike.pose.xy) - routes.to_points([zone.centre], end.xy))


def race_points(state: State, bike: ModelState, move: PlannedMove, routes: RouteMap, ruleset: Ruleset) -> float:
    """A Hoon Hour racer's points for ``move``: nearer its next checkpoint along open ground, and
    most of all passing it (its base within the checkpoint's radius somewhere on the path), then
    nearer the one after (EC-MISSION-HOON)."""
    gate = next_checkpoint(state, bike.id)
    if gate is None:
        return 0.0
    reach = gate.radius_in + 0.5 * ruleset.base_for(bike.bike_type).width
    start = routes.to_points([(gate.x, gate.y)], bike.pose.xy)
    passed = np.flatnonzero(np.hypot(move.path[:, 0] - gate.x, move.path[:, 1] - gate.y) <= reach)
    if passed.size == 0:
        return GATE_PULL * (start - routes.to_points([(gate.x, gate.y)], move.end_pose.xy))
    after = state.checkpoints[(state.progress.get(bike.id, 0) + 1) % len(state.checkpoints)]
    towards = routes.to_points([(after.x, after.y)], (gate.x, gate.y)) - \
        routes.to_points([(after.x, after.y)], move.end_pose.xy)
    return GATE_PASSED + GATE_PULL * (start + towards)


__all__ = ["GATE_PASSED", "GATE_PULL", "ZONE_END", "ZONE_PULL", "race_points", "zone_for", "zone_points"]
