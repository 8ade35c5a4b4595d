"""Issue 48's jump picture: Scale's jump off the crossroads kicker at speed 2 (ridden by the
geometric producer, whose flight off the 1" kicker rises 0.45" above take-off): a flight that low
is magnified beside the profile, and the 3D panel's ghost bikes stand apart."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from entropy3d.activation.key import KEY, ColourKey
from entropy3d.activation.picture import PROFILE_BOX, draw_picture, ride_still
from entropy3d.systems.words import Names
from tests.activation import kicker


@pytest.fixture(scope="module")
def kicker_jump():
    return kicker.kicker_jump()


def test_a_low_flight_is_drawn_at_least_a_hundred_pixels_high(kicker_jump):
    """Issue 48: a flight rising a tenth of an inch was a dozen pixels of arc on the profile,
    drawn on one scale with the whole ride. Its flight, in the key's flight colour, spans at
    least 100 px of height in the profile panel (the magnified view beside the plot says by how
    much it is magnified), and every flight pixel of the main plot still lies where the plot
    puts the flight's rows."""
    table, geometry, story = kicker_jump
    picture = draw_picture(table, geometry, story, Names.of_table(table), backend="tiny")
    left, top, right, bottom = PROFILE_BOX
    panel = np.asarray(picture.image)[top:bottom, left:right]
    rows, columns = np.nonzero(np.all(panel == KEY["flight"][0], axis=2))
    assert len(rows) and rows.max() - rows.min() >= 100, f"the flight is {np.ptp(rows) if len(rows) else 0} px high"
    axes = picture.axes
    airborne = story.airborne_rows()
    drawn = axes.px(story.distances[airborne], story.trajectory[airborne, 3])
    in_plot = columns + left <= axes.left + axes.width
    assert in_plot.any()
    assert (rows[in_plot] + top).min() >= drawn[:, 1].min() - 3 and (rows[in_plot] + top).max() <= drawn[:, 1].max() + 3


def test_the_ghost_bikes_stand_at_least_a_bike_length_apart(kicker_jump):
    """Issue 48: the ghosts clumped (take-off and peak 2.7" apart drew one bike over another, a
    sportsbike's base being 2.95" long). Every two ghosts of the 3D panel stand more than a
    base length apart, and the take-off and the end are among them."""
    _, _, story = kicker_jump
    ghosts = ride_still(story, ColourKey(story.facts.producer)).ghosts
    for a, b in itertools.combinations(ghosts, 2):
        assert math.dist((a.x, a.y, a.z), (b.x, b.y, b.z)) > story.base.length, (a, b)
    launch = story.flight.launch_xy
    assert any(math.dist((g.x, g.y), launch) < 1e-6 for g in ghosts), "no ghost at the take-off"
    assert any(math.dist((g.x, g.y), story.end.xy) < 1e-6 for g in ghosts), "no ghost at the end"
