"""Sweep benchmark (run on demand, not a test): games per second on a Dask LocalCluster against a
plain single process, in the same run (issue 15; target >= 1.8x on 2 cores).

    python benchmarks/bench_sweep.py [--games 200] [--turns 3] [--producer geometric]
                                     [--floor-games 20] [--workers N] [--scene FILE]

1. The floor: ``--floor-games`` of the sweep's games (spread evenly over its seeds) played one after
   another in this process by the same function a worker runs (``play_job``: set up, play, summarize),
   no Dask; games per second.
2. The sweep: all ``--games`` games through ``run_sweep`` on a fresh loopback ``LocalCluster`` of
   ``--workers`` processes (default: one per core), stored to a temporary results folder as
   ``entropy3d sweep`` does; games per second from the first submission to the last row stored
   (the cluster's start-up, about two seconds, is printed apart).

The machine is shared, so the load average is printed for each phase; the ratio is the figure.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared rows.py
from rows import row  # noqa: E402

TARGET = 1.8


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def floor_rate(jobs) -> float:
    from entropy3d.sweep.run import play_job

    started = time.perf_counter()
    for job in jobs:
        play_job(job)
    return len(jobs) / (time.perf_counter() - started)


def cluster_rate(jobs, workers: int | None) -> tuple[float, float, int]:
    """(games per second, start-up seconds, workers) of the whole sweep on a fresh LocalCluster."""
    from entropy3d.sweep.run import dask_client, run_sweep
    from entropy3d.sweep.store import ResultStore

    started = time.perf_counter()
    with dask_client(workers=workers) as client, tempfile.TemporaryDirectory() as folder:
        count = len(client.scheduler_info()["workers"])
        startup = time.perf_counter() - started
        done = []
        started = time.perf_counter()
        with ResultStore(folder) as store:
            outcome = run_sweep(jobs, store, client, on_result=lambda r: _tick(done, len(jobs)))
        seconds = time.perf_counter() - started
    if outcome.failed or outcome.played != len(jobs):
        raise SystemExit(f"the sweep did not finish: {outcome}")
    return len(jobs) / seconds, startup, count


def _tick(done: list, total: int) -> None:
    done.append(1)
    if len(done) % 10 == 0 or len(done) == total:
        print(f"  {len(done)}/{total} games stored", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--producer", choices=("physics", "geometric"), default="geometric")
    parser.add_argument("--floor-games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scene", default=None, help="scene file [default: the bundled crossroads]")
    args = parser.parse_args()
    from entropy3d.resources import default_scene
    from entropy3d.sweep.run import sweep_jobs

    scene = args.scene or str(default_scene())
    jobs = sweep_jobs([scene], args.games, args.seed, args.turns, args.producer)
    step = max(1, len(jobs) // max(1, args.floor_games))
    sample = jobs[::step][:args.floor_games]
    print(f"{args.games} games of {args.turns} turn(s), {args.producer} producer, {Path(scene).name}; "
          f"{os.cpu_count()} cores")
    print(f"floor: {len(sample)} games in one plain process ({load()})", flush=True)
    single = floor_rate(sample)
    print(f"floor: {single:.3f} games/s ({load()})", flush=True)
    print("sweep on a LocalCluster", flush=True)
    rate, startup, workers = cluster_rate(jobs, args.workers)
    print(f"sweep: {rate:.3f} games/s on {workers} workers, cluster start-up {startup:.1f} s ({load()})")
    result = row(f"sweep {args.games} games of {args.turns} turns ({args.producer})", rate, single,
                 f">= {TARGET}x a single process on 2 cores", "games/s", rate / single >= TARGET)
    print(result)


if __name__ == "__main__":
    main()
