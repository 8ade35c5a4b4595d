"""Ambush (rulebook "Traits: Ambush", clause EC-TRAIT-AMBUSH).

"The basic idea is you set up a place for a rider who is off the table to come on later in the
game, you have 3 tokens only one of which is the real location. If a rider comes within 8 inches
of the true token you may choose to reveal or not, should you reveal they have to pass a TN17 test
to prevent being surprised, this test is purely about the surprise and cannot cause a bust. If
successful their turn continues as normal and the rider is revealed, if failed ambush gains
control of the turn and the rider is considered surprised if an attacked. The ambush may use both
of its activations before turn returns to the active player."

The readings played are the rules data's ``traits.ambush`` (with their DECISIONs): the ambusher
waits off the table (status ``waiting``: nothing sees, meets or targets a model not in play) with
its pose the true token and ``ModelState.decoys`` the others (:func:`tokens`); an enemy's ride that
ends within ``reveal_in`` inches of the true token gives its player the reveal it chose at set-up
(``ModelState.reveal_on``), and the rider tests (:func:`spring`); a failed test ends the rider's
activation, gives the ambusher ``control_activations`` activations at once (:func:`interrupting`,
which the game loop asks after each activation) and holds the rider surprised by it
(:func:`surprises`, EC-MEL-2) until they are over (:func:`after_own_action`). Pure: the dice are
injected. Lengths are table inches.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.systems.entropy_city.conditions import after_test, stun_tn_mod
from entropy3d.systems.entropy_city.dice import policy_named
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import RIDING, WAITING, ModelState, State
from entropy3d.systems.entropy_city.trait_tests import OTHER, rider_test

AMBUSH = "ambush"
#: the mark an ambusher carries once for each activation a failed test gives it at once
CONTROL = "ambush:control"


def is_ambusher(model: ModelState) -> bool:
    """The model has the Ambush trait."""
    return model.trait(AMBUSH)[0]


def lying_in_wait(model: ModelState) -> bool:
    """An ambusher still off the table, not yet revealed."""
    return model.status == WAITING and is_ambusher(model)


def tokens(model: ModelState) -> list[tuple[float, float]]:
    """The ambusher's tokens as the table shows them while it waits (x, y inches), in an order that
    does not tell the true one (by x, then y): its pose's and its decoys'."""
    return sorted([(model.pose.x, model.pose.y), *model.decoys])


def lie_in_wait(model: ModelState, decoys, reveal_on) -> ModelState:
    """The scene's ambusher set up off the table (EC-TRAIT-AMBUSH): waiting, on its true token,
    with ``decoys`` ([x, y] inches) and the enemies its player reveals on (``reveal_on``); any other
    model as it is."""
    if not is_ambusher(model):
        return model
    return model.but(status=WAITING, decoys=tuple((float(x), float(y)) for x, y in decoys),
                     reveal_on=tuple(reveal_on))


def interrupting(state: State) -> list[str]:
    """The ambushers that take an activation now, before the turn's next (a failed test gave them
    control of the turn, EC-TRAIT-AMBUSH), in the state's order."""
    return [m.id for m in state.models.values() if m.in_play and CONTROL in m.trait_marks]


def surprises(attacker: ModelState, target: ModelState) -> bool:
    """``target`` failed its test against ``attacker``'s ambush and the ambush still has control of
    the turn: it is surprised by the ambusher's attacks (EC-TRAIT-AMBUSH, EC-MEL-2)."""
    return target.ambushed_by is not None and target.ambushed_by == attacker.id


def spring(state: State, rider_id: str, push: str, rng: np.random.Generator, ruleset: Ruleset
           ) -> tuple[State, list[Event]]:
    """After ``rider_id``'s ride: each ambusher of another gang lying in wait whose true token the
    rider ended within ``reveal_in`` inches of, and whose player reveals on it (its ``reveal_on``,
    or anyone when it names none), is revealed, unless a model in play stands on its token's
    place (the bases would overlap: it cannot come on there); the rider tests at ``surprise_tn`` with its push
    policy ``push`` (a bust only fails). Passed: the ambusher stands on its token at its speed and
    activates from the next turn. Failed: the same, and the rider's activation is over, the
    ambusher holds ``control_activations`` activations to take at once and the rider is surprised
    by it meanwhile. The state as it is when no ambush is sprung."""
    events: list[Event] = []
    for waiting in [m for m in state.models.values() if lying_in_wait(m)]:
        rider = state.model(rider_id)
        if not rider.in_play or rider.gang == waiting.gang or (waiting.reveal_on and rider.id not in waiting.reveal_on):
            continue
        spec = ruleset.data(f"traits.{AMBUSH}")
        away = math.hypot(rider.pose.x - waiting.pose.x, rider.pose.y - waiting.pose.y)
        if away > float(spec["reveal_in"]):
            continue
        if _place_taken(state, waiting, ruleset):
            continue
        tn = int(spec["surprise_tn"]) + stun_tn_mod(rider, ruleset)  # EC-COND-STUN: +3 to every test
        test = rider_test(rider, OTHER, tn, rider.stress, rng, ruleset, policy_named(push, ruleset))
        # as every rider test: the roll's stress (a pass at the top of the track, a crit: -3), and a
        # pass shakes off being stunned
        rider = after_test(rider.but(stress=max(0, rider.stress + test.stress_change)), test.succeeded)
        revealed = waiting.but(status=RIDING, decoys=())
        at = f"({waiting.pose.x:g}, {waiting.pose.y:g})"
        if test.succeeded:
            state = state.with_model(revealed).with_model(rider)
            text = f"{waiting.id} springs an ambush at {at}, {away:.1f}\" from {rider.id}: TN {tn}, {roll_text(test)}" \
                   f": not surprised, {rider.id} rides on; {waiting.id} activates from the next turn"
        else:
            control = int(spec["control_activations"])
            state = state.with_model(revealed.but(trait_marks=revealed.trait_marks + (CONTROL,) * control))
            state = state.with_model(rider.but(actions_taken=int(ruleset.data("turn.actions_per_activation")),
                                               attack_chance=None, free_move_in=0.0, ambushed_by=waiting.id))
            text = f"{waiting.id} springs an ambush at {at}, {away:.1f}\" from {rider.id}: TN {tn}, {roll_text(test)}" \
                   f": surprised; the ambush takes control of the turn"
        events.append(Event("trait", waiting.id, text, clauses=("EC-TRAIT-AMBUSH",), rolls=(test,),
                            figures={"ambush": "revealed", "rider": rider.id, "surprised": not test.succeeded,
                                     "at": [waiting.pose.x, waiting.pose.y], "distance_in": round(away, 4)}))
    return state, events


def _place_taken(state: State, waiting: ModelState, ruleset: Ruleset) -> bool:
    """A model in play stands where the ambusher's base would on its true token: the two bases (as
    :class:`~entropy3d.geometry.BaseShape` reaches along the line between their centres) overlap."""
    base = ruleset.base_for(waiting.bike_type)
    for other in state.models.values():
        if not other.in_play:
            continue
        between = np.array([other.pose.x - waiting.pose.x, other.pose.y - waiting.pose.y])
        apart = float(np.hypot(*between))
        if apart < 1e-9:
            return True
        toward = between / apart
        if apart < base.reach(waiting.pose, toward) + ruleset.base_for(other.bike_type).reach(other.pose, -toward):
            return True
    return False


def after_own_action(state: State, model_id: str, kind: str) -> State:
    """An ambusher's own activation (EC-TRAIT-AMBUSH): as one it took at once begins (``kind``
    ``activate``), one of its control marks is spent; as the last ends (``end``, none left), the
    riders it held surprised are no longer. The state as it is for any other model or action."""
    model = state.model(model_id)
    if not is_ambusher(model):
        return state
    if kind == "activate" and CONTROL in model.trait_marks:
        marks = list(model.trait_marks)
        marks.remove(CONTROL)
        return state.with_model(model.but(trait_marks=tuple(marks)))
    if kind == "end" and CONTROL not in model.trait_marks:
        held = [m for m in state.models.values() if m.ambushed_by == model_id]
        for rider in held:
            state = state.with_model(rider.but(ambushed_by=None))
    return state
