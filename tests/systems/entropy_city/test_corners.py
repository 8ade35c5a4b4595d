"""Corners (entropy_city/corners.py, EC-MISSION-CORNERS): zones scored at the end of every turn for the
gang with the most moving riders in them; a parked rider holds nothing (the reading played), or
holds as any other (the rules data's option)."""

from __future__ import annotations

from pathlib import Path

import yaml

from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city.corners import corners_set_up_problems, score_corners
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.table_marks import Zone
from entropy3d.systems.words import Names

RULES_FILE = Path(__file__).resolve().parents[3] / "rules" / "entropy_city.yaml"
YARD = Path(__file__).resolve().parents[2] / "data" / "corners_yard.yaml"
ZONES = (Zone("zone_a", 10, 8, 18, 16), Zone("zone_b", 20, 8, 32, 16))
GANG_OF = {"h1": "hades", "h2": "hades", "k1": "komodo", "k2": "komodo", "law_1": "law"}


def rider(model_id: str, x: float, y: float, **changes) -> ModelState:
    return ModelState(model_id, GANG_OF[model_id], "sportsbike", Pose(x, y, 0.0, 0.0), 1, 0, 3, 10).but(**changes)


def game(turn: int, *models: ModelState) -> State:
    return State(turn=turn, mission="corners", models={m.id: m for m in models}, score={"hades": 0, "komodo": 0},
                 zones=ZONES)


def with_corners(**changes) -> Ruleset:
    raw = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    raw["missions"]["corners"].update(changes)
    return Ruleset.from_mapping(raw, "<test>")


def test_EC_MISSION_CORNERS_most_moving_riders_hold_a_zone_a_tie_and_the_law_hold_nothing(rules):
    """Clause: EC-MISSION-CORNERS. zone_a: Ash and Brakes (Brakes on its corner, x 18 y 16: the
    edges are in) against Viper, 2-1: hades +1. zone_b: Scale alone with a police rider beside it,
    who holds nothing (EC-LAW): komodo +1. Then zone_b with Ash and Viper, 1-1, a tie, and the
    police rider: nobody scores, and no event."""
    state, said = score_corners(game(1, rider("h1", 12, 10), rider("h2", 18, 16), rider("k1", 15, 12),
                                     rider("k2", 25, 12), rider("law_1", 26, 10, law=True)), rules)
    assert state.score == {"hades": 1, "komodo": 1}
    assert [(e.model, e.figures["corner"], e.figures["counts"]) for e in said] == \
        [("h1", "zone_a", {"hades": 2, "komodo": 1}), ("k2", "zone_b", {"komodo": 1})]
    names = Names(riders={"h1": "Ash"}, gangs={"hades": "Hades MC", "komodo": "Komodo"}, gang_of=GANG_OF)
    assert find_system("entropy_city").sentence(said[0], names) == "Hades MC hold zone A: +1 VP to Hades MC"
    tie, nothing = score_corners(game(1, rider("h1", 25, 10), rider("k1", 26, 14),
                                      rider("law_1", 22, 12, law=True)), rules)
    assert tie.score == {"hades": 0, "komodo": 0} and nothing == []


def test_EC_MISSION_CORNERS_parked_riders_hold_nothing_unless_the_option_says_they_count(rules):
    """Clause: EC-MISSION-CORNERS ("harder if you're not allowed to park"): Viper stopped in zone_b
    beside Ash riding: hades +1; with `parked_count: true` (the other reading) a 1-1 tie, nobody;
    with `score_every: 2` turn 1 scores nothing and turn 2 does."""
    riders = (rider("h1", 25, 10), rider("k1", 27, 14, speed=0, stopped=True))
    assert score_corners(game(1, *riders), rules)[0].score == {"hades": 1, "komodo": 0}
    assert score_corners(game(1, *riders), with_corners(parked_count=True))[0].score == {"hades": 0, "komodo": 0}
    every_two = with_corners(score_every=2)
    assert score_corners(game(1, *riders), every_two) == (game(1, *riders), [])
    assert score_corners(game(2, *riders), every_two)[0].score == {"hades": 1, "komodo": 0}


def test_EC_MISSION_CORNERS_a_set_up_with_a_zone_of_no_area_off_the_table_or_twice_is_refused():
    """Clause: EC-MISSION-CORNERS: each problem names its key path."""
    said = corners_set_up_problems([("a", 0, 0, 6, 6), ("a", 5, 5, 5, 9), ("c", 30, 20, 40, 26)], 36, 24)
    assert [key for key, _ in said] == ["corners.zones[1].id", "corners.zones[1].rect", "corners.zones[2].rect"]


def test_EC_MISSION_CORNERS_a_scripted_game_scores_as_worked_out_by_hand(tmp_path):
    """Clause: EC-MISSION-CORNERS. The Corners yard (tests/data/corners_yard.yaml), seed 1, zone_a
    x 10-18 and zone_b x 20-32 (y 8-16). Turn 1 (Komodo won the roll-off): Viper rides 4" + 4"
    west from (34, 14) to (26, 14), in zone_b; Ash 4" + 4" east from (4, 10) to (12, 10), in
    zone_a; Brakes from (4, 3) to (12, 3), below both. End of turn 1: zone_a Hades MC 1-0 (+1),
    zone_b Komodo 1-0 (+1). Turn 2: Ash rides on to (20, 10), zone_b's west edge; Viper stops
    (3", the stop's minimum at speed 1) at (23, 14): still in zone_b but parked, so it holds
    nothing; Brakes to (20, 3). End of turn 2: zone_a empty; zone_b Hades MC 1-0 (Ash): +1.
    Hades MC 2, Komodo 1: Hades MC win."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 2\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 1, model: h2, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 2, model: h1, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 2, model: h2, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 2, model: k1, plans: ['stop s1: straight 3']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    held = [(e.figures["corner"], e.figures["gangs"], e.figures["counts"]) for e in game_events(replay)
            if "EC-MISSION-CORNERS" in e.clauses]
    assert held == [("zone_a", ["hades"], {"hades": 1}), ("zone_b", ["komodo"], {"komodo": 1}),
                    ("zone_b", ["hades"], {"hades": 1})]
    viper = replay.end.state.model("k1")
    assert (viper.pose.x, viper.pose.y, viper.stopped) == (23, 14, True)
    assert (replay.end.score, replay.end.winner) == ({"hades": 2, "komodo": 1}, "hades")
    table = load_scene(YARD)
    title, lines, _ = result_card(replay, table, Names.of_table(table))
    assert title == "Hades MC win"
    assert lines[:4] == ("Corners: +1 VP a corner held at the end of every turn",
                         "most riders in it; parked riders hold nothing", "Hades MC  +2 VP: 2 corners held",
                         "Komodo  +1 VP: 1 corner held")
