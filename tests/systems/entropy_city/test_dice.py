"""Dice tests: the rulebook's worked examples and the dice clauses (EC-DICE-*)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.systems.entropy_city.dice import (
    DiceRules,
    Outcome,
    RiskAware,
    judge,
    never_push,
    policy_named,
    remount_tn,
    resolve_bust,
    roll_test,
    sit_at_tn,
)


def test_EC_DICE_1_worked_example_7_plus_8_beats_tn_13(rules, dice):
    """Clause: EC-DICE-1. "Player 1 needed a 13, they rolled 7+8 for a total of 15"."""
    roll = roll_test(13, 0, dice([7, 8]), rules)
    assert roll.dice == (7, 8) and roll.total == 15 and roll.outcome is Outcome.SUCCESS


def test_EC_DICE_1_total_equal_to_tn_succeeds_one_below_fails(rules, dice):
    """Clause: EC-DICE-1 (>= TN succeeds)."""
    assert roll_test(13, 0, dice([6, 7]), rules, never_push).outcome is Outcome.SUCCESS
    assert roll_test(13, 0, dice([6, 6]), rules, never_push).outcome is Outcome.FAIL


def test_EC_DICE_5_worked_example_push_a_5_reaches_20(rules, dice):
    """Clause: EC-DICE-5. Player one adds one d10, rolls 5, total 20 (from 7+8), and succeeds."""
    # need 16+ to beat the opponent's 16 in melee: the policy pushes once and sits on 20
    dice = dice([7, 8, 5])
    roll = roll_test(16, 0, dice, rules, sit_at_tn)
    assert roll.dice == (7, 8, 5) and roll.total == 20 and roll.succeeded and dice.exhausted


def test_EC_DICE_4_worked_example_16_pushes_a_10_to_26_and_busts(rules, dice):
    """Clause: EC-DICE-4. Total 16 pushes, rolls a 10 -> 26 -> bust."""
    roll = roll_test(21, 0, dice([9, 7, 10]), rules, sit_at_tn)
    assert roll.total == 26 and roll.outcome is Outcome.BUST


def test_EC_DICE_4_remount_tn_is_17_minus_wounds_remaining(rules, dice):
    """Clause: EC-DICE-4. "if they had 2 wounds remaining, TN17-2 is 15"."""
    assert remount_tn(2, rules) == 15
    # 3 wounds before the bust -> 2 left -> remount at TN 15: 8+7 = 15 passes, skips next action
    result = resolve_bust(3, 0, dice([8, 7]), rules, never_push)
    assert result.wounds_after == 2 and result.remount.tn == 15
    assert not result.out_of_game and result.skip_next_action


def test_EC_DICE_4_failed_remount_is_out_and_last_wound_is_out_without_roll(rules, dice):
    """Clause: EC-DICE-4."""
    failed = resolve_bust(3, 0, dice([7, 7]), rules, never_push)
    assert failed.out_of_game and not failed.skip_next_action and failed.remount.outcome is Outcome.FAIL
    last = resolve_bust(1, 0, dice([]), rules)
    assert last.out_of_game and last.remount is None and last.wounds_after == 0


def test_EC_DICE_6_worked_example_18_plus_stress_4_is_22_bust(rules, dice):
    """Clause: EC-DICE-6. "rolled 18 on 2D10 but has a stress of 4 ... total to 22 ... bust"."""
    roll = roll_test(14, 4, dice([9, 9]), rules)
    assert roll.total == 22 and roll.outcome is Outcome.BUST


def test_EC_DICE_6_stress_is_added_to_reach_the_tn(rules, dice):
    """Clause: EC-DICE-6."""
    roll = roll_test(14, 3, dice([5, 6]), rules, never_push)
    assert roll.total == 14 and roll.outcome is Outcome.SUCCESS


def test_EC_DICE_3_natural_21_is_crit_ignoring_stress_and_lowering_it(rules, dice):
    """Clause: EC-DICE-3. 10 + 1 (the 1 as 11) with stress 6 would bust, but it is a crit."""
    roll = roll_test(20, 6, dice([1, 10]), rules)
    assert roll.outcome is Outcome.CRIT and roll.total == 21 and roll.succeeded
    assert roll.stress_change == -3  # default: the "Crit" glossary reading
    low = roll_test(20, 1, dice([10, 1]), rules)
    assert low.stress_change == -1  # never below zero stress


def test_EC_DICE_3_crit_reduction_option_stress_section_is_2(rules, dice):
    """Clause: EC-DICE-3. The "Stress" section's reading is an option: reduce by 2."""
    other = rules.with_option("crit_stress_reduction", "stress_section")
    assert roll_test(20, 6, dice([10, 1]), other).stress_change == -2


def test_EC_DICE_3_a_pushed_21_is_not_a_crit(rules, dice):
    """Clause: EC-DICE-3. Only the first two dice make a natural 21."""
    roll = roll_test(21, 0, dice([5, 6, 10]), rules)
    assert roll.total == 21 and roll.outcome is Outcome.SUCCESS


def test_EC_DICE_7_at_max_stress_tn_becomes_21_and_a_pass_lowers_stress_by_3(rules, dice):
    """Clause: EC-DICE-7."""
    passed = roll_test(13, 10, dice([5, 6]), rules, never_push)
    assert passed.effective_tn == 21 and passed.outcome is Outcome.SUCCESS and passed.stress_change == -3


def test_a_test_roll_shows_the_dice_clauses_it_applied(rules, dice):
    """Clauses: EC-DICE-1, EC-DICE-3, EC-DICE-4, EC-DICE-5, EC-DICE-6, EC-DICE-7. What a game's
    record of a roll shows it applied (tests/systems/test_clauses_reached.py reads it): 7+8 at no
    stress, TN 13, only EC-DICE-1; a natural 21 at stress 2, EC-DICE-3 and EC-DICE-6; 9+7 pushed
    with a 10 (26, over 21), EC-DICE-5 and the bust; at max stress 10 the TN 13 rises to 21."""
    assert roll_test(13, 0, dice([7, 8]), rules, never_push).clauses == ("EC-DICE-1",)
    assert roll_test(13, 2, dice([10, 1]), rules, never_push).clauses == ("EC-DICE-1", "EC-DICE-3", "EC-DICE-6")
    pushed = roll_test(20, 0, dice([9, 7, 10]), rules, sit_at_tn)
    assert pushed.total == 26 and pushed.clauses == ("EC-DICE-1", "EC-DICE-4", "EC-DICE-5")
    maxed = roll_test(13, 10, dice([5, 6]), rules, never_push)
    assert maxed.clauses == ("EC-DICE-1", "EC-DICE-6", "EC-DICE-7")


def test_EC_DICE_7_at_max_stress_a_fail_busts(rules, dice):
    """Clause: EC-DICE-7. 2 + 3 + stress 10 = 15 would pass TN 13 normally; at max stress it busts."""
    roll = roll_test(13, 10, dice([2, 3]), rules, never_push)
    assert roll.total == 15 and roll.outcome is Outcome.BUST
    below = roll_test(13, 9, dice([2, 3]), rules, never_push, max_stress=12)
    assert below.outcome is Outcome.SUCCESS and below.effective_tn == 13


def test_EC_DICE_5_policies_decide_pushing(rules, dice):
    """Clause: EC-DICE-5. never sits; sit-at-tn pushes until the TN; risk-aware stops when the
    next die busts too often."""
    assert roll_test(18, 0, dice([5, 5]), rules, never_push).dice == (5, 5)
    assert roll_test(18, 0, dice([5, 5, 4, 6]), rules, sit_at_tn).dice == (5, 5, 4, 6)
    # at 16 the next die busts with 5/10 > 0.3: risk-aware sits
    assert roll_test(18, 0, dice([8, 8]), rules, RiskAware(0.3)).dice == (8, 8)
    assert policy_named("risk-aware", rules)(_state(16, 18)) is False
    assert policy_named("sit-at-tn", rules)(_state(16, 18)) is True
    with pytest.raises(ValueError):
        policy_named("yolo", rules)


def _state(total, need):
    from entropy3d.systems.entropy_city.dice import PushState
    return PushState(total, need, 0, 2)


def test_EC_DICE_5_player_choice_callback_is_a_policy(rules, dice):
    """Clause: EC-DICE-5. A player's callback sees the running total and chooses."""
    seen = []

    def player(state):
        seen.append(state.total)
        return state.n_dice < 3

    roll = roll_test(10, 1, dice([2, 3, 4]), rules, player)
    assert roll.dice == (2, 3, 4) and seen == [6, 10]


def test_EC_DICE_1_same_seed_same_rolls(rules):
    """Clause: EC-DICE-1. Seeded randomness replays exactly; judge() explains a recorded roll."""
    a = [roll_test(14, 2, np.random.default_rng(7), rules) for _ in range(3)]
    b = [roll_test(14, 2, np.random.default_rng(7), rules) for _ in range(3)]
    assert a == b
    rng = np.random.default_rng(11)
    for _ in range(50):
        roll = roll_test(14, 2, rng, rules)
        assert judge(roll.dice, roll.stress, roll.tn, DiceRules.from_ruleset(rules)) == roll
        assert all(1 <= d <= 10 for d in roll.dice)


def test_testroll_repr_is_readable(rules, dice):
    """Clause: EC-DICE-1 (a recorded roll explains itself)."""
    text = repr(roll_test(13, 0, dice([7, 8]), rules))
    assert "7+8" in text and "15" in text and "TN 13" in text and "success" in text


def test_EC_DICE_7_at_max_stress_one_may_push_to_exactly_21(rules, dice):
    """Clause: EC-DICE-7, EC-DICE-5. 2 + 3 + stress 10 = 15, push a 6 -> 21: passes, stress -3."""
    roll = roll_test(13, 10, dice([2, 3, 6]), rules, sit_at_tn)
    assert roll.total == 21 and roll.outcome is Outcome.SUCCESS and roll.stress_change == -3
