"""The sweep tests' shared cluster and sweep: a real loopback LocalCluster of two worker processes,
and a 10-game sweep on the small test table during which a busy worker is SIGKILLed."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

TABLE = str(Path(__file__).resolve().parents[1] / "data" / "small_table.yaml")
GAMES = 10


@pytest.fixture(scope="session")
def client():
    from entropy3d.sweep.run import dask_client

    with dask_client(workers=2) as client:
        yield client


@pytest.fixture(scope="session")
def killed_sweep(client, tmp_path_factory):
    """A 10-game sweep during which the worker playing a game is SIGKILLed after the first result."""
    from entropy3d.sweep.run import run_sweep, sweep_jobs
    from entropy3d.sweep.store import ResultStore

    folder = tmp_path_factory.mktemp("sweep")
    jobs = sweep_jobs([TABLE], GAMES, 100, 2, "geometric")
    killed = {}

    def kill_a_busy_worker(result) -> None:
        if killed:
            return
        busy = [address for address, keys in client.processing().items() if keys]
        if not busy:
            return
        pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.update(address=busy[0], pid=pid)

    with ResultStore(folder) as store:
        outcome = run_sweep(jobs, store, client, on_result=kill_a_busy_worker)
    return folder, jobs, outcome, killed
