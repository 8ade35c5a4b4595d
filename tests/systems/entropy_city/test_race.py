"""Hoon Hour (entropy_city/race.py, EC-MISSION-HOON): the circuit's checkpoints passed in order, a VP
each, the first round winning the race and ending the game."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from entropy3d.core.facts import Facts
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city.race import pass_checkpoints, race_set_up_problems
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.table_marks import Checkpoint
from entropy3d.systems.words import Names

YARD = Path(__file__).resolve().parents[2] / "data" / "hoon_yard.yaml"
GATES = (Checkpoint("gate_a", 14, 12, 2), Checkpoint("gate_b", 26, 12, 2), Checkpoint("finish", 32, 12, 2))


def ride(x0: float, x1: float, y: float = 12.0) -> Facts:
    xs = np.arange(x0, x1 + 1e-9, 0.5)
    rows = np.column_stack([0.1 * np.arange(len(xs)), xs, np.full_like(xs, y), np.zeros_like(xs), np.zeros_like(xs)])
    return Facts(producer="geometric", path_length_in=x1 - x0, progress_in=x1 - x0, completed=True, trajectory=rows)


def race(progress: dict | None = None, **changes) -> State:
    riders = [ModelState("h1", "hades", "sportsbike", Pose(4, 12, 0, 0), 1, 0, 3, 10).but(**changes),
              ModelState("k1", "komodo", "sportsbike", Pose(4, 4, 0, 0), 1, 0, 3, 10)]
    return State(turn=1, mission="hoon_hour", models={m.id: m for m in riders}, score={"hades": 0, "komodo": 0},
                 checkpoints=GATES, progress=progress or {})


def test_EC_MISSION_HOON_checkpoints_count_in_order_and_several_may_be_passed_in_one_ride(rules):
    """Clause: EC-MISSION-HOON. A ride from x 4 to 20 along y 12 meets gate_a's reach (2" + the
    sportsbike's half width 0.83") from x 11.17 (the row at x 11.5 is the first in it): +1 VP.
    The next ride, x 20 to 30, passes gate_b (from x 23.17) and then the finish (from 29.17) in
    one: +1, and +1 +3 for the race won; after that no ride scores."""
    state, said = pass_checkpoints(race(), "h1", ride(4, 20), [], rules)
    assert state.progress == {"h1": 1} and state.score == {"hades": 1, "komodo": 0}
    assert said[0].t_s == ride(4, 20).trajectory[15, 0]  # x 11.5, the first row within reach
    state, said = pass_checkpoints(state, "h1", ride(20, 30), [], rules)
    assert [e.figures["checkpoint"] for e in said] == ["gate_b", "finish"] and said[-1].figures["finished"]
    names = Names(riders={"h1": "Ash"}, gangs={"hades": "Hades MC"}, gang_of={"h1": "hades"})
    assert [find_system("entropy_city").sentence(e, names) for e in said] == \
        ["Ash passes gate B (2 of 3): +1 VP to Hades MC", "Ash wins the race: +4 VP to Hades MC"]
    assert state.progress == {"h1": 3} and state.score == {"hades": 1 + 1 + 4, "komodo": 0}
    assert pass_checkpoints(state, "h1", ride(4, 30), [], rules) == (state, [])  # the race is won


def test_EC_MISSION_HOON_a_checkpoint_out_of_order_is_not_passed_and_the_law_races_not(rules):
    """Clause: EC-MISSION-HOON, EC-LAW. Through gate_b first (x 20 to 28): nothing, its next is
    gate_a; a police rider through gate_a: nothing."""
    state, said = pass_checkpoints(race(), "h1", ride(20, 28), [], rules)
    assert (state.progress, said) == ({}, [])
    assert pass_checkpoints(race(law=True), "h1", ride(4, 20), [], rules)[1] == []


def test_EC_MISSION_HOON_a_circuit_with_a_checkpoint_twice_or_off_the_table_is_refused():
    said = race_set_up_problems([("a", 3, 3), ("a", 10, 10), ("c", 40, 5)], 36, 24)
    assert [key for key, _ in said] == ["hoon_hour.checkpoints[1].id", "hoon_hour.checkpoints[2].at"]


def test_EC_MISSION_HOON_a_scripted_race_scores_as_worked_out_by_hand(tmp_path):
    """Clause: EC-MISSION-HOON. The Hoon yard (tests/data/hoon_yard.yaml), seed 1: gates at x 14,
    26 and the finish at x 32 along y 12, each of radius 2 (reach 2.83" with a sportsbike's half
    width). Turn 1 (Komodo first): Viper rides 8" south from (26, 20) to (26, 12), through gate_b,
    which is not its next (gate_a is): nothing; then 4" on to (26, 8). Ash rides 8" east to
    (12, 12), within gate_a's reach from x 11.17: +1 VP; then 8" to (20, 12). Turn 2: Ash 8" at
    speed 2 to (28, 12) through gate_b (from x 23.17): +1 VP; Viper stops 3" on (26, 5); Ash 4"
    at speed 1 to (32, 12) through the finish (from x 29.17): +1 and +3 VP: Ash wins the race and
    the game is over. Hades MC 6, Komodo 0."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 3\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 8', 's1: straight 8']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 8', 's1: straight 4']}\n"
                      "  - {turn: 2, model: h1, plans: ['s2: straight 8', 's1: straight 4']}\n"
                      "  - {turn: 2, model: k1, plans: ['stop s1: straight 3']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    passed = [(e.model, e.figures["checkpoint"], e.figures["points"]) for e in game_events(replay)
              if "EC-MISSION-HOON" in e.clauses]
    assert passed == [("h1", "gate_a", 1), ("h1", "gate_b", 1), ("h1", "finish", 4)]
    assert replay.end.state.progress == {"h1": 3}
    assert (replay.end.reason, replay.end.score, replay.end.winner) == ("h1 won the race", {"hades": 6, "komodo": 0},
                                                                        "hades")
    table = load_scene(YARD)
    title, lines, _ = result_card(replay, table, Names.of_table(table))
    assert (title, lines[:3]) == ("Hades MC win", ("Hoon Hour: 3 checkpoints x 1 lap; +1 VP each, +3 VP to finish "
                                                   "first", "Hades MC  +6 VP: Ash 3 of 3", "Komodo  +0 VP"))


def test_EC_MISSION_HOON_the_last_gang_on_the_table_rides_on_to_finish_the_race(rules):
    """Clause: EC-MISSION-HOON (DECISION): Viper is out; Ash, the last gang's, races on: the game is
    not over until someone wins the race (or no rider is left)."""
    from entropy3d.systems.entropy_city.missions import game_over

    state = race().with_model(race().model("k1").but(status="out"))
    assert game_over(state, rules) == ""
    won, _ = pass_checkpoints(state, "h1", ride(4, 34), [], rules)
    assert game_over(won, rules) == "h1 won the race"
    assert game_over(state.with_model(state.model("h1").but(status="out")), rules) == "no model left on the table"
