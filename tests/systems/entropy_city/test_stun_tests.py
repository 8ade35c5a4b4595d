"""Stunned (EC-COND-STUN): "Target number for all tests is +3, stunned is removed on first
successful test" -- every test the rider rolls, the crash and destructible tests of a ride
included, worked by hand from the rulebook's numbers (head-on TN 21 - dodge, side-on TN 18 -
dodge, destructible TN 13 with the piece's risk added to the stress)."""

from __future__ import annotations

import numpy as np

from entropy3d.core.facts import Contact
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.dice import policy_named
from entropy3d.systems.entropy_city.events import resolve_destructible
from entropy3d.systems.entropy_city.state import State, Trap
from entropy3d.systems.entropy_city.transition import Action
from entropy3d.systems.entropy_city.traps import spring
from tests.systems.entropy_city.test_transition import model, state_of, take

STUNNED = ("stunned",)


def test_EC_COND_STUN_adds_3_to_the_crash_survival_tests(rules):
    """A stunned police rider (dodge 1) that hits a wall head-on needs TN 21 - 1 + 3 = 23, side-on
    18 - 1 + 3 = 20; unstunned, 20 and 17."""
    wall = Contact("bank", "building", 5.0, 0.5, 0.0, 0.0, (15.0, 10.0, 0.0))
    scrape = Contact("bank", "building", 5.0, 0.5, 0.0, 60.0, (15.0, 11.0, 0.0))
    found = {}
    for contact, kind in ((wall, "head"), (scrape, "side")):
        for conditions in ((), STUNNED):
            state = state_of(model(speed=2, conditions=conditions))
            _, events = take(state, Action.ride("k1", "s2: straight 8", "never"), rules, np.random.default_rng(1),
                             progress=5.0, contacts=[contact])
            (crash,) = [e for e in events if e.kind == "crash"]
            found[kind, bool(conditions)] = crash.rolls[0].tn
            if conditions:
                assert "+3 stunned" in crash.rules
    assert found == {("head", False): 20, ("head", True): 23, ("side", False): 17, ("side", True): 20}


def test_EC_COND_STUN_adds_3_to_the_destructible_test(rules, dice):
    """Risk 1 (+1 stress), TN 13 (EC-DEST-2): 6 + 8 + 1 = 15 passes unstunned but fails stunned
    (TN 16). (A stunned rider rides its minimum distance, so on the table it meets a destructible
    as a solid, EC-DEST-2; the decider still takes the +3 from whoever asks.)"""
    plain = resolve_destructible(2, True, 1, 0, rules, dice([6, 8]), policy_named("never", rules))
    stunned = resolve_destructible(2, True, 1, 0, rules, dice([6, 8]), policy_named("never", rules), tn_mod=3)
    assert (plain.tn, plain.roll.succeeded) == (13, True)
    assert (stunned.tn, stunned.roll.succeeded) == (16, False)


def test_EC_COND_STUN_a_passed_crash_test_removes_the_stun(rules, dice):
    """Side-on, stunned: TN 18 - 1 + 3 = 20; 10 + 10 = 20 passes and the stun is gone; 9 + 10 = 19
    fails (a bust) and the rider stays stunned."""
    scrape = Contact("bank", "building", 5.0, 0.5, 0.0, 60.0, (15.0, 11.0, 0.0))
    state = state_of(model(speed=2, conditions=STUNNED))
    after, _ = take(state, Action.ride("k1", "s2: straight 8", "never"), rules, dice([10, 10]), progress=5.0,
                    contacts=[scrape])
    assert "stunned" not in after.model("k1").conditions
    after, _ = take(state, Action.ride("k1", "s2: straight 8", "never"), rules, dice([9, 10, 9, 9]), progress=5.0,
                    contacts=[scrape])
    assert "stunned" in after.model("k1").conditions


def test_EC_COND_STUN_adds_3_to_a_traps_test(rules, dice):
    """Caltrops test at TN 14 (DECISION in data): stunned, TN 17; 8 + 8 = 16 fails it."""
    trap = Trap("t1", "caltrops", 10.0, 10.0, 0.0, "h1")
    for conditions, harmed in (((), False), (STUNNED, True)):
        state: State = state_of(model(pose=Pose(10, 10, 0), conditions=conditions))
        after, events = spring(state, "k1", trap, "never", dice([8, 8]), rules)
        assert events[0].rolls[0].tn == 14 + 3 * bool(conditions)
        assert (after.model("k1").stress > 0) is harmed
