"""EC-TRAIT with EC-ACT-PICKUP: the dice choices of the traits a player declares for a ride reach
the pickup that ride attempts (an item, or an NPC standing on the table, which is picked up as an
item is: EC-MISSION-RESCUE), played through the one path (``transition.check`` / ``resolve``)."""

from __future__ import annotations

import dataclasses

from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import Item, ModelState, State
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from tests.systems.entropy_city.test_attacks import attack, side_by_side
from tests.systems.entropy_city.test_choice_traits import with_traits
from tests.systems.entropy_city.test_transition import ridden


def test_EC_TRAIT_EC_ACT_PICKUP_strategist_declared_for_a_ride_rolls_three_dice_for_its_pickup(rules, dice):
    """Strategist (x): "X times per game, when performing a test this character rolls 3D10 instead
    of 2D10 and then discards one D10 of choice." Rescue & Survive: Ash (sportsbike, speed 2,
    Strategist 1) rides "s2: straight 8" east along y 10 from x 10; Hades MC's NPC stands at
    (14, 11.5), 1.5" off the path's centre line, 0.67" off the base's side: within the pickup's
    1" (EC-ACT-PICKUP), no other bike within 3": TN 14, +1 stress first. The straight ride rolls
    no test, so the pickup is the action's first: dice 3, 9, 8 (never pushing). The pairs: 3+9+1 =
    13 fails, 9+8+1 = 18 passes, 3+8+1 = 12: it keeps 9 and 8, sets 3 aside: Ash holds the NPC,
    stress 1, its one Strategist use spent. Undeclared the same dice give 3+9+1 = 13: a miss."""
    ash = ModelState("h1", "hades", "sportsbike", Pose(10.0, 10.0, 0.0, 0.0), 2, 0, 3, 10,
                     traits=(("strategist", 1),))
    npc = Item("hades_npc", 14.0, 11.5, owner="hades", to=(30.0, 4.0))
    far = ModelState("k1", "komodo", "sportsbike", Pose(30.0, 20.0, 180.0, 0.0), 2, 0, 3, 10)
    state = State(turn=2, mission="rescue_survive", models={"h1": ash, "k1": far}, score={"hades": 0, "komodo": 0},
                  items=(npc,))
    ride = check(state, Action.ride("h1", "s2: straight 8", "never"), rules)
    declared = dataclasses.replace(ride, traits_used=("strategist",))
    after, events = resolve(state, declared, ridden(declared), dice([3, 9, 8]), rules)
    [pickup] = [e for e in events if e.kind == "item"]
    assert (pickup.figures["did"], pickup.figures["tn"]) == ("picked up", 14)
    assert (pickup.rolls[0].dice, pickup.rolls[0].discarded, pickup.rolls[0].total) == ((9, 8), (3,), 18)
    assert after.item_held_by("h1").id == "hades_npc" and after.model("h1").stress == 1
    assert dict(after.model("h1").trait_uses) == {"strategist": 1}
    plain, events = resolve(state, ride, ridden(ride), dice([3, 9, 8]), rules)
    assert [e.figures["did"] for e in events if e.kind == "item"] == ["missed"]


def test_EC_TRAIT_strategist_with_true_power_keeps_the_die_it_set_aside_in_the_record(rules, dice):
    """Strategist and True Power in one test: k1 (chain, TN 14, Strategist 1, True Power, strength
    2) declares Strategist for its attack on h1 (dodge 1), never pushing. k1 rolls 9, 2, 8: it keeps
    9+8 = 17, sets 2 aside, and adds its strength once the roll sits: 19. h1 dodges 3+4+1 = 8: a hit.
    The roll the event records shows the die set aside (the replay and the captions read it), with
    the strength added: dice (9, 8), set aside (2,), total 19."""
    state = side_by_side(0.9, weapon="chain")
    state = with_traits(state, "k1", ("strategist", 1), ("true_power", None), strength=2)
    chain = dataclasses.replace(Action.attack("k1", "h1", "chain", "never", "never"), traits_used=("strategist",))
    after, events = attack(state, chain, rules, dice([9, 2, 8, 3, 4]))
    roll = events[0].rolls[0]
    assert (roll.dice, roll.discarded, roll.total, events[0].figures["hit"]) == ((9, 8), (2,), 19, True)
    assert dict(after.model("k1").trait_uses) == {"strategist": 1}
