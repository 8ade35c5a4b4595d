"""A PyBullet world of the *depicted* city: its static scenery built once, its bikes and debris
put back from the game state before every ride (:meth:`PhysicsWorld.place`).

Everything here is in metres, seconds and kilograms (g = 9.81); table inches are converted once,
on the way in, with the rules' :class:`~entropy3d.units.TableScale`. Design decisions:

- One DIRECT client per world, every call passes ``physicsClientId``.
- A world lives for a game (a producer keeps one): building ~340 static bodies costs more than a
  ride, so they are built once; every ride removes the bodies the last ride placed (last first, so
  the statics keep their places in Bullet's object arrays) and places the bikes and debris anew,
  in one fixed order, from shapes made once (debris the last ride left exactly as placed stays, up
  to the first piece it disturbed; resting debris after that is put back on its own bodies; the
  static models placed from the same models stay, put back in their place in the order: those
  bodies are what a new world would have there, and creating bodies is most of what placing
  costs). A ride is the same bits in a world just built and in
  one that rode anything before (``tests/physics/test_living_world.py``). What Bullet keeps
  between rides is its broadphase bookkeeping (the tree's shape, when a pair no longer
  overlapping is dropped): with ``deterministicOverlappingPairs=1`` pairs and manifolds are
  processed in the order bodies were added, not found, and the rest is kept from mattering:
  contact points are read in that same order (``ride.py``), the solver runs all its iterations
  (``solverResidualThreshold=0``: an island grown by a stale pair then solves the same), and a
  woken body does not fall asleep again within the ride (``sleepThreshold=0``: a stale pair cannot
  keep one island awake that sleeps in another world).
- Static bodies are maximal-coordinate rigid bodies put to sleep (a fixed multibody costs the
  solver every step, ~3x the stepping here); resting debris starts asleep and wakes when touched.
- Static scenery is built from each piece's convex ``parts`` (boxes, wedges, prisms): a body
  sliding over one concave triangle mesh catches on internal edges. A part that is not convex
  (an imported mesh piece) becomes a static concave mesh with ``GEOM_CONCAVE_INTERNAL_EDGE``.
- Zones and road paint are decals, not geometry: a 0.02" step would make bikes bump.
- Table edges: the table top ends at its edges and nothing stands beyond, so a bike that rides
  over any edge falls. Which edges are cliffs (EC-COL-EDGE) is recorded for the rules; a catch
  floor far below stops falling debris.
- Bikes are maximal-coordinate bodies (no 100 units/s speed cap of multibodies, and
  ``ccdSweptSphereRadius`` only works on them) with swept-sphere CCD, as are destructibles.
- Destructibles are dynamic convex hulls with trimesh mass properties: mass from a density that
  grows with their risk level (EC-DEST-1), inertia about the true centre of mass.
"""

from __future__ import annotations

import struct
import weakref
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np
import trimesh

from entropy3d.core.scenery import ScenerySpot
from entropy3d.geometry import BaseShape, Pose, matrix_product
from entropy3d.physics.engine import pybullet
from entropy3d.physics.hulls import convex_pieces
from entropy3d.physics.mass import debris_mass_kg, mass_properties, principal_frame, quaternion_of
from entropy3d.scene.build import Piece, TableGeometry
from entropy3d.scene.miniature import BASE_THICKNESS_IN
from entropy3d.scene.table import Table
from entropy3d.units import GRAVITY_M_S2, TableScale

STEP_HZ = 240  #: fixed physics steps per second
BIKE_MASS_KG = 300.0  #: bike and rider
DECAL_KINDS = ("zone", "road")
CATCH_FLOOR_DEPTH_M = 40.0  #: debris that falls off the table settles on a floor this far down
EDGE_NAMES = ("south", "north", "west", "east")
#: a static and a dynamic body's broadphase group and mask (``btDiscreteDynamicsWorld::addRigidBody``'s)
STATIC_FILTER_GROUP, STATIC_FILTER_MASK = 2, -1 ^ 2
DYNAMIC_FILTER_GROUP, DYNAMIC_FILTER_MASK = 1, -1
_HOME = ScenerySpot()  #: where the scene put a destructible (one instance: placing compares every one with it)


@dataclass(frozen=True)
class BikeBody:
    """A miniature to put into the world.

    id: model id. base: its base, inches. pose: base centre and surface height, inches.
    velocity_in_s: initial velocity (x, y, z) in inches per second (an airborne bike, EC-JUMP-2).
    kind: ``bike``, or ``wreck`` for a taken-out rider's wreck (EC-WOUND: scenery, same hull).
    """

    id: str
    base: BaseShape
    pose: Pose
    velocity_in_s: tuple[float, float, float] = (0.0, 0.0, 0.0)
    kind: str = "bike"


@dataclass(frozen=True)
class BodyInfo:
    """What a PyBullet body depicts: the piece (or model) id, its kind, terrain and risk."""

    piece_id: str
    kind: str
    terrain: str | None
    dynamic: bool
    risk: int | None = None


@dataclass(eq=False)
class PhysicsWorld:
    """A live PyBullet world of one table: its static scenery and what :meth:`place` put in for the
    next ride. Keep it for a game and :meth:`close` it at the end (or use ``with``)."""

    client: int
    scale: TableScale
    table_width_in: float
    table_depth_in: float
    edges: Mapping[str, str]
    step_height_m: float
    """contacts no higher than this on the bike are curbs and lips it rides up (rules ``ride.step_height_in``)"""
    break_delta_v_mps_per_risk: float
    """a hit changing a destructible's speed by more than this per risk level breaks it (rules data)"""
    bodies: dict[int, BodyInfo] = field(default_factory=dict)
    bike_ids: dict[str, int] = field(default_factory=dict)
    bike_bottoms: dict[int, np.ndarray] = field(default_factory=dict)
    """per bike body: its base's bottom centre in the body frame, metres"""
    hz: int = STEP_HZ
    order: dict[int, int] = field(default_factory=dict)
    """per body: its place in the order bodies were added, the same in every world of the table
    whatever it rode before (PyBullet's body ids are not: it reuses the ids of removed bodies)"""
    recipe: "_Recipe | None" = None
    terrain_friction: Mapping[str, float] = field(default_factory=dict)
    bike_height_in: float = 1.8
    """height of a miniature's collision shape, inches"""
    placed: list[int] = field(default_factory=list)
    """bodies :meth:`place` put in for the current ride, in order"""
    shapes: dict = field(default_factory=dict)
    """collision shapes made in this world, by what they are the shape of: made once, used by every ride"""
    added: int = 0
    """bodies added so far (the next one's place in :attr:`order`)"""
    poses: dict = field(default_factory=dict)
    """a destructible's (position, orientation) in metres by (piece id, spot), computed once"""
    resting: dict[int, tuple] = field(default_factory=dict)
    """per destructible placed asleep: (its spot, its pose as PyBullet read it back, bit for bit)"""
    rest_bits: dict[str, bytes] = field(default_factory=dict)
    """per destructible put back where it rests (:func:`_restore_resting`): its pose read back, bit
    for bit (wrong bits would only put it back once more, :meth:`_untouched`)"""
    models: dict[int, tuple] = field(default_factory=dict)
    """per miniature's body: what it was placed from (:func:`_model_key`)"""

    @property
    def dt(self) -> float:
        return 1.0 / self.hz

    def step(self) -> None:
        pybullet.stepSimulation(physicsClientId=self.client)

    def close(self) -> None:
        """Disconnect from PyBullet, once: the world is marked closed first, so a stop (SIGTERM)
        raised just as ``disconnect`` returns cannot have a later ``close`` (a finaliser's)
        disconnect again and print PyBullet's "Not connected" (the fault test, 1 run in CI)."""
        client, self.client = self.client, -1
        if client >= 0:
            pybullet.disconnect(physicsClientId=client)

    def __enter__(self) -> "PhysicsWorld":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def body_of(self, piece_id: str) -> int | None:
        for body, info in self.bodies.items():
            if info.piece_id == piece_id:
                return body
        return None

    def edge_crossed(self, x_in: float, y_in: float) -> str | None:
        """The table edge a point lies beyond, or None when it is over the table."""
        if y_in < 0:
            return "south"
        if y_in > self.table_depth_in:
            return "north"
        if x_in < 0:
            return "west"
        if x_in > self.table_width_in:
            return "east"
        return None

    def add_body(self, body: int, info: BodyInfo, *, placed: bool) -> None:
        self.bodies[body] = info
        self.order[body] = self.added
        self.added += 1
        if placed:
            self.placed.append(body)

    def remove_body(self, body: int) -> None:
        """Take a body out of the world (a destructible broken mid-ride, or the last ride's bodies)."""
        pybullet.removeBody(body, physicsClientId=self.client)
        info = self.bodies.pop(body)
        self.order.pop(body)
        self.placed.remove(body)
        self.bike_bottoms.pop(body, None)
        self.resting.pop(body, None)
        self.models.pop(body, None)
        if self.bike_ids.get(info.piece_id) == body:
            del self.bike_ids[info.piece_id]

    def place(self, *, rider: BikeBody | None = None, others: Sequence[BikeBody] = (),
              scenery: Mapping[str, ScenerySpot] | None = None) -> "PhysicsWorld":
        """Set the world up for one ride, as if it were new: in this order, the destructibles where
        ``scenery`` says they stand now (moved or removed), the ``others`` as static obstacles and
        the ``rider``, dynamic.

        What the last ride placed is taken out, the last placed first, except the destructibles
        it left exactly as placed (:meth:`_untouched`) up to the first that it did not, the
        resting destructibles after those that still have their bodies in their places, put back
        where they rest (:func:`_restore_resting`), and the static models placed from the same
        models (a static body never moves): those are the bodies a new world would have, and
        creating a body is most of what placing costs. A static model that stays is put back in
        its place in the order (:meth:`_put_back`)."""
        scenery = scenery or {}
        wanted = [(debris, spot) for debris in self.recipe.debris
                  if not (spot := scenery.get(debris.info.piece_id, _HOME)).removed]
        keep = 0
        for (debris, spot), body in zip(wanted, self.placed):
            if self.bodies[body].piece_id != debris.info.piece_id or not self._untouched(body, spot):
                break
            keep += 1
        restore = keep
        for (debris, spot), body in zip(wanted[keep:], self.placed[keep:]):
            if self.bodies[body].piece_id != debris.info.piece_id or spot != _HOME:
                break
            restore += 1
        restored = self.placed[keep:restore]
        static_models = {self.models[body]: body for body in self.placed[restore:] if body in self.models}
        stay = [static_models.get(_model_key(other, self.bike_height_in, dynamic=False)) for other in others]
        staying = set(stay) - {None}
        for body in reversed(self.placed[restore:]):
            if body not in staying:
                self.remove_body(body)
        del self.placed[keep:]
        friction = self.terrain_friction
        for (debris, _), body in zip(wanted[keep:restore], restored):
            _restore_resting(self, body, debris)
        for debris, spot in wanted[restore:]:
            _add_dynamic(self, debris, spot, friction.get(debris.info.terrain or "", 0.8))
        in_place = keep == len(wanted)  # until a body is placed anew, one added after the last is in place
        for other, body in zip(others, stay):
            if body is None:
                add_bike(self, other, self.bike_height_in, dynamic=False)
                in_place = False
            elif in_place and (not self.placed or self.order[body] > self.order[self.placed[-1]]):
                self.placed.append(body)
            else:
                self._put_back(body)
                in_place = False
        if rider is not None:
            add_bike(self, rider, self.bike_height_in, dynamic=True)
        return self

    def _put_back(self, body: int, group: int = STATIC_FILTER_GROUP, mask: int = STATIC_FILTER_MASK) -> None:
        """Give a body the place in the order a new world would give it: last. ``group`` and
        ``mask``: the broadphase group and mask a new body of its kind has (static by default).

        Bullet orders contact pairs and manifolds by their bodies' broadphase proxy ids, which
        grow in the order bodies were added; ``setCollisionFilterGroupMask`` destroys the body's
        proxy, pairs and manifolds and creates a new proxy with the next id, as a new body would
        (``btCollisionWorld::refreshBroadphaseProxy``): ~2 us, a new body ~60 us. The body keeps
        its slot in Bullet's object arrays, which order nothing done to a static body (it is never
        integrated, in no island); a dynamic body's slot orders its integration and islands, so a
        destructible keeps its body only in the slot a new world gives it (:func:`_restore_resting`)."""
        pybullet.setCollisionFilterGroupMask(body, -1, group, mask, physicsClientId=self.client)
        self.order[body] = self.added
        self.added += 1
        self.placed.append(body)

    def _untouched(self, body: int, spot: ScenerySpot) -> bool:
        """Whether a destructible is as it was placed at ``spot``: placed asleep there and still at
        that pose to the bit, without velocity and touching nothing. A body woken in a ride stays
        awake (``sleepThreshold`` 0) and, in the step it woke, fell under gravity with no contact
        yet to hold it, so it has moved, or is moving, or rests on something."""
        rest = self.resting.get(body)
        if rest is None or rest[0] != spot:
            return False
        position, orientation = pybullet.getBasePositionAndOrientation(body, physicsClientId=self.client)
        if _bits(*position, *orientation) != rest[1]:
            return False
        linear, angular = pybullet.getBaseVelocity(body, physicsClientId=self.client)
        return (_bits(*linear, *angular) == _ZERO_VELOCITY
                and not pybullet.getContactPoints(bodyA=body, physicsClientId=self.client))

    def shape(self, key, make) -> int:
        """The collision shape kept under ``key``, made by ``make()`` the first time."""
        if key not in self.shapes:
            self.shapes[key] = make()
        return self.shapes[key]


def bike_hull(base: BaseShape, height_in: float, scale: TableScale, samples: int = 32) -> np.ndarray:
    """Vertices (metres, origin at the bottom centre, x forward) of a bike's collision shape: its
    base's outline (an ellipse, as a 32-gon; a vehicle's footprint, a superellipse) up to the
    rider's head (a vehicle's: as high), the lower edge chamfered at 45 degrees so that it rides
    up curbs and ramp lips instead of stopping dead against them."""
    a, b, height = scale.metres(base.length) / 2, scale.metres(base.width) / 2, scale.metres(height_in)
    chamfer = min(0.3, 0.5 * b, 0.3 * height)
    # the edge of a base 2 x 2 of the same power: (cos, sin) of the ellipse's parameter angles
    cos, sin = BaseShape(2.0, 2.0, base.power).local_outline(samples).T
    rings = []
    for z, inset in ((0.0, chamfer), (chamfer, 0.0), (height, 0.0)):
        rings.append(np.column_stack([(a - inset) * cos, (b - inset) * sin, np.full(samples, z)]))
    return np.vstack(rings)


def _bits(*values: float) -> bytes:
    """Floats as their exact bits (``==`` on floats takes -0.0 for 0.0)."""
    return struct.pack(f"<{len(values)}d", *values)


_ZERO_VELOCITY = _bits(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def _quaternion_z(deg: float) -> tuple[float, float, float, float]:
    return pybullet.getQuaternionFromEuler((0.0, 0.0, np.radians(deg)))


def _set_dynamics(client: int, body: int, friction: float, *, activation: int, ccd_radius: float | None = None,
                  mass: float | None = None, inertia_diagonal=None) -> None:
    """All of a body's dynamics in one ``changeDynamics`` call (each call costs ~10 us and a ride
    places dozens of bodies). activation: the ``ACTIVATION_STATE_*`` it starts in. ccd_radius:
    a moving body's swept-sphere radius. mass and inertia go together: on a maximal-coordinate
    body, setting ``localInertiaDiagonal`` alone zeroes its mass (and the next step turns it into NaN)."""
    options = dict(lateralFriction=friction, restitution=0.0, rollingFriction=0.0, spinningFriction=0.0,
                   linearDamping=0.0, angularDamping=0.0, activationState=activation)
    if ccd_radius is not None:
        # sleepThreshold 0: once woken it stays awake for the ride (see the module docstring)
        options.update(ccdSweptSphereRadius=ccd_radius, contactProcessingThreshold=0.0, sleepThreshold=0.0)
    if mass is not None:
        options.update(mass=float(mass), localInertiaDiagonal=[float(v) for v in inertia_diagonal])
    pybullet.changeDynamics(body, -1, physicsClientId=client, **options)


@dataclass(frozen=True, eq=False)
class _StaticShape:
    """One static collision shape in metres: convex when ``indices`` is None. Vertices and
    indices are kept as the flat lists PyBullet takes, converted once per table, not per ride."""

    info: BodyInfo
    friction_terrain: str | None
    vertices_m: list[list[float]]
    indices: list[int] | None


@dataclass(frozen=True, eq=False)
class _DebrisShape:
    """A destructible's convex hull in its principal frame (metres) and its mass properties, as
    it stands in the scene; a move or turn is applied to its pose, never to the shape."""

    info: BodyInfo
    local_m: list[list[float]]
    """hull vertices in the principal frame, as the list PyBullet takes"""
    centre_m: np.ndarray
    axes: np.ndarray
    moments: tuple[float, float, float]
    """its principal moments of inertia, kg m^2, as Python floats (PyBullet takes them every placing)"""
    mass: float
    pivot_in: np.ndarray
    ccd_radius_m: float


@dataclass(frozen=True, eq=False)
class _Recipe:
    statics: tuple[_StaticShape, ...]
    debris: tuple[_DebrisShape, ...]


_RECIPES: "weakref.WeakKeyDictionary[TableGeometry, dict[float, _Recipe]]" = weakref.WeakKeyDictionary()


def _debris_shape(piece: Piece, metres: float) -> _DebrisShape:
    hull = trimesh.util.concatenate(list(piece.parts)).convex_hull
    hull_m = hull.copy()
    hull_m.apply_scale(metres)
    # integrated about a point near the piece, not the table's corner metres away: about the
    # corner, the parallel-axis shift cancels all but ~11 digits of the inertia, and which
    # digits survive depends on the CPU's vector width
    near = hull_m.bounds.mean(axis=0)
    hull_m.apply_translation(-near)
    mass = debris_mass_kg(hull_m.volume, piece.risk or 1)
    centre_near, inertia = mass_properties(hull_m, mass)
    # the body frame is the principal frame, so the inertia is exactly diagonal in it
    moments, axes = principal_frame(inertia)
    local = matrix_product(np.asarray(hull_m.vertices) - centre_near, axes)
    centre = centre_near + near
    return _DebrisShape(BodyInfo(piece.id, piece.kind, piece.terrain, True, piece.risk), local.tolist(), centre, axes,
                        tuple(np.asarray(moments, float).tolist()), mass, hull.bounds.mean(axis=0),
                        0.4 * float(np.min(hull_m.extents)))


def _recipe(geometry: TableGeometry, metres: float) -> _Recipe:
    """Collision shapes of ``geometry`` in metres, computed once per geometry and scale."""
    cached = _RECIPES.setdefault(geometry, {})
    if metres not in cached:
        statics, debris = [], []
        for piece in geometry.pieces:
            if piece.kind in DECAL_KINDS:
                continue
            if piece.dynamic:
                debris.append(_debris_shape(piece, metres))
                continue
            info = BodyInfo(piece.id, piece.kind, piece.terrain, False)
            for part in piece.parts:
                for vertices, faces in convex_pieces(part):
                    statics.append(_StaticShape(info, piece.terrain, (vertices * metres).tolist(),
                                                None if faces is None else faces.reshape(-1).tolist()))
        cached[metres] = _Recipe(tuple(statics), tuple(debris))
    return cached[metres]


def _add_static(world: PhysicsWorld, shape: _StaticShape, friction: float) -> None:
    """A static piece as a maximal-coordinate body put to sleep: it never moves, and a sleeping
    static body costs a step nothing until something awake comes near it."""
    client = world.client
    if shape.indices is None:
        collision = pybullet.createCollisionShape(pybullet.GEOM_MESH, vertices=shape.vertices_m,
                                                  physicsClientId=client)
    else:
        collision = pybullet.createCollisionShape(
            pybullet.GEOM_MESH, vertices=shape.vertices_m, indices=shape.indices,
            flags=pybullet.GEOM_FORCE_CONCAVE_TRIMESH | pybullet.GEOM_CONCAVE_INTERNAL_EDGE,
            physicsClientId=client)
    body = pybullet.createMultiBody(0.0, collision, useMaximalCoordinates=True, physicsClientId=client)
    _set_dynamics(client, body, friction, activation=pybullet.ACTIVATION_STATE_SLEEP)
    world.add_body(body, shape.info, placed=False)


def _debris_pose(world: PhysicsWorld, shape: _DebrisShape, spot: ScenerySpot) -> tuple[list, list]:
    """A destructible's (position, orientation quaternion) in metres where ``spot`` says it
    stands, computed once per spot (most debris stands where it stood last ride)."""
    key = (shape.info.piece_id, spot)
    if key not in world.poses:
        metres = world.scale.metres_per_inch
        turn = np.radians(spot.turn_deg)
        rz = np.array([[np.cos(turn), -np.sin(turn), 0.0], [np.sin(turn), np.cos(turn), 0.0], [0.0, 0.0, 1.0]])
        pivot_m = shape.pivot_in * metres
        centre = matrix_product(shape.centre_m - pivot_m, rz.T) + pivot_m + np.array([spot.dx, spot.dy, 0.0]) * metres
        world.poses[key] = (centre.tolist(), quaternion_of(matrix_product(rz, shape.axes)))
    return world.poses[key]


def _add_dynamic(world: PhysicsWorld, shape: _DebrisShape, spot: ScenerySpot, friction: float) -> None:
    """A destructible where ``spot`` says it stands. One that has not moved stands where the scene
    put it, resting, so it starts asleep (it wakes when something touches it); a moved one may
    hang over an edge or lie across a lower level, so it starts awake and finds its rest."""
    position, orientation = _debris_pose(world, shape, spot)
    collision = world.shape(("debris", shape.info.piece_id), lambda: pybullet.createCollisionShape(
        pybullet.GEOM_MESH, vertices=shape.local_m, physicsClientId=world.client))
    body = pybullet.createMultiBody(shape.mass, collision, basePosition=position, baseOrientation=orientation,
                                    useMaximalCoordinates=True, physicsClientId=world.client)
    world.add_body(body, shape.info, placed=True)
    _debris_dynamics(world, body, shape, spot, friction)


def _restore_resting(world: PhysicsWorld, body: int, shape: _DebrisShape) -> None:
    """Put a destructible's body back where the scene stands it, resting, as :func:`_add_dynamic`
    would create it there: ~10 us against ~65 us for a new body (a ride that wakes one crate
    would otherwise create it and every crate after it anew, for their slots).

    Its slot in Bullet's arrays is the one a new world gives it (every destructible before it
    kept its body); its pose, velocity and sleep are set as a new body's are (its other dynamics,
    friction, mass, inertia and CCD, are the piece's wherever it stands and no ride changes them:
    setting them again cost ~3 us a crate), its pose's bits read back are those of the last time
    it was put back (every reset to the same pose reads back the same), and a new
    broadphase proxy (:meth:`PhysicsWorld._put_back`) drops its pairs and manifolds. What no
    PyBullet call resets (its world inertia tensor, its interpolation transform) is left as the
    last ride left it: that this makes no difference to a body that starts asleep is shown by
    trial, not by Bullet's source: rides into crates knocked before, in seeded random orders, the
    same bits as in a new world (``tests/physics/test_living_world.py``) and the golden
    transforms unchanged. A body placed awake at a moved spot did differ (it falls in its first
    step), so it is created anew."""
    position, orientation = _debris_pose(world, shape, _HOME)
    pybullet.resetBasePositionAndOrientation(body, position, orientation, physicsClientId=world.client)
    pybullet.resetBaseVelocity(body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], physicsClientId=world.client)
    pybullet.changeDynamics(body, -1, activationState=pybullet.ACTIVATION_STATE_SLEEP, physicsClientId=world.client)
    read_back = world.rest_bits.get(shape.info.piece_id)
    if read_back is None:
        placed_at = pybullet.getBasePositionAndOrientation(body, physicsClientId=world.client)
        read_back = world.rest_bits[shape.info.piece_id] = _bits(*placed_at[0], *placed_at[1])
    world.resting[body] = (_HOME, read_back)
    world._put_back(body, DYNAMIC_FILTER_GROUP, DYNAMIC_FILTER_MASK)


def _debris_dynamics(world: PhysicsWorld, body: int, shape: _DebrisShape, spot: ScenerySpot,
                     friction: float) -> None:
    """A destructible body's dynamics (asleep when resting where the scene put it, awake when
    moved), and a resting one's pose as PyBullet reads it back, bit for bit (:meth:`PhysicsWorld._untouched`)."""
    resting = spot == _HOME
    _set_dynamics(world.client, body, friction, ccd_radius=shape.ccd_radius_m, mass=shape.mass,
                  inertia_diagonal=shape.moments,
                  activation=pybullet.ACTIVATION_STATE_SLEEP if resting else pybullet.ACTIVATION_STATE_ENABLE_SLEEPING)
    world.resting.pop(body, None)
    if resting:
        placed_at = pybullet.getBasePositionAndOrientation(body, physicsClientId=world.client)
        world.resting[body] = (spot, _bits(*placed_at[0], *placed_at[1]))


@dataclass(frozen=True, eq=False)
class _BikeShape:
    """A bike's collision hull about its centre of mass (metres, as PyBullet takes it), the
    centre of mass from the bottom centre and the inertia diagonal (bike frame)."""

    local_m: list[list[float]]
    centre: np.ndarray
    inertia_diagonal: np.ndarray


#: bike shapes by (base, height in inches, metres per inch): every ride of a game reuses them
_BIKE_SHAPES: dict[tuple[BaseShape, float, float], _BikeShape] = {}


def bike_shape(base: BaseShape, height_in: float, scale: TableScale) -> _BikeShape:
    """The :func:`bike_hull` of ``base`` with its mass properties, computed once per base shape."""
    key = (base, float(height_in), float(scale.metres_per_inch))
    if key not in _BIKE_SHAPES:
        vertices = bike_hull(base, height_in, scale)
        centre, inertia = mass_properties(trimesh.convex.convex_hull(vertices), BIKE_MASS_KG)
        _BIKE_SHAPES[key] = _BikeShape((vertices - centre).tolist(), centre, np.diag(inertia).copy())
    return _BIKE_SHAPES[key]


def add_bike(world: PhysicsWorld, bike: BikeBody, height_in: float, *, dynamic: bool) -> int:
    """Put a bike into the world standing at ``bike.pose``; a static one is an obstacle only."""
    scale = world.scale
    cached = bike_shape(bike.base, height_in, scale)
    centre = cached.centre
    shape = world.shape(("bike", bike.base, float(height_in)), lambda: pybullet.createCollisionShape(
        pybullet.GEOM_MESH, vertices=cached.local_m, physicsClientId=world.client))
    yaw = _quaternion_z(bike.pose.facing_deg)
    rotated = np.asarray(pybullet.getMatrixFromQuaternion(yaw)).reshape(3, 3) @ centre
    position = np.array([scale.metres(bike.pose.x), scale.metres(bike.pose.y), scale.metres(bike.pose.z)])
    position = position + rotated + np.array([0.0, 0.0, 0.002])
    body = pybullet.createMultiBody(BIKE_MASS_KG if dynamic else 0.0, shape, basePosition=position.tolist(),
                                    baseOrientation=yaw, useMaximalCoordinates=True, physicsClientId=world.client)
    if dynamic:
        # the hull is mirror-symmetric in x and y, so its inertia is diagonal in the bike's frame
        _set_dynamics(world.client, body, 0.0, ccd_radius=0.25 * scale.metres(min(bike.base.length, bike.base.width)),
                      mass=BIKE_MASS_KG, inertia_diagonal=cached.inertia_diagonal,
                      activation=pybullet.ACTIVATION_STATE_DISABLE_SLEEPING)
        velocity = [scale.metres(v) for v in bike.velocity_in_s]
        pybullet.resetBaseVelocity(body, velocity, [0.0, 0.0, 0.0], physicsClientId=world.client)
    else:
        _set_dynamics(world.client, body, 0.9, activation=pybullet.ACTIVATION_STATE_SLEEP)
    world.add_body(body, BodyInfo(bike.id, bike.kind, None, dynamic), placed=True)
    world.bike_ids[bike.id] = body
    world.bike_bottoms[body] = -centre
    world.models[body] = _model_key(bike, height_in, dynamic=dynamic)
    return body


def _model_key(bike: BikeBody, height_in: float, *, dynamic: bool) -> tuple:
    """What a miniature's body is made from, its floats as exact bits (``==`` takes -0.0 for 0.0)."""
    pose = bike.pose
    return (bike.id, bike.kind, dynamic, _bits(bike.base.length, bike.base.width, bike.base.power, height_in,
                                               pose.x, pose.y, pose.z,
                                               pose.facing_deg, *bike.velocity_in_s))


def bike_height_in(bike_height: float, rider_height: float) -> float:
    """Height of a miniature's collision shape, inches: base, bike and rider."""
    return BASE_THICKNESS_IN + bike_height + rider_height


def build_world(geometry: TableGeometry, scale: TableScale, terrain_friction: Mapping[str, float],
                edges: Mapping[str, str], *, rider: BikeBody | None = None, others: Sequence[BikeBody] = (),
                scenery: Mapping[str, ScenerySpot] | None = None, bike_height: float = 1.8,
                hz: int = STEP_HZ) -> PhysicsWorld:
    """A new DIRECT PyBullet world of ``geometry`` in metres, set up by :meth:`PhysicsWorld.place`.

    terrain_friction: friction coefficient per terrain name (rules data). edges: the table's
    special edges (``{"south": "cliff"}``). rider: the bike that will ride (dynamic); others: the
    other miniatures, static obstacles. scenery: where destructibles stand now (moved or removed).
    bike_height: height of a miniature's collision shape, inches.
    """
    client = pybullet.connect(pybullet.DIRECT)
    pybullet.resetSimulation(physicsClientId=client)
    pybullet.setGravity(0.0, 0.0, -GRAVITY_M_S2, physicsClientId=client)
    pybullet.setPhysicsEngineParameter(fixedTimeStep=1.0 / hz, numSubSteps=0, numSolverIterations=50,
                                       deterministicOverlappingPairs=1, solverResidualThreshold=0.0,
                                       physicsClientId=client)
    ruleset = geometry.ruleset
    world = PhysicsWorld(client, scale, geometry.width, geometry.depth, dict(edges),
                         scale.metres(float(ruleset.data("ride.step_height_in"))),
                         float(ruleset.data("destructible.break_delta_v_mps_per_risk")), hz=hz,
                         recipe=_recipe(geometry, scale.metres_per_inch), terrain_friction=dict(terrain_friction),
                         bike_height_in=bike_height)
    for shape in world.recipe.statics:
        _add_static(world, shape, terrain_friction.get(shape.info.terrain or "", 0.8))
    floor = pybullet.createCollisionShape(pybullet.GEOM_PLANE, physicsClientId=client)
    floor_body = pybullet.createMultiBody(0.0, floor, basePosition=[0.0, 0.0, -CATCH_FLOOR_DEPTH_M],
                                          useMaximalCoordinates=True, physicsClientId=client)
    pybullet.changeDynamics(floor_body, -1, activationState=pybullet.ACTIVATION_STATE_SLEEP, physicsClientId=client)
    world.add_body(floor_body, BodyInfo("beyond_table", "floor", None, False), placed=False)
    return world.place(rider=rider, others=others, scenery=scenery)


def build_table_world(table: Table, geometry: TableGeometry, *, rider: BikeBody | None = None,
                      others: Sequence[BikeBody] = (), scenery: Mapping[str, ScenerySpot] | None = None,
                      hz: int = STEP_HZ) -> PhysicsWorld:
    """:func:`build_world` with the scale, friction, edges and miniature height of ``table``."""
    ruleset = table.ruleset
    return build_world(geometry, ruleset.scale, {name: t.friction for name, t in ruleset.terrain.items()},
                       dict(table.spec.table.edges), rider=rider, others=others, scenery=scenery,
                       bike_height=bike_height_in(ruleset.bike_height_in, ruleset.rider_height_in), hz=hz)
