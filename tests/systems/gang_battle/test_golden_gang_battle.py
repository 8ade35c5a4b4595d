"""Golden rulings of the gang battle (tests/systems/data/golden_gang_battle.yaml): each case
played on tests/data/gang_yard.yaml through the engine's one path, its events, refusals and
state compared with the figures worked by hand from seed 003 (issue 46)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.golden import Yard, case_id, check_case, load_cases

YARD = Path(__file__).parents[2] / "data" / "gang_yard.yaml"
CASES = load_cases("gang_battle")


@pytest.fixture(scope="module")
def yards():
    """Path -> the Yard built on it, for this module's cases."""
    return {}


def test_the_golden_file_has_eight_cases_or_more_each_naming_its_clauses():
    """Issue 46: at least 8 hand-worked cases, every one naming GANG-* clauses."""
    assert len(CASES) >= 8
    assert all(case["clauses"] and all(c.startswith("GANG-") for c in case["clauses"]) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_GANG_golden_rulings(yards, case):
    """Clauses: GANG-ARC, GANG-COVER, GANG-SHOOT, GANG-PIN, GANG-AMMO, GANG-WOUND, GANG-INJURY,
    GANG-NERVE, GANG-BROKEN, GANG-RUN, GANG-RALLY, GANG-BOTTLE, GANG-CHARGE, GANG-CC, GANG-COUP,
    GANG-RETREAT (each case names its own). The dice
    stated are the dice rolled, in order; the events, the refusal and the state after are the
    hand-worked ones."""
    check_case(Yard.of(case, YARD, yards), case)
