"""What a mission marks on the table for the whole game, as plain values the
:class:`~entropy3d.systems.entropy_city.state.State` keeps: where the Law enters (EC-LAW), Corners' zones
(EC-MISSION-CORNERS) and Hoon Hour's checkpoints (EC-MISSION-HOON). Table inches, headings in
degrees counter-clockwise from +x. They never change during a game; the rules that read them are
:mod:`entropy3d.systems.entropy_city.law`, :mod:`entropy3d.systems.entropy_city.corners` and
:mod:`entropy3d.systems.entropy_city.race`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class Entry:
    """A point the Law enters at: its first rider's base centre ``x``, ``y`` and ``facing_deg``;
    the others line up behind it (rules data ``law.file_gap_in``)."""

    x: float
    y: float
    facing_deg: float

    def to_json(self) -> list[float]:
        return [round(self.x, 4) + 0.0, round(self.y, 4) + 0.0, round(self.facing_deg, 4) + 0.0]

    @classmethod
    def from_json(cls, data) -> "Entry":
        return cls(float(data[0]), float(data[1]), float(data[2]))


@dataclass(frozen=True)
class LawPlan:
    """The Law in a game (EC-LAW): from which turn its riders enter, and the points where they may
    (one is rolled for when there are several)."""

    from_turn: int
    entries: tuple[Entry, ...]

    def to_json(self) -> dict:
        return {"from_turn": self.from_turn, "entries": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, data: Mapping) -> "LawPlan":
        return cls(int(data["from_turn"]), tuple(Entry.from_json(e) for e in data["entries"]))


@dataclass(frozen=True)
class Zone:
    """A Corners zone (EC-MISSION-CORNERS): ``id`` and its rectangle ``x0, y0, x1, y1`` (inches)."""

    id: str
    x0: float
    y0: float
    x1: float
    y1: float

    def holds(self, x: float, y: float) -> bool:
        """Whether the point (a base centre) lies in the zone, its edges included."""
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def centre(self) -> tuple[float, float]:
        return 0.5 * (self.x0 + self.x1), 0.5 * (self.y0 + self.y1)

    def to_json(self) -> dict:
        return {"id": self.id, "rect": [self.x0, self.y0, self.x1, self.y1]}

    @classmethod
    def from_json(cls, data: Mapping) -> "Zone":
        return cls(str(data["id"]), *(float(v) for v in data["rect"]))


@dataclass(frozen=True)
class Checkpoint:
    """A Hoon Hour checkpoint (EC-MISSION-HOON): ``id``, its centre ``x``, ``y`` and the radius
    ``radius_in`` a rider's base comes within to pass it (inches)."""

    id: str
    x: float
    y: float
    radius_in: float

    def to_json(self) -> dict:
        return {"id": self.id, "at": [self.x, self.y], "radius_in": self.radius_in}

    @classmethod
    def from_json(cls, data: Mapping) -> "Checkpoint":
        return cls(str(data["id"]), float(data["at"][0]), float(data["at"][1]), float(data["radius_in"]))
