"""Where a destructible piece stands during a game, as a small immutable value.

The static table keeps each piece where the scene put it; the game state keeps a
:class:`ScenerySpot` for every piece that moved or broke (EC-DEST-4). Physics builds its world
from both; the game and its replays store them. One type for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScenerySpot:
    """A destructible's place relative to where the scene put it.

    dx, dy: how far it moved, inches. turn_deg: how far it turned about its centre, degrees
    counter-clockwise. removed: it was destroyed and is off the table.
    """

    dx: float = 0.0
    dy: float = 0.0
    turn_deg: float = 0.0
    removed: bool = False
