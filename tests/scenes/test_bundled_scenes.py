"""The three bundled scenes load, build, and start every bike somewhere it can really stand.

Bikes are checked against the same geometry physics and sight lines use: the table pieces of
``build_table_geometry`` and the solids of ``miniature_shape``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from shapely.geometry import Point
from shapely.geometry import box as shapely_box

from entropy3d.geometry import Pose
from entropy3d.resources import bundled_dir, default_scene
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.miniature import miniature_shape

SCENES = ("crossroads", "ruined_highway", "lovers_point", "grab_n_go", "corners", "hoon_hour")
DECALS = {"ground", "zone", "road"}  # flat paint a base may overlap
RIDEABLE = {"ground", "zone", "road", "block", "platform", "building"}


@lru_cache(maxsize=None)
def built(name: str):
    table = load_scene(bundled_dir("scenes") / f"{name}.yaml")
    return table, build_table_geometry(table)


def start_poses(table, geometry):
    centres = [model.position[:2] for model in table.models]
    heights = geometry.surface_height(centres)
    return [(model, table.start_pose(model, float(z))) for model, z in zip(table.models, heights)]


def top_piece_under(geometry, xy):
    """(height, piece) of the highest surface straight under a table point."""
    best = (-np.inf, None)
    origin = np.array([[xy[0], xy[1], 1000.0]])
    for piece in geometry.pieces:
        hits, _, _ = piece.mesh.ray.intersects_location(origin, np.array([[0.0, 0.0, -1.0]]))
        if len(hits) and hits[:, 2].max() > best[0]:
            best = (float(hits[:, 2].max()), piece)
    return best


def convex_solids(piece):
    """Convex solids whose union covers the piece: its parts, or for mesh files the hull of each
    separate shell (the files are unions of simple shapes)."""
    if piece.kind == "mesh":
        return [shell.convex_hull for shell in piece.mesh.split(only_watertight=False)]
    return [part.convex_hull for part in piece.parts]


def strictly_inside(hull, points, tolerance=1e-4) -> np.ndarray:
    """Which points lie inside a convex hull by more than ``tolerance`` inches."""
    offsets = points @ hull.face_normals.T - np.sum(hull.face_normals * hull.triangles[:, 0], axis=1)
    return np.all(offsets < -tolerance, axis=1)


def interior_points(mesh, shrink=0.95) -> np.ndarray:
    """Points spread through a convex solid: its vertices, edge midpoints and centre, pulled in."""
    centre = mesh.vertices.mean(axis=0)
    edges = mesh.vertices[mesh.edges_unique].mean(axis=1)
    points = np.vstack([mesh.vertices, edges, centre[None]])
    return centre + shrink * (points - centre)


@pytest.mark.parametrize("name", SCENES)
def test_bundled_scene_loads_and_builds_with_unique_ids(name):
    table, geometry = built(name)
    assert (table.width, table.depth) == (48, 48)
    assert len(table.models) >= 8
    model_ids = [model.id for model in table.models]
    assert len(set(model_ids)) == len(model_ids)
    piece_ids = [piece.id for piece in geometry.pieces]
    assert len(set(piece_ids)) == len(piece_ids), "two pieces share an id"
    gangs = {model.gang for model in table.models}
    assert len(gangs) >= 2 and gangs <= set(table.spec.gangs)
    kinds = {piece.kind for piece in geometry.pieces}
    assert {"building", "mesh", "zone", "road"} <= kinds
    assert table.spec.cameras, "every bundled scene names at least one camera"


def test_default_scene_is_the_crossroads_with_two_gangs_of_four_and_a_sniper_on_a_roof():
    table = load_scene(default_scene())
    assert table.name == "Crossroads"
    per_gang = {}
    for model in table.models:
        per_gang[model.gang, model.on_foot] = per_gang.get((model.gang, model.on_foot), 0) + 1
    assert per_gang == {("hades", False): 4, ("komodo", False): 4, ("hades", True): 1, ("komodo", True): 1}
    _, geometry = built("crossroads")
    kinds = [piece.kind for piece in geometry.pieces]
    assert kinds.count("ramp") >= 1 and kinds.count("block") >= 4
    assert any(piece.dynamic for piece in geometry.pieces), "the park has destructible scenery"
    assert len({round(piece.top, 1) for piece in geometry.pieces if piece.kind == "building"}) >= 3


@pytest.mark.parametrize("name", SCENES)
def test_every_bike_starts_inside_the_table(name):
    table, geometry = built(name)
    for model, pose in start_poses(table, geometry):
        outline = table.base_of(model).outline(pose)
        assert outline.min() >= 0.0 and outline[:, 0].max() <= table.width and outline[:, 1].max() <= table.depth, \
            f"{model.id} hangs off the table"


def surfaces_under_base(geometry, base, pose):
    """(height, piece) under 16 points just inside the base rim, then under its centre."""
    samples = np.vstack([base.outline(pose, samples=16), [pose.x, pose.y]])
    samples = pose.xy + 0.97 * (samples - pose.xy)
    return [top_piece_under(geometry, xy) for xy in samples]


@pytest.mark.parametrize("name", SCENES)
def test_every_bike_starts_on_a_flat_rideable_surface(name):
    table, geometry = built(name)
    for model, pose in start_poses(table, geometry):
        tops = surfaces_under_base(geometry, table.base_of(model), pose)
        heights = np.array([height for height, _ in tops])
        assert np.ptp(heights) < 0.03, f"{model.id} straddles a step: heights {np.round(heights, 3)}"
        assert abs(heights[-1] - pose.z) < 1e-6
        kinds = {piece.kind for _, piece in tops}
        assert kinds <= RIDEABLE, f"{model.id} stands on {kinds - RIDEABLE}"
        assert geometry.surface_terrain(pose.xy) in table.ruleset.terrain


@pytest.mark.parametrize("name", SCENES)
def test_no_bike_starts_inside_a_piece(name):
    table, geometry = built(name)
    solids = [(piece.id, hull) for piece in geometry.pieces if piece.kind not in DECALS
              for hull in convex_solids(piece)]
    for model, pose in start_poses(table, geometry):
        shape = miniature_shape(table.base_of(model), pose, table.ruleset, model.bike_type)
        points = np.vstack([interior_points(shape.bike), interior_points(shape.rider),
                            interior_points(shape.base)])
        hit = [piece_id for piece_id, hull in solids if strictly_inside(hull, points).any()]
        assert not hit, f"{model.id} starts inside {hit}"


def test_the_overlap_check_catches_a_bike_parked_in_a_building():
    """The clearance check above can fail: a bike moved into a building is caught."""
    table, geometry = built("crossroads")
    model = table.models[0]
    building = next(piece for piece in geometry.pieces if piece.kind == "building")
    centre = building.mesh.bounds.mean(axis=0)
    pose = Pose(centre[0], centre[1], 0.0, 0.2)
    shape = miniature_shape(table.base_of(model), pose, table.ruleset)
    assert any(strictly_inside(hull, interior_points(shape.bike)).any() for hull in convex_solids(building))


def test_the_flatness_check_catches_a_bike_straddling_a_curb():
    """The surface check above can fail: a base half on a block and half on the road is caught."""
    table, geometry = built("crossroads")
    model = table.models[0]
    block = next(p for p in table.spec.blocks if p.rect is not None)
    pose = Pose(block.rect[2], (block.rect[1] + block.rect[3]) / 2, 0.0, 0.0)
    heights = [height for height, _ in surfaces_under_base(geometry, table.base_of(model), pose)]
    assert np.ptp(heights) >= block.curb_height - 0.03


def test_ruined_highway_decks_share_a_height_across_a_clearable_gap():
    """Two highway decks at one height with a 4-12" gap a speed 2 or 3 jump clears off the kicker.

    Clause: EC-JUMP-4 (a rider lands at the maximum distance of the speed it left the ground at).
    """
    table, geometry = built("ruined_highway")
    highways = [p for p in table.spec.platforms if p.kind == "highway"]
    assert len(highways) == 2
    decks = [geometry.by_id(p.id) for p in highways]
    assert abs(decks[0].top - decks[1].top) < 1e-9
    footprints = [shapely_box(*d.mesh.bounds[0][:2], *d.mesh.bounds[1][:2]) for d in decks]
    gap = footprints[0].distance(footprints[1])
    assert 4.0 <= gap <= 12.0, f"gap {gap:.2f} in"

    kicker = next(r for r in table.spec.ramps if r.base_height == pytest.approx(decks[0].top))
    heading = np.radians(kicker.heading)
    lip = np.asarray(kicker.start) + kicker.length * np.array([np.cos(heading), np.sin(heading)])
    on_deck = [i for i, f in enumerate(footprints) if f.buffer(1e-6).contains(Point(kicker.start))]
    assert len(on_deck) == 1, "the kicker stands on one of the decks"
    far_deck = footprints[1 - on_deck[0]]
    for speed in (2, 3):
        landing = lip + table.ruleset.speeds[speed].max * np.array([np.cos(heading), np.sin(heading)])
        assert far_deck.contains(Point(landing)), f"a speed {speed} jump lands at {landing}, off the far deck"


def test_ruined_highway_rooftops_are_joined_by_bridges_at_deck_height():
    table, geometry = built("ruined_highway")
    bridges = [p for p in table.spec.platforms if p.kind == "bridge"]
    assert len(bridges) >= 2
    roofs = [geometry.by_id(b.id) for b in table.spec.buildings]
    for bridge in bridges:
        deck = shapely_box(*bridge.rect)
        joined = [r for r in roofs if abs(r.top - bridge.height) < 0.05
                  and shapely_box(*r.mesh.bounds[0][:2], *r.mesh.bounds[1][:2]).distance(deck) < 1e-6]
        assert len(joined) >= 1, f"bridge {bridge.id} meets no rooftop at its height"
    terrains = {zone.terrain for zone in table.spec.zones} | {r.surface for r in table.spec.ramps}
    assert {"ruins", "sand", "gravel"} <= terrains | {r.surface for r in table.spec.roads}


def test_lovers_point_gangs_deploy_from_the_cliff_edge_one_in_each_corner():
    table, geometry = built("lovers_point")
    assert table.spec.mission == "lovers_point_brawl"
    edges = table.spec.table.edges
    assert edges["south"] == "cliff", "the deployment edge is a cliff face (EC-COL-EDGE)"
    # "the police have every exit blocked": the point's sides are cliffs too, the road north the way out
    assert [edge for edge in ("north", "south", "east", "west") if edges.get(edge, "open") == "open"] == ["north"]
    police = {m.id for m in table.models if m.bike == "police"}
    assert len(police) >= 2, "a police line blocks the exit"
    corners = {}
    for model, pose in start_poses(table, geometry):
        if model.id in police:
            assert pose.y > 30, f"police bike {model.id} should hold the road out, far from the cliff"
            continue
        distance_to_cliff = table.base_of(model).outline(pose)[:, 1].min()
        assert distance_to_cliff <= 6.0, f"{model.id} deploys {distance_to_cliff:.1f} in from the cliff"
        corners.setdefault(model.gang, []).append(pose.x)
    assert len(corners) == 2
    sides = sorted(np.mean(xs) for xs in corners.values())
    assert sides[0] < 12 and sides[1] > 36, "one gang in each corner of the cliff edge"


@pytest.mark.parametrize("speed", [2, 3])
def test_ruined_highway_jump_off_the_kicker_lands_on_the_far_deck_in_physics(speed):
    """Ridden through the physics world at its speed's maximum, the jump clears the gap.

    Clause: EC-JUMP-1 (a jump needs speed 2 or 3); the rider on the western deck rides east over
    the kicker and comes down on the eastern deck, not in the rubble below.
    """
    from entropy3d.physics import BikeBody, build_table_world, ride

    table, geometry = built("ruined_highway")
    model = next(m for m in table.models if m.position[0] < 22 and 30 < m.position[1] < 35)
    (pose,) = [p for m, p in start_poses(table, geometry) if m.id == model.id]
    east = next(geometry.by_id(p.id) for p in table.spec.platforms if p.kind == "highway" and p.rect[0] > 22)
    assert pose.z == pytest.approx(east.top)
    inches = table.ruleset.speeds[speed].max
    speed_in_s = inches / table.ruleset.scale.seconds_per_activation
    rider = BikeBody(model.id, table.base_of(model), pose, (speed_in_s, 0.0, 0.0))
    path = np.array([[pose.x, pose.y], [pose.x + 2 * inches, pose.y]])
    with build_table_world(table, geometry, rider=rider) as world:
        facts = ride(world, model.id, path, speed_in_s, time_slice_s=2 * table.ruleset.scale.seconds_per_activation)
    assert facts.flights, "the kicker throws the bike into the air"
    landing = facts.flights[0]
    x_min, x_max = east.mesh.bounds[0][0], east.mesh.bounds[1][0]
    assert landing.land_xy is not None and x_min <= landing.land_xy[0] <= x_max
    assert landing.land_z == pytest.approx(east.top, abs=0.1)
    assert facts.trajectory[:, 3].min() > east.top - 0.5, "it never dropped into the gap"


@pytest.mark.parametrize("name", SCENES)
def test_every_moving_bike_can_ride_its_minimum_straight_ahead(name):
    """Deployed facing into the fight, not into a wall: with every other bike standing still,
    each moving bike rides the speed 1 minimum (EC-SPD-2: 4") straight ahead in physics."""
    from entropy3d.physics import BikeBody, build_table_world, ride

    table, geometry = built(name)
    bodies = [BikeBody(m.id, table.base_of(m), pose) for m, pose in start_poses(table, geometry)]
    distance = table.ruleset.speeds[1].min
    for model, body in zip(table.models, bodies):
        if model.speed == 0:
            continue
        path = np.array([body.pose.xy, body.pose.xy + distance * body.pose.forward])
        others = [other for other in bodies if other.id != body.id]
        with build_table_world(table, geometry, rider=body, others=others) as world:
            facts = ride(world, model.id, path, distance / table.ruleset.scale.seconds_per_activation)
        assert facts.outcome == "completed", f"{model.id}: {facts} {[c.piece_id for c in facts.contacts]}"
