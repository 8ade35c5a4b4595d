"""The automatic player and Ambush (EC-TRAIT-AMBUSH): an ambusher whose ambush took control rides
for the rider it holds surprised (entropy3d/game/ambush_goals.py)."""

from __future__ import annotations

from pathlib import Path

from entropy3d.game.ambush_goals import ambush_quarry
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import ModelState, State

YARD = Path(__file__).resolve().parents[1] / "data" / "ambush_yard.yaml"


def test_EC_TRAIT_AMBUSH_the_ambusher_hunts_the_rider_it_holds_surprised_not_the_nearest():
    """Clause: EC-TRAIT-AMBUSH. Viper at (15, 12) with two rivals: Ash 9" away, surprised by its
    ambush, and Bo 2" away: Viper's quarry is Ash alone; with Ash's surprise over, both (the
    nearest then chosen as ever); another ambusher's surprise is not Viper's."""
    viper = ModelState("k1", "komodo", "sportsbike", Pose(15, 12, 180.0), 1, 0, 3, 10, traits=(("ambush", None),))
    ash = ModelState("h1", "hades", "sportsbike", Pose(6, 12, 0.0), 1, 0, 3, 10, ambushed_by="k1")
    bo = ModelState("h2", "hades", "sportsbike", Pose(15, 14, 0.0), 1, 0, 3, 10)
    state = State(turn=1, mission="turf_war", models={m.id: m for m in (viper, ash, bo)})
    assert [m.id for m in ambush_quarry(state, viper, [ash, bo])] == ["h1"]
    assert [m.id for m in ambush_quarry(state, viper, [ash.but(ambushed_by=None), bo])] == ["h1", "h2"]
    assert [m.id for m in ambush_quarry(state, viper, [ash.but(ambushed_by="k9"), bo])] == ["h1", "h2"]


def test_EC_TRAIT_AMBUSH_automatic_players_spring_it_and_strike_the_surprised_rider_at_once():
    """Clause: EC-TRAIT-AMBUSH. Automatic players on the ambush yard, seed 6, 3 turns. Turn 1: Jet
    rides first; Ash's focus ride ends at (14, 12), 2.2" from Viper's true token (15, 14), its base
    clear of the place Viper's takes: Viper's player (no `reveal_on`: the first to come near)
    springs it, Ash rolls 9 + 7 = 16 < 17 and fails, its activation is over after that one action,
    and Viper activates at once (a third activation in a turn of two in the order), rides at Ash
    and strikes it with its chain on its first action, Ash surprised by the ambush (EC-MEL-2). In
    turn 2 Viper is in the order with the rest."""
    from entropy3d.game.session import play_game
    from entropy3d.video.ending import game_events

    replay = play_game(YARD, seed=6, producer="geometric", turns=3)
    assert [t.order for t in replay.turns][:2] == [("k2", "h1"), ("k1", "h1", "k2")]
    [sprung] = [e for e in game_events(replay) if e.figures.get("ambush") == "revealed"]
    assert (sprung.figures["rider"], sprung.figures["surprised"], sprung.figures["distance_in"]) == ("h1", True,
                                                                                                    2.2361)
    turn_1 = [a for a in replay.activations if a.turn == 1]
    assert [(a.model_id, len(a.actions)) for a in turn_1] == [("k2", 2), ("h1", 1), ("k1", 2)]
    strike = turn_1[2].actions[0].attack
    assert strike.target == "h1" and "EC-TRAIT-AMBUSH" in strike.clauses
    assert strike.text.startswith("surprised by the ambush: +3 stress, dodge only")
