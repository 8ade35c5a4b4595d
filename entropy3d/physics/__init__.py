"""Physics of the depicted city (the only package that imports pybullet).

:func:`build_table_world` makes a fresh PyBullet world (metres) from a table's geometry; :func:`ride`
rides one bike along an intended path through it and returns :class:`RideFacts` in table inches;
the rules layer snaps those facts to the rulebook (:mod:`entropy3d.activation`).
"""

from entropy3d.physics.facts import Contact, Flight, RideFacts, SceneryMove
from entropy3d.physics.ride import ride
from entropy3d.physics.world import BikeBody, PhysicsWorld, ScenerySpot, build_table_world, build_world

__all__ = ["BikeBody", "Contact", "Flight", "PhysicsWorld", "RideFacts", "SceneryMove", "ScenerySpot",
           "build_table_world", "build_world", "ride"]
