"""Traits of a rider's card that read its stress, its stats and its deeds (EC-TRAIT).

Every number and every reading of the rulebook's "Traits" is in the rules data (``traits:`` of
``rules/entropy_city.yaml``, a ``# DECISION:`` where the rulebook says "needs work"); this module
plays them where the one path rolls tests, adds stress and starts or ends an activation:

- what traits do to a test (a stat added to its total, its TN lowered, the dodge forbidden) is
  :mod:`entropy3d.systems.entropy_city.trait_tests`;
- what an attack's TN makes of its target (:func:`attack_tn_mod`, :func:`melee_base`: Subtle as a
  Sledgehammer, Squid);
- stress a ride gives (:func:`ride_stress`: Inebriated), slowing down (:func:`slow_down_test`),
  the actions a trait forbids (:func:`check_action`), the push policy it forces
  (:func:`with_trait_pushes`: Rage Filled);
- what each rider's traits record once an action has resolved (:func:`after_action`: Second Wind,
  Thrives and Cracks Under Pressure waking at stress 6, Sledgehammer's first landed attack), and
  what they do as an activation starts or ends (Unwavering Dedication, Cracks Under Pressure).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.conditions import floor_stress
from entropy3d.systems.entropy_city.plan import STOPS
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.trait_tests import THRIVES, has_trait, tn_mod, trait_spec

#: ``ModelState.trait_marks``: Second Wind spent; Thrives / Cracks Under Pressure woken (for the
#: rest of the game); still cracking (1 stress an activation until it stops); a first landed attack
SECOND_WIND, CRACKED, CRACKING, SLEDGEHAMMER = (
    "second_wind", "cracks_under_pressure", "cracking", "subtle_as_a_sledgehammer")


def attack_tn_mod(attacker: ModelState, target: ModelState, ruleset: Ruleset) -> int:
    """What traits add to an attack's TN: the attacker's own test mod (Thrives Under Pressure) and
    the target's for incoming attacks (Subtle as a Sledgehammer, once it has landed one)."""
    mod = tn_mod(attacker, ruleset)
    if SLEDGEHAMMER in target.trait_marks:
        mod += int(trait_spec(SLEDGEHAMMER, ruleset)["incoming_tn_mod"])
    return mod


def melee_base(weapon_tn: int, target: ModelState, ruleset: Ruleset) -> tuple[int, int]:
    """(the weapon's TN, the protection added) of a melee attack on ``target``: a squid is hit at
    no more than ``melee_tn_max`` and wears no protection."""
    if not has_trait(target, "squid"):
        return weapon_tn, target.protection
    spec = trait_spec("squid", ruleset)
    return (min(weapon_tn, int(spec["melee_tn_max"])),
            target.protection if spec["protection_counts"] else 0)


def ride_stress(model: ModelState, change: int, ruleset: Ruleset) -> int:
    """Stress a ride gives ``model`` (``change`` > 0), after Inebriated's "reduces all non-attack
    stress by 1 to a minimum of 1"."""
    if change <= 0 or not has_trait(model, "inebriated"):
        return change
    spec = trait_spec("inebriated", ruleset)
    return max(min(change, int(spec["min_stress"])), change - int(spec["ride_stress_less"]))


def slow_down_test(model: ModelState, speed: int, walking: bool, ruleset: Ruleset) -> tuple[int, int]:
    """(TN, stress on a fail) of the test an inebriated rider takes to ride slower than it goes
    (``speed`` below its own); (0, 0): no test."""
    if not has_trait(model, "inebriated") or walking or model.on_foot or speed >= model.speed:
        return 0, 0
    spec = trait_spec("inebriated", ruleset)
    return int(spec["slow_down_tn"]), int(spec["slow_down_fail_stress"])


def check_action(model: ModelState, action: str, ruleset: Ruleset) -> None:
    """Refuse a plan action a trait forbids (Inebriated: stops and focus; Cracks Under Pressure:
    focus, once woken); raises IllegalPlanError naming EC-TRAIT."""
    for name, _ in model.traits:
        spec = trait_spec(name, ruleset)
        if action not in spec["refuses_actions"]:
            continue
        if name == CRACKED and CRACKED not in model.trait_marks:
            continue
        raise IllegalPlanError("EC-TRAIT", f"{model.id} is {name.replace('_', ' ')}: it may not take a {action} "
                                           f"action (no {', '.join(spec['refuses_actions'])})")


def recovered_stress(model: ModelState, ruleset: Ruleset) -> int:
    """The stress a stopped rider recovers to (EC-STOP-RECOVER: all of it, see its DECISION);
    once Cracks Under Pressure has woken, a stop takes off ``recovery_max`` at most."""
    if CRACKED not in model.trait_marks:
        return 0
    return max(0, model.stress - int(trait_spec(CRACKED, ruleset)["recovery_max"]))


def _event(model: ModelState, words: str, change: int = 0, **figures) -> Event:
    return Event("condition", model.id, words, clauses=("EC-TRAIT",), stress_change=change, figures=figures)


def at_activation_start(state: State, model_id: str, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Unwavering Dedication (x): "Each turn this character loses x stress", as it activates."""
    model = state.model(model_id)
    dedicated, x = model.trait("unwavering_dedication")
    if not dedicated or not model.stress:
        return state, []
    after = floor_stress(model.but(stress=max(0, model.stress - int(x))), ruleset)
    change = after.stress - model.stress
    if not change:
        return state, []
    return state.with_model(after), [_event(model, f"sheds {-change} stress: unwavering dedication", change)]


def at_activation_end(state: State, model_id: str, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Cracks Under Pressure: +1 stress at the end of each activation while it is cracking."""
    model = state.model(model_id)
    if CRACKING not in model.trait_marks or not model.in_play:
        return state, []
    added = int(trait_spec(CRACKED, ruleset)["stress_per_activation"])
    return (state.with_model(model.but(stress=model.stress + added)),
            [_event(model, f"cracks under pressure: +{added} stress until it stops", added)])


def after_action(after: State, kind: str, model_id: str, plan_action: str | None,
                 events: Sequence[Event], ruleset: Ruleset) -> tuple[State, list[Event]]:
    """What each rider's traits record once an action has resolved: a stop ends Cracks Under
    Pressure's cracking; stress 6 wakes Thrives and Cracks Under Pressure; a landed attack wakes
    Subtle as a Sledgehammer; reaching max stress spends Second Wind (-3 stress)."""
    said: list[Event] = []
    landed = {e.piece for e in events if "EC-WOUND" in e.clauses}
    for model in list(after.models.values()):
        if not model.traits or not model.in_play:
            continue
        marks = list(model.trait_marks)
        stress = model.stress
        if kind == "move" and model.id == model_id and plan_action in STOPS and CRACKING in marks:
            marks.remove(CRACKING)
            said.append(_event(model, "steadies: it stopped, so cracking under pressure adds no more stress"))
        for name in (THRIVES, CRACKED):
            if has_trait(model, name) and name not in marks and stress >= int(trait_spec(name, ruleset)["at_stress"]):
                marks += [name, CRACKING] if name == CRACKED else [name]
                said.append(_event(model, f"{name.replace('_', ' ')} from here on: stress {stress}"))
        if has_trait(model, SLEDGEHAMMER) and SLEDGEHAMMER not in marks and model.id in landed:
            marks.append(SLEDGEHAMMER)
            said.append(_event(model, "lands its first blow, subtle as a sledgehammer: attacks on it are 1 "
                                      "easier for the rest of the game"))
        if has_trait(model, SECOND_WIND) and SECOND_WIND not in marks and stress >= model.max_stress:
            marks.append(SECOND_WIND)
            drop = int(trait_spec(SECOND_WIND, ruleset)["stress_drop"])
            stress = floor_stress(model.but(stress=max(0, stress - drop)), ruleset).stress
            said.append(_event(model, f"gets its second wind at max stress: {stress - model.stress:+d} stress",
                               stress - model.stress))
        if tuple(marks) != model.trait_marks or stress != model.stress:
            after = after.with_model(model.but(trait_marks=tuple(marks), stress=stress))
    return after, said


def with_trait_pushes(action, state: State, ruleset: Ruleset):
    """``action`` (a :class:`~entropy3d.systems.entropy_city.transition.Action`) with the push policies Rage
    Filled forces on its rider and, for an attack, its target: a rage-filled rider "may never
    choose to fail a test", so it tests with the trait's ``forced_push`` whatever it asked."""
    def forced(model_id: str | None, asked: str) -> str:
        model = state.models.get(model_id) if model_id is not None else None
        raging = model is not None and has_trait(model, "rage_filled")
        return trait_spec("rage_filled", ruleset)["forced_push"] if raging else asked

    push = forced(action.model_id, action.push)
    defender_push = forced(action.target if action.kind == "attack" else None, action.defender_push)
    if (push, defender_push) == (action.push, action.defender_push):
        return action
    return dataclasses.replace(action, push=push, defender_push=defender_push)
