"""Applying one planned action to a bike: ``apply_action(state, plan, ruleset, rng) -> (state,
events)``.

:func:`~entropy3d.rules.planner.plan_move` checks and describes; this module applies: it adds the
move's stress, rolls the tests the move costs with the injected rng, runs the bust sequence and
advances the activation (2 actions, EC-TURN-3). The pose moves to the plan's end pose; the
physics layer may later replace it with the measured one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.rules.dice import BustResult, Outcome, Policy, TestRoll, resolve_bust, roll_test, sit_at_tn
from entropy3d.rules.plan import Plan, parse_plan
from entropy3d.rules.planner import PlannedMove, RequiredTest, TableProbe, plan_move
from entropy3d.rules.ruleset import Ruleset


@dataclass(frozen=True)
class BikeState:
    """A bike and rider between actions.

    id: model id. bike_type: a bike type name. pose: where it stands (inches, degrees).
    speed: current speed (0 stopped). stress: current stress. wounds: wounds left.
    max_stress: the rider's max stress (EC-DICE-7). actions_taken: actions spent this activation.
    turn_number: 1-based game turn. sand_free_available: a trailbike's free sand stress is unused.
    forced_speed: the next action's forced speed (after a stoppie), or None.
    out_of_game: crashed out. skip_next_action / skip_next_activation: pending skips.
    """

    id: str
    bike_type: str
    pose: Pose
    speed: int = 1
    stress: int = 0
    wounds: int = 3
    max_stress: int = 10
    actions_taken: int = 0
    turn_number: int = 1
    sand_free_available: bool = True
    forced_speed: int | None = None
    out_of_game: bool = False
    skip_next_action: bool = False
    skip_next_activation: bool = False


@dataclass(frozen=True)
class TestEvent:
    """A test rolled while applying an action: the roll, and the stress it added or removed."""

    __test__ = False

    required: RequiredTest
    roll: TestRoll
    stress_change: int


Event = PlannedMove | TestEvent | BustResult


def start_activation(state: BikeState) -> BikeState:
    """A fresh activation: no actions spent, the trailbike's free sand stress is back."""
    return dataclasses.replace(state, actions_taken=0, sand_free_available=True)


def apply_action(state: BikeState, plan: Plan | str, ruleset: Ruleset, rng: np.random.Generator, *,
                 table: TableProbe | None = None, policy: Policy = sit_at_tn
                 ) -> tuple[BikeState, list[Event]]:
    """Check, then apply one action; returns the new state and the events in order.

    Raises IllegalPlanError for an illegal plan (state unchanged) and when the activation has
    no action left (EC-TURN-3).
    """
    if isinstance(plan, str):
        plan = parse_plan(plan)
    per_activation = int(ruleset.data("turn.actions_per_activation"))
    if state.out_of_game:
        raise IllegalPlanError("EC-DICE-4", f"{state.id} is out of the game")
    if state.actions_taken >= per_activation:
        raise IllegalPlanError("EC-TURN-3", f"an activation has {per_activation} actions")
    if state.forced_speed is not None and plan.speed != state.forced_speed:
        raise IllegalPlanError("EC-ACT-STOPPIE", f"after a stoppie the next action is at speed "
                               f"{state.forced_speed}")
    first = state.turn_number == 1 and state.actions_taken == 0
    move = plan_move(plan, state.pose, state.bike_type, state.speed, ruleset, table=table,
                     action_index=state.actions_taken, first_action_of_game=first,
                     sand_free_available=state.sand_free_available)
    events: list[Event] = [move]
    stress = max(0, state.stress + move.stress)
    wounds, out, skip = state.wounds, False, False
    for required in move.tests:
        roll = roll_test(required.tn, stress, rng, ruleset, policy, state.max_stress)
        change = roll.stress_change
        if roll.outcome is Outcome.FAIL:
            change += required.stress_on_fail
        stress = max(0, stress + change)
        events.append(TestEvent(required, roll, change))
        if roll.outcome is Outcome.BUST:
            bust = resolve_bust(wounds, stress, rng, ruleset, policy, state.max_stress)
            events.append(bust)
            wounds, out, skip = bust.wounds_after, bust.out_of_game, bust.skip_next_action
            break
    actions = per_activation if move.plan.action == "gungho" else state.actions_taken + 1
    new = dataclasses.replace(
        state, pose=move.end_pose, speed=0 if move.stopped else move.speed, stress=stress,
        wounds=wounds, out_of_game=out, skip_next_action=skip, actions_taken=actions,
        sand_free_available=state.sand_free_available and not move.sand_free_used,
        forced_speed=move.next_action_speed,
        skip_next_activation=state.skip_next_activation or move.skips_next_activation)
    return new, events
