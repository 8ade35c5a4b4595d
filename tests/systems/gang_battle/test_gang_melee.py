"""The gang battle's close combat (seed 003): Charge (GANG-CHARGE), the Fight and its reaction
attacks (GANG-CC), Coup de Grace (GANG-COUP) and Retreat (GANG-RETREAT), with the automatic
player's use of them. Hand-worked cases on a hand-made state, scripted dice and a fake table; the
golden cases on the real yard are in tests/systems/data/golden_gang_battle.yaml. Lengths are table
inches between base centres; the rules data is the bundled ``rules/gang_battle.yaml`` (WS 4, STR
3, A 1, INIT 4, MVMT 5, TOUGH 3, 1 wound, save 6+; the fighting knife STR user, AP -1, Dmg 1; the
stub gun a Sidearm, accuracy +1, STR 3, not Rapid Fire). Bases here are 1" across, so they touch
1" centre to centre."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.state import OUT
from entropy3d.systems.entropy_city.transition import ATTACK, FORCED, Action
from entropy3d.systems.gang_battle import FighterStats
from entropy3d.systems.gang_battle.engine import PRONE, SERIOUSLY_INJURED
from entropy3d.systems.gang_battle.player import GangPlayer
from entropy3d.systems.readings import Sighting
from entropy3d.systems.words import Names, lines
from entropy3d.video.cut import caption
from tests.systems.gang_battle.test_gang_engine import Dice, Table, fighter, game

CHARGE, FIGHT, COUP, RETREAT, RUN_FOR_COVER = "charge", "fight", "coup_de_grace", "retreat", "run_for_cover"


def seen(viewer: str, target: str, distance: float, visible: float = 1.0) -> Sighting:
    """What ``viewer`` sees of ``target``: 1" bases, ``visible`` of it, dead ahead."""
    return Sighting(viewer, target, distance, 0.0, visible, viewer_base_in=(1.0, 1.0), target_base_in=(1.0, 1.0))


def engaged(a: str, b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (f"engaged:{b}",), (f"engaged:{a}",)


def walked_to(pose: Pose, length: float, seconds: float = 0.0) -> Facts:
    """A walk's facts: ``length`` inches ending at ``pose``, ``seconds`` long (0: no trajectory)."""
    ridden = np.array([[0.0, 0, 0, 0, 0], [seconds, pose.x, pose.y, pose.z, pose.facing_deg]]) if seconds else \
        np.zeros((0, 5))
    return Facts("geometric", length, length, True, ridden, end_pose=pose)


# -- GANG-CHARGE -----------------------------------------------------------------------------------

def test_GANG_CHARGE_at_a_seriously_injured_enemy_ends_in_the_free_coup_de_grace(gang):
    """Clauses: GANG-CHARGE, GANG-COUP. "Charge Double Move + D3" to Engage and make a free Fight
    or Coup De Grace." e lies Seriously Injured 5" ahead: the gap to base contact is 5 - 1 = 4",
    4 whole inches, straight at it (cos = (25 + 16 - 1) / (2 x 5 x 4) = 1: no turn). The D3 shows
    1: MVMT 5 + 1 = 6 >= 4, it reaches. The charge spends both actions; the walk is the move the
    rules then force ("walk: straight 4"); at its end (2 s into the walk, where the film shows the
    blow) the charger is Engaged with e and finishes it, Out of Action: the Orlocks score 1."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=5, wounds=0, conditions=(PRONE, SERIOUSLY_INJURED))]
    engine, state = game(gang, models)
    table = Table([seen("o", "e", 5.0)])
    checked = engine.check(state, engine.parse_action("o", "charge e"), table)
    assert (checked.kind, checked.target) == (CHARGE, "e")
    rolled, [roll] = engine.resolve(state, checked, None, Dice(1))
    assert roll.figures["reaches"] and roll.figures["need_in"] == 4 and roll.figures["reach_in"] == 6
    assert rolled.model("o").actions_taken == 2 and rolled.model("o").forced_move == "walk: straight 4"
    walk = engine.check(rolled, Action.forced("o", rolled.model("o").forced_move), table)
    assert walk.kind == FORCED and walk.move.length_in == pytest.approx(4.0)
    after, events = engine.resolve(rolled, walk, walked_to(walk.move.end_pose, 4.0, seconds=2.0), Dice())
    assert [(e.kind, e.clauses, e.t_s) for e in events] == [
        ("move", ("GANG-CHARGE",), 0.0), ("condition", ("GANG-COUP", "GANG-CHARGE"), 2.0),
        ("score", ("GANG-INJURY",), 2.0)]
    assert after.model("e").status == OUT and after.score["orlock"] == 1
    assert after.model("o").pose.x == pytest.approx(4.0) and after.model("o").conditions == ()


def test_GANG_CHARGE_ends_on_the_side_clear_of_other_fighters_bases(gang):
    """Clause: GANG-CHARGE (DECISION: whole inches, set off at the angle that ends the walk on the
    contact circle). e 5.5" ahead: 4.5" to contact, 5 whole inches; cos = (30.25 + 25 - 1) /
    (2 x 5.5 x 5) = 0.986: 9.5 degrees off the line, to the left, ending at (4.93, 0.83), 1" from
    e, then turning to face it (atan2(-0.83, 0.57) = -55.4 degrees: 64.9 to the right). With a
    friend x standing at (4.9, 1.3), 0.48" from that end, the charge sets off to the right
    instead, ending at (4.93, -0.83), clear of x's base."""
    for friend, plan in ((None, "walk: pivot left 9.5, straight 5, pivot right 64.9"),
                         ((4.9, 1.3), "walk: pivot right 9.5, straight 5, pivot left 64.9")):
        models = [fighter("o", "orlock"), fighter("e", "escher", x=5.5)]
        models += [fighter("x", "orlock", *friend)] if friend else []
        engine, state = game(gang, models)
        checked = engine.check(state, engine.parse_action("o", "charge e"), Table([seen("o", "e", 5.5)]))
        rolled, _ = engine.resolve(state, checked, None, Dice(3))
        assert rolled.model("o").forced_move == plan


def test_GANG_CHARGE_is_refused_out_of_sight_on_another_level_through_a_wall_or_when_engaged(gang):
    """Clause: GANG-CHARGE (DECISION: at an enemy the charger's eye reaches, on its level, by a walk
    the table allows); GANG-CC: an Engaged fighter may not charge. A friend is no target."""
    models = [fighter("o", "orlock"), fighter("o2", "orlock", y=3), fighter("e", "escher", x=5)]
    engine, state = game(gang, models)

    def refusal(state, table, text="charge e"):
        with pytest.raises(IllegalPlanError) as refused:
            engine.check(state, engine.parse_action("o", text), table)
        return refused.value.clause, refused.value.message

    assert refusal(state, Table([seen("o", "e", 5.0, visible=0.0)])) == (
        "GANG-CHARGE", "o does not see e: a charge needs line of sight")
    high = state.with_model(state.model("e").but(pose=Pose(5, 0, 180, 4.0)))
    assert "e is on another level" in refusal(high, Table([seen("o", "e", 5.0)]))[1]
    clause, message = refusal(state, Table([seen("o", "e", 5.0)], wall=("crate", "wall", 2.0)))
    assert clause == "GANG-CHARGE" and "the charge meets 'crate' 2.0\" along it" in message
    assert refusal(state, Table([seen("o", "e", 5.0)]), "charge o2") == ("GANG-CHARGE", "'o2' is not an enemy of o")
    held_o, held_e = engaged("o", "e")
    held = state.with_model(state.model("o").but(conditions=held_o)).with_model(
        state.model("e").but(conditions=held_e))
    assert refusal(held, Table([seen("o", "e", 5.0)]))[0] == "GANG-CC"


# -- GANG-CC ---------------------------------------------------------------------------------------

def test_GANG_CC_a_knife_and_a_sidearm_dual_wield_the_sidearm_once_without_its_accuracy(gang):
    """Clause: GANG-CC. "Fighters get +1 Attacks for dual wielding ... Sidearms can only be used
    once"; "Sidearm accuracy bonuses are not used while Engaged"; "Pistols used in combat roll
    Firepower dice same as always". o has a stub gun (Sidearm, accuracy +1) and a fighting knife:
    A 1 + 1 = 2 dice, the first with the stub gun at WS 4+ (not 3+): 4, a hit, Firepower 3 (1 hit,
    no Ammo check); the second with the knife, 4+: 6, a hit. The stub gun's hit: wound 4 (STR 3 =
    TOUGH 3: 4+), save 6 (6+): saved. The knife's: wound 5, its AP -1 makes the save 7+: none
    rolled, unsaved: e's wound gone, injury die 6: Out of Action. No one is left to strike back,
    and no one Engaged with o."""
    held_o, held_e = engaged("o", "e")
    models = [fighter("o", "orlock", conditions=held_o), fighter("e", "escher", x=1, facing=180, conditions=held_e)]
    engine, state = game(gang, models, {"o": FighterStats(weapon="stub_gun", melee_weapon="fighting_knife")})
    checked = engine.check(state, engine.parse_action("o", "fight"), Table())
    assert (checked.kind, checked.target) == (FIGHT, "e")
    after, events = engine.resolve(state, checked, None, Dice(4, 3, 6, 4, 6, 5, 6))
    [blow] = [e for e in events if e.figures.get("close_combat")]
    assert [(d["weapon"], d["needed"], d["hit"]) for d in blow.figures["attack_dice"]] == [
        ("stub_gun", 4, True), ("fighting_knife", 4, True)]
    assert blow.figures["attack_dice"][0]["firepower"] == 3 and blow.figures["hits"] == 2
    [wounds] = [e for e in events if "GANG-WOUND" in e.clauses]
    assert [(r["save"], r["save_needed"], r["unsaved"]) for r in wounds.figures["rolls"]] == [
        (6, 6, False), (None, 7, True)]
    assert after.model("e").status == OUT and after.score["orlock"] == 1
    assert after.model("o").conditions == () and after.model("o").basic_taken == (FIGHT,)


def test_GANG_CC_a_broken_foe_strikes_no_reaction_attack_and_a_fight_needs_an_engaged_foe(gang):
    """Clause: GANG-CC. "8. Reaction Attacks - If there are still enemies Standing and Engaged with
    fighter, they get to perform reaction attacks"; DECISION: not a Broken one (it "can only perform
    Running for Cover"). o fights e (Broken): 2, a miss; e, still Standing, strikes no blow back. A
    fighter Engaged with no one may not Fight."""
    held_o, held_e = engaged("o", "e")
    models = [fighter("o", "orlock", conditions=held_o), fighter("x", "orlock", y=5),
              fighter("e", "escher", x=1, facing=180, conditions=held_e + ("broken",))]
    engine, state = game(gang, models)
    after, events = engine.resolve(state, engine.check(state, Action(FIGHT, "o"), Table()), None, Dice(2))
    assert [(e.model, e.figures["hit"]) for e in events] == [("o", False)]
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, Action(FIGHT, "x"), Table())
    assert refused.value.clause == "GANG-CC"


# -- GANG-RUN, engaged ------------------------------------------------------------------------------

def test_GANG_RUN_an_engaged_broken_fighter_makes_an_INIT_test_first(gang):
    """Clauses: GANG-RUN, GANG-CC. "Run For Cover ... IF Engaged, perform INIT to move away else no
    action if failed." e, Broken and Engaged with o: INIT 3 needing 4+: no action (both actions
    spent, nothing forced, still Engaged). Again: INIT 5: it breaks away (no one Engaged any more)
    and rolls its 2D6, 3+4 = 7"."""
    held_o, held_e = engaged("o", "e")
    models = [fighter("o", "orlock", conditions=held_o), fighter("e", "escher", x=1, conditions=held_e + ("broken",))]
    engine, state = game(gang, models)
    run = engine.check(state, Action(RUN_FOR_COVER, "e"), Table())
    stuck, [test] = engine.resolve(state, run, None, Dice(3))
    assert test.figures == {"init": True, "die": 3, "needed": 4, "left": False}
    assert stuck.model("e").forced_move is None and stuck.model("e").actions_taken == 2
    assert "engaged:o" in stuck.model("e").conditions
    away, events = engine.resolve(state, run, None, Dice(5, 3, 4))
    assert [e.clauses for e in events] == [("GANG-RUN",), ("GANG-BROKEN", "GANG-RUN")]
    assert away.model("e").forced_move == "walk: straight 7"
    assert away.model("e").conditions == ("broken",) and away.model("o").conditions == ()


# -- the automatic player ---------------------------------------------------------------------------

def test_GANG_CHARGE_the_automatic_player_charges_when_it_is_worth_it(gang):
    """Clauses: GANG-CHARGE, GANG-COUP, GANG-CC. The automatic player charges a Seriously Injured
    enemy in reach (the free Coup de Grace), and, armed with a knife, an enemy it reaches on a D3 of
    2 or more (4" to contact, MVMT 5 + 2 >= 4); unarmed with a loaded gun it shoots instead. Next to
    a Seriously Injured enemy it finishes it; Engaged with a Standing one it fights."""
    down = fighter("e", "escher", x=5, wounds=0, conditions=(PRONE, SERIOUSLY_INJURED))
    standing = fighter("e", "escher", x=5, facing=180)
    table = Table([seen("o", "e", 5.0)])

    def choice(models, stats=None):
        engine, state = game(gang, models, stats)
        action = GangPlayer("orlock", engine).choose_action(SystemView(state, state.model("o"), engine, table))
        return None if action is None else (action.kind, action.target)

    assert choice([fighter("o", "orlock"), down]) == (CHARGE, "e")
    assert choice([fighter("o", "orlock"), standing], {"o": FighterStats(melee_weapon="fighting_knife")}) == (
        CHARGE, "e")
    assert choice([fighter("o", "orlock"), standing]) == (ATTACK, None)
    next_to = fighter("e", "escher", x=1, wounds=0, conditions=(PRONE, SERIOUSLY_INJURED, "engaged:o"))
    assert choice([fighter("o", "orlock", conditions=("engaged:e",)), next_to]) == (COUP, "e")
    held_o, held_e = engaged("o", "e")
    assert choice([fighter("o", "orlock", conditions=held_o),
                   fighter("e", "escher", x=1, conditions=held_e)]) == (FIGHT, "e")


# -- the scene's stats and the words ----------------------------------------------------------------

def test_GANG_CC_an_unknown_melee_weapon_is_refused_naming_the_ones_there_are(gang):
    """Clause: GANG-CC. A scene's ``melee_weapon:`` must be one of the rules data's ``melee_weapons:``."""
    [(model, key, message)] = gang.stats_rules_problems({"o": FighterStats(melee_weapon="chainsword")})
    assert (model, key) == ("o", "melee_weapon")
    assert message == ("unknown melee weapon 'chainsword'; use one of unarmed, fighting_knife "
                       "(rules/gang_battle.yaml melee_weapons)")
    with pytest.raises(ValueError, match="melee weapon 'chainsword' is not in"):
        gang.profile(FighterStats(melee_weapon="chainsword"))


def test_GANG_CC_the_charge_the_fight_and_the_coup_in_plain_words(gang):
    """Clauses: GANG-CHARGE, GANG-CC, GANG-COUP. The HUD's sentences name the fighters; the film's
    caption of a charge says "charges", not "shoots" or "walks", and tells the free Coup de Grace."""
    names = Names({"o": "Gorg", "e": "Lyra"}, {"orlock": "Orlocks", "escher": "Eschers"})
    charge = Event("condition", "o", "", piece="e", clauses=("GANG-CHARGE",),
                   figures={"charge": True, "target": "e", "die": 2, "reach_in": 7.0, "need_in": 7, "reaches": True})
    walk = Event("move", "o", "", piece="e", clauses=("GANG-CHARGE",),
                 figures={"walked": True, "length_in": 7.0, "charge": True, "engaged": True})
    blow = Event("shot", "o", "", piece="e", clauses=("GANG-CC",),
                 figures={"close_combat": True, "verb": "charges", "target": "e", "hit": True, "hits": 1,
                          "charging": True, "attack_dice": [{"weapon": "unarmed", "dice": [5], "needed": 4},
                                                            {"weapon": "unarmed", "dice": [2], "needed": 4}]})
    coup = Event("condition", "e", "", piece="o", clauses=("GANG-COUP",),
                 figures={"coup_de_grace": True, "by": "o", "out_of_action": True, "free": True})
    assert [s for s, _ in lines([charge, walk, blow, coup], names)] == [
        "Gorg charges Lyra: D3 2, 7\" of the 7\" needed - reaches", "Gorg charges Lyra 7\"",
        "Gorg fights Lyra on the charge: rolled 5, 2 needing 4+: 1 hit",
        "Gorg finishes Lyra with a Coup de Grace: OUT OF ACTION"]
    assert caption([walk, blow], names).text == "Gorg charges Lyra: 1 hit"
    assert caption([walk, blow, coup], names).text == "Gorg charges Lyra: 1 hit, then a Coup de Grace: OUT OF ACTION"
    assert caption([walk], names).text == "Gorg charges Lyra 7\""
