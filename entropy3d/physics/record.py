"""The record of one physical ride: plain immutable values in table inches and seconds.

Physics' own account (every touch with its impulse, debris displacements, the outcome of the
controller); :func:`entropy3d.physics.producer.to_facts` turns it into the rules' Facts. Nothing
here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropy3d.geometry import Pose

#: how a ride ended
OUTCOMES = ("completed", "crashed", "airborne", "left_table", "stalled")


@dataclass(frozen=True)
class Touch:
    """The bike touching something that is not the ground under its wheels.

    piece_id: the scene piece (or model id for another bike). kind: that piece's kind.
    role: ``crash`` (an obstacle above the bike's step height: a wall, a deck's side, a railing,
    another bike) or ``debris`` (a destructible knocked about).
    t: seconds since the ride started. point: where, table inches (x, y, z).
    progress_in: distance along the intended path when it happened, inches.
    facing_deg: the bike's facing then, degrees CCW from +x.
    into_deg: the direction into the obstacle (its surface normal reversed), degrees CCW from +x.
    angle_deg: between the two (0 = straight on, 90 = scraping along it).
    impulse: total normal impulse over the contact, N s (depicted world).
    """

    piece_id: str
    kind: str
    role: str
    t: float
    point: tuple[float, float, float]
    progress_in: float
    facing_deg: float
    into_deg: float
    angle_deg: float
    impulse: float


@dataclass(frozen=True)
class Airborne:
    """One spell in the air longer than a bump.

    from_piece / from_kind: the piece the bike last stood on and its kind (``air``: it started the
    ride in the air).
    launch_t / land_t: seconds since the ride started (land_t None: still airborne at the end).
    launch_progress_in: distance along the path at take-off, inches.
    launch_xy / land_xy: table inches. launch_z / land_z: base height, inches (land_z is the level
    it came down on). max_z: highest base height in the flight, inches.
    launch_speed_in_s: speed at take-off, inches per second.
    """

    from_piece: str | None
    from_kind: str
    launch_t: float
    land_t: float | None
    launch_progress_in: float
    launch_xy: tuple[float, float]
    land_xy: tuple[float, float] | None
    launch_z: float
    land_z: float | None
    max_z: float
    launch_speed_in_s: float

    @property
    def duration(self) -> float | None:
        return None if self.land_t is None else self.land_t - self.launch_t


@dataclass(frozen=True)
class DebrisMove:
    """Where a destructible went: displacement (dx, dy, dz) inches, turned ``turn_deg``, and
    ``destroyed`` when the hit was hard enough to break it (it is then removed)."""

    piece_id: str
    dx: float
    dy: float
    dz: float
    turn_deg: float
    destroyed: bool

    @property
    def distance_in(self) -> float:
        return float(np.hypot(self.dx, self.dy))


@dataclass(frozen=True, eq=False)
class RideRecord:
    """Everything physics found in one ride (one activation).

    outcome: one of :data:`OUTCOMES`. path_length_in: length of the intended path.
    progress_in: how far along the path the bike got, inches. travelled_in: length of its actual
    ground track, inches. duration_s: simulated seconds.
    trajectory: (K, 5) rows of t s, x, y, z in, heading deg; z is the base's bottom.
    contacts: in time order. flights: in time order. airborne_s: total of the flights.
    end_pose: where the bike ended (z: base height). end_velocity_in_s: its velocity then.
    left_table: the edge it rode over (south/north/west/east) or None.
    scenery: destructibles that moved or broke. steps: physics steps of the ride.
    settle_steps: physics steps taken after it, holding the bike, while knocked debris settled
    (``steps + settle_steps`` is every step the ride cost).
    """

    outcome: str
    path_length_in: float
    progress_in: float
    travelled_in: float
    duration_s: float
    trajectory: np.ndarray
    contacts: tuple[Touch, ...]
    flights: tuple[Airborne, ...]
    end_pose: Pose
    end_velocity_in_s: tuple[float, float, float]
    left_table: str | None
    scenery: tuple[DebrisMove, ...]
    steps: int
    settle_steps: int = 0

    def __repr__(self) -> str:
        return (f"RideRecord({self.outcome}, {self.progress_in:.2f}/{self.path_length_in:.2f}\" in "
                f"{self.duration_s:.3f}s, {len(self.contacts)} contacts, {len(self.flights)} flights)")

    @property
    def airborne_s(self) -> float:
        end = self.duration_s
        return float(sum((f.land_t if f.land_t is not None else end) - f.launch_t for f in self.flights))

    @property
    def airborne_at_end(self) -> bool:
        return bool(self.flights) and self.flights[-1].land_t is None

    @property
    def max_z(self) -> float:
        """Highest base height of the ride, inches."""
        return float(self.trajectory[:, 3].max())

    @property
    def first_crash(self) -> Touch | None:
        return next((c for c in self.contacts if c.role == "crash"), None)
