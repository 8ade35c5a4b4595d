"""Collision shapes prepared once (issue 17) change no ride: a ride built from cold caches and
the same ride built from warm ones give bitwise the same record."""

import numpy as np

from entropy3d.physics import BikeBody
from entropy3d.physics import world as physics_world
from entropy3d.physics.mass import mass_properties
from entropy3d.physics.world import BIKE_MASS_KG, bike_hull, bike_shape


def _ride_smasher_through_the_bench(ground):
    """smasher rides 12" straight at the bench (a destructible) beside a parked bike."""
    other = ground.table.model("jumper")
    parked = BikeBody(other.id, ground.table.base_of(other), ground.pose(other.id))
    start = ground.pose("smasher")
    path = np.array([start.xy, start.xy + 12.0 * start.forward])
    return ground.ride("smasher", path, 12.0, others=[parked])


def test_cached_bike_shape_is_the_hull_and_mass_computed_afresh(proving_ground):
    import trimesh

    model = proving_ground.table.model("smasher")
    base, scale = proving_ground.table.base_of(model), proving_ground.ruleset.scale
    vertices = bike_hull(base, 2.5, scale)
    centre, inertia = mass_properties(trimesh.convex.convex_hull(vertices), BIKE_MASS_KG)
    cached = bike_shape(base, 2.5, scale)
    assert cached is bike_shape(base, 2.5, scale), "the second ask is the cache"
    assert np.array_equal(np.asarray(cached.local_m), vertices - centre)
    assert np.array_equal(cached.centre, centre) and np.array_equal(cached.inertia_diagonal, np.diag(inertia))


def test_a_ride_from_cold_caches_equals_the_same_ride_from_warm_ones(proving_ground):
    physics_world._BIKE_SHAPES.clear()
    physics_world._RECIPES.pop(proving_ground.geometry, None)
    cold = _ride_smasher_through_the_bench(proving_ground)
    assert physics_world._BIKE_SHAPES and proving_ground.geometry in physics_world._RECIPES
    warm = _ride_smasher_through_the_bench(proving_ground)
    assert cold.scenery, "the ride hits the bench, so debris is in the comparison"
    assert cold.steps == warm.steps and cold.outcome == warm.outcome
    assert cold.trajectory.tobytes() == warm.trajectory.tobytes()
    assert cold.contacts == warm.contacts and cold.scenery == warm.scenery and cold.end_pose == warm.end_pose
