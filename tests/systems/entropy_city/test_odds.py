"""Exact odds (EC-DICE-*) against an independent brute-force enumeration and seeded simulation."""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from entropy3d.systems.entropy_city.dice import Outcome, never_push, policy_named, roll_test, sit_at_tn
from entropy3d.systems.entropy_city.odds import exact_odds


def brute_force(tn, stress, push_below_need, max_stress=10):
    """Independent enumeration over final totals (shares no code with the engine)."""
    at_max = stress >= max_stress
    need = 21 if at_max else tn

    @functools.lru_cache(maxsize=None)
    def walk(total):  # -> (success, fail, bust) probabilities from this total
        if total > 21:
            return (Fraction(0), Fraction(0), Fraction(1))
        if push_below_need and total < need:
            parts = [walk(total + face) for face in range(1, 11)]
            return tuple(sum(p[i] for p in parts) / 10 for i in range(3))
        if total >= need:
            return (Fraction(1), Fraction(0), Fraction(0))
        return (Fraction(0), Fraction(0), Fraction(1)) if at_max else (Fraction(0), Fraction(1), Fraction(0))

    result = {"crit": Fraction(0), "success": Fraction(0), "fail": Fraction(0), "bust": Fraction(0)}
    for a, b in itertools.product(range(1, 11), repeat=2):
        if {a, b} == {10, 1}:
            result["crit"] += Fraction(1, 100)
            continue
        s, f, bu = walk(a + b + stress)
        result["success"] += s / 100
        result["fail"] += f / 100
        result["bust"] += bu / 100
    result["success"] += result["crit"]
    return result


def test_EC_DICE_1_no_push_tn_14_is_exactly_30_percent(rules):
    """Clause: EC-DICE-1. 28 pairs sum to 14-20, plus the two natural 21s."""
    odds = exact_odds(14, 0, rules, never_push)
    assert odds.success == Fraction(30, 100) and odds.crit == Fraction(2, 100)
    assert odds.fail == Fraction(70, 100) and odds.bust == 0


def test_EC_DICE_6_stress_raises_bust_chance_without_pushing(rules):
    """Clause: EC-DICE-6. With stress 4 and no pushing, 2d10 of 18+ (except none) busts."""
    odds = exact_odds(14, 4, rules, never_push)
    # 2d10 totals 18, 19, 20 with stress 4 exceed 21: 3 + 2 + 1 = 6 pairs
    assert odds.bust == Fraction(6, 100)


def test_EC_DICE_5_sit_at_tn_matches_brute_force(rules):
    """Clause: EC-DICE-5 (pushing), EC-DICE-4 (bust), EC-DICE-3 (crit)."""
    for tn, stress in [(13, 0), (14, 3), (17, 1), (21, 0), (9, 5), (19, 6)]:
        odds = exact_odds(tn, stress, rules, sit_at_tn)
        ref = brute_force(tn, stress, True)
        assert (odds.success, odds.crit, odds.fail, odds.bust) == \
            (ref["success"], ref["crit"], ref["fail"], ref["bust"]), (tn, stress)
        assert odds.success + odds.fail + odds.bust == 1


def test_EC_DICE_7_max_stress_odds_match_brute_force(rules):
    """Clause: EC-DICE-7. At stress 10 the TN is 21 and a failure busts."""
    for policy, push in [(never_push, False), (sit_at_tn, True)]:
        odds = exact_odds(13, 10, rules, policy)
        ref = brute_force(13, 10, push)
        assert odds.success == ref["success"] and odds.bust == ref["bust"] and odds.fail == 0


def test_EC_DICE_3_crit_chance_is_2_percent_whatever_the_stress(rules):
    """Clause: EC-DICE-3."""
    for stress in (0, 5, 12):
        assert exact_odds(15, stress, rules, never_push).crit == Fraction(1, 50)


@settings(deadline=None, max_examples=12)
@given(tn=st.integers(8, 21), stress=st.integers(0, 10),
       policy=st.sampled_from(["sit-at-tn", "risk-aware", "never"]), seed=st.integers(0, 2**31))
def test_EC_DICE_1_simulated_frequencies_agree_with_exact_odds(rules, tn, stress, policy, seed):
    """Clause: EC-DICE-1, EC-DICE-4, EC-DICE-5. Seeded simulation within 5 binomial sigmas."""
    chosen = policy_named(policy, rules)
    odds = exact_odds(tn, stress, rules, chosen)
    rng = np.random.default_rng(seed)
    n = 3000
    counts = {o: 0 for o in Outcome}
    for _ in range(n):
        counts[roll_test(tn, stress, rng, rules, chosen).outcome] += 1
    for outcome in Outcome:
        p = float(odds.of(outcome))
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(counts[outcome] / n - p) <= 5 * sigma + 1e-9, (outcome, counts, odds)
