"""The viewer's typed action, in the scene's own rulebook: an action typed for the selected model
in that rulebook's words (Entropy City's ``s2: straight 8``, the car chase's ``drive: straight
12``, the gang battle's ``walk: straight 3`` or ``shoot``), checked by the engine the one game
loop plays (:func:`~entropy3d.game.session.scene_engine`, as `entropy3d demo` builds it) with the
exact odds of every test a move costs, then taken as the loop takes an activation: it starts, the
action goes the one path (:func:`~entropy3d.game.step.take_action`: check, the table's facts,
resolve), it ends. Nothing here names a rulebook. No window: tested headless.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from entropy3d.errors import EntropyError, IllegalPlanError
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import Action

#: the game turn an action is checked at on a scene's starting positions: not the game's first
#: action (which in Entropy City allows speed 1 only), as `entropy3d plan` checks it without
#: --first-action-of-game
PREVIEW_TURN = 2


@dataclass(frozen=True)
class PlanPreview:
    """A typed action as the rulebook sees it: the checked action, or why it is refused."""

    text: str
    checked: Action | None
    """The action as the engine checked it (its move, its target), None when refused."""
    refusal: str | None
    """The rules' or the notation's message."""
    clause: str | None
    """The clause of a refusal (None for a notation error)."""
    odds: tuple[tuple[object, object], ...] = ()
    """(test, :class:`~entropy3d.systems.entropy_city.odds.Odds`) for each test the move costs."""
    refused_path: object | None = None
    """(N, 2) inches: the path of a move only the table refuses (a wall, a curb, an edge on the
    way), drawn so the user sees where it runs into what; None otherwise."""

    @property
    def move(self):
        """The checked move (:class:`~entropy3d.systems.entropy_city.planner.PlannedMove`); None when refused or
        for an action that moves nothing (a shot, a tag)."""
        return self.checked.move if self.checked is not None else None

    def lines(self) -> list[str]:
        if self.checked is None:
            return [f"{self.text!r}: refused" + (f" ({self.clause})" if self.clause else ""),
                    f"  {self.refusal}"]
        move = self.move
        if move is None:
            target = f" at {self.checked.target}" if self.checked.target else ""
            return [f"{self.text}: allowed{target}", "  Enter takes it, Esc closes"]
        end, band = move.end_pose, move.band
        # the band when it says more than the move's own length (a chase's drive is its own band)
        allowed = f" (allowed {band.min:g}-{band.max:g}\")" if band.min > 0 or band.max > move.length_in + 1e-6 else ""
        lines = [f"{move.plan}: {move.length_in:g}\"{allowed}" + (f", stress {move.stress:+d}" if move.stress else ""),
                 f"  ends at ({end.x:.1f}, {end.y:.1f}) facing {end.facing_deg:.0f} deg"]
        for test, odds in self.odds:
            lines.append(f"  test TN {test.tn} ({test.clause}: {test.reason}): success {float(odds.success):.1%}, "
                         f"bust {float(odds.bust):.1%}")
        return lines + ["  Enter takes it, Esc closes"]

    def to_dict(self) -> dict:
        end = self.move.end_pose if self.move is not None else None
        return {"text": self.text, "refusal": self.refusal, "clause": self.clause,
                "kind": self.checked.kind if self.checked is not None else None,
                "target": self.checked.target if self.checked is not None else None,
                "end": [end.x, end.y, end.facing_deg] if end is not None else None,
                "refused_path": self.refused_path is not None,
                "tests": [{"tn": t.tn, "clause": t.clause, "success": float(o.success), "bust": float(o.bust)}
                          for t, o in self.odds]}


def preview_state(state: State, at_start: bool) -> State:
    """The state an action is checked from: on a scene's starting positions, turn :data:`PREVIEW_TURN`."""
    return dataclasses.replace(state, turn=max(state.turn, PREVIEW_TURN)) if at_start else state


def preview_plan(engine, state: State, model_id: str, text: str, table, seed: int = 1,
                 activate: bool = True) -> PlanPreview:
    """Check ``text`` for ``model_id`` from ``state`` with ``engine`` (the scene's, see
    :class:`SceneRules`), asking ``table``; nothing is ridden. ``activate``: the model's activation
    starts first (dice from ``seed``, the ride's own: what starting it does is what the ride will
    find), as :func:`ride_plan` takes it; False for a state whose activation has begun (a game's
    question)."""
    from entropy3d.game.step import take

    try:
        action = engine.parse_action(model_id, text)
    except IllegalPlanError as error:
        return PlanPreview(text, None, error.message, error.clause)
    except EntropyError as error:  # the notation's own message (a plan that does not parse)
        return PlanPreview(text, None, str(error).splitlines()[0], None)
    try:
        if activate:  # an activation's start rides nothing: no producer
            state = take(engine, state, Action.activate(model_id), np.random.default_rng(seed), None, table).after
        checked = engine.check(state, action, table)
    except IllegalPlanError as error:
        return PlanPreview(text, None, error.message, error.clause, refused_path=_path_without(engine, state, action))
    except EntropyError as error:
        return PlanPreview(text, None, str(error).splitlines()[0], None)
    move = checked.move
    stress = state.model(model_id).stress
    odds = tuple((test, engine.test_odds(test.tn, stress)) for test in move.tests) if move is not None else ()
    return PlanPreview(text, checked, None, None, odds)


def _path_without(engine, state: State, action: Action):
    """The path ``action`` takes on an empty table (None when the rules refuse it even there, or
    it moves nothing): where a move only the table refused runs into what refused it."""
    if action.plan is None:
        return None
    try:
        move = engine.check(state, action, None).move
    except EntropyError:
        return None
    return move.path if move is not None else None


def ride_plan(engine, state: State, model_id: str, text: str, producer, table, seed: int):
    """Take ``text`` as one activation of ``model_id``, as the one game loop takes one
    (:meth:`~entropy3d.game.loop.Game._activate`): it starts, the action and every move the rules
    force after it go the one path, it ends; dice from ``seed``. The steps."""
    from entropy3d.game.step import take, take_action

    rng = np.random.default_rng(seed)
    action = engine.parse_action(model_id, text)
    steps = [take(engine, state, Action.activate(model_id), rng, producer, table)]
    steps += take_action(engine, steps[-1].after, action, rng, producer, table)
    if steps[-1].after.model(model_id).in_play:
        steps.append(take(engine, steps[-1].after, Action.end(model_id), rng, producer, table))
    return steps


class SceneRules:
    """The rulebook played on a table, as the viewer asks it: its system (the one played there,
    :func:`~entropy3d.scene.systemrules.system_of` with ``played``), the engine the game loop
    plays (:func:`~entropy3d.game.session.scene_engine`) over the table's view, and a geometric
    producer to ride with (made on the first ride)."""

    def __init__(self, table, geometry):
        from entropy3d.game.session import scene_engine
        from entropy3d.game.tableview import TableView
        from entropy3d.scene.systemrules import system_of

        self.table, self.geometry = table, geometry
        self.system = system_of(table, played=True)
        self.view = TableView(table, geometry)
        self.engine = scene_engine(self.system, table, geometry, self.view)
        self._producer = None

    def initial_state(self) -> State:
        """The game's first state on the scene's starting positions (each figure's wounds and
        conditions as its rulebook sets them up)."""
        return self.engine.initial_state(self.table.initial_state(self.geometry.surface_height))

    @property
    def producer(self):
        if self._producer is None:
            from entropy3d.game.session import make_producer

            self._producer = make_producer("geometric", self.table, self.geometry)
        return self._producer

    def hint(self) -> str:
        """What to type, in the rulebook's words."""
        examples = self.system.action_examples
        return f"type an action ({self.system.title})" + (
            ", e.g. " + " or ".join(f"'{example}'" for example in examples) if examples else "")

    def preview(self, state: State, model_id: str, text: str, seed: int = 1, activate: bool = True) -> PlanPreview:
        return preview_plan(self.engine, state, model_id, text, self.view, seed, activate)

    def ride(self, state: State, model_id: str, text: str, seed: int):
        return ride_plan(self.engine, state, model_id, text, self.producer, self.view, seed)

    def close(self) -> None:
        if self._producer is not None:
            self._producer.close()
