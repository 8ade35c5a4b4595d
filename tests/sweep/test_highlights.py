"""`entropy3d highlights`: the most dramatic games of a sweep, their best moments, from the stored
replays (issue 15)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

from entropy3d.game.replay import read_replay  # noqa: E402
from entropy3d.sweep.store import ResultStore  # noqa: E402
from entropy3d.sweep.summary import summarize  # noqa: E402
from entropy3d.video import VideoOptions  # noqa: E402
from entropy3d.video.movie import replay_names  # noqa: E402
from entropy3d.video.reel import ReelGame, highlight_segments  # noqa: E402


def test_the_top_games_are_the_most_dramatic_and_their_best_moments_hold_the_most_drama(killed_sweep):
    folder = killed_sweep[0]
    with ResultStore.existing(folder) as store:
        everything = store.top_games(1000)
        top = store.top_games(3)
        assert [g["drama"] for g in top] == sorted((g["drama"] for g in everything), reverse=True)[:3]
        for game in top:
            moments = summarize(read_replay(folder / game["replay"])).moments
            by_activation: dict[int, float] = {}
            for moment in moments:
                by_activation[moment.activation] = by_activation.get(moment.activation, 0.0) + moment.drama
            best = sorted(by_activation, key=lambda a: (-by_activation[a], a))[:2]
            assert store.best_activations(game, 2) == tuple(sorted(best))


def test_the_reel_shows_only_the_chosen_activations_between_the_games_cards(killed_sweep):
    folder = killed_sweep[0]
    with ResultStore.existing(folder) as store:
        game = store.top_games(1)[0]
        chosen = store.best_activations(game, 2)
    replay = read_replay(folder / game["replay"])
    segments = highlight_segments(ReelGame(replay, 1, game["drama"], chosen, ("why",)), VideoOptions(),
                                  replay_names(replay))
    assert segments[0].kind == "title" and segments[-1].kind == "end"
    shown = {s.activation for s in segments[1:-1]}
    assert shown == set(chosen) and all(s.kind in ("action", "skipped") for s in segments[1:-1])


def test_the_highlights_command_renders_a_reel_from_the_stored_replays(killed_sweep, tmp_path):
    from PIL import Image

    folder = killed_sweep[0]
    reel = tmp_path / "reel.gif"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "entropy3d", "highlights", str(folder), "--top", "1", "--moments", "1",
                           "--out", str(reel), "--size", "96x54", "--fps", "10", "--pace", "fast"],
                          capture_output=True, text=True, env=env, timeout=180)
    assert done.returncode == 0, done.stderr
    with ResultStore.existing(folder) as store:
        games = store.top_games(1)
        cut = [ReelGame(read_replay(folder / g["replay"]), k, g["drama"], store.best_activations(g, 1), ())
               for k, g in enumerate(games, 1)]
    options = VideoOptions(size=(96, 54), fps=10).paced("fast")
    frames = sum(s.frames for game in cut for s in highlight_segments(game, options, replay_names(game.replay)))
    step = max(1, round(options.fps / options.gif_fps))
    with Image.open(reel) as gif:  # Pillow merges repeated frames into one longer frame: count the time
        shown_ms = 0
        for k in range(gif.n_frames):
            gif.seek(k)
            shown_ms += gif.info["duration"]
    assert shown_ms == math.ceil(frames / step) * round(1000 * step / options.fps)
    missing = subprocess.run([sys.executable, "-m", "entropy3d", "highlights", str(tmp_path / "nothing")],
                             capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode == 1 and "no sweep.sqlite" in missing.stderr and "Traceback" not in missing.stderr
