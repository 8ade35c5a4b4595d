"""Facts complete before resolve (issue 44): Entropy City's resolve asks no table.

The one path (:func:`entropy3d.game.step.take`) asks the table the engine plays on what its
resolve reads (:func:`entropy3d.table_facts.told`) and hands the answers over with the facts; the
engine's ``resolve`` then decides from the state, the action, the facts and the dice alone. The
table here answers while the path gathers facts and raises on every question while the engine
resolves: on the old code resolve itself asked it (what a watcher on overwatch sees, EC-GUN-STOPPED).
"""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.game.step import take
from entropy3d.rules.engine import EntropyCityEngine
from entropy3d.rules.transition import Action
from tests.rules.test_stopped_guns import SeeingTable, watching
from tests.rules.test_transition import begin, ridden


class ShutWhileResolving:
    """``table``, shut to ``questions`` (names of its methods) while ``shut``: asking one of them
    then fails the test, naming it."""

    def __init__(self, table, questions: set[str]):
        self.table, self.questions, self.shut = table, questions, False

    def __getattr__(self, name: str):
        if self.shut and name in self.questions:
            raise AssertionError(f"resolve asked the table {name!r}: its answer belongs in the facts")
        return getattr(self.table, name)


class ResolvesShut(EntropyCityEngine):
    """Entropy City's engine whose table is shut while its ``resolve`` runs."""

    def resolve(self, state, action, facts, rng):
        self.table.shut = True
        try:
            return super().resolve(state, action, facts, rng)
        finally:
            self.table.shut = False


class RidesAsChecked:
    """A producer that rides the checked path to its end (the rules tests' facts)."""

    name = "as-checked"

    def ride(self, state, action):
        return ridden(action)


def test_EC_GUN_STOPPED_the_overwatch_shot_reads_the_sight_from_the_facts(rules, dice):
    """The worked overwatch shot of tests/rules/test_stopped_guns.py taken along the one path: k1
    on overwatch with a pistol at (10, 10), h1 rides 12" west from x = 50 into its 35.2" reach;
    the first point looked at is 5.0" in, TN 17, 9 + 8 = 17 against a dodge of 7 + 8 + 1 = 16: a
    hit, 1 wound. The watcher's sight of each point comes from the table before resolve; resolve
    asks the table no ``sight``."""
    seeing = SeeingTable()
    table = ShutWhileResolving(seeing, {"sight"})
    engine = ResolvesShut(rules, table)
    state = begin(watching(), "h1", rules)
    step = take(engine, state, Action.ride("h1", "s2: straight 12", "never"), dice([9, 8, 7, 8]), RidesAsChecked())
    seen = next(e for e in step.events if e.figures.get("overwatch"))
    assert seen.figures["at_in"] == pytest.approx(5.0)
    assert step.after.model("h1").wounds == 2 and step.after.model("k1").ammo == 9
    # every point in reach was looked at before resolve, the watcher turned to it (all round)
    in_reach = [pose for _, pose in seeing.asked]
    assert in_reach and all(np.hypot(p.x - 10.0, p.y - 10.0) <= 50 / 1.42 for p in in_reach)
    assert seeing.asked[0][0].facing_deg == pytest.approx(0.0)
