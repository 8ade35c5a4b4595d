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
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from entropy3d.geometry import Pose, angle_between_deg
from entropy3d.physics import polyline
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


def _dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


# The controller runs every physics step on single 3-vectors and 3x3 matrices, where numpy's
# per-call cost is many times the arithmetic: vectors are float tuples and matrices are row-major
# 9-tuples (as ``getMatrixFromQuaternion`` gives them).

def _rotation_to(forward, up) -> tuple[float, ...]:
    """Rotation matrix (row-major) with x along ``forward`` (made perpendicular to ``up``) and z along ``up``.

    Written out, not through the helpers above (the same float operations in the same order: the
    same bits), as it runs every physics step."""
    u0, u1, u2 = up
    k = 1.0 / math.sqrt(u0 * u0 + u1 * u1 + u2 * u2)
    u0, u1, u2 = u0 * k, u1 * k, u2 * k
    f0, f1, f2 = forward
    along = f0 * u0 + f1 * u1 + f2 * u2
    x0, x1, x2 = f0 - along * u0, f1 - along * u1, f2 - along * u2
    length = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
    if length < 1e-9:
        x0, x1, x2 = _cross((0.0, 1.0, 0.0), (u0, u1, u2))
        length = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
    k = 1.0 / length
    x0, x1, x2 = x0 * k, x1 * k, x2 * k
    return (x0, u1 * x2 - u2 * x1, u0, x1, u2 * x0 - u0 * x2, u1, x2, u0 * x1 - u1 * x0, u2)


def _angular_velocity(current, target, time_constant: float) -> tuple[float, float, float]:
    """World angular velocity turning ``current`` into ``target`` (row-major rotation matrices)
    in about ``time_constant``: the rotation ``target @ current.T`` as an axis and angle."""
    c0, c1, c2, c3, c4, c5, c6, c7, c8 = current
    t0, t1, t2, t3, t4, t5, t6, t7, t8 = target
    d00 = t0 * c0 + t1 * c1 + t2 * c2
    d11 = t3 * c3 + t4 * c4 + t5 * c5
    d22 = t6 * c6 + t7 * c7 + t8 * c8
    cos_angle = (d00 + d11 + d22 - 1.0) / 2.0
    angle = math.acos(1.0 if cos_angle > 1.0 else -1.0 if cos_angle < -1.0 else cos_angle)
    if angle < 1e-9:
        return (0.0, 0.0, 0.0)
    a0 = (t6 * c3 + t7 * c4 + t8 * c5) - (t3 * c6 + t4 * c7 + t5 * c8)
    a1 = (t0 * c6 + t1 * c7 + t2 * c8) - (t6 * c0 + t7 * c1 + t8 * c2)
    a2 = (t3 * c0 + t4 * c1 + t5 * c2) - (t0 * c3 + t1 * c4 + t2 * c5)
    norm = math.sqrt(a0 * a0 + a1 * a1 + a2 * a2)
    if norm < 1e-12:
        return (0.0, 0.0, 0.0)
    k = angle / norm / time_constant
    return (a0 * k, a1 * k, a2 * k)


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


class _Rider:
    """The bike body's state in the units the controller needs (metres, float tuples; inches for
    the path), read once a physics step."""

    __slots__ = ("world", "body", "client", "bottom_local", "to_in", "position", "rotation", "velocity", "bottom",
                 "xy_in", "z_in")

    def __init__(self, world: PhysicsWorld, body: int):
        self.world, self.body, self.client = world, body, world.client
        self.bottom_local = tuple(float(v) for v in world.bike_bottoms[body])
        self.to_in = 1.0 / world.scale.metres_per_inch
        self.read()

    def read(self) -> None:
        body, c = self.body, self.client
        # the client id passed by position, as in the ride loop (parsing its keyword costs ~0.13 us)
        position, orientation = pybullet.getBasePositionAndOrientation(body, c)
        r = pybullet.getMatrixFromQuaternion(orientation)
        self.position, self.rotation, self.velocity = position, r, pybullet.getBaseVelocity(body, c)[0]
        b0, b1, b2 = self.bottom_local
        x = position[0] + r[0] * b0 + r[1] * b1 + r[2] * b2
        y = position[1] + r[3] * b0 + r[4] * b1 + r[5] * b2
        z = position[2] + r[6] * b0 + r[7] * b1 + r[8] * b2
        to_in = self.to_in
        self.bottom, self.xy_in, self.z_in = (x, y, z), (x * to_in, y * to_in), z * to_in

    @property
    def up(self) -> tuple[float, float, float]:
        return (self.rotation[2], self.rotation[5], self.rotation[8])

    @property
    def forward(self) -> tuple[float, float, float]:
        return (self.rotation[0], self.rotation[3], self.rotation[6])

    @property
    def facing_deg(self) -> float:
        return math.degrees(math.atan2(self.rotation[3], self.rotation[0]))


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
    client = world.client
    dt = world.dt
    to_m, to_in = scale.metres_per_inch, 1.0 / scale.metres_per_inch
    slice_s = scale.seconds_per_activation if time_slice_s is None else time_slice_s
    limit_s = 2.0 * slice_s if max_time_s is None else max_time_s
    track = polyline.Cursor(polyline.resample(np.asarray(path_in, float), 0.5))
    total = track.total
    speed_m = speed_in_s * to_m
    body = world.bike_ids[bike_id]
    bike = _Rider(world, body)
    debris_start = _debris_start(world)
    order, bodies = world.order, world.bodies
    debris_impulse: dict[int, float] = {}
    debris_contact: dict[int, Touch] = {}
    destroyed: set[int] = set()
    contacts: list[Touch] = []
    flights: list[Airborne] = []
    trajectory = [(0.0, *bike.xy_in, bike.z_in, bike.facing_deg)]
    progress = track.project(*bike.xy_in, 0.0)
    # (t, progress, xy, z, velocity in m/s, piece, kind) at the last step with the wheels down
    last_ground = (0.0, progress, bike.xy_in, bike.z_in, bike.velocity, None, "air" if in_air else "ground")
    air_steps = int(np.ceil(MIN_FLIGHT_S / dt)) if in_air else 0
    carried_over = in_air  # until its first landing
    commanded = bike.velocity  # the velocity given at the last step (contacts then zero what hits)
    flight_max_z = bike.z_in
    outcome, left_table, steps, t = "stalled", None, 0, 0.0
    travelled = 0.0
    last_xy = bike.xy_in
    # hoisted out of the loop, which runs every physics step; in it PyBullet's functions are
    # given the client id by position (parsing a keyword costs ~0.13 us a call, 4 calls a step)
    slice_end, limit_end = slice_s - 1e-9, limit_s - 1e-9
    width_in, depth_in = world.table_width_in, world.table_depth_in
    contact_points, reset_velocity = pybullet.getContactPoints, pybullet.resetBaseVelocity
    step_simulation = pybullet.stepSimulation
    any_body, any_link = -1, -2  # getContactPoints' bodyB and link indices: all of them
    # the module's constants and the bound methods the loop calls, as locals (a global or an
    # attribute lookup costs more than a local's, a few dozen of them a step)
    touch_distance_m, support_normal_z, separating_mps, approach_mps = (
        TOUCH_DISTANCE_M, SUPPORT_NORMAL_Z, SEPARATING_MPS, APPROACH_MPS)
    min_flight_s, lookahead_in, turn_time_s, record_every = MIN_FLIGHT_S, LOOKAHEAD_IN, TURN_TIME_S, RECORD_EVERY
    project, point_at, direction_at, read = track.project, track.point_at, track.direction_at, bike.read
    sqrt, isfinite, body_info = math.sqrt, math.isfinite, bodies.get

    base_velocity, break_mps = pybullet.getBaseVelocity, world.break_delta_v_mps_per_risk

    while True:
        crash, support, support_force = None, None, -1.0
        touching: list[int] = []  # the destructibles the bike touches at this step
        grounded = False
        nx, ny, nz = 0.0, 0.0, 0.0  # the support normals, each scaled by its force, summed
        # in the order the bodies were added: PyBullet lists them in the order of its contact
        # manifolds, which depends on what the world did before this ride (see world.py); points
        # all on one body (most steps: the ground) are in that order already
        points = contact_points(body, any_body, any_link, any_link, client)
        if len(points) > 1:
            first_body = points[0][2]
            for point in points:
                if point[2] != first_body:
                    points = sorted(points, key=lambda point: order.get(point[2], -1))
                    break
        for point in points:
            other, distance = point[2], point[8]
            info = body_info(other)
            if info is None or distance > touch_distance_m:
                continue
            normal = point[7]  # on the other body, pointing at the bike
            on_bike = point[5]
            if info.dynamic and info.kind != "bike":
                debris_impulse[other] = debris_impulse.get(other, 0.0) + point[9] * dt
                if other not in debris_contact:
                    debris_contact[other] = _contact(info, "debris", t, on_bike, progress, bike, normal, to_in)
                if other not in touching:
                    touching.append(other)
                continue
            force = point[9]
            if normal[2] > support_normal_z:
                if carried_over and _dot(bike.velocity, normal) > separating_mps:
                    continue  # a bike carried over in the air, still rising, has not landed
                weight = 1e-6 if 1e-6 > force else force  # max(force, 1e-6), NaN kept as max keeps it
                nx, ny, nz = nx + normal[0] * weight, ny + normal[1] * weight, nz + normal[2] * weight
                grounded = True
                if force > support_force:
                    support, support_force = info, force
            elif crash is None and info.kind != "floor" and -_dot(commanded, normal) > approach_mps:
                bottom = bike.bottom
                if (_dot((on_bike[0] - bottom[0], on_bike[1] - bottom[1], on_bike[2] - bottom[2]), bike.up)
                        > world.step_height_m):  # above the bike's step height
                    crash = _contact(info, "crash", t, on_bike, progress, bike, normal, to_in)
                    crash = _with_impulse(crash, force * dt)
        # A destructible the bike touches breaks when the hit has changed its speed by more than
        # the rules' figure per risk level: its speed now, from rest (every ride starts with the
        # debris at rest), read while the bike is on it, so a fall afterwards is no hit. Not the
        # contact impulse over its mass, which was about twice the speed change the hit gave: a
        # bench hit at 7.6 m/s took impulse for 20.6 m/s and went off at 9.5 m/s, so a speed-1
        # ride smashed it.
        for other in touching:
            if other in destroyed:
                continue
            vx, vy, vz = base_velocity(other, client)[0]
            if sqrt(vx * vx + vy * vy + vz * vz) > break_mps * (bodies[other].risk or 1):
                destroyed.add(other)
                world.remove_body(other)
        carried_over = carried_over and not grounded
        if crash is not None:
            contacts.append(crash)
            outcome = "crashed"
            break

        x_in, y_in = xy_in = bike.xy_in
        z_in = bike.z_in
        if grounded:
            if air_steps and air_steps * dt >= min_flight_s:
                flights.append(_flight(last_ground, t, bike, flight_max_z, to_in, landed=True))
            air_steps = 0
            progress = project(x_in, y_in, progress)
            last_ground = (t, progress, xy_in, z_in, bike.velocity, support.piece_id, support.kind)
            flight_max_z = z_in
            if progress >= total - 0.02:
                outcome = "completed"
                break
        else:
            air_steps += 1
            flight_max_z = max(flight_max_z, z_in)
            progress = max(progress, project(x_in, y_in, progress, window=total))

        if not (0 <= x_in <= width_in and 0 <= y_in <= depth_in):
            edge = world.edge_crossed(x_in, y_in)
            if edge is not None:
                left_table = left_table or edge
                if world.edges.get(edge) != "cliff" or z_in < -OVER_EDGE_DROP_IN:
                    outcome = "left_table"
                    break
        if t >= slice_end and air_steps * dt >= min_flight_s and left_table is None:
            outcome = "airborne"
            break
        if t >= limit_end:
            outcome = "left_table" if left_table else "stalled"
            break

        if grounded and left_table is None:
            k = 1.0 / sqrt(nx * nx + ny * ny + nz * nz)
            nx, ny, nz = nx * k, ny * k, nz * k
            ahead = progress + lookahead_in
            tx, ty = point_at(total if total < ahead else ahead)  # min(ahead, total)
            dx, dy, dz = (tx - x_in) * to_m, (ty - y_in) * to_m, 0.0
            if sqrt(dx * dx + dy * dy + dz * dz) < 1e-9:
                facing = math.radians(bike.facing_deg)
                dx, dy, dz = math.cos(facing), math.sin(facing), 0.0
            across = dx * nx + dy * ny + dz * nz
            ax, ay, az = dx - across * nx, dy - across * ny, dz - across * nz
            k = speed_m / sqrt(ax * ax + ay * ay + az * az)
            velocity = (ax * k, ay * k, az * k)
            face = _rotation_to(direction_at(progress), (nx, ny, nz))
            spin = _angular_velocity(bike.rotation, face, turn_time_s)
            reset_velocity(body, velocity, spin, client)
            commanded = velocity
        else:
            commanded = bike.velocity
            level = _rotation_to(bike.forward, (0.0, 0.0, 1.0))
            spin = _angular_velocity(bike.rotation, level, 5 * turn_time_s)
            reset_velocity(body, bike.velocity, spin, client)

        step_simulation(client)
        steps += 1
        t = steps * dt
        read()
        position = bike.position
        if not (isfinite(position[0]) and isfinite(position[1]) and isfinite(position[2])):
            raise FloatingPointError(f"bike {bike_id} left the numbers at t={t:.4f}s")
        xy_in = bike.xy_in
        if grounded:
            travelled += math.hypot(xy_in[0] - last_xy[0], xy_in[1] - last_xy[1])
        last_xy = xy_in
        if steps % record_every == 0:
            trajectory.append((t, *xy_in, bike.z_in, bike.facing_deg))

    if air_steps * dt >= MIN_FLIGHT_S:
        flights.append(_flight(last_ground, t, bike, flight_max_z, to_in, landed=False))
    if trajectory[-1][0] != t:
        trajectory.append((t, *bike.xy_in, bike.z_in, bike.facing_deg))
    end_velocity = tuple(float(v) * to_in for v in bike.velocity)
    end_pose = Pose(float(bike.xy_in[0]), float(bike.xy_in[1]), bike.facing_deg % 360.0, bike.z_in)
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
    reset_pose, reset_velocity = pybullet.resetBasePositionAndOrientation, pybullet.resetBaseVelocity
    step_simulation, still = pybullet.stepSimulation, (0.0, 0.0, 0.0)
    for _ in range(steps):  # the client id by position, as in the ride loop
        reset_pose(body, position, orientation, client)
        reset_velocity(body, still, still, client)
        step_simulation(client)
    reset_pose(body, position, orientation, physicsClientId=client)
    if keep_velocity:
        reset_velocity(body, *velocity, physicsClientId=client)
    return steps


def _contact(info, role: str, t: float, on_bike, progress: float, bike: _Rider, normal, to_in: float) -> Touch:
    into = (-normal[0], -normal[1])
    facing = bike.facing_deg % 360.0
    into_deg = facing if math.hypot(*into) < 1e-9 else math.degrees(math.atan2(into[1], into[0])) % 360.0
    point = tuple(float(v) * to_in for v in on_bike)
    return Touch(info.piece_id, info.kind, role, float(t), point, float(progress), facing, into_deg,
                   angle_between_deg(facing, into_deg), 0.0)


def _with_impulse(contact: Touch, impulse: float) -> Touch:
    return dataclasses.replace(contact, impulse=float(contact.impulse + impulse))


def _flight(last_ground, t: float, bike: _Rider, max_z: float, to_in: float, landed: bool) -> Airborne:
    launch_t, launch_progress, launch_xy, launch_z, launch_velocity, from_piece, from_kind = last_ground
    launch_speed = _norm(launch_velocity) * to_in
    return Airborne(from_piece, from_kind, float(launch_t), float(t) if landed else None, float(launch_progress),
                  (float(launch_xy[0]), float(launch_xy[1])),
                  (float(bike.xy_in[0]), float(bike.xy_in[1])) if landed else None,
                  float(launch_z), float(bike.z_in) if landed else None, float(max_z), float(launch_speed))
