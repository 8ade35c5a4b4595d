"""The viewer's plan preview, headless: the rules' check of a typed plan, its odds, and where a
plan only the table refuses would have gone."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.game.replay import load_source
from entropy3d.game.tableview import TableView
from entropy3d.viewer.planning import preview_plan, preview_state


@pytest.fixture(scope="module")
def crossroads():
    table, geometry, _ = load_source(None)
    state = preview_state(table.initial_state(geometry.surface_height), at_start=True)
    return table, TableView(table, geometry), state


def test_EC_TER_BUILDING_a_plan_into_a_wall_is_refused_and_its_path_drawn_to_the_wall(crossroads):
    """Clause: EC-TER-BUILDING (issue 47: a refused plan drew no path). Viper (39, 22.7) facing
    west at speed 2, 3" on and a left medium turn (5" radius) south, ends at (31, 17.7), inside
    the offices (x 27.5-37.5, y 14.5-20.5): refused by the table, and the path the plan takes on an
    empty table is there to draw, running into the offices' footprint."""
    table, view, state = crossroads
    refused = preview_plan(state, "komodo_1", "s2: straight 3, left medium 5", table.ruleset, view)
    assert refused.move is None and refused.clause == "EC-TER-BUILDING"
    path = np.asarray(refused.refused_path)
    inside = (path[:, 0] > 27.5) & (path[:, 0] < 37.5) & (path[:, 1] > 14.5) & (path[:, 1] < 20.5)
    assert inside.any() and not inside[0]
    assert refused.to_dict()["refused_path"] is True


def test_EC_SPD_2_a_plan_the_rules_refuse_draws_no_path(crossroads):
    """Clause: EC-SPD-2: 30" at speed 2 is refused by the rules themselves (no table in it), so
    there is no path to draw; a legal plan has its move, odds and no refused path."""
    table, view, state = crossroads
    too_far = preview_plan(state, "komodo_1", "s2: straight 30", table.ruleset, view)
    assert too_far.clause == "EC-SPD-2" and too_far.refused_path is None
    legal = preview_plan(state, "komodo_1", "s2: straight 8", table.ruleset, view)
    assert legal.move is not None and legal.refused_path is None and legal.refusal is None
