"""EC-TRAIT: Reach Advantage's strike-first exchange tests each side as any melee attack does, with
the stats its traits add (``entropy3d/systems/entropy_city/reach_advantage.py`` rolls through
``trait_tests.rider_test``), played through the one path (``transition.check`` / ``resolve``)."""

from __future__ import annotations

from entropy3d.systems.entropy_city.transition import Action
from tests.systems.entropy_city.test_attacks import attack, side_by_side
from tests.systems.entropy_city.test_choice_traits import with_traits


def test_EC_TRAIT_reach_advantage_exchange_adds_true_power_on_both_sides(rules, dice):
    """Reach Advantage with True Power ("this rider may add their strength or ignore it during any
    test in which it is relevant"; DECISION: melee attacks and attacks back, added once the roll
    sits when it does not bust). k1 (chain, TN 14, Reach Advantage, True Power, strength 3) attacks
    h1 (lead pipe, TN 13, stress 3, True Power, strength 2), which attacks back; neither pushes.
    k1 strikes first: 9+3 = 12, +3 strength = 15 >= 14, a hit: h1 +2 stress (now 5). h1 then
    tests with its stress now: 3+3+5 = 11, +2 strength = 13 >= 13, a hit back: k1 +3 stress.
    Without the stats both miss (12 < 14, 11 < 13). The TNs stay the weapons' (14, 13): the
    traits' TN change is the attack TN's, not added twice."""
    state = side_by_side(0.9, weapon="chain")
    state = with_traits(state, "k1", ("reach_advantage", None), ("true_power", None), strength=3)
    state = with_traits(state, "h1", ("true_power", None), weapon="leadpipe", stress=3, strength=2)
    back = Action.attack("k1", "h1", "chain", "never", "never", defence="attack")
    after, events = attack(state, back, rules, dice([9, 3, 3, 3]))
    swings = [e for e in events if e.kind == "attack" and e.rolls]
    assert [e.rolls[0].total for e in swings] == [15, 13]
    assert [e.rolls[0].effective_tn for e in swings] == [14, 13]
    assert (after.model("h1").stress, after.model("k1").stress) == (5, 3)
