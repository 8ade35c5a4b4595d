"""The gang battle game's engine (seed 003): ``check`` apart from ``resolve`` on the one game state.
Hand-worked cases on a hand-made state, scripted dice and a fake table; each test quotes the
seed passage of the clause it checks. The rules data is the bundled ``rules/gang_battle.yaml``."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import OUT, ModelState, State
from entropy3d.systems.entropy_city.transition import ATTACK, Action
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
from entropy3d.systems.readings import Sighting


class Dice:
    """A stand-in for the injected generator: each D6 asked for is the next scripted face."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def integers(self, low: int, high: int) -> int:
        assert low == 1 and self.faces, "a die nobody scripted was rolled"
        face = self.faces.pop(0)
        assert 1 <= face < high
        return face


class Table:
    """A fake table: what the shooter sees, and a wall or nothing in a walk's way."""

    def __init__(self, sightings=(), wall=None):
        self._sightings, self.wall = list(sightings), wall

    def sightings(self, state, viewer, viewer_pose=None):
        return [s for s in self._sightings if s.viewer == viewer]

    def figure_walk_met(self, path, level):
        return self.wall

    def off_table(self, points, margin=0.0):
        return np.zeros(len(np.atleast_2d(points)), bool)


def fighter(model_id: str, gang: str, x: float = 0.0, y: float = 0.0, facing: float = 0.0, **changes) -> ModelState:
    return ModelState(model_id, gang, "on_foot", Pose(x, y, facing), **{
        "speed": 0, "stress": 0, "wounds": 1, "max_stress": 10, **changes})


def game(gang_system, models, stats=None):
    stats = {m.id: FighterStats() for m in models} | (stats or {})
    engine = gang_system.engine(stats)
    state = State(1, "gang_fight", {m.id: m for m in models}, score={"orlock": 0, "escher": 0})
    return engine, state


def sight(viewer: str, target: str, visible: float, distance: float = 10.0, bearing: float = 0.0) -> Sighting:
    return Sighting(viewer, target, distance, bearing, visible)


def shoot(engine, state, shooter: str, table: Table, dice: Dice):
    checked = engine.check(state, Action(ATTACK, shooter), table)
    facts = next(s for s in table.sightings(state, shooter) if s.target == checked.target)
    return engine.resolve(state, checked, facts, dice)


# -- GANG-TURN ---------------------------------------------------------------------------------

def test_GANG_TURN_priority_roll_and_the_tie_passing_priority(gang):
    """Clause: GANG-TURN. 003, "1. Priority Phase: Each player rolls 1D6 for priority. In case of a
    tie, the player who previously had priority passes it." Orlocks 3, Eschers 5: Eschers. A tie
    after the Orlocks had priority: the Eschers get it. A first-round tie is rolled again (DECISION)."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher")])
    assert engine.start_turn(state, Dice(3, 5), None).first == "escher"
    assert engine.start_turn(state, Dice(4, 4), "orlock").first == "escher"
    assert engine.start_turn(state, Dice(4, 4), "escher").first == "orlock"
    again = engine.start_turn(state, Dice(2, 2, 6, 1), None)
    assert again.rolls == ((2, 2), (6, 1)) and again.first == "orlock"


def test_GANG_TURN_players_alternate_one_ready_fighter_each(gang):
    """Clause: GANG-TURN. "Taking turns each player activates one ready fighter." The Eschers have
    priority and one fighter: it goes, then the Orlocks' three one after another."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher")])
    assert engine.activation_order(state, "escher", {"orlock": ["o1", "o2", "o3"], "escher": ["e1"]}) == \
        ["e1", "o1", "o2", "o3"]
    assert engine.activation_order(state, "orlock", {"orlock": ["o1", "o2"], "escher": ["e1", "e2"]}) == \
        ["o1", "e1", "o2", "e2"]


def test_GANG_TURN_two_actions_a_Basic_action_once_a_Double_takes_both(gang):
    """Clause: GANG-TURN. "Each round a fighter gets two actions to perform." "Basic Actions take 1
    action but cannot be repeated." "Double Actions take 2 AP." Shoot (Basic) twice is refused;
    after one action a Crawl (Double) is refused; a third action is refused."""
    engine, state = game(gang, [fighter("o", "orlock", facing=0), fighter("e", "escher", x=10)])
    table = Table([sight("o", "e", 1.0)])
    state, _ = engine.resolve(state, Action.activate("o"), None, Dice())
    state, _ = shoot(engine, state, "o", table, Dice(1, 2))  # a miss, firepower 2
    assert state.model("o").actions_taken == 1 and state.model("o").basic_taken == (ATTACK,)
    with pytest.raises(IllegalPlanError, match="Basic action") as refused:
        engine.check(state, Action(ATTACK, "o"), table)
    assert refused.value.clause == "GANG-TURN"
    with pytest.raises(IllegalPlanError, match="takes 2 action"):
        engine.check(state, Action(CRAWL, "o", Action.ride("o", "walk: straight 1").plan), table)
    move = engine.check(state, Action.ride("o", "walk: straight 2"), table)
    state, _ = engine.resolve(state, move, Facts("geometric", 2.0, 2.0, True, np.zeros((0, 5)),
                                                 end_pose=Pose(2.0, 0.0, 0.0)), Dice())
    with pytest.raises(IllegalPlanError, match="has 0 left"):
        engine.check(state, Action.ride("o", "walk: straight 1"), table)
    state, _ = engine.resolve(state, Action.activate("o"), None, Dice())
    assert engine.check(state, Action(ATTACK, "o"), table).target == "e"  # a new activation, a new shot


# -- GANG-MOVE ---------------------------------------------------------------------------------

def test_GANG_MOVE_up_to_MVMT_a_crawl_half_and_not_through_walls(gang):
    """Clause: GANG-MOVE. 003 Actions: "Move Simple Move" up to the fighter's MVMT (5" in
    rules/gang_battle.yaml); "Crawl Double Move up to 1/2 MVMT" (2.5"). A wall in the way (the
    table's walk check) refuses the move. The fighter stands where the producer's walk ended."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=20)])
    checked = engine.check(state, Action.ride("o", "walk: pivot left 90, straight 5"), Table())
    assert checked.move.length_in == pytest.approx(5.0) and checked.move.end_pose.y == pytest.approx(5.0)
    with pytest.raises(IllegalPlanError, match="over the 5\" a move") as refused:
        engine.check(state, Action.ride("o", "walk: straight 6"), Table())
    assert refused.value.clause == "GANG-MOVE"
    with pytest.raises(IllegalPlanError, match="over the 2.5\" a crawl"):
        engine.check(state, Action(CRAWL, "o", Action.ride("o", "walk: straight 3").plan), Table())
    assert engine.check(state, Action(CRAWL, "o", Action.ride("o", "walk: straight 2").plan), Table()).move
    with pytest.raises(IllegalPlanError, match="meets 'crate'"):
        engine.check(state, Action.ride("o", "walk: straight 3"), Table(wall=("crate", "wall", 1.5)))
    walked = Facts("geometric", 5.0, 5.0, True, np.zeros((0, 5)), end_pose=Pose(0.0, 5.0, 90.0))
    after, [event] = engine.resolve(state, checked, walked, Dice())
    assert after.model("o").pose == Pose(0.0, 5.0, 90.0) and after.model("o").actions_taken == 1
    assert event.kind == "move" and event.clauses == ("GANG-MOVE",)


def test_GANG_MOVE_a_crawl_is_filmed_as_a_crawl(gang):
    """Clause: GANG-MOVE. "Crawl Double Move up to 1/2 MVMT", the only move of a Prone & Seriously
    Injured fighter: the film of gang_fight (seed 1) captioned Skab's 2" crawl "Skab (Orlocks)
    walks 2"" over the event "crawls 2.0" of its 2.5"". The move event says it crawled, and the
    caption says so; a Move is still told as a walk."""
    from entropy3d.systems.words import Names
    from entropy3d.video.cut import caption

    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=20)])
    names = Names({"o": "Skab"}, {"orlock": "Orlocks"}, {"o": "orlock"})
    crawl = engine.check(state, Action(CRAWL, "o", Action.ride("o", "walk: straight 2").plan), Table())
    crawled = Facts("geometric", 2.0, 2.0, True, np.zeros((0, 5)), end_pose=Pose(2.0, 0.0, 0.0))
    _, [event] = engine.resolve(state, crawl, crawled, Dice())
    assert event.rules.startswith("crawls 2.0\"") and caption([event], names).text == "Skab (Orlocks) crawls 2\""
    walk = engine.check(state, Action.ride("o", "walk: straight 2"), Table())
    _, [event] = engine.resolve(state, walk, crawled, Dice())
    assert caption([event], names).text == "Skab (Orlocks) walks 2\""


# -- GANG-SHOOT, GANG-COVER, GANG-ARC -------------------------------------------------------------

def test_GANG_SHOOT_the_to_hit_roll_with_partial_cover(gang):
    """Clauses: GANG-SHOOT, GANG-COVER, GANG-ARC. "Make To-Hit Roll - with following modifiers:
    Partial Cover = -1". A BS 4+ ganger shoots the closest enemy in its arc, 60% visible (partial
    cover): it needs 5+. A 4 misses and changes nothing but the action spent; a 5 hits."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10), fighter("far", "escher", x=15)]
    engine, state = game(gang, models)
    table = Table([sight("o", "e", 0.6, 10.0), sight("o", "far", 1.0, 15.0)])
    missed, [event] = shoot(engine, state, "o", table, Dice(4, 2))
    assert event.figures["target"] == "e" and event.figures["roll_needed"] == 5 and not event.figures["hit"]
    assert missed.model("e") == state.model("e")
    hit, events = shoot(engine, state, "o", table, Dice(5, 2, 1))  # a hit, Firepower 2: 1 hit, wound roll 1: no wound
    assert events[0].figures["hit"] and events[0].figures["hits"] == 1
    assert hit.model("e").wounds == 1


def test_GANG_SHOOT_an_improbable_shot_needs_a_6_then_the_unmodified_BS(gang):
    """Clause: GANG-SHOOT. "If a shot is modified past 6+ then it becomes an improbable shot. Roll
    to hit and on a '6' roll you can roll again with unmodified fighter BS." BS 5+ at full cover
    (-2): 7+, improbable. A 6 then a 4 misses (BS 5); a 6 then a 5 hits."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10)]
    engine, state = game(gang, models, {"o": FighterStats(ballistic_skill=5)})
    table = Table([sight("o", "e", 0.3)])
    _, [event] = shoot(engine, state, "o", table, Dice(6, 4, 2))
    assert event.figures["dice"] == [6, 4] and not event.figures["hit"]
    _, events = shoot(engine, state, "o", table, Dice(6, 5, 2, 1))
    assert events[0].figures["hit"] and events[0].figures["cover"] == "full"


def test_GANG_ARC_the_engine_shoots_the_priority_target_and_refuses_without_one(gang):
    """Clause: GANG-ARC. "fighters will shoot the closest target based on the front vision arc and
    line of sight. Note that prone fighters in cover cannot be targeted." A prone enemy at 5" in
    partial cover is passed over for one at 9"; with only an enemy behind it, no shot."""
    models = [fighter("o", "orlock"), fighter("p", "escher", x=5, conditions=(PRONE,)), fighter("s", "escher", x=9)]
    engine, state = game(gang, models)
    assert engine.check(state, Action(ATTACK, "o"), Table([sight("o", "p", 0.7, 5), sight("o", "s", 1.0, 9)])
                        ).target == "s"
    with pytest.raises(IllegalPlanError, match="no target") as refused:
        engine.check(state, Action(ATTACK, "o"), Table([sight("o", "s", 1.0, 9, bearing=170)]))
    assert refused.value.clause == "GANG-ARC"


# -- GANG-PIN, GANG-AMMO --------------------------------------------------------------------------

def test_GANG_PIN_a_hit_target_drops_prone_and_may_only_stand_crawl_or_reload(gang):
    """Clause: GANG-PIN. "3. Target is pinned - ... if the target is Standing and Active then they
    drop Prone and Pinned." "Prone & Pinned: Fighter can only perform Stand Up (Basic), Crawl
    (Double), Blind Fire (Double), or Reload (Simple) Actions." A hit whose wound roll fails still
    pins; the pinned fighter's move is refused, standing up clears it."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=10)])
    state, _ = shoot(engine, state, "o", Table([sight("o", "e", 1.0)]), Dice(6, 2, 1))
    assert PRONE in state.model("e").conditions and state.model("e").wounds == 1
    with pytest.raises(IllegalPlanError, match="Prone & Pinned") as refused:
        engine.check(state, Action.ride("e", "walk: straight 1"), Table())
    assert refused.value.clause == "GANG-PIN"
    stood, [event] = engine.resolve(state, engine.check(state, Action(STAND_UP, "e"), Table()), None, Dice())
    assert PRONE not in stood.model("e").conditions and event.clauses == ("GANG-PIN",)


def test_GANG_AMMO_firepower_1_calls_an_ammo_check_and_rapid_fire_hits(gang):
    """Clause: GANG-AMMO. "If a '1' is rolled then make an immediate Ammo check or else weapon is
    Out of Ammo. For Rapid Fire weapons this determines how many hits ... '4-5' = 2 hits '6' = 3
    hits". An autogun (Rapid Fire, Ammo 4+) misses with Firepower 1 and Ammo check 3: Out of Ammo,
    so it may not shoot; Reload's Ammo check of 4 reloads it. A 6 gives the autogun 3 hits and a
    lasgun (not Rapid Fire) 1."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10)]
    engine, state = game(gang, models)
    table = Table([sight("o", "e", 1.0)])
    empty, events = shoot(engine, state, "o", table, Dice(1, 1, 3))
    assert OUT_OF_AMMO in empty.model("o").conditions and events[-1].clauses == ("GANG-AMMO",)
    fresh = empty.with_model(empty.model("o").but(actions_taken=0, basic_taken=()))
    with pytest.raises(IllegalPlanError, match="Out of Ammo"):
        engine.check(fresh, Action(ATTACK, "o"), table)
    reloaded, _ = engine.resolve(fresh, engine.check(fresh, Action(RELOAD, "o")), None, Dice(4))
    assert OUT_OF_AMMO not in reloaded.model("o").conditions
    _, events = shoot(engine, state, "o", table, Dice(4, 6, 1, 1, 1))  # three wound rolls of 1
    assert events[0].figures["hits"] == 3
    lasgun, state = game(gang, models, {"o": FighterStats(weapon="lasgun")})
    _, events = shoot(lasgun, state, "o", table, Dice(4, 6, 1))
    assert events[0].figures["hits"] == 1


# -- GANG-WOUND, GANG-INJURY ------------------------------------------------------------------------

@pytest.mark.parametrize("strength,toughness,needed", [(6, 3, 2), (4, 3, 3), (3, 3, 4), (3, 4, 5), (3, 6, 6)])
def test_GANG_WOUND_the_wound_roll_by_strength_against_toughness(gang, strength, toughness, needed):
    """Clause: GANG-WOUND. "2+ = STR >= TOUGHx2, 3+ STR > TOUGH, 4+ STR = TOUGH, 5+ STR < TOUGH,
    6+ STRx2 <= TOUGH"."""
    engine, _ = game(gang, [fighter("o", "orlock")])
    assert engine.wound_roll_needed(strength, toughness) == needed


def test_GANG_WOUND_an_armour_save_stops_the_wound(gang):
    """Clause: GANG-WOUND. "Then roll armor saves ... Any unsaved hits get converted to wounds." A
    target with a 5+ save, hit by an autogun (STR 3 vs TOUGH 3: 4+): wound 4, save 5 saved; wound
    4, save 4 unsaved, and its 2 wounds go down to 1 with no injury die."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=10, wounds=2)],
                         {"e": FighterStats(save=5, wounds=2)})
    table = Table([sight("o", "e", 1.0)])
    saved, _ = shoot(engine, state, "o", table, Dice(6, 2, 4, 5))
    assert saved.model("e").wounds == 2
    hurt, events = shoot(engine, state, "o", table, Dice(6, 2, 4, 4))
    assert hurt.model("e").wounds == 1 and events[-1].figures["wounds_lost"] == 1


@pytest.mark.parametrize("injury,conditions,status,score", [
    (1, (PRONE, FLESH_WOUND), "riding", 0),
    (4, (PRONE, SERIOUSLY_INJURED), "riding", 0),
    (6, (PRONE,), OUT, 1),
])
def test_GANG_INJURY_a_fighter_reduced_to_0_rolls_an_injury_die(gang, injury, conditions, status, score):
    """Clause: GANG-INJURY. "If a fighter gets reduced to '0' then roll an Injury die. ... '1-2' =
    Flesh Wound '3-5' = Serious Injury '6' = Out of Action". A 1-wound Escher takes an unsaved
    hit: the injury die decides; Out of Action scores the Orlocks a point (the mission)."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=10)])
    after, _ = shoot(engine, state, "o", Table([sight("o", "e", 1.0)]), Dice(6, 2, 4, 1, injury))
    target = after.model("e")
    assert set(target.conditions) == set(conditions) and target.status == status and target.wounds == 0
    assert after.score["orlock"] == score


def test_GANG_INJURY_further_damage_rolls_more_dice_and_flesh_wounds_cost_toughness(gang):
    """Clause: GANG-INJURY. "Any additional damage gets rolled as additional Injury dice"; "Each
    flesh wound is -1 TOUGH". A fighter at 0 wounds with two flesh wounds (TOUGH 3 - 2 = 1): an
    autogun (STR 3 >= 2 x 1) wounds on 2+; the unsaved damage rolls one injury die straight away:
    a third flesh wound takes TOUGH to 0: Out of Action (DECISION, out_at_toughness)."""
    worn = fighter("e", "escher", x=10, wounds=0, conditions=(PRONE, FLESH_WOUND, FLESH_WOUND))
    engine, state = game(gang, [fighter("o", "orlock"), worn])
    assert engine.toughness(worn) == 1 and engine.wound_roll_needed(3, 1) == 2
    after, events = shoot(engine, state, "o", Table([sight("o", "e", 1.0)]), Dice(6, 2, 2, 1, 2))
    assert after.model("e").status == OUT and events[-2].figures["dice"] == [2]


# -- GANG-RECOVERY, GANG-BOTTLE ----------------------------------------------------------------------

@pytest.mark.parametrize("die,still_injured,status", [(2, False, "riding"), (5, True, "riding"), (6, True, OUT)])
def test_GANG_RECOVERY_seriously_injured_fighters_roll_in_the_end_phase(gang, die, still_injured, status):
    """Clause: GANG-RECOVERY. "Make a Recovery roll for each Seriously Injured fighter ... On '1-2'
    it is Flesh Wound and fighter becomes Prone & Pinned. ... '3-5' remains Seriously Injured. '6'
    fighter is Out of Action." The End Phase lists the Bottle Check first: the Orlocks' check (a 1)
    counts the fighter down before its recovery roll, whatever that roll makes of it. Its friends
    stand 20" off, beyond the Nerve test's 3" (GANG-NERVE)."""
    models = [fighter("o", "orlock", wounds=0, conditions=(PRONE, SERIOUSLY_INJURED)), fighter("o2", "orlock", x=20),
              fighter("o3", "orlock", x=20), fighter("e", "escher")]
    engine, state = game(gang, models)
    after, events, bottled = engine.end_turn(state, Dice(1, die))
    model = after.model("o")
    assert (SERIOUSLY_INJURED in model.conditions) == still_injured and model.status == status
    assert PRONE in model.conditions and bottled == []
    assert [event.clauses for event in events][:2] == [("GANG-BOTTLE",), ("GANG-RECOVERY",)]
    assert events[0].figures["down"] == 1 and events[0].figures["die"] == 1


def test_GANG_BOTTLE_one_d6_plus_the_fighters_down_against_the_starting_crew(gang):
    """Clause: GANG-BOTTLE. "If 1D6 + # of fighters that are Seriously Injured or Out of Action > #
    of fighters in starting crew then gang is bottling out." Three Orlocks, one Out of Action: a 2
    (2 + 1 = 3) holds, a 3 (3 + 1 > 3) bottles out. The Eschers, with nobody down, make no check.
    Bottled, the gang stays on the table (``bottled_gang: cool_checks``): its fighters carry the
    condition, the fight goes on, and a gang already bottled makes no further bottle check."""
    models = [fighter("o", "orlock", status=OUT), fighter("o2", "orlock"), fighter("o3", "orlock"),
              fighter("e", "escher")]
    engine, state = game(gang, models)
    _, [held], bottled = engine.end_turn(state, Dice(2))
    assert bottled == [] and held.figures == {"gang": "orlock", "die": 2, "down": 1, "crew": 3, "bottled": False}
    after, [failed], bottled = engine.end_turn(state, Dice(3))
    assert failed.figures["bottled"] and "Cool checks from the next turn" in failed.rules
    assert bottled == [] and engine.game_over(after, bottled) == ""
    assert engine.bottled(after, "orlock") and not engine.bottled(after, "escher")
    assert all(BOTTLED in after.model(m).conditions for m in ("o", "o2", "o3"))
    assert engine.end_turn(after, Dice()) == (after, [], [])  # no die rolled: already bottled
    # 0 points each: the gang that did not bottle out wins the tie, before the bottling a draw
    assert engine.winner(after) == "escher" and engine.winner(state) == ""


def test_GANG_BOTTLE_the_withdraw_reading_ends_the_fight(gang):
    """Clause: GANG-BOTTLE. The data's other reading, ``bottled_gang: withdraw``: the gang that
    bottles out withdraws at once and the fight ends, the other gang winning the tie."""
    rules = gang.rules.model_copy(update={"bottle": gang.rules.bottle.model_copy(update={"bottled_gang": "withdraw"})})
    withdrawing = type(gang)(rules)
    models = [fighter("o", "orlock", status=OUT), fighter("o2", "orlock"), fighter("o3", "orlock"),
              fighter("e", "escher")]
    engine, state = game(withdrawing, models)
    after, [failed], bottled = engine.end_turn(state, Dice(3))
    assert bottled == ["orlock"] and "withdraws" in failed.rules and not engine.bottled(after, "orlock")
    assert engine.game_over(after, bottled) == "orlock bottled out" and engine.winner(after, bottled) == "escher"


@pytest.mark.parametrize("dice,fled", [((3, 4), False), ((4, 2), True), ((6, 6), False)])
def test_GANG_BOTTLE_a_bottled_gang_makes_cool_checks_and_those_failing_flee(gang, dice, fled):
    """Clause: GANG-BOTTLE. "Cool Checks - If a player has failed a bottle check, make a Cool check
    for each of their fighters on the battlefield. If a fighter fails, immediately remove them from
    the battlefield as having fled to safety. ... fleeing fighters count as going Out of Action."
    DECISION (rules data): 2D6 needing the fighter's Cool, 7+. 3 + 4 = 7 holds, 4 + 2 = 6 flees:
    Out of Action, and the Eschers score for it (the mission). A gang not bottled rolls nothing."""
    models = [fighter("o", "orlock", conditions=(BOTTLED,)), fighter("o2", "orlock", status=OUT,
                                                                     conditions=(BOTTLED,)),
              fighter("e", "escher")]
    engine, state = game(gang, models)
    after, events = engine.action_phase(state, Dice(*dice))  # o2, already out, rolls nothing
    assert events[0].clauses == ("GANG-BOTTLE",) and events[0].figures["dice"] == list(dice)
    assert events[0].figures["needed"] == 7 and events[0].figures["fled"] == fled
    assert (after.model("o").status == OUT) == fled and after.score["escher"] == (1 if fled else 0)
    assert [e.kind for e in events] == (["condition", "score"] if fled else ["condition"])
    unbottled, _ = game(gang, [fighter("o", "orlock"), fighter("e", "escher")])
    assert unbottled.action_phase(state.with_model(fighter("o", "orlock")), Dice())[1] == []


def test_GANG_BOTTLE_a_fighter_with_more_cool_flees_less(gang):
    """Clause: GANG-BOTTLE. A scene's ``stats: {cool: 5}`` lowers the roll needed: a 6 passes."""
    models = [fighter("o", "orlock", conditions=(BOTTLED,)), fighter("e", "escher")]
    engine, state = game(gang, models, {"o": FighterStats(cool=5)})
    after, [check] = engine.action_phase(state, Dice(3, 3))
    assert check.figures["needed"] == 5 and after.model("o").in_play


def test_the_fight_keeps_the_one_state_and_its_one_json_form(gang):
    """The engine's state is the one State: a fighter's conditions and the Basic actions of its
    activation round-trip through the one JSON form, which leaves ``basic_taken`` out when empty
    (an Entropy City game's bytes do not change)."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=10)])
    state, _ = shoot(engine, state, "o", Table([sight("o", "e", 1.0)]), Dice(6, 2, 4, 1, 4))
    assert state.model("o").basic_taken == (ATTACK,) and SERIOUSLY_INJURED in state.model("e").conditions
    assert State.from_json(state.to_json()) == state
    assert "basic_taken" not in state.model("e").to_json() and "basic_taken" in state.model("o").to_json()
