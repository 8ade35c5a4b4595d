"""Reading a recorded roll back as the rulebook that rolled it wrote it.

The core's :class:`~entropy3d.core.event.Event` knows no rulebook's dice, so whoever reads events
from JSON (a replay, a sweep's store) asks here: every rulebook but Entropy City records a
:class:`~entropy3d.core.roll.DiceRoll`, whose JSON has a ``"for"`` key; Entropy City's test
(:class:`~entropy3d.systems.entropy_city.dice.TestRoll`) writes none, as its replays always did,
so their bytes stay the same.
"""

from __future__ import annotations

from typing import Mapping

from entropy3d.core.roll import DiceRoll, Roll
from entropy3d.systems.entropy_city.dice import TestRoll


def read_roll(data: Mapping) -> Roll:
    """The roll whose JSON is ``data``, of the kind that wrote it."""
    return DiceRoll.from_json(data) if DiceRoll.is_json(data) else TestRoll.from_json(data)
