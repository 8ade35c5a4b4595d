"""`entropy3d replay-render REPLAY --action N --png F`: the picture of one stored action, drawn from
the replay's records (no physics runs), the same drawing as the live picture of that record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from entropy3d.activation.picture import draw_picture
from entropy3d.activation.story import RideStory
from entropy3d.game import play_game, read_replay
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.words import Names

PROVING_GROUND = Path(__file__).resolve().parents[1] / "physics" / "data" / "proving_ground.yaml"

#: runs the CLI in a fresh interpreter and says whether pybullet was ever imported
NO_PHYSICS = """
import sys
from entropy3d.cli import app
try:
    app(sys.argv[1:], standalone_mode=False)
finally:
    print("pybullet imported:", "pybullet" in sys.modules)
"""


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    play_game(PROVING_GROUND, seed=3, turns=1, producer="physics", replay_path=path)
    return path


def _numbered(game):
    return [(activation, k) for activation in game.activations for k in range(len(activation.actions))]


def test_replay_picture_is_drawn_from_the_records_without_physics(replay, tmp_path):
    game = read_replay(replay)
    actions = _numbered(game)
    number = next(n for n, (a, k) in enumerate(actions, 1) if a.actions[k].ridden and a.actions[k].facts)
    out = tmp_path / "action.png"
    done = subprocess.run([sys.executable, "-c", NO_PHYSICS, "replay-render", str(replay), "--action", str(number),
                           "--png", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "pybullet imported: False" in done.stdout and "wrote" in done.stdout
    activation, index = actions[number - 1]
    table = load_scene(PROVING_GROUND)
    story = RideStory.from_record(activation, index, table.ruleset)
    expected = draw_picture(table, build_table_geometry(table), story, Names.of_table(table), ["south"])
    written = np.asarray(Image.open(out).convert("RGB"), int)
    assert written.shape == np.asarray(expected.image).shape
    assert np.abs(written - np.asarray(expected.image, int)).mean() < 1.0
    assert expected.title[1] in done.stdout


def test_replay_picture_refuses_a_missing_action_and_half_given_options(replay, tmp_path):
    out = tmp_path / "x.png"
    too_far = subprocess.run([sys.executable, "-m", "entropy3d", "replay-render", str(replay), "--action", "999",
                              "--png", str(out)], capture_output=True, text=True)
    assert too_far.returncode == 1 and "the replay has" in too_far.stderr and "Traceback" not in too_far.stderr
    alone = subprocess.run([sys.executable, "-m", "entropy3d", "replay-render", str(replay), "--png", str(out)],
                           capture_output=True, text=True)
    assert alone.returncode == 1 and "--action N and --png FILE go together" in alone.stderr
    assert not out.exists()
