"""Which way a destructible a rider passed its test on moves (EC-DEST-4: "it moves speedx2 inches
in any direction you desire"; option ``knocked_piece`` in rules/entropy_city.yaml)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import SceneryHit
from entropy3d.systems.entropy_city.riding import knocked_direction


def hit(heading_deg: float, side: str, pushed=(0.0, 0.0)) -> SceneryHit:
    return SceneryHit("bench", 1, 5.0, 0.5, heading_deg, side, pushed)


def test_EC_DEST_4_by_default_the_rider_knocks_the_piece_aside_off_its_line(rules):
    """Clause: EC-DEST-4. The rulebook lets the rider choose; the data's default reading is aside:
    square to the heading, to the side of the rider's line the piece stood on. Worked by hand:
    heading north (90 degrees) with the piece on the left, left of north is west, (-1, 0);
    heading east (0) with the piece on the right, right of east is south, (0, -1); heading
    north-east (45) on the left: north-west, (-1, 1)/sqrt(2). A physics push the other way
    changes nothing: the rider, not the bump, chooses."""
    assert rules.option("knocked_piece") == "aside"
    direction, words = knocked_direction(hit(90.0, "left"), rules)
    assert direction == pytest.approx([-1.0, 0.0], abs=1e-12) and words == "aside to the rider's left"
    direction, words = knocked_direction(hit(0.0, "right", pushed=(3.0, 0.0)), rules)
    assert direction == pytest.approx([0.0, -1.0], abs=1e-12) and words == "aside to the rider's right"
    direction, _ = knocked_direction(hit(45.0, "left"), rules)
    assert direction == pytest.approx(np.array([-1.0, 1.0]) / np.sqrt(2.0))


def test_EC_DEST_4_the_other_reading_moves_it_the_way_it_was_knocked(rules):
    """Clause: EC-DEST-4, option ``knocked_piece: along``: the physics' push, made a unit
    vector ((3, 4) -> (0.6, 0.8)); with no push seen (the geometric producer), the heading
    (west, 180 degrees: (-1, 0))."""
    along = rules.with_option("knocked_piece", "along")
    direction, words = knocked_direction(hit(0.0, "left", pushed=(3.0, 4.0)), along)
    assert direction == pytest.approx([0.6, 0.8]) and words == "the way it was knocked"
    direction, _ = knocked_direction(hit(180.0, "right"), along)
    assert direction == pytest.approx([-1.0, 0.0], abs=1e-12)
