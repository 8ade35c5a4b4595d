"""Whole games of any rulebook: the one game loop, automatic and scripted players, replays.

Public API:

- :func:`play_game` (scene, seed, turns, rider, script, replay_path) -> :class:`Replay`;
- :func:`read_replay` / :func:`resimulate` (play a replay's game again and compare bytes);
- :class:`Game` (the loop), :class:`AutoPlayer`, :class:`ScriptedPlayer`;
- :mod:`.step`: the one path of an action (check, a producer's facts, resolve).

Producers: ``physics`` rides each action in PyBullet (imported only then, through
``entropy3d.physics``); ``geometric`` rides it over footprints and levels with no physics engine.
"""

from entropy3d.game.loop import Game
from entropy3d.game.players import AutoPlayer
from entropy3d.game.replay import Replay, ReplayError, read_replay, write_replay
from entropy3d.game.script import ScriptedPlayer, ScriptError, load_script
from entropy3d.game.session import PRODUCERS, play_game, replay_bytes, resimulate, setup_game

__all__ = ["PRODUCERS", "AutoPlayer", "Game", "Replay", "ReplayError", "ScriptError",
           "ScriptedPlayer", "load_script", "play_game", "read_replay", "replay_bytes", "resimulate",
           "setup_game", "write_replay"]
