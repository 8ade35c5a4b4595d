"""Opposed tests (EC-DICE-2, EC-DICE-5): attacker and defender both roll; the attacker must make
its TN *and* beat the defender's total. Ties go to the defender in melee and dodges, to the
attacker in gun fights (data: ``dice.ties_to``). After the first dice each side may push its
luck; by default the defender always pushes first (option ``push_order``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from entropy3d.systems.entropy_city.dice import (
    DiceRules,
    Outcome,
    Policy,
    TestRoll,
    first_dice,
    judge,
    pushed_die,
    sit_at_tn,
    wants_push,
)
from entropy3d.systems.entropy_city.ruleset import Ruleset


@dataclass(frozen=True)
class OpposedResult:
    """An opposed test.

    kind: melee, dodge or gun (decides ties). attacker / defender: the two recorded rolls.
    attacker_wins: the attack succeeds. tie: both ended on the same total (or both crit).
    """

    kind: str
    attacker: TestRoll
    defender: TestRoll
    attacker_wins: bool
    tie: bool
    clauses: tuple[str, ...] = ("EC-DICE-2", "EC-DICE-5")


def ties_to_attacker(kind: str, ruleset: Ruleset) -> bool:
    """Whether a tie in an opposed test of ``kind`` goes to the attacker (EC-DICE-2)."""
    ties = ruleset.data("dice.ties_to")
    if kind not in ties:
        raise ValueError(f"unknown opposed test kind {kind!r}; use one of {', '.join(ties)}")
    return ties[kind] == "attacker"


def decide(kind: str, attacker: TestRoll, defender: TestRoll, ruleset: Ruleset) -> OpposedResult:
    """Who wins two finished rolls (pure). The attacker needs its TN and to beat the defender."""
    to_attacker = ties_to_attacker(kind, ruleset)
    a_crit = attacker.outcome is Outcome.CRIT
    d_crit = defender.outcome is Outcome.CRIT
    tie = (a_crit and d_crit) or (not a_crit and not d_crit and attacker.total == defender.total)
    if not attacker.succeeded:
        wins = False
    elif defender.outcome is Outcome.BUST:
        wins = True
    elif a_crit != d_crit:
        wins = a_crit
    elif tie:
        wins = to_attacker
    else:
        wins = attacker.total > defender.total
    return OpposedResult(kind, attacker, defender, wins, tie)


def need_to_beat(other: TestRoll, own_tn: int, win_ties: bool, rules: DiceRules) -> int:
    if other.outcome is Outcome.BUST:
        return own_tn
    if other.outcome is Outcome.CRIT:
        return rules.bust_over + 1  # only a crit matches a crit: pushing cannot win
    return max(own_tn, other.total + (0 if win_ties else 1))


def opposed_test(kind: str, attacker_tn: int, attacker_stress: int, defender_stress: int,
                 rng: np.random.Generator, ruleset: Ruleset, *,
                 attacker_policy: Policy = sit_at_tn, defender_policy: Policy = sit_at_tn,
                 defender_tn: int = 0, attacker_max_stress: int | None = None,
                 defender_max_stress: int | None = None, attacker_bonus: int = 0,
                 defender_bonus: int = 0) -> OpposedResult:
    """Roll an opposed test: 2d10 each (attacker's dice drawn first), then pushing, then decide.

    defender_tn: a TN the defender must make too (0: none, the dodge only has to beat the attack).
    attacker_bonus / defender_bonus: a stat each side's traits add to its total (EC-TRAIT).
    """
    rules = DiceRules.from_ruleset(ruleset)
    to_attacker = ties_to_attacker(kind, ruleset)
    spec = {"a": (attacker_tn, attacker_stress, attacker_max_stress, attacker_policy, to_attacker, attacker_bonus),
            "d": (defender_tn, defender_stress, defender_max_stress, defender_policy, not to_attacker, defender_bonus)}
    dice, aside = {}, {}
    for side in ("a", "d"):  # the attacker's dice drawn first
        tn, stress, max_stress, policy, _, _ = spec[side]
        dice[side], aside[side] = first_dice(rng, rules, policy, stress, tn, max_stress)

    def current(side: str) -> TestRoll:
        tn, stress, max_stress, _, _, bonus = spec[side]
        roll = judge(dice[side], stress, tn, rules, max_stress, bonus)
        return replace(roll, discarded=tuple(aside[side])) if aside[side] else roll

    for side in push_order(current("a"), current("d"), ruleset):
        other = current("d" if side == "a" else "a")
        tn, _, _, policy, win_ties, _ = spec[side]
        roll = current(side)
        while wants_push(roll, need := need_to_beat(other, roll.effective_tn, win_ties, rules), policy, rules):
            die, more = pushed_die(rng, rules, policy, roll.total, need)
            dice[side].append(die)
            aside[side] += more
            roll = current(side)
    return decide(kind, current("a"), current("d"), ruleset)


def push_order(attacker: TestRoll, defender: TestRoll, ruleset: Ruleset) -> Sequence[str]:
    """Which side pushes first ("a" attacker, "d" defender): the defender, or with the option
    ``push_order: lowest_first`` the side with the lower first total."""
    return pushes_first(attacker, defender, ruleset.option("push_order") == "lowest_first")


def pushes_first(attacker: TestRoll, defender: TestRoll, lowest_first: bool) -> Sequence[str]:
    """:func:`push_order` with the option given."""
    if lowest_first and attacker.total < defender.total:
        return ("a", "d")
    return ("d", "a")
