"""The physics worker is replaced once it grew (issue 18, part 8: the whole process tree stays
within 10% of its size in a long session). A forked worker shares its pages with the game's
process until either writes them: the game's process writes some every activation, so a worker's
share of the tree rises within an activation or two and stays there, and replacing it often only
makes the tree saw. It is replaced by its own growth (PyBullet's leftovers), which its resident
memory shows whatever the game's process writes."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest

from entropy3d.physics import producer as producer_module
from entropy3d.physics.producer import PhysicsProducer, resident_mb
from entropy3d.rules.transition import Action, check

BLOB_MB = 64

linux_proc = pytest.mark.skipif(not Path("/proc/self/statm").exists(),
                                reason="a worker's resident memory is read from /proc/PID/statm (Linux)")


@pytest.fixture(scope="module")
def start(proving_ground):
    return dataclasses.replace(proving_ground.table.initial_state(proving_ground.geometry.surface_height), turn=2)


def knock_the_bench(producer, proving_ground, start) -> bytes:
    """The facts of one ride knocking a bench, floats as their exact bits."""
    facts = producer.ride(start, check(start, Action.ride("smasher", "s2: straight 12"), proving_ground.ruleset))
    arrays = np.asarray(facts.trajectory, "<f8").tobytes() + np.asarray(facts.ground, "<f8").tobytes()
    return repr(facts).encode() + arrays


@linux_proc
def test_resident_memory_is_what_the_process_status_says():
    with open("/proc/self/status") as status:
        rss_mb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024.0
    assert abs(resident_mb(os.getpid()) - rss_mb) < 2.0
    assert resident_mb(2 ** 22 + 1) is None  # past Linux's largest process id: no such process


@linux_proc
def test_pages_the_game_writes_do_not_count_as_the_worker_growing(proving_ground, start):
    """Rewriting a 64 MB buffer the worker inherited gives the worker the old copy (copy on write),
    but the worker did not grow: it keeps riding; its resident memory says so, its smaps' private
    pages would not."""
    blob = np.ones(BLOB_MB * 2 ** 20, np.uint8)  # written: resident before the fork
    forked = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=1000,
                             worker_growth_mb=BLOB_MB / 4)
    try:
        first = knock_the_bench(forked, proving_ground, start)
        worker = forked._worker.process.pid
        assert knock_the_bench(forked, proving_ground, start) == first  # reads its first ride's memory
        blob[::4096] = 2  # one byte a page: every page copied for this process, the original the worker's
        with open(f"/proc/{worker}/smaps_rollup") as rollup:
            private_mb = sum(int(line.split()[1]) for line in rollup
                             if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024.0
        assert private_mb >= BLOB_MB * 0.9
        assert resident_mb(worker) - forked._worker.first_ride_mb < BLOB_MB / 4
        assert knock_the_bench(forked, proving_ground, start) == first
        assert forked._worker.process.pid == worker
    finally:
        forked.close()


def test_a_worker_is_replaced_when_it_grew_or_rode_its_count(proving_ground, start, monkeypatch):
    """Growth past ``worker_growth_mb`` since its first ride replaces the worker before the next
    ride, and the new worker rides the same bits as this process; without growth the ride count
    still replaces it (where /proc cannot say, the count is the only bound)."""
    readings = iter([100.0, 101.0, 116.5, 200.0, 200.0, 215.9, 215.9])
    monkeypatch.setattr(producer_module, "resident_mb", lambda pid: next(readings))
    here = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    forked = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=4,
                             worker_growth_mb=16.0)
    try:
        expected = knock_the_bench(here, proving_ground, start)
        pids = []
        for _ in range(9):
            assert knock_the_bench(forked, proving_ground, start) == expected
            pids.append(forked._worker.process.pid)
        # read before every ride but a worker's first: the first worker grew 16.5 MB by its third
        # ride (replaced), the second rode its 4 without growing 16 MB (replaced by the count)
        assert pids[:3] == [pids[0]] * 3 and pids[3:7] == [pids[3]] * 4 and pids[7:] == [pids[7]] * 2
        assert len(set(pids)) == 3
        assert next(readings, None) is None
    finally:
        here.close()
        forked.close()
