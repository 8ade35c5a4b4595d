"""Tag's automatic player: tag an enemy in reach, else walk straight at the nearest one.

It decides no rule: the engine's ``check`` says what is legal, and a walk the table refuses
(a wall, a drop) is tried shorter, then turned aside. Deterministic: it rolls nothing.
"""

from __future__ import annotations

import math

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.plan import parse_plan
from entropy3d.systems.entropy_city.transition import MOVE, Action
from entropy3d.systems.tag.engine import TAG

#: turns (degrees, left positive) off the bearing to the target a refused walk tries next
ASIDE_DEG = (0, 30, -30, 60, -60, 90, -90)


class TagPlayer:
    """The automatic player of one side (``gang``) of a game of Tag (``engine``)."""

    def __init__(self, gang: str, engine):
        self.gang, self.engine = gang, engine

    def order(self, state, ready, table) -> list[str]:
        """Its runners nearest an enemy first."""
        return sorted(ready, key=lambda model_id: self._nearest(state, state.model(model_id))[0])

    def _nearest(self, state, model) -> tuple[float, object]:
        enemies = [m for m in state.models.values() if m.gang != model.gang and m.in_play]
        if not enemies:
            return math.inf, None
        return min(((math.hypot(e.pose.x - model.pose.x, e.pose.y - model.pose.y), e) for e in enemies),
                   key=lambda pair: (pair[0], pair[1].id))

    def choose_action(self, view) -> Action | None:
        state, model = view.state, view.model
        if model.actions_taken:
            return None
        gap, enemy = self._nearest(state, model)
        if enemy is None:
            return None
        tag = Action(TAG, model.id, target=enemy.id)
        if self._legal(view, tag):
            return tag
        bearing = math.degrees(math.atan2(enemy.pose.y - model.pose.y, enemy.pose.x - model.pose.x))
        ahead = min(self.engine.rules.move_in, max(gap - 0.8 * self.engine.rules.reach_in, 0.5))
        for aside in ASIDE_DEG:
            turn = (bearing + aside - model.pose.facing_deg + 180.0) % 360.0 - 180.0
            pivot = f"pivot {'left' if turn > 0 else 'right'} {abs(round(turn))}, " if round(turn) else ""
            for inches in sorted({max(1, int(ahead * share)) for share in (1.0, 0.5, 0.25)}, reverse=True):
                walk = Action(MOVE, model.id, parse_plan(f"walk: {pivot}straight {inches}"))  # whole inches
                if self._legal(view, walk):
                    return walk
        return None

    def _legal(self, view, action: Action) -> bool:
        try:
            self.engine.check(view.state, action, view.table)
        except IllegalPlanError:
            return False
        return True
