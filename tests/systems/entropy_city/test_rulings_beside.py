"""Rulings of a rulebook played beside Entropy City, applied to its game (entropy_city/rulings_beside.py):
the reference cards' Damaged as wounds (EC-WOUND) and their Move as inches on the next move."""

from __future__ import annotations

import pytest

from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.rulings_beside import apply_ruling, move_change_in
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.wrecks import place_wrecks


def rider(model_id: str, gang: str, x: float, **changes) -> ModelState:
    return ModelState(model_id, gang, "cruiser", Pose(x, 10.0, 0.0, 0.0), 2, 0, 3, 7).but(**changes)


def yard(mission: str = "turf_war", **victim) -> State:
    models = [rider("brick", "wallers", 10.0), rider("parked", "roofers", 20.0, **victim),
              rider("hopper", "roofers", 30.0)]
    return State(turn=1, mission=mission, models={m.id: m for m in models}, score={"roofers": 0, "wallers": 0})


def test_REF_ELEV_a_card_move_is_the_distance_of_10_kph_over_an_actions_time(rules):
    """Card "Map: Car Chase": "Move: 1 - 1x1 = 10kph"; an action's move is ridden in 1.5 s
    (scale.seconds_per_activation) at 1.42 m an inch: 10 / 3.6 = 2.778 m/s, x 1.5 s = 4.167 m,
    / 1.42 = 2.934"; two Moves down are twice that."""
    assert move_change_in(10.0, rules) == pytest.approx(2.934, abs=0.001)
    assert move_change_in(-20.0, rules) == pytest.approx(-5.869, abs=0.001)


def test_EC_WOUND_the_cards_damage_costs_wounds_and_their_move_changes_the_next_move(rules):
    """Parked (3 wounds) takes Damaged 2 from Brick's crash into it: 3 - 2 = 1 wound left, still
    in play; Hopper came down a level: its next move may ride 2.934" further, and nothing else."""
    state = yard()
    after, events = apply_ruling(state, "parked", 2, 0.0, "Damaged 2", ("REF-COLL",), "brick", rules)
    assert after.model("parked").wounds == 1 and after.model("parked").in_play
    [event] = events
    assert event.kind == "ruling" and event.clauses == ("REF-COLL", "EC-WOUND")
    assert event.figures["wounds_lost"] == 2 and not event.figures["taken_out"]
    after, events = apply_ruling(after, "hopper", 0, 10.0, "Move +1", ("REF-ELEV",), "hopper", rules)
    assert after.model("hopper").move_change_in == pytest.approx(2.934, abs=0.001)
    assert after.model("hopper").wounds == 3
    assert events[0].rules == "hopper's next move +2.9\" by the rulings (Move +1)"


def test_EC_WOUND_a_model_the_cards_take_out_leaves_its_wreck_and_counts_for_the_rider_that_hit_it(rules):
    """Parked has 2 wounds and takes Damaged 2 from Brick (Wallers) riding into it: 0 wounds, out
    of the game (EC-WOUND), a wreck where it was once the opponent places it; Turf War's "one
    point for each character you actively take out" gives Wallers 1 (rules data
    missions.turf_war.taken_out)."""
    state = yard(wounds=2)
    after, events = apply_ruling(state, "parked", 2, 0.0, "Damaged 2", ("REF-COLL",), "brick", rules)
    after, _ = place_wrecks(state, after, rules)
    assert not after.model("parked").in_play and after.model("parked").wounds == 0
    assert events[0].figures["taken_out"] and "out of the game" in events[0].rules
    assert [wreck.model_id for wreck in after.wrecks] == ["parked"]
    assert after.score == {"roofers": 0, "wallers": 1}


def test_EC_WOUND_a_rider_the_cards_take_out_on_its_own_ride_scores_for_no_one_in_turf_war(rules):
    """Hopper (1 wound) falls off a roof on its own ride, Damaged 1: out, and Turf War scores it for
    nobody (no one took it out); Lovers Point Brawl gives every enemy gang a point "however it
    went" (missions.lovers_point_brawl.taken_out: 1)."""
    after, _ = apply_ruling(yard(), "hopper", 3, 0.0, "Damaged 3", ("REF-FALL",), "hopper", rules)
    assert not after.model("hopper").in_play and after.score == {"roofers": 0, "wallers": 0}
    after, _ = apply_ruling(yard("lovers_point_brawl"), "hopper", 3, 0.0, "Damaged 3", ("REF-FALL",), "hopper", rules)
    assert after.score == {"roofers": 0, "wallers": 1}


def test_EC_WOUND_a_model_already_out_is_left_alone(rules):
    state = yard(status="out")
    after, events = apply_ruling(state, "parked", 2, 10.0, "Damaged 2", ("REF-COLL",), "brick", rules)
    assert after is state and events == []


def test_EC_MISSION_JAIL_a_holder_the_cards_take_out_leaves_the_NPC_standing_where_it_went_out(rules):
    """EC-WOUND, EC-MISSION-JAIL: Parked holds the prisoner (Jailbreak) and takes Damaged 3 from
    Brick's crash, its 3 wounds: out of the game, and the NPC is left standing where it went out,
    (20, 10), for a pickup ("a holder taken out leaves the NPC standing where it went out"). Before,
    only a rider's own ride let its NPC go: the prisoner rode on with a rider out of the game."""
    import dataclasses

    from entropy3d.systems.entropy_city.state import Item

    state = dataclasses.replace(yard("jailbreak"),
                                items=(Item("prisoner", 0.0, 0.0, carrier="parked", openings=((18.0, 14.0),)),))
    after, events = apply_ruling(state, "parked", 3, 0.0, "Damaged 3", ("REF-COLL",), "brick", rules)
    assert not after.model("parked").in_play
    [npc] = after.items
    assert (npc.carrier, npc.x, npc.y, npc.fate) == (None, 20.0, 10.0, None)
