from pathlib import Path

import numpy as np
import pytest

from entropy3d.geometry import Pose
from entropy3d.physics import BikeBody, build_table_world, ride
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry

DATA = Path(__file__).parent / "data"


class Ground:
    """A loaded fixture table with its geometry, and a helper to ride one model on it."""

    def __init__(self, name: str):
        self.table = load_scene(DATA / name)
        self.geometry = build_table_geometry(self.table)
        self.ruleset = self.table.ruleset

    def pose(self, model_id: str) -> Pose:
        model = self.table.model(model_id)
        z = float(self.geometry.surface_height([model.position[:2]])[0])
        return self.table.start_pose(model, z)

    def ride(self, model_id: str, path, inches_per_activation: float, *, pose: Pose | None = None,
             velocity_in_s=(0.0, 0.0, 0.0), in_air: bool = False, others=(), time_slice_s=None):
        model = self.table.model(model_id)
        start = pose or self.pose(model_id)
        rider = BikeBody(model_id, self.table.base_of(model), start, tuple(velocity_in_s))
        with build_table_world(self.table, self.geometry, rider=rider, others=others) as world:
            speed = inches_per_activation / self.ruleset.scale.seconds_per_activation
            return ride(world, model_id, np.asarray(path, float), speed, in_air=in_air,
                        time_slice_s=time_slice_s)


@pytest.fixture(scope="session")
def proving_ground() -> Ground:
    return Ground("proving_ground.yaml")


@pytest.fixture(scope="session")
def flat() -> Ground:
    return Ground("flat.yaml")
