"""The mutable side of a game as immutable values: every bike's state and the moved scenery.

The static :class:`~entropy3d.scene.table.Table` never changes; a :class:`MatchState` is the
game at one moment (turn, bikes, scenery, score) and every change makes a new one, so a replay
can store the state after each activation and a renderer can show any of them. All lengths are
table inches, headings degrees counter-clockwise from +x.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

from entropy3d.geometry import Pose
from entropy3d.rules.scenery import ScenerySpot

RIDING = "riding"
AIR_TIME = "air_time"  #: still airborne at the end of its activation (EC-JUMP-2)
OUT = "out"            #: out of the game (no wounds left, failed remount, over the cliff)
ESCAPED = "escaped"    #: rode off an open table edge (Lovers Point Brawl: it escaped)
STATUSES = (RIDING, AIR_TIME, OUT, ESCAPED)


@dataclass(frozen=True)
class BikeState:
    """One miniature's state between actions.

    id, gang, bike: from the scene. pose: base centre and surface height, inches.
    speed: current speed 0-3 (0 stopped). stress: current stress (EC-DICE-6).
    wounds: wounds left (EC-DICE-4). max_stress: the rider's max stress (EC-DICE-7).
    status: riding, air_time, out or escaped.
    skip_next_activation: a head-on survival or a stop skips the next activation (EC-COL-HEAD).
    skip_next_action: a successful remount skips the next action (EC-DICE-4).
    only_moved: it only moved in its last activation: +1 TN to hit it (EC-MOVE-3).
    air_carry_in: inches of a jump still to fly in its next activation (EC-JUMP-2).
    air_speed: the speed it left the ground at while in Air Time (EC-JUMP-4), else 0.
    forced_speed: the speed its next action must be declared at (after a stoppie), or None.
    air_velocity_in_s: its velocity (x, y, z inches per second) while in Air Time, for physics.
    """

    id: str
    gang: str
    bike: str
    pose: Pose
    speed: int
    stress: int
    wounds: int
    max_stress: int
    dodge: int = 1
    protection: int = 0
    status: str = RIDING
    skip_next_activation: bool = False
    skip_next_action: bool = False
    only_moved: bool = False
    air_carry_in: float = 0.0
    air_speed: int = 0
    forced_speed: int | None = None
    air_velocity_in_s: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def __repr__(self) -> str:
        return (f"BikeState({self.id} {self.status} {self.pose!r} speed {self.speed} "
                f"stress {self.stress} wounds {self.wounds})")

    @property
    def in_play(self) -> bool:
        """Still on the table and taking part (riding or in Air Time)."""
        return self.status in (RIDING, AIR_TIME)

    def but(self, **changes) -> "BikeState":
        """A copy with ``changes`` (field names checked by dataclasses.replace)."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict:
        data = dataclasses.asdict(self)
        data["pose"] = pose_to_json(self.pose)
        data["air_velocity_in_s"] = [round(float(v), 4) for v in self.air_velocity_in_s]
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> "BikeState":
        return cls(**{**data, "pose": pose_from_json(data["pose"]),
                      "air_velocity_in_s": tuple(float(v) for v in data.get("air_velocity_in_s", (0, 0, 0)))})


@dataclass(frozen=True)
class MatchState:
    """The whole game at one moment.

    turn: 1-based turn number (0 before the first turn). bikes: by model id, in scene order.
    scenery: destructible pieces that moved, by piece id (destroyed pieces persist).
    score: victory points by gang id. taken_out_by: model id -> the gang that took it out.
    """

    turn: int
    bikes: Mapping[str, BikeState]
    scenery: Mapping[str, ScenerySpot] = field(default_factory=dict)
    score: Mapping[str, int] = field(default_factory=dict)

    def bike(self, model_id: str) -> BikeState:
        return self.bikes[model_id]

    def with_bike(self, bike: BikeState) -> "MatchState":
        return dataclasses.replace(self, bikes={**self.bikes, bike.id: bike})

    def with_scenery(self, piece_id: str, move: ScenerySpot) -> "MatchState":
        return dataclasses.replace(self, scenery={**self.scenery, piece_id: move})

    def add_score(self, gang: str, points: int) -> "MatchState":
        return dataclasses.replace(self, score={**self.score, gang: self.score.get(gang, 0) + points})

    def gangs_in_play(self) -> list[str]:
        """Gangs that still have a model on the table, in scene order."""
        seen: list[str] = []
        for bike in self.bikes.values():
            if bike.in_play and bike.gang not in seen:
                seen.append(bike.gang)
        return seen

    def to_json(self) -> dict:
        return {"turn": self.turn,
                "bikes": [b.to_json() for b in self.bikes.values()],
                "scenery": {k: dataclasses.asdict(v) for k, v in sorted(self.scenery.items())},
                "score": dict(sorted(self.score.items()))}

    @classmethod
    def from_json(cls, data: Mapping) -> "MatchState":
        bikes = [BikeState.from_json(b) for b in data["bikes"]]
        return cls(turn=int(data["turn"]), bikes={b.id: b for b in bikes},
                   scenery={k: ScenerySpot(**v) for k, v in data.get("scenery", {}).items()},
                   score=dict(data.get("score", {})))


def pose_to_json(pose: Pose) -> list[float]:
    """[x, y, z, facing_deg] rounded to 1/10000 inch and degree, so replays stay small."""
    return [round(pose.x, 4), round(pose.y, 4), round(pose.z, 4), round(pose.facing_deg, 4)]


def pose_from_json(values) -> Pose:
    x, y, z, facing = (float(v) for v in values)
    return Pose(x, y, facing, z)


def initial_state(table, surface_height=None) -> MatchState:
    """The state before turn 1, from the scene's models.

    surface_height: callable (points (N, 2)) -> heights, e.g. ``TableGeometry.surface_height``,
    used for models whose position has no z.
    """
    bikes = {}
    for model in table.models:
        z = 0.0
        if len(model.position) == 2 and surface_height is not None:
            z = float(surface_height([model.position[:2]])[0])
        pose = table.start_pose(model, z)
        rider = model.rider
        bikes[model.id] = BikeState(
            id=model.id, gang=model.gang, bike=model.bike, pose=pose, speed=int(model.speed),
            stress=int(rider.stress), wounds=int(rider.wounds), max_stress=int(rider.max_stress),
            dodge=int(rider.dodge), protection=int(rider.protection))
    return MatchState(turn=0, bikes=bikes, scenery={}, score={g: 0 for g in table.spec.gangs})
