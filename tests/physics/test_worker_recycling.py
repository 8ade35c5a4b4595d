"""Physics riders forked by an idle fork server and replaced once they grew (issue 18, part 8: the
whole process tree stays within 10% of its size in a long session). A forked process shares its
pages with its parent until either writes them; the game's process writes its pages all the time,
so riders are forked from a server that does not, and replaced by their own growth (PyBullet's
leftovers and the inherited pages they wrote), which their private memory shows and their resident
memory does not."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.physics import producer as producer_module
from entropy3d.physics.producer import PhysicsProducer, private_mb
from entropy3d.systems.entropy_city.transition import Action, check

BLOB_MB = 64

linux_proc = pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(),
                                reason="a rider's private memory is read from /proc/PID/smaps_rollup (Linux 4.14+)")


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


def resident_mb(pid: int) -> float:
    """The resident memory of ``pid`` (RSS: every page it maps, shared or not), MB."""
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2.0 ** 20


@linux_proc
def test_private_memory_grows_by_the_pages_a_process_writes():
    """Measured in a fresh process: in a test worker the 64 MB could come back from memory an
    earlier test freed but the allocator kept (two fresh-clone runs saw +0 MB)."""
    script = ("import os, numpy as np; from entropy3d.physics.producer import private_mb; "
              f"before = private_mb(os.getpid()); blob = np.ones({BLOB_MB} * 2 ** 20, np.uint8); "
              "print(before, private_mb(os.getpid()))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = (float(v) for v in done.stdout.split())
    assert abs(after - before - BLOB_MB) < BLOB_MB / 8
    assert private_mb(2 ** 22 + 1) is None  # past Linux's largest process id: no such process


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
        rider_first_mb = private_mb(rider)
        blob[::4096] = 2  # one byte a page: every page copied for this process, the original the server's
        assert knock_the_bench(forked, proving_ground, start) == first
        assert children(server) == [rider]
        assert private_mb(rider) - rider_first_mb < BLOB_MB / 4  # the old copy is the server's and the rider's
    finally:
        forked.close()
    assert not Path(f"/proc/{rider}").exists() and not Path(f"/proc/{server}").exists()


@linux_proc
def test_a_rider_writing_pages_it_inherited_is_replaced(proving_ground, start, monkeypatch):
    """A rider that writes pages it inherited holds copies of its own (copy on write): its resident
    memory stays as it was (the pages were resident, shared), its private memory grows by them,
    and the growth replaces it at the next reading. Each rider here writes the other half of a 64
    MB buffer the game wrote before the fork at each ride: the half written at its second ride
    (32 MB, past the 16 MB allowed since its first) replaces it once the server reads its memory
    again, every ``MEMORY_READ_EVERY_RIDES`` rides."""
    blob = np.ones(BLOB_MB * 2 ** 20, np.uint8)
    halves = [slice(0, BLOB_MB * 2 ** 19, 4096), slice(BLOB_MB * 2 ** 19, None, 4096)]
    rides_here = []  # a rider's own count: each rider inherits it empty from the fork server
    rider_memory = {}
    real_ride = producer_module.ride

    def ride_writing_the_other_half(*args, **kwargs):
        blob[halves[len(rides_here) % 2]] += 1
        rides_here.append(None)
        return real_ride(*args, **kwargs)

    here = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    expected = knock_the_bench(here, proving_ground, start)
    here.close()
    monkeypatch.setattr(producer_module, "ride", ride_writing_the_other_half)  # inherited by the fork
    forked = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=1000,
                             worker_growth_mb=BLOB_MB / 4)
    every = producer_module.MEMORY_READ_EVERY_RIDES
    try:
        riders = []
        for _ in range(2 * (every + 1) + 1):
            assert knock_the_bench(forked, proving_ground, start) == expected
            [rider] = children(forked._worker.process.pid)
            riders.append(rider)
            rider_memory.setdefault(rider, []).append((resident_mb(rider), private_mb(rider)))
        first, second, third = dict.fromkeys(riders)  # in order of their first ride
        assert riders == [first] * (every + 1) + [second] * (every + 1) + [third]
        (resident_first, private_first), (resident_second, private_second) = rider_memory[first][:2]
        assert private_second - private_first > BLOB_MB / 2 * 0.9
        assert resident_second - resident_first < BLOB_MB / 8  # what replaced riders before: it never grew
    finally:
        forked.close()
    assert not rides_here  # this process never rode: the riders did


@linux_proc
def test_a_rider_is_replaced_when_it_grew_or_rode_its_count(proving_ground, start, monkeypatch):
    """Growth past ``worker_growth_mb`` since its first ride replaces the rider before the next
    ride, and the new rider rides the same bits as this process; without growth the ride count
    still replaces it (where /proc cannot say, the count is the only bound). The readings are
    faked (the fork server inherits the fake) and read before every ride but a rider's first."""
    readings = iter([100.0, 101.0, 116.5, 200.0, 200.0, 215.9, 215.9])
    monkeypatch.setattr(producer_module, "private_mb", lambda pid: next(readings))
    monkeypatch.setattr(producer_module, "MEMORY_READ_EVERY_RIDES", 1)
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
