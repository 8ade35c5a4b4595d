"""The viewer's plan preview: a plan typed for the selected model, checked by the rules' one path
(:func:`~entropy3d.rules.transition.check`, as `entropy3d plan` does) with the exact odds of every
test it costs (:func:`~entropy3d.rules.odds.exact_odds`), then ridden as `entropy3d activate`
rides it (:func:`~entropy3d.game.step.activation`). No window: tested headless.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from entropy3d.errors import EntropyError, IllegalPlanError
from entropy3d.rules.state import State
from entropy3d.rules.transition import Action, check

#: the game turn a plan is checked at on a scene's starting positions: not the game's first action
#: (which allows speed 1 only), as `entropy3d plan` checks it without --first-action-of-game
PREVIEW_TURN = 2


@dataclass(frozen=True)
class PlanPreview:
    """A typed plan as the rules see it: the checked move, or why it is refused."""

    text: str
    move: object | None
    """The checked move (:class:`~entropy3d.rules.planner.PlannedMove`), None when refused."""
    refusal: str | None
    """The rules' or the notation's message."""
    clause: str | None
    """The clause of a refusal (None for a notation error)."""
    odds: tuple[tuple[object, object], ...] = ()
    """(test, :class:`~entropy3d.rules.odds.Odds`) for each test the move costs."""
    refused_path: object | None = None
    """(N, 2) inches: the path of a plan only the table refuses (a wall, a curb, an edge on the
    way), drawn so the user sees where it runs into what; None otherwise."""

    def lines(self) -> list[str]:
        if self.move is None:
            return [f"plan {self.text!r}: refused" + (f" ({self.clause})" if self.clause else ""),
                    f"  {self.refusal}"]
        move, end = self.move, self.move.end_pose
        lines = [f"plan {move.plan}: {move.length_in:g}\" (allowed {move.band.min:g}-{move.band.max:g}\"), "
                 f"stress {move.stress:+d}",
                 f"  ends at ({end.x:.1f}, {end.y:.1f}) facing {end.facing_deg:.0f} deg"]
        for test, odds in self.odds:
            lines.append(f"  test TN {test.tn} ({test.clause}: {test.reason}): success {float(odds.success):.1%}, "
                         f"bust {float(odds.bust):.1%}")
        if not self.odds:
            lines.append("  no tests")
        return lines + ["  Enter rides it, Esc closes"]

    def to_dict(self) -> dict:
        end = self.move.end_pose if self.move is not None else None
        return {"text": self.text, "refusal": self.refusal, "clause": self.clause,
                "end": [end.x, end.y, end.facing_deg] if end is not None else None,
                "refused_path": self.refused_path is not None,
                "tests": [{"tn": t.tn, "clause": t.clause, "success": float(o.success), "bust": float(o.bust)}
                          for t, o in self.odds]}


def preview_state(state: State, at_start: bool) -> State:
    """The state a plan is checked from: on a scene's starting positions, turn :data:`PREVIEW_TURN`."""
    return dataclasses.replace(state, turn=max(state.turn, PREVIEW_TURN)) if at_start else state


def preview_plan(state: State, model_id: str, text: str, ruleset, probe) -> PlanPreview:
    """Check ``text`` for ``model_id`` from ``state`` (nothing is ridden or rolled)."""
    from entropy3d.rules.odds import exact_odds

    try:
        move = check(state, Action.ride(model_id, text), ruleset, probe).move
    except IllegalPlanError as error:
        try:  # the plan on an empty table: a path when only the table refused it
            path = check(state, Action.ride(model_id, text), ruleset, None).move.path
        except EntropyError:
            path = None
        return PlanPreview(text, None, error.message, error.clause, refused_path=path)
    except EntropyError as error:
        return PlanPreview(text, None, str(error).splitlines()[0], None)
    stress = state.model(model_id).stress
    odds = tuple((test, exact_odds(test.tn, stress, ruleset)) for test in move.tests)
    return PlanPreview(text, move, None, None, odds)


def ride_plan(state: State, model_id: str, text: str, ruleset, producer, probe, seed: int):
    """Ride ``text`` as one activation of ``model_id`` (the one path), dice from ``seed``; the steps."""
    from entropy3d.game.step import activation
    from entropy3d.rules.engine import EntropyCityEngine

    return activation(EntropyCityEngine(ruleset, probe), state, model_id, [text], np.random.default_rng(seed),
                      producer, probe)
