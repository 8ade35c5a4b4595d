"""What the automatic players of the systems that play their own game share: one side's player
activates its models nearest an enemy first and asks the engine whether an action is legal."""

from __future__ import annotations

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.system_game import SystemView
from entropy3d.rules.transition import Action


class SidePlayer:
    """The automatic player of one side (``gang``: its id) of a game system's ``engine``. It
    rolls nothing: the game's dice are its only randomness."""

    def __init__(self, gang: str, engine):
        self.gang, self.engine = gang, engine

    def order(self, state, ready, table) -> list[str]:
        """Its ready models nearest an enemy first (ties in scene order)."""
        enemies = [m for m in state.models.values() if m.gang != self.gang and m.in_play]

        def gap(model_id: str) -> float:
            here = state.model(model_id).pose.xy
            return min((float(np.hypot(*(e.pose.xy - here))) for e in enemies), default=0.0)

        return sorted(ready, key=gap)

    def _legal(self, view: SystemView, action: Action) -> Action | None:
        """``action`` as the engine checked it, or None when the rules refuse it."""
        try:
            return self.engine.check(view.state, action, view.table)
        except IllegalPlanError:
            return None
