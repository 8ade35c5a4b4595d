"""The game state an activation starts from and leaves behind: small immutable values.

The static :class:`~entropy3d.scene.table.Table` never changes; a :class:`GameState` holds what
does (every bike's rules state, moved or destroyed scenery, bikes in Air Time). A physics world
is built from both for one ride and thrown away; the snapped result is a new GameState.
All lengths are table inches, headings degrees counter-clockwise from +x.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

from entropy3d.geometry import Pose
from entropy3d.physics.world import ScenerySpot
from entropy3d.rules.activation import BikeState


@dataclass(frozen=True)
class AirTime:
    """A bike still in the air at the end of its activation (EC-JUMP-2).

    speed: the speed it left the ground at (EC-JUMP-4). carry_in: inches of the jump still to
    fly. velocity_in_s: its velocity then, inches per second (x, y, z); physics flies it on from
    there in its next activation. While a bike is in Air Time its pose's z is its height in the
    air (not the surface under it), so the next ride starts where it was flying.
    """

    speed: int
    carry_in: float
    velocity_in_s: tuple[float, float, float]


@dataclass(frozen=True)
class GameState:
    """The mutable side of a game as one value.

    bikes: each model's rules state (pose, speed, stress, wounds, skips), by model id.
    scenery: destructibles that moved or broke, by piece id. air: bikes in Air Time, by id.
    """

    bikes: Mapping[str, BikeState]
    scenery: Mapping[str, ScenerySpot] = field(default_factory=dict)
    air: Mapping[str, AirTime] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"GameState({len(self.bikes)} bikes, {len(self.scenery)} moved pieces, {len(self.air)} in the air)"

    def bike(self, model_id: str) -> BikeState:
        try:
            return self.bikes[model_id]
        except KeyError:
            raise KeyError(f"no bike {model_id!r}; bikes: {', '.join(self.bikes)}") from None

    def with_bike(self, bike: BikeState, air: AirTime | None = None) -> "GameState":
        """A new state with ``bike`` replaced; ``air`` its Air Time (None: on the ground)."""
        airborne = {k: v for k, v in self.air.items() if k != bike.id}
        if air is not None:
            airborne[bike.id] = air
        return dataclasses.replace(self, bikes={**self.bikes, bike.id: bike}, air=airborne)

    def with_scenery(self, moves: Mapping[str, ScenerySpot]) -> "GameState":
        return dataclasses.replace(self, scenery={**self.scenery, **moves})

    def to_json(self) -> dict:
        bikes = []
        for bike in self.bikes.values():
            data = dataclasses.asdict(bike)
            data["pose"] = pose_json(bike.pose)
            bikes.append(data)
        return {"bikes": bikes,
                "scenery": {k: dataclasses.asdict(v) for k, v in sorted(self.scenery.items())},
                "air": {k: {"speed": v.speed, "carry_in": round(v.carry_in, 4),
                            "velocity_in_s": [round(c, 4) for c in v.velocity_in_s]}
                        for k, v in sorted(self.air.items())}}


def pose_json(pose: Pose) -> dict:
    """A pose as JSON, rounded to 1/10000 inch and degree so outputs stay small and stable."""
    return {"x": round(pose.x, 4) + 0.0, "y": round(pose.y, 4) + 0.0, "z": round(pose.z, 4) + 0.0,
            "facing_deg": round(pose.facing_deg, 4) + 0.0}


def initial_state(table, geometry, turn_number: int = 2) -> GameState:
    """Every model of ``table`` at its starting pose (z from the table surface when not given).

    turn_number: the game turn the first activation happens in (1 forces speed 1, EC-TURN-4).
    """
    bikes = {}
    for model in table.models:
        z = float(geometry.surface_height([model.position[:2]])[0])
        rider = model.rider
        bikes[model.id] = BikeState(id=model.id, bike_type=model.bike, pose=table.start_pose(model, z),
                                    speed=int(model.speed), stress=int(rider.stress), wounds=int(rider.wounds),
                                    max_stress=int(rider.max_stress), turn_number=turn_number)
    return GameState(bikes=bikes)
