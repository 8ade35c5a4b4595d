"""The video camera keeps the active bike in sight: a shot whose default place is behind a
building (or under a roof filling the foreground) is moved to a clear one, once per action."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.video.director import (
    FOREGROUND_SHARE,
    STYLES,
    CameraPlan,
    blocked,
    clear_view,
    eye_for,
    occluder_mesh,
    plan_camera,
    sight_targets,
)


def straight_ride(start_xy, heading_deg: float, length: float, z: float = 0.0, rows: int = 12) -> np.ndarray:
    """A trajectory (rows t, x, y, z, heading) along a straight line, inches and degrees."""
    direction = np.array([np.cos(np.radians(heading_deg)), np.sin(np.radians(heading_deg))])
    s = np.linspace(0.0, length, rows)
    xy = np.asarray(start_xy, float) + s[:, None] * direction
    return np.column_stack([np.linspace(0.0, 1.5, rows), xy, np.full(rows, z), np.full(rows, heading_deg)])


def eyes_and_bikes(plan: CameraPlan, trajectory: np.ndarray, table_size=None) -> tuple[np.ndarray, np.ndarray]:
    """The eyes of ``plan`` along a ride (looking where the film looks: the bike, or near an edge
    a point toward the table) and the bikes they must see."""
    bikes = trajectory[:, 1:4] + np.array([0.0, 0.0, 0.6])
    return np.array([eye_for(plan.target(b, table_size), h, plan) for b, h in zip(bikes, trajectory[:, 4])]), bikes


@pytest.fixture(scope="module")
def small_table(small_table_path):
    table = load_scene(small_table_path)
    return table, occluder_mesh(build_table_geometry(table))


def test_chase_camera_moves_out_from_behind_the_tower(small_table):
    """The small table's tower (x, y 2..8, 6.4 in tall) stands right behind a bike riding +x
    from (10.5, 5): the default chase eye looks through it; the chosen one sees the bike."""
    table, mesh = small_table
    ride = straight_ride((10.5, 5.0), 0.0, 3.0)
    distance, elevation = STYLES["chase"]
    default_eyes, bikes = eyes_and_bikes(CameraPlan("chase", 0.0, elevation, distance), ride)
    assert blocked(mesh, default_eyes, bikes).any(), "the fixture no longer hides the bike"

    plan = plan_camera(mesh, ride, "chase", (table.width, table.depth))
    eyes, bikes = eyes_and_bikes(plan, ride, (table.width, table.depth))
    assert clear_view(mesh, eyes, bikes)
    assert (plan.azimuth_deg, plan.elevation_deg) != (0.0, elevation)


def test_a_roof_filling_the_foreground_counts_as_blocking():
    """A wide low roof between the drone camera and the bike, under the line of sight to the
    bike itself, would fill the lower half of the frame: the chosen shot sees past it."""
    ride = straight_ride((20.0, 24.0), 90.0, 4.0)
    distance, elevation = STYLES["drone"]
    default = CameraPlan("drone", 0.0, elevation, distance)
    default_eyes, bikes = eyes_and_bikes(default, ride)
    horizontal = distance * np.cos(np.radians(elevation))
    roof = trimesh.creation.box(extents=(16.0, 8.0, 6.0))
    roof.apply_translation((20.0, 24.0 - horizontal / 2 - 4.0, 3.0))
    assert clear_view(roof, default_eyes, bikes), "the roof should sit under the sight line"
    radius = FOREGROUND_SHARE * distance
    foreground = np.vstack([sight_targets(b, e, radius) for b, e in zip(bikes, default_eyes)])
    assert blocked(roof, np.repeat(default_eyes, 4, axis=0), foreground).any()

    plan = plan_camera(roof, ride, "drone", (48.0, 48.0))
    eyes, bikes = eyes_and_bikes(plan, ride, (48.0, 48.0))
    targets = np.vstack([sight_targets(b, e, radius) for b, e in zip(bikes, eyes)])
    assert not blocked(roof, np.repeat(eyes, 4, axis=0), targets).any()


def test_the_same_ride_always_gets_the_same_camera(small_table):
    """Replays render deterministically: the plan depends only on the ride and the table."""
    table, mesh = small_table
    ride = straight_ride((10.5, 5.0), 0.0, 3.0)
    first = plan_camera(mesh, ride, "chase", (table.width, table.depth))
    again = plan_camera(mesh.copy(), ride.copy(), "chase", (table.width, table.depth))
    assert first == again
