"""Random rides at every speed (gung-ho doubles included): no bike inside geometry, through a
wall, below the table or lost to NaN; and a ride over an imported concave mesh stays smooth."""

import math

import numpy as np
import pytest
import trimesh
from shapely.geometry import Polygon

from entropy3d.geometry import Pose

OBSTACLE_KINDS = ("building", "platform", "pillar", "railing", "ramp", "block", "mesh")
DISTANCES = (8.0, 12.0, 16.0, 32.0)  # speed 1, 2, 3 and a gung-ho speed 3 double move
BODY_POINT_IN = 0.5  # a point inside the bike's body: this high above its base, on its centre line


def convex_halfspaces(geometry):
    """(piece id, face normals, face offsets) of every static obstacle part; a point p is inside
    a part by max(normals @ p - offsets) < 0."""
    out = []
    for piece in geometry.pieces:
        if piece.dynamic or piece.kind not in OBSTACLE_KINDS:
            continue
        for part in piece.parts:
            hull = part if part.is_convex else part.convex_hull
            normals = np.asarray(hull.face_normals)
            offsets = np.einsum("ij,ij->i", normals, np.asarray(hull.triangles_center))
            out.append((piece.id, normals, offsets))
    return out


def random_polyline(rng, geometry, length):
    """A start on open ground with a 1-3 segment polyline of ``length`` inches from it."""
    while True:
        start = rng.uniform(4.0, 44.0, size=2)
        heading = rng.uniform(0.0, 360.0)
        ring = Pose(*start, heading).xy + 2.0 * np.array(
            [[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)])
        if np.all(geometry.surface_height(np.vstack([start, ring])) < 0.05):  # bare ground or paint
            break
    cuts = np.sort(rng.uniform(0.0, length, size=int(rng.integers(0, 3))))
    pieces = np.diff(np.concatenate([[0.0], cuts, [length]]))
    points, here, h = [start], start, heading
    for k, piece in enumerate(pieces):
        if k:
            h += rng.uniform(-60.0, 60.0)
        here = here + piece * np.array([math.cos(math.radians(h)), math.sin(math.radians(h))])
        points.append(here)
    return Pose(float(start[0]), float(start[1]), heading, 0.0), np.array(points)


def densified(trajectory, spacing=0.05):
    rows = [trajectory[0, 1:4]]
    for a, b in zip(trajectory[:-1, 1:4], trajectory[1:, 1:4]):
        n = max(1, int(np.ceil(np.linalg.norm(b[:2] - a[:2]) / spacing)))
        rows.extend(a + (b - a) * (k / n) for k in range(1, n + 1))
    return np.array(rows)


@pytest.mark.parametrize("case", range(16))
def test_random_rides_stay_out_of_geometry(proving_ground, case):
    rng = np.random.default_rng(1000 + case)
    geometry = proving_ground.geometry
    length = DISTANCES[case % len(DISTANCES)]
    pose, path = random_polyline(rng, geometry, length)
    facts = proving_ground.ride("crasher", path, length, pose=pose)
    trajectory = facts.trajectory
    assert np.all(np.isfinite(trajectory)), "NaN in the trajectory"
    assert facts.outcome in ("completed", "crashed", "airborne", "left_table", "stalled")
    if facts.left_table is None:
        assert trajectory[:, 3].min() > -0.05, "below the table top"
    points = densified(trajectory)
    on_table = (points[:, 0] >= 0) & (points[:, 0] <= 48) & (points[:, 1] >= 0) & (points[:, 1] <= 48)
    body = points[on_table] + np.array([0.0, 0.0, BODY_POINT_IN])
    for piece_id, normals, offsets in convex_halfspaces(geometry):
        depth = (body @ normals.T - offsets).max(axis=1)
        assert depth.min() > 0.0, f"the bike's body went into (or through) '{piece_id}'"


def test_fuzz_check_catches_a_path_through_a_wall(proving_ground):
    """The geometry check above can fail: a straight line through the bank is inside it."""
    line = np.column_stack([np.zeros(50), np.linspace(28, 42, 50), np.full(50, 8.0), np.zeros(50), np.zeros(50)])
    body = densified(line) + np.array([0.0, 0.0, BODY_POINT_IN])
    hits = [pid for pid, n, o in convex_halfspaces(proving_ground.geometry) if (body @ n.T - o).max(axis=1).min() < 0]
    assert hits == ["bank"]


def test_ride_over_an_imported_concave_mesh_is_smooth(tmp_path):
    """A concave L-shaped slab of many triangles (an imported mesh piece, so a static concave
    mesh with internal-edge smoothing) is crossed at speed 3 without catching or drifting."""
    from entropy3d.physics import BikeBody, build_table_world, ride
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    slab = trimesh.creation.extrude_polygon(Polygon([(0, 0), (30, 0), (30, 20), (10, 20), (10, 8), (0, 8)]), 0.3)
    slab = trimesh.remesh.subdivide_to_size(slab.vertices, slab.faces, max_edge=1.5)
    slab = trimesh.Trimesh(*slab)
    assert not slab.is_convex and len(slab.faces) > 200
    slab.export(tmp_path / "slab.stl")
    (tmp_path / "slab.yaml").write_text(
        "name: Slab\ntable: {width: 48, depth: 48}\n"
        "meshes:\n  - {id: slab, file: slab.stl, units: in, position: [6, 10, 0]}\n"
        "gangs: {g: {name: G, colour: '#ffffff'}}\n"
        "models:\n  - {id: rider, gang: g, bike: police, position: [10, 14, 0.3], facing: 0, speed: 3}\n")
    table = load_scene(tmp_path / "slab.yaml")
    geometry = build_table_geometry(table)
    model = table.model("rider")
    pose = Pose(10.0, 14.0, 0.0, 0.3)
    path = np.array([[10.0, 14.0], [26.0, 14.0]])
    with build_table_world(table, geometry, rider=BikeBody("rider", table.base_of(model), pose)) as world:
        facts = ride(world, "rider", path, 16.0 / table.ruleset.scale.seconds_per_activation)
    assert facts.outcome == "completed" and facts.progress_in == pytest.approx(16.0, abs=0.05)
    assert np.abs(facts.trajectory[:, 2] - 14.0).max() < 0.1, "no sideways drift"
    assert np.abs(facts.trajectory[:, 3] - 0.3).max() < 0.05, "no bumps over internal edges"
    assert facts.contacts == () and facts.flights == ()


@pytest.mark.parametrize("inches_per_activation", [16.0, 32.0, 96.0])
def test_no_bike_passes_through_a_thin_railing_at_any_speed(inches_per_activation):
    """A 0.15" railing on the small table's deck stops a bike even at three gung-ho moves' speed."""
    from pathlib import Path

    from entropy3d.physics import BikeBody, build_table_world, ride
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(Path(__file__).parents[1] / "data" / "small_table.yaml")
    geometry = build_table_geometry(table)
    model = table.model("h1")
    pose = Pose(7.0, 16.6, 90.0, 4.0)
    with build_table_world(table, geometry, rider=BikeBody("h1", table.base_of(model), pose)) as world:
        facts = ride(world, "h1", np.array([[7.0, 16.6], [7.0, 16.6 + inches_per_activation]]),
                     inches_per_activation / table.ruleset.scale.seconds_per_activation)
    assert facts.outcome == "crashed" and facts.first_crash.kind == "railing"
    assert facts.trajectory[:, 2].max() < 19.0, "the bike's centre never got past the railing"
    assert facts.end_pose.z == pytest.approx(4.0, abs=0.05)


def random_plan(rng, speed: int, gungho: bool) -> str:
    """A legal-looking plan for a police bike: a straight, then maybe a turn at its end."""
    total = {1: 8, 2: 12, 3: 16}[speed] * (2 if gungho else 1)
    if rng.random() < 0.5:
        return f"{'gungho ' if gungho else ''}s{speed}: straight {total}"
    template = {1: "tight", 2: "medium", 3: "wide"}[speed]
    arc = int(rng.integers(1, {"tight": 3, "medium": 5, "wide": 7}[template] + 1))
    side = "left" if rng.random() < 0.5 else "right"
    return f"{'gungho ' if gungho else ''}s{speed}: straight {total - arc}, {side} {template} {arc}"


@pytest.mark.parametrize("case", range(8))
def test_random_plans_ridden_through_activations_stay_out_of_geometry(proving_ground, case):
    """Planned moves (rules' paths) at speeds 1-3 and gung-ho doubles, from random open ground."""
    import dataclasses

    from entropy3d.game.step import activation
    from entropy3d.physics.producer import PhysicsProducer
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine

    rng = np.random.default_rng(2000 + case)
    speed, gungho = 1 + case % 3, case >= 5
    pose, _ = random_polyline(rng, proving_ground.geometry, 1.0)
    state = dataclasses.replace(proving_ground.table.initial_state(proving_ground.geometry.surface_height), turn=2)
    state = state.with_model(state.model("crasher").but(pose=pose, speed=speed))
    plan = random_plan(rng, speed, gungho)
    # never pushing, a stress-free rider cannot bust on the plan's own test, so every plan is ridden
    physics = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    steps = activation(EntropyCityEngine(proving_ground.ruleset), state, "crasher", [plan], rng, physics, push="never")
    result = steps[1]
    assert result.ridden, plan
    trajectory = result.trajectory
    assert np.all(np.isfinite(trajectory)), plan
    if result.facts.edge is None:
        assert trajectory[:, 3].min() > -0.05, plan
        assert result.after.model("crasher").pose.z >= -0.05, plan
    points = densified(trajectory)
    inside = (points[:, 0] >= 0) & (points[:, 0] <= 48) & (points[:, 1] >= 0) & (points[:, 1] <= 48)
    body = points[inside] + np.array([0.0, 0.0, BODY_POINT_IN])
    for piece_id, normals, offsets in convex_halfspaces(proving_ground.geometry):
        assert (body @ normals.T - offsets).max(axis=1).min() > 0.0, f"{plan}: into '{piece_id}'"
