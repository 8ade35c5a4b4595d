"""A crashed bike going down: the physics after the contact that ended its ride, for the film.

A ride ends at its first crash contact (:mod:`.ride`): the rules need nothing after it. What a
viewer should see next, the bike knocked off its wheels, is simulated here as a continuation
from the moment of contact, in a world of its own (a flat floor at the level the bike stood on
and nothing else), so the table's world, and so every later ride and replay byte, is untouched:

- the bike's own collision hull and mass (:func:`.world.bike_shape`), standing where it hit;
- its velocity just before the contact (the ride's trajectory), its part into the obstacle
  bounced back with :data:`RESTITUTION` and a lift of :data:`LIFT` of it;
- the spin the contact gives it: the obstacle stops the bike at wheel height, below its centre
  of mass, so the bike pitches over towards the obstacle (about the axis up x into), at
  :data:`PITCH_PER_MPS` radians a second per metre a second into it, with :data:`ROLL_SHARE`
  of that about the way into the obstacle, so it comes down on a side. DECISION: these shares
  model the impulse of a contact the ride does not resolve (it stopped at it); the rest
  (the fall, the bounces, the slide) is Bullet's.

Rows are recorded every :data:`RECORD_EVERY` steps for :data:`TUMBLE_S` seconds: t (seconds
after the contact), x, y, z of the base's bottom centre (inches) and the bike's orientation
quaternion (x, y, z, w). Deterministic: a fresh world, fixed steps, no randomness.

The rider is thrown (:func:`thrown_rider`) in a world of his own too (so the bike's fall is the
same bytes with or without him): his body a box (the rider's solid of
:func:`~entropy3d.scene.miniature.miniature_shape`, :data:`RIDER_MASS_KG`) leaving the seat with
the bike's speed before the contact, less what the obstacle took (:data:`RIDER_CARRY` of the speed
into it carries on), over the bars (:data:`RIDER_LIFT` of it upwards, pitching head first at
:data:`RIDER_PITCH_PER_MPS`), into a wall as tall as what the bike hit: a low obstacle he clears,
a building he meets and drops at. DECISION, as the bike's spin: the share carried and the lift
model the seat letting go, which the ride does not resolve; the flight and the landing are Bullet's.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.geometry import BaseShape, Pose
from entropy3d.physics.engine import pybullet
from entropy3d.physics.world import BIKE_MASS_KG, bike_shape
from entropy3d.units import GRAVITY_M_S2, TableScale

#: seconds of tumble simulated after the contact, at the world's 240 Hz, recorded at 60 Hz
TUMBLE_S = 1.6
STEP_S = 1.0 / 240.0
RECORD_EVERY = 4
#: the bounce off the obstacle, and the lift the hit gives, as shares of the speed into it
RESTITUTION = 0.25
LIFT = 0.3
#: the spin the contact gives, per m/s into the obstacle: pitch over it, and a share of that roll
PITCH_PER_MPS = 0.9
ROLL_SHARE = 0.45
#: the floor's friction (asphalt under a sliding bike) and its bounce
FLOOR_FRICTION = 0.6
FLOOR_RESTITUTION = 0.1
#: the thrown rider: mass (kg, with his gear), the share of the speed into the obstacle he keeps,
#: the lift over the bars (a share of it), his head-first spin per m/s into it, the ground's grip
#: on a sliding body
RIDER_MASS_KG = 85.0
RIDER_CARRY = 0.7
RIDER_LIFT = 0.3
RIDER_PITCH_PER_MPS = 0.35
RIDER_FRICTION = 0.8
#: the wall standing for what the bike hit: its thickness and width (inches) and its greatest height
OBSTACLE_THICKNESS_IN = 0.5
OBSTACLE_WIDTH_IN = 3.0
OBSTACLE_MAX_HEIGHT_IN = 12.0
#: columns of a tumble array
TUMBLE_COLUMNS = ("t_s", "x_in", "y_in", "z_in", "qx", "qy", "qz", "qw")


def speed_before(trajectory: np.ndarray, t_s: float) -> np.ndarray:
    """The bike's velocity (inches a second, x, y, z) over the last recorded step before ``t_s``
    (the contact), not after it: the contact has already slowed it."""
    rows = trajectory[trajectory[:, 0] < t_s - 1e-9]
    if len(rows) < 2:
        return np.zeros(3)
    return (rows[-1, 1:4] - rows[-2, 1:4]) / max(rows[-1, 0] - rows[-2, 0], 1e-6)


def tumble(base: BaseShape, height_in: float, scale: TableScale, pose: Pose, velocity_in_s, into_deg: float
           ) -> np.ndarray:
    """The tumble of a bike (``base``, collision ``height_in``) that hit something lying
    ``into_deg`` from it while standing at ``pose`` and moving at ``velocity_in_s``: (K, 8) rows
    of :data:`TUMBLE_COLUMNS` (see the module docstring)."""
    client = pybullet.connect(pybullet.DIRECT)
    try:
        return _simulate(client, base, height_in, scale, pose, np.asarray(velocity_in_s, float), into_deg)
    finally:
        pybullet.disconnect(client)


def _simulate(client: int, base: BaseShape, height_in: float, scale: TableScale, pose: Pose,
              velocity_in_s: np.ndarray, into_deg: float) -> np.ndarray:
    pybullet.setGravity(0.0, 0.0, -GRAVITY_M_S2, physicsClientId=client)
    pybullet.setTimeStep(STEP_S, physicsClientId=client)
    floor_z = scale.metres(pose.z)
    _floor(client, floor_z, FLOOR_FRICTION)
    shape = bike_shape(base, height_in, scale)
    hull = pybullet.createCollisionShape(pybullet.GEOM_MESH, vertices=shape.local_m, physicsClientId=client)
    yaw = math.radians(pose.facing_deg)
    turn = np.array([[math.cos(yaw), -math.sin(yaw), 0.0], [math.sin(yaw), math.cos(yaw), 0.0], [0.0, 0.0, 1.0]])
    bottom = np.array([scale.metres(pose.x), scale.metres(pose.y), floor_z + 0.002])
    body = pybullet.createMultiBody(BIKE_MASS_KG, hull, basePosition=(bottom + turn @ shape.centre).tolist(),
                                    baseOrientation=[0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)],
                                    physicsClientId=client)
    pybullet.changeDynamics(body, -1, lateralFriction=FLOOR_FRICTION, restitution=FLOOR_RESTITUTION,
                            linearDamping=0.05, angularDamping=0.05, localInertiaDiagonal=list(shape.inertia_diagonal),
                            physicsClientId=client)
    into = np.array([math.cos(math.radians(into_deg)), math.sin(math.radians(into_deg)), 0.0])
    velocity = np.array([scale.metres(v) for v in velocity_in_s])
    towards = max(0.0, float(velocity @ into))
    velocity = velocity - (1.0 + RESTITUTION) * towards * into + np.array([0.0, 0.0, LIFT * towards])
    pitch_axis = np.cross([0.0, 0.0, 1.0], into)
    spin = PITCH_PER_MPS * towards * (pitch_axis + ROLL_SHARE * into)
    pybullet.resetBaseVelocity(body, velocity.tolist(), spin.tolist(), physicsClientId=client)
    return _record(client, body, np.asarray(shape.centre, float), scale)


def thrown_rider(rider_bounds_in, scale: TableScale, pose: Pose, velocity_in_s, into_deg: float,
                 contact_xy_in, obstacle_height_in: float) -> np.ndarray:
    """The rider of a bike standing at ``pose`` and moving at ``velocity_in_s`` when it hit
    something ``obstacle_height_in`` tall at ``contact_xy_in``, lying ``into_deg`` from it, thrown
    off (see the module docstring): (K, 8) rows of :data:`TUMBLE_COLUMNS` giving the frame the
    rider's body moves by (at t = 0 the bike's frame: a miniature's rider part drawn in it
    moves as the body does). ``rider_bounds_in``: the rider's box in the miniature's frame
    ((low x, y, z), (high x, y, z)), inches."""
    client = pybullet.connect(pybullet.DIRECT)
    try:
        return _throw(client, np.asarray(rider_bounds_in, float), scale, pose, np.asarray(velocity_in_s, float),
                      into_deg, np.asarray(contact_xy_in, float)[:2], obstacle_height_in)
    finally:
        pybullet.disconnect(client)


def _floor(client: int, floor_z: float, friction: float) -> int:
    plane = pybullet.createCollisionShape(pybullet.GEOM_PLANE, physicsClientId=client)
    ground = pybullet.createMultiBody(0.0, plane, basePosition=[0.0, 0.0, floor_z], physicsClientId=client)
    pybullet.changeDynamics(ground, -1, lateralFriction=friction, restitution=FLOOR_RESTITUTION,
                            physicsClientId=client)
    return ground


def _throw(client: int, bounds: np.ndarray, scale: TableScale, pose: Pose, velocity_in_s: np.ndarray,
           into_deg: float, contact_xy: np.ndarray, obstacle_height_in: float) -> np.ndarray:
    pybullet.setGravity(0.0, 0.0, -GRAVITY_M_S2, physicsClientId=client)
    pybullet.setTimeStep(STEP_S, physicsClientId=client)
    floor_z = scale.metres(pose.z)
    _floor(client, floor_z, RIDER_FRICTION)
    into_rad = math.radians(into_deg)
    into = np.array([math.cos(into_rad), math.sin(into_rad), 0.0])
    height = min(max(obstacle_height_in, 0.1), OBSTACLE_MAX_HEIGHT_IN)
    wall = pybullet.createCollisionShape(
        pybullet.GEOM_BOX, halfExtents=[scale.metres(OBSTACLE_THICKNESS_IN) / 2, scale.metres(OBSTACLE_WIDTH_IN) / 2,
                                        scale.metres(height) / 2], physicsClientId=client)
    middle = contact_xy + into[:2] * OBSTACLE_THICKNESS_IN / 2
    pybullet.createMultiBody(0.0, wall, basePosition=[scale.metres(middle[0]), scale.metres(middle[1]),
                                                      floor_z + scale.metres(height) / 2],
                             baseOrientation=[0.0, 0.0, math.sin(into_rad / 2), math.cos(into_rad / 2)],
                             physicsClientId=client)

    low, high = bounds * scale.metres_per_inch
    centre = (low + high) / 2
    box = pybullet.createCollisionShape(pybullet.GEOM_BOX, halfExtents=((high - low) / 2).tolist(),
                                        physicsClientId=client)
    yaw = math.radians(pose.facing_deg)
    turn = np.array([[math.cos(yaw), -math.sin(yaw), 0.0], [math.sin(yaw), math.cos(yaw), 0.0], [0.0, 0.0, 1.0]])
    bottom = np.array([scale.metres(pose.x), scale.metres(pose.y), floor_z])
    body = pybullet.createMultiBody(RIDER_MASS_KG, box, basePosition=(bottom + turn @ centre).tolist(),
                                    baseOrientation=[0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)],
                                    physicsClientId=client)
    pybullet.changeDynamics(body, -1, lateralFriction=RIDER_FRICTION, restitution=FLOOR_RESTITUTION,
                            linearDamping=0.05, angularDamping=0.3, physicsClientId=client)
    velocity = np.array([scale.metres(v) for v in velocity_in_s])
    towards = max(0.0, float(velocity @ into))
    velocity = velocity - (1.0 - RIDER_CARRY) * towards * into + np.array([0.0, 0.0, RIDER_LIFT * towards])
    spin = RIDER_PITCH_PER_MPS * towards * np.cross([0.0, 0.0, 1.0], into)
    pybullet.resetBaseVelocity(body, velocity.tolist(), spin.tolist(), physicsClientId=client)
    return _record(client, body, centre, scale)


def _record(client: int, body: int, centre_m: np.ndarray, scale: TableScale) -> np.ndarray:
    """Step the world :data:`TUMBLE_S` seconds, recording ``body``'s frame (its origin
    ``centre_m`` behind its centre of mass) every :data:`RECORD_EVERY` steps, in inches."""
    rows = []
    steps = round(TUMBLE_S / STEP_S)
    for step in range(steps + 1):
        if step % RECORD_EVERY == 0:
            position, orientation = pybullet.getBasePositionAndOrientation(body, physicsClientId=client)
            rotation = np.asarray(pybullet.getMatrixFromQuaternion(orientation)).reshape(3, 3)
            origin = (np.asarray(position) - rotation @ centre_m) / scale.metres_per_inch
            rows.append([step * STEP_S, *origin, *orientation])
        if step < steps:
            pybullet.stepSimulation(physicsClientId=client)
    return np.round(np.asarray(rows, float), 4) + 0.0


def tilt_deg(quaternion) -> float:
    """How far a tumble row's up axis leans from the vertical, degrees."""
    x, y, z, w = (float(v) for v in quaternion)
    up_z = 1.0 - 2.0 * (x * x + y * y)
    return math.degrees(math.acos(max(-1.0, min(1.0, up_z))))
