"""States and conditions (EC-COND-BLEED, EC-COND-BURN, EC-COND-WET; stunned is checked where a
move is planned and a test is rolled, EC-COND-STUN): what a condition does when it starts, after
each action and at the end of each activation. The numbers are rules data (``conditions:``)."""

from __future__ import annotations

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.systems.entropy_city.dice import policy_named
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import OUT, ModelState
from entropy3d.systems.entropy_city.trait_tests import OTHER, rider_test

BLEEDING, STUNNED, BURNING, WET = "bleeding", "stunned", "burning", "wet"
CONDITIONS = (BLEEDING, STUNNED, BURNING, WET)


def become(model: ModelState, condition: str, ruleset: Ruleset, *, mid_game: bool = True
           ) -> tuple[ModelState, list[Event]]:
    """``model`` gains ``condition`` (nothing if it has it): bleeding adds its stress at once
    (EC-COND-BLEED); getting wet mid-game adds 2 stress, and a wet rider's stress never drops
    below 2 (EC-COND-WET)."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; use one of {', '.join(CONDITIONS)}")
    if condition in model.conditions:
        return model, []
    model = model.but(conditions=model.conditions + (condition,))
    added, clause = 0, {BLEEDING: "EC-COND-BLEED", STUNNED: "EC-COND-STUN", BURNING: "EC-COND-BURN",
                        WET: "EC-COND-WET"}[condition]
    if condition == BLEEDING:
        added = int(ruleset.data("conditions.bleed.stress_now"))
    if condition == WET and mid_game:
        added = int(ruleset.data("conditions.wet.stress_when_wet"))
    model = floor_stress(model.but(stress=model.stress + added), ruleset)
    return model, [Event("condition", model.id, f"{model.id} is {condition}" + (f": +{added} stress" if added else ""),
                         clauses=(clause,), stress_change=added)]


def stun_tn_mod(model: ModelState, ruleset: Ruleset) -> int:
    """What a stunned rider adds to the TN of every test it rolls: "Target number for all tests is
    +3" (EC-COND-STUN); 0 when it is not stunned."""
    return int(ruleset.data("conditions.stun.tn_mod")) if STUNNED in model.conditions else 0


def after_test(model: ModelState, succeeded: bool) -> ModelState:
    """"Stunned is removed on first successful test" (EC-COND-STUN)."""
    if succeeded and STUNNED in model.conditions:
        return model.but(conditions=tuple(c for c in model.conditions if c != STUNNED))
    return model


def floor_stress(model: ModelState, ruleset: Ruleset) -> ModelState:
    """A wet rider's stress is at least ``conditions.wet.min_stress`` (EC-COND-WET)."""
    if WET not in model.conditions:
        return model
    return model.but(stress=max(model.stress, int(ruleset.data("conditions.wet.min_stress"))))


def after_action(model: ModelState, ruleset: Ruleset) -> tuple[ModelState, list[Event]]:
    """What conditions do after each action: a burning rider takes 1 stress (EC-COND-BURN)."""
    events = []
    if model.in_play and BURNING in model.conditions:
        added = int(ruleset.data("conditions.burn.stress_per_action"))
        model = model.but(stress=model.stress + added)
        events.append(Event("condition", model.id, f"burning: +{added} stress", clauses=("EC-COND-BURN",),
                            stress_change=added))
    return floor_stress(model, ruleset), events


def at_activation_end(model: ModelState, rng: np.random.Generator, ruleset: Ruleset, push: str = "sit-at-tn"
                      ) -> tuple[ModelState, list[Event]]:
    """What conditions do at the end of an activation: bleeding adds its stress and, from 6
    stress, a wound (EC-COND-BLEED); burning costs a wound, then a TN 17 test may put the fire out
    (EC-COND-BURN). A rider with no wound left is out of the game."""
    events: list[Event] = []
    if model.in_play and BLEEDING in model.conditions:
        spec = ruleset.data("conditions.bleed")
        stress = model.stress + int(spec["stress_per_activation"])
        lost = 1 if stress >= int(spec["wound_from_stress"]) else 0
        model = model.but(stress=stress, wounds=max(0, model.wounds - lost))
        events.append(Event("condition", model.id, f"bleeding: +{spec['stress_per_activation']} stress"
                            + (", -1 wound" if lost else ""), clauses=("EC-COND-BLEED",),
                            stress_change=int(spec["stress_per_activation"])))
    if model.in_play and BURNING in model.conditions and model.wounds > 0:
        spec = ruleset.data("conditions.burn")
        lost = min(model.wounds, int(spec["wounds_per_activation"]))
        model = model.but(wounds=model.wounds - lost)
        text = f"burning: -{lost} wound"
        if model.wounds > 0:
            tn = int(spec["put_out_tn"]) + stun_tn_mod(model, ruleset)
            test = rider_test(model, OTHER, tn, model.stress, rng, ruleset, policy_named(push, ruleset))
            out = test.succeeded
            model = after_test(model, out)
            if out:
                model = model.but(conditions=tuple(c for c in model.conditions if c != BURNING))
            verdict = "out" if out else "still burning"
            text += f"; TN {tn} to put it out, {roll_text(test)}: {verdict}"
            events.append(Event("condition", model.id, text, clauses=("EC-COND-BURN",), rolls=(test,)))
        else:
            events.append(Event("condition", model.id, text, clauses=("EC-COND-BURN",)))
    if model.in_play and model.wounds <= 0:
        model = model.but(wounds=0, status=OUT, air=None)
        events.append(Event("condition", model.id, f"{model.id} is out of the game", clauses=("EC-WOUND",),
                            figures={"taken_out": True}))
    return floor_stress(model, ruleset), events
