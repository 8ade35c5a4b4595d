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
