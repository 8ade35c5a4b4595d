"""Ride one bike along an intended path through a :class:`PhysicsWorld` and record the facts.

The controller (why it is built this way): the rules decide *where* a bike goes, and their turn
templates are far tighter than any real bike could take at the depicted speeds (a 3" medium turn
at speed 2 is ~29 m/s^2 sideways). So while its wheels are down the bike is velocity-tracked:
every fixed step its velocity is set to the speed's velocity toward a look-ahead point on the
path, projected onto the surface it stands on (so it climbs a ramp at full speed and leaves its
lip with the ramp's angle), and it is turned to face along the path. Its own friction is zero, so
tracking is not slowed by a drag the controller would then fight. Physics decides everything the
rules cannot: what it runs into, where it leaves the ground, its ballistic flight (no control in
the air), the level it lands on, and the debris it knocks about.

A contact above the bike's step height (the chamfer of its collision shape, which lets it ride up
curbs) with anything static, while the bike moves into it, is a crash: the ride ends there, base
to base with what it hit. A bike that starts base to base and rides away does not crash.

Each physics step of a ride, in ``_rideloop.c`` (C, as the per-step Python cost twice Bullet's
own step; it makes the same float operations in the same order, so the same bits):

1. the bike's contact points, in the order the bodies were added (PyBullet lists them in the order
   of its contact manifolds, which depends on what the world did before this ride: see world.py);
2. a destructible touched adds to that piece's impulse and touch; one carrying the bike (normal
   above :data:`SUPPORT_NORMAL_Z`) adds to the support normal, weighted by its force; anything
   else the bike moves into above its step height is a crash, which ends the ride;
3. a destructible the bike touches breaks when the hit has changed its speed by more than the
   rules' figure per risk level: its speed now, from rest (every ride starts with the debris at
   rest), read while the bike is on it, so a fall afterwards is no hit. Not the contact impulse
   over its mass, which was about twice the speed change the hit gave: a bench hit at 7.6 m/s
   took impulse for 20.6 m/s and went off at 9.5 m/s, so a speed-1 ride smashed it;
4. progress along the path (projected while the wheels are down, never back in the air), the
   flights (at least :data:`MIN_FLIGHT_S` in the air), the table's edges, the time slice;
5. wheels down: the velocity toward the look-ahead point along the surface and the turn to face
   the path; in the air: the velocity kept and the bike turned level;
6. one step, the bike read back, the trajectory recorded every :data:`RECORD_EVERY` steps.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from entropy3d.geometry import Pose, angle_between_deg
from entropy3d.physics import _rideloop, polyline
from entropy3d.physics.engine import pybullet
from entropy3d.physics.record import Airborne, DebrisMove, RideRecord, Touch
from entropy3d.physics.world import BodyInfo, PhysicsWorld

SUPPORT_NORMAL_Z = 0.5  #: a contact whose normal is steeper than this carries the bike
TOUCH_DISTANCE_M = 0.01  #: contact points further apart than this are not touching
APPROACH_MPS = 0.2  #: a bike must be moving into an obstacle this fast to crash into it (not away)
SEPARATING_MPS = 0.5  #: a bike moving off a surface faster than this is not carried by it
MIN_FLIGHT_S = 0.08  #: shorter spells in the air are bumps, not flights
LOOKAHEAD_IN = 0.75  #: pure-pursuit look-ahead along the path
TURN_TIME_S = 0.04  #: time constant of turning the bike to face the path
RECORD_EVERY = 4  #: record the trajectory every this many steps (60 Hz at 240 Hz)
SETTLE_S = 1.0  #: seconds debris may keep moving after the ride before it is measured
OVER_EDGE_DROP_IN = 3.0  #: a bike this far below the table top, beyond its edge, is gone


def _norm(v) -> float:
    """Length of a 3-vector."""
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def _debris_start(world: PhysicsWorld) -> dict[int, tuple[BodyInfo, tuple, tuple]]:
    """Every destructible's pose before the ride, as PyBullet gives it (position, quaternion).

    Destructibles are all among the bodies :meth:`PhysicsWorld.place` placed (in the order of
    :attr:`PhysicsWorld.bodies`), so the hundreds of static bodies are not walked."""
    start = {}
    bodies, client, pose_of = world.bodies, world.client, pybullet.getBasePositionAndOrientation
    for body in world.placed:
        info = bodies[body]
        if info.dynamic and info.kind != "bike":
            start[body] = (info, *pose_of(body, client))  # the client id by position, as in the ride loop
    return start


def _scenery_moves(world: PhysicsWorld, start, destroyed: set[int]) -> tuple[DebrisMove, ...]:
    """The destructibles that moved (more than 0.01" or half a degree) or broke. One whose pose
    equals its pose before the ride did not move (most of them: they slept through it), so it is
    not measured."""
    moves = []
    to_in = 1.0 / world.scale.metres_per_inch
    client, pose_of = world.client, pybullet.getBasePositionAndOrientation
    for body, (info, position0, orientation0) in start.items():
        if body in destroyed:
            moves.append(DebrisMove(info.piece_id, 0.0, 0.0, 0.0, 0.0, True))
            continue
        position, orientation = pose_of(body, client)
        if position == position0 and orientation == orientation0:
            continue  # (also with a zero's sign flipped: that moves and turns it by 0)
        if _surely_still(position, orientation, position0, orientation0, to_in):
            continue
        rotation0 = np.asarray(pybullet.getMatrixFromQuaternion(orientation0)).reshape(3, 3)
        rotation = np.asarray(pybullet.getMatrixFromQuaternion(orientation)).reshape(3, 3)
        relative = rotation @ rotation0.T
        turn = float(np.degrees(np.arctan2(relative[1, 0], relative[0, 0])))
        d = (np.asarray(position) - np.asarray(position0)) * to_in
        if np.hypot(d[0], d[1]) > 0.01 or abs(turn) > 0.5:
            moves.append(DebrisMove(info.piece_id, float(d[0]), float(d[1]), float(d[2]), turn, False))
    return tuple(moves)


#: |cos| of half of 0.25 degrees: two orientations whose quaternions' dot product is above this
#: differ by less than 0.25 degrees of rotation, so by less than ~0.2503 degrees of turn about z
_STILL_QUATERNION_DOT = math.cos(math.radians(0.125))


def _surely_still(position, orientation, position0, orientation0, to_in: float) -> bool:
    """Whether a destructible surely moved no more than :func:`_scenery_moves` reports (0.01" and
    half a degree), by a wide margin: less than 0.009" in x plus y, and rotated less than 0.25
    degrees about any axis (its turn about z, atan2 of the relative rotation's [1, 0] and [0, 0],
    is then below 0.2503 degrees). A crate a ride's bike passed near is woken and settles by a hair
    (~14 of 24 on crossroads); these skip the exact measure's numpy (~2 us each). Anything nearer
    the limits is measured exactly, as before."""
    dx, dy = (position[0] - position0[0]) * to_in, (position[1] - position0[1]) * to_in
    dot = (orientation[0] * orientation0[0] + orientation[1] * orientation0[1] + orientation[2] * orientation0[2]
           + orientation[3] * orientation0[3])
    return abs(dx) + abs(dy) < 0.009 and abs(dot) > _STILL_QUATERNION_DOT


def ride(world: PhysicsWorld, bike_id: str, path_in: np.ndarray, speed_in_s: float, *,
         in_air: bool = False, time_slice_s: float | None = None, max_time_s: float | None = None) -> RideRecord:
    """Ride ``bike_id`` along ``path_in`` ((N, 2) table inches) at ``speed_in_s`` inches per second.

    time_slice_s: the activation's depicted duration (default: the rules' seconds per activation);
    a bike still in the air then ends the ride ``airborne`` with its velocity kept (what the rules
    make of it is theirs). in_air: the bike starts in the air, flying on from its last action (its velocity was given
    to the world); it flies on until it lands. Otherwise the ride goes on until the path is done,
    a crash, leaving the table, or ``max_time_s`` (default twice the slice: a bike held up by debris has ``stalled``).
    """
    scale = world.scale
    dt = world.dt
    to_m, to_in = scale.metres_per_inch, 1.0 / scale.metres_per_inch
    slice_s = scale.seconds_per_activation if time_slice_s is None else time_slice_s
    limit_s = 2.0 * slice_s if max_time_s is None else max_time_s
    track = polyline.Cursor(polyline.resample(np.asarray(path_in, float), 0.5))
    total = track.total
    body = world.bike_ids[bike_id]
    debris_start = _debris_start(world)
    debris_impulse: dict[int, float] = {}
    debris_contact: dict[int, Touch] = {}
    destroyed: set[int] = set()
    contacts: list[Touch] = []
    flights: list[Airborne] = []
    figures = (dt, to_m, to_in, speed_in_s * to_m, slice_s - 1e-9, limit_s - 1e-9, world.table_width_in,
               world.table_depth_in, world.step_height_m, world.break_delta_v_mps_per_risk, TOUCH_DISTANCE_M,
               SUPPORT_NORMAL_Z, SEPARATING_MPS, APPROACH_MPS, MIN_FLIGHT_S, LOOKAHEAD_IN, TURN_TIME_S,
               OVER_EDGE_DROP_IN)
    air_steps = int(np.ceil(MIN_FLIGHT_S / dt)) if in_air else 0

    def touch(info: BodyInfo, role: str, t: float, on_bike, progress: float, normal, facing_deg: float) -> Touch:
        return _contact(info, role, t, on_bike, progress, facing_deg, normal, to_in)

    def flight(last_ground, t: float, xy_in, z_in: float, max_z: float, landed: bool) -> Airborne:
        return _flight(last_ground, t, xy_in, z_in, max_z, to_in, landed)

    # every physics step of the ride, in C (_rideloop.c says why and how it keeps Python's bits)
    (outcome, left_table, steps, t, progress, travelled, air_steps, last_ground, flight_max_z, trajectory,
     (end_xy, end_z, end_facing, end_velocity_m)) = _rideloop.ride_loop(
        pybullet, body, world.client, bike_id, track.track, tuple(float(v) for v in world.bike_bottoms[body]),
        figures, RECORD_EVERY, in_air, air_steps, world, world.bodies, world.order, world.edges, debris_impulse,
        debris_contact, destroyed, contacts, flights, touch, _with_impulse, flight)

    if air_steps * dt >= MIN_FLIGHT_S:
        flights.append(_flight(last_ground, t, end_xy, end_z, flight_max_z, to_in, landed=False))
    if trajectory[-1][0] != t:
        trajectory.append((t, *end_xy, end_z, end_facing))
    end_velocity = tuple(float(v) * to_in for v in end_velocity_m)
    end_pose = Pose(float(end_xy[0]), float(end_xy[1]), end_facing % 360.0, end_z)
    settle_steps = _settle(world, body, keep_velocity=outcome == "airborne") if debris_contact else 0
    for other, contact in debris_contact.items():
        contacts.append(_with_impulse(contact, debris_impulse.get(other, 0.0)))
    contacts.sort(key=lambda c: (c.t, c.piece_id))
    return RideRecord(outcome, total, float(min(progress, total)), travelled, t, np.array(trajectory),
                     tuple(contacts), tuple(flights), end_pose, end_velocity, left_table,
                     _scenery_moves(world, debris_start, destroyed), steps, settle_steps)


def _settle(world: PhysicsWorld, body: int, keep_velocity: bool) -> int:
    """Let knocked debris come to rest (it sleeps, so this costs what still moves); the bike is
    held where the ride left it. Returns the physics steps it took."""
    client = world.client
    position, orientation = pybullet.getBasePositionAndOrientation(body, physicsClientId=client)
    velocity = pybullet.getBaseVelocity(body, physicsClientId=client)
    steps = int(SETTLE_S * world.hz)
    _rideloop.hold_still(pybullet, body, client, position, orientation, steps)
    pybullet.resetBasePositionAndOrientation(body, position, orientation, physicsClientId=client)
    if keep_velocity:
        pybullet.resetBaseVelocity(body, *velocity, physicsClientId=client)
    return steps


def _contact(info: BodyInfo, role: str, t: float, on_bike, progress: float, facing_deg: float, normal,
             to_in: float) -> Touch:
    """A touch at ``on_bike`` (metres, on the bike) with the bike facing ``facing_deg``; ``normal``
    is the contact's normal on the other body, pointing at the bike."""
    into = (-normal[0], -normal[1])
    facing = facing_deg % 360.0
    into_deg = facing if math.hypot(*into) < 1e-9 else math.degrees(math.atan2(into[1], into[0])) % 360.0
    point = tuple(float(v) * to_in for v in on_bike)
    return Touch(info.piece_id, info.kind, role, float(t), point, float(progress), facing, into_deg,
                   angle_between_deg(facing, into_deg), 0.0)


def _with_impulse(contact: Touch, impulse: float) -> Touch:
    return dataclasses.replace(contact, impulse=float(contact.impulse + impulse))


def _flight(last_ground, t: float, xy_in, z_in: float, max_z: float, to_in: float, landed: bool) -> Airborne:
    """The flight from ``last_ground`` (the ride loop's last step with the wheels down) to the bike
    at (``xy_in``, ``z_in``) at ``t``: where it came down if ``landed``, else still in the air."""
    launch_t, launch_progress, launch_xy, launch_z, launch_velocity, from_piece, from_kind = last_ground
    launch_speed = _norm(launch_velocity) * to_in
    return Airborne(from_piece, from_kind, float(launch_t), float(t) if landed else None, float(launch_progress),
                  (float(launch_xy[0]), float(launch_xy[1])),
                  (float(xy_in[0]), float(xy_in[1])) if landed else None,
                  float(launch_z), float(z_in) if landed else None, float(max_z), float(launch_speed))
