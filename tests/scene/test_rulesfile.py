"""Rules data files as users edit them: the bundled ones validate, a misspelt or mistyped key is
refused with the file, the line, the key path and the fix (by the loader and by `entropy3d
validate`), and the values moved out of code reach the scene layer from the data."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.errors import RulesDataError
from entropy3d.los.losrules import load_los_rules
from entropy3d.rules.ruleset import Ruleset
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.scene.rulesfile import load_ruleset, read_rules_file

REPO = Path(__file__).resolve().parents[2]
GAME_RULES = REPO / "rules" / "entropy_city.yaml"
LOS_RULES = REPO / "rules" / "los.yaml"
SMALL_TABLE = REPO / "tests" / "data" / "small_table.yaml"


def validate(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "entropy3d", "validate", *map(str, paths)],
                          capture_output=True, text=True)


def edited(tmp_path: Path, source: Path, old: str, new: str, name: str = "rules.yaml") -> tuple[Path, int]:
    """A copy of ``source`` with the one line containing ``old`` changed; its 1-based line number."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    [index] = [i for i, line in enumerate(lines) if old in line]
    lines[index] = lines[index].replace(old, new)
    target = tmp_path / name
    target.write_text("".join(lines), encoding="utf-8")
    return target, index + 1


def test_bundled_rules_files_load_and_validate():
    assert load_ruleset().bike_type_names[0] == "police"
    assert load_los_rules().sees_over[3] is None
    result = validate(GAME_RULES, LOS_RULES)
    assert result.returncode == 0, result.stderr
    assert f"{GAME_RULES}: ok (rules data" in result.stdout
    assert f"{LOS_RULES}: ok (line-of-sight rules data)" in result.stdout


def test_misspelt_key_fails_to_load_with_file_line_and_path(tmp_path):
    bad, line = edited(tmp_path, GAME_RULES, "dodge_bonus:", "dodge_bonsu:")
    with pytest.raises(RulesDataError) as error:
        load_ruleset(bad)
    assert error.value.source == str(bad.resolve())
    [(path, at, message)] = error.value.problems
    assert (path, at) == ("bike_rules.trailbike.dodge_bonsu", line)
    assert "did you mean 'dodge_bonus'?" in message


def test_validate_refuses_a_misspelt_key_without_a_traceback(tmp_path):
    bad, line = edited(tmp_path, GAME_RULES, "dodge_bonus:", "dodge_bonsu:")
    result = validate(bad)
    assert result.returncode == 1
    assert str(bad) in result.stderr
    assert (f"line {line}, bike_rules.trailbike.dodge_bonsu: unknown key 'dodge_bonsu'; "
            "did you mean 'dodge_bonus'?") in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_validate_refuses_a_string_where_a_number_is_needed(tmp_path):
    bad, line = edited(tmp_path, GAME_RULES, "  remount_tn_base: 17", '  remount_tn_base: "17"')
    result = validate(bad)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"line {line}, dice.remount_tn_base: Input should be a valid integer (got '17')" in result.stderr


def test_validate_checks_los_rules_too(tmp_path):
    bad, line = edited(tmp_path, LOS_RULES, "silhouette_grid:", "silhouete_grid:", "los.yaml")
    result = validate(bad)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"line {line}, true_los.silhouete_grid: unknown key 'silhouete_grid'; did you mean " \
           "'silhouette_grid'?" in result.stderr


def test_validate_still_checks_scenes_next_to_rules():
    result = validate(SMALL_TABLE, GAME_RULES)
    assert result.returncode == 0 and f"{SMALL_TABLE}: ok (2 models)" in result.stdout


def test_probe_step_height_comes_from_the_rules_data():
    """ride.step_height_in decides what the planner rides over: with the bundled 0.2" the 0.12"
    curb of block_a is ridden onto; with 0.1" in the data it is not."""
    table = load_scene(SMALL_TABLE)
    on_block = np.array([[5.0, 1.5]])  # on block_a, outside the tower
    probe = SceneProbe(build_table_geometry(table))
    assert probe.step_height_in == table.ruleset.data("ride.step_height_in")
    assert probe.level_under(on_block, 0.0)[0][0] == pytest.approx(0.12)

    data, _ = read_rules_file(GAME_RULES)
    data["ride"]["step_height_in"] = 0.1
    low = dataclasses.replace(table, ruleset=Ruleset.from_mapping(data))
    low_probe = SceneProbe(build_table_geometry(low))
    assert low_probe.step_height_in == 0.1
    assert low_probe.level_under(on_block, 0.0)[0][0] == pytest.approx(0.0)


def test_rider_defaults_come_from_the_rules_data(tmp_path):
    """A rider stat a scene leaves out is the rules data's rider_defaults / max_stress.default."""
    rules, _ = edited(tmp_path, GAME_RULES, "  wounds: 3", "  wounds: 4")
    rules_text = rules.read_text().replace("  default: 10               #", "  default: 12               #")
    rules.write_text(rules_text)
    scene = tmp_path / "scene.yaml"
    scene.write_text(SMALL_TABLE.read_text().replace("name: Small test table", f"name: t\nrules: {rules}")
                     .replace("position: [20, 11], facing: 180}",
                              "position: [20, 11], facing: 180, rider: {wounds: 2, dodge: 3}}"))
    table = load_scene(scene)
    plain, given = table.model("h1").rider, table.model("k1").rider
    assert (plain.wounds, plain.dodge, plain.strength, plain.protection, plain.max_stress) == (4, 1, 1, 0, 12)
    assert (given.wounds, given.dodge, given.max_stress) == (2, 3, 12)

    bundled = load_scene(SMALL_TABLE).model("h1").rider
    assert bundled.wounds == load_ruleset().data("rider_defaults.wounds") == 3
    assert bundled.max_stress == load_ruleset().data("max_stress.default") == 10
