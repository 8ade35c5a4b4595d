"""Issue 46: the chase's vehicles look like their kind (seed 001's "car chase", the runners' van):
a scene model's ``vehicle:`` names a kind of the table rules data's ``vehicles:``; its footprint is
its plan (the depicted vehicle at the table's scale, 1" = 1.42 m, bumper to bumper: no oval base
past it), it is seen and hit as that vehicle (``miniature_shape``) and is drawn from
``models/vehicle_<kind>.glb``, whose body covers its footprint's plate and reaches the declared
size. Entropy City plays no vehicles."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from entropy3d.errors import SceneError
from entropy3d.geometry import BaseShape, Pose
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_ruleset, load_scene
from entropy3d.scene.miniature import (
    BASE_THICKNESS_IN,
    load_model_file,
    miniature_colour_parts,
    miniature_model_path,
    miniature_shape,
)
from entropy3d.units import mm_to_inches

CHASE = bundled_dir("scenes") / "systems" / "car_chase.yaml"
VEHICLES = ("car", "police_car", "van")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_the_car_chase_drives_police_cars_a_van_and_a_trail_bike():
    """SW-CHASE: the Highway Patrol's interceptor and cruiser are police cars, the runners a van
    and a trail bike (it was four motorcycles, the van on a cruiser bike's base)."""
    table = load_scene(CHASE)
    kinds = {model.id: model.bike_type for model in table.models}
    assert kinds == {"interceptor": "police_car", "rammer": "police_car", "van": "van", "runner": "trailbike"}
    van, bike = table.base_of(table.model("van")), table.base_of(table.model("runner"))
    assert (van.length, van.width) == pytest.approx((5.0 / 1.42, 2.0 / 1.42)), "the van's plan, 5 x 2 m"
    assert van.length > bike.length + 0.5, "a van is half an inch longer than a bike's oval base"
    assert bike.power == 2.0 and bike.length == pytest.approx(mm_to_inches(75)), "a bike keeps its oval (EC-BASE)"


@pytest.mark.parametrize("kind", VEHICLES)
def test_a_vehicle_footprint_is_its_plan_at_the_table_scale(kind, ruleset):
    """The rules data's DECISION: the depicted size in metres over 1.42 m an inch (a car 4.5 x
    1.8 m: 3.17" x 1.27"), and the footprint (what collides, touches and is drawn) is that plan,
    a rounded rectangle: it reaches the bumpers and the corners, and nothing past them (it was a
    3.78" x 1.57" oval, 0.3" past each bumper and short of the corners)."""
    vehicle, spec = ruleset.vehicles[kind], ruleset.spec.vehicles[kind]
    assert vehicle.length == pytest.approx(spec.length_m / 1.42) and vehicle.width == pytest.approx(spec.width_m / 1.42)
    base = ruleset.base_for(kind)
    assert (base.length, base.width) == (vehicle.length, vehicle.width)
    half_length, half_width = vehicle.length / 2, vehicle.width / 2
    at = Pose(0.0, 0.0, 0.0)
    corners = np.array([[sx * 0.8 * half_length, sy * 0.8 * half_width] for sx in (1, -1) for sy in (1, -1)])
    assert base.contains(at, corners).all(), "a car's corners are in its footprint"
    past = np.array([[1.02 * half_length, 0.0], [-1.02 * half_length, 0.0], [0.0, 1.02 * half_width]])
    assert not base.contains(at, past).any(), "nothing past its bumpers and sides"


@pytest.mark.parametrize("kind", VEHICLES)
def test_a_vehicle_is_seen_and_hit_as_its_declared_size(kind, ruleset):
    """Its solids (sight lines, the 25% cover rule) are its body to the waist and glasshouse to
    the roof, standing on its base, facing +x, at any pose."""
    vehicle = ruleset.vehicles[kind]
    pose = Pose(10.0, 6.0, 90.0, 0.5)
    shape = miniature_shape(ruleset.base_for(kind), pose, ruleset, kind)
    top = pose.z + BASE_THICKNESS_IN
    np.testing.assert_allclose(shape.bike.extents, [vehicle.width, vehicle.length, vehicle.waist], atol=1e-9)
    assert shape.bike.bounds[0][2] == pytest.approx(top)
    assert shape.rider.bounds[1][2] == pytest.approx(top + vehicle.height), "the roof tops what is seen"
    assert shape.rider.extents[1] == pytest.approx(vehicle.cabin[1] - vehicle.cabin[0])
    assert shape.body.bounds.mean(axis=0)[0] == pytest.approx(pose.x)


@pytest.mark.parametrize("kind", VEHICLES)
def test_a_vehicle_mesh_is_its_declared_size_and_lies_on_its_base(kind, ruleset):
    """models/vehicle_<kind>.glb: a body (tinted), trim, windows and wheels (and a police car's
    light bar) reaching the declared length, width and roof, every vertex over its footprint, on
    a plate of that footprint (its drawn base is no bigger than the vehicle)."""
    vehicle, base = ruleset.vehicles[kind], ruleset.base_for(kind)
    nodes = load_model_file(miniature_model_path(ruleset, kind))
    assert {"base", "body", "trim", "windows", "wheels"} <= set(nodes)
    assert ("lights" in nodes) == (kind == "police_car")
    np.testing.assert_allclose(nodes["base"].extents[:2], [base.length, base.width], atol=0.01)
    drawn = trimesh.util.concatenate([nodes[name] for name in ("body", "trim", "windows", "wheels")])
    assert drawn.extents[0] == pytest.approx(vehicle.length, abs=0.05)
    assert drawn.extents[1] == pytest.approx(vehicle.width, abs=0.05)
    assert drawn.bounds[1][2] == pytest.approx(BASE_THICKNESS_IN + vehicle.height, abs=0.02)
    assert drawn.bounds[0][2] >= BASE_THICKNESS_IN - 1e-6, "its wheels stand on the base top"
    grown = BaseShape(base.length + 0.01, base.width + 0.01, base.power)  # its points lie on the edge
    assert grown.contains(Pose(0.0, 0.0, 0.0), np.asarray(drawn.vertices)[:, :2]).all(), "nothing overhangs it"
    drawn_base = miniature_shape(base, Pose(0.0, 0.0, 0.0), ruleset, kind).base
    np.testing.assert_allclose(drawn_base.extents[:2], [vehicle.length, vehicle.width], atol=0.01)


def test_a_van_shows_the_van_mesh_in_every_picture(ruleset):
    """The one choice every picture draws from: a van's parts are the van file's (body painted in
    the gang colour), not a bike's."""
    parts = miniature_colour_parts(ruleset, "van")
    names = {name for name, _, _ in parts}
    assert names == {"body", "trim", "windows", "wheels"}
    assert [rgb for name, rgb, _ in parts if name == "body"] == [None], "the body takes the gang colour"
    van = load_model_file(bundled_dir("models") / "vehicle_van.glb")
    assert sum(len(mesh.faces) for _, _, mesh in parts) == sum(len(m.faces) for n, m in van.items() if n != "base")
    assert miniature_model_path(ruleset, "police").name == "bike_police.glb"


def _scene_with(tmp_path, model: str, system: str) -> str:
    path = tmp_path / "scene.yaml"
    path.write_text(f"name: T\nsystem: {system}\ntable: {{width: 24, depth: 24}}\n"
                    "gangs: {a: {name: A, colour: '#ff0000'}}\n"
                    f"models:\n  - {model}\n", encoding="utf-8")
    return str(path)


def test_entropy_city_plays_no_vehicles(tmp_path):
    """Entropy City's miniatures are bikes (EC-BIKE-*): a model with `vehicle:` is refused with
    the fix, naming the key and line."""
    path = _scene_with(tmp_path, "{id: v, gang: a, vehicle: van, position: [12, 12], facing: 0}", "entropy_city")
    with pytest.raises(SceneError) as error:
        load_scene(path)
    assert "models[0].vehicle" in str(error.value) and "drives no cars or vans" in str(error.value)


@pytest.mark.parametrize("model, message", [
    ("{id: v, gang: a, vehicle: tank, position: [12, 12], facing: 0, stats: {driving: 6, toughness: 8}}",
     "unknown vehicle 'tank'; use one of car, police_car, van"),
    ("{id: v, gang: a, vehicle: van, bike: cruiser, position: [12, 12], facing: 0}",
     "keep one of `bike:`, `vehicle:` and `on_foot: true`"),
])
def test_a_wrong_vehicle_names_the_fix(tmp_path, model, message):
    with pytest.raises(SceneError) as error:
        load_scene(_scene_with(tmp_path, model, "chase_vehicles"))
    assert message in str(error.value)
