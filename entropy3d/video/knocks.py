"""Destructible scenery knocked aside in the film, moved on screen when the bike hits it.

Which pieces an action knocked, and where each is at a moment of the ride, are
:mod:`entropy3d.game.knocks`' (the same for the film, the share page and the glTF export). The
film used to move the piece only when the activation was over, so the bike rode through a
standing sawhorse and the sawhorse jumped aside afterwards; here the piece leaves its spot at the
moment of the hit and lands on the rules' spot a fraction of a second later, with a hop and a
wobble so it reads as struck, not slid.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.game.knocks import Knock

#: the hop's height at its top, inches per inch the piece is moved (a 4" knock lifts it 0.6")
HOP_PER_IN = 0.15
#: the wobble about its upright axis at the hop's top, degrees (back to the rules' turn on landing)
WOBBLE_DEG = 25.0


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
    ride, as :func:`spot_matrix`'s transform: along :meth:`Knock.offset_at`'s path, lifted on a
    hop (a sine arch of :data:`HOP_PER_IN` per inch moved) with a wobble that settles back to its
    turn, both over the :data:`~entropy3d.game.knocks.KNOCK_S` seconds of its flight."""
    arch = math.sin(math.pi * knock.progress(t_s))
    (x0, y0), (x1, y1) = knock.start, knock.end
    hop = HOP_PER_IN * math.hypot(x1 - x0, y1 - y0) * arch
    return spot_matrix(centre_xy, *knock.offset_at(t_s), knock.turn_deg + WOBBLE_DEG * arch, hop)
