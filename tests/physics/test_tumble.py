"""A crashed bike's fall (entropy3d.physics.tumble): physics continued from the contact in a world
of its own, for the film. It knocks a fast bike off its wheels, leaves a bike that barely touched
upright, is the same bytes every time, and changes no fact the rules read."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.geometry import BaseShape, Pose
from entropy3d.physics.tumble import TUMBLE_COLUMNS, speed_before, tilt_deg, tumble
from entropy3d.scene.rulesfile import load_ruleset

BASE = BaseShape(2.95, 1.65)  # a 75 x 42 mm bike base, inches
SCALE = load_ruleset().scale  # the rules data's one factor: inches to depicted metres


def fall(speed_in_s: float, into_deg: float = 0.0) -> np.ndarray:
    return tumble(BASE, 1.8, SCALE, Pose(10.0, 10.0, 0.0, 0.0), (speed_in_s, 0.0, 0.0), into_deg)


def test_a_head_on_crash_at_speed_knocks_the_bike_off_its_wheels_and_it_comes_to_lie():
    rows = fall(14.0)
    assert rows.shape[1] == len(TUMBLE_COLUMNS) and rows[0, 0] == 0.0 and rows[-1, 0] >= 1.5
    tilts = [tilt_deg(q) for q in rows[:, 4:]]
    assert tilts[0] < 1.0 and max(tilts) > 45.0
    assert np.all(rows[:, 3] > -0.1)  # never through the floor


def test_a_bike_that_barely_touched_stays_upright():
    assert max(tilt_deg(q) for q in fall(0.5)[:, 4:]) < 20.0


def test_moving_away_from_what_it_touched_is_no_hit():
    assert max(tilt_deg(q) for q in fall(14.0, into_deg=180.0)[:, 4:]) < 20.0


def test_a_fall_is_the_same_bytes_every_time():
    assert fall(14.0).tobytes() == fall(14.0).tobytes()


def test_the_speed_into_a_crash_is_read_before_the_contact_slowed_the_bike():
    trajectory = np.array([[0.0, 0.0, 0, 0, 0], [0.1, 1.4, 0, 0, 0], [0.2, 2.8, 0, 0, 0], [0.3, 2.9, 0, 0, 0]])
    assert speed_before(trajectory, 0.25) == pytest.approx([14.0, 0.0, 0.0])


def seat_bounds() -> np.ndarray:
    from entropy3d.scene.miniature import miniature_shape

    return miniature_shape(BASE, Pose(0.0, 0.0, 0.0, 0.0), load_ruleset()).rider.bounds


def body_centres(rows: np.ndarray) -> np.ndarray:
    """The rider's body centre (inches) in each row: the frame's origin plus its turn of the
    centre of his box in the seat."""
    centre = seat_bounds().mean(axis=0)
    x, y, z, w = rows[:, 4:].T
    turn = np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)
    return rows[:, 1:4] + turn @ centre


def throw(obstacle_height_in: float, speed_in_s: float = 6.0) -> np.ndarray:
    from entropy3d.physics.tumble import thrown_rider

    return thrown_rider(seat_bounds(), SCALE, Pose(10.0, 10.0, 0.0, 0.0), (speed_in_s, 0.0, 0.0), 0.0,
                        (10.0 + BASE.length / 2, 10.0), obstacle_height_in)


def test_a_rider_is_thrown_over_a_low_obstacle_and_lands_beyond_it():
    """Issue 43: "the rider thrown". Hitting a bike at 6"/s (8.5 m/s depicted), he leaves the seat,
    rises over the bars and comes down past the contact, lying on the floor, not through it."""
    rows = throw(1.0)
    assert rows.shape[1] == len(TUMBLE_COLUMNS) and np.allclose(rows[0, 1:4], [10.0, 10.0, 0.0])
    centres, seated = body_centres(rows), seat_bounds().mean(axis=0)[2]
    contact_x = 10.0 + BASE.length / 2
    assert centres[:, 2].max() > seated + 0.2 and centres[-1, 0] > contact_x + 1.0  # up and over
    assert centres[-1, 2] < 0.6 and centres[:, 2].min() > 0.2  # down on the floor, never through it
    assert max(tilt_deg(q) for q in rows[:, 4:]) > 45.0  # head first, not sitting upright


def test_a_rider_thrown_into_a_building_meets_its_wall_and_drops():
    rows = throw(8.0)
    contact_x = 10.0 + BASE.length / 2
    centres = body_centres(rows)
    assert contact_x - 0.7 < centres[:, 0].max() < contact_x  # he reaches the wall, never passes it
    assert centres[-1, 2] < seat_bounds().mean(axis=0)[2] - 0.3  # and ends lower than his seat
    assert throw(8.0).tobytes() == rows.tobytes()
