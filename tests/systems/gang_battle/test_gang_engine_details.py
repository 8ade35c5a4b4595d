"""The gang battle engine's details (seed 003): what each refusal and each event of a turn, a move,
a reload and the End Phase says, clause by clause, and the edges of its comparisons. Hand-worked
cases on a hand-made state with scripted dice and the fake table of ``test_gang_engine.py``; the
rules data is the bundled ``rules/gang_battle.yaml`` (or a copy with one number changed, as a
scene's rules data could)."""

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
from entropy3d.systems.entropy_city.transition import ATTACK, MOVE, Action
from entropy3d.systems.gang_battle import FighterStats
from entropy3d.systems.gang_battle.engine import (
    BOTTLED,
    CRAWL,
    FLESH_WOUND,
    OUT_OF_AMMO,
    PRONE,
    RELOAD,
    SERIOUSLY_INJURED,
    STAND_UP,
)
from tests.systems.gang_battle.test_gang_engine import Dice, Table, fighter, game, sight


class SidedDice(Dice):
    """Scripted faces that also note the sides of each die asked for."""

    def __init__(self, *faces: int):
        super().__init__(*faces)
        self.sides: list[int] = []

    def integers(self, low: int, high: int) -> int:
        self.sides.append(high - 1)
        return super().integers(low, high)


class OffTable(Table):
    """A fake table whose every point is past its edge."""

    def off_table(self, points, margin=0.0):
        return np.ones(len(np.atleast_2d(points)), bool)


def variant(system, **sections):
    """The gang battle rules with some values of their sections changed (``weapons``: by weapon)."""
    rules = system.rules
    update = {}
    for name, values in sections.items():
        section = getattr(rules, name)
        if isinstance(section, dict):
            update[name] = {**section, **{key: section[key].model_copy(update=v) for key, v in values.items()}}
        else:
            update[name] = section.model_copy(update=values)
    return type(system)(rules.model_copy(update=update))


def refusal(engine, state, action, table=None) -> tuple[str, str]:
    """(clause, message) of the engine's refusal of ``action``."""
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, action, table)
    return refused.value.clause, refused.value.message


def walked(length: float, end: Pose) -> Facts:
    return Facts("geometric", length, length, True, np.zeros((0, 5)), end_pose=end)


# -- the game's start, GANG-TURN -----------------------------------------------------------------

def test_GANG_INJURY_the_start_gives_each_fighter_its_wounds_no_stress_and_the_prone_their_marker(gang):
    """Clauses: GANG-INJURY, GANG-PIN. A fighter starts with its profile's wounds (a scene's
    ``stats: {wounds: 2}``), no stress whatever the table held, and ``prone: true`` starts it
    Prone & Pinned; the score starts at 0 for each gang."""
    table_state = State(0, "", {"o": fighter("o", "orlock", stress=3, wounds=9),
                                "e": fighter("e", "escher", stress=2, wounds=9)})
    engine = gang.engine({"o": FighterStats(wounds=2, prone=True), "e": FighterStats()})
    start = engine.initial_state(table_state)
    o, e = start.model("o"), start.model("e")
    assert (o.wounds, o.stress, o.conditions) == (2, 0, (PRONE,))
    assert (e.wounds, e.stress, e.conditions) == (1, 0, ())
    assert start.mission == "gang_fight" and dict(start.score) == {"orlock": 0, "escher": 0}


def test_GANG_TURN_the_priority_dice_have_the_rules_data_sides(gang):
    """Clause: GANG-TURN. "Each player rolls 1D6 for priority": the die is the rules data's
    ``priority.die_sides``; with a 10-sided die both players roll it (9 against 8: the Orlocks)."""
    engine, state = game(variant(gang, priority={"die_sides": 10}), [fighter("o", "orlock"), fighter("e", "escher")])
    dice = SidedDice(9, 8)
    start = engine.start_turn(state, dice, None)
    assert start.rolls == ((9, 8),) and start.first == "orlock" and dice.sides == [10, 10]


def test_GANG_TURN_only_the_gangs_own_fighters_in_play_get_a_ready_marker(gang):
    """Clause: GANG-TURN. "every fighter is given a Ready marker": of its own gang, and not one
    Out of Action."""
    models = [fighter("o1", "orlock"), fighter("o2", "orlock", status=OUT), fighter("e", "escher")]
    engine, state = game(gang, models)
    assert engine.ready(state, "orlock") == ["o1"] and engine.ready(state, "escher") == ["e"]


def test_GANG_TURN_the_action_words_a_player_may_type(gang):
    """Clause: GANG-TURN. ``crawl walk: ...`` is a Crawl of that walk; ``stand_up`` reads as
    ``stand up``; ``reload``; anything else is refused naming the actions there are."""
    engine, _ = game(gang, [fighter("o", "orlock")])
    crawl = engine.parse_action("o", "crawl walk: straight 2")
    assert (crawl.kind, crawl.model_id, crawl.plan) == (CRAWL, "o", parse_plan("walk: straight 2"))
    simple = [engine.parse_action("o", "Stand_Up"), engine.parse_action("o", " reload ")]
    assert [(a.kind, a.model_id) for a in simple] == [(STAND_UP, "o"), (RELOAD, "o")]
    with pytest.raises(IllegalPlanError) as refused:
        engine.parse_action("o", "dance")
    assert (refused.value.clause, refused.value.message) == (
        "GANG-TURN", "unknown action 'dance': use 'walk: straight 3', 'crawl walk: straight 2', 'shoot', "
        "'stand up', 'reload', 'run for cover', 'charge [target]', 'fight [target]', 'coup de grace [target]' "
        "or 'retreat'")


def test_GANG_TURN_the_refusals_of_an_action_name_their_clause(gang):
    """Clauses: GANG-TURN, GANG-INJURY, GANG-PIN, GANG-AMMO. A fighter Out of Action does nothing;
    an action the game does not have is refused; a Crawl (Double) with one action left is refused;
    a standing fighter cannot stand up; a loaded weapon is not reloaded."""
    models = [fighter("o", "orlock"), fighter("x", "orlock", status=OUT), fighter("e", "escher", x=10)]
    engine, state = game(gang, models)
    assert refusal(engine, state, Action(ATTACK, "x")) == ("GANG-INJURY", "x is Out of Action")
    assert refusal(engine, state, Action("kick", "o")) == (
        "GANG-TURN", "a fighter may move, crawl, attack, stand_up, reload, run_for_cover, charge, fight, "
        "coup_de_grace, retreat; not 'kick'")
    one_left = state.with_model(state.model("o").but(actions_taken=1))
    assert refusal(engine, one_left, Action(CRAWL, "o", parse_plan("walk: straight 1"))) == (
        "GANG-TURN", "crawl takes 2 action(s); o has 1 left")
    assert refusal(engine, state, Action(STAND_UP, "o")) == ("GANG-PIN", "o is already standing")
    assert refusal(engine, state, Action(RELOAD, "o")) == ("GANG-AMMO", "o's weapon is not out of ammo")


def test_GANG_INJURY_a_seriously_injured_fighter_may_only_crawl(gang):
    """Clause: GANG-INJURY. 003: "Prone & Seriously Injured: Fighter can only perform Crawl
    (Double) actions." Its Crawl of 2" (half its 5" MVMT) is allowed, a Move is refused."""
    hurt = fighter("s", "escher", conditions=(PRONE, SERIOUSLY_INJURED))
    engine, state = game(gang, [fighter("o", "orlock", x=20), hurt])
    crawl = engine.check(state, Action(CRAWL, "s", parse_plan("walk: straight 2")), Table())
    assert crawl.move.length_in == pytest.approx(2.0)
    assert refusal(engine, state, Action.ride("s", "walk: straight 1"), Table()) == (
        "GANG-INJURY", "s is Prone & Seriously Injured: it may only crawl")


def test_GANG_PIN_a_prone_fighter_is_told_what_it_may_do(gang):
    """Clause: GANG-PIN. "Prone & Pinned: Fighter can only perform Stand Up (Basic), Crawl
    (Double), Blind Fire (Double), or Reload (Simple) Actions": its Move is refused with that list;
    standing up says so and clears the condition."""
    engine, state = game(gang, [fighter("o", "orlock", x=20), fighter("p", "escher", conditions=(PRONE,))])
    assert refusal(engine, state, Action.ride("p", "walk: straight 1"), Table()) == (
        "GANG-PIN", "p is Prone & Pinned: it may stand up, crawl, reload (Blind Fire is not played here)")
    stood, events = engine.resolve(state, engine.check(state, Action(STAND_UP, "p"), Table()), None, Dice())
    assert events == [Event("condition", "p", "stands up: no longer Prone & Pinned", clauses=("GANG-PIN",))]
    assert stood.model("p").conditions == () and stood.model("p").basic_taken == (STAND_UP,)


# -- GANG-MOVE ----------------------------------------------------------------------------------

def test_GANG_MOVE_a_fighter_walks_in_straights_and_pivots_on_the_table_clear_of_walls(gang):
    """Clause: GANG-MOVE. A move is a walk of straights and pivots (a bike's ride plan is refused),
    stays on the table and is not played through a wall ("climbing and gaps" are not played); a
    Crawl's refusals speak of the move too."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=20)])
    assert refusal(engine, state, Action(MOVE, "o", parse_plan("s1: straight 3")), Table()) == (
        "GANG-MOVE", "a fighter moves in straights and pivots: 'walk: pivot left 45, straight 3'")
    assert refusal(engine, state, Action.ride("o", "walk: straight 3"), OffTable()) == (
        "GANG-MOVE", "the move leaves the table")
    crawl = Action(CRAWL, "o", parse_plan("walk: straight 2"))
    assert refusal(engine, state, crawl, Table(wall=("crate", "wall", 1.5))) == (
        "GANG-MOVE", "the move meets 'crate' 1.5\" along it; climbing and gaps are not played")


def test_GANG_MOVE_the_move_and_the_crawl_events_say_how_far_of_how_far(gang):
    """Clause: GANG-MOVE. "Move Simple" and "Crawl Double Move up to 1/2 MVMT": the event says how
    far the fighter walked (to 1/10") of the 5" or 2.5" it had; a Move is no Basic action, so it
    is not marked as one."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=20)])
    move = engine.check(state, Action.ride("o", "walk: straight 5"), Table())
    moved, [event] = engine.resolve(state, move, walked(4.96, Pose(4.96, 0.0, 0.0)), Dice())
    assert event == Event("move", "o", "moves 5.0\" of its 5\"", found="walked 5.0\"", producer="geometric",
                          clauses=("GANG-MOVE",), figures={"walked": True, "length_in": 5.0})
    assert moved.model("o").basic_taken == () and moved.model("o").actions_taken == 1
    crawl = engine.check(state, Action(CRAWL, "o", parse_plan("walk: straight 2")), Table())
    crawled, [event] = engine.resolve(state, crawl, walked(2.46, Pose(2.46, 0.0, 0.0)), Dice())
    assert event.rules == "crawls 2.5\" of its 2.5\"" and event.figures["length_in"] == 2.5
    assert crawled.model("o").pose == Pose(2.46, 0.0, 0.0) and crawled.model("o").actions_taken == 2


# -- GANG-AMMO, GANG-ARC: reloading, the shot's check -------------------------------------------

@pytest.mark.parametrize("die,reloaded,verdict", [(4, True, "reloaded"), (3, False, "still Out of Ammo")])
def test_GANG_AMMO_reload_makes_the_ammo_check_and_says_how_it_went(gang, die, reloaded, verdict):
    """Clause: GANG-AMMO. "Reload Simple Pick an Out of Ammo weapon and make an Ammo check. If
    passed, weapon is reloaded." The autogun's Ammo is 4+: a 4 passes (the edge), a 3 fails."""
    engine, state = game(gang, [fighter("o", "orlock", conditions=(OUT_OF_AMMO,)), fighter("e", "escher", x=10)])
    after, events = engine.resolve(state, engine.check(state, Action(RELOAD, "o")), None, Dice(die))
    assert events == [Event("condition", "o", f"reloads the autogun: Ammo check {die} needing 4+: {verdict}",
                            clauses=("GANG-AMMO",), figures={"die": die, "needed": 4},
                            rolls=(DiceRoll("Ammo check", (die,), die, 4, "passed" if reloaded else "failed"),))]
    assert (OUT_OF_AMMO not in after.model("o").conditions) == reloaded and after.model("o").basic_taken == ()


def test_GANG_AMMO_an_empty_weapon_and_no_line_of_sight_refuse_the_shot(gang):
    """Clauses: GANG-AMMO, GANG-ARC. An Out of Ammo weapon does not shoot; a shot needs the table's
    line of sight to find its target."""
    engine, state = game(gang, [fighter("o", "orlock", conditions=(OUT_OF_AMMO,)), fighter("e", "escher", x=10),
                                fighter("f", "escher", x=12)])
    table = Table([sight("o", "e", 1.0), sight("f", "o", 1.0)])
    assert refusal(engine, state, Action(ATTACK, "o"), table) == (
        "GANG-AMMO", "o's weapon is Out of Ammo: reload first")
    assert refusal(engine, state, Action(ATTACK, "f")) == ("GANG-ARC", "a shot needs the table's line of sight")


def test_GANG_ARC_a_target_at_the_weapons_range_may_be_shot_one_past_it_not(gang):
    """Clause: GANG-ARC. The closest target is shot if within the weapon's range (the autogun's
    24"): at 24" it is, at 24.5" the shot is refused. The checked shot names the fighter's own
    weapon (a lasgun here) and the pose it shoots from."""
    models = [fighter("o", "orlock", x=1, y=2, facing=30), fighter("e", "escher", x=30)]
    engine, state = game(gang, models)
    shot = engine.check(state, Action(ATTACK, "o"), Table([sight("o", "e", 1.0, 24.0)]))
    assert (shot.target, shot.weapon, shot.from_pose) == ("e", "autogun", Pose(1, 2, 30))
    assert refusal(engine, state, Action(ATTACK, "o"), Table([sight("o", "e", 1.0, 24.5)])) == (
        "GANG-ARC", "the closest target, e, is 24.5\" away: past the 24\" of the autogun")
    lasgun, _ = game(gang, models, {"o": FighterStats(weapon="lasgun")})
    assert lasgun.check(state, Action(ATTACK, "o"), Table([sight("o", "e", 1.0, 9.0)])).weapon == "lasgun"


# -- the End Phase: GANG-BOTTLE, GANG-RECOVERY ----------------------------------------------------

def crews():
    """An Escher (nobody down) listed first, then three Orlocks, one Out of Action."""
    return [fighter("e", "escher"), fighter("o", "orlock", status=OUT), fighter("o2", "orlock"),
            fighter("o3", "orlock")]


@pytest.mark.parametrize("die,verdict", [
    (2, "2 + 1 down <= 3 in the starting crew: holds"),
    (3, "3 + 1 down > 3 in the starting crew: bottles out: Cool checks from the next turn"),
])
def test_GANG_BOTTLE_each_gang_with_a_fighter_down_checks_and_the_event_says_the_sum(gang, die, verdict):
    """Clause: GANG-BOTTLE. "If 1D6 + # of fighters that are Seriously Injured or Out of Action > #
    of fighters in starting crew then gang is bottling out." The Eschers, listed first, have nobody
    down and make no check; the Orlocks, after them, still do (2 + 1 = 3 holds, 3 + 1 bottles out)."""
    engine, state = game(gang, crews())
    _, events, withdrawn = engine.end_turn(state, Dice(die))
    # the roll: the die + 1 down needing 4 (more than the 3 in the crew)
    assert events == [Event("condition", "o", f"orlock bottle check: {verdict}", clauses=("GANG-BOTTLE",),
                            figures={"gang": "orlock", "die": die, "down": 1, "crew": 3, "bottled": die == 3},
                            rolls=(DiceRoll("bottle check", (die,), die + 1, 4,
                                            "bottles out" if die == 3 else "holds"),))]
    assert withdrawn == []


def test_GANG_BOTTLE_a_withdrawing_gang_is_told_so_and_the_bottle_die_has_the_data_sides(gang):
    """Clause: GANG-BOTTLE. With ``bottled_gang: withdraw`` the event says the gang withdraws; the
    bottle check's die is the rules data's ``bottle.die_sides`` (a D10 here: 9 + 1 > 3)."""
    engine, state = game(variant(gang, bottle={"bottled_gang": "withdraw", "die_sides": 10}), crews())
    dice = SidedDice(9)
    _, [event], withdrawn = engine.end_turn(state, dice)
    assert event.rules == "orlock bottle check: 9 + 1 down > 3 in the starting crew: bottles out: withdraws"
    assert withdrawn == ["orlock"] and dice.sides == [10]


@pytest.mark.parametrize("dice,verdict", [((3, 4), "holds its nerve"),
                                          ((4, 2), "fails and flees the battlefield: Out of Action")])
def test_GANG_BOTTLE_every_bottled_fighter_makes_its_cool_check(gang, dice, verdict):
    """Clause: GANG-BOTTLE. "make a Cool check for each of their fighters on the battlefield. If a
    fighter fails, immediately remove them ... fleeing fighters count as going Out of Action": the
    Escher listed first is not bottled and rolls nothing, the bottled Orlock after it still checks
    (2D6 needing Cool 7); fleeing, it is Out of Action and the Eschers score its point."""
    engine, state = game(gang, [fighter("e", "escher"), fighter("o", "orlock", conditions=(BOTTLED,))])
    after, events = engine.action_phase(state, Dice(*dice))
    fled = sum(dice) < 7
    check = Event("condition", "o", f"Cool check {dice[0]}+{dice[1]} needing 7+: {verdict}", clauses=("GANG-BOTTLE",),
                  figures={"dice": list(dice), "needed": 7, "fled": fled, "out_of_action": fled},
                  rolls=(DiceRoll("Cool check", dice, sum(dice), 7, "flees" if fled else "holds"),))
    scored = [Event("score", "o", "escher scores 1 for o Out of Action", clauses=("GANG-INJURY",),
                    figures={"gang": "escher", "points": 1})]
    assert events == [check] + (scored if fled else [])
    assert after.model("o").in_play != fled and after.score["escher"] == int(fled)


def test_GANG_RECOVERY_a_roll_of_serious_injury_leaves_the_fighter_down_and_says_so(gang):
    """Clause: GANG-RECOVERY. "'3-5' remains Seriously Injured": the recovery event gives the die
    and its result."""
    models = [fighter("o", "orlock", wounds=0, conditions=(PRONE, SERIOUSLY_INJURED)), fighter("o2", "orlock"),
              fighter("o3", "orlock"), fighter("e", "escher")]
    engine, state = game(gang, models)
    after, events, _ = engine.end_turn(state, Dice(1, 5))
    assert events[1] == Event("condition", "o", "recovery roll 5: remains Seriously Injured",
                              clauses=("GANG-RECOVERY",), figures={"die": 5, "result": "serious_injury"},
                              rolls=(DiceRoll("recovery", (5,), 5, None, "serious injury"),))
    assert after.model("o") == state.model("o")


def test_GANG_RECOVERY_a_flesh_wound_makes_the_fighter_prone_and_pinned(gang):
    """Clause: GANG-RECOVERY. "On '1-2' it is Flesh Wound and fighter becomes Prone & Pinned." A
    Seriously Injured Orlock without the Prone marker rolls a 2: no longer Seriously Injured, it
    has a flesh wound and lies Prone & Pinned; no enemy did it (no piece)."""
    models = [fighter("o", "orlock", wounds=0, conditions=(SERIOUSLY_INJURED,)), fighter("o2", "orlock"),
              fighter("o3", "orlock"), fighter("e", "escher")]
    engine, state = game(gang, models)
    after, events, _ = engine.end_turn(state, Dice(1, 2))
    assert after.model("o").conditions == (FLESH_WOUND, PRONE) and after.model("o").in_play
    assert events[1] == Event("condition", "o", "injury dice 2 (flesh wound): Prone & Pinned with a flesh wound",
                              clauses=("GANG-RECOVERY",),
                              figures={"dice": [2], "results": ["flesh_wound"], "out_of_action": False},
                              rolls=(DiceRoll("injury", (2,), 2, None, "flesh wound"),))


# -- the fight's end ----------------------------------------------------------------------------

def test_GANG_BOTTLE_the_fight_ends_when_gangs_bottle_out_or_one_has_nobody_standing(gang):
    """Clause: GANG-BOTTLE. Gangs that bottled out end the fight (both named); so does a gang whose
    fighters are all Seriously Injured or Out of Action, the gang standing named as neither."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", conditions=(PRONE, SERIOUSLY_INJURED))])
    assert engine.game_over(state, ["orlock", "escher"]) == "orlock, escher bottled out"
    assert engine.game_over(state) == "escher has no fighter standing"
    assert engine.game_over(state.with_model(fighter("e", "escher"))) == ""


def test_GANG_INJURY_the_winner_has_the_most_points_a_gang_with_none_counts_0(gang):
    """Clause: GANG-INJURY (the mission's points). The gang with the most points wins, whichever
    the scene lists first; a gang not yet in the score counts 0; equal points are a draw; with one
    gang it wins, with none there is no winner; of three gangs the first two by points decide."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher")])
    assert engine.winner(State(1, "", state.models, score={"orlock": 2, "escher": 1})) == "orlock"
    assert engine.winner(State(1, "", state.models, score={"orlock": 2, "escher": 0})) == "orlock"
    assert engine.winner(State(1, "", state.models, score={"orlock": 1})) == "orlock"
    assert engine.winner(State(1, "", state.models, score={"escher": 0})) == ""
    assert engine.winner(State(1, "", state.models, score={"orlock": 0})) == ""
    assert engine.winner(State(1, "", {"o": state.model("o")}, score={})) == "orlock"
    assert engine.winner(State(1, "", {}, score={})) == ""
    three = {**state.models, "g": fighter("g", "goliath")}
    assert engine.winner(State(1, "", three, score={"orlock": 0, "escher": 3, "goliath": 1})) == "escher"
    assert engine.winner(State(1, "", state.models, score={"orlock": 1, "escher": 1})) == ""
    # Orlocks and Goliaths 1 point each, the Eschers between them in the scene not yet scored: a draw
    assert engine.winner(State(1, "", three, score={"orlock": 1, "goliath": 1})) == ""
