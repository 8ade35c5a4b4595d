"""How one action is resolved: the narrow interface between the game loop and physics.

The game loop hands a :class:`Rider` the plan text, the bike's rules state in its activation and
the current :class:`~entropy3d.game.state.MatchState`; the rider has the rules apply the plan
(:func:`entropy3d.rules.activation.apply_action`), rides it and returns an
:class:`ActionOutcome`: the trajectory to draw, the bike's new rules state and what happened on
the way (tests, crashes, destructibles, jumps, the cliff edge), every decision made by the rules
engine.

Two riders exist: :class:`PlannedPathRider` (the tabletop way: the bike follows its plan and a
wall in the way is a crash; no physics engine is imported) and
:class:`~entropy3d.game.physics_rider.PhysicsRider`, an adapter over
:func:`entropy3d.activation.ride_action` (PyBullet ride plus the rules' snapping).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

import numpy as np

from entropy3d.game.state import MatchState
from entropy3d.geometry import Pose
from entropy3d.rules import activation as core
from entropy3d.rules.combat import rider_dodge
from entropy3d.rules.dice import BustResult, Policy, resolve_bust
from entropy3d.rules.events import HEAD_ON, resolve_crash
from entropy3d.rules.planner import PlannedMove
from entropy3d.rules.scenery import ScenerySpot


def roll_to_json(roll, reason: str = "") -> dict:
    """A test roll as a JSON-able dict (dice in the order rolled)."""
    return {"reason": reason, "dice": list(roll.dice), "stress": roll.stress, "tn": roll.tn,
            "effective_tn": roll.effective_tn, "total": roll.total, "outcome": roll.outcome.value,
            "stress_change": roll.stress_change}


#: columns of a trajectory array
TRAJECTORY_COLUMNS = ("t_s", "x_in", "y_in", "z_in", "heading_deg")


@dataclass(frozen=True)
class RideEvent:
    """Something that happened during a ride and what the rules made of it.

    kind: crash, destructible, jump, landing, cliff_edge or left_table.
    text: one line a player can read ("physics: ... -> rules: ...").
    clauses: the rule clause ids applied. piece: the piece or model hit, if any.
    rolls: the tests rolled, as JSON-able dicts (dice, stress, tn, total, outcome).
    t_s: seconds into the action when it happened (for the video's HUD).
    """

    kind: str
    text: str
    clauses: tuple[str, ...] = ()
    piece: str | None = None
    rolls: tuple[Mapping[str, Any], ...] = ()
    t_s: float = 0.0

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "clauses": list(self.clauses), "piece": self.piece,
                "rolls": [dict(r) for r in self.rolls], "t_s": round(self.t_s, 4)}

    @classmethod
    def from_json(cls, data: Mapping) -> "RideEvent":
        return cls(data["kind"], data["text"], tuple(data["clauses"]), data.get("piece"),
                   tuple(data.get("rolls", ())), float(data.get("t_s", 0.0)))


@dataclass(frozen=True, eq=False)
class ActionOutcome:
    """One action checked, applied, ridden and snapped.

    move: the checked plan. bike: the bike's rules state after it (snapped pose, speed, stress,
    wounds, skips, actions taken). trajectory: (N, 5) rows of t_s, x, y, z (inches), heading
    (degrees) as ridden; empty when it busted before riding. events: the plan's tests, what
    happened on the ride and the busts, in order. busts: how many busts (EC-DICE-4).
    escaped: it rode off an open table edge. airborne: still in the air (EC-JUMP-2) with
    air_speed, air_carry_in inches left to fly and air_velocity_in_s. scenery: destructibles it
    moved or broke.
    """

    move: PlannedMove
    bike: core.BikeState
    trajectory: np.ndarray = field(repr=False)
    events: tuple[RideEvent, ...] = ()
    busts: int = 0
    escaped: bool = False
    airborne: bool = False
    air_speed: int = 0
    air_carry_in: float = 0.0
    air_velocity_in_s: tuple[float, float, float] = (0.0, 0.0, 0.0)
    scenery: Mapping[str, ScenerySpot] = field(default_factory=dict)


class Rider(Protocol):
    """Checks, applies, rides and snaps one action (physics, or the tabletop rules alone).

    ``name`` is recorded in the replay header so a re-simulation uses the same rider.
    """

    name: str

    def ride_action(self, state: MatchState, bike: core.BikeState, plan: str, rng: np.random.Generator,
                    policy: Policy, table_checks: bool = True) -> ActionOutcome:
        """Ride ``plan`` for ``bike`` (its rules state in this activation) from ``state``.

        table_checks: let the rules refuse paths into buildings and across curbs; off only when
        every path is blocked and the impact cannot be avoided (EC-COL-1).
        Raises IllegalPlanError for a refused plan."""


def timed_path(path: np.ndarray, headings_deg: np.ndarray, heights: np.ndarray, duration_s: float) -> np.ndarray:
    """A planned path as a trajectory ridden at constant speed over ``duration_s`` seconds."""
    path = np.asarray(path, float)
    steps = np.linalg.norm(np.diff(path, axis=0), axis=1) if len(path) > 1 else np.zeros(0)
    along = np.concatenate([[0.0], np.cumsum(steps)])
    total = float(along[-1])
    t = along / total * duration_s if total > 0 else np.linspace(0.0, duration_s, len(path))
    return np.column_stack([t, path, np.asarray(heights, float), np.asarray(headings_deg, float)])


def dice_text(roll) -> str:
    """'7+5 +2 stress = 14 (success)'."""
    return f"{'+'.join(map(str, roll.dice))} +{roll.stress} stress = {roll.total} ({roll.outcome.value})"


class PlannedPathRider:
    """The tabletop resolution: the rules apply the plan and the bike follows its planned path,
    unless the path runs into something solid: then it stops there and the impact is a crash
    (EC-COL-1), head-on as it rides straight into it. Heights come from the table surface; no
    physics engine is imported. Used for fast tests and quick looks at a script.
    """

    name = "planned"

    def __init__(self, geometry, table_map, ruleset):
        self.geometry = geometry
        self.table_map = table_map
        self.ruleset = ruleset
        self.seconds_per_action = float(ruleset.scale.seconds_per_activation)

    def ride_action(self, state: MatchState, bike: core.BikeState, plan: str, rng: np.random.Generator,
                    policy: Policy, table_checks: bool = True) -> ActionOutcome:
        applied, applied_events = core.apply_action(bike, plan, self.ruleset, rng, policy=policy,
                                                    table=self.table_map if table_checks else None)
        move = applied_events[0]
        events = list(plan_events(applied_events[1:]))
        busts = sum(1 for e in events if e.kind == "bust")
        if applied.out_of_game or busts:  # crashed before riding: it stays where it stood
            return ActionOutcome(move, dataclasses.replace(applied, pose=bike.pose), np.zeros((0, 5)),
                                 tuple(events), busts)
        path, headings = move.path, move.headings_deg
        model = state.bike(bike.id)
        clearance = 0.5 * self.ruleset.base_for(model.bike).width
        blocked = self.table_map.blocked(path, move.start_pose.z, kinds_ignored=("destructible",),
                                         clearance=clearance) | self.table_map.ramp_sides_hit(path)
        blocked[0] = False
        stop = max(int(np.argmax(blocked)) - 1 if blocked.any() else len(path) - 1, 0)
        heights = self.geometry.surface_height(path[:stop + 1], below=move.start_pose.z + 0.5)
        duration = self.seconds_per_action * (stop + 1) / len(path)
        trajectory = timed_path(path[:stop + 1], headings[:stop + 1], heights, duration)
        end = Pose(float(path[stop, 0]), float(path[stop, 1]), float(headings[stop]) % 360.0, float(heights[-1]))
        applied = dataclasses.replace(applied, pose=end)
        if stop == len(path) - 1:
            return ActionOutcome(move, applied, trajectory, tuple(events))
        dodge = rider_dodge(model.dodge, model.bike, self.ruleset)
        result = resolve_crash(float(headings[stop]), float(headings[stop]), dodge, applied.stress, self.ruleset,
                               rng, policy, applied.max_stress)
        kind = "head-on" if result.kind == HEAD_ON else "side-on"
        stress = max(0, applied.stress + result.roll.stress_change + (result.stress_added if result.survived else 0))
        verdict = f"survived, +{result.stress_added} stress" if result.survived else "failed -> bust"
        events.append(RideEvent("crash", f"{bike.id} rides into a wall -> rules: {kind} crash, TN {result.tn}: "
                                f"{dice_text(result.roll)}: {verdict}", result.clauses, "wall",
                                (roll_to_json(result.roll, f"{kind} crash"),), duration))
        applied = dataclasses.replace(applied, stress=stress, speed=min(applied.speed, result.speed_after or 9),
                                      skip_next_activation=applied.skip_next_activation
                                      or bool(result.survived and result.skip_next_activation))
        if not result.survived:
            bust = resolve_bust(applied.wounds, stress, rng, self.ruleset, policy, applied.max_stress)
            events += plan_events([bust], t_s=duration)
            busts += 1
            applied = dataclasses.replace(applied, wounds=bust.wounds_after, out_of_game=bust.out_of_game,
                                          skip_next_action=bust.skip_next_action)
        return ActionOutcome(move, applied, trajectory, tuple(events), busts)


def plan_events(events, t_s: float = 0.0) -> tuple[RideEvent, ...]:
    """The rules engine's test and bust events (:mod:`entropy3d.rules.activation`) as RideEvents."""
    out = []
    for event in events:
        if isinstance(event, core.TestEvent):
            required = event.required
            out.append(RideEvent("plan_test", f"{required.reason}: TN {required.tn}, {dice_text(event.roll)}"
                                 + (f", stress {event.stress_change:+d}" if event.stress_change else ""),
                                 (required.clause,), None, (roll_to_json(event.roll, required.reason),), t_s))
        elif isinstance(event, BustResult):
            verdict = "out of the game" if event.out_of_game else "remounts, skips its next action"
            rolls = (roll_to_json(event.remount, "remount"),) if event.remount is not None else ()
            out.append(RideEvent("bust", f"bust (EC-DICE-4): wound lost, {verdict}", event.clauses, None, rolls, t_s))
    return tuple(out)
