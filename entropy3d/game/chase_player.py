"""A simple automatic driver of the chase & vehicle rules (seed 001).

Each activation it asks the engine which drives are legal (:meth:`ChaseEngine.check`) among a
fan of straights and turns of 12" to 24", looks at each path on the table (the walls it would
meet, the table edge it would cross) and picks: a fleeing vehicle the drive that gets it off
the table, else the one ending nearest an edge; a pursuer the drive that runs into the nearest
fleeing vehicle (a ram), else the one ending nearest it. Past the free 12" it takes the
maneuvering roll only when that gains something (the longer drive is scored lower per inch).
It decides no rule and rolls nothing; ties go to the drive listed first.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.system_game import SystemView
from entropy3d.rules.transition import MOVE, Action

#: the turns a drive may start with: (text, inches the turn takes)
OPENINGS = (("", 0), ("left wide 7", 7), ("right wide 7", 7), ("left medium 5", 5), ("right medium 5", 5),
            ("left tight 3", 3), ("right tight 3", 3), ("left tight 6", 6), ("right tight 6", 6))
#: how far it drives, inches
DISTANCES = (12, 16, 20, 24)
#: score a drive loses for each inch past the free move (the maneuvering roll's risk)
RISK_PER_INCH = 0.15
#: score of a drive that gets a fleeing vehicle away, or rams its target
GOAL = 100.0


class ChasePlayer:
    """The automatic driver of one side (``gang``: its id) of the chase's ``engine``."""

    def __init__(self, gang: str, engine):
        self.gang, self.engine = gang, engine

    def order(self, state, ready, table) -> list[str]:
        """Its vehicles nearest an enemy first (ties in scene order)."""
        enemies = [m for m in state.models.values() if m.gang != self.gang and m.in_play]

        def gap(model_id: str) -> float:
            here = state.model(model_id).pose.xy
            return min((float(np.hypot(*(e.pose.xy - here))) for e in enemies), default=0.0)

        return sorted(ready, key=gap)

    def plans(self) -> list[str]:
        """Every drive it considers, in the order ties are settled."""
        found = []
        for inches in DISTANCES:
            for opening, used in OPENINGS:
                parts = [p for p in (opening, f"straight {inches - used}" if inches > used else "") if p]
                found.append("drive: " + ", ".join(parts))
        return found

    def choose_action(self, view: SystemView) -> Action | None:
        model = view.model
        if model.actions_taken:
            return None
        flees = self.engine.vehicles[model.id].flees
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        targets = [m for m in enemies if self.engine.vehicles[m.id].flees] or enemies
        if not flees and not targets:
            return None
        best, best_score = None, -math.inf
        for plan in self.plans():
            try:
                checked = self.engine.check(view.state, Action.ride(model.id, plan), view.table)
            except IllegalPlanError:
                continue
            score = (self._flee_score(view, checked.move) if flees else self._chase_score(view, checked.move, targets))
            score -= RISK_PER_INCH * max(0.0, checked.move.length_in - self.engine.rules.tabletop.free_move_in)
            if score > best_score:
                best, best_score = checked, score
        return None if best is None else Action(MOVE, model.id, best.move.plan)

    def _reach(self, view: SystemView, move) -> tuple[np.ndarray, bool]:
        """The part of the path it would drive before meeting a wall, and whether it gets off the
        table before meeting one."""
        table, model = view.table, view.model
        off = np.flatnonzero(table.off_table(move.path))
        on = move.path[:off[0]] if len(off) else move.path
        clearance = 0.5 * table.table.ruleset.base_for(model.bike_type).width
        met = table.walk_met(on, model.pose.z, clearance) if len(on) > 1 else None
        if met is None:
            return (move.path if len(off) else on), len(off) > 0
        along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(on, axis=0).T))])
        return on[:max(1, int(np.searchsorted(along, met[2])))], False

    def _flee_score(self, view: SystemView, move) -> float:
        reach, leaves = self._reach(view, move)
        if leaves:
            return GOAL
        width, depth = view.table.table.width, view.table.table.depth
        x, y = reach[-1]
        return -min(x, y, width - x, depth - y)

    def _chase_score(self, view: SystemView, move, targets) -> float:
        reach, _ = self._reach(view, move)
        ruleset = view.table.table.ruleset
        mine = ruleset.base_for(view.model.bike_type).length
        best = -math.inf
        for target in targets:
            contact = 0.5 * (mine + ruleset.base_for(target.bike_type).length)
            gaps = np.hypot(*(reach - target.pose.xy).T)
            best = max(best, GOAL - float(np.argmax(gaps <= contact)) * 0.01 if (gaps <= contact).any()
                       else -float(gaps[-1]))
        return best
