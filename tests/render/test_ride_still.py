"""The jump picture's 3D panel (entropy3d.render.ride_still): a true side view of the ride."""

from __future__ import annotations

import math

import numpy as np

from entropy3d.activation.key import ColourKey
from entropy3d.activation.picture import STILL_BOX, ride_still
from entropy3d.render.ride_still import ride_camera
from tests.activation.kicker import kicker_jump


def test_the_3d_panel_looks_square_onto_the_rides_side_nearly_level_and_cuts_away_what_is_in_front():
    """Issue 48: the 3D panel was a high three-quarter view (22 degrees up, 20 round from the
    side), in which a flight's height does not read. For Scale's jump off the crossroads kicker
    (heading west along y 25.3) the camera looks level within 4 degrees, square onto the ride
    (its view's heading north or south within 1 degree), and what stands between it and the
    ride is cut away, but never the kicker the ride goes over."""
    table, geometry, story = kicker_jump()
    still = ride_still(story, ColourKey(story.facts.producer))
    left, top, right, bottom = STILL_BOX
    view, hidden = ride_camera(still, (right - left) / (bottom - top), geometry)
    dx, dy, dz = np.subtract(view.look_at, view.position)
    assert abs(math.degrees(math.atan2(dz, math.hypot(dx, dy)))) <= 4.0
    assert min(abs(math.degrees(math.atan2(dy, dx)) - side) for side in (90.0, -90.0)) <= 1.0
    assert "street_kicker" not in hidden
    eye = np.asarray(view.position)
    for piece in hidden:  # each piece cut away stands between the eye and the ride
        centre = np.mean(geometry.by_id(piece).mesh.bounds, axis=0)
        assert min(eye[1], 25.3) - 1.0 <= centre[1] <= max(eye[1], 25.3) + 1.0, piece
