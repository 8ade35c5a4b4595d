"""Taking actions along the one path: check, then a producer's facts, then resolve.

:func:`take` is what every caller runs for one action (the ``activate`` command, the game loop
for automatic and scripted players, the viewer); :func:`take_action` also rides any move the
rules force on the model afterwards (EC-DEST-3); :func:`activation` runs one model's activation.
A producer is anything with ``ride(state, action) -> Facts`` (physics or geometric).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.rules.event import Event
from entropy3d.rules.facts import Facts
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import State
from entropy3d.rules.transition import FORCED, MOVE, Action, TableChecks, check, resolve


class Producer(Protocol):
    """Says what happens on the table when a checked action is ridden; decides no rule."""

    name: str

    def ride(self, state: State, action: Action) -> Facts:
        """Ride ``action`` (checked) from ``state``."""

    def close(self) -> None:
        """Release what the producer holds (a worker process)."""


@dataclass(frozen=True, eq=False)
class Step:
    """One action taken: the checked action, what the producer found (None for actions that ride
    nothing), the rules' events and the states before and after."""

    action: Action
    facts: Facts | None
    events: tuple[Event, ...]
    before: State
    after: State

    @property
    def ridden(self) -> bool:
        """The move was ridden (not refused, not busted at a test before the bike moved)."""
        return self.facts is not None and not any(e.kind == "bust" and not e.found for e in self.events)

    @property
    def trajectory(self) -> np.ndarray:
        """(K, 5) rows of t, x, y, z, heading as ridden; empty when nothing was ridden."""
        return np.asarray(self.facts.trajectory, float) if self.ridden else np.zeros((0, 5))


def take(state: State, action: Action, ruleset: Ruleset, rng: np.random.Generator, producer: Producer,
         table: TableChecks | None = None) -> Step:
    """Check ``action`` against ``table`` (IllegalPlanError when refused), have ``producer`` ride
    it, and resolve it with ``rng`` (``table`` also says where the bike may rest)."""
    checked = check(state, action, ruleset, table)
    facts = producer.ride(state, checked) if checked.kind in (MOVE, FORCED) else None
    after, events = resolve(state, checked, facts, rng, ruleset, table)
    return Step(checked, facts, tuple(events), state, after)


def take_action(state: State, action: Action, ruleset: Ruleset, rng: np.random.Generator, producer: Producer,
                table: TableChecks | None = None) -> list[Step]:
    """:func:`take`, then every move the rules force on the model after it (EC-DEST-3)."""
    steps = [take(state, action, ruleset, rng, producer, table)]
    while (forced := steps[-1].after.model(action.model_id).forced_move) is not None:
        steps.append(take(steps[-1].after, Action.forced(action.model_id, forced, action.push), ruleset, rng,
                          producer, table))
    return steps


def activation(state: State, model_id: str, plans: Sequence[str], ruleset: Ruleset, rng: np.random.Generator,
               producer: Producer, table: TableChecks | None = None, push: str = "sit-at-tn") -> list[Step]:
    """One model's activation: it starts, then ``plans`` are taken in order while it has actions
    (an action it must skip is skipped first), then it ends. Raises IllegalPlanError for a
    refused plan (its ``action``: which plan), and for more plans than an activation has actions (EC-TURN-3)."""
    per_activation = int(ruleset.data("turn.actions_per_activation"))
    if len(plans) > per_activation:
        raise IllegalPlanError("EC-TURN-3", f"{len(plans)} plans given; an activation has {per_activation} "
                                            f"actions: give at most {per_activation}")
    steps = [take(state, Action.activate(model_id), ruleset, rng, producer)]
    for number, plan in enumerate(plans, start=1):
        model = steps[-1].after.model(model_id)
        while model.in_play and model.skip_next_action and model.actions_taken < per_activation:
            steps.append(take(steps[-1].after, Action.skip(model_id), ruleset, rng, producer))
            model = steps[-1].after.model(model_id)
        if not model.in_play or model.actions_taken >= per_activation:
            break
        try:
            steps += take_action(steps[-1].after, Action.ride(model_id, plan, push), ruleset, rng, producer, table)
        except IllegalPlanError as refused:
            raise IllegalPlanError(refused.clause, refused.message, action=number) from None
    if steps[-1].after.model(model_id).in_play:
        steps.append(take(steps[-1].after, Action.end(model_id), ruleset, rng, producer, table))
    return steps


__all__ = ["IllegalPlanError", "Producer", "Step", "activation", "take", "take_action"]
