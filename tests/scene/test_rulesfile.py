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

from entropy3d.errors import RulesDataError, SceneError
from entropy3d.los.losrules import load_los_rules
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.scene.rulesfile import load_ruleset, read_rules_file
from entropy3d.systems.entropy_city.ruleset import Ruleset

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


def test_EC_MISSION_JAIL_EC_LAW_EC_MISSION_HOON_set_up_numbers_come_from_the_rules_data(tmp_path):
    """The set-up numbers the rulebook leaves to a DECISION live in the rules data, not the code: a
    jail's door on its walls within missions.jailbreak.opening_on_wall_in (0.5"), `law: on`
    entering law.edge_entry_in (2") in from each open edge's middle, a checkpoint with no radius
    of its own missions.hoon_hour.radius_in (3") round. A rules file with 2", 4" and 5": the Jail
    yard's door moved to (18, 13), 1" off the jail's south wall, is refused by the bundled rules and
    on the wall by these; the Law yard with `law: on` (36 x 24) enters at (18, 4) facing north,
    (18, 20), (4, 12) and (32, 12); the Hoon yard's gate_a without its radius is 5" round (3" with
    the bundled rules), gate_b keeps its own 2"."""
    bundled = load_ruleset()
    assert [bundled.data(key) for key in ("missions.jailbreak.opening_on_wall_in", "law.edge_entry_in",
                                          "missions.hoon_hour.radius_in")] == [0.5, 2.0, 3.0]
    rules, _ = edited(tmp_path, GAME_RULES, "opening_on_wall_in: 0.5}", "opening_on_wall_in: 2}")
    rules, _ = edited(tmp_path, rules, "  edge_entry_in: 2", "  edge_entry_in: 4")
    rules, _ = edited(tmp_path, rules, "radius_in: 3}", "radius_in: 5}")
    data = REPO / "tests" / "data"

    def yard(name: str, old: str, new: str, with_rules: bool) -> Path:
        text = (data / f"{name}.yaml").read_text(encoding="utf-8").replace(old, new)
        scene = tmp_path / f"{name}_{with_rules}.yaml"
        scene.write_text(text.replace("\nmission:", f"\nrules: {rules}\nmission:") if with_rules else text,
                         encoding="utf-8")
        return scene

    with pytest.raises(SceneError) as refused:
        load_scene(yard("jail_yard", "openings: [[18, 14]]", "openings: [[18, 13]]", False))
    assert [(key, message) for key, _, message in refused.value.problems] == [
        ("jailbreak.openings[0]", "(18, 13) is 1.0\" from jail's walls: put each door and window on them (within "
                                  "0.5\", missions.jailbreak.opening_on_wall_in)")]
    jail = load_scene(yard("jail_yard", "openings: [[18, 14]]", "openings: [[18, 13]]", True)).initial_state()
    assert jail.items[0].openings == ((18.0, 13.0),)
    law = load_scene(yard("law_yard", "law:\n  riders: 1\n  from_turn: 2\n  enter:\n    - {at: [18, 2], facing: 90}",
                          "law: on", True)).initial_state().law
    assert [(e.x, e.y, e.facing_deg) for e in law.entries] == [(18, 4, 90), (18, 20, 270), (4, 12, 0), (32, 12, 180)]
    for with_rules, radius in ((True, 5.0), (False, 3.0)):
        gates = load_scene(yard("hoon_yard", "at: [14, 12], radius: 2}", "at: [14, 12]}", with_rules)
                           ).initial_state().checkpoints
        assert [g.radius_in for g in gates] == [radius, 2.0, 2.0]


def test_bad_set_up_numbers_are_refused_with_their_key_paths(tmp_path):
    """A set-up number out of range is refused with its key path, never a traceback: the rules
    data's missions.hoon_hour.radius_in 0, law.edge_entry_in -1 and
    missions.jailbreak.opening_on_wall_in 0 (each must be above 0), and a scene checkpoint's
    radius 30 (at most 24")."""
    rules, _ = edited(tmp_path, GAME_RULES, "radius_in: 3}", "radius_in: 0}")
    rules, _ = edited(tmp_path, rules, "  edge_entry_in: 2", "  edge_entry_in: -1")
    rules, _ = edited(tmp_path, rules, "opening_on_wall_in: 0.5}", "opening_on_wall_in: 0}")
    with pytest.raises(RulesDataError) as refused:
        load_ruleset(rules)
    assert sorted(path for path, _, _ in refused.value.problems) == [
        "law.edge_entry_in", "missions.hoon_hour.radius_in", "missions.jailbreak.opening_on_wall_in"]
    scene = tmp_path / "hoon.yaml"
    scene.write_text((REPO / "tests" / "data" / "hoon_yard.yaml").read_text(encoding="utf-8")
                     .replace("at: [14, 12], radius: 2}", "at: [14, 12], radius: 30}"), encoding="utf-8")
    with pytest.raises(SceneError) as bad:
        load_scene(scene)
    assert [key for key, _, _ in bad.value.problems] == ["hoon_hour.checkpoints[0].radius"]
