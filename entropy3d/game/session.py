"""Setting a game up from files and playing it into a replay: the library side of
``entropy3d demo``.

:func:`play_game` loads the scene (and an optional script), builds the producer and the players
from one seed, plays, and returns the :class:`~entropy3d.game.replay.Replay`; with
``replay_path`` it also writes the replay file atomically. :func:`resimulate` plays a replay's
game again from its header and returns the bytes it would write, to prove determinism.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
from pathlib import Path
from typing import Callable

import numpy as np

from entropy3d.errors import ScriptError
from entropy3d.game.judging import judged
from entropy3d.game.loop import Game
from entropy3d.game.player_kinds import kinds_label, parse_kinds_label
from entropy3d.game.records import ActivationRecord, EndRecord, TurnRecord
from entropy3d.game.replay import (
    Replay,
    ReplayError,
    ReplayHeader,
    ReplayWriter,
    encode,
    file_sha256,
    read_replay,
    scene_file,
)
from entropy3d.game.script import load_script, scene_of, script_problems
from entropy3d.game.seating import Seating
from entropy3d.game.step import Producer
from entropy3d.game.tableview import TableView

PRODUCERS = ("physics", "geometric")


def make_producer(name: str, table, geometry, physics_in_process: bool = False) -> Producer:
    """``physics`` rides every action in a PyBullet world; ``geometric`` over the table's
    footprints and levels, with no physics engine.

    physics_in_process: ride in this process rather than in forked ride workers (for a process
    that may not fork, such as a daemonic worker of a distributed engine); the same bytes either
    way, see :class:`~entropy3d.physics.producer.PhysicsProducer`."""
    if name == "geometric":
        from entropy3d.geometric import GeometricProducer

        return GeometricProducer(table, geometry)
    if name == "physics":
        from entropy3d.physics.producer import PhysicsProducer

        return PhysicsProducer(table, geometry, rides_per_process=None) if physics_in_process \
            else PhysicsProducer(table, geometry)
    raise ValueError(f"unknown producer {name!r}; use one of {', '.join(PRODUCERS)}")


def setup_game(scene: str | Path | None, *, seed: int | None = None, turns: int | None = None,
               producer: str = "physics", script: str | Path | None = None,
               physics_in_process: bool = False, hands=None, kinds=None) -> tuple[Game, ReplayHeader]:
    """A ready-to-play game and the replay header that describes it.

    scene: a scene file (None: the script's scene, else the bundled default scene).
    seed: the dice and the automatic players (None: the script's, else 0). turns: None takes the
    script's, then the scene's. physics_in_process: see :func:`make_producer`. hands: gang -> the
    :class:`~entropy3d.game.hand.HandSeat` of a person playing it (the header's players say
    ``hand:GANG,...``: such a game is rendered, never played again). kinds: gang -> the kind of
    automatic player that plays it (:mod:`~entropy3d.game.player_kinds`; the header's players say
    ``kinds:GANG=KIND,...``; None: ``basic`` at every gang, the header says ``auto``).
    """
    from entropy3d.resources import default_scene
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    game_script, script_path, script_lines = load_script(script) if script is not None else (None, None, {})
    if scene is None and game_script is not None:
        scene = scene_of(game_script, script_path)
    scene = Path(scene) if scene is not None else default_scene()
    table = load_scene(scene)
    geometry = build_table_geometry(table)
    if turns is None and game_script is not None:
        turns = game_script.turns
    turns = int(turns if turns is not None else table.spec.turns)
    if seed is None:
        seed = game_script.seed if game_script is not None and game_script.seed is not None else 0
    dice_seed, players_seed = np.random.SeedSequence(seed).spawn(2)
    from entropy3d.scene.systemrules import system_of

    system = system_of(table, played=True)
    if game_script is not None:
        problems = script_problems(game_script, script_lines, table)
        if problems:
            raise ScriptError(script_path, problems)
    riding = make_producer(producer, table, geometry, physics_in_process)
    hands = dict(hands or {})
    unknown = sorted(set(hands) - set(table.spec.gangs))
    if unknown:
        raise ValueError(f"no gang {', '.join(unknown)} in {scene}; its gangs: {', '.join(table.spec.gangs)}")
    kinds = dict(kinds or {})
    strangers = sorted(set(kinds) - set(table.spec.gangs))
    if strangers:
        raise ValueError(f"no gang {', '.join(strangers)} in {scene}; its gangs: {', '.join(table.spec.gangs)}")
    seating = Seating(table, geometry, riding, producer, players_seed, game_script, script_path, script_lines, hands,
                      kinds)
    game = system_game(system, table, geometry, riding, seating, np.random.default_rng(dice_seed), turns)
    players = f"hand:{','.join(hands)}" if hands else kinds_label(kinds) if kinds else \
        "auto" if script is None else f"script:{script}"
    header = ReplayHeader(scene=str(scene), scene_name=table.name, seed=int(seed), turns=turns, producer=producer,
                          players=players, initial=game.state,
                          scene_sha256=file_sha256(scene), engine_sha256=engine_sha256())
    return game, header


def system_game(system, table, geometry, producer: Producer, seating: Seating, dice: np.random.Generator,
                turns: int | None = None) -> Game:
    """A game of ``system`` (the rulebook played on the scene, :func:`~entropy3d.scene.systemrules.system_of`
    with ``played``) on the one loop: its engine over the
    scene's models' ``stats:`` (with the table's view, for an engine whose table is asked its answers)
    and the players its seating gives each gang."""
    view = TableView(table, geometry)
    engine = scene_engine(system, table, geometry, view)
    return Game(table, geometry, producer, engine, system.seat_players(engine, seating), dice, turns=turns, view=view)


def scene_engine(system, table, geometry, view: TableView):
    """The engine a game of ``system`` (the rulebook played on the scene,
    :func:`~entropy3d.scene.systemrules.system_of` with ``played``) plays on ``table``: the
    system's engine over the scene's models' ``stats:`` and the table's ``view``, with the rulings
    of a rulebook that judges the rides played there (:func:`~entropy3d.game.judging.judged`).
    The one game loop plays it; the viewer previews and rides a typed action with it."""
    from entropy3d.scene.systemrules import model_stats

    # the stats were checked against the rules data on loading; they are the scene's rulebook's, so
    # the rulebook played on the table of one that only judges (the reference cards) gets none
    stats = model_stats(table, system) if system.name == table.spec.system else {}
    return judged(system.engine(stats, table=view, gangs=list(table.spec.gangs)), table, geometry, view)


def play_game(scene: str | Path | None = None, *, seed: int | None = None, turns: int | None = None,
              producer: str = "physics", script: str | Path | None = None, replay_path: str | Path | None = None,
              on_record: Callable[[object], None] | None = None, physics_in_process: bool = False,
              kinds=None) -> Replay:
    """Play a whole game; returns its replay (and writes it to ``replay_path`` if given).

    on_record: called with every record as it is played (progress bars). physics_in_process: see
    :func:`make_producer`. kinds: gang -> player kind, see :func:`setup_game`.
    """
    game, header = setup_game(scene, seed=seed, turns=turns, producer=producer, script=script,
                              physics_in_process=physics_in_process, kinds=kinds)
    writer = ReplayWriter(replay_path) if replay_path is not None else None
    turns_, activations, end = [], [], None
    try:
        if writer is not None:
            writer.write(header)
        for record in game.play():
            if writer is not None:
                writer.write(record)
            if isinstance(record, TurnRecord):
                turns_.append(record)
            elif isinstance(record, ActivationRecord):
                activations.append(record)
            elif isinstance(record, EndRecord):
                end = record
            if on_record is not None:
                on_record(record)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        game.producer.close()
    if writer is not None:
        writer.commit()
    return Replay(header, tuple(turns_), tuple(activations), end)


def replay_bytes(replay: Replay) -> bytes:
    """The exact bytes of a replay file for ``replay``."""
    out = io.StringIO()
    out.write(encode(replay.header))
    records = sorted([*replay.turns, *replay.activations], key=_order_key(replay))
    for record in records:
        out.write(encode(record))
    if replay.end is not None:
        out.write(encode(replay.end))
    return out.getvalue().encode("utf-8")


def _order_key(replay: Replay):
    positions = {}
    for turn in replay.turns:
        positions[id(turn)] = (turn.turn, -1)
    for k, activation in enumerate(replay.activations):
        positions[id(activation)] = (activation.turn, k)
    return lambda record: positions[id(record)]


@functools.cache
def engine_sha256() -> str:
    """Digest of every entropy3d source file and the bundled rules data (what plays a game)."""
    from entropy3d.resources import bundled_dir

    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    files = sorted(package.rglob("*.py")) + sorted(bundled_dir("rules").glob("*.yaml"))
    for path in files:  # by path, not name: several rulebooks' folders hold an engine.py
        root = path.parents[1] if path.suffix == ".yaml" else package.parent  # "rules/x.yaml", "entropy3d/..."
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def resimulate(path: str | Path) -> tuple[bool, bytes]:
    """Play the game of a replay file again from its header; returns (identical, new bytes).

    Raises ReplayError when the scene file, the code or the rules data changed since the replay
    was written (then a difference would prove nothing)."""
    path = Path(path)
    old = read_replay(path)
    header = old.header
    scene = scene_file(old)
    if header.scene_sha256 and file_sha256(scene) != header.scene_sha256:
        raise ReplayError(path, [("header.scene_sha256", 1, f"the scene {scene} changed since this replay "
                                  "was written; it can be rendered, not played again")])
    if header.engine_sha256 and header.engine_sha256 != engine_sha256():
        raise ReplayError(path, [("header.engine_sha256", 1, "this replay was played by a different version of "
                                  "entropy3d or its rules data; it can be rendered, not played again byte for byte")])
    if header.players.startswith("hand:"):
        raise ReplayError(path, [("header.players", 1, f"this game was played by hand ({header.players}); it can be "
                                  "rendered, not played again")])
    script = header.players.split(":", 1)[1] if header.players.startswith("script:") else None
    again = play_game(scene, seed=header.seed, turns=header.turns, producer=header.producer, script=script,
                      kinds=parse_kinds_label(header.players))
    # played from where the scene is now: the header names it as the replay does
    new = replay_bytes(dataclasses.replace(again, header=dataclasses.replace(again.header, scene=header.scene)))
    return new == path.read_bytes(), new
