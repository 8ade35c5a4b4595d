"""Replay files: one JSON object per line (JSON Lines), written atomically.

Line 1 is the header (format, version, scene, seed, turns, producer, players, the initial state);
then one line per turn start, per activation (plans, dice, trajectories, snapped results and the
state after it) and a last ``end`` line. Keys are sorted and floats rounded, so the same game
gives the same bytes; a replay holds everything a video needs, so rendering it never runs
physics, and its header holds everything needed to play it again and compare.

Writes go to a temporary file beside the target that is renamed into place only when the game
is complete: an error or Ctrl-C leaves no half file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from entropy3d.errors import ReplayError
from entropy3d.game.records import ActivationRecord, EndRecord, TurnRecord, action_events
from entropy3d.outputs import AtomicFile
from entropy3d.systems.entropy_city.state import State

FORMAT = "entropy3d-replay"
VERSION = 2


@dataclass(frozen=True)
class ReplayHeader:
    """What a game was played with.

    scene: the scene file as given. scene_name: its name. seed: the game's seed. turns: turns
    asked for. producer: ``physics`` or ``geometric``. players: ``auto``, ``script:<path>`` or
    ``hand:<gang>,...`` (gangs a person played, in the viewer).
    initial: the state before turn 1. scene_sha256: digest of the scene file's bytes, so a
    re-simulation can tell a changed scene from a broken promise of determinism.
    engine_sha256: digest of the entropy3d code and rules data that played it, for the same
    reason (a changed physics step gives other trajectories).
    """

    scene: str
    scene_name: str
    seed: int
    turns: int
    producer: str
    players: str
    initial: State
    scene_sha256: str = ""
    engine_sha256: str = ""

    def to_json(self) -> dict:
        return {"type": "header", "format": FORMAT, "version": VERSION, "scene": self.scene,
                "scene_name": self.scene_name, "seed": self.seed, "turns": self.turns, "producer": self.producer,
                "players": self.players, "initial": self.initial.to_json(), "scene_sha256": self.scene_sha256,
                "engine_sha256": self.engine_sha256}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ReplayHeader":
        return cls(data["scene"], data["scene_name"], int(data["seed"]), int(data["turns"]), data["producer"],
                   data["players"], State.from_json(data["initial"]), data.get("scene_sha256", ""),
                   data.get("engine_sha256", ""))


@dataclass(frozen=True, eq=False)
class Replay:
    """A whole replay: the header, the turn starts, the activations in order and the end."""

    header: ReplayHeader
    turns: tuple[TurnRecord, ...]
    activations: tuple[ActivationRecord, ...]
    end: EndRecord | None
    #: the file it was read from (None: a game just played)
    source: Path | None = None

    @property
    def cut_short(self) -> bool:
        """It has no end record: the game that wrote it stopped (was stopped, or its file was cut)
        before the game's end. A writer always ends a whole game with one."""
        return self.end is None

    def cut_short_words(self) -> str:
        """What a command tells of a replay that is :attr:`cut_short` (where it stops)."""
        records = 1 + len(self.turns) + len(self.activations)
        where = f"turn {self.activations[-1].turn}" if self.activations else "its start"
        return (f"{self.source or 'the replay'} is cut short: its {records} record(s) stop in {where} with no end "
                "record (the game that wrote it stopped before its end), so it shows the game only so far")


def game_events(replay: Replay) -> list:
    """Every event of the game: each activation's own (those of one with no actions), then every
    action's in order (:func:`~entropy3d.game.records.action_events`)."""
    return [e for a in replay.activations for e in (a.events if not a.actions else ())] + [
        e for a in replay.activations for j in range(len(a.actions)) for e in action_events(a, j)]


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def scene_file(replay: Replay) -> Path:
    """The scene file ``replay`` was played on.

    The path its header names, as given when it was played (relative to the folder it was played
    in), where that file is there. Otherwise a file of the same name and the same bytes (the
    header's SHA-256) beside the replay file, or among the bundled scenes: a replay sent from
    another machine, or played in another folder, names a path that is not here. Raises
    ReplayError, naming where it looked, when none is found."""
    from entropy3d.resources import bundled_dir

    header = replay.header
    named = Path(header.scene)
    if named.is_file():
        return named
    places = ([replay.source.parent / named.name] if replay.source is not None else []) + \
        [bundled_dir("scenes") / named.name]
    for candidate in places:
        if candidate.is_file() and (not header.scene_sha256 or file_sha256(candidate) == header.scene_sha256):
            return candidate
    where = " or ".join(str(place) for place in places)
    raise ReplayError(replay.source or "replay", [(
        "header.scene", 1, f"the scene this game was played on, {header.scene}, is not there, nor is a file "
        f"{named.name} with the same bytes at {where}; put the scene file back at {header.scene} or beside "
        "the replay")])


def encode(record) -> str:
    """One record as one canonical JSON line (sorted keys, no spaces)."""
    return json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


class ReplayWriter(AtomicFile):
    """Streams records to ``path`` through a temporary file; :meth:`commit` renames it into place.

    Use as a context manager: leaving the block by an exception (or Ctrl-C) deletes the
    temporary file and leaves any earlier file at ``path`` untouched.
    """

    def __init__(self, path: str | Path):
        super().__init__(path, "w", encoding="utf-8", newline="\n")

    def write(self, record) -> None:
        self.stream.write(encode(record))


def write_replay(path: str | Path, header: ReplayHeader, records: Iterable) -> Path:
    """Write a whole replay atomically; ``records`` may be a generator (a game being played)."""
    with ReplayWriter(path) as writer:
        writer.write(header)
        for record in records:
            writer.write(record)
    return Path(path)


def _not_a_number(word: str):
    """JSON's reader takes NaN and Infinity, which no replay writes (its writer refuses them):
    a replay holding one was edited or damaged, and a pose at NaN breaks every picture of it."""
    raise ValueError(f"{word} is not a number a replay holds; the replay was edited or damaged here")


def read_replay(path: str | Path) -> Replay:
    """Read and check a replay file; raises ReplayError naming the line and the problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise ReplayError(path, [("", line, "not a replay: the file is not UTF-8 text (a replay is JSON lines "
                                            "written by `entropy3d demo --replay FILE`)")]) from None
    lines = text.splitlines()
    if not lines:
        raise ReplayError(path, [("", 1, "the file is empty; write a replay with `entropy3d demo --replay FILE`")])
    header = None
    turns, activations, end = [], [], None
    for number, line in enumerate(lines, start=1):
        try:
            data = json.loads(line, parse_constant=_not_a_number)
            if not isinstance(data, dict):
                raise ValueError(f"a record must be a JSON object, not {type(data).__name__}")
            kind = data.get("type")
            if number == 1:
                if kind != "header" or data.get("format") != FORMAT:
                    raise ValueError(f"line 1 is not an {FORMAT} header; is this a replay file?")
                if data.get("version") != VERSION:
                    raise ValueError(f"replay version {data.get('version')!r}; this entropy3d reads {VERSION}")
                header = ReplayHeader.from_json(data)
            elif kind == "turn":
                turns.append(TurnRecord.from_json(data))
            elif kind == "activation":
                activations.append(ActivationRecord.from_json(data))
            elif kind == "end":
                end = EndRecord.from_json(data)
            else:
                raise ValueError(f"unknown record type {kind!r}")
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as error:
            what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
            if isinstance(error, json.JSONDecodeError):
                what = (f"not JSON ({error}); a replay is JSON lines written by `entropy3d demo --replay FILE`"
                        if number == 1 else f"not JSON ({error}): the replay is damaged here")
            raise ReplayError(path, [(f"record {number}", number, what)]) from None
    return Replay(header, tuple(turns), tuple(activations), end, path)


def load_source(source: str | Path | None):
    """(table, geometry, replay or None) for a scene YAML or a replay .jsonl (None: the default
    scene); a replay's table is the scene its header names. The one reader of a SCENE|REPLAY argument."""
    from entropy3d.resources import default_scene
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    path = Path(source) if source is not None else default_scene()
    replay = None
    if path.suffix.lower() == ".jsonl":
        replay = read_replay(path)
        path = scene_file(replay)
    table = load_scene(path)
    return table, build_table_geometry(table), replay
