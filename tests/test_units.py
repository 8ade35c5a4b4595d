"""Unit conversion: mesh units to table inches, and table inches to the depicted world's metres."""

from __future__ import annotations

import math

import numpy as np
import pytest

from entropy3d.scene import load_ruleset
from entropy3d.units import TableScale, mm_to_inches, to_inches


@pytest.mark.parametrize("value, unit, inches", [(25.4, "mm", 1.0), (2.54, "cm", 1.0), (3.0, "in", 3.0),
                                                  (0.0254, "m", 1.0), (75.0, "mm", 75 / 25.4)])
def test_mesh_units_to_inches(value, unit, inches):
    assert to_inches(value, unit) == pytest.approx(inches)


def test_arrays_convert_elementwise_and_unknown_units_are_named():
    assert to_inches(np.array([25.4, 50.8]), "mm") == pytest.approx([1.0, 2.0])
    assert mm_to_inches(42.0) == pytest.approx(42 / 25.4)
    with pytest.raises(ValueError, match="'ft'.*mm, cm, in, m"):
        to_inches(1.0, "ft")


def test_table_scale_round_trips_and_gives_depicted_speeds():
    scale = TableScale(metres_per_inch=1.42, seconds_per_activation=1.5)
    assert scale.inches(scale.metres(16.0)) == pytest.approx(16.0)
    # a speed-3 move of 16" is ~23 m of the depicted city in one 1.5 s activation: ~15 m/s
    assert scale.metres(16.0) == pytest.approx(22.72)
    assert scale.speed_mps(16.0) == pytest.approx(22.72 / 1.5)
    with pytest.raises(ValueError):
        TableScale(0.0, 1.5)


def test_rules_data_scale_matches_a_28mm_figure_as_a_175m_person():
    """1 table inch ~ 1.4 m: a 28-32 mm figure depicts a ~1.75 m person (the brief's scale)."""
    scale = load_ruleset().scale
    figure_mm = 30.0
    person_m = scale.metres(mm_to_inches(figure_mm))
    assert 1.6 < person_m < 1.9
    assert math.isclose(scale.metres_per_inch, 1.42, rel_tol=0.05)
