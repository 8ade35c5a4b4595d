"""The full cut's HUD (video/movie.py ``ReplayFilm``): what it says over each record of an activation."""

from __future__ import annotations

from entropy3d.game.session import play_game
from entropy3d.video.movie import ReplayFilm, VideoOptions
from tests.game.test_game_loop import GUNG_HO_LANE


def test_each_gung_ho_attack_is_told_in_its_own_words_at_the_riders_speed(tmp_path):
    """Clause: EC-ACT-GUNGHO. h1's gung-ho ride and its three later attacks are four records of
    one action (index 0). Held on each, the HUD tells that record's own attack (k1, then k2, k1,
    k2, each later one with its +2 stress) and the rider's speed 1: it once told the ride's first
    attack four times (it looked the events up by the action's index, not the record's place) and
    showed speed 0 for a record with no plan."""
    (tmp_path / "lane.yaml").write_text(GUNG_HO_LANE)
    (tmp_path / "s.yaml").write_text(
        "scene: lane.yaml\nseed: 1\nturns: 1\npush: never\nactivations:\n"
        "  - {turn: 1, model: h1, plans: ['gungho s1: straight 16'], "
        "attack: [k1 with chain, k2 with chain, k1 with chain, k2 with chain]}\n")
    replay = play_game(None, script=tmp_path / "s.yaml", turns=1, producer="geometric")
    film = ReplayFilm(replay, VideoOptions(size=(96, 54), cut="full"))
    try:
        activation = next(a for a in replay.activations if a.model_id == "h1")
        bike = activation.state_before.model("h1")
        told = []
        for action in activation.actions:
            info = film._hud(activation, action, bike, "", 0.0, True)
            last = info.lines[-1][0]
            told.append(("k2" if "k2" in last else "k1" if "k1" in last else last, info.active.speed))
            if action is not activation.actions[0]:
                assert any("+2 stress" in sentence for sentence, _ in info.lines), info.lines
    finally:
        film.close()
    assert told == [("k1", 1), ("k2", 1), ("k1", 1), ("k2", 1)]
