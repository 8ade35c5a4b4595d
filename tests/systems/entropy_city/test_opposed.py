"""Opposed tests (EC-DICE-2, EC-DICE-5)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from entropy3d.systems.entropy_city.dice import Outcome, never_push
from entropy3d.systems.entropy_city.opposed import opposed_test


def test_EC_DICE_2_worked_example_defender_16_beats_attacker_15(rules, dice):
    """Clause: EC-DICE-2. Attacker needs 13, rolls 7+8 = 15; defender rolls 9+7 = 16 and wins."""
    result = opposed_test("melee", 13, 0, 0, dice([7, 8, 9, 7]), rules,
                          attacker_policy=never_push, defender_policy=never_push)
    assert result.attacker.total == 15 and result.defender.total == 16
    assert not result.attacker_wins


def test_EC_DICE_2_melee_and_dodge_ties_go_to_the_defender(rules, dice):
    """Clause: EC-DICE-2."""
    for kind in ("melee", "dodge"):
        result = opposed_test(kind, 13, 0, 0, dice([7, 8, 8, 7]), rules,
                              attacker_policy=never_push, defender_policy=never_push)
        assert result.tie and not result.attacker_wins


def test_EC_DICE_2_gun_ties_go_to_the_attacker(rules, dice):
    """Clause: EC-DICE-2."""
    result = opposed_test("gun", 13, 0, 0, dice([7, 8, 8, 7]), rules,
                          attacker_policy=never_push, defender_policy=never_push)
    assert result.tie and result.attacker_wins


def test_EC_DICE_2_attacker_must_also_make_its_tn(rules, dice):
    """Clause: EC-DICE-2. Beating the defender is not enough below the TN."""
    result = opposed_test("melee", 16, 0, 0, dice([7, 8, 2, 3]), rules,
                          attacker_policy=never_push, defender_policy=never_push)
    assert result.attacker.total > result.defender.total and not result.attacker_wins


def test_EC_DICE_5_defender_pushes_first_then_attacker(rules, dice):
    """Clause: EC-DICE-5. Dice dealt: attacker 7,8; defender 6,6; defender pushes a 3 to reach
    15 (a melee tie is enough); then the attacker must beat 15 and pushes a 5 to 20."""
    result = opposed_test("melee", 13, 0, 0, dice([7, 8, 6, 6, 3, 5]), rules)
    assert result.defender.dice == (6, 6, 3) and result.attacker.dice == (7, 8, 5)
    assert result.attacker_wins


def test_EC_DICE_5_lowest_first_option_lets_the_lower_total_push_first(rules, dice):
    """Clause: EC-DICE-5. Option push_order=lowest_first: the attacker (lower) pushes first."""
    other = rules.with_option("push_order", "lowest_first")
    # attacker 5,5 = 10 pushes to beat the defender's 12 and its TN 13: +4 -> 14;
    # then the defender must reach 14 (tie to the defender) and pushes a 2 -> 14
    result = opposed_test("melee", 13, 0, 0, dice([5, 5, 6, 6, 4, 2]), other)
    assert result.attacker.dice == (5, 5, 4) and result.defender.dice == (6, 6, 2)
    assert not result.attacker_wins


def test_EC_DICE_4_defender_bust_hands_the_attacker_the_win(rules, dice):
    """Clause: EC-DICE-4, EC-DICE-2. The defender at stress 5 pushes from 15 and busts."""
    result = opposed_test("melee", 13, 0, 5, dice([8, 9, 5, 5, 9]), rules,
                          attacker_policy=never_push)
    assert result.defender.outcome.value == "bust" and result.attacker_wins


def test_EC_DICE_3_defender_crit_beats_a_plain_success(rules, dice):
    """Clause: EC-DICE-3."""
    result = opposed_test("melee", 13, 0, 0, dice([10, 9, 10, 1]), rules,
                          attacker_policy=never_push, defender_policy=never_push)
    assert result.defender.outcome.value == "crit" and not result.attacker_wins


def test_EC_DICE_5_nobody_pushes_against_an_opponent_crit(rules, dice):
    """Clause: EC-DICE-5, EC-DICE-3. The defender's natural 21 cannot be beaten by pushing, so the
    attacker sits on its 16 instead of risking a bust."""
    result = opposed_test("melee", 13, 0, 0, dice([8, 8, 10, 1]), rules)
    assert result.attacker.dice == (8, 8) and not result.attacker_wins


@settings(deadline=None, max_examples=40)
@given(kind=st.sampled_from(["melee", "dodge", "gun"]), tn=st.integers(10, 20),
       a_stress=st.integers(0, 9), d_stress=st.integers(0, 9), seed=st.integers(0, 2**31))
def test_EC_DICE_2_opposed_invariants(rules, kind, tn, a_stress, d_stress, seed):
    """Clause: EC-DICE-2. A winning attacker made its TN and did not bust; it beat the defender's
    total (or tied in a gun fight), or the defender busted; same seed, same result."""
    run = [opposed_test(kind, tn, a_stress, d_stress, np.random.default_rng(seed), rules) for _ in range(2)]
    assert run[0] == run[1]
    result = run[0]
    a, d = result.attacker, result.defender
    if result.attacker_wins:
        assert a.succeeded
        if a.outcome is not Outcome.CRIT and d.outcome is not Outcome.BUST:
            assert d.outcome is not Outcome.CRIT
            assert a.total > d.total or (a.total == d.total and kind == "gun")
    elif a.succeeded and d.outcome is not Outcome.BUST and d.outcome is not Outcome.CRIT \
            and a.outcome is not Outcome.CRIT:
        assert a.total < d.total or (a.total == d.total and kind != "gun")
