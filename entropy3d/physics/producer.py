"""The physics fact producer: rides a checked action through a PyBullet world and reports what
happened as rules :class:`~entropy3d.core.facts.Facts`. It decides no rule.

The producer keeps one world of the static table for the game (:class:`~entropy3d.physics.world.PhysicsWorld`);
before every ride it puts the other models in as obstacles and the destructibles where the game
state says they stand now. The bike rides at its speed's full-movement velocity (the speed's
maximum distance, doubled for gung-ho, over the rules' seconds per activation).
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time

import numpy as np

from entropy3d.core.facts import Contact, Facts, Flight, SceneryHit
from entropy3d.geometry import Pose, progress_lookup
from entropy3d.physics.record import RideRecord
from entropy3d.physics.ride import ride
from entropy3d.physics.tumble import speed_before, thrown_rider, tumble
from entropy3d.physics.world import BikeBody, PhysicsWorld, build_table_world
from entropy3d.scene.miniature import miniature_shape
from entropy3d.scene.probe import GROUND_STEP_IN, ground_profile, models_in_the_way, obstacle_kind, piece_side
from entropy3d.systems.entropy_city.riding import full_distance_in
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import Action


class PhysicsProducer:
    """Rides actions through PyBullet.

    With ``rides_per_process`` a number, rides run in forked processes (None rides in this
    process). Why: PyBullet keeps about 1.2 kB of every body it ever created, removed or not (and
    about 1.7 MB of every world it connected, bullet3 #2898, #3319); the producer's world lives for
    the game, so the bodies placed per ride add up (~60 kB an activation of the automatic players,
    ``benchmarks/soak_memory.py --rides-per-process 0``) without bound in a long session.

    So at the first ride this process builds the world (never riding in it) and forks a fork
    server, which stays idle and forks the riders: a rider is replaced after ``rides_per_process``
    rides or once it grew by more than ``worker_growth_mb`` MB since its first ride (its private
    memory, :func:`private_mb`: PyBullet's leftovers, its caches and the inherited pages it wrote),
    at the cost of a fork. Why not fork the riders from this process: a forked process shares its
    pages with its parent only until one of them writes them, and the game's process writes its
    pages all the time (its look-ahead reusing freed memory, garbage collections), ~30 MB of them
    within an activation of a fork and more the bigger its heap has grown: each rider forked from
    it took that much again, the tree sawed by a sixth (a rider every 20 rides) or, forked late
    from a grown heap, held 120 MB more. The fork server is forked once, early, and what the game's
    process writes afterwards it holds once, whatever the riders do; a rider shares its pages with
    an idle process and holds only what it writes. Where /proc cannot say (not Linux), only the
    ride count replaces a rider. The producer uses no randomness and a ride is the same bits in
    any world of the table (see world.py), so the game is the same bytes whichever rider rides.
    """

    name = "physics"

    def __init__(self, table, geometry, rides_per_process: int | None = 500, worker_growth_mb: float = 16.0):
        self.table = table
        self.geometry = geometry
        self.ruleset = table.ruleset
        self.rides_per_process = rides_per_process
        self.worker_growth_mb = worker_growth_mb
        self._worker = None
        self._world: PhysicsWorld | None = None
        self._walk_probe = None
        self.last_ride: RideRecord | None = None

    def ride(self, state: State, action: Action) -> Facts:
        """What happens on the table when ``action`` (checked) is ridden from ``state``.

        DECISION: a model on foot is walked, not simulated: a figure has no bike physics, so the
        geometric producer's :func:`~entropy3d.geometric.walk` walks it (its facts say
        ``geometric``), the same walk whichever producer plays the game."""
        if state.model(action.model_id).on_foot:
            from entropy3d.geometric import walk
            from entropy3d.scene.probe import SceneProbe

            if self._walk_probe is None:
                self._walk_probe = SceneProbe.from_table(self.table, self.geometry)
            return walk(state, action, self._walk_probe, self.geometry)
        if self.rides_per_process is None:
            return self._ride(state, action)
        if self._worker is None:
            if self._world is None:  # built here, never ridden here: every fork inherits it new
                self._world = build_table_world(self.table, self.geometry)
            self._worker = _Worker(self)
        return self._worker.ride(state, action)

    def close(self) -> None:
        """Stop the worker process, if any, and close the world this process rode in, if any."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
        if self._world is not None:
            self._world.close()
            self._world = None

    def __del__(self):
        self.close()

    def bodies(self, state: State, action: Action) -> tuple[BikeBody, list[BikeBody]]:
        """The riding bike and the other models in its way (:func:`models_in_the_way`)."""
        model = state.model(action.model_id)
        velocity = model.air.velocity_in_s if model.air is not None else (0.0, 0.0, 0.0)
        rider = BikeBody(model.id, self.ruleset.base_for(model.bike_type), model.pose, velocity)
        return rider, [BikeBody(other.id, base, other.pose, kind=obstacle_kind(other))
                       for other, base in models_in_the_way(state, model.id, self.ruleset)]

    def _ride(self, state: State, action: Action) -> Facts:
        move = action.move
        model = state.model(action.model_id)
        rider, others = self.bodies(state, action)
        speed = full_distance_in(move, self.ruleset) / self.ruleset.scale.seconds_per_activation
        if self._world is None:
            self._world = build_table_world(self.table, self.geometry)
        world = self._world.place(rider=rider, others=others, scenery=state.scenery)
        found = ride(world, model.id, move.path, speed, in_air=model.air is not None)
        self.last_ride = found
        facts = to_facts(found, move, self.geometry, state, dict(self.table.spec.table.edges),
                         self.ruleset.base_for(model.bike_type).length)
        crash = facts.first_contact
        if crash is None:
            return facts
        at = Pose(float(np.interp(crash.t_s, facts.trajectory[:, 0], facts.trajectory[:, 1])),
                  float(np.interp(crash.t_s, facts.trajectory[:, 0], facts.trajectory[:, 2])), crash.heading_deg,
                  float(np.interp(crash.t_s, facts.trajectory[:, 0], facts.trajectory[:, 3])))
        before = speed_before(facts.trajectory, crash.t_s)
        fall = tumble(rider.base, self._world.bike_height_in, self.ruleset.scale, at, before, crash.into_deg)
        seat = miniature_shape(rider.base, Pose(0.0, 0.0, 0.0, 0.0), self.ruleset, model.bike_type).rider.bounds
        thrown = thrown_rider(seat, self.ruleset.scale, at, before, crash.into_deg, crash.point[:2],
                              self._obstacle_height_in(crash, at.z))
        return dataclasses.replace(facts, tumble=fall, thrown=thrown)

    def _obstacle_height_in(self, crash: Contact, floor_z: float) -> float:
        """How tall (inches) what the ride ran into stands over the level the bike was on: a
        piece of the table its top, another model or its wreck a bike's height."""
        piece = next((p for p in self.geometry.pieces if p.id == crash.piece_id), None)
        return self._world.bike_height_in if piece is None else piece.top - floor_z


def to_facts(found: RideRecord, move, geometry, state: State, edges: dict, base_length_in: float = 0.0) -> Facts:
    """Physics' findings as rules facts (inches, seconds, degrees).

    Physics sees a take-off when the base's last point leaves the ground; by then its centre may be
    up to half a base (``base_length_in`` / 2) past a deck's edge. The level a flight left is the
    highest under that half base (and one step of the ground profile's sampling), so riding off a
    2" deck is a 2" drop, as the geometric producer (which follows the centre) finds it."""
    trajectory = np.asarray(found.trajectory, float)
    progress_at = progress_lookup(move.path)
    contacts, scenery = [], []
    for contact in found.contacts:
        if contact.role == "crash":
            contacts.append(Contact(contact.piece_id, "model" if contact.kind == "bike" else contact.kind,
                                    contact.progress_in, contact.t, contact.facing_deg, contact.into_deg,
                                    contact.point))
        else:
            piece = geometry.by_id(contact.piece_id)
            moved = next((m for m in found.scenery if m.piece_id == piece.id), None)
            spot = state.scenery.get(piece.id)
            at = Pose(contact.point[0], contact.point[1], contact.facing_deg)
            scenery.append(SceneryHit(piece.id, int(piece.risk or 1), contact.progress_in, contact.t,
                                      contact.facing_deg,
                                      piece_side(geometry, piece.id, (spot.dx, spot.dy) if spot else (0, 0), at),
                                      (moved.dx, moved.dy) if moved else (0.0, 0.0),
                                      bool(moved and moved.destroyed)))
    heights = np.column_stack([progress_at(trajectory[:, 1:3]), trajectory[:, 3]])
    ground = ground_profile(geometry, move.path, heights, float(found.end_pose.z))
    flights = []
    for flight in found.flights:
        launch_level = _highest_level(ground, flight.launch_progress_in - base_length_in / 2.0 - GROUND_STEP_IN,
                                      flight.launch_progress_in)
        after = _level(ground, flight.launch_progress_in + 1.0)
        landed = flight.land_t is not None
        flights.append(Flight(
            flight.from_piece, flight.from_kind, flight.launch_progress_in, flight.launch_t, flight.launch_xy,
            flight.launch_z, flight.launch_speed_in_s, drop_in=max(0.0, launch_level - after),
            rise_in=max(0.0, flight.max_z - flight.launch_z),
            land_progress_in=float(progress_at(np.array([flight.land_xy]))[0]) if landed else None,
            land_t_s=flight.land_t, land_xy=flight.land_xy, land_z=flight.land_z))
    edge = found.left_table
    return Facts("physics", found.path_length_in, found.progress_in, found.outcome == "completed", trajectory,
                 tuple(contacts), tuple(sorted(scenery, key=lambda h: h.t_s)), tuple(flights), edge,
                 None if edge is None else edges.get(edge, "open"), found.end_pose, found.end_velocity_in_s, ground)


def _highest_level(ground: np.ndarray, start: float, end: float) -> float:
    """The highest level of the ground profile from distance ``start`` to ``end`` (inches)."""
    within = ground[(ground[:, 0] >= start) & (ground[:, 0] <= end), 3]
    return max([_level(ground, end), *map(float, within)])


def _level(ground: np.ndarray, distance: float) -> float:
    k = int(np.clip(np.searchsorted(ground[:, 0], distance), 0, len(ground) - 1))
    return float(ground[k, 3])


def private_mb(pid: int) -> float | None:
    """The memory process ``pid`` holds alone (its private pages, clean or dirty, from
    /proc/PID/smaps_rollup), MB: what its end frees; None where /proc cannot say. A forked process's
    private memory grows by the pages it maps anew and by every page it inherited and wrote (copy
    on write), which its resident memory (RSS) does not show: the page was resident, shared,
    before it was copied. Riders grow both ways (glibc placing their allocations in the free
    chunks of the heap they inherited, Python writing the reference counts of the objects they
    use): over 500 rides of ``benchmarks/soak_memory.py`` a rider's RSS grew ~6 MB and its private
    memory ~8 MB, and a rider rewriting what it inherited would take the tree's memory with an RSS
    that never moved (``tests/physics/test_worker_recycling.py``)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return sum(int(line.split()[1]) for line in rollup
                       if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024.0
    except (OSError, ValueError, IndexError):
        return None


class _Forked:
    """A forked child process running ``target(*args, connection, parent_pid)``, talked to over a
    pipe. Plain ``os.fork``: the fork server forks the riders, which a daemonic multiprocessing
    process may not."""

    def __init__(self, target, *args):
        from multiprocessing.connection import Pipe

        self.connection, child = Pipe()
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns into the caller's code
            code = 1
            try:
                self.connection.close()
                target(*args, child, parent)
                code = 0
            finally:
                os._exit(code)
        child.close()

    def stop(self) -> None:
        """Ask the child to stop (an empty message), wait up to 10 s, then kill it. Imports nothing:
        it may run from a finaliser while the interpreter shuts down."""
        try:
            self.connection.send_bytes(b"")
        except (BrokenPipeError, OSError):
            pass
        deadline = time.monotonic() + 10.0
        try:
            while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                if time.monotonic() > deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                    break
                time.sleep(0.005)
        except ChildProcessError:
            pass  # reaped already: an earlier stop, cut short by a signal, got that far
        try:
            self.connection.close()
        except OSError:
            # at exit the pipe's own finaliser may have closed its descriptor first (it closes it
            # without forgetting it), and a second close would name a descriptor no longer ours
            pass


class _Worker:
    """The producer's worker as the game's process sees it: a fork server (:func:`_fork_server`),
    forked at the first ride, which forks the riders and passes every ride on to the current one."""

    def __init__(self, producer: PhysicsProducer):
        self.process = _Forked(_fork_server, producer)

    def ride(self, state: State, action: Action) -> Facts:
        self.process.connection.send((state, action))
        kind, payload = self.process.connection.recv()
        if kind == "error":
            raise payload
        return payload

    def stop(self) -> None:
        self.process.stop()


MEMORY_READ_EVERY_RIDES = 8
"""How often the fork server reads its rider's private memory (:meth:`_Rider.spent`), rides."""


class _Rider:
    """In the fork server: a forked process that rides (:func:`_serve`), its rides and growth."""

    def __init__(self, producer: PhysicsProducer):
        self.process = _Forked(_serve, producer)
        self.rides = 0
        self.first_ride_mb: float | None = None
        """its private memory after its first ride, MB (:func:`private_mb`)"""

    def spent(self, rides: int, growth_mb: float) -> bool:
        """Whether the rider rode ``rides`` rides or grew by more than ``growth_mb`` MB since its
        first ride (read after its first ride and every :data:`MEMORY_READ_EVERY_RIDES` rides
        after: a reading costs ~4 ms of CPU, and a rider grows by tens of kB a ride)."""
        if self.rides >= rides:
            return True
        if self.rides == 0 or (self.rides - 1) % MEMORY_READ_EVERY_RIDES:
            return False
        private = private_mb(self.process.pid)
        if private is None:
            return False
        if self.first_ride_mb is None:
            self.first_ride_mb = private
        return private - self.first_ride_mb > growth_mb


def _fork_server(producer: PhysicsProducer, connection, parent: int) -> None:
    """Pass every ride (its pickled bytes, never unpickled here) to the current rider, forking a
    new one when it is spent; idle otherwise, so the pages a rider shares with it stay shared."""
    import gc

    _die_with_parent(parent)
    gc.freeze()  # its collections never write to the objects it shares with its riders
    rider = None
    try:
        while (message := _next_message(connection, parent)) is not None:
            if rider is None or rider.spent(producer.rides_per_process, producer.worker_growth_mb):
                if rider is not None:
                    rider.process.stop()
                rider = _Rider(producer)
            rider.process.connection.send_bytes(message)
            connection.send_bytes(rider.process.connection.recv_bytes())
            rider.rides += 1
    finally:
        if rider is not None:
            rider.process.stop()


def _next_message(connection, parent: int) -> bytes | None:
    """The next message from the parent, or None when it asked to stop (an empty message) or is
    gone (where no death signal reaches a child, it is polled for every second)."""
    while not connection.poll(1.0):
        if os.getppid() != parent:
            return None
    return connection.recv_bytes() or None


def _die_with_parent(parent: int) -> None:
    """In the worker: never outlive the game's process, and never hold the caller's stdout.

    Linux kills the worker when its parent dies (``PR_SET_PDEATHSIG``); elsewhere :func:`_serve`
    polls for the parent. Output goes to /dev/null, so a script waiting on the caller's pipe is not
    kept waiting by a worker; Ctrl-C is left to the parent, which stops the worker itself."""
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _serve(producer: PhysicsProducer, connection, parent: int) -> None:
    import pickle

    _die_with_parent(parent)
    producer.rides_per_process = None
    while (message := _next_message(connection, parent)) is not None:
        try:
            connection.send(("ok", producer._ride(*pickle.loads(message))))
        except Exception as error:  # sent back and raised in the game's process
            connection.send(("error", error))
