"""The viewer: stepping a replay, overlays, the no-display error, and an offscreen frame."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from entropy3d.game import play_game
from entropy3d.game.timeline import Timeline, ruler_polyline, template_polylines
from entropy3d.geometry import Pose
from entropy3d.scene import load_scene


@pytest.fixture(scope="module")
def replay_file(small_table_path, tmp_path_factory):
    path = tmp_path_factory.mktemp("view") / "game.jsonl"
    play_game(small_table_path, seed=2, turns=2, producer="geometric", replay_path=path)
    return path


def test_timeline_steps_through_every_action_a_model_took(replay_file):
    from entropy3d.game import read_replay
    from entropy3d.game.timeline import Step

    replay = read_replay(replay_file)
    timeline = Timeline(replay, replay.header.initial)
    poses, hidden, active = timeline.poses()
    assert active is None and set(poses) == set(replay.header.initial.models)
    seen = []
    while timeline.index < len(timeline.steps) - 1:
        timeline.next()
        seen.append(timeline.step)
        poses, _, active = timeline.poses()
        activation = replay.activations[timeline.step.activation]
        action = activation.actions[timeline.step.action]
        # a ride starts where its trajectory starts; an action that rides nothing where the model stood
        earlier = [a.model_after.pose for a in activation.actions[:timeline.step.action] if a.model_after is not None]
        start = action.trajectory[0, 1:3] if len(action.trajectory) else \
            (earlier[-1] if earlier else activation.state_before.model(active).pose).xy
        assert active == activation.model_id
        assert np.allclose([poses[active].x, poses[active].y], start, atol=1e-6)
    assert len(seen) == len(timeline.steps) > 0
    # every action but an activation's start and end and an action the model had to pass
    assert seen == [Step(k, j) for k, activation in enumerate(replay.activations)
                    for j, action in enumerate(activation.actions)
                    if action.action.kind not in ("activate", "end", "skip") or len(action.trajectory)]
    end = timeline.duration()
    assert timeline.advance(end + 1.0) is False and timeline.t == pytest.approx(end)
    timeline.previous()
    assert timeline.index == len(timeline.steps) - 2


def test_EC_TMPL_1_templates_are_quarter_arcs_of_their_length(small_table_path):
    """Clause: EC-TMPL-1. The viewer's templates are 90-degree arcs 3, 5 and 7 inches long."""
    ruleset = load_scene(small_table_path).ruleset
    for name, points in template_polylines(Pose(5, 5, 0.0), ruleset):
        length = float(np.linalg.norm(np.diff(points[:, :2], axis=0), axis=1).sum())
        expected = {"tight": 3.0, "medium": 5.0, "wide": 7.0}[name.split("-")[0]]
        assert length == pytest.approx(expected, rel=0.01)
        chord = points[-1, :2] - points[0, :2]
        assert abs(abs(np.degrees(np.arctan2(chord[1], chord[0]))) - 45.0) < 1.0


def test_ruler_has_a_tick_every_inch():
    lines = ruler_polyline(Pose(1, 2, 90.0), length_in=12)
    assert len(lines) == 1 + 13
    assert np.allclose(lines[0][1, :2], [1, 14])


def test_view_without_display_is_a_clear_error(small_table_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run([sys.executable, "-m", "entropy3d", "view", str(small_table_path)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert "no display" in done.stderr and "Traceback" not in done.stderr


def _screenshot(replay_file, out, overlays: str) -> np.ndarray:
    code = ("import sys; from entropy3d.viewer import run_viewer; "
            "run_viewer(sys.argv[1], screenshot=sys.argv[2], steps=2, overlays=sys.argv[3])")
    done = subprocess.run([sys.executable, "-c", code, str(replay_file), str(out), overlays], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    from PIL import Image

    return np.asarray(Image.open(out).convert("RGB")).astype(int)


def _line_pixels(image: np.ndarray) -> int:
    green = (image[..., 1] > 200) & (image[..., 0] < 110) & (image[..., 2] < 110)
    red = (image[..., 0] > 220) & (image[..., 1] < 80) & (image[..., 2] < 80)
    return int(green.sum() + red.sum())


def test_offscreen_viewer_frame_shows_the_table_and_sight_lines(replay_file, tmp_path):
    plain = _screenshot(replay_file, tmp_path / "plain.png", "")
    lines = _screenshot(replay_file, tmp_path / "lines.png", "l")
    assert plain.std() > 20, "a flat frame"
    assert _line_pixels(lines) > _line_pixels(plain) + 30, "toggling l drew no sight line"
