"""The results folder (entropy3d.sweep.store): one that cannot be made is refused in a line, before
any game is played (issue 49, item 2: a NotADirectoryError traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.errors import ResultsFolderError
from entropy3d.resources import default_scene
from entropy3d.sweep.store import ResultStore


@pytest.mark.parametrize("under", ["/dev/null", "a file"])
def test_a_results_folder_that_cannot_be_made_is_refused_in_a_line(tmp_path, under):
    parent = tmp_path / "notes.txt" if under == "a file" else Path("/dev/null")
    if under == "a file":
        parent.write_text("not a folder")
    out = parent / "results"
    with pytest.raises(ResultsFolderError, match="cannot be made here .*give --out a folder you can write"):
        ResultStore(out)
    result = CliRunner().invoke(app, ["sweep", str(default_scene()), "--games", "1", "--out", str(out)])
    assert result.exit_code != 0 and "the results folder cannot be made here" in result.output, result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == (["notes.txt"] if under == "a file" else [])


@pytest.fixture
def stored_game(tmp_path):
    """A results folder holding one game's replay as a sweep stopped before its rows left it: a
    copy of the small table (so the test may change it), its job, the store and the replay's lines."""
    import shutil

    from entropy3d.game.session import play_game
    from entropy3d.sweep.store import Job

    scene = tmp_path / "table.yaml"
    shutil.copy(Path(__file__).resolve().parents[1] / "data" / "small_table.yaml", scene)
    job = Job(str(scene), 4, 1, "geometric")
    store = ResultStore(tmp_path / "results")
    play_game(scene, seed=4, turns=1, producer="geometric", replay_path=store.replay_path(job))
    yield scene, job, store, store.replay_path(job).read_text().splitlines(keepends=True)
    store.close()


def test_a_whole_replay_of_the_job_is_adopted(stored_game):
    _, job, store, _ = stored_game
    replay = store.adoptable(job)
    assert replay is not None and replay.header.seed == 4 and replay.end is not None


def test_a_replay_cut_short_at_a_record_boundary_is_not_adopted(stored_game):
    """Issue 51: the sweep test's "damaged" replay is cut mid-line, which the reader refuses, so
    dropping ``replay.end is None`` from ``adoptable`` survived; a replay cut between two records
    reads, and only the end-record check keeps a game cut short out of the results."""
    _, job, store, lines = stored_game
    store.replay_path(job).write_text("".join(lines[:-1]))
    assert store.adoptable(job) is None


def test_a_replay_played_on_the_scene_as_it_was_is_not_adopted(stored_game):
    """Issue 51: the ``scene_sha256`` check survived; the scene edited after the game was played
    (one building moved, so its games differ) leaves the replay to be played again."""
    scene, job, store, _ = stored_game
    scene.write_text(scene.read_text().replace("rect: [2, 2, 8, 8]", "rect: [2, 3, 8, 9]"))
    assert store.adoptable(job) is None


def test_a_replay_played_by_other_code_is_not_adopted(stored_game):
    """Issue 51: the ``engine_sha256`` check survived; a replay whose header names other code
    (another version of entropy3d or its rules data) is played again."""
    import json

    _, job, store, lines = stored_game
    header = json.loads(lines[0])
    assert len(header["engine_sha256"]) == 64
    header["engine_sha256"] = "0" * 64
    store.replay_path(job).write_text(json.dumps(header, separators=(",", ":")) + "\n" + "".join(lines[1:]))
    assert store.adoptable(job) is None


@pytest.mark.parametrize("field, value", [("seed", 5), ("turns", 2), ("producer", "physics"),
                                          ("players", "script:plays.yaml")])
def test_a_replay_of_another_game_in_the_jobs_place_is_not_adopted(stored_game, field, value):
    """The mutation tool's survivor in ``adoptable`` (``!= job.key and players != "auto"``): a file
    in the job's place whose header names another seed, length or producer, or a scripted game,
    is not the job's game and is played again, whatever its other fields say."""
    import json

    _, job, store, lines = stored_game
    header = json.loads(lines[0])
    assert header[field] != value
    header[field] = value
    store.replay_path(job).write_text(json.dumps(header, separators=(",", ":")) + "\n" + "".join(lines[1:]))
    assert store.adoptable(job) is None


def test_the_scene_of_a_sweep_is_found_from_another_folder(tmp_path, monkeypatch):
    """Issue 48: the report lost its heat maps when run from another folder than the sweep's. The
    store remembers the file a relative scene path named; without that record (a results folder
    of an older version) the scene is found as a replay finds its own, beside the replays; and
    when it is nowhere, the error names where it looked."""
    import shutil

    from entropy3d.errors import ReplayError
    from entropy3d.game.replay import read_replay
    from entropy3d.game.session import play_game
    from entropy3d.sweep.store import Job
    from entropy3d.sweep.summary import summarize

    played, elsewhere = tmp_path / "played", tmp_path / "elsewhere"
    played.mkdir()
    elsewhere.mkdir()
    shutil.copy(Path(__file__).resolve().parents[1] / "data" / "small_table.yaml", played / "table.yaml")
    monkeypatch.chdir(played)
    job = Job("table.yaml", 3, 1, "geometric")
    other = Job("table.yaml", 4, 1, "geometric")
    with ResultStore(played / "results") as store:
        for game in (job, other):  # two games of one scene: its file recorded once
            play_game("table.yaml", seed=game.seed, turns=1, producer="geometric", replay_path=store.replay_path(game))
            store.add_rows(game, summarize(read_replay(store.replay_path(game))), 1.23456, "here")
        assert store.scene_file("table.yaml") == played / "table.yaml"  # the file recorded
        rows = store.connection.execute("SELECT seed, turns, producer, played_s FROM games ORDER BY seed").fetchall()
        assert rows == [(3, 1, "geometric", 1.235), (4, 1, "geometric", 1.235)]  # played_s to the millisecond
        (score,) = store.connection.execute("SELECT score FROM games WHERE seed = 3").fetchone()
        assert json.loads(score) == summarize(read_replay(store.replay_path(job))).score
        assert store.connection.execute("SELECT scene, path FROM scenes").fetchall() == [
            ("table.yaml", str(played / "table.yaml"))]
    monkeypatch.chdir(elsewhere)
    with ResultStore.existing(played / "results") as store:
        assert store.scene_file("table.yaml") == played / "table.yaml"
        with store.connection:
            store.connection.execute("DELETE FROM scenes")
        with pytest.raises(ReplayError, match="table.yaml"):
            store.scene_file("table.yaml")
        monkeypatch.chdir(played)
        assert store.scene_file("table.yaml") == Path("table.yaml")  # with no record: the path as given, here
        monkeypatch.chdir(elsewhere)
        shutil.copy(played / "table.yaml", store.replay_path(job).parent / "table.yaml")
        assert store.scene_file("table.yaml") == store.replay_path(job).parent / "table.yaml"
        with pytest.raises(FileNotFoundError, match="no game of other.yaml is stored"):
            store.scene_file("other.yaml")


def test_an_older_results_folder_that_may_not_be_written_is_read_as_it_is(stored_game, monkeypatch):
    """A folder of a version before the scenes table, opened read-only (a copy one may not write):
    the store reads it, and finds its scenes the other ways; a file that is no database is refused
    in a line naming it."""
    import sqlite3

    scene, job, store, _ = stored_game
    connect = _an_older_folder_read_only(store, job, "DROP TABLE scenes", monkeypatch)
    with ResultStore.existing(store.folder) as old:
        assert old.finished() == {job.key}
        assert old.scene_file(job.scene) == Path(job.scene)
    monkeypatch.setattr(sqlite3, "connect", connect)
    (store.folder / "sweep.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(ResultsFolderError, match="sweep.sqlite: file is not a database; give --out a folder of a"):
        ResultStore.existing(store.folder)


def test_a_folder_with_no_sweep_and_a_file_for_a_folder_are_refused_with_the_fix(tmp_path):
    with pytest.raises(ResultsFolderError, match="no sweep.sqlite here; give the --out folder of "
                                                 "`entropy3d sweep SCENE --games N --out FOLDER`"):
        ResultStore.existing(tmp_path)
    (tmp_path / "results").write_text("a file")
    with pytest.raises(ResultsFolderError, match="a file, not a folder; give --out a folder"):
        ResultStore(tmp_path / "results")


def test_an_older_results_folder_gets_each_games_objective_from_its_replay(stored_game):
    """Issue 45: a sweep's games say whether the mission's own objective was reached (the
    ``objective`` column). A folder written before the column (a 50-game sweep's, to be reported
    or resumed) gets it on opening, each game's read from its replay as the summary decides it;
    a game whose replay is gone stays NULL (not counted) rather than guessed."""
    from entropy3d.game.replay import read_replay
    from entropy3d.sweep.store import Job
    from entropy3d.sweep.summary import summarize

    scene, job, store, _ = stored_game
    summary = summarize(read_replay(store.replay_path(job)))
    store.add_rows(job, summary, 1.0, "here")
    gone = Job(job.scene, 5, 1, "geometric")  # a row whose replay is not there
    store.add_rows(gone, summary, 1.0, "here")
    with store.connection:
        store.connection.execute("ALTER TABLE games DROP COLUMN objective")
    store.close()
    with ResultStore.existing(store.folder) as old:
        rows = dict(old.connection.execute("SELECT seed, objective FROM games").fetchall())
        assert rows == {4: int(summary.objective), 5: None}
        assert old.finished() == {job.key, gone.key}  # resuming it plays neither again


def test_a_stored_games_objective_is_a_number_and_its_scene_is_recorded_once(stored_game):
    """Issue 51 (mutants of ``add_rows`` the tests let live: the objective stored as NULL, the
    scene's row left out): a game added to the store keeps whether its mission's objective was
    reached as 0 or 1 (the small table plays Turf War: an enemy taken out by an attack), and its
    scene gets one row, with the file's path and digest, however many of its games are added."""
    from entropy3d.game.replay import file_sha256, read_replay
    from entropy3d.sweep.summary import objective_reached, summarize

    scene, job, store, _ = stored_game
    replay = read_replay(store.replay_path(job))
    summary = summarize(replay)
    recorded = [(str(scene), str(scene.resolve()), file_sha256(scene))]
    store.add_rows(job, summary, 1.0, "w")
    assert [tuple(row) for row in store.connection.execute("SELECT scene, path, sha256 FROM scenes")] == recorded
    store.add_rows(type(job)(job.scene, 5, job.turns, job.producer), summary, 1.0, "w")
    stored = store.connection.execute("SELECT seed, objective, typeof(objective) FROM games ORDER BY seed").fetchall()
    reached = int(objective_reached(replay))
    assert [tuple(row) for row in stored] == [(4, reached, "integer"), (5, reached, "integer")]
    assert [tuple(row) for row in store.connection.execute("SELECT scene, path, sha256 FROM scenes")] == recorded


def test_a_game_whose_replay_is_gone_does_not_keep_the_next_from_its_objective(stored_game):
    """Issue 51 (``continue`` -> ``break`` in ``_add_objectives`` lived: the gone replay came last):
    an older folder whose first game has lost its replay still gets the objective of the game
    after it. Seed 3's row (no replay) goes in before seed 4's (the fixture's replay), so they
    are read in that order whether SQLite walks the rows or the key; seed 3 stays NULL, seed 4
    gets 0 or 1 as its replay decides."""
    from entropy3d.game.replay import read_replay
    from entropy3d.sweep.store import Job
    from entropy3d.sweep.summary import objective_reached, summarize

    scene, job, store, _ = stored_game
    replay = read_replay(store.replay_path(job))
    summary = summarize(replay)
    store.add_rows(Job(job.scene, 3, 1, "geometric"), summary, 1.0, "here")  # no replay file of seed 3
    store.add_rows(job, summary, 1.0, "here")
    with store.connection:
        store.connection.execute("ALTER TABLE games DROP COLUMN objective")
    store.close()
    with ResultStore.existing(store.folder) as old:
        rows = old.connection.execute("SELECT seed, objective FROM games ORDER BY seed").fetchall()
    assert rows == [(3, None), (4, int(objective_reached(replay)))]


def test_an_older_folder_without_objectives_that_may_not_be_written_is_read_as_it_is(stored_game, monkeypatch):
    """Issue 51 (the check for a read-only folder in ``_add_objectives`` lived: no test opened one
    that lacks the ``objective`` column): adding the column to a folder one may not write fails
    with SQLite's "attempt to write a readonly database", and the folder is then read as it is,
    its games still finished (a resumed sweep plays none again) and without the column."""

    _, job, store, _ = stored_game
    _an_older_folder_read_only(store, job, "ALTER TABLE games DROP COLUMN objective", monkeypatch)
    with ResultStore.existing(store.folder) as old:
        assert old.finished() == {job.key}
        columns = {row[1] for row in old.connection.execute("PRAGMA table_info(games)")}
    assert "objective" not in columns and "drama" in columns


def _summary(drama: float, moments: tuple = ()):
    """A game's summary made by hand: only its drama and its moments matter to the highlights."""
    from entropy3d.sweep.summary import GameSummary

    return GameSummary("Small test table", "hades", {"hades": 1, "komodo": 0}, "turns", 1, 8, 0, 0, 0, 0.0, 0, 0, 0,
                       1, 0.5, drama, False, moments, ())


def test_the_most_dramatic_games_and_their_best_activations_worked_by_hand(tmp_path):
    """Issue 51 (top_games, best_activations and add were reached only through the cluster's sweep):
    three games stored, drama 5.0 (seed 1), 9.5 (seed 2) and 5.0 (seed 3): the top two are seed 2
    then seed 1 (a tie goes to the lower seed). Seed 2's moments by activation: 0 -> 1.0,
    3 -> 2.0 + 1.5 = 3.5, 5 -> 3.0, 7 -> 3.0; its best two are 3 (3.5) and 5 (3.0, level with 7,
    the earlier activation first), given in play order; seed 1's moment of 10.0 at activation 9
    is another game's. ``add`` writes the replay's bytes where the job's replay belongs."""
    from entropy3d.sweep.store import GameResult, Job
    from entropy3d.sweep.summary import Moment

    def moment(activation: int, drama: float) -> Moment:
        return Moment("crash", 1, activation, "a1", "", 1.0, 2.0, drama)

    scene = str(Path(__file__).resolve().parents[1] / "data" / "small_table.yaml")
    best = (moment(0, 1.0), moment(3, 2.0), moment(3, 1.5), moment(5, 3.0), moment(7, 3.0))
    with ResultStore(tmp_path / "results") as store:
        for seed, drama, moments in ((1, 5.0, (moment(9, 10.0),)), (2, 9.5, best), (3, 5.0, ())):
            job = Job(scene, seed, 1, "geometric")
            store.add(GameResult(job, f"replay of seed {seed}\n".encode(), _summary(drama, moments), 1.5, "w"))
            assert store.replay_path(job).read_bytes() == f"replay of seed {seed}\n".encode()
        top = store.top_games(2)
        assert [(g["seed"], g["drama"], g["replay"]) for g in top] == [
            (2, 9.5, "replays/small_table-geometric-t1-s2.jsonl"),
            (1, 5.0, "replays/small_table-geometric-t1-s1.jsonl")]
        assert [g["seed"] for g in store.top_games(10)] == [2, 1, 3]
        assert store.best_activations(top[0], 2) == (3, 5)
        assert store.best_activations(top[0], 3) == (3, 5, 7)
        assert store.best_activations(top[0], 1) == (3,)
        assert store.best_activations(top[1], 2) == (9,)


def _an_older_folder_read_only(store, job, older: str, monkeypatch):
    """``store`` with ``job``'s game in it, made into an older version's folder by the SQL
    ``older`` and then opened read-only from here on (every sqlite3.connect of the test); returns
    the real connect."""
    import sqlite3

    from entropy3d.game.replay import read_replay
    from entropy3d.sweep.summary import summarize

    store.add_rows(job, summarize(read_replay(store.replay_path(job))), 1.0, "here")
    with store.connection:
        store.connection.execute(older)
    store.close()
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda path: connect(f"file:{path}?mode=ro", uri=True))
    return connect
