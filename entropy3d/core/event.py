"""The one event type: something the rules decided, with what the table showed them.

Every transition (:func:`entropy3d.systems.entropy_city.transition.resolve`) returns a list of :class:`Event`;
reports, replays, the HUD and the viewer all read the same values, and :meth:`Event.text` is the
one formatter of an event's line ("physics: rode 3.5\" then hit wall 'lamp_ne' at 33° -> rules:
head-on crash ..."). :func:`roll_text` is the one formatter of a roll, of any rulebook: an event's
:attr:`Event.rolls` hold Entropy City's tests (:class:`~entropy3d.systems.entropy_city.dice.TestRoll`) and every
other rulebook's dice (:class:`~entropy3d.core.roll.DiceRoll`), both a :class:`~entropy3d.core.roll.Roll`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from entropy3d.core.roll import Roll

#: event kinds, in the order a reader meets them
KINDS = ("activation", "skip", "move", "test", "bust", "destructible", "jump", "landing", "crash",
         "cliff_edge", "left_table", "rest", "attack", "kick", "item", "score", "condition", "trap",
         "wreck", "ruling", "trait",
         # the skirmish rulebooks' (entropy3d.systems): a shot or a blow rolled to hit, a tag's die
         "shot", "tag")


def roll_text(roll: Roll | None) -> str:
    """A roll's line in its rulebook's words (:attr:`Roll.text <entropy3d.core.roll.Roll.text>`:
    'rolled 7+5+stress 2 = 14: passed', 'to hit 5 needing 4+: passed'); 'not rolled' for none."""
    return "not rolled" if roll is None else roll.text


def plain(value: Any) -> Any:
    """JSON-able copy of figures: floats rounded to 1/10000, numpy scalars unwrapped."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return round(float(value), 4) + 0.0
    if isinstance(value, np.integer):
        return int(value)
    return value


@dataclass(frozen=True)
class Event:
    """One thing the rules decided.

    kind: one of :data:`KINDS`. model: the model it happened to (its id). rules: what the rules
    made of it, one phrase. found: what the table showed them, in the words of ``producer``
    (physics or geometric); "" for a rules-only event (a template test, a bust). clauses: the
    clause ids applied.
    rolls: the dice rolled, in order (:class:`~entropy3d.core.roll.Roll`: Entropy City's tests,
    every other rulebook's :class:`~entropy3d.core.roll.DiceRoll`). piece: the scene piece or model involved, if any.
    t_s: seconds into the ride. stress_change: the model's stress change it caused.
    figures: JSON-able numbers (TN, distances, levels) for programs.
    """

    kind: str
    model: str
    rules: str
    found: str = ""
    producer: str = ""
    clauses: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()
    piece: str | None = None
    t_s: float = 0.0
    stress_change: int = 0
    figures: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The event's line for a player."""
        return f"{self.producer or 'table'}: {self.found} -> rules: {self.rules}" if self.found else self.rules

    def to_json(self) -> dict:
        return {"kind": self.kind, "model": self.model, "rules": self.rules, "found": self.found,
                "producer": self.producer,
                "clauses": list(self.clauses), "rolls": [r.to_json() for r in self.rolls], "piece": self.piece,
                "t_s": round(float(self.t_s), 4) + 0.0, "stress_change": self.stress_change,
                "figures": plain(self.figures)}

    @classmethod
    def from_json(cls, data: Mapping, read_roll: Callable[[Mapping], Roll]) -> "Event":
        """The event :meth:`to_json` wrote; ``read_roll`` reads each roll back as the rulebook
        that rolled it wrote it (:func:`entropy3d.systems.rolls.read_roll`: the core knows none)."""
        return cls(data["kind"], data["model"], data["rules"], data.get("found", ""), data.get("producer", ""),
                   tuple(data["clauses"]),
                   tuple(read_roll(r) for r in data.get("rolls", ())), data.get("piece"),
                   float(data.get("t_s", 0.0)), int(data.get("stress_change", 0)), dict(data.get("figures", {})))
