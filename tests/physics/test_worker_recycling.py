"""Physics riders forked by an idle fork server and replaced once they grew (issue 18, part 8: the
whole process tree stays within 10% of its size in a long session). A forked process shares its
pages with its parent until either writes them; the game's process writes its pages all the time,
so riders are forked from a server that does not, and replaced by their own growth (PyBullet's
leftovers), which their resident memory shows."""

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
                                reason="a rider's resident memory is read from /proc/PID/statm (Linux)")


@pytest.fixture(scope="module")
def start(proving_ground):
    return dataclasses.replace(proving_ground.table.initial_state(proving_ground.geometry.surface_height), turn=2)


def knock_the_bench(producer, proving_ground, start) -> bytes:
    """The facts of one ride knocking a bench, floats as their exact bits."""
    facts = producer.ride(start, check(start, Action.ride("smasher", "s2: straight 12"), proving_ground.ruleset))
    arrays = np.asarray(facts.trajectory, "<f8").tobytes() + np.asarray(facts.ground, "<f8").tobytes()
    return repr(facts).encode() + arrays


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listed:
        return [int(child) for child in listed.read().split()]


@linux_proc
def test_resident_memory_is_what_the_process_status_says():
    with open("/proc/self/status") as status:
        rss_mb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024.0
    assert abs(resident_mb(os.getpid()) - rss_mb) < 2.0
    assert resident_mb(2 ** 22 + 1) is None  # past Linux's largest process id: no such process


@linux_proc
def test_pages_the_game_writes_are_held_once_by_the_server_not_by_every_rider(proving_ground, start):
    """Rewriting a 64 MB buffer inherited at the fork leaves the old copy with the fork server and
    the rider forked from it (copy on write), held once for both: the rider holds none of it on its
    own, and it did not grow: its resident memory says so, and it keeps riding."""
    blob = np.ones(BLOB_MB * 2 ** 20, np.uint8)  # written: resident before the fork
    forked = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=1000,
                             worker_growth_mb=BLOB_MB / 4)
    try:
        first = knock_the_bench(forked, proving_ground, start)
        server = forked._worker.process.pid
        [rider] = children(server)
        rider_first_mb = resident_mb(rider)
        blob[::4096] = 2  # one byte a page: every page copied for this process, the original the server's
        assert knock_the_bench(forked, proving_ground, start) == first
        assert children(server) == [rider]
        assert own_mb(rider) < BLOB_MB / 4  # the old copy is the server's and the rider's: held once
        assert resident_mb(rider) - rider_first_mb < BLOB_MB / 4
    finally:
        forked.close()
    assert not Path(f"/proc/{rider}").exists() and not Path(f"/proc/{server}").exists()


def own_mb(pid: int) -> float:
    """The pages ``pid`` shares with no other process, MB (smaps' private pages)."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        return sum(int(line.split()[1]) for line in rollup
                   if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024.0


@linux_proc
def test_a_rider_is_replaced_when_it_grew_or_rode_its_count(proving_ground, start, monkeypatch):
    """Growth past ``worker_growth_mb`` since its first ride replaces the rider before the next
    ride, and the new rider rides the same bits as this process; without growth the ride count
    still replaces it (where /proc cannot say, the count is the only bound). The readings are
    faked (the fork server inherits the fake): a rider is read before every ride but its first."""
    readings = iter([100.0, 101.0, 116.5, 200.0, 200.0, 215.9, 215.9])
    monkeypatch.setattr(producer_module, "resident_mb", lambda pid: next(readings))
    here = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    forked = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=4,
                             worker_growth_mb=16.0)
    try:
        expected = knock_the_bench(here, proving_ground, start)
        riders = []
        for _ in range(9):
            assert knock_the_bench(forked, proving_ground, start) == expected
            riders += children(forked._worker.process.pid)
        # the first rider grew 16.5 MB by its third ride (replaced), the second rode its 4 without
        # growing 16 MB (replaced by the count)
        assert riders[:3] == [riders[0]] * 3 and riders[3:7] == [riders[3]] * 4 and riders[7:] == [riders[7]] * 2
        assert len(set(riders)) == 3
    finally:
        here.close()
        forked.close()


def test_closing_after_the_pipe_was_finalised_at_exit_is_quiet(proving_ground, start):
    """At exit (a SIGTERM's, say) the pipe to the fork server may be finalised before the producer:
    ``Connection.__del__`` closes its descriptor without forgetting it. The producer's own close
    must then still stop the server and raise nothing (it printed "Exception ignored in
    PhysicsProducer.__del__ ... Bad file descriptor" in 1 of the fault runs of ``activate --gif``)."""
    producer = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=4)
    knock_the_bench(producer, proving_ground, start)
    server = producer._worker.process.pid
    producer._worker.process.connection.__del__()  # what the interpreter's exit may do first
    producer.close()
    assert producer._worker is None
    with pytest.raises(ChildProcessError):  # the server was reaped: no process left behind
        os.waitpid(server, os.WNOHANG)
