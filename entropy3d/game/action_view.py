"""What a player sees when it chooses an action: the game now, its model, which action, the table.

:class:`ActionView` is handed to every player (automatic, scripted, by hand) of an Entropy City
rider; it asks the rules engine to check a plan (:meth:`ActionView.check`), so a player never
decides legality itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.transition import Action, check


@dataclass(frozen=True, eq=False)
class ActionView:
    """What a player sees when choosing an action.

    state: the game now. model: the active model (its pose, speed and stress are current).
    action_index: 0 or 1. probe: the table from above. ruleset: rules data.
    """

    state: State
    model: ModelState
    action_index: int
    probe: SceneProbe
    ruleset: Ruleset

    @property
    def first_action_of_game(self) -> bool:
        """Speed 1 is forced (EC-TURN-4)."""
        return self.state.turn == 1 and self.model.actions_taken == 0

    @property
    def forced_speed(self) -> int | None:
        """A speed the rules force on this action (after a stoppie, in the air, after a side-on
        crash), or None."""
        model = self.model
        if model.forced_speed is not None:
            return model.forced_speed
        if model.air is not None:
            return model.air.speed
        if model.speed_cap is not None and model.speed > model.speed_cap:
            return model.speed_cap
        return None

    def check(self, plan, table: bool = True) -> PlannedMove:
        """The rules' check of ``plan`` for this model now (with the table's curbs, buildings and
        edges unless ``table`` is False); raises IllegalPlanError."""
        return self.checked(plan, table).move

    def checked(self, plan, table: bool = True) -> Action:
        """The checked action of ``plan`` (see :meth:`check`)."""
        return check(self.state, Action.ride(self.model.id, plan), self.ruleset, self.probe if table else None)
