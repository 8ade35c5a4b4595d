"""Destructible scenery knocked aside during a ride: which pieces an action moved, from where to
where, when, and where each stands at any moment of the ride.

A rider through a destructible that passes its test moves it speed x 2 inches, aside off its
line by default (EC-DEST-4, option ``knocked_piece``). The rules record where it ends up on the
``destructible`` event (``figures["item_moved_to"]``: its offset from where the scene put it,
inches) and when (``t_s``, seconds into the ride). Every picture of a replay moves the piece
the same way from that record: it leaves its spot at the hit and lands on the rules' spot
:data:`KNOCK_S` seconds of ride time later, struck hard and slowing as it lands
(:meth:`Knock.offset_at`). The film adds a hop and a wobble (:mod:`entropy3d.video.knocks`); the
share page and the glTF export key the same path (:meth:`Knock.path`).
"""

from __future__ import annotations

from dataclasses import dataclass

from entropy3d.game.records import ActivationRecord

#: seconds of ride time a knocked piece takes from the hit to where the rules put it
KNOCK_S = 0.35


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

    def progress(self, t_s: float) -> float:
        """How far through its flight the piece is ``t_s`` seconds into the ride: 0 until the
        hit, 1 from :data:`KNOCK_S` after it."""
        return min(1.0, max(0.0, (t_s - self.t_s) / KNOCK_S))

    def offset_at(self, t_s: float) -> tuple[float, float]:
        """The piece's (dx, dy) offset from the scene's placement ``t_s`` seconds into the ride,
        inches: eased out (1 - (1 - u)**2 of the way at progress u: struck hard, slowing as it
        lands)."""
        eased = 1.0 - (1.0 - self.progress(t_s)) ** 2
        (x0, y0), (x1, y1) = self.start, self.end
        return x0 + (x1 - x0) * eased, y0 + (y1 - y0) * eased

    def path(self, samples: int = 8) -> list[tuple[float, float, float]]:
        """(seconds into the ride, dx, dy) from the hit to the landing, ``samples`` + 1 points
        evenly in time: keys a picture interpolates between in straight lines (the share page,
        the glTF export) and still follows the eased flight to within a few hundredths of an inch."""
        times = [self.t_s + KNOCK_S * k / samples for k in range(samples + 1)]
        return [(t, *self.offset_at(t)) for t in times]


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


def spots_as_action_starts(activation: ActivationRecord, index: int) -> dict[str, tuple[float, float, float, bool]]:
    """Every moved piece's (dx, dy, turn_deg, removed) as the ``index``-th action of
    ``activation`` starts: the state before the activation with the knocks of its earlier
    actions applied (a piece knocked in the first action lies where it landed in the second)."""
    spots = {piece: (spot.dx, spot.dy, spot.turn_deg, spot.removed)
             for piece, spot in activation.state_before.scenery.items()}
    for k in range(index):
        for knock in knocks_in(activation, k):
            spots[knock.piece_id] = (*knock.end, knock.turn_deg, False)
    return spots
