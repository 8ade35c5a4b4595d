"""A roll of dice in any rulebook: what was rolled, what for, what it needed and how it came out.

Every rulebook rolls: Entropy City's 2d10 + stress against a TN
(:class:`~entropy3d.systems.entropy_city.dice.TestRoll`),
the gang battle's D6 to hit, to wound and to save, 10acity's hero-dice pools (one face of the pool
counts), the chase's damage d6s, tag's die to tag. An event keeps the dice it rolled in
:attr:`Event.rolls <entropy3d.core.event.Event.rolls>`, so a reader (the film's sound and
captions, the share page, the HUD) gets them one way whatever the rulebook: every roll there is
a :class:`Roll`. Entropy City's test keeps its own richer type (stress, pushes, busts) and answers
the same questions; every other rulebook records a :class:`DiceRoll`.

Imports no rulebook: this is the layer they all stand on. A value, frozen, JSON-able
(:meth:`DiceRoll.to_json`; its ``"for"`` key is one Entropy City's test never writes, so a
replay tells the two apart and Entropy City's replays keep their bytes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Protocol, Sequence, runtime_checkable

PASSED, FAILED = "passed", "failed"


@runtime_checkable
class Roll(Protocol):
    """What a reader may ask of any roll an event records, whatever its rulebook."""

    @property
    def dice(self) -> tuple[int, ...]:
        """The faces rolled, in the order rolled."""

    @property
    def purpose(self) -> str:
        """What it was rolled for, a few words ("to hit", "Cool check", "test")."""

    @property
    def needed(self) -> int | None:
        """The total it had to reach (its target number); None when it had none (an amount:
        damage, inches to run, an injury table's row, an opposed roll with no TN of its own)."""

    @property
    def total(self) -> int:
        """What the roll came to (the dice with what is added to them, or the face that counts)."""

    @property
    def outcome(self) -> str:
        """How it came out, one word or a few ("passed", "failed", "success", "flesh wound")."""

    @property
    def succeeded(self) -> bool:
        """It reached what it needed (False for an amount, which needs nothing)."""

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clauses its own numbers show (Entropy City's dice clauses: a crit, a bust, a push);
        () when its event's clauses say all (every other rulebook's roll)."""

    @property
    def text(self) -> str:
        """The roll told to a player in its rulebook's words ("to hit 5 needing 4+: passed")."""

    def to_json(self) -> dict:
        """Its JSON form, which its rulebook reads back (:func:`entropy3d.systems.rolls.read_roll`)."""


@dataclass(frozen=True)
class DiceRoll:
    """One roll of a rulebook's dice (any rulebook but Entropy City, whose tests are
    :class:`~entropy3d.systems.entropy_city.dice.TestRoll`).

    purpose: what it was rolled for, in the rulebook's words ("to hit", "wound", "save", "Ammo
    check", "Cool check", "injury"), so a reader can tell a player what the dice meant.
    dice: every face, in the order rolled (a die of ``sides`` faces each, 1..sides).
    sides: the faces of each die (6 for a D6, 10 for 10acity's hero dice, 3 for a D3).
    total: what the roll came to: the dice summed (or the ``kept`` face) plus whatever the rules
    add (a stat, a rank, friends nearby, a critical's extra die); kept as counted, never
    recomputed from the dice, so a rulebook's own arithmetic is told as it was done.
    needed: the total it had to reach (a D6 "needing 4+" is 4); None for an amount (damage
    dice, inches to run, an injury die read on its table), which passes or fails nothing.
    outcome: how it came out in the rulebook's words: "passed"/"failed" by default, or the
    result itself ("saved", "bottles out", "flesh wound"); "" for a bare amount.
    kept: the one face that counts, when one does rather than the sum (a 10acity hero-dice pool
    keeps its highest, or the next after a disadvantage die sets the highest aside); None: summed.
    """

    purpose: str
    dice: tuple[int, ...]
    total: int
    needed: int | None = None
    outcome: str = ""
    sides: int = 6
    kept: int | None = None

    def __post_init__(self):
        if not self.purpose:
            raise ValueError("a roll needs a purpose: what it was rolled for ('to hit', 'Cool check')")
        if not self.dice or self.sides < 1 or any(not 1 <= d <= self.sides for d in self.dice):
            raise ValueError(f"{self.purpose}: dice {list(self.dice)} are not faces of a d{self.sides}")
        if self.kept is not None and self.kept not in self.dice:
            raise ValueError(f"{self.purpose}: the kept face {self.kept} is not among the dice {list(self.dice)}")

    @classmethod
    def against(cls, purpose: str, dice: Sequence[int], needed: int, sides: int = 6, added: int = 0,
                kept: int | None = None, words: tuple[str, str] = (PASSED, FAILED)) -> "DiceRoll":
        """A roll that must reach ``needed``: the dice summed (or the ``kept`` face) plus
        ``added``; ``words``: its outcome when it does and when it does not ("saved", "unsaved")."""
        dice = tuple(int(d) for d in dice)
        total = (sum(dice) if kept is None else int(kept)) + int(added)
        return cls(purpose, dice, total, int(needed), words[0] if total >= needed else words[1], sides, kept)

    @classmethod
    def amount(cls, purpose: str, dice: Sequence[int], sides: int = 6, added: int = 0, outcome: str = "",
               kept: int | None = None) -> "DiceRoll":
        """A roll that sets a number and needs none (damage, inches to run, an injury die whose
        row is ``outcome``): the dice summed (or the ``kept`` face) plus ``added``."""
        dice = tuple(int(d) for d in dice)
        return cls(purpose, dice, (sum(dice) if kept is None else int(kept)) + int(added), None, outcome, sides, kept)

    @property
    def succeeded(self) -> bool:
        """The total reached what it needed (never for an amount)."""
        return self.needed is not None and self.total >= self.needed

    @property
    def clauses(self) -> tuple[str, ...]:
        """None of its own: the event that tells it names the clauses it applied."""
        return ()

    @property
    def added(self) -> int:
        """What the rules added to the dice (the total less the dice's sum, or the kept face)."""
        return self.total - (sum(self.dice) if self.kept is None else self.kept)

    @property
    def text(self) -> str:
        """"Cool check 3+4 +1 = 8 needing 7+: passed", "to hit 5 needing 4+: passed", "attack
        3,9,2 kept 9 +1 = 10 needing 8+: hits", "damage 4+6 = 10" (an amount, no target)."""
        if self.kept is None:  # summed: "3+4", told with its sum when there is more than one die
            faces = "+".join(map(str, self.dice))
            told = faces if len(self.dice) == 1 else f"{faces} = {sum(self.dice)}"
        else:  # one face counts: "3,9,2 kept 9"
            faces = told = ",".join(map(str, self.dice)) + (f" kept {self.kept}" if len(self.dice) > 1 else "")
        shown = f"{faces} {self.added:+d} = {self.total}" if self.added else told
        needing = "" if self.needed is None else f" needing {self.needed}+"
        return f"{self.purpose} {shown}{needing}" + (f": {self.outcome}" if self.outcome else "")

    def to_json(self) -> dict:
        """JSON-able: ``for`` (the purpose: the key Entropy City's test never writes), ``dice``,
        ``sides``, ``total``, ``needed`` (null for an amount), ``outcome``; ``kept`` only when one face counts."""
        return {"for": self.purpose, "dice": list(self.dice), "sides": self.sides, "total": self.total,
                "needed": self.needed, "outcome": self.outcome, **({} if self.kept is None else {"kept": self.kept})}

    @classmethod
    def from_json(cls, data: Mapping) -> "DiceRoll":
        """The roll :meth:`to_json` wrote."""
        needed, kept = data.get("needed"), data.get("kept")
        return cls(str(data["for"]), tuple(int(d) for d in data["dice"]), int(data["total"]),
                   None if needed is None else int(needed), str(data.get("outcome", "")), int(data.get("sides", 6)),
                   None if kept is None else int(kept))

    @staticmethod
    def is_json(data: Mapping) -> bool:
        """Whether ``data`` is a :class:`DiceRoll`'s JSON (it has the ``for`` key), not Entropy City's test's."""
        return "for" in data
