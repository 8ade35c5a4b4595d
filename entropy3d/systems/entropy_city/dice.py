"""Dice tests of Entropy City: 2d10 against a target number, stress, crits, busts and pushing.

A test (EC-DICE-1) rolls 2d10, adds the rider's current stress (EC-DICE-6) and succeeds when the
final total is >= the target number (TN). A natural 21 (a 10 and a 1 on the first two dice, the
1 counting as 11) is a critical success that ignores stress (EC-DICE-3); a final total over 21
busts (EC-DICE-4). After the first two dice the roller may push their luck, adding one d10 at a
time until they sit (EC-DICE-5): *who* pushes is a :data:`Policy`, a deterministic function of a
:class:`PushState`, so the same policy drives seeded rolls and the exact odds in
:mod:`entropy3d.systems.entropy_city.odds`.

Every roll is a :class:`TestRoll` value holding its dice, so a result can be explained and
replayed with :func:`judge`. Randomness is always an injected ``numpy.random.Generator``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Callable, ClassVar, Mapping, Sequence

import numpy as np

from entropy3d.systems.entropy_city.ruleset import Ruleset


class Outcome(str, enum.Enum):
    """How a test ended."""

    CRIT = "crit"        #: a natural 21: automatic success, stress ignored (EC-DICE-3)
    SUCCESS = "success"  #: final total >= TN and <= 21
    FAIL = "fail"        #: final total below the TN
    BUST = "bust"        #: final total over 21, or a failed test at max stress (EC-DICE-4, -7)

    def __repr__(self) -> str:
        return self.value


@dataclass(frozen=True)
class DiceRules:
    """The numbers of the dice mechanics, read from a :class:`Ruleset` (sections ``dice``,
    ``max_stress`` and ``options.crit_stress_reduction``)."""

    sides: int                    #: faces of every die (10)
    count: int                    #: dice of a standard test (2)
    bust_over: int                #: a final total above this busts (21)
    crit_faces: tuple[int, int]   #: the natural-21 pair (10, 1)
    crit_reduction: int           #: stress lowered by a crit (option: 2 or 3)
    max_stress: int               #: default max stress of a rider (10)
    max_stress_tn: int            #: the TN of every test at max stress (21)
    max_stress_reduction: int     #: stress lowered by passing a test at max stress (3)
    remount_tn_base: int          #: remount TN = this - wounds remaining (17)

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset) -> "DiceRules":
        faces = tuple(int(f) for f in ruleset.data("dice.natural_crit"))
        return cls(
            sides=int(ruleset.data("dice.sides")),
            count=int(ruleset.data("dice.count")),
            bust_over=int(ruleset.data("dice.bust_over")),
            crit_faces=(faces[0], faces[1]),
            crit_reduction=int(ruleset.option("crit_stress_reduction")),
            max_stress=int(ruleset.data("max_stress.default")),
            max_stress_tn=int(ruleset.data("max_stress.tn")),
            max_stress_reduction=int(ruleset.data("max_stress.pass_reduction")),
            remount_tn_base=int(ruleset.data("dice.remount_tn_base")),
        )


@dataclass(frozen=True)
class PushState:
    """What a push-your-luck policy sees before deciding to add another die.

    total: the current final total (dice + stress). need: the total that would succeed (the TN,
    or enough to beat the opponent in an opposed test). stress: the roller's stress.
    n_dice: dice rolled so far. bust_over: totals above this bust. sides: faces of the die.
    """

    total: int
    need: int
    stress: int
    n_dice: int
    bust_over: int = 21
    sides: int = 10

    @property
    def bust_chance_next(self) -> float:
        """Probability that one more die busts."""
        return max(0, self.total + self.sides - self.bust_over) / self.sides


Policy = Callable[[PushState], bool]
"""Push-your-luck decision: return True to roll one more die. Must be deterministic in its input
(the exact odds rely on it); a player's interactive choice is just another such callable."""


def never_push(state: PushState) -> bool:
    """Always sit on the first two dice."""
    return False


def sit_at_tn(state: PushState) -> bool:
    """Push while below the needed total; sit as soon as it is reached."""
    return state.total < state.need


@dataclass(frozen=True)
class RiskAware:
    """Push while below the needed total and the next die busts with probability <= ``max_bust``.

    A value, not a closure: equal policies are one key of the exact odds' caches
    (``entropy_city/odds.py``), so the attack options a player weighs share their enumerations (with a
    new closure per option every Side was new to them: a game's 65 opposed tests took 28 s)."""

    max_bust: float

    def __call__(self, state: PushState) -> bool:
        return state.total < state.need and state.bust_chance_next <= self.max_bust


@dataclass(frozen=True)
class NpcMinimum:
    """An NPC's push-your-luck ("The Law: As NPC's": "If an NPC is involved in a test, it must have
    a minimum to roll before giving up. At this time it's 15"; the rules data's ``npc:``): it
    adds dice while its total is under ``minimum`` and sits once it reaches it, whatever the TN
    (``gives_up``, the reading played), or, in the other reading, while its total is under
    ``minimum`` or under what it needs, whichever is higher. A value, so the exact odds cache it as
    they cache :class:`RiskAware`."""

    minimum: int
    gives_up: bool = True

    def __call__(self, state: PushState) -> bool:
        return state.total < (self.minimum if self.gives_up else max(state.need, self.minimum))


#: the push policy of an NPC's tests (the Law's riders, EC-LAW; Jailbreak's prisoner, EC-MISSION-JAIL)
NPC_PUSH = "npc"
POLICY_NAMES = ("sit-at-tn", "risk-aware", "never")


def policy_named(name: str | Policy, ruleset: Ruleset) -> Policy:
    """The automatic policy called ``name`` (one of :data:`POLICY_NAMES`); a policy itself (a
    rider's traits' dice choices, :class:`entropy3d.systems.entropy_city.choice_traits.TraitDice`) as it is."""
    if callable(name):
        return name
    if name == "sit-at-tn":
        return sit_at_tn
    if name == "never":
        return never_push
    if name == "risk-aware":
        return RiskAware(float(ruleset.data("dice.risk_aware_max_bust")))
    if name == NPC_PUSH:  # an NPC's minimum to roll (EC-LAW, EC-MISSION-JAIL)
        return NpcMinimum(int(ruleset.data("npc.min_roll")), ruleset.data("npc.reading") == "gives_up_at")
    raise ValueError(f"unknown push policy {name!r}; use one of {', '.join(POLICY_NAMES)}")


@dataclass(frozen=True)
class TestRoll:
    """One recorded test: enough to explain and replay it.

    dice: every die in the order rolled (the first two are the initial roll, the rest pushes).
    stress: the roller's stress when testing (added to the total, EC-DICE-6).
    tn: the target number asked for. effective_tn: the TN used (21 at max stress, EC-DICE-7).
    total: the final total (dice + stress; 21 for a natural 21).
    outcome: crit, success, fail or bust.
    stress_change: change of the roller's stress the test itself causes (a crit -3, a pass at
    max stress -3), never below zero stress. bonus: a rider stat its traits add to the total
    (EC-TRAIT: Clutz's dodge, True Power's strength; 0 for most riders).
    """

    __test__ = False  # not a pytest class
    #: what every Entropy City roll is for (a reader of any rulebook's :class:`~entropy3d.core.roll.Roll` asks)
    purpose: ClassVar[str] = "test"

    dice: tuple[int, ...]
    stress: int
    tn: int
    effective_tn: int
    total: int
    outcome: Outcome
    stress_change: int = 0
    bonus: int = 0
    discarded: tuple[int, ...] = ()  #: dice a trait rolled and set aside (EC-TRAIT Strategist, All Part of the Plan)

    @property
    def succeeded(self) -> bool:
        """Crit or success."""
        return self.outcome in (Outcome.CRIT, Outcome.SUCCESS)

    @property
    def needed(self) -> int | None:
        """The total it had to reach: the TN used; None for an opposed roll with no TN of its own
        (it only has to beat the other's), as :class:`~entropy3d.core.roll.Roll` asks."""
        return self.effective_tn if self.tn else None

    @property
    def pushes(self) -> int:
        """Dice added by pushing one's luck."""
        return max(0, len(self.dice) - 2)

    @property
    def clauses(self) -> tuple[str, ...]:
        """The dice clauses this test applied, as its numbers show: every test is 2d10 against a TN
        (EC-DICE-1); a natural 21 (EC-DICE-3), a bust (EC-DICE-4), dice pushed (EC-DICE-5), stress
        added to the total (EC-DICE-6), the TN raised to 21 at max stress (EC-DICE-7)."""
        shown = {"EC-DICE-3": self.outcome is Outcome.CRIT, "EC-DICE-4": self.outcome is Outcome.BUST,
                 "EC-DICE-5": self.pushes > 0, "EC-DICE-6": self.stress > 0,
                 "EC-DICE-7": self.effective_tn != self.tn}
        return ("EC-DICE-1",) + tuple(clause for clause, applied in shown.items() if applied)

    @property
    def text(self) -> str:
        """'rolled 7+5+stress 2 = 14: passed', the dice in the order rolled (a roll's line, as
        :class:`~entropy3d.core.roll.Roll` asks)."""
        verdict = {"crit": "natural 21!", "success": "passed", "fail": "failed", "bust": "bust"}[self.outcome.value]
        tn = "" if self.tn == self.effective_tn else f" (TN {self.effective_tn} at max stress)"
        stat = f"+stat {self.bonus}" if self.bonus else ""
        aside = f" ({'+'.join(map(str, self.discarded))} set aside)" if self.discarded else ""
        return f"rolled {'+'.join(map(str, self.dice))}{aside}+stress {self.stress}{stat} = {self.total}{tn}: {verdict}"

    def to_json(self) -> dict:
        """Its JSON as it always was (no ``for`` key, which only a
        :class:`~entropy3d.core.roll.DiceRoll` writes, so Entropy City's replays keep their bytes)."""
        return {"dice": list(self.dice), "stress": self.stress, "tn": self.tn, "effective_tn": self.effective_tn,
                "total": self.total, "outcome": self.outcome.value, "stress_change": self.stress_change,
                **({"bonus": self.bonus} if self.bonus else {}),  # a trait's stat or dice: others keep their bytes
                **({"discarded": list(self.discarded)} if self.discarded else {})}

    @classmethod
    def from_json(cls, data: Mapping) -> "TestRoll":
        """The test :meth:`to_json` wrote."""
        return cls(tuple(int(d) for d in data["dice"]), int(data["stress"]), int(data["tn"]),
                   int(data["effective_tn"]), int(data["total"]), Outcome(data["outcome"]),
                   int(data["stress_change"]), bonus=int(data.get("bonus", 0)),
                   discarded=tuple(int(d) for d in data.get("discarded", ())))

    def __repr__(self) -> str:
        dice = "+".join(str(d) for d in self.dice)
        tn = f"TN {self.tn}" if self.tn == self.effective_tn else f"TN {self.tn}->{self.effective_tn}"
        change = f", stress {self.stress_change:+d}" if self.stress_change else ""
        stat = f" +{self.bonus} stat" if self.bonus else ""
        return f"TestRoll({dice} +{self.stress} stress{stat} = {self.total} vs {tn}: {self.outcome.value}{change})"


def effective_tn(tn: int, stress: int, rules: DiceRules, max_stress: int | None = None) -> int:
    """The TN a test is rolled against: 21 at or above max stress (EC-DICE-7), else ``tn``."""
    limit = rules.max_stress if max_stress is None else max_stress
    return rules.max_stress_tn if stress >= limit else tn


def classify_total(total: int, stress: int, tn: int, rules: DiceRules,
                   max_stress: int | None = None) -> tuple[Outcome, int]:
    """Outcome and stress change of a *sitting* final total (dice + stress) that is not a crit."""
    limit = rules.max_stress if max_stress is None else max_stress
    at_max = stress >= limit
    if total > rules.bust_over:
        return Outcome.BUST, 0
    if total >= effective_tn(tn, stress, rules, max_stress):
        return Outcome.SUCCESS, -min(stress, rules.max_stress_reduction if at_max else 0)
    return (Outcome.BUST if at_max else Outcome.FAIL), 0


def judge(dice: Sequence[int], stress: int, tn: int, rules: DiceRules,
          max_stress: int | None = None, bonus: int = 0) -> TestRoll:
    """Classify a finished sequence of dice (pure; used by rolling and by replay).

    max_stress: the rider's max stress (None: the rules default). At or above it the TN is 21,
    a pass lowers stress and a fail busts (EC-DICE-7). bonus: a stat the rider's traits add to
    the total like stress (EC-TRAIT); a natural 21 ignores it as it ignores stress.
    """
    dice = tuple(int(d) for d in dice)
    eff_tn = effective_tn(tn, stress, rules, max_stress)
    if len(dice) == 2 and sorted(dice) == sorted(rules.crit_faces):
        at_max = stress >= (rules.max_stress if max_stress is None else max_stress)
        relief = rules.max_stress_reduction if at_max else 0
        change = -min(stress, max(rules.crit_reduction, relief))
        return TestRoll(dice, stress, tn, eff_tn, rules.bust_over, Outcome.CRIT, change, bonus)
    total = sum(dice) + stress + bonus
    outcome, change = classify_total(total, stress, tn, rules, max_stress)
    return TestRoll(dice, stress, tn, eff_tn, total, outcome, change, bonus)


def with_stat(roll: TestRoll, stat: int, rules: DiceRules, max_stress: int | None = None) -> TestRoll:
    """``roll`` with a stat its rider may add once it sits (EC-TRAIT: Uncanny Grace, True Power;
    "Rider Stats": "chosen after the dice roll is made and stress is applied"): added when that
    does not bust it, never to a crit (which ignores what is added)."""
    if stat <= 0 or roll.outcome is Outcome.CRIT:
        return roll
    added = judge(roll.dice, roll.stress, roll.tn, rules, max_stress, roll.bonus + stat)
    return roll if added.total > rules.bust_over else replace(added, discarded=roll.discarded)


def wants_push(roll: TestRoll, need: int, policy: Policy, rules: DiceRules) -> bool:
    """Whether ``policy`` adds a die to ``roll`` (never after a crit or a bust, never when even
    21 could not reach ``need``). A roll below the TN at max stress only busts once it sits."""
    if roll.outcome is Outcome.CRIT or roll.total > rules.bust_over or need > rules.bust_over:
        return False
    state = PushState(roll.total, need, roll.stress, len(roll.dice), rules.bust_over, rules.sides)
    return bool(policy(state))


def _die(rng: np.random.Generator, rules: DiceRules) -> int:
    return int(rng.integers(1, rules.sides + 1))


def first_dice(rng: np.random.Generator, rules: DiceRules, policy: Policy, stress: int, tn: int,
               max_stress: int | None) -> tuple[list[int], list[int]]:
    """A test's first dice and the dice set aside: 2d10, or what the roller's policy makes of them
    when it carries a trait's dice choice (``policy.first_dice``: Strategist (x), EC-TRAIT)."""
    dice = [_die(rng, rules) for _ in range(rules.count)]
    choose = getattr(policy, "first_dice", None)
    return (dice, []) if choose is None else choose(dice, lambda: _die(rng, rules), stress, tn, rules, max_stress)


def pushed_die(rng: np.random.Generator, rules: DiceRules, policy: Policy, total: int, need: int
               ) -> tuple[int, list[int]]:
    """One die added by pushing one's luck, and the dice set aside: a d10, or what the roller's
    policy makes of it (``policy.push_die``: All Part of the Plan (x), EC-TRAIT)."""
    choose = getattr(policy, "push_die", None)
    die = _die(rng, rules)
    return (die, []) if choose is None else choose(die, lambda: _die(rng, rules), total, need, rules)


def roll_test(tn: int, stress: int, rng: np.random.Generator, ruleset: Ruleset,
              policy: Policy = sit_at_tn, max_stress: int | None = None, bonus: int = 0,
              optional: int = 0) -> TestRoll:
    """Roll a standard test (EC-DICE-1): 2d10 + stress (+ ``bonus``, a stat traits add) vs
    ``tn``, pushing per ``policy``; then ``optional``, a stat the rider may add once it sits
    (:func:`with_stat`). The one roll of every rider's test (EC-TRAIT: the dice its traits choose,
    the stats they add; :func:`entropy3d.systems.entropy_city.trait_tests.rider_test`)."""
    rules = DiceRules.from_ruleset(ruleset)
    dice, aside = first_dice(rng, rules, policy, stress, tn, max_stress)
    roll = judge(dice, stress, tn, rules, max_stress, bonus)
    while wants_push(roll, roll.effective_tn, policy, rules):
        die, more = pushed_die(rng, rules, policy, roll.total, roll.effective_tn)
        dice.append(die)
        aside += more
        roll = judge(dice, stress, tn, rules, max_stress, bonus)
    roll = replace(roll, discarded=tuple(aside)) if aside else roll
    return with_stat(roll, optional, rules, max_stress)


@dataclass(frozen=True)
class BustResult:
    """The crash sequence after a bust (EC-DICE-4).

    wounds_before / wounds_after: the rider's wounds; a bust always costs one.
    out_of_game: no wounds left, or the remount test failed.
    remount: the remount test (TN 17 - wounds remaining), None when no wounds were left.
    skip_next_action: a successful remount restarts but skips the next action.
    """

    wounds_before: int
    wounds_after: int
    out_of_game: bool
    remount: TestRoll | None
    skip_next_action: bool
    clauses: tuple[str, ...] = ("EC-DICE-4",)


def remount_tn(wounds_remaining: int, ruleset: Ruleset) -> int:
    """The remount TN: 17 - wounds remaining after the lost wound (EC-DICE-4)."""
    return DiceRules.from_ruleset(ruleset).remount_tn_base - wounds_remaining


def resolve_bust(wounds: int, stress: int, rng: np.random.Generator, ruleset: Ruleset,
                 policy: Policy = sit_at_tn, max_stress: int | None = None, bonus: int = 0,
                 optional: int = 0, tn_mod: int = 0) -> BustResult:
    """Crash, lose a wound, and roll to remount if any wounds are left (EC-DICE-4). bonus /
    optional / tn_mod: what the rider's traits do to the remount (EC-TRAIT; :func:`judge`,
    :func:`with_stat`)."""
    after = max(0, wounds - 1)
    if after == 0:
        return BustResult(wounds, 0, True, None, False)
    remount = roll_test(remount_tn(after, ruleset) + tn_mod, stress, rng, ruleset, policy, max_stress, bonus, optional)
    return BustResult(wounds, after, not remount.succeeded, remount, remount.succeeded)
