"""How one planned action is ridden: the narrow interface between the game loop and physics.

The game loop hands a :class:`Rider` the checked :class:`~entropy3d.rules.planner.PlannedMove`
and the current :class:`~entropy3d.game.state.MatchState`; the rider returns a
:class:`RideOutcome`: the trajectory to draw and the rules results of what happened on the way
(crashes, destructibles, jumps, the cliff edge), each already resolved by the rules engine.

Two riders exist: :class:`PlannedPathRider` (the tabletop way: the bike ends where the plan
says, nothing is hit; no physics engine is imported) and the physics-backed rider of
:mod:`entropy3d.game.physics_rider`, which drives a PyBullet world through ``entropy3d.physics``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

import numpy as np

from entropy3d.game.state import MatchState, SceneryMove
from entropy3d.geometry import Pose, angle_between_deg
from entropy3d.rules.combat import rider_dodge
from entropy3d.rules.events import HEAD_ON, CrashResult, resolve_crash
from entropy3d.rules.planner import PlannedMove


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
class RideOutcome:
    """The result of riding one action.

    trajectory: (N, 5) rows of t_s, x, y, z (inches), heading (degrees); what the video draws.
    end_pose: where the bike ends after the rules snapped it (inches).
    events: what happened, in order.
    stress_added: stress from the events (crash survival, destructible risk).
    busted: a failed survival test or a failed destructible test at max stress: run the bust
    sequence (EC-DICE-4). out_of_game: gone without a test (over the cliff, EC-COL-EDGE).
    escaped: rode off an open table edge.
    airborne: still in the air at the end (EC-JUMP-2); air_carry_in inches left to fly;
    air_velocity_in_s its velocity then (inches per second), for the next activation's physics.
    skip_next_activation: a survived head-on crash (EC-COL-HEAD).
    speed_after: a forced speed (side-on survival rides on at 1), or None.
    scenery: destructible pieces moved or removed by this ride.
    """

    trajectory: np.ndarray = field(repr=False)
    end_pose: Pose
    events: tuple[RideEvent, ...] = ()
    stress_added: int = 0
    busted: bool = False
    out_of_game: bool = False
    escaped: bool = False
    airborne: bool = False
    air_carry_in: float = 0.0
    air_velocity_in_s: tuple[float, float, float] = (0.0, 0.0, 0.0)
    skip_next_activation: bool = False
    speed_after: int | None = None
    scenery: Mapping[str, SceneryMove] = field(default_factory=dict)


class Rider(Protocol):
    """Rides one planned action (the physics layer, or the tabletop rules alone).

    ``name`` is recorded in the replay header so a re-simulation uses the same rider.
    """

    name: str

    def ride(self, state: MatchState, model_id: str, move: PlannedMove,
             rng: np.random.Generator) -> RideOutcome:
        """Ride ``move`` for ``model_id`` from ``state``; roll any tests with ``rng``."""


def timed_path(path: np.ndarray, headings_deg: np.ndarray, heights: np.ndarray, duration_s: float) -> np.ndarray:
    """A planned path as a trajectory ridden at constant speed over ``duration_s`` seconds."""
    path = np.asarray(path, float)
    steps = np.linalg.norm(np.diff(path, axis=0), axis=1) if len(path) > 1 else np.zeros(0)
    along = np.concatenate([[0.0], np.cumsum(steps)])
    total = float(along[-1])
    t = along / total * duration_s if total > 0 else np.linspace(0.0, duration_s, len(path))
    return np.column_stack([t, path, np.asarray(heights, float), np.asarray(headings_deg, float)])


def resolve_crash_event(bike, piece_id: str, facing_deg: float, into_deg: float, t_s: float, stress: int,
                        ruleset, rng: np.random.Generator) -> tuple[RideEvent, CrashResult]:
    """An unavoidable impact handed to the rules (EC-COL-1, -HEAD, -SIDE) as a readable event."""
    dodge = rider_dodge(bike.dodge, bike.bike, ruleset)
    result = resolve_crash(facing_deg, into_deg, dodge, stress, ruleset, rng, max_stress=bike.max_stress)
    kind = "head-on" if result.kind == HEAD_ON else "side-on"
    verdict = f"survived, +{result.stress_added} stress" if result.survived else "failed -> bust"
    angle = angle_between_deg(facing_deg, into_deg)
    text = (f"physics: {bike.id} hit '{piece_id}' at {angle:.0f} deg -> rules: {kind} crash, TN {result.tn}: "
            f"{dice_text(result.roll)}: {verdict}")
    return RideEvent("crash", text, result.clauses, piece_id, (roll_to_json(result.roll, f"{kind} crash"),),
                     t_s), result


def dice_text(roll) -> str:
    """'7+5 +2 stress = 14 (success)'."""
    return f"{'+'.join(map(str, roll.dice))} +{roll.stress} stress = {roll.total} ({roll.outcome.value})"


class PlannedPathRider:
    """The tabletop resolution: the bike follows its planned path and ends where the plan ends,
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

    def ride(self, state: MatchState, model_id: str, move: PlannedMove,
             rng: np.random.Generator) -> RideOutcome:
        bike = state.bike(model_id)
        path, headings = move.path, move.headings_deg
        clearance = 0.5 * self.ruleset.base_for(bike.bike).width
        blocked = self.table_map.blocked(path, move.start_pose.z, kinds_ignored=("destructible",),
                                         clearance=clearance) | self.table_map.ramp_sides_hit(path)
        blocked[0] = False
        stop = int(np.argmax(blocked)) - 1 if blocked.any() else len(path) - 1
        stop = max(stop, 0)
        heights = self.geometry.surface_height(path[:stop + 1], below=move.start_pose.z + 0.5)
        duration = self.seconds_per_action * (stop + 1) / len(path)
        trajectory = timed_path(path[:stop + 1], headings[:stop + 1], heights, duration)
        end = Pose(float(path[stop, 0]), float(path[stop, 1]), float(headings[stop]) % 360.0, float(heights[-1]))
        if stop == len(path) - 1:
            return RideOutcome(trajectory=trajectory, end_pose=end)
        event, result = resolve_crash_event(bike, "wall", float(headings[stop]), float(headings[stop]), duration,
                                            bike.stress, self.ruleset, rng)
        survived = bool(result.survived)
        return RideOutcome(trajectory=trajectory, end_pose=end, events=(event,),
                           stress_added=(result.stress_added + result.roll.stress_change) if survived else 0,
                           busted=not survived, skip_next_activation=result.skip_next_activation and survived,
                           speed_after=result.speed_after if survived else None)
