"""The scene's TableProbe: terrain, curbs and buildings along a path, for the rules planner.

Everything runs on tests/data/small_table.yaml: block_a (rect 1-9 x 1-9, curb 0.12") holds the
tower building (2-8 x 2-8), the main road runs along y = 11.5, the park is grass (14-22 x 14-22).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.planner import plan_move

REPO = Path(__file__).resolve().parents[2]
SMALL_TABLE = REPO / "tests" / "data" / "small_table.yaml"


@pytest.fixture(scope="module")
def table():
    return load_scene(SMALL_TABLE)


@pytest.fixture(scope="module")
def probe(table):
    return SceneProbe.from_table(table)


def _segment(start, end, n=20):
    return np.linspace(np.asarray(start, float), np.asarray(end, float), n)


def test_curb_crossing_angle_is_measured_against_the_block_edge(probe):
    """Clause: EC-TER-CURB. Crossing block_a's north curb (y = 9) square on reads 90 degrees,
    at 30 degrees off the edge reads 30, and riding along the road crosses no curb."""
    square = probe.curb_crossings_deg(_segment((8.5, 11.0), (8.5, 8.5)))
    shallow = probe.curb_crossings_deg(_segment((4.0, 10.0), (4.0 + 1.4 / np.tan(np.radians(30)), 8.6)))
    assert square == pytest.approx([90.0], abs=0.5)
    assert shallow == pytest.approx([30.0], abs=0.5)
    assert probe.curb_crossings_deg(_segment((1.0, 11.0), (23.0, 11.0))) == []


def test_a_path_into_a_building_is_seen_and_one_beside_it_is_not(probe):
    """Clause: EC-TER-BUILDING. The tower (2-8 x 2-8) is entered; a path just outside is not."""
    assert probe.building_entered(_segment((5.0, 10.0), (5.0, 6.0)))[0] == "tower"
    assert probe.building_entered(_segment((8.5, 10.0), (8.5, 1.5))) is None
    assert probe.building_entered(np.array([16.0, 3.5]))[0] == "lshape"  # a single point
    assert probe.building_entered(np.array([[18.0, 7.0]])) is None  # the notch of the L


def test_terrain_along_names_every_surface_the_path_rides_over(probe):
    """Clauses: EC-TER-GRASS, EC-TER-SAND (the terrain list feeds every terrain clause). The road is
    asphalt; a path into the park adds grass; onto block_a's sidewalk adds its concrete."""
    assert probe.terrain_along(_segment((1.0, 11.0), (23.0, 11.0))) == ["asphalt"]
    assert probe.terrain_along(_segment((12.0, 18.0), (18.0, 18.0))) == ["asphalt", "grass"]
    assert "concrete" in probe.terrain_along(_segment((8.5, 10.0), (8.5, 8.6)))


def test_probe_built_from_table_matches_probe_built_from_its_geometry(table, probe):
    """``from_table`` builds the same footprints as the geometry it would build itself."""
    direct = SceneProbe(build_table_geometry(table))
    assert [(f.piece_id, f.kind, f.top) for f in direct.footprints] == \
        [(f.piece_id, f.kind, f.top) for f in probe.footprints]
    assert (direct.width, direct.depth) == (24.0, 24.0)


def test_planner_with_the_probe_refuses_a_shallow_curb_crossing(table, probe):
    """Clause: EC-TER-CURB. A cruiser at (4, 11) facing east turning right onto block_a at 39
    degrees is refused; the same plan without a probe is accepted (nothing else forbids it)."""
    pose = Pose(4.0, 11.0, 0.0)
    plan = "s2: right wide 3, straight 6"
    with pytest.raises(IllegalPlanError) as refused:
        plan_move(plan, pose, "cruiser", 2, table.ruleset, table=probe)
    assert refused.value.clause == "EC-TER-CURB"
    assert plan_move(plan, pose, "cruiser", 2, table.ruleset).length_in == 9


def test_planner_with_the_probe_refuses_a_move_into_a_building(table, probe):
    """Clause: EC-TER-BUILDING. A tight right turn from the road runs into the tower."""
    with pytest.raises(IllegalPlanError) as refused:
        plan_move("s2: right tight 3, straight 7", Pose(4.0, 11.0, 0.0), "cruiser", 2, table.ruleset,
                  table=probe)
    assert refused.value.clause == "EC-TER-BUILDING"


def _plan_cli(*args):
    return subprocess.run([sys.executable, "-m", "entropy3d", "plan", str(SMALL_TABLE), "--model", "h1", *args],
                          capture_output=True, text=True, cwd=REPO)


def test_plan_cli_refuses_a_shallow_curb_crossing():
    """Clause: EC-TER-CURB. ``entropy3d plan`` asks the scene about curbs: h1 turning onto
    block_a at 39 degrees is refused (exit 1, clause named); without the scene checks it rides."""
    refused = _plan_cli("s2: right wide 3, straight 6")
    assert refused.returncode == 1
    assert "EC-TER-CURB" in refused.stderr + refused.stdout
    assert "Traceback" not in refused.stderr
    unchecked = _plan_cli("--no-terrain", "s2: right wide 3, straight 6")
    assert unchecked.returncode == 0, unchecked.stderr
    assert "end       x=11.47\"" in unchecked.stdout


def test_plan_cli_refuses_a_move_into_a_building():
    """Clause: EC-TER-BUILDING. ``entropy3d plan`` refuses h1 turning into the tower."""
    refused = _plan_cli("s2: right tight 3, straight 7")
    assert refused.returncode == 1
    assert "EC-TER-BUILDING" in refused.stderr + refused.stdout


def test_probe_needs_no_physics_or_renderer():
    """The probe is scene-layer code: importing and using it loads neither pybullet nor panda3d."""
    code = ("import sys; from entropy3d.scene import load_scene; from entropy3d.scene.probe import SceneProbe; "
            "import numpy as np; "
            f"p = SceneProbe.from_table(load_scene({str(SMALL_TABLE)!r})); "
            "p.curb_crossings_deg(np.array([[4.0, 10.0], [6.0, 8.0]])); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pybullet', 'panda3d', 'direct')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def highway():
    """scenes/ruined_highway.yaml: market_ramp (x 42-46, y 2-14) climbs 4" onto the market's roof
    (40-48 x 14-24, two storeys of 2"); highway_east's deck (28-41 x 30-35) runs at 4" onto the
    depot's roof (41-48 x 28-40); komodo_1 starts on the depot roof."""
    table = load_scene(REPO / "scenes" / "ruined_highway.yaml")
    return table, SceneProbe.from_table(table)


def test_EC_TER_BUILDING_a_bike_rides_onto_a_roof_at_its_height_and_into_the_wall_below_it(highway):
    """Clause: EC-TER-BUILDING ("A bike cannot be taken inside of a building"), EC-JUMP-1: a bike
    runs into a building where it comes into its footprint from more than a step below the roof;
    up a ramp that leads onto the roof, or off a deck level with it, it rides onto the roof."""
    _, probe = highway
    assert probe.building_entered(_segment((44.0, 1.0), (44.0, 20.0), 77), 0.0) is None  # up the ramp
    assert probe.building_entered(_segment((39.0, 18.0), (44.0, 18.0)), 0.0)[0] == "market"  # the wall
    assert probe.building_entered(_segment((38.0, 32.5), (43.0, 32.5)), 4.0) is None  # deck onto roof
    assert probe.building_entered(_segment((38.0, 32.5), (43.0, 32.5)), 0.0)[0] == "depot"  # under the deck
    assert probe.building_entered(_segment((44.5, 34.0), (44.5, 30.0)), 4.0) is None  # along the roof


def test_EC_TER_BUILDING_the_rider_on_the_depot_roof_may_ride_off_it_onto_the_highway(highway):
    """Clause: EC-TER-BUILDING. Viper starts on the depot's roof (4"); riding west onto the
    highway deck was refused as "entering" the depot it stands on."""
    table, probe = highway
    viper = table.initial_state().model("komodo_1")
    move = plan_move("s2: straight 10", viper.pose, viper.bike_type, 2, table.ruleset, table=probe)
    assert move.end_pose.x == pytest.approx(34.5) and move.end_pose.z == pytest.approx(4.0)


@pytest.mark.parametrize("scene", ["crossroads", "lovers_point"])
def test_first_hits_are_trimesh_intersects_id_to_the_bit(scene):
    """``TableGeometry._first_hits`` (under every ground profile) is trimesh's first-hit cast,
    reached directly for speed: the same rays hit, at the same points to the bit, on and off the
    table, with and without the destructibles."""
    from entropy3d.resources import bundled_dir
    from entropy3d.scene.build import build_table_geometry

    geometry = build_table_geometry(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    rng = np.random.default_rng(7)
    points = np.column_stack([rng.uniform(-3, geometry.width + 3, 2000), rng.uniform(-3, geometry.depth + 3, 2000)])
    for static_only in (False, True):
        mesh = geometry._together(static_only)[0]  # no print cast alone on a bundled table
        origins = np.column_stack([points, np.full(len(points), float(mesh.bounds[1][2]) + 1.0)])
        _, rays, hits = mesh.ray.intersects_id(origins, np.tile([0.0, 0.0, -1.0], (len(points), 1)),
                                              multiple_hits=False, return_locations=True)
        found_rays, found_hits = geometry._first_hits(points, static_only)
        assert 0 < len(rays) < len(points)  # some rays miss: they leave the table
        assert np.array_equal(found_rays, rays)
        assert found_hits.tobytes() == hits.tobytes()


@pytest.mark.parametrize("clearance", [0.0, 0.05, 0.5, 2.0])
def test_blocked_skips_only_footprints_out_of_reach(probe, clearance):
    """``blocked`` leaves out a footprint whose plan box lies beyond the clearance from the points;
    what it finds is what testing every solid footprint finds, for points scattered over the table,
    on the tower's walls and corners, and exactly the clearance away from them."""
    import shapely

    rng = np.random.default_rng(5)
    corners = np.array([[2.0, 2.0], [8.0, 2.0], [8.0, 8.0], [2.0, 8.0]])
    near = np.concatenate([corners, corners + [clearance, 0.0], corners - [0.0, clearance],
                           [[5.0, 8.0 + clearance], [8.0 + clearance, 5.0], [5.0, 5.0], [1.0 - clearance, 5.0]]])
    # the box skipped is the points' own: each point near the tower is asked alone too
    groups = [rng.uniform(-1.0, 25.0, size=(40, 2)), near, np.empty((0, 2))] + [point[None] for point in near]
    found_any = False
    for points in groups:
        for level in (0.0, 0.12):
            want = np.zeros(len(points), bool)
            for footprint in probe.solid_footprints(level):
                if clearance > 0:
                    want |= shapely.dwithin(footprint.outline, shapely.points(points), clearance)
                else:
                    want |= shapely.contains_xy(footprint.outline, points[:, 0], points[:, 1])
            assert np.array_equal(probe.blocked(points, level, clearance=clearance), want), (points, level)
            found_any |= bool(want.any())
    assert found_any
