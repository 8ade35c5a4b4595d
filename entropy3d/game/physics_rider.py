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
from entropy3d.game.state import AIR_TIME, MatchState, SceneryMove
from entropy3d.physics import ScenerySpot
from entropy3d.rules import activation as core
from entropy3d.rules.combat import base_gap_in
from entropy3d.rules.dice import Policy

#: bases this close (inches) may touch in physics, whose bike hull is the box around the oval base
BASE_TO_BASE_IN = 0.6


class PhysicsRider:
    """Rides each action through ``entropy3d.activation`` (PyBullet + the rules' snapping)."""

    name = "physics"

    def __init__(self, table, geometry):
        self.table = table
        self.geometry = geometry
        self.ruleset = table.ruleset

    def ride_action(self, state: MatchState, bike: core.BikeState, plan: str, rng: np.random.Generator,
                    policy: Policy, table_checks: bool = True) -> ActionOutcome:
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
            k: SceneryMove(v.dx, v.dy, v.turn_deg, v.removed) for k, v in snapped.scenery.items()}
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
        scenery = {k: ScenerySpot(v.dx, v.dy, v.turn_deg, v.removed) for k, v in state.scenery.items()}
        return GameState(bikes=bikes, scenery=scenery, air=air)
