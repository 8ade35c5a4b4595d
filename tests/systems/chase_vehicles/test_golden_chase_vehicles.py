"""Golden rulings of the chase & vehicle rules (tests/systems/data/golden_chase_vehicles.yaml):
each case driven on the bundled scenes/systems/car_chase.yaml through the engine's one path (the
geometric producer rides the drive, the table reads it), its events, refusals and state compared
with the figures worked by hand from seed 001 (issue 46)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.golden import Yard, case_id, check_case, load_cases

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "car_chase.yaml"
CASES = load_cases("chase_vehicles")


@pytest.fixture(scope="module")
def yards():
    """Path -> the Yard built on it, for this module's cases."""
    return {}


def test_the_golden_file_has_eight_cases_or_more_each_naming_its_clauses():
    """Issue 46: at least 8 hand-worked cases, every one naming SW-* clauses."""
    assert len(CASES) >= 8
    assert all(case["clauses"] and all(c.startswith("SW-") for c in case["clauses"]) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_SW_golden_rulings(yards, case):
    """Clauses: SW-VEH-1, SW-VEH-2, SW-RAM, SW-DMG, SW-CRIT, SW-CHASE, SW-TURN (each case names
    its own). The dice stated are the dice rolled, in order; the events, the refusal and the
    state after are the hand-worked ones."""
    check_case(Yard.of(case, SCENE, yards), case)
