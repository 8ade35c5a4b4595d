"""What a mission asks of an automatic rider (:class:`~entropy3d.game.players.AutoPlayer`).

Package Run (EC-MISSION-PACKAGE): a carrier rides for the edge it delivers over; the defenders
ride at the carriers. VIP Takedown (EC-MISSION-VIP): a VIP hunts the enemy VIP. Grab n Go
(EC-MISSION-GRAB): a rider holding nothing rides for the nearest package on the table; a holder
rides for its own edge and off it once it has held the package long enough, and hands it on only
when holding it is a bust waiting (EC-ACT-PASS). On a Grab n Go table the ways are measured along
open ground (:class:`~entropy3d.game.routes.RouteMap`), not as the crow flies: a chicane or a
block of flats stands between a package and the edge; only a gang's riders nearest the loose
packages ride for them, the others hunt the rival holders or the rivals nearest their own.
The player weighs these beside what every rider wants (rivals, walls, speed, stress); nothing
here decides a rule: the rules engine's :func:`~entropy3d.systems.entropy_city.transition.check` and
:mod:`entropy3d.systems.entropy_city.grab` do. Lengths in inches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from entropy3d.game.course_goals import race_points, zone_for, zone_points
from entropy3d.game.escape_goals import EscapeRun, escape_pays
from entropy3d.game.npc_goals import NpcRun, locked_npc, stops_by_the_jail
from entropy3d.game.rescue_goals import RescueRun, npc_run
from entropy3d.game.routes import RouteMap
from entropy3d.systems.entropy_city.grab import held_long_enough
from entropy3d.systems.entropy_city.items import item_met, pass_test
from entropy3d.systems.entropy_city.law import law_targets
from entropy3d.systems.entropy_city.npc import NPC_MISSIONS
from entropy3d.systems.entropy_city.odds import exact_odds
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import Item, ModelState, State
from entropy3d.systems.entropy_city.table_marks import Zone

#: Package Run (EC-MISSION-PACKAGE): points a carrier gets for each inch a move takes it nearer
#: the edge it rides for (more than the 0.8 an inch a rider gets for closing on a rival), and for
#: a move that rides off that edge and delivers
PACKAGE_PULL = 4.0
PACKAGE_DELIVERED = 120.0
#: inches from its edge within which a carrier no longer minds having no room ahead: its next move rides off
PACKAGE_HOME_IN = 12.0
#: VIP Takedown (EC-MISSION-VIP): how much more a VIP values harm done to the enemy VIP
VIP_HUNT = 2.5
#: Grab n Go (EC-MISSION-GRAB): points a rider holding nothing gets for each inch a move takes it
#: nearer the nearest package on the table, and for a move that rides within reach of one (a pickup)
ITEM_PULL = 3.0
ITEM_REACHED = 40.0
#: Grab n Go: inches (along open ground) from its edge at which a holder that may not yet ride off
#: waits out its held actions: far enough that its next move need not ride off, near enough that
#: the move after it does (speed 1 and 2 ride 4-12")
STAGE_IN = 10.0
#: Grab n Go: how many of a gang's riders ride for the loose packages at most (the others hunt)
CHASERS = 2
#: Grab n Go: points off a holder gets for each inch a rival is nearer than this to where it ends
HOLDER_SHY_IN = 6.0
HOLDER_SHY = 1.5
#: inches a rider's way along open ground (:class:`RouteMap`) keeps from walls beyond an oval
#: base's half width: the look-ahead rides the plans exactly, the map only points the way
ROUTE_MARGIN_IN = 0.1


def to_edge(xy: np.ndarray, edge: str, probe) -> float:
    """Inches from ``xy`` to the table edge ``edge`` (north, south, east, west) of ``probe``'s table."""
    x, y = float(xy[0]), float(xy[1])
    return {"west": x, "east": probe.width - x, "south": y, "north": probe.depth - y}[edge]


@dataclass(frozen=True)
class RiderGoal:
    """What the mission asks of one rider this action: ``carrying`` a package (Package Run's, or a
    Grab n Go package it holds) to the edge ``home``; ``ready``: it may ride off that edge now (a
    Grab n Go holder that has held its package ``hold_actions`` complete actions, EC-MISSION-GRAB;
    always, for a Package Run carrier); ``loose``: the Grab n Go packages lying on the table it
    rides for (empty for a holder)."""

    carrying: bool
    home: str | None
    ready: bool
    loose: list[Item] = field(default_factory=list)
    routes: RouteMap | None = None
    """Grab n Go: the table's ways along open ground (None: straight lines, the other missions)."""
    ready_next: bool = True
    """Grab n Go: a holder may ride off its edge in its next action (this one completes its hold)."""
    chasing: bool = False
    """Grab n Go: the rider is one of its gang's :data:`CHASERS` nearest the loose packages."""
    npc: NpcRun | EscapeRun | None = None
    """Jailbreak, Rescue & Survive: where a holder of an NPC rides, and how it arrives; where the
    mission pays for escapes (Lovers Point Brawl): the open edges a rider rides off
    (:mod:`entropy3d.game.escape_goals`)."""
    jail: Item | None = None
    """Jailbreak: the NPC still locked in, whose doors and windows a rider holding nothing rides for."""
    wanted: list[ModelState] | None = None
    """The Law (EC-LAW): the riders its aggression sends it after (None: not the Law)."""
    zone: Zone | None = None
    """Corners (EC-MISSION-CORNERS): the zone it rides for."""
    racing: bool = False
    """Hoon Hour (EC-MISSION-HOON): it rides the circuit."""

    @classmethod
    def of(cls, state: State, bike: ModelState, ruleset: Ruleset, routes: RouteMap | None = None,
           probe=None) -> RiderGoal:
        """The goal of ``bike`` in ``state``; ``routes``: the table's ways for Grab n Go,
        Jailbreak, Rescue & Survive, Corners and Hoon Hour; ``probe``: the table (where a road exit
        lies)."""
        if bike.law:  # the Law goes for whom its aggression reading says (EC-LAW); it takes no part in the mission
            return cls(False, None, True, [], wanted=law_targets(state, ruleset))
        if routes is not None and state.zones:  # EC-MISSION-CORNERS
            return cls(False, None, True, [], routes, zone=zone_for(state, bike, routes, ruleset))
        if routes is not None and state.checkpoints:  # EC-MISSION-HOON
            return cls(False, None, True, [], routes, racing=True)
        escape = EscapeRun.of(state, bike, probe, ruleset) if routes is not None else None
        if escape is not None:  # Lovers Point Brawl: an escape is worth more than a take-out (game.escape_goals)
            return cls(True, None, True, [], routes, True, False, escape)
        held = state.item_held_by(bike.id) if state.items else None
        # a Package Run carrier rides for its edge; so does a Grab n Go holder, for its own (EC-MISSION-GRAB)
        carrying = bike.carries_package or held is not None
        if held is not None and state.mission in NPC_MISSIONS:  # EC-MISSION-JAIL, EC-MISSION-RESCUE
            run = npc_run(state, bike, held, probe, ruleset)  # Rescue & Survive's: game.rescue_goals
            return cls(True, None, True, [], routes, True, False, run)
        home = bike.package_to if held is None else state.exits.get(bike.gang)
        ready = held is None or held_long_enough(held.held, ruleset)
        loose = [i for i in state.items if i.on_table] if held is None else []
        if routes is None or not state.items:
            return cls(carrying, home, ready, loose)
        ready_next = held is None or held_long_enough(held.held + 1, ruleset)
        jail = locked_npc(state) if held is None else None
        spots = [(i.x, i.y) for i in loose] + (list(jail.openings) if jail is not None else [])
        return cls(carrying, home, ready, loose, routes, ready_next, bool(spots) and _chases(state, bike, routes,
                                                                                             spots), jail=jail)

    @property
    def spots(self) -> list[tuple[float, float]]:
        """Where a rider holding nothing rides: the loose packages or NPCs, the jail's openings."""
        return [(i.x, i.y) for i in self.loose] + (list(self.jail.openings) if self.jail is not None else [])

    def seek_points(self, state: State, bike: ModelState, move: PlannedMove, ruleset: Ruleset) -> float:
        """Points for a move of a rider holding nothing: every inch nearer the nearest package on
        the table (along open ground on a Grab n Go table, and only for its gang's chasers), and
        most of all reaching one (a pickup, EC-ACT-PICKUP); 0 with none loose. Corners and Hoon
        Hour: nearer its zone or its next checkpoint (:mod:`entropy3d.game.course_goals`)."""
        if self.zone is not None:
            return zone_points(self.zone, bike, move, self.routes)
        if self.racing:
            return race_points(state, bike, move, self.routes, ruleset)
        if not self.loose and self.jail is None:
            return 0.0
        end = move.end_pose
        reached = ITEM_REACHED if item_met(state, bike, move.path, ruleset) is not None or (
            self.jail is not None and stops_by_the_jail(self.jail, bike, move, ruleset)) else 0.0
        if self.routes is not None:
            if not self.chasing:
                return 0.5 * reached  # a hunter takes a package in its way
            spots = self.spots
            start_gap, end_gap = self.routes.to_points(spots, bike.pose.xy), self.routes.to_points(spots, end.xy)
            return ITEM_PULL * (start_gap - end_gap) + reached
        start_gap = min(float(np.hypot(i.x - bike.pose.x, i.y - bike.pose.y)) for i in self.loose)
        end_gap = min(float(np.hypot(i.x - end.x, i.y - end.y)) for i in self.loose)
        points = ITEM_PULL * (start_gap - end_gap)
        return points + reached

    @property
    def hunts(self) -> bool:
        """The rider rides at its quarry: it carries nothing and goes for no package, no corner and
        no checkpoint (the Law always hunts)."""
        if self.zone is not None or self.racing:
            return False
        return not self.carrying and (not self.spots if self.routes is None else not self.chasing)

    def quarry(self, state: State, bike: ModelState, rivals: list[ModelState]) -> list[ModelState]:
        """The rivals the mission sends ``bike`` after: Package Run's carriers, the enemy VIP for a
        VIP, Grab n Go's holders (and, with none, the rivals nearest a friend that holds one: it
        rides to its holder's help); every rival when there is none. A rider that owes a rival a
        melee attack for a shot (Matter of Pride, EC-TRAIT) is sent after that rival alone."""
        if self.wanted is not None:  # the Law's targets (EC-LAW)
            return [r for r in rivals if r in self.wanted] or rivals
        owed = [r for r in rivals if r.id == bike.pride_target]
        if owed:
            return owed
        wanted = [r for r in rivals if r.carries_package or (bike.vip and r.vip)
                  or (state.items and state.item_held_by(r.id))]
        if wanted or self.routes is None:
            return wanted or rivals
        holders = [m for m in state.models.values() if m.in_play and m.gang == bike.gang and m.id != bike.id
                   and state.item_held_by(m.id) is not None]
        if not holders:
            return rivals
        threat = min(float(np.hypot(*(r.pose.xy - h.pose.xy))) for r in rivals for h in holders)
        return [r for r in rivals if min(float(np.hypot(*(r.pose.xy - h.pose.xy))) for h in holders) <= threat + 1e-9]

    def delivers(self, move: PlannedMove, probe) -> bool:
        """Whether ``move`` rides a ready carrier off its own edge (a delivery, an escape), or an
        NPC's holder through a road exit or to the NPC's destination."""
        if self.npc is not None:
            return self.npc.arrives(move, probe)
        return self.carrying and self.ready and (probe.edge_crossed(move.path) or ("", ""))[0] == self.home

    def home_points(self, bike: ModelState, move: PlannedMove, probe) -> tuple[float, float]:
        """A carrier's points for ``move``: every inch nearer its edge, and riding off it ready
        (two terms, added in turn); (0, 0) for a rider carrying nothing."""
        if not self.carrying:
            return 0.0, 0.0
        if self.npc is not None:  # an NPC's holder: to the road exit it gains most on, or the NPC's destination
            if isinstance(self.npc, RescueRun):  # measured from ahead of the bike (game.rescue_goals)
                pull = PACKAGE_PULL * self.npc.lead_progress(bike.pose, move.end_pose, self.routes)
            else:
                pull = PACKAGE_PULL * self.npc.progress(bike.pose.xy, move.end_pose.xy, self.routes)
            return pull, (PACKAGE_DELIVERED if self.delivers(move, probe) else 0.0)
        if self.routes is not None:  # along open ground, waiting out its hold STAGE_IN from the edge
            stage = 0.0 if self.ready_next else STAGE_IN
            start = abs(self.routes.to_edge(self.home, bike.pose.xy) - stage)
            pull = PACKAGE_PULL * (start - abs(self.routes.to_edge(self.home, move.end_pose.xy) - stage))
            return pull, (PACKAGE_DELIVERED if self.delivers(move, probe) else 0.0)
        pull = PACKAGE_PULL * (to_edge(bike.pose.xy, self.home, probe) - to_edge(move.end_pose.xy, self.home, probe))
        return pull, (PACKAGE_DELIVERED if self.delivers(move, probe) else 0.0)

    def off_edge_cost(self) -> float:
        """Points off for a move that leaves the table without delivering, beyond any rider's: a
        carrier loses its package with it."""
        return PACKAGE_DELIVERED if self.carrying else 0.0

    def near_home(self, move: PlannedMove, probe) -> bool:
        """A carrier this near its edge rides off it next, whatever is beside it: it does not mind
        having no room ahead (a Grab n Go holder only once it may ride off next)."""
        if self.npc is not None:
            return self.npc.gap(move.end_pose.xy, self.routes) < PACKAGE_HOME_IN
        if self.routes is not None:
            return self.carrying and self.ready_next and self.routes.to_edge(self.home, move.end_pose.xy) < \
                PACKAGE_HOME_IN
        return self.carrying and to_edge(move.end_pose.xy, self.home, probe) < PACKAGE_HOME_IN

    def shy_points(self, move: PlannedMove, rivals: list[ModelState]) -> float:
        """Points off a Grab n Go holder ending a move near a rival: it cannot hit back (EC-MISSION-GRAB)."""
        if self.routes is None or not self.carrying or not rivals:
            return 0.0
        gap = min(float(np.hypot(*(r.pose.xy - move.end_pose.xy))) for r in rivals)
        return HOLDER_SHY * max(0.0, HOLDER_SHY_IN - gap)


def _chases(state: State, bike: ModelState, routes: RouteMap, spots: list[tuple[float, float]]) -> bool:
    """Whether ``bike`` is one of its gang's :data:`CHASERS` riders (in play, riding, holding
    nothing) nearest ``spots`` (the loose packages, the jail's openings) along open ground
    (ties: the scene's order)."""
    gang = [m for m in state.models.values() if m.in_play and not m.on_foot and m.gang == bike.gang
            and state.item_held_by(m.id) is None]
    nearest = sorted(gang, key=lambda m: routes.to_points(spots, m.pose.xy))
    # a single NPC (dropped, or the jail's) still wants a gang's CHASERS: one rider is easily stopped
    chasers = CHASERS if state.mission in NPC_MISSIONS else min(CHASERS, len(spots))
    return bike.id in [m.id for m in nearest[:chasers]]


class MissionGoals:
    """One player's :class:`RiderGoal` of the rider it moves now, found once per action (the same
    for every plan it weighs), with the table's :class:`RouteMap` on a Grab n Go table (built
    once per table)."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self._routes: tuple = (None, None)
        self._last: tuple = (None, None, None)

    def of(self, state: State, model: ModelState, probe) -> RiderGoal:
        """The goal of ``model`` in ``state`` on ``probe``'s table."""
        if self._last[0] is not state or self._last[1] is not model:
            routes = None
            if state.items or state.zones or state.checkpoints or escape_pays(state, self.ruleset):
                if self._routes[0] is not probe:  # the narrowest bike's half width and a margin: a
                    # way only a narrow bike fits is still a way (the look-ahead rides every plan)
                    narrowest = min(self.ruleset.base_for(m.bike_type).width for m in state.models.values()
                                    if not m.on_foot)
                    clearance = 0.5 * narrowest + ROUTE_MARGIN_IN
                    self._routes = (probe, RouteMap(probe, clearance))
                routes = self._routes[1]
            self._last = (state, model, RiderGoal.of(state, model, self.ruleset, routes, probe))
        return self._last[2]


def hunt_weight(model: ModelState, target: ModelState, wanted: list[ModelState] | None = None) -> float:
    """How much more an attack on ``target`` is worth to ``model``: the takedown is a VIP's mission
    (EC-MISSION-VIP); the Law's targets (``wanted``, EC-LAW) are what it is after."""
    if wanted is not None and any(w.id == target.id for w in wanted):
        return VIP_HUNT
    return VIP_HUNT if model.vip and target.vip else 1.0


def pass_worth(model: ModelState, friend: ModelState, tn: int, policy, bust_cost: float, ruleset: Ruleset) -> float:
    """What handing the package on to ``friend`` at ``tn`` (EC-ACT-PASS) is worth to ``model``
    pushing per ``policy``: its odds of success, less what busting costs (``bust_cost``, in
    stress), only when holding it is a bust waiting (the holder's stress near its limit, or more
    wounds on the friend); else less than nothing."""
    odds = exact_odds(tn, pass_test(model, ruleset)[1], ruleset, policy, model.max_stress)
    at_risk = model.stress >= model.max_stress - 3 or model.wounds < friend.wounds
    return (float(odds.success) * 8.0 - float(odds.bust) * bust_cost) if at_risk else -1.0


__all__ = ["CHASERS", "ITEM_PULL", "ITEM_REACHED", "MissionGoals", "PACKAGE_DELIVERED", "PACKAGE_HOME_IN",
           "PACKAGE_PULL", "RiderGoal", "STAGE_IN", "VIP_HUNT", "hunt_weight", "pass_worth", "to_edge"]
