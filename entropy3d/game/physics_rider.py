"""The physics-backed :class:`~entropy3d.game.ride.Rider`: an adapter over
:func:`entropy3d.activation.ride_action`, which has the rules check and apply the plan, rides it
in a fresh PyBullet world and snaps what physics found back to the rules (crashes, destructibles,
jumps, Air Time, the cliff edge). This module only converts between the game's
:class:`~entropy3d.game.state.MatchState` and the activation layer's
:class:`~entropy3d.activation.GameState` and turns the snapped events into replay events.
"""

from __future__ import annotations

import numpy as np

from entropy3d.activation import AirTime, GameState, ride_action
from entropy3d.game.ride import ActionOutcome, RideEvent, roll_to_json
from entropy3d.game.state import AIR_TIME, MatchState
from entropy3d.rules import activation as core
from entropy3d.rules.combat import base_gap_in
from entropy3d.rules.dice import Policy

#: bases this close (inches) may touch in physics, whose bike hull is the box around the oval base
BASE_TO_BASE_IN = 0.6


class PhysicsRider:
    """Rides each action through ``entropy3d.activation`` (PyBullet + the rules' snapping).

    rides_per_process: PyBullet keeps some memory of every world it built even after it is
    disconnected (bullet3 issues #2898, #3319), about 2 MB per ride here, so a long game would
    grow without bound. With a number, rides run in a forked worker process that is replaced
    after that many rides, which bounds the memory; the dice generator's state travels to the
    worker and back, so the game is the same bytes either way. None rides in this process.
    """

    name = "physics"

    def __init__(self, table, geometry, rides_per_process: int | None = 150):
        self.table = table
        self.geometry = geometry
        self.ruleset = table.ruleset
        self.rides_per_process = rides_per_process
        self._worker = None

    def ride_action(self, state: MatchState, bike: core.BikeState, plan: str, rng: np.random.Generator,
                    policy: Policy, table_checks: bool = True) -> ActionOutcome:
        if self.rides_per_process is None:
            return self._ride(state, bike, plan, rng, policy)
        if self._worker is None or self._worker.rides >= self.rides_per_process:
            self.close()
            self._worker = _Worker(self)
        return self._worker.ride(state, bike, plan, rng, policy)

    def close(self) -> None:
        """Stop the worker process, if any."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None

    def __del__(self):
        self.close()

    def _ride(self, state: MatchState, bike: core.BikeState, plan: str, rng: np.random.Generator,
              policy: Policy) -> ActionOutcome:
        game_state = self.game_state(state, bike, plan)
        result = ride_action(self.table, self.geometry, game_state, bike.id, plan, rng, policy=policy)
        after = result.after.bike(bike.id)
        events = [RideEvent(e.kind, e.text, tuple(e.clauses), e.piece,
                            tuple(roll_to_json(r, e.kind) for r in e.rolls), float(e.t_s))
                  for e in result.plan_events]
        snapped = result.snapped
        if snapped is not None:
            events += [RideEvent(e.kind, e.text, tuple(e.clauses), e.piece,
                                 tuple(roll_to_json(r, e.kind) for r in e.rolls), float(e.t_s))
                       for e in snapped.events]
        trajectory = np.asarray(result.facts.trajectory, float) if result.facts is not None else np.zeros((0, 5))
        air = result.after.air.get(bike.id)
        scenery = {} if snapped is None else {
            k: v for k, v in snapped.scenery.items()}
        escaped = snapped is not None and snapped.status == "left_table" and not after.out_of_game
        return ActionOutcome(result.move, after, trajectory, tuple(events),
                             busts=sum(1 for e in events if e.kind == "bust"), escaped=escaped,
                             airborne=air is not None, air_speed=air.speed if air else 0,
                             air_carry_in=air.carry_in if air else 0.0,
                             air_velocity_in_s=tuple(air.velocity_in_s) if air else (0.0, 0.0, 0.0),
                             scenery=scenery)

    def game_state(self, state: MatchState, bike: core.BikeState, plan: str) -> GameState:
        """The activation layer's view of ``state`` for one ride of ``bike``.

        A bike standing base to base *behind* the rider, which rides away from it, is left out:
        the physics ride counts any touch above the step height as a crash, so a bike parked
        base to base after a crash could otherwise never leave (a move turns at most 90 degrees,
        so it cannot come back into it).
        """
        from entropy3d.game.loop import to_core
        from entropy3d.rules.planner import plan_move

        move = plan_move(plan, bike.pose, bike.bike_type, bike.speed, self.ruleset,
                         action_index=bike.actions_taken,
                         first_action_of_game=bike.turn_number == 1 and bike.actions_taken == 0)
        ahead = move.path[min(len(move.path) - 1, 4)] - move.path[0]
        bikes = {bike.id: bike}
        own_base = self.ruleset.base_for(bike.bike_type)
        for other in state.bikes.values():
            if other.id == bike.id or not other.in_play:
                continue
            gap = base_gap_in(bike.pose, own_base, other.pose, self.ruleset.base_for(other.bike))
            if gap <= BASE_TO_BASE_IN and float(np.dot(other.pose.xy - bike.pose.xy, ahead)) < 0.0:
                continue
            bikes[other.id] = to_core(other, bike.turn_number)
        air = {b.id: AirTime(b.air_speed, b.air_carry_in, b.air_velocity_in_s) for b in state.bikes.values()
               if b.status == AIR_TIME and b.id in bikes}
        scenery = dict(state.scenery)
        return GameState(bikes=bikes, scenery=scenery, air=air)


class _Worker:
    """A forked process that rides actions for a :class:`PhysicsRider` (see rides_per_process)."""

    def __init__(self, rider: PhysicsRider):
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(rider, child), daemon=True)
        self.process.start()
        child.close()
        self.rides = 0

    def ride(self, state, bike, plan, rng: np.random.Generator, policy: Policy) -> ActionOutcome:
        self.connection.send((state, bike, plan, rng.bit_generator.state, _policy_name(policy)))
        kind, payload, rng_state = self.connection.recv()
        self.rides += 1
        rng.bit_generator.state = rng_state
        if kind == "error":
            raise payload
        return payload

    def stop(self) -> None:
        try:
            self.connection.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()
        self.connection.close()


def _policy_name(policy: Policy) -> str:
    """The rules engine's name of a push-your-luck policy, so the worker can rebuild it."""
    from entropy3d.rules.dice import never_push, sit_at_tn

    if policy is sit_at_tn:
        return "sit-at-tn"
    if policy is never_push:
        return "never"
    if getattr(policy, "__name__", "").startswith("risk_aware"):
        return "risk-aware"
    raise ValueError(f"the physics worker cannot rebuild the push policy {policy!r}")


def _serve(rider: PhysicsRider, connection) -> None:
    from entropy3d.rules.dice import policy_named

    rider.rides_per_process = None
    while True:
        message = connection.recv()
        if message is None:
            return
        state, bike, plan, rng_state, policy = message
        rng = np.random.default_rng()
        rng.bit_generator.state = rng_state
        try:
            outcome = rider._ride(state, bike, plan, rng, policy_named(policy, rider.ruleset))
            connection.send(("ok", outcome, rng.bit_generator.state))
        except Exception as error:  # sent back and raised in the game's process
            connection.send(("error", error, rng.bit_generator.state))
