"""The physics-backed :class:`~entropy3d.game.ride.Rider`: every action ridden in a fresh PyBullet
world (through ``entropy3d.physics``, the only package that touches pybullet), and what physics
found handed to the rules engine's resolvers.

Per action: build the world from the table and the current state (other bikes as obstacles,
destructibles where they now stand), ride the planned path at the speed's velocity
(max distance / seconds per activation), then turn the ride's facts into rules results:
a crash contact -> :func:`~entropy3d.rules.events.resolve_crash` (EC-COL-*), debris hit ->
:func:`~entropy3d.rules.events.resolve_destructible` (EC-DEST-*), a flight ->
:func:`~entropy3d.rules.events.resolve_jump` (EC-JUMP-*), over a cliff edge ->
:func:`~entropy3d.rules.events.resolve_cliff_edge` (EC-COL-EDGE). The rules decide; this module
only passes the measured numbers in and the results out.
"""

from __future__ import annotations

import numpy as np

from entropy3d.game.ride import RideEvent, RideOutcome, dice_text, resolve_crash_event, roll_to_json
from entropy3d.game.state import AIR_TIME, MatchState, SceneryMove
from entropy3d.geometry import unit_vector
from entropy3d.physics import BikeBody, ScenerySpot, build_table_world, ride
from entropy3d.rules.events import resolve_cliff_edge, resolve_destructible, resolve_jump
from entropy3d.rules.planner import PlannedMove


class PhysicsRider:
    """Rides each action through PyBullet; see the module docstring."""

    name = "physics"

    def __init__(self, table, geometry):
        self.table = table
        self.geometry = geometry
        self.ruleset = table.ruleset
        self.seconds = self.ruleset.scale.seconds_per_activation

    def ride(self, state: MatchState, model_id: str, move: PlannedMove, rng: np.random.Generator) -> RideOutcome:
        bike = state.bike(model_id)
        in_air = bike.status == AIR_TIME
        rider = BikeBody(bike.id, self.ruleset.base_for(bike.bike), bike.pose,
                         bike.air_velocity_in_s if in_air else (0.0, 0.0, 0.0))
        others = [BikeBody(b.id, self.ruleset.base_for(b.bike), b.pose) for b in state.bikes.values()
                  if b.id != model_id and b.in_play]
        scenery = {k: ScenerySpot(v.dx, v.dy, v.turn_deg, v.removed) for k, v in state.scenery.items()}
        speed_in_s = move.band.max / self.seconds
        with build_table_world(self.table, self.geometry, rider=rider, others=others, scenery=scenery) as world:
            facts = ride(world, model_id, move.path, speed_in_s, in_air=in_air, time_slice_s=self.seconds)
        return self.snap(bike, move, facts, rng)

    def snap(self, bike, move: PlannedMove, facts, rng: np.random.Generator) -> RideOutcome:
        """Hand the ride's facts to the rules resolvers; collect stress, flags and texts."""
        ruleset = self.ruleset
        events: list[RideEvent] = []
        stress = bike.stress
        added = 0
        busted = out = escaped = skip = False
        speed_after = None
        scenery: dict[str, SceneryMove] = {}
        full_movement = facts.outcome in ("completed", "air_time")
        for contact in facts.contacts:
            if contact.role != "debris":
                continue
            risk = self._risk(contact.piece_id)
            result = resolve_destructible(move.speed, full_movement, risk, stress + added, ruleset, rng,
                                          max_stress=bike.max_stress)
            moved = next((m for m in facts.scenery if m.piece_id == contact.piece_id), None)
            if not result.eligible:
                text = (f"physics: {bike.id} knocked '{contact.piece_id}' at speed {move.speed} -> rules: "
                        f"not at full speed 2+, it is an obstacle (EC-DEST-2)")
                events.append(RideEvent("destructible", text, result.clauses, contact.piece_id, (), contact.t))
                if moved is not None:
                    scenery[contact.piece_id] = SceneryMove(moved.dx, moved.dy, moved.turn_deg, moved.destroyed)
                continue
            added += result.stress_added + (result.roll.stress_change if result.roll else 0)
            if result.roll.succeeded:
                push = unit_vector(contact.facing_deg) * result.item_moved_in
                scenery[contact.piece_id] = SceneryMove(float(push[0]), float(push[1]), 0.0,
                                                        bool(moved is not None and moved.destroyed))
                verdict = f"smashed through, '{contact.piece_id}' thrown {result.item_moved_in:g}\""
            else:
                if result.roll.outcome.value == "bust":
                    busted = True
                verdict = f"test failed ({result.roll.outcome.value}), the bike is knocked aside"
                if moved is not None:
                    scenery[contact.piece_id] = SceneryMove(moved.dx, moved.dy, moved.turn_deg, moved.destroyed)
            text = (f"physics: {bike.id} hit '{contact.piece_id}' (risk {risk}) -> rules: +{risk} stress, "
                    f"TN {result.tn}: {dice_text(result.roll)}: {verdict} (EC-DEST-3)")
            events.append(RideEvent("destructible", text, result.clauses, contact.piece_id,
                                    (roll_to_json(result.roll, f"{contact.piece_id} (EC-DEST-3)"),), contact.t))
        for flight in facts.flights:
            left = max(0.0, facts.path_length_in - flight.launch_progress_in)
            jump = resolve_jump(move.speed, bike.bike, left, ruleset)
            height = flight.max_z - flight.launch_z
            if jump.air_time:
                text = (f"physics: {bike.id} took off at {flight.launch_speed_in_s * self.seconds:.0f}\"/activation, "
                        f"{height:.1f}\" high -> rules: air time, lands at {jump.landing_distance_in:g}\" (EC-JUMP-4)")
            else:
                text = (f"physics: {bike.id} left the ground briefly -> rules: speed {move.speed}, "
                        "no air time (EC-JUMP-1)")
            events.append(RideEvent("jump", text, jump.clauses, None, (), flight.launch_t))
        crash = facts.first_crash
        if crash is not None:
            event, result = resolve_crash_event(bike, crash.piece_id, crash.facing_deg, crash.into_deg, crash.t,
                                                stress + added, ruleset, rng)
            events.append(event)
            if result.survived:
                added += result.stress_added + result.roll.stress_change
                skip = result.skip_next_activation
                speed_after = result.speed_after
            else:
                busted = True
        if facts.left_table is not None and facts.outcome == "left_table":
            if self.table.spec.table.edges.get(facts.left_table) == "cliff":
                edge = resolve_cliff_edge()
                out = edge.out_of_game
                events.append(RideEvent("cliff_edge", f"physics: {bike.id} went over the {facts.left_table} cliff "
                                        f"-> rules: automatic bust (EC-COL-EDGE)", edge.clauses, None, (),
                                        facts.duration_s))
            else:
                escaped = True
                events.append(RideEvent("left_table", f"physics: {bike.id} rode off the {facts.left_table} edge "
                                        f"-> escaped", (), None, (), facts.duration_s))
        airborne = facts.outcome == "air_time"
        carry = 0.0
        if airborne:
            jump = resolve_jump(move.speed, bike.bike, 0.0, ruleset)
            carry = jump.landing_carry_in
        return RideOutcome(trajectory=np.asarray(facts.trajectory, float), end_pose=facts.end_pose,
                           events=tuple(sorted(events, key=lambda e: e.t_s)), stress_added=added, busted=busted,
                           out_of_game=out, escaped=escaped, airborne=airborne, air_carry_in=carry,
                           air_velocity_in_s=tuple(facts.end_velocity_in_s) if airborne else (0.0, 0.0, 0.0),
                           skip_next_activation=skip, speed_after=speed_after, scenery=scenery)

    def _risk(self, piece_id: str) -> int:
        try:
            return int(self.geometry.by_id(piece_id).risk or 1)
        except KeyError:
            return 1
