"""Physical plausibility after the schema (issue 18): bases inside solids or each other,
destructibles inside solids, pieces off the table; errors name file, line, key path and fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from entropy3d.errors import SceneError
from entropy3d.scene import load_scene

ROOT = Path(__file__).resolve().parents[2]
HEAD = "name: t\ngangs: {hades: {name: Hades, colour: '#ff0000'}}\n"
SHOP = "buildings:\n  - {id: shop, rect: [10, 10, 20, 20], storeys: 1}\n"


def bike(name: str, position: str) -> str:
    return f"  - {{id: {name}, gang: hades, bike: cruiser, position: {position}, facing: 0}}\n"


def scene(tmp_path, text: str) -> Path:
    path = tmp_path / "scene.yaml"
    path.write_text(HEAD + text)
    return path


def problems(path: Path) -> list[tuple[str, int | None, str]]:
    with pytest.raises(SceneError) as error:
        load_scene(path)
    return error.value.problems


def test_bike_without_z_inside_a_building_is_refused_with_the_roof_fix(tmp_path):
    path = scene(tmp_path, SHOP + "models:\n" + bike("hades_2", "[15, 15]"))
    (where, line, message), = problems(path)
    assert (where, line) == ("models[0].position", 6)
    assert message == ("hades_2 at (15, 15) is inside building 'shop' (10..20, 10..20) (a bike cannot be taken "
                       "inside a building; a model on foot, `on_foot: true`, would stand on its roof): move it, or "
                       "put it on the roof with z: [15, 15, 2.1]")


def test_bike_on_the_roof_with_z_is_accepted(tmp_path):
    table = load_scene(scene(tmp_path, SHOP + "models:\n" + bike("hades_2", "[15, 15, 2.1]")))
    assert table.notes == []


def test_base_reaching_into_a_wall_is_refused(tmp_path):
    path = scene(tmp_path, SHOP + "models:\n" + bike("h", "[9.5, 15, 0]"))
    (where, _, message), = problems(path)
    assert where == "models[0].position" and "inside building 'shop'" in message and "z 0..2.1" in message


def test_bike_beside_a_building_is_accepted(tmp_path):
    """The cruiser's oval base (75 mm, 2.95" long, facing +x) at x 8 reaches x 9.48, short of the
    shop's wall at x 10."""
    table = load_scene(scene(tmp_path, SHOP + "models:\n" + bike("h", "[8, 15]")))
    assert table.notes == [] and [m.id for m in table.models] == ["h"]


def test_overlapping_bases_are_refused_naming_both(tmp_path):
    path = scene(tmp_path, "models:\n" + bike("a", "[30, 30]") + bike("b", "[30.5, 30.2]"))
    (where, line, message), = problems(path)
    assert (where, line) == ("models[1].position", 5) and "b's base" in message and "overlaps a's" in message


def test_bases_one_above_the_other_do_not_overlap(tmp_path):
    text = ("platforms:\n  - {id: deck, rect: [20, 20, 40, 40], height: 4}\n"
            "models:\n" + bike("a", "[30, 30, 0]") + bike("b", "[30, 30, 4]"))
    assert load_scene(scene(tmp_path, text)).notes == []


def test_bike_without_z_under_a_deck_is_a_warning(tmp_path):
    text = "platforms:\n  - {id: deck, rect: [20, 20, 40, 40], height: 4}\nmodels:\n" + bike("a", "[30, 30]")
    (where, _, message), = load_scene(scene(tmp_path, text)).notes
    assert where == "models[0].position" and "starts on the deck of platform 'deck'" in message


def test_destructible_inside_a_building_is_refused(tmp_path):
    path = scene(tmp_path, SHOP + "destructibles:\n  - {id: crate, kind: crate, position: [12, 12], risk: 1}\n")
    (where, line, message), = problems(path)
    assert (where, line) == ("destructibles[0].position", 6) and "base_height: 2.1" in message


def test_mesh_off_the_table_is_refused(tmp_path):
    bench = ROOT / "models" / "bench.glb"
    path = scene(tmp_path, f"meshes:\n  - {{id: far, file: {bench}, units: mm, position: [100, 100, 0]}}\n")
    (where, line, message), = problems(path)
    assert (where, line) == ("meshes[0]", 4) and "entirely off the 48x48 inch table" in message


def test_cli_prints_the_warning_and_exits_0(tmp_path):
    text = "platforms:\n  - {id: deck, rect: [20, 20, 40, 40], height: 4}\nmodels:\n" + bike("a", "[30, 30]")
    result = subprocess.run([sys.executable, "-m", "entropy3d", "validate", str(scene(tmp_path, text))],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "warning: line 6, models[0].position" in result.stderr


def _sizes(message: str, label: str) -> list[float]:
    """The 'a x b x c' triple that follows ``label`` in a message."""
    after = message.split(label, 1)[1].strip()
    return [float(v) for v in after.split(" inches")[0].split(",")[0].split(" x ")]


def test_mesh_read_in_the_wrong_units_is_refused_with_its_size_in_every_unit(tmp_path):
    # a car modelled in millimetres, declared in metres: 3,000 inches long on a 48" table; the bike
    # "inside" it is not reported (where things stand against a mesh of the wrong size means nothing)
    wreck = ROOT / "models" / "car_wreck.glb"
    path = scene(tmp_path, f"meshes:\n  - {{id: wreck, file: {wreck}, units: m, position: [24, 24, 0]}}\n"
                           "models:\n" + bike("a", "[30, 24]"))
    (where, line, message), = problems(path)
    assert (where, line) == ("meshes[0].units", 4) and "with units: m" in message
    placed, as_mm = _sizes(message, "is "), _sizes(message, "same file in mm")
    assert max(placed[:2]) > 2 * 48
    assert as_mm == pytest.approx([v / 1000 for v in placed], rel=1e-3)


def test_mesh_far_smaller_than_a_base_is_a_warning_naming_its_units(tmp_path):
    bench = ROOT / "models" / "bench.glb"
    path = scene(tmp_path, f"meshes:\n  - {{id: pebble, file: {bench}, units: mm, scale: 0.001, "
                           "position: [24, 24, 0]}\n")
    (where, line, message), = [note for note in load_scene(path).notes if "units" in note[2]]
    assert (where, line) == ("meshes[0].units", 4) and "smaller than 0.1 inch" in message
    placed, as_m = _sizes(message, "is "), _sizes(message, ", m ")
    assert max(placed) < 0.1 and as_m == pytest.approx([v * 1000 for v in placed], rel=1e-3)


def test_bundled_meshes_are_not_taken_for_wrong_units():
    for name in ("crossroads", "lovers_point", "ruined_highway"):
        assert not [note for note in load_scene(ROOT / "scenes" / f"{name}.yaml").notes if "`units`" in note[2]]


def test_a_bike_under_the_table_is_refused(tmp_path):
    """Issue 49, item 5: a model at z -4.5 validated `ok`."""
    (where, line, message), = problems(scene(tmp_path, "models:\n" + bike("a", "[30, 30, -4.5]")))
    assert (where, line) == ("models[0].position", 4)
    assert message == ("a at (30, 30, z -4.5) is under the table (its top is z 0): leave z out to stand it on what "
                       "is there, or give a z of 0 or more")


@pytest.mark.parametrize("z, floats", [("2.1", None), ("2.15", None), ("4", "floats 1.9\" above building 'shop'"),
                                       ("1.9", "floats 1.9\" above the table")])
def test_a_bike_given_a_z_above_what_is_under_it_floats(tmp_path, z, floats):
    notes = load_scene(scene(tmp_path, SHOP + "models:\n" + bike("a", f"[{15 if z != '1.9' else 30}, 15, {z}]"))).notes
    if floats is None:
        assert notes == []
    else:
        (where, _, message), = notes
        assert where == "models[0].position" and floats in message and "drops there at its first ride" in message


@pytest.mark.parametrize("base_height, found", [
    ("2.1", None),  # on the roof
    ("4.0", ("destructibles[0].base_height", "floats 1.9\" above building 'shop' (10..20, 10..20) (top at z 2.1) "
                                             "and falls there when the game starts: write base_height: 2.1")),
    ("1.9", ("destructibles[0].position", "is inside building 'shop' (10..20, 10..20, z 0..2.1): move it, or "
                                          "stand it on top with base_height: 2.1")),
])
def test_a_destructible_floating_above_a_roof_or_sunk_into_it_is_said(tmp_path, base_height, found):
    """Issue 49, item 5: a crate 1.9" above a roof, or 0.2" inside it, was accepted."""
    path = scene(tmp_path, SHOP + "destructibles:\n"
                 f"  - {{id: crate, kind: crate, position: [12, 12], base_height: {base_height}, risk: 1}}\n")
    if found is None:
        assert load_scene(path).notes == []
    elif found[0].endswith("base_height"):
        (where, line, message), = load_scene(path).notes
        assert (where, line) == (found[0], 6) and message.endswith(found[1]), message
    else:
        (where, line, message), = problems(path)
        assert (where, line) == (found[0], 6) and message.endswith(found[1]), message


def test_overlapping_buildings_are_a_warning_and_one_on_another_is_not(tmp_path):
    """Issue 49, item 5: ten buildings laid over each other were accepted without a word."""
    text = "buildings:\n" + "".join(f"  - {{id: b{k}, rect: [{10 + k}, 10, {20 + k}, 20], storeys: 1}}\n"
                                    for k in range(3))
    text += "  - {id: loft, rect: [10, 10, 20, 20], storeys: 1, base_height: 2.1}\n"  # on b0's roof
    notes = load_scene(scene(tmp_path, text)).notes
    assert [(where, message.split(" (")[0]) for where, _, message in notes] == [
        ("buildings[1]", "building 'b1' overlaps building 'b0'"),
        ("buildings[2]", "building 'b2' overlaps building 'b0'"),
        ("buildings[2]", "building 'b2' overlaps building 'b1'")]
    assert "(90 square inches of their plans, z 0..2.1): join them into one polygon" in notes[0][2]


@pytest.mark.parametrize("where, text", [("table.width", "table: {width: true}\n"),
                                         ("buildings[0].storeys", "buildings:\n  - {id: b, rect: [1, 1, 5, 5], "
                                                                  "storeys: yes}\n"),
                                         ("models[0].position[2]", "models:\n" + bike("a", "[30, 30, on]"))])
def test_a_yes_or_no_where_a_number_goes_is_refused(tmp_path, where, text):
    """Issue 49, item 5: `table.width: true` was read as a 1" table (a boolean is an int to Python)."""
    said = {found: message for found, _, message in problems(scene(tmp_path, text))}
    assert "a yes/no to YAML" in said[where] and "not a number: write the number" in said[where]
