"""The film shows an ambusher as the action that springs it settles (EC-TRAIT-AMBUSH,
entropy3d/video/reveals.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import WAITING, ModelState, State
from entropy3d.video.director import CameraPlan
from entropy3d.video.reveals import reveal_framing, revealed


def test_EC_TRAIT_AMBUSH_the_film_frames_the_rider_and_the_ambusher_it_sprang_in_one_shot():
    """Clause: EC-TRAIT-AMBUSH. Ash's ride ends at (8, 12) and springs Viper on (15, 14): Viper,
    in play after the activation, is the model the film stands on the table as the ride settles
    (a waiting model, or one no event reveals, is not). The shot looks at the midpoint of Ash (z
    0.5") and Viper (z 0.5"), (11.5, 13, 0.5), from 2 x 3.64" / tan(25 deg) = 15.61" back with a 50
    degree view, so both stand within the middle half of it; with nothing revealed the shot is the
    ride's as it was (6" back)."""
    viper = ModelState("k1", "komodo", "sportsbike", Pose(15, 14, 180.0), 1, 0, 3, 10, traits=(("ambush", None),))
    ash = ModelState("h1", "hades", "sportsbike", Pose(8, 12, 0.0), 1, 0, 3, 10)
    jet = ModelState("k2", "komodo", "sportsbike", Pose(30, 3, 90.0), 1, 0, 3, 10, status=WAITING)
    after = State(turn=1, mission="turf_war", models={m.id: m for m in (ash, viper, jet)})
    events = [Event("move", "h1", "h1 rides 4\""), Event("trait", "k1", "k1 springs an ambush",
                                                           figures={"ambush": "revealed", "rider": "h1"}),
              Event("trait", "k2", "no reveal", figures={"ambush": "revealed", "rider": "h1"})]
    assert [m.id for m in revealed(events, after)] == ["k1"]
    plan = CameraPlan("drone", 180.0, 60.0, 6.0, 50.0)
    point = np.array([8.0, 12.0, 0.5])
    middle, framed = reveal_framing(plan, point, revealed(events, after))
    assert middle == pytest.approx([11.5, 13.0, 0.5])
    assert framed.distance_in == pytest.approx(2 * math.hypot(3.5, 1.0) / math.tan(math.radians(25.0)))
    assert reveal_framing(plan, point, []) == (point, plan)
