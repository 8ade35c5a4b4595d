"""Destructible scenery knocked aside during a ride, moved on screen when the bike hits it.

A rider through a destructible that passes its test moves it speed x 2 inches, aside off its
line by default (EC-DEST-4, option ``knocked_piece``); the rules record where it ends up on the ``destructible`` event
(``figures["item_moved_to"]``: its offset from where the scene put it, inches) and when
(``t_s``, seconds into the ride). The film used to move the piece only when the activation was
over, so the bike rode through a standing sawhorse and the sawhorse jumped aside afterwards; here
the piece leaves its spot at the moment of the hit and lands on the rules' spot a fraction of a
second later, with a hop and a wobble so it reads as struck, not slid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from entropy3d.game.records import ActivationRecord

#: seconds of ride time the piece takes from the hit to where the rules put it
KNOCK_S = 0.35
#: the hop's height at its top, inches per inch the piece is moved (a 4" knock lifts it 0.6")
HOP_PER_IN = 0.15
#: the wobble about its upright axis at the hop's top, degrees (back to the rules' turn on landing)
WOBBLE_DEG = 25.0


@dataclass(frozen=True)
class Knock:
    """One destructible moved by a ride: ``start`` and ``end`` are (dx, dy) offsets from the
    scene's placement, inches; ``turn_deg`` its turn (unchanged by a knock); ``t_s`` the hit's
    time into the ride, seconds."""

    piece_id: str
    t_s: float
    start: tuple[float, float]
    end: tuple[float, float]
    turn_deg: float = 0.0


def knocks_in(activation: ActivationRecord, index: int) -> list[Knock]:
    """The destructibles the ``index``-th action record of ``activation`` knocked aside, in ride
    order, each starting where the state before the activation and the activation's earlier
    actions left it."""
    spots = {piece: (spot.dx, spot.dy, spot.turn_deg) for piece, spot in activation.state_before.scenery.items()}
    found: list[Knock] = []
    for k, action in enumerate(activation.actions[:index + 1]):
        for event in action.events:
            moved_to = event.figures.get("item_moved_to") if event.kind == "destructible" else None
            if moved_to is None or event.piece is None:
                continue
            dx, dy, turn = spots.get(event.piece, (0.0, 0.0, 0.0))
            if k == index:
                found.append(Knock(event.piece, float(event.t_s), (dx, dy), (float(moved_to[0]), float(moved_to[1])),
                                   turn))
            spots[event.piece] = (float(moved_to[0]), float(moved_to[1]), turn)
    return found


def spot_matrix(centre_xy, dx: float, dy: float, turn_deg: float, lift: float = 0.0) -> np.ndarray:
    """The 4x4 transform that turns a piece ``turn_deg`` counter-clockwise about its centre
    ``centre_xy`` (table inches, as the scene placed it), moves it (dx, dy) inches and lifts it
    ``lift`` inches off the table."""
    angle = math.radians(turn_deg)
    centre = np.asarray(centre_xy, float)[:2]
    matrix = np.eye(4)
    matrix[:2, :2] = [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
    matrix[:2, 3] = centre - matrix[:2, :2] @ centre + np.array([dx, dy])
    matrix[2, 3] = lift
    return matrix


def knock_matrix(knock: Knock, centre_xy, t_s: float) -> np.ndarray:
    """Where the knocked piece centred at ``centre_xy`` (table inches) is ``t_s`` seconds into the
    ride, as :func:`spot_matrix`'s transform: on its start spot before the hit,
    on the rules' spot from :data:`KNOCK_S` after it, and in between along a hop (a sine arch of
    :data:`HOP_PER_IN` per inch moved) with a wobble that settles back to its turn."""
    u = min(1.0, max(0.0, (t_s - knock.t_s) / KNOCK_S))
    eased = 1.0 - (1.0 - u) ** 2  # struck hard, slowing as it lands
    (x0, y0), (x1, y1) = knock.start, knock.end
    arch = math.sin(math.pi * u)
    hop = HOP_PER_IN * math.hypot(x1 - x0, y1 - y0) * arch
    return spot_matrix(centre_xy, x0 + (x1 - x0) * eased, y0 + (y1 - y0) * eased,
                       knock.turn_deg + WOBBLE_DEG * arch, hop)
