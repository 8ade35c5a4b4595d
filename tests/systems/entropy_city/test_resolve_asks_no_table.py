"""Facts complete before resolve (issue 44): Entropy City's resolve asks no table.

The one path (:func:`entropy3d.game.step.take`) asks the table the engine plays on what its
resolve reads (:func:`entropy3d.table_answers.with_table_answers`) and hands the answers over with the facts; the
engine's ``resolve`` then decides from the state, the action, the facts and the dice alone. The
table here answers while the path gathers facts and raises on every question while the engine
resolves: on the old code resolve itself asked it (what a watcher on overwatch sees, EC-GUN-STOPPED;
where a ridden bike may rest, EC-TER-BUILDING; who sees a Stealth rider as an activation begins,
EC-STEALTH).
"""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.game.step import take
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.transition import Action
from tests.systems.entropy_city.test_stopped_guns import SeeingTable, watching
from tests.systems.entropy_city.test_transition import begin, ridden


class ShutWhileResolving:
    """``table``, shut while ``shut``: asking it anything then fails the test, naming the question."""

    def __init__(self, table):
        self.table, self.shut = table, False

    def __getattr__(self, name: str):
        if self.shut:
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
    """A producer that rides the checked path to its end (the rules tests' facts) on a surface
    ``level`` inches high."""

    name = "as-checked"

    def __init__(self, level: float = 0.0):
        self.level = level

    def ride(self, state, action):
        return ridden(action, level=self.level)


def test_EC_GUN_STOPPED_the_overwatch_shot_reads_the_sight_from_the_facts(rules, dice):
    """The worked overwatch shot of tests/systems/entropy_city/test_stopped_guns.py taken along the one path: k1
    on overwatch with a pistol at (10, 10), h1 rides 12" west from x = 50 into its 35.2" reach;
    the first point looked at is 5.0" in, TN 17, 9 + 8 = 17 against a dodge of 7 + 8 + 1 = 16: a
    hit, 1 wound. The watcher's sight of each point comes from the table before resolve; resolve
    asks the table nothing."""
    seeing = SeeingTable()
    table = ShutWhileResolving(seeing)
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


def test_EC_TER_BUILDING_where_a_ridden_bike_rests_comes_from_the_facts(rules):
    """A producer that rode h1's 12" on a surface 1.0" up, over a flat table (its surfaces at 0"):
    the rules leave the bike 1.0" above the table, where nothing holds it, so it rests on the
    surface under it, dropped 1.0" (issue 18's floating bike). What the table says of that pose
    comes from the facts; resolve asks the table nothing."""
    table = ShutWhileResolving(SeeingTable())
    state = begin(watching(), "h1", rules)
    state = state.with_model(state.model("k1").but(overwatch_push=None))  # nobody watches this ride
    step = take(ResolvesShut(rules, table), state, Action.ride("h1", "s2: straight 12", "never"),
                np.random.default_rng(0), RidesAsChecked(level=1.0))
    (rest,) = [e for e in step.events if e.kind == "rest"]
    assert rest.figures["dropped_in"] == pytest.approx(1.0)
    h1 = step.after.model("h1")
    assert h1.pose.z == 0.0 and h1.pose.x == pytest.approx(38.0)


def test_EC_STEALTH_who_saw_whom_as_the_activation_began_comes_from_the_facts(rules):
    """h1 (Stealth, ranged) starts its activation 40" from k1, who watches with a pistol and has
    Stealth too; the table shows neither the other's bike. So h1 does not see k1 (it may not
    attack it this activation) and k1 may not shoot h1 on overwatch in it (EC-STEALTH,
    EC-GUN-STOPPED). Both sights are asked before resolve; resolve asks the table nothing."""
    state = watching()
    state = state.with_model(state.model("h1").but(traits=(("stealth_ranged", None),)))
    state = state.with_model(state.model("k1").but(traits=(("stealth", None),)))
    seeing = SeeingTable(lambda pose: 0.0)
    step = take(ResolvesShut(rules, ShutWhileResolving(seeing)), state, Action.activate("h1"),
                np.random.default_rng(0), RidesAsChecked())
    assert step.after.model("h1").unseen_at_start == ("k1",)
    assert step.after.model("k1").unseen_at_start == ("h1",)
    assert len(seeing.asked) == 2  # h1's look at k1, k1's look (all round) at h1


def test_EC_WOUND_where_a_wreck_lies_comes_from_the_table_after_resolve(rules, dice):
    """The worked overwatch shot above at h1 with one wound left: the hit takes it out where it
    was shot, 5.0" into its ride (x = 50 - 5 = 45). Its wreck is placed once resolve is done, from
    what the table says of the spots around it (none of its gang rides on, so where it was); the
    table is shut while the engine resolves (on the old code resolve asked it 'off_table')."""
    seeing = SeeingTable()
    table = ShutWhileResolving(seeing)
    state = begin(watching(), "h1", rules)
    state = state.with_model(state.model("h1").but(wounds=1))
    step = take(ResolvesShut(rules, table), state, Action.ride("h1", "s2: straight 12", "never"), dice([9, 8, 7, 8]),
                RidesAsChecked())
    assert step.after.model("h1").status == "out"
    (wreck,) = step.after.wrecks
    assert (wreck.model_id, wreck.pose.x, wreck.pose.y) == ("h1", pytest.approx(45.0), pytest.approx(10.0))
    assert [e.kind for e in step.events][-1] == "wreck"  # placed after everything the action resolved


def test_resolve_given_a_table_but_not_its_answers_says_so(rules, dice):
    """The review of issue 44's step: resolve called with a table and the producer's bare facts
    (no ``with_table_answers``) would play on as if the table showed nothing (the worked overwatch
    ride above unshot, an activation's Stealth riders unseen) where the one path's game shoots:
    it refuses, naming how to ask the answers, for a ride and for an activation's start."""
    from entropy3d.systems.entropy_city.transition import check

    state = begin(watching(), "h1", rules)
    checked = check(state, Action.ride("h1", "s2: straight 12", "never"), rules)
    on_a_table = EntropyCityEngine(rules, SeeingTable())
    with pytest.raises(ValueError, match="with_table_answers"):
        on_a_table.resolve(state, checked, ridden(checked), dice([9, 8, 7, 8]))
    with pytest.raises(ValueError, match="with_table_answers"):
        on_a_table.resolve(watching(), Action.activate("h1"), None, np.random.default_rng(0))
    # without a table it plays as a table-less game: nothing seen, no shot
    after, events = EntropyCityEngine(rules).resolve(state, checked, ridden(checked), dice([9, 8, 7, 8]))
    assert after.model("h1").wounds == 3 and not any(e.figures.get("overwatch") for e in events)
