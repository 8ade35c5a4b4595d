"""Golden rulings of Entropy City (tests/systems/data/golden_entropy_city.yaml): each case played
on tests/data/pass_yard.yaml through the engine's one path (tests/systems/golden.py), its
events, refusals and state compared with the figures worked by hand from seed 000."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.golden import Yard, case_id, check_case, load_cases

YARD = Path(__file__).parents[1] / "data" / "pass_yard.yaml"
CASES = load_cases("entropy_city")


@pytest.fixture(scope="module")
def yards():
    """Path -> the Yard built on it, for this module's cases."""
    return {}


def test_each_golden_case_names_entropy_city_clauses_and_the_pass_is_among_them():
    """The file's cases each name the EC-* clauses they check; EC-ACT-PASS, which no other game of
    the clause-reach corpus reaches, is one of them."""
    assert CASES and all(case["clauses"] and all(c.startswith("EC-") for c in case["clauses"]) for case in CASES)
    assert any("EC-ACT-PASS" in case["clauses"] for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_EC_golden_rulings(yards, case):
    """Clauses: EC-ACT-PICKUP, EC-MISSION-GRAB, EC-ACT-PASS, EC-ACT-STUNT, EC-DICE-7 (each case
    names its own). The dice stated are the dice rolled, in order; the events and the state after
    are the hand-worked ones."""
    check_case(Yard.of(case, YARD, yards), case)
