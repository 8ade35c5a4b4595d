"""The gang battle engine's shooting process (seed 003, "Shooting & Close Combat Process") event by
event: what the to-hit roll, the pin, the Firepower die and its Ammo check, the wound and save
rolls and the injury dice say and do. Hand-worked shots with scripted dice at a fake table (the
helpers of ``test_gang_engine.py``); the rules data is the bundled ``rules/gang_battle.yaml``: a
ganger with BS 4+, TOUGH 3, 1 wound, a 6+ save and an autogun (STR 3, Rapid Fire, Ammo 4+, 24")."""

from __future__ import annotations

import pytest

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.systems.gang_battle import FighterStats
from entropy3d.systems.gang_battle.engine import FLESH_WOUND, OUT_OF_AMMO, PRONE, SERIOUSLY_INJURED
from tests.systems.gang_battle.test_gang_engine import Dice, Table, fighter, game, shoot, sight
from tests.systems.gang_battle.test_gang_engine_details import variant

SHOT_CLAUSES = ("GANG-ARC", "GANG-COVER", "GANG-SHOOT")
PINNED = Event("condition", "e", "is hit: drops Prone & Pinned", clauses=("GANG-PIN",))


def duel(gang, target_stats: FighterStats | None = None, visible: float = 1.0, distance: float = 10.0,
         shooter_stats: FighterStats | None = None):
    """An Orlock 'o' and the Escher 'e' it sees (``visible`` of it, ``distance`` away): (engine,
    state, table)."""
    stats = {"e": target_stats or FighterStats(), "o": shooter_stats or FighterStats()}
    wounds = stats["e"].wounds or 1
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=distance, wounds=wounds)], stats)
    return engine, state, Table([sight("o", "e", visible, distance)])


#: a wound roll of 4 needing 4+ (STR 3 = TOUGH 3): the event's roll
WOUND_4_OF_4 = DiceRoll("wound", (4,), 4, 4, "wounds")


def roll(wound: int, needed: int, save: int | None, save_needed: int, unsaved: bool) -> dict:
    return {"wound": wound, "wound_needed": needed, "save": save, "save_needed": save_needed, "unsaved": unsaved}


# -- GANG-SHOOT, GANG-COVER: the to-hit roll ---------------------------------------------------------

def test_GANG_SHOOT_a_miss_is_told_in_the_open_and_scores_no_hit(gang):
    """Clauses: GANG-SHOOT, GANG-COVER, GANG-ARC. A target 10" away in the open: 4+ to hit; a 3
    misses. The Firepower die is rolled every time a weapon is fired (a 2: no Ammo check), but a
    miss makes no hit; the target is untouched."""
    engine, state, table = duel(gang)
    after, events = shoot(engine, state, "o", table, Dice(3, 2))
    assert events == [Event(
        "shot", "o", "shoots e with the autogun (in the open, +0 to hit): rolled 3 needing 4+: missed",
        found="e 100% visible, 10.0\" away", producer="line of sight", piece="e", clauses=SHOT_CLAUSES,
        figures={"target": "e", "weapon": "autogun", "cover": "none", "to_hit_modifier": 0, "roll_needed": 4,
                 "dice": [3], "hit": False, "firepower": 2, "hits": 0, "visible_fraction": 1.0},
        rolls=(DiceRoll("to hit", (3,), 3, 4, "failed"), DiceRoll("Firepower", (2,), 2, None, "0 hits")))]
    assert after.model("e") == state.model("e")


def test_GANG_SHOOT_partial_cover_two_rapid_fire_hits_one_saved_one_not(gang):
    """Clauses: GANG-SHOOT, GANG-COVER, GANG-PIN, GANG-AMMO, GANG-WOUND. The target 60% visible is
    in partial cover (-1): 5+; a 5 hits; Firepower 4 gives the autogun "'4-5' = 2 hits". The target
    drops Prone & Pinned. Each hit: STR 3 against TOUGH 3 wounds on 4+ ("4+ STR = TOUGH"); its 5+
    save: the first wound (4) is saved by a 5, the second (4) is not (a 4): one of its 2 wounds is
    lost, no injury die."""
    engine, state, table = duel(gang, FighterStats(save=5, wounds=2), visible=0.6, distance=7.0)
    after, [shot, pinned, wounded] = shoot(engine, state, "o", table, Dice(5, 4, 4, 5, 4, 4))
    assert shot.rules == "shoots e with the autogun (in partial cover, -1 to hit): rolled 5 needing 5+: 2 hits " \
                         "(Firepower 4)"
    assert shot.found == "e 60% visible, 7.0\" away" and shot.piece == "e"
    assert (shot.figures["cover"], shot.figures["to_hit_modifier"], shot.figures["visible_fraction"]) == \
        ("partial", -1, 0.6)
    assert pinned == PINNED
    assert wounded == Event(
        "attack", "e", "takes 1 wound (wound 4 needing 4+, save 5 needing 5+; wound 4 needing 4+, save 4 needing 5+: "
        "unsaved)", piece="o", clauses=("GANG-WOUND",),
        figures={"wounds_lost": 1, "rolls": [roll(4, 4, 5, 5, False), roll(4, 4, 4, 5, True)], "taken_out": False},
        rolls=(WOUND_4_OF_4, DiceRoll("save", (5,), 5, 5, "saved"), WOUND_4_OF_4,
               DiceRoll("save", (4,), 4, 5, "unsaved")))
    assert after.model("e").wounds == 1 and after.model("e").conditions == (PRONE,)


def test_GANG_SHOOT_the_improbable_shot_is_told_with_both_dice(gang):
    """Clause: GANG-SHOOT. BS 5+ at a target in full cover (30% visible, -2): improbable, a 6 then
    the unmodified BS; 6 then 5 hits once (Firepower 2), and the wound roll of 1 fails."""
    engine, state, table = duel(gang, visible=0.3, shooter_stats=FighterStats(ballistic_skill=5))
    after, [shot, pinned, wounded] = shoot(engine, state, "o", table, Dice(6, 5, 2, 1))
    assert shot.rules == "shoots e with the autogun (in full cover, -2 to hit): rolled 6+5 needing 6+ then BS: " \
                         "1 hit (Firepower 2)"
    assert shot.rolls == (DiceRoll("to hit", (6,), 6, 6, "passed"), DiceRoll("to hit at BS", (5,), 5, 5, "passed"),
                          DiceRoll("Firepower", (2,), 2, None, "1 hit"))
    assert pinned == PINNED and wounded.rules == "takes 0 wounds (wound 1 needing 4+)"
    assert after.model("e").wounds == 1


# -- GANG-AMMO: Firepower 1 ----------------------------------------------------------------------

@pytest.mark.parametrize("ammo,empty,verdict", [(4, False, "the weapon holds"),
                                                (3, True, "the autogun is Out of Ammo")])
def test_GANG_AMMO_firepower_1_the_ammo_check_passes_on_the_weapons_ammo_roll(gang, ammo, empty, verdict):
    """Clause: GANG-AMMO. "If a '1' is rolled then make an immediate Ammo check or else weapon is
    Out of Ammo." The autogun's Ammo 4+: a 4 holds (the edge), a 3 empties it."""
    engine, state, table = duel(gang)
    after, [_, check] = shoot(engine, state, "o", table, Dice(3, 1, ammo))
    assert check == Event("condition", "o", f"Firepower 1: Ammo check {ammo} needing 4+: {verdict}",
                          clauses=("GANG-AMMO",), figures={"die": ammo, "needed": 4},
                          rolls=(DiceRoll("Ammo check", (ammo,), ammo, 4, "failed" if empty else "passed"),))
    assert (OUT_OF_AMMO in after.model("o").conditions) == empty


# -- GANG-WOUND: saves and damage -------------------------------------------------------------------

def test_GANG_WOUND_armour_piercing_makes_the_save_harder(gang):
    """Clause: GANG-WOUND. "Then roll armor saves (modified by weapon armor piercing profiles)." An
    autogun with AP -1 against a 5+ save: 6+ needed; a 5 does not save."""
    armour_piercing = variant(gang, weapons={"autogun": {"armour_piercing": -1}})
    engine, state, table = duel(armour_piercing, FighterStats(save=5, wounds=2))
    after, events = shoot(engine, state, "o", table, Dice(4, 2, 4, 5))
    assert events[-1].figures["rolls"] == [roll(4, 4, 5, 6, True)] and after.model("e").wounds == 1


def test_GANG_WOUND_a_failed_wound_roll_takes_no_wound_and_rolls_no_injury_die(gang):
    """Clauses: GANG-WOUND, GANG-INJURY. A hit whose wound roll fails (1, needing 4+) on a fighter
    with 2 wounds: it is pinned, takes no wound and rolls no injury die."""
    engine, state, table = duel(gang, FighterStats(wounds=2))
    after, events = shoot(engine, state, "o", table, Dice(4, 2, 1))
    assert [e.kind for e in events] == ["shot", "condition", "attack"]
    assert events[-1].rules == "takes 0 wounds (wound 1 needing 4+)"
    assert events[-1].figures == {"wounds_lost": 0, "rolls": [roll(1, 4, None, 6, False)], "taken_out": False}
    assert after.model("e").wounds == 2 and after.model("e").conditions == (PRONE,)


# -- GANG-INJURY: the injury dice -----------------------------------------------------------------------

def test_GANG_INJURY_damage_equal_to_the_wounds_rolls_one_injury_die(gang):
    """Clauses: GANG-WOUND, GANG-INJURY. "If a fighter gets reduced to '0' then roll an Injury
    die." A fighter with 2 wounds and no save (7) takes two unsaved autogun hits (Firepower 4):
    reduced to 0, one injury die: a 1, a flesh wound; it lies Prone & Pinned with it."""
    engine, state, table = duel(gang, FighterStats(save=7, wounds=2))
    after, [_, _, wounded, injured] = shoot(engine, state, "o", table, Dice(4, 4, 4, 4, 1))
    assert wounded.rules == "takes 2 wounds (wound 4 needing 4+ no save: unsaved; wound 4 needing 4+ no save: unsaved)"
    assert wounded.figures["wounds_lost"] == 2 and wounded.figures["taken_out"] is False
    assert injured == Event("condition", "e", "injury dice 1 (flesh wound): Prone & Pinned with a flesh wound",
                            piece="o", clauses=("GANG-INJURY",),
                            figures={"dice": [1], "results": ["flesh_wound"], "out_of_action": False},
                            rolls=(DiceRoll("injury", (1,), 1, None, "flesh wound"),))
    assert after.model("e").conditions == (PRONE, FLESH_WOUND) and after.model("e").wounds == 0


def test_GANG_INJURY_each_further_damage_adds_an_injury_die_the_worst_counts(gang):
    """Clause: GANG-INJURY. "Any additional damage gets rolled as additional Injury dice." Three
    unsaved hits (Firepower 6, no save) on a fighter with 2 wounds: 2 injury dice, a 1 (flesh
    wound) and a 4 (serious injury): Seriously Injured, with the flesh wound."""
    engine, state, table = duel(gang, FighterStats(save=7, wounds=2))
    after, [_, _, wounded, injured] = shoot(engine, state, "o", table, Dice(4, 6, 4, 4, 4, 1, 4))
    assert wounded.rules.startswith("takes 3 wounds (") and wounded.figures["wounds_lost"] == 2
    assert injured == Event("condition", "e", "injury dice 1+4 (flesh wound, serious injury): Seriously Injured",
                            piece="o", clauses=("GANG-INJURY",),
                            figures={"dice": [1, 4], "results": ["flesh_wound", "serious_injury"],
                                     "out_of_action": False},
                            rolls=(DiceRoll("injury", (1,), 1, None, "flesh wound"),
                                   DiceRoll("injury", (4,), 4, None, "serious injury")))
    assert after.model("e").conditions == (PRONE, FLESH_WOUND, SERIOUSLY_INJURED) and after.model("e").in_play


def test_GANG_INJURY_out_of_action_is_told_and_scores_the_shooters_gang(gang):
    """Clauses: GANG-WOUND, GANG-INJURY. A 1-wound fighter's 6+ save fails (a 1) and its injury die
    is a 6: Out of Action; the wound event says it was taken out, the Orlocks score 1 (the
    mission)."""
    engine, state, table = duel(gang)
    after, [_, _, wounded, injured, scored] = shoot(engine, state, "o", table, Dice(4, 2, 4, 1, 6))
    assert wounded == Event("attack", "e", "takes 1 wound (wound 4 needing 4+, save 1 needing 6+: unsaved)",
                            piece="o", clauses=("GANG-WOUND",),
                            figures={"wounds_lost": 1, "rolls": [roll(4, 4, 1, 6, True)], "taken_out": True},
                            rolls=(WOUND_4_OF_4, DiceRoll("save", (1,), 1, 6, "unsaved")))
    assert injured == Event("condition", "e", "injury dice 6 (out of action): Out of Action", piece="o",
                            clauses=("GANG-INJURY",),
                            figures={"dice": [6], "results": ["out_of_action"], "out_of_action": True},
                            rolls=(DiceRoll("injury", (6,), 6, None, "out of action"),))
    assert scored == Event("score", "e", "orlock scores 1 for e Out of Action", clauses=("GANG-INJURY",),
                           figures={"gang": "orlock", "points": 1})
    assert not after.model("e").in_play and after.score["orlock"] == 1


def test_GANG_INJURY_a_flesh_wound_pins_a_fighter_not_engaged_whatever_hit_it(gang):
    """Clauses: GANG-WOUND, GANG-INJURY. "If a fighter gets reduced to '0' then roll an Injury die
    ... '1-2' = Flesh Wound": damage reaching a fighter that stands, not Engaged and not yet
    Prone (a shot pins before its damage, GANG-PIN; here the damage comes alone, as the engine's
    ``take_damage`` takes it from any attack): 1 unsaved wound (wound 4 needing 4+, save 5 needing
    6+) takes its 1 wound to 0, one injury die (1 - 1 + 1), a 2: a flesh wound, TOUGH 3 - 1 = 2,
    still above ``out_at_toughness`` 0: it lies Prone & Pinned with the flesh wound."""
    engine, state = game(gang, [fighter("o", "orlock"), fighter("e", "escher", x=10)])
    rolls = [{"wound": 4, "wound_needed": 4, "save": 5, "save_needed": 6, "unsaved": True}]
    after, events = engine.take_damage(state, "e", 1, Dice(2), "o", rolls)
    assert events == [
        Event("attack", "e", "takes 1 wound (wound 4 needing 4+, save 5 needing 6+: unsaved)", piece="o",
              clauses=("GANG-WOUND",), figures={"wounds_lost": 1, "rolls": rolls, "taken_out": False},
              rolls=(WOUND_4_OF_4, DiceRoll("save", (5,), 5, 6, "unsaved"))),
        Event("condition", "e", "injury dice 2 (flesh wound): Prone & Pinned with a flesh wound", piece="o",
              clauses=("GANG-INJURY",), figures={"dice": [2], "results": ["flesh_wound"], "out_of_action": False},
              rolls=(DiceRoll("injury", (2,), 2, None, "flesh wound"),))]
    e = after.model("e")
    assert (e.wounds, e.conditions, e.in_play) == (0, (FLESH_WOUND, PRONE), True)
