"""A sweep's jobs and the games it leaves to play (entropy3d.sweep.run) without a cluster: the jobs
made as they are asked for, how many games go to a cluster at once, which jobs a results folder
still needs, and one game played as a worker plays it. Issue 51: the mutation tool's target
``sweep`` leaves the cluster tests (tests/sweep/test_sweep.py) out, so these were its survivors
(a sweep's jobs naming the scene "None" or no producer) and most of run.py's unreached mutants."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from entropy3d.sweep.run import SweepOutcome, _to_play, in_flight, play_job, sweep_jobs
from entropy3d.sweep.store import Job, ResultStore

TABLE = Path(__file__).resolve().parents[1] / "data" / "small_table.yaml"


def test_a_sweeps_jobs_are_each_scenes_seeds_in_turn_worked_by_hand():
    # two scenes (one given as a path) x three games from seed 10: a.yaml 10, 11, 12, then b.yaml 10, 11, 12
    jobs = sweep_jobs([Path("a.yaml"), "b.yaml"], 3, 10, 2, "physics")
    expected = [Job("a.yaml", 10, 2, "physics"), Job("a.yaml", 11, 2, "physics"), Job("a.yaml", 12, 2, "physics"),
                Job("b.yaml", 10, 2, "physics"), Job("b.yaml", 11, 2, "physics"), Job("b.yaml", 12, 2, "physics")]
    assert len(jobs) == 6 and list(jobs) == expected
    assert [jobs[k] for k in range(6)] == expected
    # negative indices count from the end (-1: b.yaml's seed 12, -6: a.yaml's seed 10); slices as a list's
    assert (jobs[-1], jobs[-6]) == (expected[5], expected[0])
    assert jobs[1:5:2] == [expected[1], expected[3]] and jobs[4:] == expected[4:]
    for outside in (6, -7):
        with pytest.raises(IndexError, match=f"job {outside} of a sweep of 6"):
            jobs[outside]


def test_a_sweep_counts_only_its_own_games_among_those_stored():
    """Of the stored keys below, only (a.yaml, 10, 2, physics), its first seed, (a.yaml, 11, 2, physics)
    and (b.yaml, 12, 2, physics), its last, are jobs of this sweep: the others are another scene, a
    seed before 10 or from 13 on, another length or producer; a key given twice counts once."""
    jobs = sweep_jobs(["a.yaml", "b.yaml"], 3, 10, 2, "physics")
    stored = [("a.yaml", 10, 2, "physics"), ("a.yaml", 11, 2, "physics"), ("b.yaml", 12, 2, "physics"),
              ("b.yaml", 12, 2, "physics"),
              ("c.yaml", 11, 2, "physics"), ("a.yaml", 9, 2, "physics"), ("a.yaml", 13, 2, "physics"),
              ("a.yaml", 11, 3, "physics"), ("a.yaml", 11, 2, "geometric")]
    assert jobs.count_among(stored) == 3


@pytest.mark.parametrize("threads, games", [({}, 4), ({"w1": 1}, 4), ({"w1": 1, "w2": 1}, 4),
                                            ({"w1": 2, "w2": 2, "w3": 1}, 10)])
def test_a_sweep_keeps_two_games_per_worker_thread_on_the_cluster_at_least_four(threads, games):
    # 2 x the threads, at least 4: none, one or two threads -> 4; 2 + 2 + 1 = 5 threads -> 10
    assert in_flight(SimpleNamespace(nthreads=lambda: threads)) == games


@pytest.fixture
def folder(tmp_path):
    """A results folder of a sweep of seeds 1-5 of one turn on a copy of the small table, stopped
    after seed 1 was stored and the replays of seeds 2 and 3 were written without their rows."""
    from entropy3d.game.replay import read_replay
    from entropy3d.game.session import play_game
    from entropy3d.sweep.summary import summarize

    scene = tmp_path / "table.yaml"
    shutil.copy(TABLE, scene)
    jobs = sweep_jobs([str(scene)], 5, 1, 1, "geometric")
    store = ResultStore(tmp_path / "results")
    for job in jobs[:3]:
        play_game(scene, seed=job.seed, turns=1, producer="geometric", replay_path=store.replay_path(job))
    store.add_rows(jobs[0], summarize(read_replay(store.replay_path(jobs[0]))), 2.0, "w1")
    yield jobs, store
    store.close()


def test_a_resumed_sweep_counts_the_stored_game_adopts_the_replays_and_plays_the_rest(folder):
    """Seed 1 is stored (already), the replays of seeds 2 and 3 are whole (adopted: their rows go in
    as played in 0 s by "adopted", and the progress callback hears None for each), seeds 4 and 5
    are left to play, in order."""
    jobs, store = folder
    outcome, heard = SweepOutcome(), []
    todo = list(_to_play(jobs, store, outcome, heard.append))
    assert todo == [jobs[3], jobs[4]]
    assert (outcome.already, outcome.adopted, outcome.played, outcome.failed) == (1, 2, 0, [])
    assert heard == [None, None]
    rows = store.connection.execute("SELECT seed, played_s, worker FROM games ORDER BY seed").fetchall()
    assert rows == [(1, 2.0, "w1"), (2, 0.0, "adopted"), (3, 0.0, "adopted")]
    # asked again, the folder holds three: nothing is adopted twice, and no callback is needed
    again = SweepOutcome()
    assert list(_to_play(jobs, store, again, None)) == [jobs[3], jobs[4]] and (again.already, again.adopted) == (3, 0)


def test_a_game_played_as_a_worker_plays_it_is_the_bytes_the_store_keeps(tmp_path):
    """play_job outside a Dask worker: its replay is the bytes play_game writes for the same job,
    its summary that replay's, the seconds it took no more than the call took, and the worker is
    named by this process's id."""
    from entropy3d.game.replay import read_replay
    from entropy3d.game.session import play_game
    from entropy3d.sweep.summary import summarize

    job = Job(str(TABLE), 6, 1, "geometric")
    started = time.perf_counter()
    result = play_job(job)
    took = time.perf_counter() - started
    play_game(TABLE, seed=6, turns=1, producer="geometric", replay_path=tmp_path / "alone.jsonl")
    assert result.job == job and result.replay == (tmp_path / "alone.jsonl").read_bytes()
    assert result.summary == summarize(read_replay(tmp_path / "alone.jsonl"))
    assert result.worker == f"pid {os.getpid()}" and 0 < result.played_s <= took


def test_a_daemonic_worker_rides_physics_in_its_own_process(monkeypatch):
    """A daemonic process (a Dask worker left daemonic) may not have children (play_job's
    docstring): play_job in such a process rides its physics game in it, forking no ride worker
    (the producer forks them with os.fork, refused here), and the game ends. test_sweep.py plays
    one in a real daemon, in another process, which the mutation tool cannot follow; here this
    process says it is daemonic."""
    import multiprocessing
    from types import SimpleNamespace

    def refused() -> int:
        raise AssertionError("a daemonic process may not have children: no ride worker is forked")

    monkeypatch.setattr(os, "fork", refused)
    monkeypatch.setattr(multiprocessing, "current_process", lambda: SimpleNamespace(daemon=True))
    result = play_job(Job(str(TABLE), 6, 1, "physics"))
    assert result.job.producer == "physics" and result.summary.turns_played == 1  # summarize needs the end record
