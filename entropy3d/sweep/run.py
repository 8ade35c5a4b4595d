"""Playing a sweep's games on Dask distributed: an embedded loopback ``LocalCluster`` by default,
or an existing cluster's scheduler.

Each game is one task (:func:`play_job`): the worker plays it headless and sends back the replay's
bytes and its summary; only this process writes to the results folder (:class:`ResultStore`), so a
worker needs the scene files (same paths) but no shared output folder. When a worker dies, Dask
gives its games to another worker; a game's result is stored when it comes back, once, so a
killed worker costs the game it was playing, never a duplicate row.

Why Dask rather than Ray: a game is a 2-20 s pure-Python task with a few hundred kilobytes of
result, so task overhead and data movement do not matter; what does is that ``distributed`` is a
1 MB pure-Python wheel whose ``LocalCluster`` starts inside the command in about two seconds, with
nothing to run beforehand, and that ``--scheduler tcp://HOST:PORT`` is the whole story for a real
cluster (``dask scheduler`` / ``dask worker`` on the machines). Ray brings compiled raylet and GCS
services in a much larger wheel for the same scheduling of independent tasks; it was not installed
or measured here.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from entropy3d.sweep.store import GameResult, Job, ResultStore


def play_job(job: Job) -> GameResult:
    """Play one game headless (on a worker) and return its replay bytes and summary.

    Physics rides go to forked ride workers (bounding PyBullet's memory growth) unless this
    process is daemonic, which may not have children: then they ride in this process (same bytes).
    """
    from entropy3d.game.session import play_game, replay_bytes
    from entropy3d.sweep.summary import summarize

    started = time.perf_counter()
    replay = play_game(job.scene, seed=job.seed, turns=job.turns, producer=job.producer,
                       physics_in_process=multiprocessing.current_process().daemon)
    return GameResult(job, replay_bytes(replay), summarize(replay), time.perf_counter() - started, _worker_name())


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except ValueError:  # not inside a Dask worker
        return f"pid {os.getpid()}"


#: the scheduler's HTTP server without the dashboard, on a port the system picks: with
#: ``dashboard_address=None`` alone, Dask still serves its health and metrics pages on 8787 and,
#: that port taken (a second sweep, a notebook), warns and moves to another
NO_DASHBOARD = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None) -> Iterator:
    """A Dask client: to ``scheduler`` (``tcp://HOST:PORT``) when given, else to a ``LocalCluster``
    started here: ``workers`` processes (default: one per core) of one thread each (a game holds
    the GIL), listening on the loopback interface only, no dashboard. Its workers are not daemonic,
    so they may fork physics ride workers (Dask's nannies read that setting when they start or
    restart a worker, so it holds for the client's lifetime).

    Dask's nannies start workers with ``MALLOC_TRIM_THRESHOLD_=65536`` so that a worker hands freed
    memory back to the system at once; a game frees and takes back small blocks all the time, so
    that setting made the workers fault pages in again: 10% of a game in system time (3.9 million
    minor faults in six games against 51 thousand) and 14% of a sweep's wall time. A game's memory
    is bounded (one game at a time per worker), so the workers keep glibc's own threshold."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler, timeout="20s") as client:
            yield client
        return
    with dask.config.set({"distributed.worker.daemon": False,
                          "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}), \
            LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                         host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR,
                         scheduler_kwargs=NO_DASHBOARD) as cluster, \
            Client(cluster) as client:
        yield client


@dataclass
class SweepOutcome:
    """What a sweep did: games played now, adopted (a replay left without its row by an
    interrupted sweep), already finished before, and the games that failed with their error."""

    played: int = 0
    adopted: int = 0
    already: int = 0
    failed: list[tuple[Job, str]] = field(default_factory=list)


class SweepJobs(Sequence[Job]):
    """``games`` games per scene, seeds ``seed``, ``seed + 1``, ... (the same seeds on every scene),
    made when asked for: a sweep of a billion games holds no list of a billion jobs (``--games
    1000000000`` grew past 1.1 GB before its first game and printed nothing, issue 49)."""

    def __init__(self, scenes: Iterable[str], games: int, seed: int, turns: int, producer: str):
        self.scenes, self.games, self.seed, self.turns, self.producer = \
            tuple(str(scene) for scene in scenes), int(games), int(seed), int(turns), producer

    def __len__(self) -> int:
        return len(self.scenes) * self.games

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(f"job {index} of a sweep of {len(self)}")
        scene, k = divmod(index % len(self), self.games)
        return Job(self.scenes[scene], self.seed + k, self.turns, self.producer)

    def __iter__(self) -> Iterator[Job]:
        for scene in self.scenes:
            for k in range(self.games):
                yield Job(scene, self.seed + k, self.turns, self.producer)

    def count_among(self, keys: Iterable[tuple[str, int, int, str]]) -> int:
        """How many of these jobs' keys are in ``keys`` (the games a store holds), without
        making the jobs."""
        scenes, last = set(self.scenes), self.seed + self.games
        return sum(1 for scene, seed, turns, producer in set(keys)
                   if scene in scenes and self.seed <= seed < last and turns == self.turns
                   and producer == self.producer)


def sweep_jobs(scenes: Iterable[str], games: int, seed: int, turns: int, producer: str) -> SweepJobs:
    """``games`` games per scene, seeds ``seed``, ``seed + 1``, ... (the same seeds on every scene)."""
    return SweepJobs(scenes, games, seed, turns, producer)


def in_flight(client) -> int:
    """How many games a sweep keeps submitted to ``client``'s cluster at once: two for each of its
    worker threads (one playing, one waiting, so no worker idles between games), at least four."""
    return max(4, 2 * sum(client.nthreads().values()))


def run_sweep(jobs: Iterable[Job], store: ResultStore, client, *,
              on_result: Callable[[GameResult | None], None] | None = None,
              window: int | None = None) -> SweepOutcome:
    """Play every job not yet in ``store`` on ``client``'s cluster, storing each as it comes back.

    The jobs are taken as the cluster frees up, at most ``window`` games submitted at once
    (default :func:`in_flight`, asked again as games come back: workers joining a scheduler's
    cluster later get games too), so memory does not grow with the number of games.
    on_result: called after each game is stored (with None for an adopted replay), for progress.
    """
    from distributed import as_completed

    outcome = SweepOutcome()
    todo = _to_play(jobs, store, outcome, on_result)
    tag = uuid.uuid4().hex[:8]
    futures: dict = {}
    running = as_completed()

    def submit_more() -> None:
        room = (window or in_flight(client)) - len(futures)
        for job in itertools.islice(todo, max(0, room)):
            future = client.submit(play_job, job, key=f"{job.name}-{tag}", pure=False)
            futures[future] = job
            running.add(future)

    try:
        submit_more()
        for future in running:
            job = futures.pop(future)
            try:
                result = future.result()
            except Exception as error:  # a game that raised is reported and left for the next run
                outcome.failed.append((job, f"{type(error).__name__}: {error}"))
                result = None
            finally:
                future.release()
            if result is not None:
                store.add(result)
                outcome.played += 1
                if on_result is not None:
                    on_result(result)
            submit_more()  # not in a finally: a stop submits and adopts nothing more
    finally:  # stopped (Ctrl-C, an error storing a game): the games submitted are not played on
        if futures:
            client.cancel(list(futures))
    return outcome


def _to_play(jobs: Iterable[Job], store: ResultStore, outcome: SweepOutcome,
             on_result: Callable[[GameResult | None], None] | None) -> Iterator[Job]:
    """The jobs still to play, one at a time: a stored game is counted as already there, a replay
    an interrupted sweep left without its rows is adopted (its rows stored now)."""
    from entropy3d.sweep.summary import summarize

    finished = store.finished()
    for job in jobs:
        if job.key in finished:
            outcome.already += 1
            continue
        replay = store.adoptable(job)
        if replay is None:
            yield job
            continue
        store.add_rows(job, summarize(replay), 0.0, "adopted")
        outcome.adopted += 1
        if on_result is not None:
            on_result(None)
