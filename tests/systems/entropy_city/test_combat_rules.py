"""The rest of the whole game's rules on the one path (issue 11), each with the rulebook's words:
attacks along the move (EC-ACT-ATTACK), the stopped gun's focussed shot (EC-GUN-STOPPED), traits
(EC-TRAIT), the stunt (EC-ACT-STUNT), burning (EC-COND-BURN) and wet (EC-COND-WET)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attack_odds import melee_odds, shot_odds
from entropy3d.systems.entropy_city.attacks import melee_setup, shot_tn
from entropy3d.systems.entropy_city.conditions import become
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from tests.systems.entropy_city.test_attacks import Table, armed, attack, rider, side_by_side
from tests.systems.entropy_city.test_transition import begin, model, state_of, take


def test_EC_ACT_ATTACK_an_attack_from_a_point_of_the_move_while_in_reach(rules, dice):
    """"One attack at any point along the move while in range": from a pose beside the target the
    chain reaches; from where the attacker ended (far past it) it does not."""
    state = side_by_side(0.3, weapon="chain")
    beside = state.model("k1").pose
    ended = state.with_model(state.model("k1").but(pose=Pose(beside.x + 20, beside.y, 0)))
    with pytest.raises(IllegalPlanError, match="EC-MEL-1"):
        check(armed(ended, "k1"), Action.attack("k1", "h1", "chain"), rules)
    after, events = attack(ended, Action.attack("k1", "h1", "chain", "sit-at-tn", "never", from_pose=beside), rules,
                           dice([9, 9, 1, 2]))
    assert next(e for e in events if "hit" in e.figures).figures["hit"]
    assert after.model("h1").stress > 0


def test_EC_GUN_STOPPED_a_stopped_shooter_takes_a_focussed_shot_at_TN_16(rules):
    """"Focussed Shot (Stopped with gun only): ... make a shooting action at TN16, no speed
    modification is required": at speed 3 a moving shooter needs more; stopped, it needs 16; and
    it gives up its recovery."""
    state = side_by_side(10.0, gun="pistol", ammo=5, speed=3)
    moving = shot_tn(state, "k1", "h1", "pistol", 0, rules)
    stopped = state.with_model(state.model("k1").but(stopped=True, speed=0, recovering=True))
    assert shot_tn(stopped, "k1", "h1", "pistol", 0, rules) == 16 != moving
    assert shot_tn(stopped, "k1", "h1", "pistol", 1, rules) == 17  # EC-GUN-SPLIT still adds +1
    table = Table(Sight(1.0, True, 10.0))
    after, _ = resolve(stopped, check(armed(stopped, "k1"), Action.attack("k1", "h1", "pistol"), rules, table), None,
                       np.random.default_rng(3), rules)
    assert not after.model("k1").recovering and after.model("k1").ammo == 4


def test_EC_TRAIT_psychotic_hard_headed_and_pillion_change_the_attack(rules, dice):
    """Psychotic (x): "TN of all melee attacks reduced by 2 when stress is x or higher". Hard
    Headed: "Reduce stress received from incoming melee attacks by 1 to a minimum of 1". Pillion
    (x): "immune to surprise attacks until stress had reached x or above"."""
    state = side_by_side(0.3, stress=5, traits=(("psychotic", 5),))
    calm = state.with_model(state.model("k1").but(stress=4))
    assert melee_setup(state, "k1", "h1", "chain", "dodge", rules).tn == (
        melee_setup(calm, "k1", "h1", "chain", "dodge", rules).tn - 2)
    # a chain deals 2 stress; hard headed takes 1 of it
    plain = side_by_side(0.3, weapon="chain")
    hard = plain.with_model(plain.model("h1").but(traits=(("hard_headed", None),)))
    hits = [attack(s, Action.attack("k1", "h1", "chain", "sit-at-tn", "never"), rules, dice([9, 9, 1, 2]))[0]
            for s in (plain, hard)]
    assert [s.model("h1").stress for s in hits] == [2, 1]
    # from behind: a surprise, unless a pillion watches while stress is under x
    behind = state_of(rider("k1", "komodo", Pose(7.0, 10.0, 0), weapon="chain"),
                      rider("h1", "hades", Pose(10, 10, 0)))
    assert melee_setup(behind, "k1", "h1", "chain", "dodge", rules).surprise
    watched = behind.with_model(behind.model("h1").but(traits=(("pillion", 4),), stress=3))
    assert not melee_setup(watched, "k1", "h1", "chain", "dodge", rules).surprise
    assert melee_setup(watched.with_model(watched.model("h1").but(stress=4)), "k1", "h1", "chain", "dodge",
                       rules).surprise


def test_EC_ACT_STUNT_a_passed_stunt_lowers_the_next_actions_attack(rules, dice):
    """"During a stunt you cannot perform an attack but if executed correctly it will reduce your
    target number": the stunt tests at TN 15 for 1 stress (DECISION in data); passed, the next
    action's attack needs 2 less; failed, nothing; the action after that, nothing."""
    k1 = model("k1", speed=2)
    state = begin(state_of(k1, model("h1", gang="hades", pose=Pose(40, 40, 0))), "k1", rules)
    plan = check(state, Action.ride("k1", "stunt s2: straight 8"), rules)
    assert plan.move.attacks_allowed == 0 and plan.move.tests[0].tn == 15
    after, events = take(state, Action.ride("k1", "stunt s2: straight 8"), rules, rng=dice([9, 8]))
    assert after.model("k1").stunt_set_up and after.model("k1").stress == 1
    failed, _ = take(state, Action.ride("k1", "stunt s2: straight 8", "never"), rules, rng=dice([2, 3]))
    assert not failed.model("k1").stunt_set_up
    next_action, _ = take(after, Action.ride("k1", "s2: straight 8"), rules)
    assert next_action.model("k1").shocking and not next_action.model("k1").stunt_set_up
    k1_now = next_action.model("k1")
    target = model("h1", gang="hades", pose=Pose(k1_now.pose.x, k1_now.pose.y + 42 / 25.4 + 0.3, 0))
    beside = next_action.with_model(target)
    plain = beside.with_model(k1_now.but(shocking=False))
    assert melee_setup(beside, "k1", "h1", "punch", "dodge", rules).tn == (
        melee_setup(plain, "k1", "h1", "punch", "dodge", rules).tn - 2)
    later, _ = take(begin(next_action, "k1", rules), Action.ride("k1", "s2: straight 8"), rules)
    assert not later.model("k1").shocking


def test_EC_COND_BURN_stress_per_action_a_wound_and_a_test_each_activation(rules, dice):
    """"add 1 stress per action lose one wound at the end of your activation. At The end of each
    activation you must perform a test to see if the fire has been put out, TN17."""
    k1 = model("k1", speed=2, conditions=("burning",))
    state = begin(state_of(k1), "k1", rules)
    after, events = take(state, Action.ride("k1", "s2: straight 8"), rules)
    assert after.model("k1").stress == 1 and any("EC-COND-BURN" in e.clauses for e in events)
    still, _ = resolve(after, Action.end("k1"), None, dice([5, 5, 5, 10]), rules)  # 11, 16, then 26: bust
    assert still.model("k1").wounds == 2 and "burning" in still.model("k1").conditions
    out, events = resolve(after, Action.end("k1"), None, dice([9, 8]), rules)  # 9+8+1 = 18 >= 17
    assert out.model("k1").wounds == 2 and "burning" not in out.model("k1").conditions
    last = after.with_model(after.model("k1").but(wounds=1))
    gone, _ = resolve(last, Action.end("k1"), None, dice([]), rules)
    assert gone.model("k1").status == "out"


def test_EC_COND_WET_minimum_stress_2_and_2_more_when_it_happens_mid_game(rules):
    """"A wet rider has a minimum stress of 2, if this happened during the game instead of the
    beginning add 2 stress."""
    dry = model("k1", stress=1)
    from_start, _ = become(dry, "wet", rules, mid_game=False)
    mid_game, events = become(dry, "wet", rules)
    assert from_start.stress == 2 and mid_game.stress == 3 and events[0].clauses == ("EC-COND-WET",)
    state = begin(state_of(model("k1", speed=2, stress=3, conditions=("wet",))), "k1", rules)
    focus, _ = take(state, Action.ride("k1", "focus s2: straight 12"), rules)
    assert focus.model("k1").stress == 2  # focus takes 2 off, never below the wet floor


def test_exact_odds_follow_the_focussed_shot_and_the_stunt(rules):
    """The odds the players weigh read the same TNs as the rolled attack."""
    state = side_by_side(10.0, gun="pistol", ammo=5, speed=3)
    stopped = state.with_model(state.model("k1").but(stopped=True, speed=0))
    assert shot_odds(stopped, "k1", "h1", "pistol", rules).tn == 16
    near = side_by_side(0.3, weapon="chain")
    shocked = near.with_model(near.model("k1").but(shocking=True))
    sitting = dict(push="never", defender_push="never")  # with no pushing a lower TN can only help
    shocked_odds = melee_odds(shocked, "k1", "h1", "chain", "dodge", rules, **sitting)
    plain_odds = melee_odds(near, "k1", "h1", "chain", "dodge", rules, **sitting)
    assert shocked_odds.tn == plain_odds.tn - 2 and shocked_odds.hit > plain_odds.hit
