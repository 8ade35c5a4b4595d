"""Golden plans (tests/systems/entropy_city/data/golden_plans.yaml): hand-worked expected results."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, angle_between_deg
from entropy3d.systems.entropy_city.planner import plan_move

CASES = yaml.safe_load((Path(__file__).parent / "data" / "golden_plans.yaml").read_text())


MOVES = [c for c in CASES if "refuse" not in c]
REFUSALS = [c for c in CASES if "refuse" in c]


@pytest.mark.parametrize("case", MOVES, ids=[f"{c['clause']}: {c['name']}" for c in MOVES])
def test_golden_plan_results(rules, case):
    """Clause: each case names its clause id (EC-SPD-2, EC-TMPL-1, EC-TMPL-2, EC-ACT-CHICANE,
    EC-WEAVE-1, EC-ACT-STOPPIE)."""
    move = plan_move(case["plan"], Pose(*case["pose"]), case["bike"], case["speed_before"], rules)
    x, y, facing = case["end"]
    assert math.isclose(move.end_pose.x, x, abs_tol=1e-3) and math.isclose(move.end_pose.y, y, abs_tol=1e-3)
    assert angle_between_deg(move.end_pose.facing_deg, facing) < 1e-6
    assert move.stress == case["stress"]
    assert [[t.tn, t.stress_on_fail] for t in move.tests] == case["tests"]


@pytest.mark.parametrize("case", REFUSALS, ids=[f"{c['clause']}: {c['name']}" for c in REFUSALS])
def test_golden_plan_refusals(rules, case):
    """Clause: each case names its clause id (EC-BIKE-CRUISER, EC-BIKE-QUAD)."""
    with pytest.raises(IllegalPlanError) as err:
        plan_move(case["plan"], Pose(*case["pose"]), case["bike"], case["speed_before"], rules)
    assert err.value.clause == case["refuse"]
