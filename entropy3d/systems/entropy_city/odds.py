"""Exact odds of a test and of an opposed test by enumeration (EC-DICE-1 to -7).

The first two dice are enumerated (100 equally likely pairs); pushing one's luck is a finite
recursion over (total, dice so far), because each die adds at least 1 and totals over 21 stop.
Probabilities are exact :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from entropy3d.systems.entropy_city.dice import (
    DiceRules,
    Outcome,
    Policy,
    PushState,
    TestRoll,
    classify_total,
    effective_tn,
    judge,
    sit_at_tn,
    wants_push,
)
from entropy3d.systems.entropy_city.opposed import need_to_beat, pushes_first, ties_to_attacker
from entropy3d.systems.entropy_city.ruleset import Ruleset


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
    ``policy`` exactly as :func:`entropy3d.systems.entropy_city.dice.roll_test` does."""
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




@dataclass(frozen=True)
class Side:
    """One side of an opposed test: its TN (0: none to make), stress, push policy and max stress."""

    tn: int
    stress: int
    policy: Policy = sit_at_tn
    max_stress: int | None = None


def _spread(total: int, count: int) -> list[int]:
    """``count`` dice faces summing to ``total``, as even as possible (one stands for all)."""
    q, r = divmod(total, count)
    return [q + 1] * r + [q] * (count - r)


def _rolled(first: tuple[int, int], pushed: int, pushes: int, side: Side, rules: DiceRules) -> TestRoll:
    """The roll of ``first`` plus ``pushes`` dice summing to ``pushed`` (:func:`_spread`)."""
    return judge(list(first) + (_spread(pushed, pushes) if pushes else []), side.stress, side.tn, rules,
                 side.max_stress)


@lru_cache(maxsize=8192)
def _pushed_to(first: tuple[int, int], need: int, side: Side, rules: DiceRules) -> dict[TestRoll, int]:
    """Every way the roll of ``first`` can end once its side has pushed per its policy for the
    total ``need`` (:func:`entropy3d.systems.entropy_city.opposed.need_to_beat` of the other side's current roll),
    with its probability in integers over ``sides ** (bust_over + 1)`` (no end needs more dice)."""
    start = _first_roll(first, side, rules)
    if not wants_push(start, need, side.policy, rules):
        return {start: rules.sides ** (rules.bust_over + 1)}
    found: dict[TestRoll, int] = {}
    for (total, n_dice), n in _pushes(start.total, rules.count, need, side, rules).items():
        if n_dice > rules.count:  # pushed at least once (:func:`_pushes_kept` keeps no more)
            roll = _pushed_end(total, n_dice, side, rules)
        else:
            roll = _rolled(first, total - start.total, n_dice - rules.count, side, rules)
            roll = dataclasses.replace(roll, dice=(total - side.stress,))  # kept by its total: merges sequences
        found[roll] = found.get(roll, 0) + n
    return found


@lru_cache(maxsize=8192)
def _pushed_end(total: int, n_dice: int, side: Side, rules: DiceRules) -> TestRoll:
    """The roll a push ended on, kept by its total: more than two dice are never a natural crit,
    so the outcome follows from the total alone, whatever the first two dice were and however
    many dice made it, and every first roll and every total pushed for shares it."""
    return dataclasses.replace(_spread_roll(total, n_dice, side, rules), dice=(total - side.stress,))


@lru_cache(maxsize=8192)
def _spread_roll(total: int, n_dice: int, side: Side, rules: DiceRules) -> TestRoll:
    """The roll of ``n_dice`` dice (:func:`_spread`) making ``total`` with the side's stress."""
    return judge(_spread(total - side.stress, n_dice), side.stress, side.tn, rules, side.max_stress)


@lru_cache(maxsize=8192)
def _first_roll(first: tuple[int, int], side: Side, rules: DiceRules) -> TestRoll:
    """The side's roll of its first two dice, before any push."""
    return _rolled(first, 0, 0, side, rules)


def _pushes(total: int, n_dice: int, need: int, side: Side, rules: DiceRules) -> dict[tuple[int, int], int]:
    """{(final total, dice): count over sides ** (bust_over + 1 + count - n_dice)} of a roll of
    ``n_dice`` dice (no crit) at ``total`` pushed per ``side.policy`` towards ``need``, the ends
    of more than ``count`` dice kept as ``count + 1`` whatever their number (one roll stands for
    all, :func:`_pushed_end`), in the order the ends are first met pushing die by die. Pushing
    depends on the total and the number of dice alone, so every first roll with that total shares
    the answer (kept in :func:`_push_answers`)."""
    return _pushes_kept(total, n_dice, need, side, rules, _push_answers(need, side, rules))


@lru_cache(maxsize=1024)
def _push_answers(need: int, side: Side, rules: DiceRules) -> dict[tuple[int, int], dict[tuple[int, int], int]]:
    """The answers of :func:`_pushes` for one total to push for, side and rules, by (total, dice):
    the recursion looks its own answers up by two whole numbers, where a cache over all five
    arguments hashed both dataclasses at each of its ~17 calls per push asked."""
    return {}


def _pushes_kept(total: int, n_dice: int, need: int, side: Side, rules: DiceRules,
                 kept: dict[tuple[int, int], dict[tuple[int, int], int]]) -> dict[tuple[int, int], int]:
    """:func:`_pushes`, its answers for ``need``, ``side`` and ``rules`` kept in ``kept``."""
    found = kept.get((total, n_dice))
    if found is not None:
        return found
    roll = _spread_roll(total, n_dice, side, rules)
    if not wants_push(roll, need, side.policy, rules):
        # the pushed ends by total alone: a push's answer merges ~10 where every number of dice
        # kept apart merged ~100 (summing the same counts, met in the same order)
        found = {(total, min(n_dice, rules.count + 1)): rules.sides ** (rules.bust_over + 1 + rules.count - n_dice)}
    else:
        found = {}
        for face in range(1, rules.sides + 1):
            for end, n in _pushes_kept(total + face, n_dice + 1, need, side, rules, kept).items():
                found[end] = found.get(end, 0) + n
    kept[(total, n_dice)] = found
    return found


def exact_opposed(kind: str, attacker: Side, defender: Side, ruleset: Ruleset
                  ) -> tuple[tuple[Fraction, TestRoll, TestRoll], ...]:
    """Every way an opposed test (EC-DICE-2, EC-DICE-5) can end, as (probability, attacker's roll,
    defender's roll), pushing exactly as :func:`entropy3d.systems.entropy_city.opposed.opposed_test` does: the
    first pusher (:func:`~entropy3d.systems.entropy_city.opposed.push_order`) pushes against the other's first two
    dice, the second against the first's final roll. Rolls other than crits are kept by their total
    (:func:`_rolled`); the probabilities sum to 1."""
    whole, ends = opposed_counts(kind, attacker, defender, ruleset)
    return tuple((Fraction(n, whole), a, d) for n, a, d in ends)


def opposed_counts(kind: str, attacker: Side, defender: Side, ruleset: Ruleset
                   ) -> tuple[int, tuple[tuple[int, TestRoll, TestRoll], ...]]:
    """:func:`exact_opposed` as whole numbers: (W, ends) with each end's probability its count
    over W. Summing counts and dividing once gives the very fractions summing the probabilities
    does, without a ``Fraction`` per end (the players weigh a few hundred ends per attack they
    consider). Cached: a game asks again and again for the few sides its riders' stress and TNs
    make."""
    return _opposed_counts(attacker, defender, DiceRules.from_ruleset(ruleset), ties_to_attacker(kind, ruleset),
                           ruleset.option("push_order") == "lowest_first")


#: how many pairs of sides :func:`opposed_counts` keeps (about 440 ends each, a few tens of kB):
#: the sides a game's riders make (TN, stress, policy) are a few hundred at most, and a sweep's
#: worker plays game after game with the same ones
OPPOSED_CACHED = 512


@lru_cache(maxsize=OPPOSED_CACHED)
def _opposed_counts(attacker: Side, defender: Side, rules: DiceRules, to_attacker: bool, lowest_first: bool
                    ) -> tuple[int, tuple[tuple[int, TestRoll, TestRoll], ...]]:
    sides = {"a": attacker, "d": defender}
    wins_ties = {"a": to_attacker, "d": not to_attacker}
    firsts: dict[tuple[int, bool], tuple[tuple[int, int], int]] = {}
    for a, b in itertools.product(range(1, rules.sides + 1), repeat=2):
        crit = sorted((a, b)) == sorted(rules.crit_faces)
        first, n = firsts.get((a + b, crit), ((a, b), 0))
        firsts[(a + b, crit)] = (first, n + 1)
    # a side's pushes against the other's current roll (:func:`_pushed_to`), looked up here: the
    # sides and the rules are fixed for the whole enumeration, so every roll is numbered once
    # (``rolls``) and the pushes of each (side, first dice, roll pushed against) are kept as
    # (roll number, count) pairs in plain dicts: ~100,000 asks an enumeration, each hashing two
    # whole numbers where hashing the rolls' and sides' dataclasses took most of its time
    number: dict[TestRoll, int] = {}
    rolls: list[TestRoll] = []

    def numbered(roll: TestRoll) -> int:
        found = number.get(roll)
        if found is None:
            found = number[roll] = len(rolls)
            rolls.append(roll)
        return found

    first_rolls = {(s, first): _first_roll(first, sides[s], rules) for s in "ad" for first, _ in firsts.values()}
    first_numbers = {key: numbered(roll) for key, roll in first_rolls.items()}
    by_need: dict[tuple[str, tuple[int, int], int], tuple[tuple[int, int], ...]] = {}
    pushed: dict[tuple[str, tuple[int, int], int], tuple[tuple[int, int], ...]] = {}

    def ends_of(s: str, first: tuple[int, int], against: int) -> tuple[tuple[int, int], ...]:
        """(roll number, count) of every end of side ``s``'s pushes from ``first`` against roll ``against``."""
        found = pushed.get((s, first, against))
        if found is None:
            need = need_to_beat(rolls[against], first_rolls[(s, first)].effective_tn, wins_ties[s], rules)
            found = by_need.get((s, first, need))
            if found is None:
                found = by_need[(s, first, need)] = tuple((numbered(roll), n) for roll, n in
                                                          _pushed_to(first, need, sides[s], rules).items())
            pushed[(s, first, against)] = found
        return found

    joint: dict[tuple[int, int], int] = {}
    for (a_first, na), (d_first, nd) in itertools.product(firsts.values(), repeat=2):
        one, two = pushes_first(first_rolls[("a", a_first)], first_rolls[("d", d_first)], lowest_first)
        first_one, first_two = (a_first, d_first) if one == "a" else (d_first, a_first)
        weight = na * nd
        for end_one, p_one in ends_of(one, first_one, first_numbers[(two, first_two)]):
            w_one = weight * p_one
            for end_two, p_two in ends_of(two, first_two, end_one):
                key = (end_one, end_two) if one == "a" else (end_two, end_one)
                joint[key] = joint.get(key, 0) + w_one * p_two
    whole = rules.sides ** (2 * rules.count + 2 * (rules.bust_over + 1))
    return whole, tuple((n, rolls[a], rolls[d]) for (a, d), n in joint.items())
