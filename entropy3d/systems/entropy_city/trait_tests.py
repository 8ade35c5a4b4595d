"""What a rider's traits do to its tests (EC-TRAIT): the kinds of test they tell apart, the TN
they lower (Thrives Under Pressure), the stat they add to a total (Clutz, Do You Even Lift Bro?:
always, busting or not; Uncanny Grace, True Power: when it is relevant and does not bust) and the
dodge they forbid (Clutz), in a test (:func:`rider_test`) and in an attack's opposed test
(:func:`duel`). :mod:`entropy3d.systems.entropy_city.stress_traits` plays the rest of those traits; this module
stands below it (and below :mod:`entropy3d.systems.entropy_city.conditions`, whose fire test it rolls).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from entropy3d.systems.entropy_city.bike_advantages import advantage_bike
from entropy3d.systems.entropy_city.combat import rider_dodge
from entropy3d.systems.entropy_city.dice import DiceRules, Policy, TestRoll, roll_test, with_stat
from entropy3d.systems.entropy_city.opposed import OpposedResult, decide, opposed_test
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState

#: the kinds of test (``TestKind`` of the rules data's schema): a ride's, surviving a crash, the
#: remount, the attacker's roll of a melee attack, a shot or chicken, the defender's dodge, attack
#: back or side of chicken, and any other (putting out a fire, picking up or passing an item)
RIDE, CRASH, REMOUNT, MELEE, SHOT, CHICKEN, DODGE, ATTACK_BACK, CHICKEN_DEFENCE, OTHER = (
    "ride", "crash", "remount", "melee", "shot", "chicken", "dodge", "attack_back", "chicken_defence", "other")

#: the trait that lowers every test's TN once stress wakes it (its mark in ``ModelState.trait_marks``)
THRIVES = "thrives_under_pressure"


def trait_spec(name: str, ruleset: Ruleset) -> Mapping:
    """The rules data of trait ``name`` (``traits:``, EC-TRAIT)."""
    return ruleset.data(f"traits.{name}")


def has_trait(model: ModelState, name: str) -> bool:
    """Its card has trait ``name``."""
    return model.trait(name)[0]


def awake(model: ModelState, name: str, ruleset: Ruleset) -> bool:
    """It has trait ``name`` and the trait has woken: its mark, or its stress at ``at_stress``."""
    woken = name in model.trait_marks or model.stress >= int(trait_spec(name, ruleset)["at_stress"])
    return has_trait(model, name) and woken


@dataclass(frozen=True)
class TestMods:
    """What a rider's traits do to one test of a kind.

    tn: added to its TN (Thrives Under Pressure). bonus: a stat added to the total before it pushes,
    busting or not (Clutz, Do You Even Lift Bro?). optional: a stat added once it sits, when that
    does not bust it (Uncanny Grace, True Power). dodge_used: whether its dodge stat counts at all
    (False: a clutz surviving a crash or dodging an attack).
    """

    tn: int = 0
    bonus: int = 0
    optional: int = 0
    dodge_used: bool = True


NO_MODS = TestMods()


def tn_mod(model: ModelState, ruleset: Ruleset) -> int:
    """What its traits add to the TN of each of its tests (Thrives Under Pressure, once woken)."""
    return int(trait_spec(THRIVES, ruleset)["tn_mod"]) if awake(model, THRIVES, ruleset) else 0


def test_mods(model: ModelState, kind: str, ruleset: Ruleset) -> TestMods:
    """What ``model``'s traits do to a test of ``kind`` (one of the kinds above)."""
    if not model.traits:
        return NO_MODS
    bonus = optional = 0
    dodge_used = True
    for name, _ in model.traits:
        spec = trait_spec(name, ruleset)
        stat = spec["adds_stat"]
        if stat is None:
            continue
        if kind in spec["stat_except"]:
            dodge_used = dodge_used and stat != "dodge"
            continue
        if spec["stat_in"] and kind not in spec["stat_in"]:
            continue
        value = rider_dodge(model.dodge, advantage_bike(model), ruleset) if stat == "dodge" else model.strength
        if spec["stat_must"]:
            bonus += value
        else:
            optional += value
    return TestMods(tn_mod(model, ruleset), bonus, optional, dodge_used)


def rider_test(model: ModelState, kind: str, tn: int, stress: int, rng: np.random.Generator, ruleset: Ruleset,
               policy: Policy, *, tn_has_mods: bool = False) -> TestRoll:
    """A test of ``model``'s at ``stress`` (:func:`~entropy3d.systems.entropy_city.dice.roll_test`) with what its
    traits do to a test of ``kind`` (:func:`test_mods`): the TN, a stat it must add, one it may.
    ``tn_has_mods``: ``tn`` already carries the traits' change (an attack's TN,
    :func:`entropy3d.systems.entropy_city.attacks.target_tn`, as in :func:`duel`), so only the stats are added."""
    mods = test_mods(model if stress == model.stress else model.but(stress=stress), kind, ruleset)
    return roll_test(tn + (0 if tn_has_mods else mods.tn), stress, rng, ruleset, policy, model.max_stress,
                     mods.bonus, mods.optional)


def reads_strength(traits: Mapping[str, object], ruleset: Ruleset) -> bool:
    """Whether a card's ``traits`` (name -> x) add the rider's strength to a test: only then does
    its state carry the stat (no other rule reads it yet, and a replay keeps its bytes)."""
    return any(trait_spec(name, ruleset)["adds_stat"] == "strength" for name in traits)


def dodge_stat(model: ModelState, kind: str, ruleset: Ruleset) -> int:
    """The dodge a rider uses in a crash test or an attack's dodge: its stat on its bike
    (:func:`~entropy3d.systems.entropy_city.combat.rider_dodge`), none when a trait forbids it (Clutz)."""
    used = test_mods(model, kind, ruleset).dodge_used
    return rider_dodge(model.dodge, advantage_bike(model), ruleset) if used else 0


def duel(kind: str, attacker: ModelState, target: ModelState, attacker_kind: str, defender_kind: str, tn: int,
         rng: np.random.Generator, ruleset: Ruleset, attacker_policy: Policy, defender_policy: Policy,
         defender_tn: int = 0) -> OpposedResult:
    """An attack's opposed test (:func:`~entropy3d.systems.entropy_city.opposed.opposed_test`) with the stats the
    traits of each side add (its TNs are the caller's, with :func:`attack_tn_mod` in them)."""
    mine, theirs = test_mods(attacker, attacker_kind, ruleset), test_mods(target, defender_kind, ruleset)
    result = opposed_test(kind, tn, attacker.stress, target.stress, rng, ruleset,
                          attacker_policy=attacker_policy, defender_policy=defender_policy, defender_tn=defender_tn,
                          attacker_max_stress=attacker.max_stress, defender_max_stress=target.max_stress,
                          attacker_bonus=mine.bonus, defender_bonus=theirs.bonus)
    if not (mine.optional or theirs.optional):
        return result
    rules = DiceRules.from_ruleset(ruleset)
    return decide(kind, with_stat(result.attacker, mine.optional, rules, attacker.max_stress),
                  with_stat(result.defender, theirs.optional, rules, target.max_stress), ruleset)
