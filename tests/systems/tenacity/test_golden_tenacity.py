"""Golden rulings of 10acity Tactics (tests/systems/data/golden_tenacity.yaml): each case played
on the bundled scenes/systems/rooftop_skirmish.yaml through the engine's one path, its events,
refusals and state compared with the figures worked by hand from seed 002 (issue 46)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.golden import Yard, case_id, check_case, load_cases

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "rooftop_skirmish.yaml"
CASES = load_cases("tenacity")


@pytest.fixture(scope="module")
def yards():
    """Path -> the Yard built on it, for this module's cases."""
    return {}


def test_the_golden_file_has_eight_cases_or_more_each_naming_its_clauses():
    """Issue 46: at least 8 hand-worked cases, every one naming TEN-* clauses."""
    assert len(CASES) >= 8
    assert all(case["clauses"] and all(c.startswith("TEN-") for c in case["clauses"]) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_TEN_golden_rulings(yards, case):
    """Clauses: TEN-TURN, TEN-ELEV, TEN-ATTACK, TEN-COVER, TEN-SIZE, TEN-STRESS, TEN-PRONE,
    TEN-DEFEND, TEN-MOVE (each case names its own). The dice stated are the dice rolled, in
    order; the events, the refusal and the state after are the hand-worked ones."""
    check_case(Yard.of(case, SCENE, yards), case)
