"""Hand-built tables with known line-of-sight answers (the issue's acceptance cases).

The street of ``data/street.yaml``: the viewer ``v`` at (4, 12) faces +x; the target ``t`` at
(20, 12) stands side-on to it. Expected visible shares are worked out here from the drawing (the
target's bike and rider seen side-on are two rectangles; an occluder's edge projects from the
eye onto the target), independently of the ray code.
"""

from __future__ import annotations

import pytest

from entropy3d.scene import load_scene
from tests.los.conftest import EYE_X, TARGET_X, TARGET_Y, silhouette, street, visible_share, write_box_stl
from tests.los.shooting import shoots


def eye_z(world):
    return world.miniatures()["v"].eye[2]


def test_open_street_is_visible_without_cover(tmp_path, world_of):
    """Clause: EC-LOS-1, EC-LOS-4, EC-COVER-1 - nothing in the way: seen, no cover, can shoot."""
    result = world_of(street(tmp_path)).line_of_sight("v", "t")
    assert result.top_down.visible and result.top_down.clear_lines == result.top_down.lines > 0
    assert result.true_los.visible_fraction == pytest.approx(1.0)
    assert result.true_los.bike_seen and shoots(result) and not result.true_los.cover
    assert result.true_los.blockers == () and result.top_down.blockers == ()


def test_bike_fully_behind_a_building_is_blocked(tmp_path, world_of):
    """Clause: EC-LOS-3, EC-LOS-4 - a three-storey building between them hides the target."""
    path = street(tmp_path, buildings=[{"id": "bank", "rect": [10, 9, 13, 15], "storeys": 3}])
    result = world_of(path).line_of_sight("v", "t")
    assert not result.top_down.visible and result.top_down.blockers == ("bank",)
    assert result.true_los.visible_fraction == 0.0
    assert not shoots(result) and not result.true_los.bike_seen
    assert result.true_los.blockers == ("bank",)


def low_wall_case(tmp_path, world_of, share: float):
    """A low wall 1" in front of the target, as high as hides the lower ``1 - share`` of it."""
    table = load_scene(street(tmp_path))
    bike, rider = silhouette(table)
    total = visible_share(table)  # 1.0, keeps the arithmetic honest
    # the cut height at the target that leaves ``share`` visible, then the wall that casts it
    lo, hi = bike[2], rider[3]
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if visible_share(table, z_cut=mid) > share * total else (lo, mid)
    world = world_of(street(tmp_path))
    eye = eye_z(world)
    wall_x, face_x = TARGET_X - 1.0, TARGET_X - 0.25
    wall_h = eye + (lo - eye) * (wall_x - EYE_X) / (face_x - EYE_X)
    path = street(tmp_path, name="wall", destructibles=[
        {"id": "wall", "kind": "barrier", "position": [wall_x, TARGET_Y], "facing": 90, "risk": 1,
         "size": [6.0, 0.3, round(float(wall_h), 4)]}])
    return world_of(path).line_of_sight("v", "t")


def test_half_behind_a_low_wall_has_cover_and_can_be_shot(tmp_path, world_of):
    """Clause: EC-COVER-1 - half hidden: cover, and a shot is allowed (>= 25% visible)."""
    result = low_wall_case(tmp_path, world_of, 0.5)
    assert result.true_los.visible_fraction == pytest.approx(0.5, abs=0.04)
    assert result.true_los.cover and shoots(result) and result.true_los.bike_seen
    assert result.true_los.blockers == ("wall",)
    assert result.top_down.visible  # a low wall has no size class: it does not block top-down


def test_eighty_percent_hidden_cannot_be_shot(tmp_path, world_of):
    """Clause: EC-COVER-1 - a tower hides all but the bike's nose: 20% visible, bike seen, no shot."""
    world = world_of(street(tmp_path))
    table = world.table
    bike, rider = silhouette(table)
    # 20% of the silhouette as a strip of the bike's nose, left of the rider
    y_cut = bike[0] + 0.2 * sum((r[1] - r[0]) * (r[3] - r[2]) for r in (bike, rider)) / (bike[3] - bike[2])
    assert y_cut < rider[0]
    tower_far_x, face_x = 18.0, TARGET_X - 0.25
    tower_y = TARGET_Y + (y_cut - TARGET_Y) * (tower_far_x - EYE_X) / (face_x - EYE_X)
    path = street(tmp_path, name="tower",
                  buildings=[{"id": "tower", "rect": [17, round(tower_y, 4), 18, 22], "storeys": 3}])
    result = world_of(path).line_of_sight("v", "t")
    expected = visible_share(table, y_hi=y_cut)
    assert expected == pytest.approx(0.2, abs=1e-6)
    assert result.true_los.visible_fraction == pytest.approx(expected, abs=0.04)
    assert result.true_los.bike_seen and result.true_los.cover and not shoots(result)
    assert result.top_down.visible and result.top_down.clear_lines < result.top_down.lines
    assert result.top_down.blockers == ("tower",)


def test_rooftop_rider_sees_past_a_parked_car(tmp_path, world_of):
    """Clause: EC-LOS-3, TEN-ELEV - a size 1 car blocks the street rider but not the rider one
    storey up on a roof, top-down and true LOS alike."""
    write_box_stl(tmp_path / "car.stl", (40.64, 76.2, 25.4))  # 1.6" x 3" x 1" in mm
    models = [
        {"id": "roof", "gang": "hades", "bike": "cruiser", "position": [5, 12, 2.1], "facing": 0},
        {"id": "street", "gang": "hades", "bike": "cruiser", "position": [7.2, 6], "facing": 0},
        {"id": "t", "gang": "komodo", "bike": "cruiser", "position": [14, 12], "facing": 90},
        {"id": "t2", "gang": "komodo", "bike": "cruiser", "position": [14, 6], "facing": 90},
    ]
    path = street(tmp_path, models=models,
                  buildings=[{"id": "shop", "rect": [2, 9, 6.5, 15], "storeys": 1}],
                  meshes=[{"id": "car", "file": "car.stl", "units": "mm", "position": [9, 10.5, 0],
                           "size_class": 1},
                          {"id": "car2", "file": "car.stl", "units": "mm", "position": [9, 4.5, 0],
                           "size_class": 1}])
    world = world_of(path)
    assert world.miniatures()["roof"].pose.z == pytest.approx(2.1)
    results = world.all_pairs(pairs=[("roof", "t"), ("street", "t2")])
    high, low = results[("roof", "t")], results[("street", "t2")]
    assert high.top_down.visible and high.top_down.clear_lines == high.top_down.lines
    assert high.true_los.visible_fraction == pytest.approx(1.0) and shoots(high)
    assert not low.top_down.visible and low.top_down.blockers == ("car2",)
    assert low.true_los.cover and "car2" in low.true_los.blockers  # the car hides its lower part


def test_target_behind_the_viewer_is_out_of_sight(tmp_path, world_of):
    """Clause: EC-LOS-2 - no line of sight out of the back half of the base."""
    models = [{"id": "v", "gang": "hades", "bike": "cruiser", "position": [12, 12], "facing": 0},
              {"id": "t", "gang": "komodo", "bike": "cruiser", "position": [5, 12.5], "facing": 90}]
    world = world_of(street(tmp_path, models=models))
    behind = world.line_of_sight("v", "t")
    assert behind.top_down.lines == 0 and not behind.top_down.visible
    assert behind.true_los.visible_fraction == 0.0 and not shoots(behind)
    assert behind.true_los.blockers == ()  # nothing blocks: it is the arc, not a piece
    ahead = world.line_of_sight("t", "v")  # t faces +y: v is abeam, partly in its front half
    assert ahead.top_down.visible


def test_through_a_gap_narrower_than_a_base(tmp_path, world_of):
    """Clause: EC-LOS-1, EC-COVER-1 - a 0.6" slit between two buildings (bases are 1.65" wide):
    thin top-down lines pass; true LOS sees the strip the slit projects onto the target."""
    gap = (11.7, 12.3)
    path = street(tmp_path, buildings=[{"id": "west", "rect": [10, 4, 12, gap[0]], "storeys": 3},
                                       {"id": "east", "rect": [10, gap[1], 12, 20], "storeys": 3}])
    world = world_of(path)
    table = world.table
    result = world.line_of_sight("v", "t")
    assert result.top_down.visible and result.top_down.clear_lines < result.top_down.lines
    assert set(result.top_down.blockers) == {"west", "east"}
    spread = (TARGET_X - 0.25 - EYE_X) / (12.0 - EYE_X)  # the slit's far edge limits the rays
    expected = visible_share(table, y_lo=TARGET_Y + (gap[0] - TARGET_Y) * spread,
                             y_hi=TARGET_Y + (gap[1] - TARGET_Y) * spread)
    assert 0.3 < expected < 0.8
    assert result.true_los.visible_fraction == pytest.approx(expected, abs=0.05)
    assert result.true_los.cover and shoots(result)


def test_millimetre_stl_blocks_exactly_where_its_geometry_is(tmp_path, world_of):
    """A mesh piece from a millimetre STL (units: mm) blocks sight lines inside its outline and
    no others: a 2" x 1" x 3" box placed with its corner at (11, 11.5, 0)."""
    write_box_stl(tmp_path / "crate.stl", (50.8, 25.4, 76.2))
    path = street(tmp_path, meshes=[{"id": "crate", "file": "crate.stl", "units": "mm",
                                     "position": [11, 11.5, 0], "size_class": 3}])
    world = world_of(path)
    starts = [[4, 11.52, 1.0], [4, 11.48, 1.0], [4, 12.48, 2.98], [4, 12.52, 1.0], [4, 12.0, 3.02],
              [12.0, 12.0, 5.0]]
    ends = [[20, 11.52, 1.0], [20, 11.48, 1.0], [20, 12.48, 2.98], [20, 12.52, 1.0], [20, 12.0, 3.02],
            [12.0, 12.0, 2.9]]
    t, names = world.cast(starts, ends)
    assert list(names) == ["crate", "", "crate", "", "", "crate"]
    assert t[0] == pytest.approx((11 - 4) / 16, abs=1e-5)   # enters at the x = 11 face
    assert t[5] == pytest.approx(2.0 / 2.1, abs=1e-5)       # down onto the 3" top
    result = world.line_of_sight("v", "t")
    assert "crate" in result.true_los.blockers and "crate" in result.top_down.blockers
    assert result.true_los.cover
