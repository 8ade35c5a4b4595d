"""A game's summary (entropy3d.sweep.summary) of a replay made by hand, every figure worked out in
the comments: the moments of attacks (busts, hits, an attack that names no target or made no
events), of rides (a crash off no trajectory, jumps and their air time, smashes), takedowns and
their credit, and the margin, closeness and drama of the end. Issue 51: the mutation tool's
survivors in summary.py, which the played games of test_summary.py never reach (an attack with no
events, a flight still in the air, a game of one gang, a figure past four decimals)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.game.records import AttackRecord
from entropy3d.geometry import Pose
from entropy3d.sweep.summary import activation_moments, summarize
from entropy3d.systems.entropy_city.state import OUT, RIDING, ModelState, State


def rider(model_id: str, gang: str, x: float, y: float, status: str = RIDING) -> ModelState:
    return ModelState(model_id, gang, "bike", Pose(x, y), speed=1, stress=0, wounds=1, max_stress=3, status=status)


def table(*models: ModelState) -> State:
    return State(turn=2, mission="brawl", models={m.id: m for m in models})


#: before: Hades' a1 and a2, Komodo's b1 and b2, all riding
BEFORE = table(rider("a1", "hades", 0, 0), rider("a2", "hades", 20, 0), rider("b1", "komodo", 10, 12),
               rider("b2", "komodo", 30, 5))
#: after a1's activation: a1 at (5, 6); its own gang's a2 and Komodo's b2 out of the game
AFTER = table(rider("a1", "hades", 5, 6), rider("a2", "hades", 21, 1, OUT), rider("b1", "komodo", 10, 12),
              rider("b2", "komodo", 31, 7, OUT))


def flight(launch_t_s: float, land_t_s: float | None):
    return SimpleNamespace(launch_t_s=launch_t_s, land_t_s=land_t_s)


def action(events=(), attack=None, trajectory=None, flights=(), model_after=None):
    """An action record as summary.py reads it: ridden (with facts) when it has a trajectory."""
    rows = np.zeros((0, 5)) if trajectory is None else np.asarray(trajectory, float)
    ridden = trajectory is not None
    return SimpleNamespace(events=tuple(events), attack=attack, trajectory=rows, ridden=ridden,
                           facts=SimpleNamespace(flights=tuple(flights)) if ridden else None, model_after=model_after)


def jump(t_s: float) -> Event:
    return Event("jump", "a1", "jumps", t_s=t_s, figures={"air_time": 0.5})


ACTIONS = (
    # A: no ride (its moments lie where the activation left a1, (5, 6)); a crash; an attack on b1
    # with a bust of b1, a bust naming nobody (a1's own) and a wound
    action(events=[Event("crash", "a1", "crashes", t_s=0.4)],
           attack=AttackRecord("chain", "a1", "b1", (Event("bust", "b1", "busts"), Event("bust", "", "busts"),
                                                     Event("attack", "a1", "hits", figures={"wounds_lost": 1})))),
    # B: an attack that made no events; C: attacks on b1 that took no wound (0 lost, no figures)
    action(attack=AttackRecord("chain", "a1", "b1")),
    action(attack=AttackRecord("chain", "a1", "b1", (Event("attack", "a1", "misses", figures={"wounds_lost": 0}),
                                                     Event("attack", "a1", "misses")))),
    # D: a wound, but the attack names no model on the table: no hit moment (nowhere to put it)
    action(attack=AttackRecord("chain", "a1", "", (Event("attack", "a1", "hits", figures={"wounds_lost": 2}),))),
    # E: a ride along y = 0, 2" a second for 3 s; a jump at 1.5 s (x = 3), a destructible smashed
    # with a test at 0.5 s (x = 1), one pushed aside with no test, a test's risk that is no smash;
    # flights 0.5 -> 1.25 s (0.75 s) and 2.0 s -> still flying when the ride ends at 3.0 s (1.0 s)
    action(events=[jump(1.5), Event("destructible", "a1", "smashes", t_s=0.5, figures={"risk": 2}),
                   Event("destructible", "a1", "pushes", t_s=1.0, figures={}),
                   Event("test", "a1", "tests", t_s=2.0, figures={"risk": 1})],
           trajectory=[[0, 0, 0, 0, 0], [1, 2, 0, 0, 0], [2, 4, 0, 0, 0], [3, 6, 0, 0, 0]],
           flights=[flight(0.5, 1.25), flight(2.0, None)], model_after=rider("a1", "hades", 6, 0)),
    # F: a ride (10, 10) -> (12, 10) in 0.2 s, a jump at 0.1 s (x = 11), a flight of 0.123456 s
    action(events=[jump(0.1)], trajectory=[[0, 10, 10, 0, 0], [0.2, 12, 10, 0, 0]],
           flights=[flight(0.0, 0.123456)], model_after=rider("a1", "hades", 12, 10)),
    # G: ridden with no trajectory recorded: its jump where the action left a1 (5, 6); its flight
    # never landed and the ride has no end time, so it counts up to 0 s: 0 s in the air
    action(events=[jump(0.3)], trajectory=np.zeros((0, 5)), flights=[flight(0.0, None)],
           model_after=rider("a1", "hades", 5, 6)),
)
ACTIVATION = SimpleNamespace(model_id="a1", turn=2, actions=ACTIONS, state_before=BEFORE, state_after=AFTER)

#: (kind, model, credited, x, y, drama): in the order of the actions, then the models taken out
#: in table order; weights takedown 3, jump 2, crash 1.5, smash 1, hit 1, bust 0.5
MOMENTS = [("crash", "a1", "", 5.0, 6.0, 1.5),
           ("bust", "b1", "", 5.0, 6.0, 0.5), ("bust", "a1", "", 5.0, 6.0, 0.5), ("hit", "b1", "", 10.0, 12.0, 1.0),
           ("jump", "a1", "", 3.0, 0.0, 2.0), ("smash", "a1", "", 1.0, 0.0, 1.0),
           ("jump", "a1", "", 11.0, 10.0, 2.0),
           ("jump", "a1", "", 5.0, 6.0, 2.0),
           # a2 took itself out (its own gang's activation): no credit; b2 a rival's: a1's
           ("takedown", "a2", "", 21.0, 1.0, 3.0), ("takedown", "b2", "a1", 31.0, 7.0, 3.0)]
#: 0.75 + (3.0 - 2.0) + 0.123456 + 0 seconds
AIR_S = 1.873456


def test_an_activations_moments_attacks_and_air_time_worked_by_hand():
    moments, attacks, air = activation_moments(3, ACTIVATION)
    assert [(m.kind, m.model, m.credited, m.x_in, m.y_in, m.drama) for m in moments] == MOMENTS
    assert {(m.turn, m.activation) for m in moments} == {(2, 3)}
    assert attacks == 4  # A, B, C and D each made one
    assert air == pytest.approx(AIR_S, abs=1e-9)


def replay(activations, score: dict, turns_played: int):
    end = SimpleNamespace(winner=max(score, key=score.get) if score else "", score=score, reason="turns",
                          turns_played=turns_played, state=AFTER)
    return SimpleNamespace(header=SimpleNamespace(scene_name="Hand yard"), activations=tuple(activations), end=end)


@pytest.fixture
def objective_apart(monkeypatch):
    """The mission's objective is read from every event of a whole replay (entropy_city/objectives.py,
    tested in tests/systems/entropy_city/test_objectives.py and, through stored sweeps, tests/sweep/test_store.py);
    these hand-made records carry only what the counts read (an attack's events hold no words), so
    it is left out here: summarize is asked it of a replay it did not build, and says so."""
    asked = []
    monkeypatch.setattr("entropy3d.sweep.summary.objective_reached", lambda replay: asked.append(replay) or False)
    return asked


def test_a_summary_worked_by_hand(objective_apart):
    game = replay([ACTIVATION], {"komodo": 3, "hades": 5}, turns_played=2)
    summary = summarize(game)
    assert objective_apart == [game] and summary.objective is False
    assert (summary.winner, summary.score, summary.turns_played, summary.activations) == (
        "hades", {"hades": 5, "komodo": 3}, 2, 1)
    assert (summary.attacks, summary.takedowns, summary.jumps, summary.crashes, summary.busts,
            summary.destructibles_smashed) == (4, 2, 3, 1, 2, 1)
    # air time to four decimals: 1.873456 -> 1.8735; margin 5 - 3 = 2, closeness 1/3 -> 0.3333
    assert (summary.air_time_s, summary.margin, summary.closeness) == (1.8735, 2, 0.3333)
    # drama: moments 1.5 + 0.5 + 0.5 + 1 + 2 + 1 + 2 + 2 + 3 + 3 = 16.5; both takedowns in the
    # last turn played (2): + 2 x 2 = 4; air 1 x 1.873456; close finish 4 x 1/3 = 1.333333...
    # = 23.706789 -> 23.7068
    assert summary.drama == 23.7068
    riders = {r.model: (r.gang, r.status, r.takedowns, r.crashes, r.busts, r.jumps) for r in summary.riders}
    assert riders == {"a1": ("hades", RIDING, 1, 1, 1, 3), "a2": ("hades", OUT, 0, 0, 0, 0),
                      "b1": ("komodo", RIDING, 0, 0, 1, 0), "b2": ("komodo", OUT, 0, 0, 0, 0)}


def test_a_game_of_one_scoring_gang_has_no_margin(objective_apart):
    """One gang on the score sheet: no next gang, margin 0, closeness 1, so the drama is the close
    finish alone (4 x 1), no moment being played."""
    summary = summarize(replay([], {"hades": 3}, turns_played=1))
    assert (summary.margin, summary.closeness, summary.drama) == (0, 1.0, 4.0)


def test_a_replay_without_its_end_is_refused_in_words():
    unfinished = SimpleNamespace(header=SimpleNamespace(scene_name="Hand yard"), activations=(), end=None)
    with pytest.raises(ValueError) as refused:
        summarize(unfinished)
    assert str(refused.value) == "the replay has no end record: the game was not finished"
