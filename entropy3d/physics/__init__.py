"""Physics of the depicted city (the only package that imports pybullet).

:func:`build_table_world` makes a PyBullet world (metres) from a table's geometry, which lives for a
game (:meth:`PhysicsWorld.place` puts the bikes and debris in before every ride); :func:`ride`
rides one bike along an intended path through it and returns its :class:`RideRecord` in table
inches; :class:`~entropy3d.physics.producer.PhysicsProducer` turns that record into the rules'
:class:`~entropy3d.core.facts.Facts` (it is one of the fact producers of the one path).
"""

from entropy3d.physics.record import Airborne, DebrisMove, RideRecord, Touch
from entropy3d.physics.ride import ride
from entropy3d.physics.world import BikeBody, PhysicsWorld, build_table_world, build_world

__all__ = ["Airborne", "BikeBody", "DebrisMove", "PhysicsWorld", "RideRecord", "Touch", "build_table_world",
           "build_world", "ride"]
