"""The gang battle's nerve (seed 003): the Nerve test (GANG-NERVE), Broken (GANG-BROKEN), Run for
Cover (GANG-RUN) and the Rally test (GANG-RALLY). Hand-worked cases on a hand-made state, scripted
dice and a fake table; each test quotes the seed passage of its clause. Lengths are table inches
between base centres; the rules data is the bundled ``rules/gang_battle.yaml``. The condition and
the action are named by their words here ("broken", "run_for_cover")."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.game.session import play_game
from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.transition import ATTACK, END, FORCED, MOVE, Action
from entropy3d.systems.gang_battle.engine import PRONE, SERIOUSLY_INJURED
from entropy3d.systems.gang_battle.player import GangPlayer
from entropy3d.systems.readings import Sighting
from entropy3d.systems.words import Names, lines
from entropy3d.video.cut import caption
from tests.systems.gang_battle.test_gang_engine import Dice, Table, fighter, game, shoot, sight

BROKEN, RUN_FOR_COVER = "broken", "run_for_cover"


def nerve_events(events):
    return [e for e in events if "GANG-NERVE" in e.clauses]


# -- GANG-NERVE ----------------------------------------------------------------------------------

@pytest.mark.parametrize("helper_prone,broken", [(False, False), (True, True)])
def test_GANG_NERVE_a_friend_within_3_going_down_calls_a_cool_check_or_broken(gang, helper_prone, broken):
    """Clause: GANG-NERVE. "Any fighter that had a friendly within 3" become Seriously Injured or
    Out of Action must pass a Cool check or become Broken. Fighters get +1 for each non-broken
    Standing fighter within 3"." The Orlock's autogun hits e (to-hit 4, Firepower 2: one hit),
    wounds it (4 needing 4+), the save fails (1 needing 6+) and the injury die (4) makes it
    Seriously Injured. e2, 2" from it, tests: 3+3 needing Cool 7+, +1 for e3 Standing 2.5" from
    e2 (passes), nothing for e3 lying Prone (fails: Broken). e3 (4.5" from e) and e4 (Seriously
    Injured, 1" from e: DECISION, already down) make no test."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10), fighter("e2", "escher", x=10, y=2),
              fighter("e3", "escher", x=10, y=4.5, conditions=(PRONE,) if helper_prone else ()),
              fighter("e4", "escher", x=11, wounds=0, conditions=(PRONE, SERIOUSLY_INJURED))]
    engine, state = game(gang, models)
    after, events = shoot(engine, state, "o", Table([sight("o", "e", 1.0)]), Dice(4, 2, 4, 1, 4, 3, 3))
    assert SERIOUSLY_INJURED in after.model("e").conditions
    [test] = nerve_events(events)
    assert test.model == "e2" and test.figures["dice"] == [3, 3] and test.figures["needed"] == 7
    assert test.figures["bonus"] == (0 if helper_prone else 1)
    assert test.figures["broken"] == broken and (BROKEN in after.model("e2").conditions) == broken
    assert all(BROKEN not in after.model(m).conditions for m in ("e", "e3", "e4"))


def test_GANG_NERVE_a_fighter_gone_out_of_action_in_the_end_phase_calls_the_test(gang):
    """Clause: GANG-NERVE. "... become Seriously Injured or Out of Action": the Recovery Test's 6
    (GANG-RECOVERY) takes o Out of Action; o2, 3" away (the edge counts), tests and fails (1+2
    needing 7+): Broken. The Orlocks' bottle check comes first (a 1: 1 + 1 down <= 3, holds); the
    Rally test that ends the End Phase (GANG-RALLY) then tries at once: 2+2, no Standing unbroken
    friend within 3", stays Broken."""
    models = [fighter("o", "orlock", wounds=0, conditions=(PRONE, SERIOUSLY_INJURED)),
              fighter("o2", "orlock", y=3), fighter("o3", "orlock", x=20), fighter("e", "escher", x=40)]
    engine, state = game(gang, models)
    after, events, _ = engine.end_turn(state, Dice(1, 6, 1, 2, 2, 2))
    assert not after.model("o").in_play
    [test] = nerve_events(events)
    assert (test.model, test.figures["fallen"], test.figures["broken"]) == ("o2", "o", True)
    assert BROKEN in after.model("o2").conditions and BROKEN not in after.model("o3").conditions


# -- GANG-BROKEN ---------------------------------------------------------------------------------

def test_GANG_BROKEN_a_broken_fighter_can_only_run_for_cover(gang):
    """Clause: GANG-BROKEN. "Broken: Fighter can only perform Running for Cover (Double) action";
    GANG-RUN: "If Broken, Standing and Active". A Broken fighter may not move or shoot; it may run
    for cover, which a fighter that is not Broken may not; lying Prone (DECISION) it may do nothing,
    not even stand up."""
    models = [fighter("o", "orlock", conditions=(BROKEN,)), fighter("p", "orlock", y=5, conditions=(BROKEN, PRONE)),
              fighter("e", "escher", x=10)]
    engine, state = game(gang, models)
    table = Table([sight("o", "e", 1.0)])
    for action in (Action(ATTACK, "o"), Action.ride("o", "walk: straight 2"), Action("stand_up", "p")):
        with pytest.raises(IllegalPlanError) as refused:
            engine.check(state, action, table)
        assert refused.value.clause == "GANG-BROKEN"
    assert engine.check(state, Action(RUN_FOR_COVER, "o"), table).kind == RUN_FOR_COVER
    for not_allowed in ("p", "e"):
        with pytest.raises(IllegalPlanError) as refused:
            engine.check(state, Action(RUN_FOR_COVER, not_allowed), table)
        assert refused.value.clause == "GANG-RUN"


def test_GANG_BROKEN_the_automatic_player_runs_for_cover_or_does_nothing(gang):
    """Clause: GANG-BROKEN. The automatic player's Broken fighter asks for its only action, Run for
    Cover, and asks for nothing when even that is refused (Prone: DECISION)."""
    models = [fighter("o", "orlock", conditions=(BROKEN,)), fighter("p", "orlock", y=5, conditions=(BROKEN, PRONE)),
              fighter("e", "escher", x=10)]
    engine, state = game(gang, models)
    player, table = GangPlayer("orlock", engine), Table([sight("o", "e", 1.0)])
    assert player.choose_action(SystemView(state, state.model("o"), engine, table)).kind == RUN_FOR_COVER
    assert player.choose_action(SystemView(state, state.model("p"), engine, table)) is None


# -- GANG-RUN ------------------------------------------------------------------------------------

class WallTable(Table):
    """A fake table with a long wall along y = 3 (inches) between the enemy and the north: an enemy
    standing south of it does not see a fighter north of it (0% visible), one south of it fully."""

    def sightings(self, state, viewer, viewer_pose=None):
        eye = viewer_pose or state.model(viewer).pose
        found = []
        for other in state.models.values():
            if other.gang == state.model(viewer).gang or not other.in_play:
                continue
            hidden = (eye.y < 3) != (other.pose.y < 3)
            found.append(Sighting(viewer, other.id, math.hypot(other.pose.x - eye.x, other.pose.y - eye.y), 0.0,
                                  0.0 if hidden else 1.0))
        return found


def test_GANG_RUN_a_broken_fighter_runs_2d6_away_out_of_enemy_sight(gang):
    """Clause: GANG-RUN. "Run For Cover Double If Broken, Standing and Active move 2D6" away from
    enemies, enemy LOS, and to cover." The Double action rolls 3+4 = 7" and spends both actions;
    the run is the move the rules then force on it, its way picked by the engine: e at (10, 0),
    the Orlock at (0, 0) and a wall along y = 3 that hides whatever stands north of it. It runs
    the whole 7", ends out of the Orlock's sight (north of the wall) and farther from it than it
    started; the producer's walk puts it there and nothing is left forced."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10, conditions=(BROKEN,))]
    engine, state = game(gang, models)
    table = WallTable()
    rolled, [event] = engine.resolve(state, engine.check(state, Action(RUN_FOR_COVER, "e"), table), None, Dice(3, 4))
    runner = rolled.model("e")
    assert runner.actions_taken == 2 and event.figures["run_in"] == 7 and runner.forced_move is not None
    run = engine.check(rolled, Action.forced("e", runner.forced_move), table)
    end = run.move.end_pose
    assert run.move.length_in == pytest.approx(7.0)
    assert end.y > 3 and math.hypot(end.x, end.y) > 10
    walked = Facts("geometric", 7.0, 7.0, True, np.zeros((0, 5)), end_pose=end)
    after, [moved] = engine.resolve(rolled, run, walked, Dice())
    assert after.model("e").pose == end and after.model("e").forced_move is None
    assert moved.clauses == ("GANG-RUN",) and moved.figures["run"]
    with pytest.raises(IllegalPlanError):
        engine.check(after, Action.ride("e", "walk: straight 1"), table)


def test_GANG_RUN_with_nowhere_away_the_fighter_stays(gang):
    """Clause: GANG-RUN. "move 2D6" away from enemies": with every way walled in (the table's walk
    check refuses each walk) the forced run has no move and the fighter stays where it is."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10, conditions=(BROKEN,))]
    engine, state = game(gang, models)
    table = Table(wall=("crate", "wall", 0.5))
    rolled, _ = engine.resolve(state, Action(RUN_FOR_COVER, "e"), None, Dice(1, 1))
    run = engine.check(rolled, Action.forced("e", rolled.model("e").forced_move), table)
    assert run.move is None
    after, [stayed] = engine.resolve(rolled, run, None, Dice())
    assert after.model("e").pose == state.model("e").pose and stayed.figures["length_in"] == 0.0


# -- GANG-RALLY ----------------------------------------------------------------------------------

@pytest.mark.parametrize("friend_prone,rallied", [(False, True), (True, False)])
def test_GANG_RALLY_a_broken_fighter_rallies_on_a_cool_check(gang, friend_prone, rallied):
    """Clause: GANG-RALLY. "Rally Test: Broken fighters can attempt a rally check. Pass Cool Check,
    +1 for each Standing unbroken friendly to clear condition." End Phase, nobody down (no bottle
    check, no recovery): 3+3 needing 7+, +1 for a Standing friend 2" away (DECISION: within 3")
    rallies; with that friend Prone, no bonus, it stays Broken."""
    models = [fighter("o", "orlock", conditions=(BROKEN,)),
              fighter("o2", "orlock", y=2, conditions=(PRONE,) if friend_prone else ()),
              fighter("e", "escher", x=20)]
    engine, state = game(gang, models)
    after, events, _ = engine.end_turn(state, Dice(3, 3))
    [rally] = [e for e in events if "GANG-RALLY" in e.clauses]
    assert rally.figures["bonus"] == (0 if friend_prone else 1) and rally.figures["rallied"] == rallied
    assert (BROKEN in after.model("o").conditions) != rallied
    if rallied:
        assert engine.check(after, Action.ride("o", "walk: straight 1"), Table()).kind == MOVE


# -- in a game -----------------------------------------------------------------------------------

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "gang_fight.yaml"


def test_GANG_NERVE_the_gang_fight_plays_nerve_tests_and_broken_fighters_run():
    """Clauses: GANG-NERVE, GANG-BROKEN, GANG-RUN. The bundled gang fight (seed 3, its four turns,
    the shared geometric producer): fighters near a friend who goes down take Nerve tests; every
    activation that begins Broken takes no action but Run for Cover and the run forced after it;
    each run ends farther from the nearest enemy than it began."""
    played = play_game(SCENE, seed=3, producer="geometric")
    tests = [e for a in played.activations for r in a.actions if r.attack is not None for e in r.attack.events] + [
        e for a in played.activations for r in a.actions for e in r.events]
    assert nerve_events(tests)
    broken_turns = [a for a in played.activations if a.state_before.model(a.model_id).in_play
                    and BROKEN in a.state_before.model(a.model_id).conditions]
    runs = [(a.state_before, r.model_after) for a in broken_turns for r in a.actions
            if r.action.kind == FORCED and r.action.move is not None]
    assert runs
    for activation in broken_turns:
        assert {r.action.kind for r in activation.actions} <= {RUN_FOR_COVER, FORCED, END}
    for before, after in runs:
        assert nearest_enemy_in(before, after.id, after.pose) > nearest_enemy_in(before, after.id,
                                                                                 before.model(after.id).pose)


def nearest_enemy_in(state, model_id: str, pose) -> float:
    """Inches from ``pose`` to the nearest enemy of ``model_id`` in play in ``state``."""
    gang = state.model(model_id).gang
    return min(math.hypot(pose.x - m.pose.x, pose.y - m.pose.y) for m in state.models.values()
               if m.gang != gang and m.in_play)


# -- the words -----------------------------------------------------------------------------------

def test_GANG_NERVE_the_tests_and_the_run_in_plain_words_name_the_fighters(gang):
    """Clauses: GANG-NERVE, GANG-RALLY, GANG-RUN. The HUD's sentences of the engine's own events
    name the fighters, never by id: the Nerve test (who went down, the dice, the +1, the verdict),
    the Rally test, and the run (its inches, or no cover to run to)."""
    names = Names({"o": "Gorg", "o2": "Harl", "o3": "Vex", "e": "Lyra"}, {"orlock": "Orlocks", "escher": "Eschers"},
                  {"o": "orlock", "o2": "orlock", "o3": "orlock", "e": "escher"})
    models = [fighter("o", "orlock", wounds=0, conditions=(PRONE, SERIOUSLY_INJURED)), fighter("o2", "orlock", y=2),
              fighter("o3", "orlock", y=4), fighter("e", "escher", x=40)]
    engine, state = game(gang, models)
    _, events, _ = engine.end_turn(state, Dice(1, 6, 2, 3, 3, 2))
    said = [sentence for sentence, _ in lines([e for e in events if e.clauses[0] in ("GANG-NERVE", "GANG-RALLY")],
                                              names)]
    assert said == ["Harl: Nerve test as Gorg goes Out of Action, Cool check 2+3 +1 needing 7+ - BROKEN",
                    "Harl: Rally test, Cool check 3+2 +1 needing 7+ - stays BROKEN"]
    run = Event("move", "o2", "runs for cover", clauses=("GANG-RUN",),
                figures={"walked": True, "length_in": 6.0, "run": True})
    stayed = Event("move", "o2", "runs for cover", clauses=("GANG-RUN",),
                   figures={"walked": True, "length_in": 0.0, "run": True})
    assert [s for s, _ in lines([run, stayed], names)] == ["Harl runs for cover 6\"", "Harl finds no cover to run to"]


def test_GANG_RUN_the_film_tells_a_run_for_cover_not_a_walk():
    """Clause: GANG-RUN. The film's caption of a Broken fighter's run says it runs for cover (the
    rulebook's words), not that it walks."""
    names = Names({"o2": "Harl"}, {"orlock": "Orlocks"}, {"o2": "orlock"})
    run = Event("move", "o2", "runs for cover 6.0\" of its 8\"", clauses=("GANG-RUN",),
                figures={"walked": True, "length_in": 6.0, "run": True})
    walk = Event("move", "o2", "moves 3.0\" of its 5\"", clauses=("GANG-MOVE",),
                 figures={"walked": True, "length_in": 3.0})
    assert caption([run], names).text == "Harl runs for cover 6\""
    assert caption([walk], names).text == "Harl (Orlocks) walks 3\""
