"""What a mission asks of an automatic rider (:class:`~entropy3d.game.players.AutoPlayer`).

Package Run (EC-MISSION-PACKAGE): a carrier rides for the edge it delivers over; the defenders
ride at the carriers. VIP Takedown (EC-MISSION-VIP): a VIP hunts the enemy VIP. Grab n Go
(EC-MISSION-GRAB): a rider holding nothing rides for the nearest package on the table; a holder
rides for its own edge and off it once it has held the package long enough, and hands it on only
when holding it is a bust waiting (EC-ACT-PASS). The player weighs these beside what every rider
wants (rivals, walls, speed, stress); nothing here decides a rule: the rules engine's
:func:`~entropy3d.rules.transition.check` and :mod:`entropy3d.rules.grab` do. Lengths in inches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from entropy3d.rules.items import item_met
from entropy3d.rules.odds import exact_odds
from entropy3d.rules.planner import PlannedMove
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import Item, ModelState, State

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

    @classmethod
    def of(cls, state: State, bike: ModelState, ruleset: Ruleset) -> RiderGoal:
        """The goal of ``bike`` in ``state``."""
        held = state.item_held_by(bike.id) if state.items else None
        # a Package Run carrier rides for its edge; so does a Grab n Go holder, for its own (EC-MISSION-GRAB)
        carrying = bike.carries_package or held is not None
        home = bike.package_to if held is None else state.exits.get(bike.gang)
        ready = held is None or held.held >= int(ruleset.data("missions.grab_n_go.hold_actions"))
        loose = [i for i in state.items if i.on_table] if held is None else []
        return cls(carrying, home, ready, loose)

    def seek_points(self, state: State, bike: ModelState, move: PlannedMove, ruleset: Ruleset) -> float:
        """Points for a move of a rider holding nothing: every inch nearer the nearest package on
        the table, and most of all reaching one (a pickup, EC-ACT-PICKUP); 0 with none loose."""
        if not self.loose:
            return 0.0
        end = move.end_pose
        start_gap = min(float(np.hypot(i.x - bike.pose.x, i.y - bike.pose.y)) for i in self.loose)
        end_gap = min(float(np.hypot(i.x - end.x, i.y - end.y)) for i in self.loose)
        points = ITEM_PULL * (start_gap - end_gap)
        return points + (ITEM_REACHED if item_met(state, bike, move.path, ruleset) is not None else 0.0)

    def quarry(self, state: State, bike: ModelState, rivals: list[ModelState]) -> list[ModelState]:
        """The rivals the mission sends ``bike`` after: Package Run's carriers, the enemy VIP for a
        VIP, Grab n Go's holders; every rival when there is none."""
        return [r for r in rivals if r.carries_package or (bike.vip and r.vip)
                or (state.items and state.item_held_by(r.id))] or rivals

    def delivers(self, move: PlannedMove, probe) -> bool:
        """Whether ``move`` rides a ready carrier off its own edge (a delivery, an escape)."""
        return self.carrying and self.ready and (probe.edge_crossed(move.path) or ("", ""))[0] == self.home

    def home_points(self, bike: ModelState, move: PlannedMove, probe) -> tuple[float, float]:
        """A carrier's points for ``move``: every inch nearer its edge, and riding off it ready
        (two terms, added in turn); (0, 0) for a rider carrying nothing."""
        if not self.carrying:
            return 0.0, 0.0
        pull = PACKAGE_PULL * (to_edge(bike.pose.xy, self.home, probe) - to_edge(move.end_pose.xy, self.home, probe))
        return pull, (PACKAGE_DELIVERED if self.delivers(move, probe) else 0.0)

    def off_edge_cost(self) -> float:
        """Points off for a move that leaves the table without delivering, beyond any rider's: a
        carrier loses its package with it."""
        return PACKAGE_DELIVERED if self.carrying else 0.0

    def near_home(self, move: PlannedMove, probe) -> bool:
        """A carrier this near its edge rides off it next, whatever is beside it: it does not mind
        having no room ahead."""
        return self.carrying and to_edge(move.end_pose.xy, self.home, probe) < PACKAGE_HOME_IN


def hunt_weight(model: ModelState, target: ModelState) -> float:
    """How much more an attack on ``target`` is worth to ``model``: the takedown is a VIP's mission
    (EC-MISSION-VIP)."""
    return VIP_HUNT if model.vip and target.vip else 1.0


def pass_worth(model: ModelState, friend: ModelState, tn: int, policy, bust_cost: float, ruleset: Ruleset) -> float:
    """What handing the package on to ``friend`` at ``tn`` (EC-ACT-PASS) is worth to ``model``
    pushing per ``policy``: its odds of success, less what busting costs (``bust_cost``, in
    stress), only when holding it is a bust waiting (the holder's stress near its limit, or more
    wounds on the friend); else less than nothing."""
    odds = exact_odds(tn, model.stress + int(ruleset.data("actions.pass.stress")), ruleset, policy, model.max_stress)
    at_risk = model.stress >= model.max_stress - 3 or model.wounds < friend.wounds
    return (float(odds.success) * 8.0 - float(odds.bust) * bust_cost) if at_risk else -1.0


__all__ = ["ITEM_PULL", "ITEM_REACHED", "PACKAGE_DELIVERED", "PACKAGE_HOME_IN", "PACKAGE_PULL", "RiderGoal",
           "VIP_HUNT", "hunt_weight", "pass_worth", "to_edge"]
