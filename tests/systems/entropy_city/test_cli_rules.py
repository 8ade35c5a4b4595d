"""The rules commands as a user runs them: ``entropy3d odds`` and ``entropy3d plan``."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import rules_commands  # noqa: F401  (registers the commands)
from entropy3d.cli.app import app
from entropy3d.systems.entropy_city.dice import policy_named
from entropy3d.systems.entropy_city.odds import exact_odds

TABLE = Path(__file__).parent / "data" / "plan_table.yaml"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_odds_prints_the_exact_probabilities(rules):
    """Clause: EC-DICE-5. The printed numbers are the engine's exact odds: percentages, and the
    fractions only with --exact."""
    plain = run("odds", "--tn", "14", "--stress", "3", "--policy", "never")
    result = run("odds", "--tn", "14", "--stress", "3", "--policy", "never", "--exact")
    assert result.exit_code == 0 and plain.exit_code == 0, result.output
    odds = exact_odds(14, 3, rules, policy_named("never", rules))
    for name in ("success", "crit", "fail", "bust"):
        p = getattr(odds, name)
        line = next(line for line in result.output.splitlines() if line.strip().startswith(name))
        assert f"{float(p):.2%}" in line and f"{p.numerator}/{p.denominator}" in line
        short = next(line for line in plain.output.splitlines() if line.strip().startswith(name))
        assert f"{float(p):.2%}" in short and "/" not in short
    # by hand: dice 11..18 with stress 3 reach 14 without busting: 10+9+8+7+6+5+4+3 = 52 pairs
    # (the two natural 21s among them); dice 19-20 bust: 3 pairs
    assert (odds.success, odds.bust) == (Fraction(52, 100), Fraction(3, 100))


def test_odds_rejects_an_unknown_policy():
    result = run("odds", "--tn", "14", "--policy", "yolo")
    assert result.exit_code == 2 and "sit-at-tn" in result.output


def test_EC_DICE_7_odds_refuses_a_max_stress_below_1():
    result = run("odds", "--tn", "14", "--max-stress", "-1")
    assert result.exit_code == 2 and "--max-stress" in result.output


def test_plan_prints_length_end_pose_stress_and_tests():
    """Clause: EC-TMPL-2. Speed 3 on a wide template costs a TN 14 test, +2 on a fail."""
    result = run("plan", str(TABLE), "--model", "p1", "s3: straight 6, left wide 7")
    assert result.exit_code == 0, result.output
    assert 'length    13"' in result.output
    assert "facing 90.0 deg" in result.output and "TN 14, +2 stress on fail" in result.output


def test_plan_takes_the_model_as_m_as_activate_does():
    """``-m`` is ``--model`` in plan too (activate and act take it; plan refused it)."""
    short, long = run("plan", str(TABLE), "-m", "p1", "s3: straight 12"), run("plan", str(TABLE), "--model", "p1",
                                                                                "s3: straight 12")
    assert short.exit_code == 0 and short.output == long.output, short.output


def test_plan_reads_terrain_from_the_scene():
    """Clause: EC-TER-GRASS. The turn is on the lawn: +1 stress and +1 on a failed test."""
    result = run("plan", str(TABLE), "--model", "g1", "s3: straight 6, left wide 7")
    assert result.exit_code == 0, result.output
    assert "stress    +1 now" in result.output and "TN 14, +3 stress on fail" in result.output


@pytest.mark.parametrize("model, plan, clause", [
    ("p1", "s2: straight 13", "EC-SPD-2"),
    ("p1", "s2: straight 3, left medium 3, straight 3", "EC-MOVE-2"),
    ("b1", "s1: straight 6", "EC-TER-BUILDING"),
])
def test_plan_refusal_names_the_clause_and_exits_1(model, plan, clause):
    result = run("plan", str(TABLE), "--model", model, plan)
    assert result.exit_code == 1 and f"({clause})" in result.output


def test_plan_parse_error_points_at_the_column():
    result = run("plan", str(TABLE), "--model", "p1", "s2: straight 6,, left medium 2")
    assert result.exit_code == 1 and "column 16" in result.output


def test_plan_unknown_model():
    result = run("plan", str(TABLE), "--model", "zz", "s2: straight 8")
    assert result.exit_code == 1 and "no model 'zz'" in result.output


def test_EC_TER_BUILDING_EC_COL_1_plan_names_where_a_path_is_refused_blocked_or_tight():
    """Clause: EC-TER-BUILDING, EC-TER-CURB, EC-COL-1: a refusal names the piece and the inch along
    the path; a path into scenery is flagged as a crash to come; a near miss as tight."""
    import subprocess
    import sys
    from pathlib import Path

    scene = str(Path(__file__).resolve().parents[3] / "scenes" / "crossroads.yaml")

    def plan(model, text):
        return subprocess.run([sys.executable, "-m", "entropy3d.cli", "plan", scene, "--model", model, text],
                              capture_output=True, text=True)

    building = plan("hades_1", "s3: straight 6, right wide 7")
    assert building.returncode == 1 and "'corner_flats' 10.7\" along it" in building.stderr
    curb = plan("komodo_1", "s2: right wide 3, straight 6")
    assert curb.returncode == 1 and "the curb of 'park_sidewalk'" in curb.stderr and "along the path" in curb.stderr
    blocked = plan("hades_2", "s2: straight 12")
    assert blocked.returncode == 0 and "runs into 'street_car_wreck'" in blocked.stdout
    tight = plan("hades_2", "s2: straight 9")
    assert "tight     0.1\" from 'street_car_wreck'" in tight.stdout


def test_EC_DICE_2_odds_command_takes_opposed_tests():
    """`entropy3d odds --against-stress` gives the exact opposed odds (the same enumeration the
    brute-force test checks); a bad --kind is a clean error."""
    from entropy3d.scene import load_ruleset
    from entropy3d.systems.entropy_city.odds import Side, exact_opposed
    from entropy3d.systems.entropy_city.opposed import decide

    out = CliRunner().invoke(app, ["odds", "--tn", "15", "--stress", "2", "--against-stress", "3", "--exact"])
    assert out.exit_code == 0, out.output
    rules = load_ruleset(None)
    wins = sum((p for p, a, d in exact_opposed("melee", Side(15, 2), Side(0, 3), rules)
                if decide("melee", a, d, rules).attacker_wins), Fraction(0))
    assert f"{wins.numerator}/{wins.denominator}" in out.output and "attacker wins" in out.output
    bad = CliRunner().invoke(app, ["odds", "--tn", "15", "--against-stress", "1", "--kind", "duel"])
    assert bad.exit_code == 2 and "melee, dodge, gun" in bad.output and "Traceback" not in bad.output


def test_EC_DICE_1_odds_takes_the_tn_as_it_is_said():
    """Clause: EC-DICE-1. `entropy3d odds 14` as a player says it gives what `--tn 14` gives; no TN,
    or two different ones, is a usage error that says how to write it."""
    said = run("odds", "14", "--stress", "3")
    assert said.exit_code == 0 and said.output == run("odds", "--tn", "14", "--stress", "3").output
    assert "TN 14, stress 3" in said.output
    none = run("odds")
    assert none.exit_code == 2 and "entropy3d odds 14" in none.output and "Traceback" not in none.output
    two = run("odds", "14", "--tn", "15")
    assert two.exit_code == 2 and "two target numbers" in two.output


def test_odds_given_another_systems_rules_data_says_what_it_is():
    """`odds` computes Entropy City's d10 tests (EC-DICE-1): given a chase's rules data
    (`game_system: chase_vehicles`) it says which system the file is for and the fix, in one
    problem at the line of `game_system:`, not 50 Entropy City keys missing."""
    chase = Path(__file__).parents[3] / "rules" / "chase_vehicles.yaml"
    result = CliRunner().invoke(app, ["odds", "12", "--rules", str(chase)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "1 problem(s)" in result.output and "line 5, game_system:" in result.output, result.output
    assert "'chase_vehicles' game system" in result.output and "rules/entropy_city.yaml" in result.output
