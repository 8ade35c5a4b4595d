"""Whole games of Entropy City for demos: the game loop, automatic and scripted players, replays.

Public API:

- :func:`play_game` (scene, seed, turns, rider, script, replay_path) -> :class:`Replay`;
- :func:`read_replay` / :func:`resimulate` (play a replay's game again and compare bytes);
- :class:`Game` (the loop), :class:`AutoPlayer`, :class:`ScriptedPlayer`, :class:`MatchState`.

Riders: ``physics`` rides each action in PyBullet (imported only then, through
``entropy3d.physics``); ``planned`` resolves moves the tabletop way without a physics engine.
"""

from entropy3d.game.loop import Game
from entropy3d.game.players import AutoPlayer
from entropy3d.game.replay import Replay, ReplayError, read_replay, write_replay
from entropy3d.game.script import ScriptedPlayer, ScriptError, load_script
from entropy3d.game.session import RIDERS, play_game, replay_bytes, resimulate, setup_game
from entropy3d.game.state import BikeState, MatchState

__all__ = ["RIDERS", "AutoPlayer", "BikeState", "Game", "MatchState", "Replay", "ReplayError", "ScriptError",
           "ScriptedPlayer", "load_script", "play_game", "read_replay", "replay_bytes", "resimulate",
           "setup_game", "write_replay"]
