"""A sweep's results folder: one replay file per game and one SQLite database of summary rows.

``results/``
    ``sweep.sqlite``: three tables (:data:`SCHEMA`): ``games`` (one row per game: who won, the
    score, attacks, takedowns, jumps, air time, crashes, busts, destructibles smashed, margin,
    closeness, drama), ``riders`` (one row per model per game: gang, bike type, how it ended) and
    ``moments`` (takedowns, crashes, jumps, busts, smashes and hits with where they happened).
    ``replays/<scene>-<producer>-t<turns>-s<seed>.jsonl``: each game's replay, the same bytes
    ``entropy3d demo SCENE --seed SEED --turns TURNS --producer PRODUCER --replay FILE`` writes.

Why SQLite: it is in Python's standard library (no new dependency), a game's rows go in one
transaction (so the table never holds half a game, and a game is finished exactly when its row is
there: that is what makes a sweep resumable), and a designer opens it with the tools they have
(``sqlite3``, ``pandas.read_sql``, DuckDB's ``sqlite`` extension, any spreadsheet's ODBC).
Parquet files cannot be appended to one row at a time without rewriting or a file per game.

Only the process driving the sweep writes here; workers return their results to it. A replay is
written (atomically, :mod:`entropy3d.outputs`) before its row, so a row never points at a missing
or half-written replay; a replay without a row (a sweep stopped between the two) is checked and
adopted on the next run rather than played again.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path

from entropy3d.errors import ResultsFolderError
from entropy3d.outputs import write_atomic
from entropy3d.sweep.summary import GameSummary

DATABASE = "sweep.sqlite"
REPLAYS = "replays"

_GAME_KEY = "scene TEXT NOT NULL, seed INTEGER NOT NULL, turns INTEGER NOT NULL, producer TEXT NOT NULL"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games (
    {_GAME_KEY},
    scene_name TEXT NOT NULL,
    replay TEXT NOT NULL,             -- path of the replay file, relative to the results folder
    winner TEXT NOT NULL,             -- gang id, '' for a draw
    score TEXT NOT NULL,              -- JSON object: gang id -> points
    end_reason TEXT NOT NULL,
    turns_played INTEGER NOT NULL,
    activations INTEGER NOT NULL,
    attacks INTEGER NOT NULL,
    takedowns INTEGER NOT NULL,
    jumps INTEGER NOT NULL,
    air_time_s REAL NOT NULL,         -- seconds in the air on jumps (the producer's trajectory)
    crashes INTEGER NOT NULL,
    busts INTEGER NOT NULL,
    destructibles_smashed INTEGER NOT NULL,
    margin INTEGER NOT NULL,          -- points between the winner and the next gang
    closeness REAL NOT NULL,          -- 1 / (1 + margin)
    drama REAL NOT NULL,              -- entropy3d.sweep.summary: weighted moments + close finish
    objective INTEGER,                -- 1: the mission's own objective reached (entropy_city.objectives), 0: not
    played_s REAL NOT NULL,           -- wall-clock seconds the game took on its worker, to the millisecond
    worker TEXT NOT NULL,             -- where it was played
    PRIMARY KEY (scene, seed, turns, producer)
);
CREATE TABLE IF NOT EXISTS riders (
    {_GAME_KEY},
    model TEXT NOT NULL, gang TEXT NOT NULL, bike_type TEXT NOT NULL,
    status TEXT NOT NULL,             -- riding, out or escaped at the end
    takedowns INTEGER NOT NULL, crashes INTEGER NOT NULL, busts INTEGER NOT NULL, jumps INTEGER NOT NULL,
    PRIMARY KEY (scene, seed, turns, producer, model)
);
CREATE TABLE IF NOT EXISTS moments (
    {_GAME_KEY},
    kind TEXT NOT NULL,               -- takedown, escape, crash, jump, bust, smash, hit
    turn INTEGER NOT NULL,
    activation INTEGER NOT NULL,      -- index of the activation in the replay, from 0
    model TEXT NOT NULL, credited TEXT NOT NULL,
    x_in REAL NOT NULL, y_in REAL NOT NULL,   -- where on the table, inches
    drama REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS moments_game ON moments (scene, seed, turns, producer);
CREATE TABLE IF NOT EXISTS scenes (
    scene TEXT PRIMARY KEY,           -- the scene file as the sweep was given it (the games' key)
    path TEXT NOT NULL,               -- the file it named, absolute: a report run from another folder finds it
    sha256 TEXT NOT NULL              -- its bytes when the first game on it was stored
);
"""


@dataclass(frozen=True)
class Job:
    """One game of a sweep: the scene file as given on the command line (it is written into the
    replay's header, so ``entropy3d demo`` given the same path writes the same bytes), the seed,
    the turns and the producer."""

    scene: str
    seed: int
    turns: int
    producer: str

    @property
    def key(self) -> tuple[str, int, int, str]:
        return (self.scene, self.seed, self.turns, self.producer)

    @property
    def name(self) -> str:
        return f"{Path(self.scene).stem}-{self.producer}-t{self.turns}-s{self.seed}"

    @property
    def replay_name(self) -> str:
        return f"{REPLAYS}/{self.name}.jsonl"


@dataclass(frozen=True)
class GameResult:
    """What a worker sends back: the job, the replay's exact bytes, its summary, the seconds it
    took and the worker's name."""

    job: Job
    replay: bytes
    summary: GameSummary
    played_s: float
    worker: str


#: the summary's fields stored in ``games`` (everything but its moments and riders)
GAME_COLUMNS = ("scene_name", "winner", "score", "end_reason", "turns_played", "activations", "attacks", "takedowns",
                "jumps", "air_time_s", "crashes", "busts", "destructibles_smashed", "margin", "closeness", "drama",
                "objective")


class ResultStore:
    """The results folder (created when missing); see the module docstring."""

    @classmethod
    def existing(cls, folder: str | Path) -> "ResultStore":
        """The store of a folder a sweep wrote (never creates one: a mistyped name is an error)."""
        if not (Path(folder) / DATABASE).is_file():
            raise ResultsFolderError(f"{folder}: no {DATABASE} here; give the --out folder of "
                                     "`entropy3d sweep SCENE --games N --out FOLDER`")
        return cls(folder)

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise ResultsFolderError(f"{self.folder}: a file, not a folder; give --out a folder (made if missing)")
        try:
            (self.folder / REPLAYS).mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a parent that is a file (/dev/null/results), no permission, a full disk
            raise ResultsFolderError(f"{self.folder}: the results folder cannot be made here "
                                     f"({error.strerror}); give --out a folder you can write") from None
        self.database = self.folder / DATABASE
        self.connection = sqlite3.connect(self.database)
        try:
            self.connection.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:  # not a database; or one that may not be written
            # a folder of an older version (no scenes table) that may not be written: read as it is
            if "readonly" not in str(error):
                raise ResultsFolderError(f"{self.database}: {error}; give --out a folder of a sweep, or a new one") \
                    from None
        #: scenes whose file this store has recorded (``scenes`` table) in this process
        self._scenes_known: set[str] = set()
        self._add_objectives()

    def _add_objectives(self) -> None:
        """A folder of a sweep from before games had an ``objective`` column gets it, each game's
        read from its replay (:func:`~entropy3d.sweep.summary.objective_reached`), so its report
        and a resumed sweep count every game alike. A replay that is missing or unreadable leaves
        its game's NULL (the report says how many); a read-only folder is read as it is."""
        from entropy3d.errors import ReplayError
        from entropy3d.game.replay import read_replay
        from entropy3d.sweep.summary import objective_reached

        try:
            if "objective" not in {row[1] for row in self.connection.execute("PRAGMA table_info(games)")}:
                with self.connection:
                    self.connection.execute("ALTER TABLE games ADD COLUMN objective INTEGER")
            missing = self.connection.execute("SELECT scene, seed, turns, producer, replay FROM games "
                                              "WHERE objective IS NULL").fetchall()
            for *key, replay in missing:
                try:
                    reached = objective_reached(read_replay(self.folder / replay))
                except (OSError, ReplayError):
                    continue
                with self.connection:
                    self.connection.execute("UPDATE games SET objective = ? WHERE scene = ? AND seed = ? AND "
                                            "turns = ? AND producer = ?", (int(reached), *key))
        except sqlite3.OperationalError as error:  # a read-only folder: its games keep what they have
            if "readonly" not in str(error):
                raise

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def finished(self) -> set[tuple[str, int, int, str]]:
        """The keys of every game with a row (played and stored)."""
        return {tuple(row) for row in self.connection.execute("SELECT scene, seed, turns, producer FROM games")}

    def scene_file(self, scene: str) -> Path:
        """The file of the sweep's ``scene`` (as its games name it), from any folder: the file the
        sweep recorded when its bytes are unchanged, the path as given from here, else where a
        stored replay of it finds its scene (:func:`~entropy3d.game.replay.scene_file`: beside the
        replays or among the bundled scenes, by name and bytes). ReplayError when none is found,
        naming where it looked; FileNotFoundError when no game of it is stored. A results folder
        made before the store recorded its scenes has no ``scenes`` rows: the other ways stand."""
        from entropy3d.game.replay import file_sha256, read_replay, scene_file

        try:
            recorded = self.connection.execute("SELECT path, sha256 FROM scenes WHERE scene = ?", (scene,)).fetchone()
        except sqlite3.OperationalError:  # a read-only folder of an older version: no scenes table
            recorded = None
        if recorded is not None and Path(recorded[0]).is_file() and file_sha256(recorded[0]) == recorded[1]:
            return Path(recorded[0])
        if Path(scene).is_file():
            return Path(scene)
        game = self.connection.execute("SELECT replay FROM games WHERE scene = ? LIMIT 1", (scene,)).fetchone()
        if game is None:
            raise FileNotFoundError(f"no game of {scene} is stored")
        return scene_file(read_replay(self.folder / game[0]))

    def replay_path(self, job: Job) -> Path:
        return self.folder / job.replay_name

    def add(self, result: GameResult) -> None:
        """Store a finished game: its replay file first (atomically), then its rows in one transaction."""
        write_atomic(self.replay_path(result.job), result.replay)
        self.add_rows(result.job, result.summary, result.played_s, result.worker)

    def add_rows(self, job: Job, summary: GameSummary, played_s: float, worker: str) -> None:
        key = job.key
        row = asdict(summary)
        moments, riders = row.pop("moments"), row.pop("riders")
        row["score"] = json.dumps(row["score"], sort_keys=True)
        row["objective"] = int(row["objective"])
        columns = ["scene", "seed", "turns", "producer", *GAME_COLUMNS, "replay", "played_s", "worker"]
        values = {**row, "scene": key[0], "seed": key[1], "turns": key[2], "producer": key[3],
                  "replay": job.replay_name, "played_s": round(played_s, 3), "worker": worker}
        scene_row = None
        if key[0] not in self._scenes_known:
            from entropy3d.game.replay import file_sha256

            scene_row = (key[0], str(Path(key[0]).resolve()), file_sha256(key[0]))
        with self.connection:
            if scene_row is not None:
                self.connection.execute("INSERT OR IGNORE INTO scenes VALUES (?, ?, ?)", scene_row)
            self.connection.execute(f"INSERT INTO games ({', '.join(columns)}) "
                                    f"VALUES ({', '.join(':' + c for c in columns)})", values)
            self.connection.executemany(
                "INSERT INTO riders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*key, r["model"], r["gang"], r["bike_type"], r["status"], r["takedowns"], r["crashes"], r["busts"],
                  r["jumps"]) for r in riders])
            self.connection.executemany(
                "INSERT INTO moments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*key, m["kind"], m["turn"], m["activation"], m["model"], m["credited"], m["x_in"], m["y_in"],
                  m["drama"]) for m in moments])
        self._scenes_known.add(key[0])  # once its row is in (a failed transaction leaves it to the next game)

    def adoptable(self, job: Job):
        """The replay already in the folder for ``job`` when it is a whole game played as ``job`` asks
        by this version of entropy3d on the scene as it is now (a sweep stopped after writing it but
        before its row); None when there is none or it cannot be trusted (then the game is played)."""
        from entropy3d.errors import ReplayError
        from entropy3d.game.replay import file_sha256, read_replay
        from entropy3d.game.session import engine_sha256

        path = self.replay_path(job)
        if not path.is_file():
            return None
        try:
            replay = read_replay(path)
        except ReplayError:
            return None
        header = replay.header
        if (header.scene, header.seed, header.turns, header.producer) != job.key or header.players != "auto" \
                or replay.end is None or header.engine_sha256 != engine_sha256() \
                or header.scene_sha256 != file_sha256(job.scene):
            return None
        return replay

    def top_games(self, count: int) -> list[dict]:
        """The ``count`` games with the highest drama (ties: scene, then seed), as row dicts."""
        cursor = self.connection.execute("SELECT * FROM games ORDER BY drama DESC, scene, seed LIMIT ?", (count,))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def best_activations(self, game: dict, count: int) -> tuple[int, ...]:
        """The ``count`` activations (replay indices, in play order) of ``game`` with the most drama."""
        rows = self.connection.execute(
            "SELECT activation FROM moments WHERE scene=? AND seed=? AND turns=? AND producer=? "
            "GROUP BY activation ORDER BY SUM(drama) DESC, activation LIMIT ?",
            (game["scene"], game["seed"], game["turns"], game["producer"], count)).fetchall()
        return tuple(sorted(a for (a,) in rows))
