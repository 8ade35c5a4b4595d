"""The 10acity skirmish's engine (seed 002) in detail: every event it writes, field by field, and
every refusal's clause and words, on the hand-made skirmish of ``conftest.py`` (scripted dice, a
fake table). What players and replays read is the event: its words, its clauses and its figures
are the engine's decision as much as the state it leaves. The rules data is the bundled
``rules/tenacity_tactics.yaml`` unless a test changes a number of it (:func:`variant`)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.plan import parse_plan
from entropy3d.systems.entropy_city.state import OUT, State
from entropy3d.systems.entropy_city.transition import ATTACK, WATCH, Action
from entropy3d.systems.tenacity import FigureStats
from entropy3d.systems.tenacity.engine import DEFEND, DEFENDING, GO_PRONE, PRONE, STAND_UP, engine_for
from tests.systems.tenacity.conftest import Dice, Table, attack, figure, seen, shot_of, skirmish, variant

SHOT = ("TEN-ATTACK", "TEN-COVER", "TEN-SIZE")  # the clauses of every attack
STRESS = ("TEN-ATTACK", "TEN-STRESS")  # of the stress it deals


def refusal(engine, state, action, table=None) -> IllegalPlanError:
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, action, table)
    return refused.value


def shot_figures(target="b", cover="none", modifier=0, steps=0, factor=1.0, visible=1.0, denied=(), **rolled):
    """The figures of a shot event: what the table and the rules made of the target, then the dice."""
    return {"target": target, "weapon": "pistol", "cover": cover, "to_hit_modifier": modifier, "size_steps": steps,
            "damage_factor": factor, "visible_fraction": visible, "denied_cover": list(denied), **rolled}


# -- TEN-ATTACK: the shot and the stress it deals, word for word ---------------------------------

def test_TEN_ATTACK_a_hit_writes_the_shot_and_the_stress_taken_in_full(ten):
    """Clause: TEN-ATTACK. "add the appropriate skill rank to the highest rolled number ... The
    amount of damage dealt will be equal to the total combined roll of the skill's impact dice plus
    any additional damage bonus granted from equipment ... that is the amount of stress applied".
    Attack 3,7 keeps 7 + 1 = 8 against 6,4 keeps 6 + 1 = 7: a hit; one impact d4 (3) + the pistol's
    1 = 4 stress of b's 5, said by b's event with r as its piece. Only hero d10s and one d4 rolled."""
    engine, state = skirmish(ten, [figure("r", "reds", 1.0, 2.0), figure("b", "blues", 8.0)])
    dice = Dice(3, 7, 6, 4, 3)
    after, events = attack(engine, state, Table([seen()]), dice)
    assert events == [
        Event("shot", "r", "attacks b with the pistol (no cover): attack 7 (of 3,7) +1 = 8 v defence 6 (of 6,4) +1 = 7"
              ": hits", found="b 100% visible, 8.0\" away", producer="line of sight", piece="b", clauses=SHOT,
              figures=shot_figures(attack_dice=[3, 7], attack=8, defence_dice=[6, 4], defence=7, attacker_advantage=0,
                                   defender_advantage=0, hit=True),
              # the attack needed more than the defence's 7
              rolls=(DiceRoll("attack", (3, 7), 8, 8, "hits", 10, 7), DiceRoll("defence", (6, 4), 7, None, "", 10, 6))),
        Event("attack", "b", "takes 4 stress (3 impact +1 weapon): 4 of 5", piece="r", clauses=STRESS,
              figures={"damage": 4, "impact": [3], "stress": 4, "hit": True, "taken_out": False},
              rolls=(DiceRoll("impact", (3,), 4, None, "4 stress", 4),))]
    assert after.model("b").stress == 4 and dice.sides == [10, 10, 10, 10, 4]


def test_TEN_ATTACK_one_hero_die_is_its_own_result_and_a_plain_miss_is_no_tie(ten):
    """Clause: TEN-ATTACK. "The character will roll the number of d10 dice displayed on the
    attribute and take the highest": with one die there is nothing to choose from (7 +1 = 8, not
    "7 (of 7)"). "If the attack result is higher than the defense result, then the attack is
    successful": 2 + 1 = 3 against 4 + 1 = 5 misses, and it is no tie."""
    one = {"r": FigureStats(attack_dice=1), "b": FigureStats(reaction_dice=1)}
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)], one)
    after, events = attack(engine, state, Table([seen()]), Dice(7, 4, 2))
    assert shot_of(events).rules == "attacks b with the pistol (no cover): attack 7 +1 = 8 v defence 4 +1 = 5: hits"
    assert after.model("b").stress == 3
    _, events = attack(engine, state, Table([seen()]), Dice(2, 4))
    assert events == [Event("shot", "r", "attacks b with the pistol (no cover): attack 2 +1 = 3 v defence 4 +1 = 5: "
                                         "misses", found="b 100% visible, 8.0\" away", producer="line of sight",
                            piece="b", clauses=SHOT,
                            figures=shot_figures(attack_dice=[2], attack=3, defence_dice=[4], defence=5,
                                                 attacker_advantage=0, defender_advantage=0, hit=False),
                            rolls=(DiceRoll("attack", (2,), 3, 6, "misses", 10, 2),
                                   DiceRoll("defence", (4,), 5, None, "", 10, 4)))]


def test_TEN_ATTACK_a_tie_is_said_to_go_to_the_defender(ten):
    """Clause: TEN-ATTACK. "ties always go to the defender": 6 + 1 = 7 against 6 + 1 = 7."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    _, events = attack(engine, state, Table([seen()]), Dice(6, 2, 1, 6))
    assert shot_of(events).rules == ("attacks b with the pistol (no cover): attack 6 (of 6,2) +1 = 7 v defence "
                                     "6 (of 1,6) +1 = 7: misses, a tie goes to the defender")


def test_TEN_ATTACK_a_natural_10_that_only_ties_takes_the_hero_die_one_that_wins_the_impact_d4(ten):
    """Clause: TEN-ATTACK. "Rolling a natural 10": "an additional Hero die (d10) ... in case your
    natural 10 was not high enough to succeed on its own, or you can roll an additional impact die
    (1d4)". Against Reaction rank 2: 10 + 1 = 11 against 9 + 2 = 11 only ties, so the extra die is
    a hero die (3: 14, a hit; then the one impact d4, 2 + 1 = 3 stress). Against 5 + 2 = 7 the 11
    wins: the extra die is an impact d4 (2), beside the impact die (4): 4 + 2 + 1 = 7 stress."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)], {"b": FigureStats(reaction_rank=2)})
    dice = Dice(10, 1, 9, 2, 3, 2)
    after, events = attack(engine, state, Table([seen()]), dice)
    assert shot_of(events).rules.endswith("attack 10 (of 10,1) +1 +3 (critical) = 14 v defence 9 (of 9,2) +2 = 11: "
                                          "hits")
    assert after.model("b").stress == 3 and dice.sides == [10, 10, 10, 10, 10, 4]
    dice = Dice(10, 1, 5, 2, 2, 4)
    _, events = attack(engine, state, Table([seen()]), dice)
    assert events[-2].rules == "takes 7 stress (4+2 impact +1 weapon): 7 of 5"
    assert events[-2].figures["impact"] == [4, 2] and events[-2].figures["damage"] == 7
    assert dice.sides == [10, 10, 10, 10, 4, 4]


def test_TEN_STRESS_over_the_maximum_with_no_wound_left_falls_unconscious_and_the_reds_score(ten):
    """Clause: TEN-STRESS. "If the total amount of stress accrued is over the amount of maximum
    stress ... the opponent must either mark off a point of wound or fall unconscious, either way,
    the amount of stress on that character then resets back to 0." b, on 3 stress with no wound
    left, takes 3 + 1 = 4: 7 of 5; it falls unconscious with its stress back to 0, and the reds
    score a point (the mission's DECISION), each said in its event."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, stress=3, wounds=0)])
    after, events = attack(engine, state, Table([seen()]), Dice(9, 1, 1, 1, 3))
    assert events[1:] == [
        Event("attack", "b", "takes 4 stress (3 impact +1 weapon): 7 of 5", piece="r", clauses=STRESS,
              figures={"damage": 4, "impact": [3], "stress": 0, "hit": True, "taken_out": True},
              rolls=(DiceRoll("impact", (3,), 4, None, "4 stress", 4),)),
        Event("condition", "b", "is over its 5 stress with no wound left: falls unconscious, out of the skirmish",
              clauses=("TEN-STRESS",), figures={"wounds_left": 0, "out_of_action": True}),
        Event("score", "b", "reds scores 1 for b unconscious", clauses=("TEN-STRESS",),
              figures={"gang": "reds", "points": 1})]
    assert (after.model("b").status, after.model("b").stress, after.score) == (OUT, 0, {"reds": 1, "blues": 0})


def test_TEN_SIZE_a_smaller_target_a_disadvantage_die_and_double_damage_marks_a_wound(ten):
    """Clauses: TEN-SIZE, TEN-STRESS. "When attacking a size category smaller than yourself, you
    suffer 1 disadvantage die and a -1 to your attack for every step smaller they are, but your
    damage is doubled". A 2x2 attacker at a figure: 9,8,7 sets the 9 aside and keeps 8, + 1 - 1 =
    8 against 1 + 1; (2 + 1) x 2 = 6 stress, over 5: b marks its one wound (0 left), stress back
    to 0."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    after, events = attack(engine, state, Table([seen(viewer_base=(2.0, 2.0))]), Dice(9, 8, 7, 1, 1, 2))
    assert shot_of(events).rules == ("attacks b with the pistol (no cover; size -1: 1 disadvantage die): attack "
                                     "8 (of 9,8,7) +1 -1 = 8 v defence 1 (of 1,1) +1 = 2: hits")
    assert events[1:] == [
        Event("attack", "b", "takes 6 stress (2 impact +1 weapon, x2 for size): 6 of 5", piece="r",
              clauses=STRESS, figures={"damage": 6, "impact": [2], "stress": 0, "hit": True,
                                                             "taken_out": False},
              rolls=(DiceRoll("impact", (2,), 3, None, "6 stress", 4),)),
        Event("condition", "b", "is over its 5 stress: marks a wound to stay conscious (0 left), stress back to 0",
              clauses=("TEN-STRESS",), figures={"wounds_left": 0, "out_of_action": False})]
    assert (after.model("b").stress, after.model("b").wounds, after.model("b").in_play) == (0, 0, True)


@pytest.mark.parametrize("viewer_base,target_base,words", [
    ((4.0, 4.0), (1.0, 1.0), "size -2: 2 disadvantage dice"),
    ((1.0, 1.0), (4.0, 4.0), "size +2: 2 advantage dice"),
    ((1.0, 1.0), (2.0, 2.0), "size +1: 1 advantage die")])
def test_TEN_SIZE_the_shot_names_the_size_steps_dice(ten, viewer_base, target_base, words):
    """Clause: TEN-SIZE. "1 advantage die and a +1 to your attack for every step larger", "1
    disadvantage die and a -1 ... for every step smaller": the shot says how many, and of which kind."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(viewer_base=viewer_base, target_base=target_base)])
    _, events = attack(engine, state, table, Dice(1, 1, 1, 1, 9, 9))
    assert shot_of(events).rules.startswith(f"attacks b with the pistol (no cover; {words}): attack ")


def test_TEN_SIZE_damage_halved_for_a_larger_target_is_said(ten):
    """Clause: TEN-SIZE. "your damage is halved" one step larger: (2 + 1) x 0.5 = 1.5, rounded down
    to 1 (DECISION)."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    _, events = attack(engine, state, Table([seen(target_base=(2.0, 2.0))]), Dice(9, 9, 9, 1, 1, 2))
    assert events[-1].rules == "takes 1 stress (2 impact +1 weapon, x0.5 for size): 1 of 5"


def test_TEN_ATTACK_a_weapon_without_a_damage_bonus_deals_its_impact_alone(ten):
    """Clause: TEN-ATTACK. "the total combined roll of the skill's impact dice plus any additional
    damage bonus granted from equipment": a weapon of the rules data with no bonus (a sling, +0)
    deals the impact dice alone, and the event says no weapon bonus."""
    slings = variant(ten, weapons={"sling": {"range_in": 12, "damage": 0}})
    engine, state = skirmish(slings, [figure("r", "reds"), figure("b", "blues", 8.0)],
                             {"r": FigureStats(weapon="sling")})
    after, events = attack(engine, state, Table([seen()]), Dice(9, 9, 1, 1, 2))
    assert events[-1].rules == "takes 2 stress (2 impact): 2 of 5" and after.model("b").stress == 2


# -- TEN-COVER, TEN-ELEV: what the shot says of the cover ----------------------------------------

def test_TEN_COVER_partial_hard_cover_is_said_with_what_was_seen_past_it(ten):
    """Clauses: TEN-COVER, TEN-SIZE. Hard cover: "If partially behind the cover, it makes you a
    smaller target ... as if you were a creature one step smaller": 60% of b seen past the concrete
    wall, the shot says the cover and the disadvantage die, and what the table showed."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.6, blockers=["wall"], surfaces=["concrete"], tops=[3.0])])
    _, events = attack(engine, state, table, Dice(9, 4, 6, 5, 2))
    assert events == [Event(
        "shot", "r", "attacks b with the pistol (partial hard cover: one size smaller; size -1: 1 disadvantage die): "
        "attack 6 (of 9,4,6) +1 -1 = 6 v defence 5 (of 5,2) +1 = 6: misses, a tie goes to the defender",
        found="b 60% visible, 8.0\" away past wall", producer="line of sight", piece="b", clauses=SHOT,
        figures=shot_figures(cover="partial hard", modifier=-1, steps=-1, visible=0.6, attack_dice=[9, 4, 6], attack=6,
                             defence_dice=[5, 2], defence=6, attacker_advantage=-1, defender_advantage=0, hit=False),
        rolls=(DiceRoll("attack", (9, 4, 6), 6, 7, "misses", 10, 6), DiceRoll("defence", (5, 2), 6, None, "", 10, 5)))]


def test_TEN_COVER_partial_soft_cover_hides_without_a_bonus(ten):
    """Clause: TEN-COVER. "soft cover is too weak to block the attack, but it does prevent visual
    targeting": 60% of b seen past two crate stacks of wood: partial soft cover, no size step."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.6, blockers=["crate_1", "crate_2"], surfaces=["wood", "wood"], tops=[1.8, 1.8])])
    _, events = attack(engine, state, table, Dice(9, 4, 5, 2, 1))
    shot = shot_of(events)
    assert shot.rules.startswith("attacks b with the pistol (partial soft cover): attack 9 (of 9,4) +1 = 10")
    assert shot.found == "b 60% visible, 8.0\" away past crate_1, crate_2"
    assert (shot.figures["cover"], shot.figures["to_hit_modifier"], shot.clauses) == ("partial soft", 0, SHOT)


def test_TEN_ELEV_the_shot_names_every_obstacle_looked_over(ten):
    """Clause: TEN-ELEV. "when you are higher up, it is more difficult for opponents to gain cover
    ... behind small objects because you can see over the objects": from the roof (level 2) both
    crate stacks in front of b are denied as cover; the shot names both and TEN-ELEV."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.7, blockers=["crate_1", "crate_2"], surfaces=["wood", "wood"], tops=[1.8, 1.8],
                        viewer_z=4.2, levels=(2, 0))])
    _, events = attack(engine, state, table, Dice(4, 4, 2, 2, 1))
    shot = shot_of(events)
    assert shot.rules.startswith("attacks b with the pistol (no cover (none behind crate_1, crate_2: looked over "
                                 "from above)): attack 4 (of 4,4) +1 = 5")
    assert shot.clauses == SHOT + ("TEN-ELEV",) and shot.figures["denied_cover"] == ["crate_1", "crate_2"]


def test_TEN_COVER_a_blind_attack_that_does_not_find_its_target_rolls_no_attack(ten):
    """Clause: TEN-COVER. Soft cover: "they can still attack through the soft cover blindly ... The
    opponent rolls 1d10 and on a six (6) or higher they managed to find you". A 5: the find roll's
    event, then the shot that found no target (no attack or defence dice)."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.0, blockers=["crate_1"], surfaces=["wood"], tops=[1.8])])
    after, events = attack(engine, state, table, Dice(5))
    assert events == [
        Event("attack", "r", "attacks blindly into the soft cover around b: 1d10 5 needing 6+: does not find it",
              found="b 0% visible, 8.0\" away past crate_1", producer="line of sight", piece="b",
              clauses=("TEN-COVER",), figures={"dice": [5], "needed": 6, "found": False},
              rolls=(DiceRoll("find", (5,), 5, 6, "does not find it", 10, 5),)),
        Event("shot", "r", "attacks b with the pistol: no target found", piece="b", clauses=SHOT,
              figures=shot_figures(cover="complete soft", visible=0.0, hit=False, found=False))]
    assert after.model("b").stress == 0


def test_TEN_COVER_a_blind_attack_that_finds_its_target_is_rolled_as_any_other(ten):
    """Clause: TEN-COVER. "on a six (6) or higher they managed to find you and you roll the attack
    and defense normally from there": a 6 finds b; the shot is that of complete soft cover."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.0, blockers=["crate_1"], surfaces=["wood"], tops=[1.8])])
    _, events = attack(engine, state, table, Dice(6, 8, 1, 2, 1, 3))
    assert events[0].rules == "attacks blindly into the soft cover around b: 1d10 6 needing 6+: finds it"
    assert events[0].figures == {"dice": [6], "needed": 6, "found": True}
    assert shot_of(events).rules.startswith("attacks b with the pistol (complete soft cover): attack 8 (of 8,1)")


def test_TEN_ELEV_a_blind_attack_from_above_finds_with_an_advantage_die(ten):
    """Clauses: TEN-ELEV, TEN-COVER. "Being in an elevated position gives an advantage die to
    perception checks": the find roll from the roof is 2d10, the higher kept (3,7: found)."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.0, blockers=["hoarding"], surfaces=["wood"], tops=[6.0], viewer_z=4.2,
                        levels=(2, 0))])
    _, events = attack(engine, state, table, Dice(3, 7, 1, 1, 9, 9))
    assert events[0] == Event(
        "attack", "r", "attacks blindly into the soft cover around b: 1d10 with 1 advantage die (higher) 3,7 needing "
        "6+: finds it", found="b 0% visible, 8.0\" away past hoarding", producer="line of sight", piece="b",
        clauses=("TEN-COVER", "TEN-ELEV"), figures={"dice": [3, 7], "needed": 6, "found": True},
        rolls=(DiceRoll("find", (3, 7), 7, 6, "finds it", 10, 7),))


# -- TEN-TURN, TEN-PRONE, TEN-DEFEND: the dice they add, and the reasons said ---------------------

def test_TEN_PRONE_next_to_a_prone_target_every_advantage_die_adds_up(ten):
    """Clauses: TEN-PRONE, TEN-TURN, TEN-SIZE. "the attacker would receive the advantage die when
    attacking a prone character directly next to them" (DECISION: centres 1.5" apart are next to
    each other); with a size step larger and its side going second ("receives an advantage die on
    the first action"), r rolls 2 + 3 dice: 1,2,3,4,5 keeps 5, + 1 + 1 = 7 against 3 + 1."""
    engine, state = skirmish(ten, [figure("b", "blues", 1.5, conditions=(PRONE,)), figure("r", "reds")])
    table = Table([seen(distance=1.5, target_base=(2.0, 2.0))])
    _, events = attack(engine, state, table, Dice(1, 2, 3, 4, 5, 2, 3, 2))
    shot = shot_of(events)
    assert shot.rules == ("attacks b with the pistol (no cover; size +1: 1 advantage die; its side goes second: an "
                          "advantage die; target prone next to it: an advantage die): attack 5 (of 1,2,3,4,5) +1 +1 "
                          "= 7 v defence 3 (of 2,3) +1 = 4: hits")
    assert shot.clauses == SHOT + ("TEN-TURN", "TEN-PRONE")
    assert (shot.figures["attacker_advantage"], shot.figures["defender_advantage"]) == (3, 0)


def test_TEN_DEFEND_and_TEN_PRONE_at_a_distance_both_give_the_defender_a_die(ten):
    """Clauses: TEN-PRONE, TEN-DEFEND. "a prone character receives an advantage die when defending
    against attacks from a distance"; "By spending your action to defend, you receive an advantage
    die to all of your defense rolls": b, prone, took the full defensive on its turn; at 8" it
    rolls 2 + 2 dice."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, conditions=(PRONE,))])
    state, _ = engine.resolve(state, engine.check(state, Action(DEFEND, "b"), Table()), None, Dice())
    _, events = attack(engine, state, Table([seen()]), Dice(9, 9, 1, 2, 3, 4, 1))
    shot = shot_of(events)
    assert shot.rules == ("attacks b with the pistol (no cover; target prone at a distance: its advantage die; target "
                          "on full defensive: its advantage die): attack 9 (of 9,9) +1 = 10 v defence 4 (of 1,2,3,4) "
                          "+1 = 5: hits")
    assert shot.clauses == SHOT + ("TEN-PRONE", "TEN-DEFEND")
    assert (shot.figures["attacker_advantage"], shot.figures["defender_advantage"]) == (0, 2)


# -- check: every refusal names its clause and says why -------------------------------------------

def test_TEN_TURN_an_unknown_kind_or_a_part_of_the_turn_taken_twice_is_refused(ten):
    """Clause: TEN-TURN. "Every turn you can take one action, one interaction, and one movement":
    a figure may walk, attack, defend, go prone or stand up (nothing else: overwatch is Entropy
    City's), and its action only once."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    refused = refusal(engine, state, Action(WATCH, "r"), Table())
    assert (refused.clause, refused.message) == ("TEN-TURN", "a figure may move, attack, defend, go_prone, stand_up; "
                                                             "not 'watch'")
    state, _ = engine.resolve(state, engine.check(state, Action(DEFEND, "r"), Table()), None, Dice())
    refused = refusal(engine, state, Action(ATTACK, "r", target="b"), Table([seen()]))
    assert (refused.clause, refused.message) == ("TEN-TURN", "r has taken its action this turn: one action, one "
                                                             "interaction and one movement a turn")


def test_TEN_PRONE_going_prone_twice_or_standing_up_while_standing_is_refused(ten):
    """Clause: TEN-PRONE. Going prone and standing up (its interaction) change how it stands: a
    prone figure cannot go prone, a standing one cannot stand up."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, conditions=(PRONE,))])
    refused = refusal(engine, state, Action(GO_PRONE, "b"), Table())
    assert (refused.clause, refused.message) == ("TEN-PRONE", "b is already prone")
    refused = refusal(engine, state, Action(STAND_UP, "r"), Table())
    assert (refused.clause, refused.message) == ("TEN-PRONE", "r is already standing")


def test_TEN_STRESS_an_unconscious_figure_acts_no_more_and_cannot_be_attacked(ten):
    """Clause: TEN-STRESS. "Unconscious characters cannot act": b, unconscious, may not defend; r
    naming it as its target is refused (the table shows no unconscious figure); the rules say no
    to it even when a sighting of it is handed to them."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, status=OUT)])
    refused = refusal(engine, state, Action(DEFEND, "b"), Table())
    assert (refused.clause, refused.message) == ("TEN-STRESS", "b is unconscious")
    refused = refusal(engine, state, Action(ATTACK, "r", target="b"), Table([seen()]))
    assert (refused.clause, refused.message) == ("TEN-STRESS", "b is unconscious")
    assert engine.may_attack(state, seen(), "pistol") == (False, "b is unconscious")


def test_TEN_ATTACK_refusals_of_a_target_name_their_clause(ten):
    """Clauses: TEN-ATTACK, TEN-COVER. An attack needs the table's line of sight (TEN-COVER); a
    friend or a name of no figure is no enemy (TEN-ATTACK); past the pistol's 12" is out of range
    (TEN-ATTACK, DECISION: rules data ``weapons``); a target not seen at all, with nothing in the
    way, is out of sight (TEN-COVER); with only an enemy behind complete hard cover there is none
    to choose (TEN-COVER: "you cannot be directly attacked")."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0), figure("f", "reds", 1.0)])
    cases = [(Action(ATTACK, "r", target="b"), None, "TEN-COVER", "an attack needs the table's line of sight"),
             (Action(ATTACK, "r", target="f"), Table([seen()]), "TEN-ATTACK", "'f' is not an enemy figure"),
             (Action(ATTACK, "r", target="zz"), Table([seen()]), "TEN-ATTACK", "'zz' is not an enemy figure"),
             (Action(ATTACK, "r", target="b"), Table([seen(distance=13.0)]), "TEN-ATTACK",
              "b is 13.0\" away: past the 12\" of the pistol"),
             (Action(ATTACK, "r", target="b"), Table([seen(visible=0.0)]), "TEN-COVER",
              "b is out of sight: turn to face it (a walk's pivot)"),
             (Action(ATTACK, "r"), Table([seen(visible=0.0, blockers=["wall"], surfaces=["concrete"], tops=[3.0])]),
              "TEN-COVER", "r has no enemy it may attack: none in sight and range of its pistol but behind complete "
                           "hard cover")]
    for action, table, clause, message in cases:
        refused = refusal(engine, state, action, table)
        assert (refused.clause, refused.message) == (clause, message)


def test_TEN_ATTACK_a_target_at_the_weapons_very_range_may_be_attacked(ten):
    """Clause: TEN-ATTACK. DECISION (rules data ``weapons``): a pistol reaches 12", so a target at
    12.0" is in range; the checked attack carries its target, weapon and where it was made from."""
    engine, state = skirmish(ten, [figure("r", "reds", 1.0, 2.0), figure("b", "blues", 13.0, 2.0)])
    assert engine.may_attack(state, seen(distance=12.0), "pistol") == (True, "")
    checked = engine.check(state, Action(ATTACK, "r", target="b"), Table([seen(distance=12.0)]))
    assert (checked.target, checked.weapon, checked.from_pose) == ("b", "pistol", Pose(1.0, 2.0, 0.0))


def test_TEN_ATTACK_without_a_target_the_closest_enemy_it_may_attack(ten):
    """Clauses: TEN-ATTACK, TEN-COVER. ``attack`` without a name takes the closest enemy it may
    attack: b2 at 5" before b at 10"; b3 at 3", completely behind hard cover, cannot be attacked."""
    engine, state = skirmish(ten, [figure("r", "reds", 1.0, 2.0), figure("b", "blues", 11.0, 2.0),
                                   figure("b2", "blues", 6.0, 2.0), figure("b3", "blues", 4.0, 2.0)])
    table = Table([seen(target="b", distance=10.0), seen(target="b2", distance=5.0),
                   seen(target="b3", distance=3.0, visible=0.0, blockers=["wall"], surfaces=["concrete"], tops=[3.0])])
    checked = engine.check(state, Action(ATTACK, "r"), table)
    assert (checked.target, checked.weapon, checked.from_pose) == ("b2", "pistol", Pose(1.0, 2.0, 0.0))


def test_TEN_TURN_parse_action_reads_underscores_as_spaces_and_keeps_the_figure_and_its_walk(ten):
    """Clause: TEN-TURN. The command line's words: 'go_prone' and 'Stand_Up' as 'go prone' and
    'stand up'; a walk keeps its plan; the action is the figure's; anything else names the choices."""
    engine, _ = skirmish(ten, [figure("r", "reds"), figure("b", "blues")])
    assert [engine.parse_action("r", w).kind for w in ("go_prone", "Stand_Up")] == [GO_PRONE, STAND_UP]
    walk = engine.parse_action("r", "walk: pivot left 45, straight 3")
    assert walk.plan == parse_plan("walk: pivot left 45, straight 3") and walk.model_id == "r"
    assert engine.parse_action("r", "defend").model_id == "r"
    with pytest.raises(IllegalPlanError) as refused:
        engine.parse_action("r", "sprint")
    assert (refused.value.clause, refused.value.message) == (
        "TEN-TURN", "unknown action 'sprint': use 'walk: straight 3', 'attack', 'attack MODEL', 'defend', 'go prone' "
                    "or 'stand up'")


# -- TEN-MOVE ------------------------------------------------------------------------------------

def test_TEN_MOVE_the_movement_speed_is_in_spaces_of_the_rules_data(ten):
    """Clause: TEN-MOVE. "move a number of spaces up to their movement speed": 6 spaces of 0.5"
    (a table whose rules data makes a space half an inch) are 3": 3" is walked, 4" refused."""
    halves = variant(ten, sizes={"space_in": 0.5})
    engine, state = skirmish(halves, [figure("r", "reds"), figure("b", "blues", 8.0)])
    assert engine.check(state, Action.ride("r", "walk: straight 3"), Table()).move.band.max == 3.0
    refused = refusal(engine, state, Action.ride("r", "walk: straight 4"), Table())
    assert (refused.clause, refused.message) == ("TEN-MOVE", "too far: 4\" is over the 3\" of r's movement speed")


def test_TEN_MOVE_a_walk_refused_says_why_in_the_systems_words(ten):
    """Clause: TEN-MOVE. DECISION: a figure walks in straights and pivots, on the table, clear of
    walls; "climbing and jumping" are not played."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    cases = [(Action.ride("r", "s3: straight 3"), Table(),
              "a figure walks in straights and pivots: 'walk: pivot left 45, straight 3'"),
             (Action.ride("r", "walk: straight 3"), Table(off=True), "the walk leaves the table"),
             (Action.ride("r", "walk: straight 3"), Table(wall=("crate", "wall", 1.5)),
              "the walk meets 'crate' 1.5\" along it; climbing and jumping are not played")]
    for action, table, message in cases:
        refused = refusal(engine, state, action, table)
        assert (refused.clause, refused.message) == ("TEN-MOVE", message)


def test_TEN_MOVE_the_walk_event_says_how_far_of_how_far_it_may(ten):
    """Clause: TEN-MOVE. The figure stands where the producer's walk ended (2.34" of a 3" walk);
    the event says the length walked (to a tenth of an inch) of its 6" and what the producer found."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    checked = engine.check(state, Action.ride("r", "walk: straight 3"), Table())
    walked = Facts("geometric", 3.0, 2.34, False, np.zeros((0, 5)), end_pose=Pose(2.34, 0.0, 0.0))
    after, events = engine.resolve(state, checked, walked, Dice())
    assert events == [Event("move", "r", "walks 2.3\" of its 6\"", found="walked 2.3\"", producer="geometric",
                            clauses=("TEN-MOVE",), figures={"walked": True, "length_in": 2.3})]
    assert after.model("r").pose == Pose(2.34, 0.0, 0.0) and after.model("r").actions_taken == 1


# -- TEN-TURN: the parts of a turn, the round, the initiative ------------------------------------

def test_TEN_PRONE_and_TEN_DEFEND_interactions_and_actions_are_said_and_counted(ten):
    """Clauses: TEN-PRONE, TEN-DEFEND, TEN-TURN. Going prone (its interaction) and the full
    defensive (its action) each count one of its turn's parts and say what they give; at the end
    of the round every part is fresh; at its next turn the full defensive is over ("until your next
    turn") and it stands up."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    state, events = engine.resolve(state, engine.check(state, Action(GO_PRONE, "r"), Table()), None, Dice())
    assert events == [Event("condition", "r", "goes prone: an advantage die defending against attacks from a distance",
                            clauses=("TEN-PRONE",))]
    assert (state.model("r").actions_taken, state.model("r").conditions) == (1, (PRONE,))
    state, events = engine.resolve(state, engine.check(state, Action(DEFEND, "r"), Table()), None, Dice())
    assert events == [Event("condition", "r", "takes the full defensive: an advantage die to its defence until its "
                                              "next turn", clauses=("TEN-DEFEND",))]
    assert (state.model("r").actions_taken, state.model("r").conditions) == (2, (PRONE, DEFENDING))
    state, events, withdrawn = engine.end_turn(state, Dice())
    assert (events, withdrawn) == ([], [])
    assert all((m.actions_taken, m.basic_taken) == (0, ()) for m in state.models.values())
    state, _ = engine.resolve(state, Action.activate("r"), None, Dice())
    state, events = engine.resolve(state, engine.check(state, Action(STAND_UP, "r"), Table()), None, Dice())
    assert events == [Event("condition", "r", "stands up", clauses=("TEN-PRONE",))]
    assert (state.model("r").actions_taken, state.model("r").conditions) == (1, ())


def test_TEN_TURN_a_turn_begins_with_no_part_used(ten):
    """Clause: TEN-TURN. "Every turn you can take one action, one interaction, and one movement":
    its turn begins with none of them used, whatever it did before."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    state = state.with_model(state.model("r").but(actions_taken=2, basic_taken=("action", "interaction")))
    state, _ = engine.resolve(state, Action.activate("r"), None, Dice())
    assert state.model("r").actions_taken == 0 and engine.check(state, Action(DEFEND, "r"), Table()).kind == DEFEND


def test_TEN_TURN_a_side_with_no_figure_conscious_rolls_no_initiative(ten):
    """Clause: TEN-TURN. Group initiative: each side's best Perception among its figures in play;
    the blues have none conscious, so the reds' 1,1 + 0 = 1 is the highest and they go first (no
    tie to roll again). A side with no figure ready is passed over in the order."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, status=OUT)],
                             {"r": FigureStats(perception_rank=0)})
    start = engine.start_turn(state, Dice(1, 1), None)
    assert (start.rolls, start.first) == (((1, 0),), "reds")
    assert engine.activation_order(state, "blues", {"reds": ["r"]}) == ["r"]


def test_TEN_STRESS_the_game_starts_with_each_figures_numbers_no_stress_and_those_prone_at_start(ten):
    """Clauses: TEN-STRESS, TEN-PRONE. The skirmish's first state: each figure's wounds and maximum
    stress from its stats, no stress and no condition but prone for those the scene starts prone."""
    stats = {"r": FigureStats(), "b": FigureStats(prone=True, max_stress=7, wounds=2)}
    engine = engine_for(ten, stats)
    table = State(1, "", {m.id: m for m in (figure("r", "reds", stress=3, conditions=(DEFENDING,)),
                                            figure("b", "blues", 8.0, stress=2))})
    first = engine.initial_state(table)
    assert [(m.stress, m.max_stress, m.wounds, m.conditions) for m in first.models.values()] == [
        (0, 5, 1, ()), (0, 7, 2, (PRONE,))]
    assert (first.mission, first.score) == ("skirmish", {"reds": 0, "blues": 0})
