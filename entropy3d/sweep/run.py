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
import logging
import multiprocessing
import os
import time
import uuid
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


def sweep_jobs(scenes: Iterable[str], games: int, seed: int, turns: int, producer: str) -> list[Job]:
    """``games`` games per scene, seeds ``seed``, ``seed + 1``, ... (the same seeds on every scene)."""
    return [Job(str(scene), seed + k, turns, producer) for scene in scenes for k in range(games)]


def run_sweep(jobs: list[Job], store: ResultStore, client, *,
              on_result: Callable[[GameResult | None], None] | None = None) -> SweepOutcome:
    """Play every job not yet in ``store`` on ``client``'s cluster, storing each as it comes back.

    on_result: called after each game is stored (with None for an adopted replay), for progress.
    """
    from distributed import as_completed

    from entropy3d.sweep.summary import summarize

    outcome = SweepOutcome()
    finished = store.finished()
    pending = []
    for job in jobs:
        if job.key in finished:
            outcome.already += 1
            continue
        replay = store.adoptable(job)
        if replay is None:
            pending.append(job)
            continue
        store.add_rows(job, summarize(replay), 0.0, "adopted")
        outcome.adopted += 1
        if on_result is not None:
            on_result(None)
    tag = uuid.uuid4().hex[:8]
    futures = {client.submit(play_job, job, key=f"{job.name}-{tag}", pure=False): job for job in pending}
    for future in as_completed(futures):
        job = futures.pop(future)
        try:
            result = future.result()
        except Exception as error:  # a game that raised is reported and left for the next run
            outcome.failed.append((job, f"{type(error).__name__}: {error}"))
            continue
        finally:
            future.release()
        store.add(result)
        outcome.played += 1
        if on_result is not None:
            on_result(result)
    return outcome
