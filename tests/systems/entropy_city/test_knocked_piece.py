"""Which way a destructible a rider passed its test on moves (EC-DEST-4: "it moves speedx2 inches
in any direction you desire"; option ``knocked_piece`` in rules/entropy_city.yaml), and the
table's answer of the room it has (entropy3d.table_answers.knock_rooms)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.core.facts import SceneryHit
from entropy3d.systems.entropy_city.riding import knocked_direction


def hit(heading_deg: float, side: str, pushed=(0.0, 0.0)) -> SceneryHit:
    return SceneryHit("bench", 1, 5.0, 0.5, heading_deg, side, pushed)


def test_EC_DEST_4_by_default_the_rider_knocks_the_piece_aside_off_its_line(rules):
    """Clause: EC-DEST-4. The rulebook lets the rider choose; the data's default reading is aside:
    square to the heading, to the side of the rider's line the piece stood on. Worked by hand:
    heading north (90 degrees) with the piece on the left, left of north is west, (-1, 0);
    heading east (0) with the piece on the right, right of east is south, (0, -1); heading
    north-east (45) on the left: north-west, (-1, 1)/sqrt(2). A physics push the other way
    changes nothing: the rider, not the bump, chooses. With no table asked, the full 4"."""
    assert rules.option("knocked_piece") == "aside"
    direction, moved, words = knocked_direction(hit(90.0, "left"), rules, 4.0)
    assert direction == pytest.approx([-1.0, 0.0], abs=1e-12) and moved == 4.0
    assert words == "aside to the rider's left"
    direction, _, words = knocked_direction(hit(0.0, "right", pushed=(3.0, 0.0)), rules, 4.0)
    assert direction == pytest.approx([0.0, -1.0], abs=1e-12) and words == "aside to the rider's right"
    direction, _, _ = knocked_direction(hit(45.0, "left"), rules, 4.0)
    assert direction == pytest.approx(np.array([-1.0, 1.0]) / np.sqrt(2.0))


def test_EC_DEST_4_the_rider_knocks_it_where_the_table_has_room(rules):
    """Clause: EC-DEST-4. Heading east (0 degrees), the piece on the rider's right, a 4" knock;
    the table's room (left, right, ahead), inches:
    - (6, 12, 12): room on its own side, right: south (0, -1), 4";
    - (6, 0.5, 12): none on the right (another piece beside it), 6 on the left: north (0, 1), 4";
    - (0.25, 0, 12): neither side (a line of sawhorses across a street): ahead, east (1, 0), 4";
    - (1, 0, 3): room for 4" nowhere: the most room, ahead, and only 3" (it stops against what
      it meets), said so in the words."""
    cases = {(6.0, 12.0, 12.0): ([0.0, -1.0], 4.0, "aside to the rider's right"),
             (6.0, 0.5, 12.0): ([0.0, 1.0], 4.0, "aside to the rider's left"),
             (0.25, 0.0, 12.0): ([1.0, 0.0], 4.0, "on ahead of the rider"),
             (1.0, 0.0, 3.0): ([1.0, 0.0], 3.0, "on ahead of the rider")}
    for room, (expected, expected_in, expected_words) in cases.items():
        direction, moved, words = knocked_direction(hit(0.0, "right"), rules, 4.0, room)
        assert direction == pytest.approx(expected, abs=1e-12) and moved == expected_in, room
        assert words == expected_words, room


def test_EC_DEST_4_the_other_reading_moves_it_the_way_it_was_knocked(rules):
    """Clause: EC-DEST-4, option ``knocked_piece: along``: the physics' push, made a unit
    vector ((3, 4) -> (0.6, 0.8)); with no push seen (the geometric producer), the heading
    (west, 180 degrees: (-1, 0)); the full distance whatever the room."""
    along = rules.with_option("knocked_piece", "along")
    direction, moved, words = knocked_direction(hit(0.0, "left", pushed=(3.0, 4.0)), along, 4.0, (0.0, 0.0, 0.0))
    assert direction == pytest.approx([0.6, 0.8]) and moved == 4.0 and words == "the way it was knocked"
    direction, _, _ = knocked_direction(hit(180.0, "right"), along, 4.0)
    assert direction == pytest.approx([-1.0, 0.0], abs=1e-12)


def test_EC_DEST_4_the_table_measures_the_room_of_lovers_points_sawhorses():
    """The police line of scenes/lovers_point.yaml: the west sawhorse spans x 21.55-23.95 and the
    east one 24.05-26.45 (y 42.35-42.65), 0.1" apart. Going east the west one meets the east one
    within the first 0.25" step: room 0; going west, the first 0.25" is clear and the next meets
    the police barricade (x 20.72-21.28, 0.27" off): room 0.25; north along the street (the way a
    rider riding north through it faces), 5.25", the last step before its far side (y 42.65)
    would pass the table's north edge at y 48 (5.35" off)."""
    from entropy3d.game.tableview import TableView
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    table = load_scene(Path(__file__).resolve().parents[3] / "scenes" / "lovers_point.yaml")
    view = TableView(table, build_table_geometry(table))
    assert view.room_to_move("police_sawhorse_west", {}, (1.0, 0.0), 12.0) == 0.0
    assert view.room_to_move("police_sawhorse_west", {}, (-1.0, 0.0), 12.0) == 0.25
    assert view.room_to_move("police_sawhorse_west", {}, (0.0, 1.0), 12.0) == 5.25


def test_EC_DEST_4_a_piece_already_moved_is_knocked_on_from_where_it_lies():
    """Clause: EC-DEST-4. The barrel lane's barrel (tests/video/test_knocks.py; (17, 6.5), 0.5"
    right of h1's line along y = 7) already moved 2" east and turned 10 degrees by an earlier
    knock: h1 rides 12" east at speed 2 from x 11 through it, passes its test (the first seed of
    0-11 whose dice pass) and knocks it 4" aside to its right. It ends at (2, -4) from the scene's
    spot, still turned 10 degrees; the ride once placed it from the scene's spot, at (0, -4)
    and unturned, as if it had never moved."""
    import dataclasses
    import tempfile

    from entropy3d.core.scenery import ScenerySpot
    from entropy3d.geometric import GeometricProducer
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.transition import Action, check, resolve
    from tests.video.test_knocks import BARREL_LANE

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "lane.yaml").write_text(BARREL_LANE)
        table = load_scene(Path(folder) / "lane.yaml")
    geometry = build_table_geometry(table)
    start = table.initial_state(geometry.surface_height)
    h1 = start.model("h1")
    start = start.with_model(h1.but(pose=dataclasses.replace(h1.pose, x=11.0)))
    start = start.with_scenery({"barrel": ScenerySpot(dx=2.0, dy=0.0, turn_deg=10.0)})
    probe = SceneProbe.from_table(table, geometry)
    action = check(start, Action.ride("h1", "s2: straight 12"), table.ruleset, probe)
    facts = GeometricProducer(table, geometry, probe).ride(start, action)
    for seed in range(12):
        after, events = resolve(start, action, facts, np.random.default_rng(seed), table.ruleset)
        if any("item_moved_to" in e.figures for e in events if e.kind == "destructible"):
            break
    else:
        pytest.fail("no seed of 0-11 passes the test: restage")
    assert after.scenery["barrel"] == ScenerySpot(dx=2.0, dy=-4.0, turn_deg=10.0)
