"""The geometric producer's flights off a level (tests/data/edge_deck.yaml: a 3" deck whose north
edge stands 3" in from the table's). In the air a bike has no control: it flies straight on from
where it left, as physics flies it, not along the planned path's turns."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import progress_lookup
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.transition import Action, check

DECK = Path(__file__).resolve().parents[1] / "data" / "edge_deck.yaml"


@pytest.fixture(scope="module")
def deck():
    table = load_scene(DECK)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    return table, state, probe, GeometricProducer(table, geometry, probe)


def ride(deck, model_id: str, plan: str):
    table, state, probe, producer = deck
    action = check(state, Action.ride(model_id, plan), table.ruleset, probe)
    return action, producer.ride(state, action)


def test_EC_COL_EDGE_a_flight_off_the_table_leaves_it_in_the_geometric_producer_too(deck):
    """Clause: EC-COL-EDGE, EC-JUMP-2: leaper rides off the deck's north edge and flies over the
    table's north edge: the geometric producer reports the edge (as physics does), not a bike
    still in the air beyond the table."""
    _, facts = ride(deck, "leaper", "s3: straight 12")
    assert [f.from_piece for f in facts.flights] == ["deck"] and facts.flights[0].land_xy is None
    assert (facts.edge, facts.edge_kind, facts.completed) == ("north", "open", False)
    assert facts.trajectory[-1, 2] > deck[0].spec.table.depth


def test_a_flight_goes_straight_on_where_the_planned_path_turns(deck):
    """A fact of the ride, not a rule (physics flies so too): runner leaves the deck's east end
    as the wide turn at the end of its move begins; in the air it flies straight on along its
    heading at the take-off, every flight point on that line, while the planned path turns on by
    more than 20 degrees."""
    action, facts = ride(deck, "runner", "s3: straight 6, left wide 6")
    [flight] = facts.flights
    launch_t, (x0, y0) = flight.launch_t_s, flight.launch_xy
    in_air = facts.trajectory[facts.trajectory[:, 0] > launch_t]
    heading = float(in_air[0, 4])
    assert np.all(in_air[:, 4] == heading)
    along = np.radians(heading)
    across = (in_air[:, 1] - x0) * math.sin(along) - (in_air[:, 2] - y0) * math.cos(along)
    assert np.abs(across).max() < 1e-9
    assert float(action.move.headings_deg[-1]) - heading > 20.0
    assert in_air[-1, 3] < flight.launch_z  # it comes down from the deck


def test_distance_along_the_path_is_measured_at_the_foot_of_a_points_perpendicular():
    """Both producers measure where a ride's points and a flight's landing are along the path
    with :func:`progress_lookup`: beside a segment, at the foot of the perpendicular (not the
    nearest path point), past the end along the last direction, and never before the start."""
    lookup = progress_lookup(np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]]))
    found = lookup(np.array([[3.3, 1.0], [10.5, 4.2], [10.0, 14.0], [-2.0, 0.5]]))
    assert found == pytest.approx([3.3, 14.2, 24.0, 0.0])
