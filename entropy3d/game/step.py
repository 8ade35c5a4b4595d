"""Taking actions along the one path, in any rulebook: check, then the table's facts, then resolve.

:func:`take` is what every caller runs for one action (the ``activate`` and ``act`` commands, the
one game loop for automatic and scripted players, the viewer), whichever rulebook's engine decides it
(:class:`~entropy3d.systems.entropy_city.engine.EntropyCityEngine`, the gang battle's, 10acity's, the chase's):
the engine checks the action against the table, the table gives the facts the engine reads (a
producer's ride of a move; the LOS engine's sighting of a shot's target for an engine that
``reads_sight``; the table's reading of a ride for one that ``reads_rides``), and the engine
resolves it. :func:`take_action` also rides any move the rules force on the model afterwards
(EC-DEST-3); :func:`activation` runs one Entropy City rider's activation. A producer is anything
with ``ride(state, action) -> Facts`` (physics or geometric).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import poses_along
from entropy3d.systems.entropy_city.attack_chances import ALONG
from entropy3d.systems.entropy_city.attacks import CHICKEN
from entropy3d.systems.entropy_city.plan import SPENDS_THE_ACTIVATION
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import ATTACK, MOVE, Action
from entropy3d.table_answers import with_table_answers, wreck_answers


class Producer(Protocol):
    """Says what happens on the table when a checked action is ridden; decides no rule."""

    name: str

    def ride(self, state: State, action: Action) -> Facts:
        """Ride ``action`` (checked) from ``state``."""

    def close(self) -> None:
        """Release what the producer holds (a worker process)."""


class Engine(Protocol):
    """A rulebook's rules on one table, as the one path walks them."""

    reads_sight: bool
    """It resolves an attack from the LOS engine's sighting of its target (``table.sightings``)."""
    reads_rides: bool
    """It resolves a ride from the table's reading of it (``table.read_ride``), not the bare facts."""
    # reads_table_answers (optional, Entropy City's): its resolve reads the answers of the table it
    # plays on (its ``table``) given with the facts (:func:`entropy3d.table_answers.with_table_answers`)
    # places_wrecks (optional, Entropy City's): after resolve, its ``place_wrecks(before, after,
    # answers)`` places the wreck of each rider taken out from what its ``table`` says of the spots
    # around it (:func:`entropy3d.table_answers.wreck_answers`), as the opponent does at the table

    def check(self, state: State, action: Action, table: Any = None) -> Action:
        """The action checked (with its move or its target), or IllegalPlanError naming the clause."""

    def resolve(self, state: State, action: Action, facts: Any, rng: np.random.Generator
                ) -> tuple[State, Sequence[Event]]:
        """The next state and its events, from a checked action, its facts and the dice."""


@dataclass(frozen=True, eq=False)
class Step:
    """One action taken: the checked action, what the producer found riding it (None for actions
    that ride nothing; with the table's answers for an engine that ``reads_table_answers``), what
    the engine read (``reading``: the sighting of a shot's target, the table's reading of a ride,
    the facts, or what the table showed as an activation began), the rules' events and the states
    before and after."""

    action: Action
    facts: Facts | None
    events: tuple[Event, ...]
    before: State
    after: State
    reading: Any = None

    @property
    def ridden(self) -> bool:
        """The move was ridden (not refused, not busted at a test before the bike moved)."""
        return self.facts is not None and not any(e.kind == "bust" and not e.found for e in self.events)

    @property
    def trajectory(self) -> np.ndarray:
        """(K, 5) rows of t, x, y, z, heading as ridden; empty when nothing was ridden."""
        return np.asarray(self.facts.trajectory, float) if self.ridden else np.zeros((0, 5))


def take(engine: Engine, state: State, action: Action, rng: np.random.Generator, producer: Producer,
         table=None) -> Step:
    """Check ``action`` against ``table`` (IllegalPlanError when refused), give the engine the facts
    it reads (``producer`` rides a move), and resolve it with ``rng``. ``table``: asked by the
    check (curbs, buildings, sight) and for the facts an engine that ``reads_sight`` or
    ``reads_rides`` needs; None checks against no table. An engine that ``reads_table_answers``
    has its own ``table`` asked, before it resolves, what its resolve reads
    (:func:`~entropy3d.table_answers.with_table_answers`); one that ``places_wrecks`` then places
    the wrecks of the riders the action took out from what its table says of the spots around
    them (:func:`~entropy3d.table_answers.wreck_answers`, EC-WOUND)."""
    checked = engine.check(state, action, table)
    facts = None
    if checked.kind == ATTACK and engine.reads_sight:
        reading = next(s for s in table.sightings(state, checked.model_id) if s.target == checked.target)
    elif checked.move is not None:
        facts = producer.ride(state, checked)
        if getattr(engine, "reads_table_answers", False):  # the answers its resolve reads, asked first
            facts = with_table_answers(engine.table, state, checked, facts, engine.ruleset)
        # an engine may name where a rule can stop a ride short (``ride_stop_in``, inches)
        reading = (table.read_ride(checked.model_id, facts, getattr(engine, "ride_stop_in", None))
                   if engine.reads_rides else facts)
    else:  # an activation's start reads what the table shows then (EC-STEALTH)
        reading = with_table_answers(engine.table, state, checked, None, engine.ruleset) if getattr(
            engine, "reads_table_answers", False) else None
    after, events = engine.resolve(state, checked, reading, rng)
    if getattr(engine, "places_wrecks", False):  # EC-WOUND: the opponent places the wrecks it left
        after, placed = engine.place_wrecks(state, after, wreck_answers(engine.table, state, after, engine.ruleset))
        events = [*events, *placed]
    return Step(checked, facts, tuple(events), state, after, reading)


def take_action(engine: Engine, state: State, action: Action, rng: np.random.Generator, producer: Producer,
                table=None) -> list[Step]:
    """:func:`take`, then every move the rules force on the model after it (EC-DEST-3)."""
    steps = [take(engine, state, action, rng, producer, table)]
    while (forced := steps[-1].after.model(action.model_id).forced_move) is not None:
        steps.append(take(engine, steps[-1].after, Action.forced(action.model_id, forced, action.push), rng,
                          producer, table))
    return steps


def activation(engine: Engine, state: State, model_id: str, plans: Sequence[str], rng: np.random.Generator,
               producer: Producer, table=None, push: str = "sit-at-tn") -> list[Step]:
    """One Entropy City rider's activation (``engine``: an
    :class:`~entropy3d.systems.entropy_city.engine.EntropyCityEngine`): it starts, then ``plans`` are taken in
    order while it has actions (an action it must skip is skipped first), then it ends. Raises
    IllegalPlanError for a refused plan (its ``action``: which plan), for more plans than an
    activation has actions (EC-TURN-3), and for a plan given after one that spent the activation
    (a stop, an overwatch, a gung-ho ride, a skipped activation). Plans after one whose dice ended
    the activation (a head-on crash survived) or took the model out of the game are not ridden:
    fewer ridden steps than plans say so."""
    per_activation = int(engine.ruleset.data("turn.actions_per_activation"))
    try:
        asked = [engine.parse_action(model_id, plan, push) for plan in plans]
    except IllegalPlanError as refused:
        raise IllegalPlanError(refused.clause, refused.message,
                               action=next(k for k, plan in enumerate(plans, start=1)
                                           if not _parses(engine, model_id, plan))) from None
    moving = [number for number, action in enumerate(asked, start=1) if action.kind != ATTACK]
    if len(moving) > per_activation:  # the first plan past the activation's actions is the one refused
        raise IllegalPlanError("EC-TURN-3", f"{len(moving)} plans given; an activation has {per_activation} "
                                            f"actions: give at most {per_activation}", action=moving[per_activation])
    steps = [take(engine, state, Action.activate(model_id), rng, producer, table)]
    for number, asked_for in enumerate(asked, start=1):
        model = steps[-1].after.model(model_id)
        if asked_for.kind == ATTACK:
            if not model.in_play:
                break
            try:
                steps.append(take(engine, steps[-1].after, _struck_from(engine, steps, asked_for, table), rng,
                                  producer, table))
            except IllegalPlanError as refused:
                raise IllegalPlanError(refused.clause, refused.message, action=number) from None
            continue
        while model.in_play and model.skip_next_action and model.actions_taken < per_activation:
            steps.append(take(engine, steps[-1].after, Action.skip(model_id), rng, producer, table))
            model = steps[-1].after.model(model_id)
        if not model.in_play:
            break
        if model.actions_taken >= per_activation:
            spent = next((s.action.plan for s in reversed(steps) if s.action.kind == MOVE), None)
            if spent is None or spent.action in SPENDS_THE_ACTIVATION:  # the plans given ask the impossible
                raise IllegalPlanError("EC-TURN-3", f"{model_id} has no action left for it: "
                                       + (f"'{spent}' spent its activation" if spent else "it skips this activation"),
                                       action=number)
            break  # the ride's dice ended it (a head-on crash survived, a stunned rider): not ridden
        try:
            steps += take_action(engine, steps[-1].after, asked_for, rng, producer, table)
        except IllegalPlanError as refused:
            raise IllegalPlanError(refused.clause, refused.message, action=number) from None
    if steps[-1].after.model(model_id).in_play:
        steps.append(take(engine, steps[-1].after, Action.end(model_id), rng, producer, table))
    return steps


def _parses(engine: Engine, model_id: str, text: str) -> bool:
    try:
        engine.parse_action(model_id, text)
    except IllegalPlanError:
        return False
    return True


def _struck_from(engine: Engine, steps: Sequence[Step], attack: Action, table) -> Action:
    """``attack`` from the first point of the attacker's last ridden move (every inch along it, then
    where it stands) from which the rules allow it (EC-ACT-ATTACK: "at any point along the move"),
    the way a player would choose it; where it stands when none does (the check then says why)."""
    import math

    state = steps[-1].after
    attacker = state.model(attack.model_id)
    stands = attacker.pose
    ridden = next((s.trajectory for s in reversed(steps) if s.action.move is not None and s.ridden), None)
    if attacker.attack_chance not in ALONG or attack.weapon == CHICKEN:
        return attack  # a focussed or reload shot where it stopped, chicken where it stands
    for pose in poses_along(ridden):
        if math.hypot(pose.x - stands.x, pose.y - stands.y) < 1e-6:
            continue
        candidate = dataclasses.replace(attack, from_pose=pose)
        try:
            engine.check(state, candidate, table)
        except IllegalPlanError:
            continue
        return candidate
    return attack


__all__ = ["Engine", "IllegalPlanError", "Producer", "Step", "activation", "take", "take_action"]
