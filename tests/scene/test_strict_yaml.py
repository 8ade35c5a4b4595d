"""The strict loader (issue 18): duplicate keys, alias bombs, deep nesting, huge files and
non-finite numbers are refused with the file, the line, the key path and the fix."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from entropy3d.errors import RulesDataError, SceneError
from entropy3d.scene import load_scene, yamlsource
from entropy3d.scene.rulesfile import load_ruleset
from entropy3d.scene.yamlsource import read_yaml_with_lines

ROOT = Path(__file__).resolve().parents[2]
BOMB = "\n".join(["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]) + "\n"


def problem(error) -> tuple[str, int | None, str]:
    assert len(error.value.problems) == 1, error.value.problems
    return error.value.problems[0]


def scene_problem(tmp_path, text: str) -> tuple[str, int | None, str]:
    """The one problem ``load_scene`` finds in a scene file of ``text``."""
    path = tmp_path / "scene.yaml"
    path.write_text(text)
    with pytest.raises(SceneError) as error:
        load_scene(path)
    return problem(error)


def test_duplicate_key_in_a_mapping_is_refused_with_both_lines(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("name: x\nmodels:\n  - id: a\n    position: [5, 5]\n    position: [15, 15]\n")
    with pytest.raises(SceneError) as error:
        read_yaml_with_lines(path)
    where, line, message = problem(error)
    assert (where, line) == ("models[0].position", 5)
    assert "duplicate key 'position' (first at line 4)" in message and "delete one" in message
    assert str(path) in str(error.value)


def test_duplicate_top_level_section_is_refused(tmp_path):
    assert scene_problem(tmp_path, "name: x\nmodels: []\ngangs: {}\nmodels: []\n")[:2] == ("models", 4)


def test_alias_bomb_is_refused_fast_with_the_limit(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    start = time.perf_counter()
    with pytest.raises(SceneError) as error:
        read_yaml_with_lines(path)
    assert time.perf_counter() - start < 2.0
    assert f"{yamlsource.MAX_NODES:,}" in problem(error)[2]


def test_modest_aliases_still_load(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("base: &b {x: 1}\nitems: [*b, *b]\n")
    data, _ = read_yaml_with_lines(path)
    assert data["items"] == [{"x": 1}, {"x": 1}]


def test_recursive_alias_is_refused(tmp_path):
    path = tmp_path / "rec.yaml"
    path.write_text("name: x\nmodels: &m [*m]\n")
    with pytest.raises(SceneError) as error:
        read_yaml_with_lines(path)
    assert "refers to its own anchor" in problem(error)[2]


def test_deep_nesting_is_refused_with_the_limit(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(SceneError) as error:
        read_yaml_with_lines(path)
    assert f"deeper than {yamlsource.MAX_DEPTH} levels" in problem(error)[2]


def test_huge_file_is_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlsource, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.yaml"
    path.write_text("name: x\ndescription: " + "y" * 2000 + "\n")
    with pytest.raises(SceneError) as error:
        read_yaml_with_lines(path)
    assert "over the 0.0 MB limit" in problem(error)[2]


@pytest.mark.parametrize("text, where", [
    ("facing: .nan", "models[0].facing"),
    ("facing: -.inf", "models[0].facing"),
    ("facing: '1e999'", "models[0].facing"),
])
def test_non_finite_numbers_are_refused_in_scenes(tmp_path, text, where):
    path_, line, message = scene_problem(tmp_path, "name: x\ngangs: {g: {name: G, colour: '#ff0000'}}\n"
                                         f"models:\n  - {{id: a, gang: g, bike: cruiser, position: [5, 5], {text}}}\n")
    assert (path_, line) == (where, 4) and message.startswith("must be a finite number")


def test_non_finite_in_a_rect_is_refused(tmp_path):
    text = "name: x\nzones:\n  - {id: z, terrain: grass, rect: [10, 10, 20, .nan]}\n"
    assert scene_problem(tmp_path, text)[:2] == ("zones[0].rect[3]", 3)


def test_non_finite_numbers_are_refused_in_rules_data(tmp_path):
    text = (ROOT / "rules" / "entropy_city.yaml").read_text()
    assert "metres_per_inch:" in text
    path = tmp_path / "rules.yaml"
    lines = [line if "metres_per_inch:" not in line else line.split(":")[0] + ": .inf" for line in text.splitlines()]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RulesDataError) as error:
        load_ruleset(path)
    where, line, message = problem(error)
    assert where == "scale.metres_per_inch" and line is not None and "finite" in message


def test_crossing_polygon_is_refused_by_the_schema(tmp_path):
    text = "name: x\nbuildings:\n  - {id: b, storeys: 1, polygon: [[0, 0], [4, 4], [4, 0], [0, 4]]}\n"
    where, line, message = scene_problem(tmp_path, text)
    assert (where, line) == ("buildings[0]", 3) and "not a simple outline" in message


def test_cli_refuses_alias_bomb_cleanly(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    result = subprocess.run([sys.executable, "-m", "entropy3d", "validate", str(path)], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert str(path) in result.stderr and "the limit" in result.stderr


def test_huge_finite_numbers_are_refused_with_their_key_path(tmp_path):
    text = "name: x\nramps:\n  - {id: r, start: [10, 10], heading: 0, length: 1e308, width: 2, rise: 1}\n"
    where, line, message = scene_problem(tmp_path, text)
    assert (where, line) == ("ramps[0].length", 3) and "too large" in message


def test_a_key_that_is_not_a_plain_name_is_quoted_in_the_key_path_and_the_fix_named(tmp_path):
    """A camera named with spaces (the fuzz moved a title line under `cameras:`): the key path
    quotes the key, so it reads as one key, and the message says what a name may hold instead of
    pydantic's regular expression."""
    scene = tmp_path / "scene.yaml"
    scene.write_text("name: x\ncameras:\n  Lovers Point Brawl: {position: [0, 0, 10], look_at: [5, 5, 0]}\n")
    with pytest.raises(SceneError) as error:
        load_scene(scene)
    (where, line, message), = error.value.problems
    assert (where, line) == ("cameras['Lovers Point Brawl']", 3)
    assert "not a plain name" in message and "'lovers_point_brawl'" in message and "^[A-Za-z" not in message
    assert yamlsource.key_path(("models", 2, "rider", "dodge")) == "models[2].rider.dodge"
