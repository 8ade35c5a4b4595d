"""A simple automatic driver of the chase & vehicle rules (seed 001).

Each activation it asks the engine which drives are legal (:meth:`ChaseEngine.check`) among a
fan of straights and turns of 12" to 24", rides each with a geometric look-ahead producer (where
it would stop, what it would run into, the table edge it would cross) and picks: a fleeing
vehicle the drive that gets it off the table, else the one ending nearest an edge; a pursuer
the drive that runs into the nearest fleeing vehicle (a ram), else the one ending nearest it.
Past the free 12" it takes the maneuvering roll only when that gains something (the longer
drive is scored lower per inch); a drive a wall would stop short is scored lower by the inches
it would lose, and higher by the room it leaves to drive on from where it ends. It decides no
rule and rolls nothing; ties go to the drive listed first.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.transition import MOVE, Action
from entropy3d.systems.side_player import SidePlayer

#: the turns a drive may start with: (text, inches the turn takes)
OPENINGS = (("", 0), ("left wide 7", 7), ("right wide 7", 7), ("left medium 5", 5), ("right medium 5", 5),
            ("left tight 3", 3), ("right tight 3", 3), ("left tight 6", 6), ("right tight 6", 6))
#: how far it drives, inches
DISTANCES = (12, 16, 20, 24)
#: score a drive loses for each inch past the free move (the maneuvering roll's risk)
RISK_PER_INCH = 0.15
#: score a drive loses for each inch of it a wall would stop (it would sit against the wall):
#: more than an inch nearer the target gains, so a pursuer does not drive into a building to end
#: nearer its quarry (at 1.0, 32 of 96 drives of 8 seeded 4-turn chases ran into scenery; at 2.0,
#: 7 of 91, as at 3.0 and 5.0)
BLOCKED_PER_INCH = 2.0
#: drives tried from where a drive would end, to see how much room it leaves to drive on
#: (a pocket between walls is a trap however near the edge or the target it is)
ROOM_PROBES = ("drive: straight 12", "drive: left medium 5, straight 7", "drive: right medium 5, straight 7")
#: score a drive gains for each inch of room it leaves (the farthest of the probes)
ROOM_PER_INCH = 1.0
#: score of a drive that gets a fleeing vehicle away, or rams its target
GOAL = 100.0


class ChasePlayer(SidePlayer):
    """The automatic driver of one side (``gang``: its id) of the chase's ``engine``."""

    def __init__(self, gang: str, engine):
        super().__init__(gang, engine)
        self._look = None

    def plans(self) -> list[str]:
        """Every drive it considers, in the order ties are settled."""
        found = []
        for inches in DISTANCES:
            for opening, used in OPENINGS:
                parts = [p for p in (opening, f"straight {inches - used}" if inches > used else "") if p]
                found.append("drive: " + ", ".join(parts))
        return found

    def _lookahead(self, view: SystemView):
        """The table's look-ahead producer, to ride candidate drives before choosing (as the
        Entropy City players look ahead)."""
        if self._look is None:
            self._look = view.table.lookahead()
        return self._look

    def choose_action(self, view: SystemView) -> Action | None:
        model = view.model
        if model.actions_taken:
            return None
        flees = self.engine.vehicles[model.id].flees
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        targets = [m for m in enemies if self.engine.vehicles[m.id].flees] or enemies
        if not flees and not targets:
            return None
        look = self._lookahead(view)
        best, best_score = None, -math.inf
        for plan in self.plans():
            try:
                checked = self.engine.check(view.state, Action.ride(model.id, plan), view.table)
            except IllegalPlanError:
                continue
            ride = look.ride(view.state, checked)
            done, score = self._flee_score(view, ride) if flees else self._chase_score(ride, targets)
            score -= RISK_PER_INCH * max(0.0, checked.move.length_in - self.engine.rules.tabletop.free_move_in)
            if not done:
                score -= BLOCKED_PER_INCH * max(0.0, checked.move.length_in - ride.progress_in)
                score += ROOM_PER_INCH * self._room(view, ride.end_pose)
            if score > best_score:
                best, best_score = checked, score
        return None if best is None else Action(MOVE, model.id, best.move.plan)

    def _room(self, view: SystemView, pose) -> float:
        """How far the vehicle could drive on from ``pose`` (inches, the farthest of the probes)."""
        there = view.state.with_model(view.model.but(pose=pose, actions_taken=0))
        look, room = self._lookahead(view), 0.0
        for probe in ROOM_PROBES:
            checked = self.engine.check(there, Action.ride(view.model.id, probe))
            room = max(room, float(look.ride(there, checked).progress_in))
        return room

    def _flee_score(self, view: SystemView, ride) -> tuple[bool, float]:
        """(got away, score): off an open edge is the goal; else nearer an edge is better."""
        if ride.edge is not None and ride.edge_kind == "open":
            return True, GOAL
        width, depth = view.table.table.width, view.table.table.depth
        x, y = ride.end_pose.x, ride.end_pose.y
        return False, -min(x, y, width - x, depth - y)

    def _chase_score(self, ride, targets) -> tuple[bool, float]:
        """(rammed, score): running into a target is the goal, sooner better; else ending nearer
        one is better."""
        ids = {t.id for t in targets}
        hit = next((c for c in ride.contacts if c.kind == "model" and c.piece_id in ids), None)
        if hit is not None:
            return True, GOAL - 0.01 * hit.progress_in
        return False, -min(float(np.hypot(*(t.pose.xy - ride.end_pose.xy))) for t in targets)
