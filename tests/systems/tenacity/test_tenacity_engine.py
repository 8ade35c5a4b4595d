"""The 10acity skirmish's engine (seed 002): ``check`` apart from ``resolve`` on the one game state.
Hand-worked cases on a hand-made state, scripted dice and a fake table; each test quotes the seed
passage of the clause it checks. The rules data is the bundled ``rules/tenacity_tactics.yaml``
(figures: 2 attack dice rank 1, 2 Reaction dice rank 1, 1 impact d4, maximum stress 5, 1 wound;
pistol +1 damage, 12"; rifle +2, 36")."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.sentences import Names
from entropy3d.systems.entropy_city.state import OUT, State
from entropy3d.systems.entropy_city.transition import ATTACK, Action
from entropy3d.systems.tenacity import FigureStats
from entropy3d.systems.tenacity.engine import (
    ACTIVATED,
    DEFEND,
    DEFENDING,
    GO_PRONE,
    PRONE,
    SECOND_SIDE,
    STAND_UP,
    roll_pool,
)
from tests.systems.tenacity.conftest import Dice, Table, attack, figure, seen, shot_of, skirmish

# -- TEN-ATTACK ----------------------------------------------------------------------------------

def test_TEN_ATTACK_hero_dice_highest_kept_plus_rank_against_reaction_then_impact_as_stress(ten):
    """Clause: TEN-ATTACK. 002 "Dealing damage": "roll the attribute dice of the skill that you are
    using for the attack and add the appropriate skill rank to the highest rolled number. The
    defender will roll either their hero dice ... If the attack result is higher than the defense
    result, then the attack is successful. The amount of damage dealt will be equal to the total
    combined roll of the skill's impact dice plus any additional damage bonus granted from
    equipment". Attack 3,7 -> 7 + 1 = 8 against defence 6,4 -> 6 + 1 = 7: a hit; impact 3 + the
    pistol's 1 = 4 stress."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    after, events = attack(engine, state, Table([seen()]), Dice(3, 7, 6, 4, 3))
    shot = shot_of(events)
    assert shot.figures["attack"] == 8 and shot.figures["defence"] == 7 and shot.figures["hit"]
    assert after.model("b").stress == 4 and after.model("b").wounds == 1
    assert "TEN-ATTACK" in shot.clauses and "attack 7 (of 3,7) +1 = 8 v defence 6 (of 6,4) +1 = 7: hits" in shot.rules


def test_TEN_ATTACK_a_tie_goes_to_the_defender(ten):
    """Clause: TEN-ATTACK. "in the case of character's opposing each other, ties always go to the
    defender": attack 6 + 1 = 7 against defence 6 + 1 = 7 misses; no impact die is rolled."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    after, events = attack(engine, state, Table([seen()]), Dice(6, 2, 1, 6))
    assert not shot_of(events).figures["hit"] and "tie goes to the defender" in shot_of(events).rules
    assert after.model("b").stress == 0


def test_TEN_ATTACK_a_natural_10_adds_a_hero_die_when_short_else_an_impact_die(ten):
    """Clause: TEN-ATTACK. "Rolling a natural 10": "you gain an additional die of your choice between
    rolling an additional Hero die (d10) and adding it to your skill check in case your natural 10
    was not high enough to succeed on its own, or you can roll an additional impact die (1d4)".
    Attack 10 + 1 = 11 against defence 5 + 1 = 6: the impact die (2 + 4 extra + pistol 1 = 7
    stress, over 5: a wound). Against a defence of a natural 10 (+1 and its own extra hero die 5 =
    16), 11 is short: the extra hero die 7 makes 18, a hit."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    after, events = attack(engine, state, Table([seen()]), Dice(10, 1, 5, 2, 4, 2))
    assert shot_of(events).figures["attack"] == 11 and after.model("b").wounds == 0
    assert next(e for e in events if "damage" in e.figures).figures["impact"] == [2, 4]
    after, events = attack(engine, state, Table([seen()]), Dice(10, 1, 10, 3, 5, 7, 1))
    assert (shot_of(events).figures["defence"], shot_of(events).figures["attack"]) == (16, 18)
    assert after.model("b").stress == 2


def test_TEN_ATTACK_an_enemy_past_the_weapons_range_or_a_friend_is_refused(ten):
    """Clause: TEN-ATTACK. DECISION (rules data ``weapons``): a pistol reaches 12"."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 13.0), figure("f", "reds", 1.0)])
    with pytest.raises(IllegalPlanError, match="past the 12\" of the pistol"):
        engine.check(state, Action(ATTACK, "r", target="b"), Table([seen(distance=13.0)]))
    with pytest.raises(IllegalPlanError, match="not an enemy"):
        engine.check(state, Action(ATTACK, "r", target="f"), Table([seen(distance=13.0)]))


def test_pool_disadvantage_sets_the_highest_aside():
    """DECISION (rules data ``dice``): a disadvantage die is one more die, the highest set aside;
    an advantage die one more, the highest kept."""
    assert roll_pool(Dice(9, 4, 6), 2, -1, 10) == ((9, 4, 6), 6)
    assert roll_pool(Dice(2, 4, 8), 2, 1, 10) == ((2, 4, 8), 8)


# -- TEN-COVER, TEN-SIZE, TEN-ELEV as used in an attack -----------------------------------------

def test_TEN_COVER_partial_hard_cover_makes_the_attack_one_size_down(ten):
    """Clauses: TEN-COVER, TEN-SIZE. "If partially behind the cover, it makes you a smaller target,
    giving you a bonus as if you were a creature one step smaller than your current size, which is
    an additional advantage die and a +1": 60% seen past concrete, the attack is -1 with a
    disadvantage die: 9,4,6 keeps 6, + 1 - 1 = 6 against 5 + 1 = 6: a miss; its damage would be
    that of its size, not doubled for the cover."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.6, blockers=["wall"], surfaces=["concrete"], tops=[3.0])])
    _, events = attack(engine, state, table, Dice(9, 4, 6, 5, 2))
    shot = shot_of(events)
    assert shot.figures["cover"] == "partial hard" and shot.figures["to_hit_modifier"] == -1
    assert shot.figures["attacker_advantage"] == -1 and shot.figures["attack"] == 6 and not shot.figures["hit"]
    assert shot.figures["damage_factor"] == 1.0


def test_TEN_COVER_completely_behind_hard_cover_cannot_be_attacked(ten):
    """Clause: TEN-COVER. "When completely behind hard cover, you cannot be directly attacked." Nothing
    of the target seen past concrete: refused by name; with no target named, none to choose."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.0, blockers=["wall"], surfaces=["concrete"], tops=[3.0])])
    with pytest.raises(IllegalPlanError, match="completely behind hard cover") as refused:
        engine.check(state, Action(ATTACK, "r", target="b"), table)
    assert refused.value.clause == "TEN-COVER"
    with pytest.raises(IllegalPlanError, match="no enemy it may attack"):
        engine.check(state, Action(ATTACK, "r"), table)


def test_TEN_COVER_a_blind_attack_into_soft_cover_must_find_the_target_first(ten):
    """Clause: TEN-COVER. Soft cover: "they can still attack through the soft cover blindly in hopes
    of getting a lucky shot. The opponent rolls 1d10 and on a six (6) or higher they managed to find
    you and you roll the attack and defense normally from there." A 5: not found, no attack rolled;
    a 6: found, then attack 8 + 1 against 2 + 1: 3 + 1 stress."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen(visible=0.0, blockers=["crate_1"], surfaces=["wood"], tops=[1.8])])
    after, events = attack(engine, state, table, Dice(5))
    assert events[0].figures == {"dice": [5], "needed": 6, "found": False} and not shot_of(events).figures["hit"]
    assert after.model("b").stress == 0
    # the film's large print says what came of it: no target found, not "missed" (no attack was rolled)
    from entropy3d.systems.words import Names, headline
    names = Names(riders={"r": "Red", "b": "Blue"}, gangs={}, gang_of={})
    assert headline(shot_of(events), names).endswith("no target found"), headline(shot_of(events), names)
    after, events = attack(engine, state, table, Dice(6, 8, 1, 2, 1, 3))
    assert events[0].figures["found"] and shot_of(events).figures["hit"] and after.model("b").stress == 4


def test_TEN_SIZE_attacking_a_larger_target_and_a_smaller_one(ten):
    """Clause: TEN-SIZE. "When attacking a size category larger than yourself, you gain 1 advantage
    die and a +1 to your attack for every step larger they are, but your damage is halved and
    halved again for every additional step"; smaller: "1 disadvantage die and a -1 ... your damage
    is doubled and doubled again". A figure (1x1) at a 4x4 target: 4 dice (2 + 2 advantage), 2,3,9,1
    keeps 9, + 1 + 2 = 12 against 7 + 1; impact 4 + 1 = 5, quartered: 1 stress. A 4x4 attacker at a
    figure: 2 disadvantage dice, 9,8,7,2 keeps 7, + 1 - 2 = 6 against 1 + 1; (3 + 1) x 4 = 16 stress:
    over 5, a wound."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    up = Table([seen(target_base=(4.0, 4.0))])
    after, events = attack(engine, state, up, Dice(2, 3, 9, 1, 7, 2, 4))
    assert (shot_of(events).figures["attack"], shot_of(events).figures["attacker_advantage"]) == (12, 2)
    assert after.model("b").stress == 1
    down = Table([seen(viewer_base=(4.0, 4.0))])
    after, events = attack(engine, state, down, Dice(9, 8, 7, 2, 1, 1, 3))
    assert shot_of(events).figures["attack"] == 6 and next(e for e in events if "damage" in e.figures).figures[
        "damage"] == 16
    assert after.model("b").wounds == 0 and after.model("b").stress == 0


def test_TEN_ELEV_from_above_low_cover_is_denied_and_the_find_roll_gets_a_perception_die(ten):
    """Clause: TEN-ELEV. "when you are higher up, it is more difficult for opponents to gain cover in
    trenches or behind small objects because you can see over the objects ... Being in an elevated
    position gives an advantage die to perception checks and helps prevent opponents from taking
    cover." From a roof (4.2", level 2) at a street target 70% seen past a 1.8" crate stack: no
    cover, a plain attack. Completely behind a 6" hoarding (soft, above the roof): a blind attack
    whose find roll (a perception check, DECISION) has an advantage die: 3,7 keeps 7: found."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    low = Table([seen(visible=0.7, blockers=["crate_1"], surfaces=["wood"], tops=[1.8], viewer_z=4.2,
                      levels=(2, 0))])
    _, events = attack(engine, state, low, Dice(4, 4, 2, 2, 1))
    shot = shot_of(events)
    assert shot.figures["cover"] == "none" and shot.figures["denied_cover"] == ["crate_1"]
    assert "TEN-ELEV" in shot.clauses and "looked over from above" in shot.rules
    tall = Table([seen(visible=0.0, blockers=["hoarding"], surfaces=["wood"], tops=[6.0], viewer_z=4.2,
                       levels=(2, 0))])
    _, events = attack(engine, state, tall, Dice(3, 7, 1, 1, 9, 9))
    assert events[0].figures == {"dice": [3, 7], "needed": 6, "found": True} and "TEN-ELEV" in events[0].clauses


# -- TEN-TURN ------------------------------------------------------------------------------------

def test_TEN_TURN_one_action_one_interaction_one_movement(ten):
    """Clause: TEN-TURN. 002 "Action Economy": "Every turn you can take one action, one
    interaction, and one movement." A second attack, a second walk and a second interaction are
    refused; the next turn they are fresh."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    table = Table([seen()])
    state, _ = attack(engine, state, table, Dice(1, 1, 9, 9))
    with pytest.raises(IllegalPlanError, match="has taken its action this turn") as refused:
        engine.check(state, Action(DEFEND, "r"), table)
    assert refused.value.clause == "TEN-TURN"
    walk = engine.check(state, Action.ride("r", "walk: straight 2"), table)
    state, _ = engine.resolve(state, walk, Facts("geometric", 2.0, 2.0, True, np.zeros((0, 5)),
                                                 end_pose=Pose(2.0, 0.0, 0.0)), Dice())
    with pytest.raises(IllegalPlanError, match="movement this turn"):
        engine.check(state, Action.ride("r", "walk: straight 1"), table)
    state, _ = engine.resolve(state, engine.check(state, Action(GO_PRONE, "r"), table), None, Dice())
    with pytest.raises(IllegalPlanError, match="interaction this turn"):
        engine.check(state, Action(STAND_UP, "r"), table)
    state, _, _ = engine.end_turn(state, Dice())
    state, _ = engine.resolve(state, Action.activate("r"), None, Dice())
    assert engine.check(state, Action(STAND_UP, "r"), table).kind == STAND_UP


def test_TEN_TURN_group_initiative_the_best_perception_side_goes_first(ten):
    """Clause: TEN-TURN. Group Initiative: "all of the player characters would go in one group in any
    order they choose, and all of the opposing characters would get to go in another group ... The
    character that rolls the highest initiative gets to choose which group goes first." Perception,
    2 dice + 1: the reds 3,5 and 2,8 (best 9), the blues 4,6 (7): the reds go first, then the blues.
    A tie between the sides' best is rolled again (DECISION)."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("r2", "reds"), figure("b", "blues")])
    start = engine.start_turn(state, Dice(3, 5, 2, 8, 4, 6), None)
    assert start.rolls == ((9, 7),) and start.first == "reds"
    again = engine.start_turn(state, Dice(3, 5, 2, 6, 1, 6, 1, 1, 1, 1, 2, 2), None)
    assert again.rolls == ((7, 7), (2, 3)) and again.first == "blues"
    assert engine.activation_order(state, "blues", {"reds": ["r", "r2"], "blues": ["b"]}) == ["b", "r", "r2"]


def test_TEN_TURN_the_side_going_second_has_an_advantage_die_on_its_action(ten):
    """Clause: TEN-TURN. "However, the group that goes second receives an advantage die on the first
    action that each character takes." The blue figure's turn begins after a red one's: its attack
    rolls 3 dice (2 + 1), 1,2,9 keeps 9."""
    engine = ten.engine({"r": FigureStats(), "b": FigureStats()})
    state = State(1, "skirmish", {m.id: m for m in (figure("r", "reds"), figure("b", "blues", 8.0))})
    state, _ = engine.resolve(state, Action.activate("r"), None, Dice())
    state, _ = engine.resolve(state, Action.end("r"), None, Dice())
    assert ACTIVATED in state.model("r").basic_taken and SECOND_SIDE not in state.model("r").basic_taken
    state, _ = engine.resolve(state, Action.activate("b"), None, Dice())
    assert SECOND_SIDE in state.model("b").basic_taken
    _, events = attack(engine, state, Table([seen("b", "r")]), Dice(1, 2, 9, 1, 1, 1), target="r", attacker="b")
    assert shot_of(events).figures["attack_dice"] == [1, 2, 9] and shot_of(events).figures["attack"] == 10
    assert "TEN-TURN" in shot_of(events).clauses


def test_TEN_ELEV_a_figure_above_an_enemy_rolls_its_initiative_perception_with_an_advantage_die(ten):
    """Clauses: TEN-ELEV, TEN-TURN. 002 "Elevation": "Being in an elevated position gives an
    advantage die to perception checks"; "Initiative": "the characters involved in the scene all
    roll the skill that makes the most sense, usually this is the Reaction or Perception skill".
    The red figure stands on a roof (4.2", storey 2), the blue in the street: its Perception rolls
    2 dice and an advantage die, 1,2,9 keeps 9 (+1 = 10) against the blue's 4,6 (+1 = 7): the reds
    go first. On the street the same dice give the red 1,2 (3) and the blue 9,4 (10)."""
    roof = figure("r", "reds").but(pose=Pose(0.0, 0.0, 0.0, 4.2))
    engine, state = skirmish(ten, [roof, figure("b", "blues", 8.0)])
    start = engine.start_turn(state, Dice(1, 2, 9, 4, 6), None)
    assert (start.rolls, start.first) == (((10, 7),), "reds")
    engine, level = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    start = engine.start_turn(level, Dice(1, 2, 9, 4, 6), None)
    assert (start.rolls, start.first) == (((3, 10),), "blues")


def test_TEN_ELEV_the_initiative_die_is_over_an_enemy_in_play_and_the_turn_opens_saying_so(ten):
    """Clauses: TEN-ELEV, TEN-TURN. DECISION (rules data elevation): a figure's initiative
    Perception has the advantage die when it stands at least a storey above an enemy figure in
    play. The red on the roof is level with one blue figure and above an unconscious one: 2 dice
    (5,3 and 2,7: 6 v 8, the blues first). Once the blue on the roof walks down to the street, the
    red rolls 3 and the turn opens saying so, with the storey and the enemy below it."""
    roof = figure("r", "reds").but(pose=Pose(0.0, 0.0, 0.0, 4.2))
    level = figure("b", "blues", 8.0).but(pose=Pose(8.0, 0.0, 0.0, 4.2))
    engine, state = skirmish(ten, [roof, level, figure("b2", "blues", 4.0, status=OUT)])
    start = engine.start_turn(state, Dice(5, 3, 2, 7), None)
    assert (start.rolls, start.first) == (((6, 8),), "blues")
    assert engine.action_phase(state, Dice()) == (state, [])
    down = state.with_model(state.model("b").but(pose=Pose(8.0, 0.0)))
    dice = Dice(5, 3, 1, 2, 7)
    assert engine.start_turn(down, dice, None).rolls == ((6, 8),) and len(dice.sides) == 5
    _, opening = engine.action_phase(down, Dice())
    assert [(e.kind, e.model, e.clauses, e.figures) for e in opening] == [
        ("condition", "r", ("TEN-TURN", "TEN-ELEV"), {"initiative_advantage": 1, "level": 2, "above": ["b"]})]
    assert opening[0].rules == "stands higher than b (storey 2): its initiative Perception rolled with 1 advantage die"
    assert ten.sentence(opening[0], Names(riders={"r": "Red", "b": "Blue"})) == (
        "Red stands higher than Blue: its initiative Perception rolled with 1 advantage die")


# -- TEN-MOVE ------------------------------------------------------------------------------------

def test_TEN_MOVE_a_walk_up_to_the_movement_speed_clear_of_walls(ten):
    """Clause: TEN-MOVE. "Movement allows the character to move a number of spaces up to their
    movement speed": 6 spaces of 1" (DECISION); 7" is refused, a wall in the way is refused; the
    figure stands where the producer's walk ended."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    with pytest.raises(IllegalPlanError, match="over the 6\""):
        engine.check(state, Action.ride("r", "walk: straight 7"), Table())
    with pytest.raises(IllegalPlanError, match="meets 'crate'"):
        engine.check(state, Action.ride("r", "walk: straight 3"), Table(wall=("crate", "wall", 1.5)))
    checked = engine.check(state, Action.ride("r", "walk: pivot left 90, straight 5"), Table())
    walked = Facts("geometric", 5.0, 5.0, True, np.zeros((0, 5)), end_pose=Pose(0.0, 5.0, 90.0))
    after, [event] = engine.resolve(state, checked, walked, Dice())
    assert after.model("r").pose == Pose(0.0, 5.0, 90.0) and event.clauses == ("TEN-MOVE",)


# -- TEN-PRONE, TEN-DEFEND -----------------------------------------------------------------------

def test_TEN_PRONE_an_advantage_die_against_attacks_from_a_distance_the_attackers_next_to_it(ten):
    """Clause: TEN-PRONE. 002 "Prone": "a prone character receives an advantage die when defending
    against attacks from a distance, but the attacker would receive the advantage die when
    attacking a prone character directly next to them." At 8": the defence rolls 3 dice (2,3,9
    keeps 9). At 1" (next to it, DECISION: 1.5"): the attack rolls 3 (1,1,8). A prone figure
    stands up before it walks."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, conditions=(PRONE,))])
    _, events = attack(engine, state, Table([seen()]), Dice(5, 5, 2, 3, 9))
    shot = shot_of(events)
    assert shot.figures["defence_dice"] == [2, 3, 9] and shot.figures["defender_advantage"] == 1
    assert "TEN-PRONE" in shot.clauses and not shot.figures["hit"]
    _, events = attack(engine, state, Table([seen(distance=1.0)]), Dice(1, 1, 8, 2, 2, 1))
    assert shot_of(events).figures["attack_dice"] == [1, 1, 8] and shot_of(events).figures["hit"]
    with pytest.raises(IllegalPlanError, match="stands up") as refused:
        engine.check(state, Action.ride("b", "walk: straight 1"), Table())
    assert refused.value.clause == "TEN-PRONE"
    stood, [event] = engine.resolve(state, engine.check(state, Action(STAND_UP, "b"), Table()), None, Dice())
    assert PRONE not in stood.model("b").conditions and event.clauses == ("TEN-PRONE",)


def test_TEN_DEFEND_full_defensive_until_its_next_turn(ten):
    """Clause: TEN-DEFEND. 002 "Full defensive": "By spending your action to defend, you receive an
    advantage die to all of your defense rolls until your next turn." The blue defends; a red attack
    meets 3 defence dice; at the blue's next turn the defence is over."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    state, [event] = engine.resolve(state, engine.check(state, Action(DEFEND, "b"), Table()), None, Dice())
    assert DEFENDING in state.model("b").conditions and event.clauses == ("TEN-DEFEND",)
    _, events = attack(engine, state, Table([seen()]), Dice(7, 7, 1, 1, 9))
    assert shot_of(events).figures["defence_dice"] == [1, 1, 9] and not shot_of(events).figures["hit"]
    state, _ = engine.resolve(state, Action.activate("b"), None, Dice())
    assert DEFENDING not in state.model("b").conditions


# -- TEN-STRESS and the mission ------------------------------------------------------------------

def test_TEN_STRESS_a_wound_then_unconscious_and_the_other_side_scores(ten):
    """Clause: TEN-STRESS. "If the total amount of stress accrued is over the amount of maximum
    stress that the opponent can take, then the opponent must either mark off a point of wound or
    fall unconscious, either way, the amount of stress on that character then resets back to 0."
    Stress 3 + 4 = 7 over 5: the wound (DECISION: taken while one is left), stress 0; again with no
    wound: unconscious, out of the skirmish, the reds score 1 and the skirmish is over."""
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0, stress=3)])
    state, events = attack(engine, state, Table([seen()]), Dice(9, 1, 1, 1, 3))
    assert (state.model("b").stress, state.model("b").wounds, state.model("b").in_play) == (0, 0, True)
    assert any("marks a wound" in e.rules and e.clauses == ("TEN-STRESS",) for e in events)
    state = state.with_model(state.model("b").but(stress=5)).with_model(state.model("r").but(basic_taken=()))
    state, events = attack(engine, state, Table([seen()]), Dice(9, 1, 1, 1, 1))
    assert state.model("b").status == OUT and state.score == {"reds": 1, "blues": 0}
    assert any(e.figures.get("out_of_action") for e in events)
    assert engine.game_over(state) == "blues has no figure conscious" and engine.winner(state) == "reds"
    with pytest.raises(IllegalPlanError, match="unconscious"):
        engine.check(state, Action(DEFEND, "b"), Table())


def test_parse_action_reads_the_systems_words(ten):
    """Clause: TEN-TURN. The command line's words: a walk, an attack with or without a target,
    defend, go prone, stand up; anything else names the choices."""
    engine, _ = skirmish(ten, [figure("r", "reds"), figure("b", "blues")])
    assert engine.parse_action("r", "walk: straight 3").kind == "move"
    assert engine.parse_action("r", "attack b").target == "b" and engine.parse_action("r", "attack").target is None
    assert [engine.parse_action("r", w).kind for w in ("defend", "go prone", "Stand up")] == [DEFEND, GO_PRONE,
                                                                                            STAND_UP]
    with pytest.raises(IllegalPlanError, match="'defend'"):
        engine.parse_action("r", "sprint")
