"""One bike's action, ridden through physics and snapped back to the rules.

``ride_action(table, geometry, state, model_id, plan, rng)``:

1. the rules check the plan and charge its own costs (:func:`entropy3d.rules.activation.apply_action`:
   instant stress, template tests, busts), with the injected rng;
2. a fresh physics world is built from the table and the game state (other bikes as obstacles,
   destructibles where they stand now), the bike rides the planned path at its speed's velocity
   (the speed's maximum distance, doubled for gung-ho, per the rules' seconds per activation),
   and the world is thrown away;
3. the facts are snapped to the rules (:func:`entropy3d.activation.snap.snap_ride`) with the same
   rng, giving the next :class:`GameState`.

``activate`` rides several actions in a row (an activation is two actions, EC-TURN-3).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from entropy3d.activation.snap import RuleEvent, Snapped, full_distance_in, roll_text, snap_ride
from entropy3d.activation.state import GameState
from entropy3d.errors import IllegalPlanError
from entropy3d.physics import BikeBody, RideFacts, build_table_world, ride
from entropy3d.rules.activation import TestEvent, apply_action, start_activation
from entropy3d.rules.dice import BustResult, Policy, sit_at_tn
from entropy3d.rules.plan import Plan, parse_plan
from entropy3d.rules.planner import PlannedMove


@dataclass(frozen=True, eq=False)
class ActionResult:
    """One ridden action: the plan, the rules' view of it, the physical facts and the snap.

    move: the checked plan. plan_events: the plan's own tests and busts (rules only).
    facts: what physics found (None when the bike busted before riding).
    snapped: the rules' reading of the ride (None likewise). before / after: the game states.
    """

    model_id: str
    move: PlannedMove
    plan_events: tuple[RuleEvent, ...]
    facts: RideFacts | None
    snapped: Snapped | None
    before: GameState
    after: GameState


def _plan_events(events, move: PlannedMove) -> tuple[RuleEvent, ...]:
    out = []
    for event in events:
        if isinstance(event, TestEvent):
            req = event.required
            out.append(RuleEvent("plan_test", 0.0, None, f"planned {move.plan}",
                                 f"{req.reason}: TN {req.tn} ({req.clause}), {roll_text(event.roll)}"
                                 + (f", stress {event.stress_change:+d}" if event.stress_change else ""),
                                 (req.clause,), (event.roll,), event.stress_change, {"tn": req.tn}))
        elif isinstance(event, BustResult):
            out.append(RuleEvent("bust", 0.0, None, "before riding", "bust (EC-DICE-4)" +
                                 (": out of the game" if event.out_of_game else ": remounted, skips its next action"),
                                 event.clauses, (event.remount,) if event.remount else (), 0,
                                 {"wounds_after": event.wounds_after, "out_of_game": event.out_of_game}))
    return tuple(out)


def ride_action(table, geometry, state: GameState, model_id: str, plan: Plan | str, rng: np.random.Generator, *,
                policy: Policy = sit_at_tn) -> ActionResult:
    """Ride one action of ``model_id`` from ``state``; raises IllegalPlanError for a refused plan."""
    if isinstance(plan, str):
        plan = parse_plan(plan)
    bike = state.bike(model_id)
    if bike.out_of_game:
        raise IllegalPlanError("EC-DICE-4", f"{model_id} is out of the game")
    model = table.model(model_id)
    after_plan, events = apply_action(bike, plan, table.ruleset, rng, policy=policy)
    move: PlannedMove = events[0]
    plan_events = _plan_events(events[1:], move)
    if after_plan.out_of_game or any(isinstance(e, BustResult) for e in events):
        new = state.with_bike(after_plan)
        return ActionResult(model_id, move, plan_events, None, None, state, new)

    airborne = state.air.get(model_id)
    rider = BikeBody(model_id, table.base_of(model), bike.pose,
                     airborne.velocity_in_s if airborne else (0.0, 0.0, 0.0))
    others = [BikeBody(other.id, table.ruleset.base_for(other.bike_type), other.pose)
              for other in state.bikes.values() if other.id != model_id and not other.out_of_game]
    with build_table_world(table, geometry, rider=rider, others=others, scenery=state.scenery) as world:
        speed = full_distance_in(move, table.ruleset) / table.ruleset.scale.seconds_per_activation
        facts = ride(world, model_id, move.path, speed, in_air=airborne is not None)
    # the rules' pose is replaced by the snapped one; the plan's costs stay
    snapped = snap_ride(facts, move, after_plan, dodge=int(model.rider.dodge), table=table, geometry=geometry,
                        rng=rng, scenery=state.scenery, policy=policy, carried=airborne)
    new = state.with_bike(snapped.bike, snapped.air).with_scenery(snapped.scenery)
    return ActionResult(model_id, move, plan_events, facts, snapped, state, new)


def activate(table, geometry, state: GameState, model_id: str, plans: Sequence[Plan | str],
             rng: np.random.Generator, *, policy: Policy = sit_at_tn) -> list[ActionResult]:
    """Ride the actions of one activation in order (EC-TURN-3); stops early when the bike is out
    of the game or crashed to a stop."""
    bike = start_activation(state.bike(model_id))
    state = state.with_bike(bike, state.air.get(model_id))
    results: list[ActionResult] = []
    for plan in plans:
        result = ride_action(table, geometry, state, model_id, plan, rng, policy=policy)
        results.append(result)
        state = result.after
        if result.snapped is None or result.snapped.status in ("out", "crashed", "left_table"):
            break
    return results


def with_turn(state: GameState, turn_number: int) -> GameState:
    """Every bike's turn number set (turn 1 forces speed 1 for a first action, EC-TURN-4)."""
    bikes = {k: dataclasses.replace(b, turn_number=turn_number) for k, b in state.bikes.items()}
    return dataclasses.replace(state, bikes=bikes)
