"""What the table showed, in the plain terms every game system reads.

The shared table (line of sight, the producers' rides) is turned into these values by
:mod:`entropy3d.table_readings`; a system's deciders read them and nothing else, so a system needs
no engine and its tests need no table. No rules words here: "60% of the target visible, 14" away,
35° off the viewer's facing" is a fact; "partial cover" is a decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from entropy3d.core.facts import Facts
from entropy3d.geometry import Pose

#: the surface of an :class:`Impact` with another miniature (a bike and its rider)
MINIATURE_SURFACE = "miniature"


@dataclass(frozen=True)
class Sighting:
    """What one miniature sees of another, from the viewer's eye (the LOS engine).

    viewer, target: model ids. distance_in: between base centres, table inches.
    bearing_deg: angle between the viewer's facing and the direction to the target's base
    centre, 0 (dead ahead) to 180 (straight behind). visible_fraction: share (0-1) of the
    target's silhouette the viewer's eye reaches unblocked (0 when it is out of the front half
    the LOS engine looks through). viewer_z_in, target_z_in: height of the surface under each
    base, table inches. viewer_level, target_level: those heights in storeys of the table
    (``level_height_in`` of rules/los.yaml), rounded. blockers: ids of the pieces and
    miniatures that stop a sight ray, sorted. blocker_surfaces: their materials, in the same
    order: a terrain name, ``miniature`` for a model, None where the table gives the piece none.
    blocker_tops_in: their highest points, table inches. viewer_base_in, target_base_in: each
    base's (length, width), table inches. blocker_near_viewer: for each blocker, True when it
    stands nearer the viewer's base centre than the target's on the table's plan (its footprint's
    nearest point): the viewer's own cover, a crate it crouches behind, not the target's.
    """

    viewer: str
    target: str
    distance_in: float
    bearing_deg: float
    visible_fraction: float
    viewer_z_in: float = 0.0
    target_z_in: float = 0.0
    viewer_level: int = 0
    target_level: int = 0
    blockers: tuple[str, ...] = ()
    blocker_surfaces: tuple[str | None, ...] = ()
    blocker_tops_in: tuple[float, ...] = ()
    viewer_base_in: tuple[float, float] = (0.0, 0.0)
    target_base_in: tuple[float, float] = (0.0, 0.0)
    blocker_near_viewer: tuple[bool, ...] = ()

    def __repr__(self) -> str:
        return (f"Sighting({self.viewer}->{self.target}: {self.distance_in:.1f}\" at {self.bearing_deg:.0f}°, "
                f"{100 * self.visible_fraction:.0f}% visible)")

    def near_viewer(self, blocker: str) -> bool:
        """``blocker`` (one of :attr:`blockers`) stands nearer the viewer than the target (False
        for a sighting that does not say)."""
        near = dict(zip(self.blockers, self.blocker_near_viewer))
        return bool(near.get(blocker, False))


@dataclass(frozen=True)
class Impact:
    """A body that hit something, or came down from a height, in the depicted world's units.

    model: the moving model's id. what: ``contact`` (ran into a solid piece or a model) or
    ``fall`` (came down from a flight). piece: what it hit (a piece id, a model id, or the
    piece it landed on; None when not known). surface: the material of what it hit (a terrain
    name, ``miniature`` for another model, None when the table does not say). speed_m_s: its
    speed just before the impact, metres per second
    of the depicted world. angle_deg: between its heading and the way into the obstacle (0 =
    straight on). other_speed_m_s: the speed of the other body towards it (a model riding at it),
    0 for scenery. drop_m: for a fall, the height fallen, depicted metres (0 for a contact).
    t_s: seconds into the ride.
    """

    model: str
    what: str
    piece: str | None
    surface: str | None
    speed_m_s: float
    angle_deg: float = 0.0
    other_speed_m_s: float = 0.0
    drop_m: float = 0.0
    t_s: float = 0.0

    def __repr__(self) -> str:
        how = f"fell {self.drop_m:.1f} m" if self.what == "fall" else f"hit at {self.speed_m_s:.1f} m/s"
        return f"Impact({self.model} {how} onto {self.surface} {self.piece or ''})".replace(" )", ")")


@dataclass(frozen=True)
class LevelChange:
    """Where a ridden move started and ended, in storeys of the table (``level_height_in`` of
    rules/los.yaml, rounded): model id, from_level, to_level."""

    model: str
    from_level: int
    to_level: int


@dataclass(frozen=True)
class RiddenMove:
    """One ridden move as the table saw it, table inches and degrees.

    model: its id. distance_in: how far it got along its path. terrain_in: inches ridden over
    each terrain name, as (name, inches) pairs, largest first. headings: (distance along the
    ride, heading) samples of the ride, for how sharply it turned. scenery: destructible pieces
    it went through. contacts: pieces or models it ran into. nearest_obstacle /
    nearest_obstacle_in: the solid piece nearest to where it ended and how far from its base
    centre (None when the table has none at its level). nearest_obstacle_pose: where it would
    stand moved straight into that piece, its base touching it, its heading kept (None when
    the table has none, or the base was not given).
    """

    model: str
    distance_in: float
    terrain_in: tuple[tuple[str, float], ...] = ()
    headings: tuple[tuple[float, float], ...] = ()
    scenery: tuple[str, ...] = ()
    contacts: tuple[str, ...] = ()
    nearest_obstacle: str | None = None
    nearest_obstacle_in: float | None = None
    nearest_obstacle_pose: Pose | None = None

    def turned_deg(self, within_in: float) -> float:
        """The largest change of heading (degrees) over any stretch of ``within_in`` inches."""
        rows = self.headings
        best = 0.0
        for i, (start, heading) in enumerate(rows):
            for distance, later in rows[i + 1:]:
                if distance - start > within_in:
                    break
                best = max(best, abs((later - heading + 180.0) % 360.0 - 180.0))
        return best


@dataclass(frozen=True, eq=False)
class RideReading:
    """One ride as a game system's engine reads it: the producer's ``facts``, the ``move`` as the
    table saw it and the ``impacts`` of the ride, in time order (:meth:`TableView.read_ride
    <entropy3d.game.tableview.TableView.read_ride>` reads them). ``stopped``: the ride read only
    as far as the engine's ``ride_stop_in`` (table inches over the ground: where a rule may stop
    it short, the chase's 12" after a failed roll), so its nearest obstacle is the one to where
    it would then stand; None when the engine names no such point or the ride did not pass it."""

    facts: Facts
    move: RiddenMove
    impacts: tuple[Impact, ...] = ()
    stopped: RiddenMove | None = None
