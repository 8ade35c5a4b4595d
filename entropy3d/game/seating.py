"""Who plays each gang of a game, for any rulebook: a rulebook's :attr:`SEATING
<entropy3d.systems.base.GameSystem.SEATING>` seats its players from a :class:`Seating`.

Most rulebooks seat their automatic player at every gang (:func:`seat_automatic_players`).
Entropy City's seating (:func:`entropy3d.game.entropy_city_player.seat_players`) gives each gang
a character and a look-ahead ride, or the script's activations where a script plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np


@dataclass(frozen=True)
class Seating:
    """What a rulebook may seat its players with.

    table, geometry: the loaded scene and its geometry. riding: the game's producer (it rides
    every action; a player may ride a plan through it once more before choosing it); producer:
    its name (``physics`` or ``geometric``). seed: the players' own seed sequence, spawned from the
    game's seed beside the dice's, so the players' choices never move the dice. script, script_path,
    script_lines: a loaded game script, its file and its lines (None, None, {} when none plays).
    hands: gang -> the :class:`~entropy3d.game.hand.HandSeat` of a person playing it ({}: the
    rulebook's own players at every gang). kinds: gang -> the kind of automatic player that plays it
    (:mod:`entropy3d.game.player_kinds`; a gang left out plays ``basic``, today's player)."""

    table: Any
    geometry: Any
    riding: Any
    producer: str
    seed: np.random.SeedSequence
    script: Any = None
    script_path: Path | None = None
    script_lines: Mapping = field(default_factory=dict)
    hands: Mapping[str, Any] = field(default_factory=dict)
    kinds: Mapping[str, str] = field(default_factory=dict)


def seat_automatic_players(system, engine, seating: Seating) -> dict[str, Any]:
    """Each gang of the scene played by the rulebook's automatic player, ``auto(gang, engine)``,
    but a gang a person plays (``seating.hands``): each of its actions typed in the rulebook's
    words (:class:`~entropy3d.game.hand.HandPlayer`)."""
    from entropy3d.game.player_kinds import BASIC, check_kind

    others = sorted({check_kind(kind) for kind in seating.kinds.values()} - {BASIC})
    if others:  # the rulebook's own automatic player is its only kind
        from entropy3d.errors import EntropyError

        raise EntropyError(f"{system.title} has only its own automatic player ({BASIC}), not {', '.join(others)}")
    auto = system.player("auto")
    players = {gang: auto(gang, engine) for gang in seating.table.spec.gangs}
    if seating.hands:
        from entropy3d.game.hand import HandPlayer

        players.update({gang: HandPlayer(seat, players[gang], system.action_examples or ("walk: straight 3",))
                        for gang, seat in seating.hands.items()})
    return players
