"""EC-TRAIT, EC-STEALTH: the traits a player chooses to use (Strategist, All Part of the Plan) and
those that oblige a rider (Stealth, Timid, Aggressive, Matter of Pride), each played through the
one path (``transition.check`` / ``resolve``) with its dice worked out by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.core.facts import Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from entropy3d.table_answers import with_table_answers
from tests.systems.entropy_city.test_attacks import Table, armed, attack, side_by_side
from tests.systems.entropy_city.test_transition import take

HIDDEN, IN_VIEW = Sight(0.0, False, 3.0), Sight(1.0, True, 3.0)


def with_traits(state, model_id, *traits, **changes):
    return state.with_model(state.model(model_id).but(traits=tuple(traits), **changes))


def activated(state, model_id, rules, table):
    """``model_id``'s activation begun with what ``table`` shows then (EC-STEALTH), asked before
    resolve as the one path asks it (:func:`entropy3d.table_answers.with_table_answers`)."""
    start = Action.activate(model_id)
    return resolve(state, start, with_table_answers(table, state, start, None, rules), np.random.default_rng(0),
                   rules)[0]


def declared(action, *traits):
    return dataclasses.replace(action, traits_used=traits)


def test_EC_STEALTH_EC_TRAIT_stealth_hides_a_rider_not_seen_when_the_activation_began(rules):
    """Stealth: "This character cannot be the target of a melee/ranged attack when it was not within
    line of sight at the start of the activation." h1 (Stealth) is hidden from k1 as k1's activation
    begins; k1 then rides beside it (here: already beside it): its chain is refused, EC-STEALTH. Had
    k1 seen h1 as it began, the same chain is legal; so it is against a rider without Stealth, and
    against stealth_ranged (the ranged one of "Melee/Ranged"), which hides from guns only."""
    plain = side_by_side(0.3, weapon="chain", gun="pistol", ammo=5)
    stealthy = with_traits(plain, "h1", ("stealth", None))
    chain = Action.attack("k1", "h1", "chain")
    with pytest.raises(IllegalPlanError, match="EC-STEALTH") as refused:
        check(armed(activated(stealthy, "k1", rules, Table(HIDDEN)), "k1"), chain, rules)
    assert "did not see it when its activation began" in refused.value.message
    assert check(armed(activated(stealthy, "k1", rules, Table(IN_VIEW)), "k1"), chain, rules).weapon == "chain"
    assert check(armed(activated(plain, "k1", rules, Table(HIDDEN)), "k1"), chain, rules).weapon == "chain"
    # the ranged stealth: the chain may strike it, the pistol (seen in full now) may not shoot it
    ranged = activated(with_traits(plain, "h1", ("stealth_ranged", None)), "k1", rules, Table(HIDDEN))
    assert check(armed(ranged, "k1"), chain, rules).weapon == "chain"
    with pytest.raises(IllegalPlanError, match="EC-STEALTH"):
        check(armed(ranged, "k1"), Action.attack("k1", "h1", "pistol"), rules, Table(IN_VIEW))


def test_EC_TRAIT_strategist_rolls_three_dice_and_sets_the_worst_aside(rules, dice):
    """Strategist (x): "X times per game, when performing a test this character rolls 3D10 instead of
    2D10 and then discards one D10 of choice." k1 (Strategist 1) declares it for its chain attack
    (TN 14, never pushing): it rolls 9, 2 and 8. The pairs: 9+2 = 11 (fails), 9+8 = 17, 2+8 = 10:
    it keeps 9+8 = 17 and sets the 2 aside. h1 dodges 3+4 (+1 dodge) = 8: hit, the chain's 2 stress.
    Without the trait the same dice give k1 9+2 = 11: a miss. Its one use is spent: declaring it
    again is refused, naming the trait."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "k1", ("strategist", 1))
    chain = Action.attack("k1", "h1", "chain", "never", "never")
    after, events = attack(state, declared(chain, "strategist"), rules, dice([9, 2, 8, 3, 4]))
    swing = events[0]
    assert swing.figures["hit"] and swing.rolls[0].dice == (9, 8) and swing.rolls[0].discarded == (2,)
    assert "(2 set aside)" in swing.rules
    assert after.model("h1").stress == 2 and after.model("k1").trait_uses == (("strategist", 1),)
    plain, _ = attack(state, chain, rules, dice([9, 2, 3, 4]))
    assert plain.model("h1").stress == 0
    with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
        check(armed(after, "k1"), declared(chain, "strategist"), rules)
    assert "strategist all 1 times" in refused.value.message


def test_EC_TRAIT_all_part_of_the_plan_rolls_a_pushed_die_as_two(rules, dice):
    """All Part of the Plan (x): "X times per game, when pushing your luck during a test this
    character may roll 2D10 and then discard one D10 of their choice." k1 (x = 2) declares it for
    its chain attack (TN 14, pushing while under what it needs). h1 never pushes: 3+4 = 7; k1 has
    7+5 = 12, needs 14, pushes: 10 and 4 come up; 12+10 = 22 busts, 12+4 = 16 does not: it keeps
    the 4 (16) and sets the 10 aside. 16 beats the dodge 7+1 = 8: a hit. Without the trait the
    push is the 10: 22, a bust (EC-DICE-4). One use spent, one left."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "k1", ("all_part_of_the_plan", 2))
    chain = Action.attack("k1", "h1", "chain", "sit-at-tn", "never")
    after, events = attack(state, declared(chain, "all_part_of_the_plan"), rules, dice([7, 5, 3, 4, 10, 4]))
    assert events[0].figures["hit"] and events[0].rolls[0].dice == (7, 5, 4) and events[0].rolls[0].discarded == (10,)
    assert after.model("k1").trait_uses == (("all_part_of_the_plan", 1),) and after.model("h1").stress == 2
    busted, plain = attack(state, chain, rules, dice([7, 5, 3, 4, 10] + [9] * 4))
    assert not plain[0].figures["hit"] and any(e.kind == "bust" and e.model == "k1" for e in plain)


def test_EC_TRAIT_timid_once_stress_reaches_x_every_attack_is_dodged(rules, dice):
    """Timid (x): "Once stress reaches x all incoming attacks must be responded to by dodging even if
    stress is dropped later in the game." h1 (Timid 3, a lead pipe) at stress 2 may attack back. At
    3 an action later (k1's activation begins) the trait holds; with its stress back to 0 an attack
    back is still refused, naming the trait, and a dodge is not."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "h1", ("timid", 3), weapon="leadpipe", stress=2)
    back = Action.attack("k1", "h1", "chain", defence="attack")
    assert check(armed(state, "k1"), back, rules).defence == "attack"
    reached = activated(state.with_model(state.model("h1").but(stress=3)), "k1", rules, None)
    calmer = reached.with_model(reached.model("h1").but(stress=0))
    with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
        check(armed(calmer, "k1"), back, rules)
    assert "timid" in refused.value.message
    assert check(armed(calmer, "k1"), Action.attack("k1", "h1", "chain"), rules).defence == "dodge"


def test_EC_TRAIT_aggressive_once_stress_reaches_x_melee_is_answered_with_an_attack(rules, dice):
    """Aggressive (x): "Once stress reaches x any future melee defences must be responded to with an
    attack if possible even if stress is dropped later in the game." h1 (Aggressive 2, a lead pipe)
    reaches stress 2; later at 0 a dodge is refused, naming the trait. Attacking back it is: k1's
    chain 9+8 = 17 makes TN 14, h1's lead pipe 9+6 = 15 makes its TN 13: both hit, h1 +2 stress
    (chain), k1 +3 (lead pipe). Struck from behind (a surprise, EC-MEL-2) it cannot attack back:
    the dodge stands."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "h1", ("aggressive", 2), weapon="leadpipe", stress=2)
    reached = activated(state, "k1", rules, None)
    calm = reached.with_model(reached.model("h1").but(stress=0))
    with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
        check(armed(calm, "k1"), Action.attack("k1", "h1", "chain", "never", "never"), rules)
    assert "aggressive" in refused.value.message
    after, _ = attack(calm, Action.attack("k1", "h1", "chain", "never", "never", defence="attack"), rules,
                      dice([9, 8, 9, 6]))
    assert after.model("h1").stress == 2 and after.model("k1").stress == 3
    behind = calm.with_model(calm.model("k1").but(pose=Pose(9.2, 10 + 42 / 25.4 - 0.1, 0), weapon="dagger"))
    assert check(armed(behind, "k1"), Action.attack("k1", "h1", "dagger"), rules).defence == "dodge"


def test_EC_TRAIT_matter_of_pride_a_rider_shot_at_strikes_back_in_melee(rules, dice):
    """Matter of Pride: "If this character receives a ranged attack all future activations must be
    spent attempting to deliver a melee attack to the enemy that did it, this must continue until a
    successful melee attack has been completed." k1 shoots h1 (Matter of Pride) and misses: pistol
    TN 18 with 5+4 = 9. h1's attacks are now refused but a melee attack on k1: its own pistol shot
    at k1 and its chain on k2 (on its other side), naming the trait. Its chain on k1 is allowed; it
    hits (9+8 = 17 against TN 14 and a dodge of 2+3+1 = 6), and from then on h1 may shoot again."""
    state = side_by_side(0.3, gun="pistol", ammo=5)
    state = with_traits(state, "h1", ("matter_of_pride", None), weapon="chain", gun="pistol", ammo=5)
    state = state.with_model(state.model("k1").but(id="k2", pose=Pose(10, 10 - 42 / 25.4 - 0.3, 0)))
    shot = check(armed(state, "k1"), Action.attack("k1", "h1", "pistol", "never", "never"), rules, Table(IN_VIEW))
    shot_at, events = resolve(state, shot, None, dice([5, 4, 1, 1]), rules)
    assert not events[0].figures["hit"] and shot_at.model("h1").pride_target == "k1"
    assert any(e.kind == "trait" and "matter of pride" in e.rules for e in events)
    for target, weapon in (("k1", "pistol"), ("k2", "chain")):
        with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
            check(armed(shot_at, "h1"), Action.attack("h1", target, weapon), rules, Table(IN_VIEW))
        assert "matter_of_pride" in refused.value.message
    struck, _ = attack(shot_at, Action.attack("h1", "k1", "chain", "never", "never"), rules, dice([9, 8, 2, 3]))
    assert struck.model("k1").stress == 2 and struck.model("h1").pride_target is None
    assert check(armed(struck, "h1"), Action.attack("h1", "k1", "pistol"), rules, Table(IN_VIEW)).weapon == "pistol"


def test_EC_TRAIT_nimble_a_hit_with_no_attack_in_return_gives_a_free_move(rules, dice):
    """Nimble (x): "Upon successfully completing an attack without having received one in return
    this character may move X for free without it effecting the rest of their turn in any way this
    may be completed as a straight or turn move." k1 (Nimble 3, speed 2, one action taken) hits h1
    with its chain (9+8 = 17 against TN 14 and a dodge of 3+4+1 = 8): a free move of up to 3". It
    rides 's2: straight 3' from (10, 11.95) to (13, 11.95): still one action taken, stress 0, speed
    2. 4" is refused, naming the trait; a second free move is no move the rules give. Met by an
    attack back (h1's lead pipe, 9+6 = 15 against its TN 13) a hit gives none."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "k1", ("nimble", 3), actions_taken=1)
    after, events = attack(state, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([9, 8, 3, 4]))
    assert after.model("k1").free_move_in == 3 and any(e.kind == "trait" and "nimble" in e.rules for e in events)
    with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
        check(after, Action.forced("k1", "s2: straight 4"), rules)
    assert "Nimble gives 3" in refused.value.message
    start = after.model("k1").pose
    moved, _ = take(after, Action.forced("k1", "s2: straight 3"), rules)
    k1 = moved.model("k1")
    assert (round(k1.pose.x - start.x, 6), k1.pose.y, k1.actions_taken, k1.stress, k1.speed) == (3, start.y, 1, 0, 2)
    assert k1.free_move_in == 0
    with pytest.raises(IllegalPlanError, match="no forced move"):
        check(moved, Action.forced("k1", "s2: straight 3"), rules)
    fought = state.with_model(state.model("h1").but(weapon="leadpipe"))
    back, _ = attack(fought, Action.attack("k1", "h1", "chain", "never", "never", defence="attack"), rules,
                     dice([9, 8, 9, 6]))
    assert back.model("k1").free_move_in == 0 and back.model("k1").stress == 3


def test_EC_TRAIT_reach_advantage_strikes_first_and_the_other_tests_with_the_stress(rules, dice):
    """Reach Advantage: "... this model will gain advantage in any attack that has an attack in
    response, their attack will be completed prior to the others ... Any changes in stress during
    this will therefore be applies to y's test." k1 (chain, TN 14) attacks h1 (lead pipe, TN 13,
    stress 3), which attacks back; neither pushes. Without the trait both roll at once: k1 9+8 = 17
    hits, h1 9+9+3 = 21 hits back (k1 +3 stress). With it on k1: k1 strikes first (17, a hit: h1
    +2 stress, now 5), then h1 tests with 5: 9+9+5 = 23, a bust: no hit back, h1 loses a wound and
    remounts (TN 17-2 = 15: 6+5+5 = 16). A second enemy (h2, chain, 0.5" from k1) in reach of k1:
    no advantage, both at once again."""
    state = side_by_side(0.9, weapon="chain")
    state = with_traits(state, "h1", weapon="leadpipe", stress=3)
    back = Action.attack("k1", "h1", "chain", "never", "never", defence="attack")
    plain, _ = attack(state, back, rules, dice([9, 8, 9, 9]))
    assert (plain.model("k1").stress, plain.model("h1").stress, plain.model("h1").wounds) == (3, 5, 3)
    reach = with_traits(state, "k1", ("reach_advantage", None))
    first, events = attack(reach, back, rules, dice([9, 8, 9, 9, 6, 5]))
    assert events[0].kind == "trait" and "k1 strikes first" in events[0].rules
    assert (first.model("k1").stress, first.model("h1").stress, first.model("h1").wounds) == (0, 5, 2)
    assert any(e.kind == "bust" and e.model == "h1" for e in events) and first.model("h1").in_play
    k1 = reach.model("k1")
    crowded = reach.with_model(k1.but(id="h2", gang="hades", pose=Pose(k1.pose.x, k1.pose.y + 42 / 25.4 + 0.5, 0)))
    both, _ = attack(crowded, back, rules, dice([9, 8, 9, 9]))
    assert (both.model("k1").stress, both.model("h1").stress) == (3, 5)


def test_EC_TRAIT_l_plates_leaves_the_bike_advantages_unused(rules, dice):
    """L Plates: "This rider doesn't have enough experience and therefore cannot use any bike
    specific advantages" (which count: DECISION in the rules data). h1 rides a trailbike: +1 to hit
    its rider, +1 dodge (EC-BIKE-TRAIL). k1's chain, 9+6 = 15: against TN 14+1 = 15 and a dodge of
    7+6+1+1 = 15 the tie goes to the dodge (EC-DICE-2): a miss. With L Plates: TN 14, dodge 7+6+1 =
    14: a hit, 2 stress. An L-plated sportsbike rides its own speeds and templates, but may not turn
    past a template's end (EC-BIKE-SPORT's extra inches) nor stoppie."""
    state = side_by_side(0.3, weapon="chain")
    state = state.with_model(state.model("h1").but(bike_type="trailbike"))
    chain = Action.attack("k1", "h1", "chain", "never", "never")
    plain, events = attack(state, chain, rules, dice([9, 6, 7, 6]))
    assert events[0].figures["tn"] == 15 and not events[0].figures["hit"]
    learner = with_traits(state, "h1", ("l_plates", None))
    hit, events = attack(learner, chain, rules, dice([9, 6, 7, 6]))
    assert events[0].figures["tn"] == 14 and events[0].figures["hit"] and hit.model("h1").stress == 2
    rider = side_by_side(0.3).model("k1").but(bike_type="sportsbike", speed=2, pose=Pose(10, 10, 0))
    sporty = State(2, "turf_war", {"k1": rider}, {}, {})
    learner = sporty.with_model(rider.but(traits=(("l_plates", None),)))
    assert check(learner, Action.ride("k1", "s2: straight 6, left medium 5"), rules).move.length_in == 11
    for plan in ("s2: left medium 7", "stoppie s2: straight 7, pivot left 90"):
        assert check(sporty, Action.ride("k1", plan), rules).move.length_in == 7
        with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
            check(learner, Action.ride("k1", plan), rules)
        assert "l_plates" in refused.value.message


def test_EC_TRAIT_get_a_real_bike_takes_the_targets_bike_advantages_for_the_turn(rules, dice):
    """Get a real bike: "Target bike & up to one rider specific advantages are unusable for the
    remainder of this turn." k1 (the trait) taunts h1 (trailbike) 8" away in lieu of its attack,
    seeing it (DECISION: within 12", in sight as a shot needs). Then k2's chain on h1 needs 14, not
    14+1 (the trailbike's +1 is gone), and 9+6 = 15 beats the dodge 7+6+1 = 14 (no +1 dodge): a hit.
    The first action of turn 3 gives the advantages back. Out of sight, or 13" away, it is refused."""
    state = with_traits(side_by_side(8.0), "k1", ("get_a_real_bike", None))
    state = state.with_model(state.model("h1").but(bike_type="trailbike"))
    k1 = state.model("k1")
    state = state.with_model(k1.but(id="k2", pose=Pose(10, 10 - 42 / 25.4 - 0.3, 0), weapon="chain"))
    taunt = Action.attack("k1", "h1", "get_a_real_bike")
    with pytest.raises(IllegalPlanError, match="EC-COVER-1"):
        check(armed(state, "k1"), taunt, rules, Table(HIDDEN))
    far = state.with_model(k1.but(pose=Pose(10, 23, 0)))
    with pytest.raises(IllegalPlanError, match="EC-TRAIT"):
        check(armed(far, "k1"), taunt, rules, Table(IN_VIEW))
    taunted, events = resolve(state, check(armed(state, "k1"), taunt, rules, Table(IN_VIEW)), None,
                              np.random.default_rng(0), rules)
    assert taunted.model("h1").advantages_off_turn == 2 and "get a real bike" in events[0].rules
    after, events = attack(taunted, Action.attack("k2", "h1", "chain", "never", "never"), rules, dice([9, 6, 7, 6]))
    assert events[0].figures["tn"] == 14 and events[0].figures["hit"]
    next_turn = activated(dataclasses.replace(after, turn=3), "k2", rules, None)
    assert next_turn.model("h1").advantages_off_turn == 0


def test_EC_TRAIT_charismatic_energy_takes_up_to_4_stress_off_followers_it_sees(rules):
    """Charismatic Energy: "once per turn he may remove 4 stress divided amongst his followers anyway
    he chooses providing he has line of sight ... they lose this amount and he gains it." j1 (the
    trait, stress 1) after its move, in lieu of its attack, takes 3 from k1 (stress 5) and 1 from k2
    (stress 2): k1 2, k2 1, j1 1+4 = 5. 3+2 = 5 is more than 4; a follower it does not see, or an
    enemy, is refused, naming the trait; and having made it, it has no attack left (EC-ACT-ATTACK)."""
    state = side_by_side(0.3)
    k1 = state.model("k1").but(stress=5)
    state = State(2, "turf_war", {"k1": k1, "h1": state.model("h1"),
                                  "k2": k1.but(id="k2", pose=Pose(20, 20, 0), stress=2),
                                  "j1": k1.but(id="j1", pose=Pose(20, 5, 0), stress=1,
                                               traits=(("charismatic_energy", None),))})
    inspire = dataclasses.replace(Action.attack("j1", "k1", "charismatic_energy"), shares=(("k1", 3), ("k2", 1)))
    checked = check(armed(state, "j1"), inspire, rules, Table(IN_VIEW))
    after, events = resolve(armed(state, "j1"), checked, None, np.random.default_rng(0), rules)
    assert [after.model(m).stress for m in ("k1", "k2", "j1")] == [2, 1, 5]
    assert events[0].figures["shares"] == {"k1": 3, "k2": 1}
    for shares, table, why in (((("k1", 3), ("k2", 2)), Table(IN_VIEW), "4 stress a turn at most"),
                               ((("k1", 3),), Table(HIDDEN), "does not see k1"),
                               ((("h1", 1),), Table(IN_VIEW), "no follower")):
        with pytest.raises(IllegalPlanError, match="EC-TRAIT") as refused:
            check(armed(state, "j1"), dataclasses.replace(inspire, shares=shares), rules, table)
        assert why in refused.value.message
    with pytest.raises(IllegalPlanError, match="EC-ACT-ATTACK"):
        check(after, dataclasses.replace(inspire, shares=(("k1", 1),)), rules, Table(IN_VIEW))


def test_EC_STEALTH_a_watcher_that_did_not_see_the_rider_as_its_activation_began_holds_fire(rules, dice):
    """Stealth (ranged) against overwatch (EC-GUN-STOPPED): k1 watches with a pistol at (10, 10);
    h1 (stealth_ranged) at (50, 10) rides 12" west into its range. Seen as h1's activation began,
    the watcher shoots 5" into the ride (TN 16+1 = 17: 9+8 = 17 against a dodge of 7+8+1 = 16, a
    hit, 1 wound). Not seen then (the table showed k1 nothing), it may not shoot h1 in this
    activation: no shot, h1 keeps its 3 wounds, k1 still watches."""
    from tests.systems.entropy_city.test_stopped_guns import SeeingTable, watching
    from tests.systems.entropy_city.test_transition import ridden

    state = watching()
    state = state.with_model(state.model("h1").but(traits=(("stealth_ranged", None),)))
    outcomes = []
    for at_start in (SeeingTable(), None):
        begun = activated(state, "h1", rules, at_start)
        checked = check(begun, Action.ride("h1", "s2: straight 12", "never"), rules)
        # what the table shows the watcher
        facts = with_table_answers(SeeingTable(), begun, checked, ridden(checked), rules)
        after, events = resolve(begun, checked, facts, dice([9, 8, 7, 8]), rules)
        outcomes.append((after.model("h1").wounds, after.model("k1").overwatch_push,
                         any(e.figures.get("overwatch") for e in events)))
    assert outcomes == [(2, None, True), (3, "never", False)]
