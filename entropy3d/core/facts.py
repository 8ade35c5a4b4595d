"""What happened on the table during one ride, as plain values the rules can read.

A fact producer (PyBullet in :mod:`entropy3d.physics`, footprints in :mod:`entropy3d.geometric`)
rides a checked action and returns :class:`Facts`; :func:`entropy3d.systems.entropy_city.transition.resolve`
decides what they mean. Facts never hold a rules word: "hit a wall at 33°" is a fact, "head-on
crash" is a decision. All lengths are table inches, times seconds, angles degrees
counter-clockwise from +x.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from entropy3d.geometry import Pose

#: columns of a trajectory array
TRAJECTORY_COLUMNS = ("t_s", "x_in", "y_in", "z_in", "heading_deg")


@dataclass(frozen=True)
class Contact:
    """The ride ran into something solid (it stopped there, base to base).

    piece_id: the scene piece, or the id of another model. kind: that piece's kind (building,
    block, platform, pillar, railing, ramp, mesh, destructible) or ``model``.
    progress_in: distance along the path when it happened. t_s: seconds into the ride.
    heading_deg: the bike's heading then. into_deg: the direction from the bike into the obstacle
    (the obstacle's surface normal reversed). point: where, (x, y, z).
    """

    piece_id: str
    kind: str
    progress_in: float
    t_s: float
    heading_deg: float
    into_deg: float
    point: tuple[float, float, float]

    @property
    def angle_deg(self) -> float:
        """Between the heading and the way into the obstacle (0 = straight on)."""
        return abs((self.into_deg - self.heading_deg + 180.0) % 360.0 - 180.0)


@dataclass(frozen=True)
class SceneryHit:
    """The ride went into a destructible piece.

    piece_id, risk: the piece and its risk level from the scene (EC-DEST-1). progress_in, t_s,
    heading_deg: where along the ride. side: which side of the bike's line the piece's centre
    is on (left or right). pushed: how far the producer saw it knocked (dx, dy); (0, 0) when the
    producer has no dynamics. broken: the producer saw it smashed.
    """

    piece_id: str
    risk: int
    progress_in: float
    t_s: float
    heading_deg: float
    side: str = "left"
    pushed: tuple[float, float] = (0.0, 0.0)
    broken: bool = False


@dataclass(frozen=True)
class Flight:
    """A spell with the wheels off the ground.

    from_piece / from_kind: the piece the bike last stood on before it left the ground and its
    kind (``ramp``, ``platform``, ``block``, ``ground``...). launch_progress_in, launch_t_s,
    launch_xy, launch_z: where and when it left. launch_speed_in_s: its speed then.
    drop_in: how far the level under it fell where it left (a level's edge) and rise_in how far
    it rose above the launch. land_progress_in, land_t_s, land_xy, land_z: where it came down
    (None: still in the air when the ride ended).
    """

    from_piece: str | None
    from_kind: str
    launch_progress_in: float
    launch_t_s: float
    launch_xy: tuple[float, float]
    launch_z: float
    launch_speed_in_s: float
    drop_in: float
    rise_in: float
    land_progress_in: float | None = None
    land_t_s: float | None = None
    land_xy: tuple[float, float] | None = None
    land_z: float | None = None

    @property
    def landed(self) -> bool:
        return self.land_t_s is not None

    @property
    def air_s(self) -> float | None:
        return None if self.land_t_s is None else self.land_t_s - self.launch_t_s


@dataclass(frozen=True)
class Sight:
    """What one model sees of another, from the LOS engine (EC-LOS-4, EC-COVER-1).

    visible_fraction: visible share (0-1) of the target's bike and rider from the viewer's eye.
    bike_seen: the bike itself is seen, not only a limb. distance_in: between base centres.
    """

    visible_fraction: float
    bike_seen: bool
    distance_in: float


@dataclass(frozen=True)
class StartSights:
    """What the table shows as a model's activation begins (EC-STEALTH), asked before resolve
    (:func:`entropy3d.table_answers.start_sights`): ``sees``: enemy id -> what the activating
    model, where it stands, sees of each enemy that may hide by Stealth; ``seen_by``: watcher id
    -> what each enemy on overwatch sees of it, looking its way (when its Stealth covers guns)."""

    sees: Mapping[str, Sight]
    seen_by: Mapping[str, Sight]


@dataclass(frozen=True)
class RestAnswer:
    """What the table says of a ridden bike left at ``pose`` (one of the poses the rules may leave
    it at, :func:`entropy3d.systems.entropy_city.riding.end_poses`; :func:`entropy3d.table_answers.rest_answer`).

    rests_at: ``pose`` on the surface under its centre (:func:`entropy3d.systems.entropy_city.rest.stays_at`).
    inside: the solid piece its base overlaps there and how deep (inches); None: clear. clear:
    when inside, the nearest pose where the base is clear, how far (inches) and whether back along
    its ridden path (else around it); None when there is none within the search.
    """

    pose: Pose
    rests_at: Pose
    inside: tuple[str, float] | None = None
    clear: tuple[Pose, float, bool] | None = None


@dataclass(frozen=True)
class WreckSpots:
    """What the table says of the spots around ``pose`` where a wreck may be placed
    (:func:`entropy3d.systems.entropy_city.wrecks.wreck_spots`, in that order;
    :func:`entropy3d.table_answers.wreck_spots_around`).

    off_table: the base centre at ``pose`` is off the table (over its edge): no wreck lies on it.
    spots: for each spot, the spot on the level under it when a wreck's base there is on the
    table and out of every solid, else None. Other bases and wrecks are the rules' to check.
    """

    pose: Pose
    off_table: bool
    spots: tuple[Pose | None, ...]


@dataclass(frozen=True, eq=False)
class Facts:
    """Everything a producer found in one ride.

    producer: who found it (``physics`` or ``geometric``). path_length_in: the checked path's
    length. progress_in: how far along it the bike got. completed: it rode the whole path.
    trajectory: (K, 5) rows of :data:`TRAJECTORY_COLUMNS` as ridden. contacts: solid things run
    into, in order (the ride stopped at the first). scenery: destructibles gone through.
    flights: spells in the air. edge / edge_kind: the table edge it rode over (south, north,
    west, east) and the scene's kind of that edge (``open`` or ``cliff``), or None.
    end_pose / end_velocity_in_s: where the bike physically ended. ground: (M, 4) rows of
    distance along the path (extended straight on past its end), x, y and the level of the
    highest static surface there under the bike's height (where a jump may come down).
    tumble: after a crash contact, the bike's fall as physics continues it from the contact
    (rows t_s after the contact, x, y, z inches, orientation quaternion x, y, z, w), for the
    film; None when there was no crash or the producer has no dynamics. No rule reads it.
    thrown: with ``tumble``, the rider thrown off (the same columns: the frame his body moves
    by, the bike's frame at the contact; :func:`entropy3d.physics.tumble.thrown_rider`).
    watched: what the table shows each enemy on overwatch of the ride (watcher id -> one
    :class:`Sight` per point of :func:`~entropy3d.systems.entropy_city.stopped_guns.ride_points`, None beyond its
    gun's reach; :func:`entropy3d.table_answers.watched_ride`); None when no table was asked, so no
    watcher sees the ride. rests: what the table says of each pose the rules may leave the ridden
    bike at (:class:`RestAnswer`); None when no table was asked, so it rests where the rules leave
    it. knock_room: how far each destructible gone through (by piece id) could be moved square to
    the bike's heading where it was hit, to the bike's left and to its right, and straight ahead,
    inches, before it meets something solid or leaves the table (:func:`entropy3d.table_answers.knock_rooms`); None
    when no table was asked. Like ``ground``, these are the table's, so not in the JSON form.
    """

    producer: str
    path_length_in: float
    progress_in: float
    completed: bool
    trajectory: np.ndarray = field(repr=False)
    contacts: tuple[Contact, ...] = ()
    scenery: tuple[SceneryHit, ...] = ()
    flights: tuple[Flight, ...] = ()
    edge: str | None = None
    edge_kind: str | None = None
    end_pose: Pose = Pose(0.0, 0.0)
    end_velocity_in_s: tuple[float, float, float] = (0.0, 0.0, 0.0)
    ground: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 4)))
    tumble: np.ndarray | None = field(repr=False, default=None)
    thrown: np.ndarray | None = field(repr=False, default=None)
    watched: Mapping[str, tuple[Sight | None, ...]] | None = field(repr=False, default=None)
    rests: tuple[RestAnswer, ...] | None = field(repr=False, default=None)
    knock_room: Mapping[str, tuple[float, float, float]] | None = field(repr=False, default=None)

    def __repr__(self) -> str:
        return (f"Facts({self.producer}: {self.progress_in:.2f}/{self.path_length_in:.2f}\", "
                f"{len(self.contacts)} contacts, {len(self.scenery)} scenery, {len(self.flights)} flights"
                f"{', over the ' + self.edge + ' edge' if self.edge else ''})")

    @property
    def first_contact(self) -> Contact | None:
        return self.contacts[0] if self.contacts else None

    def to_json(self) -> dict:
        """The facts as JSON (the ground profile is left out: it is the table's, and derived)."""
        from entropy3d.core.event import plain

        return {"producer": self.producer, "path_length_in": plain(self.path_length_in),
                "progress_in": plain(self.progress_in), "completed": self.completed,
                "trajectory": [[round(float(v), 3) + 0.0 for v in row] for row in np.asarray(self.trajectory)],
                "contacts": [plain(dataclasses.asdict(c)) for c in self.contacts],
                "scenery": [plain(dataclasses.asdict(h)) for h in self.scenery],
                "flights": [plain(dataclasses.asdict(f)) for f in self.flights],
                "edge": self.edge, "edge_kind": self.edge_kind,
                "end_pose": plain([self.end_pose.x, self.end_pose.y, self.end_pose.z, self.end_pose.facing_deg]),
                "end_velocity_in_s": plain(self.end_velocity_in_s)} | (
            {} if self.tumble is None else  # only a crash's facts carry it: other replays keep their bytes
            {"tumble": [[round(float(v), 4) + 0.0 for v in row] for row in np.asarray(self.tumble)]}) | (
            {} if self.thrown is None else
            {"thrown": [[round(float(v), 4) + 0.0 for v in row] for row in np.asarray(self.thrown)]})

    @classmethod
    def from_json(cls, data: Mapping) -> "Facts":
        def tuples(item: Mapping) -> dict:
            return {k: tuple(v) if isinstance(v, list) else v for k, v in item.items()}

        x, y, z, facing = data["end_pose"]
        return cls(data["producer"], float(data["path_length_in"]), float(data["progress_in"]), bool(data["completed"]),
                   np.asarray(data["trajectory"], float).reshape(-1, 5),
                   tuple(Contact(**tuples(c)) for c in data["contacts"]),
                   tuple(SceneryHit(**tuples(h)) for h in data["scenery"]),
                   tuple(Flight(**tuples(f)) for f in data["flights"]), data["edge"], data["edge_kind"],
                   Pose(x, y, facing, z), tuple(data["end_velocity_in_s"]),
                   tumble=None if data.get("tumble") is None else np.asarray(data["tumble"], float).reshape(-1, 8),
                   thrown=None if data.get("thrown") is None else np.asarray(data["thrown"], float).reshape(-1, 8))

    def rest_answer(self, pose: Pose) -> RestAnswer:
        """What the table said of a bike left at ``pose`` (one of :attr:`rests`)."""
        for answer in self.rests or ():
            if answer.pose == pose:
                return answer
        raise ValueError(f"the facts hold no answer of the table's for a bike resting at {pose}: give them with "
                         "entropy3d.table_answers.with_table_answers")

    def level_at(self, distance_in: float) -> tuple[np.ndarray, float]:
        """(x, y) and ground level at ``distance_in`` along the path (extended straight on)."""
        if len(self.ground) == 0:
            return np.array(self.end_pose.xy), float(self.end_pose.z)
        k = int(np.clip(np.searchsorted(self.ground[:, 0], distance_in), 0, len(self.ground) - 1))
        return self.ground[k, 1:3].copy(), float(self.ground[k, 3])
