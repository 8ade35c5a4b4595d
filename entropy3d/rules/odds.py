"""Exact odds of a test by enumeration (EC-DICE-1, -3, -4, -5, -6, -7).

The first two dice are enumerated (100 equally likely pairs); pushing one's luck is a finite
recursion over (total, dice so far), because each die adds at least 1 and totals over 21 stop.
Probabilities are exact :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from entropy3d.rules.dice import (
    DiceRules,
    Outcome,
    Policy,
    PushState,
    classify_total,
    effective_tn,
    judge,
    sit_at_tn,
)
from entropy3d.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Odds:
    """Exact probabilities of one test's outcomes; they sum to 1.

    success: any success, crits included. crit: a natural 21. fail: below the TN. bust: over 21
    (or failed at max stress).
    """

    success: Fraction
    crit: Fraction
    fail: Fraction
    bust: Fraction

    def __repr__(self) -> str:
        return (f"Odds(success={float(self.success):.4f}, crit={float(self.crit):.4f}, "
                f"fail={float(self.fail):.4f}, bust={float(self.bust):.4f})")

    def of(self, outcome: Outcome) -> Fraction:
        """Probability that a test ends exactly in ``outcome`` (success excludes crits here)."""
        return {Outcome.CRIT: self.crit, Outcome.SUCCESS: self.success - self.crit,
                Outcome.FAIL: self.fail, Outcome.BUST: self.bust}[outcome]


def exact_odds(tn: int, stress: int, ruleset: Ruleset, policy: Policy = sit_at_tn,
              max_stress: int | None = None) -> Odds:
    """P(success), P(crit), P(fail), P(bust) of a test at ``tn`` with ``stress``, pushing per
    ``policy`` exactly as :func:`entropy3d.rules.dice.roll_test` does."""
    rules = DiceRules.from_ruleset(ruleset)
    need = effective_tn(tn, stress, rules, max_stress)
    sure = {Outcome.SUCCESS: (Fraction(1), Fraction(0), Fraction(0)),
            Outcome.FAIL: (Fraction(0), Fraction(1), Fraction(0)),
            Outcome.BUST: (Fraction(0), Fraction(0), Fraction(1))}

    @lru_cache(maxsize=None)
    def after(total: int, n_dice: int) -> tuple[Fraction, Fraction, Fraction]:
        """(success, fail, bust) from a non-crit final total (dice + stress) after n_dice dice."""
        if total > rules.bust_over:
            return sure[Outcome.BUST]
        state = PushState(total, need, stress, n_dice, rules.bust_over, rules.sides)
        if need <= rules.bust_over and policy(state):
            parts = [after(total + face, n_dice + 1) for face in range(1, rules.sides + 1)]
            return tuple(sum(p[i] for p in parts) / rules.sides for i in range(3))  # type: ignore
        return sure[classify_total(total, stress, tn, rules, max_stress)[0]]

    success = crit = fail = bust = Fraction(0)
    pair = Fraction(1, rules.sides ** 2)
    for a, b in itertools.product(range(1, rules.sides + 1), repeat=2):
        if judge([a, b], stress, tn, rules, max_stress).outcome is Outcome.CRIT:
            crit += pair
            success += pair
            continue
        s, f, bu = after(a + b + stress, 2)
        success += pair * s
        fail += pair * f
        bust += pair * bu
    return Odds(success, crit, fail, bust)


