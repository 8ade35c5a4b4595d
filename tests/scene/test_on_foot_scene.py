"""Models on foot in scene files (``on_foot: true``): where they may stand and the errors that
name the file, line and key path (EC-FOOT-DEPLOY, EC-GUN-2, EC-TER-BUILDING)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from tests.scene.test_loading import problems_of

DATA = Path(__file__).parents[1] / "data"

HEAD = """\
name: feet
table: {width: 24, depth: 24}
buildings:
  - {id: tower, rect: [2, 2, 8, 8], storeys: 3}
  - {id: shop, rect: [14, 2, 20, 8], storeys: 1}
gangs:
  a: {name: A, colour: "#ff0000"}
models:
"""


def scene(tmp_path: Path, models: str) -> Path:
    path = tmp_path / "feet.yaml"
    path.write_text(HEAD + textwrap.indent(textwrap.dedent(models), "  "), encoding="utf-8")
    return path


def test_EC_FOOT_DEPLOY_a_model_on_foot_in_a_building_stands_on_its_roof():
    """Clause: EC-FOOT-DEPLOY ("can be deployed within a building"). A position inside a
    building's footprint puts the figure on its roof; one in the street stands on the road; both
    are on foot, with the rules' round base and no speed."""
    table = load_scene(DATA / "on_foot_table.yaml")
    state = table.initial_state(build_table_geometry(table).surface_height)
    sniper, brawler = state.model("sniper"), state.model("brawler")
    assert sniper.on_foot and sniper.speed == 0 and sniper.bike_type == "on_foot"
    assert sniper.pose.z == pytest.approx(0.12 + 3 * 2.1)  # the tower's roof
    assert brawler.pose.z == pytest.approx(0.0) and not state.model("k1").on_foot
    assert table.base_of(table.model("sniper")).length == pytest.approx(25 / 25.4)


def test_EC_FOOT_DEPLOY_one_model_on_foot_per_building(tmp_path):
    """Clause: EC-FOOT-DEPLOY ("one on foot per building only"). A second model on foot in the same
    building is refused at its position's line, naming the first; another building is fine."""
    path = scene(tmp_path, """\
        - {id: f1, gang: a, on_foot: true, position: [3, 3], facing: 0}
        - {id: f2, gang: a, on_foot: true, position: [15, 3], facing: 0}
        - {id: f3, gang: a, on_foot: true, position: [6, 6], facing: 0}
        """)
    (problem,) = problems_of(path)
    assert problem[0] == "models[2].position" and problem[1] == 11
    assert "already holds f1" in problem[2] and "EC-FOOT-DEPLOY" in problem[2]


def test_a_model_is_a_bike_or_on_foot_never_both_nor_neither(tmp_path):
    """A model names its ``bike:`` or says ``on_foot: true``: both, neither, or a speed on foot
    are errors at the model's line, saying what to write."""
    path = scene(tmp_path, """\
        - {id: f1, gang: a, on_foot: true, bike: cruiser, position: [12, 12], facing: 0}
        - {id: f2, gang: a, position: [12, 16], facing: 0}
        - {id: f3, gang: a, on_foot: true, speed: 2, position: [12, 20], facing: 0}
        """)
    problems = problems_of(path)
    messages = {line: message for _, line, message in problems}
    assert "has no bike" in messages[9] and "or `on_foot: true`" in messages[10] and "has no speed" in messages[11]


def test_EC_GUN_2_a_sniper_rifle_on_a_bike_is_refused_by_key_path(tmp_path):
    """Clause: EC-GUN-2 ("Sniper: On foot only"). A rider on a bike carrying a sniper rifle is an
    error at ``models[0].rider.gun``; a model on foot may carry one."""
    path = scene(tmp_path, """\
        - {id: k1, gang: a, bike: cruiser, position: [12, 12], facing: 0, rider: {gun: sniper_rifle}}
        - {id: f1, gang: a, on_foot: true, position: [12, 16], facing: 0, rider: {gun: sniper_rifle}}
        """)
    (problem,) = problems_of(path)
    assert problem[0] == "models[0].rider.gun" and problem[1] == 9 and "on foot only" in problem[2]


def test_EC_TER_BUILDING_a_bike_inside_a_building_is_refused_saying_why(tmp_path):
    """Clause: EC-TER-BUILDING ("A bike cannot be taken inside of a building however any rider
    'on foot' may choose to"). A bike placed in a building's footprint is an error that says so."""
    path = scene(tmp_path, """\
        - {id: k1, gang: a, bike: cruiser, position: [5, 5], facing: 0}
        """)
    (problem,) = problems_of(path)
    assert problem[0] == "models[0].position" and "a bike cannot be taken inside a building" in problem[2]
