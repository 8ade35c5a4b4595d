"""The video tests' shared game: the one `entropy3d demo` plays by default, played once for the
folder (tests/conftest.py runs tests/video on one worker)."""

from __future__ import annotations

import pytest

from entropy3d.cli.demo_commands import DEMO_SEED, DEMO_TURNS
from entropy3d.game import play_game
from entropy3d.game.replay import read_replay


@pytest.fixture(scope="session")
def default_demo_path(tmp_path_factory):
    """The replay of the default demo (crossroads, seed 7, 3 turns, physics)."""
    path = tmp_path_factory.mktemp("demo") / "demo.jsonl"
    play_game(None, seed=DEMO_SEED, turns=DEMO_TURNS, producer="physics", replay_path=path)
    return path


@pytest.fixture(scope="session")
def default_demo(default_demo_path):
    return read_replay(default_demo_path)
