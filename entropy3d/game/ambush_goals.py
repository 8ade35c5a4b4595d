"""What an automatic player's ambusher rides for (EC-TRAIT-AMBUSH, :mod:`entropy3d.systems.entropy_city.ambush`).

A failed test against its ambush leaves a rider surprised by the ambusher until the activation the
ambush took at once is over (+3 stress and dodge only against its attacks, EC-MEL-2): that rider,
not merely the nearest, is the one to ride at meanwhile. The reveal itself is the player's choice
made at set-up (the scene's ``reveal_on``; none: the first enemy to come near), read by the rules.
"""

from __future__ import annotations

from typing import Sequence

from entropy3d.systems.entropy_city.ambush import surprises
from entropy3d.systems.entropy_city.state import ModelState, State


def ambush_quarry(state: State, model: ModelState, rivals: Sequence[ModelState]) -> list[ModelState]:
    """``rivals`` narrowed to those ``model``'s ambush holds surprised, when it holds any; else all."""
    held = [rival for rival in rivals if surprises(model, rival)]
    return held or list(rivals)


__all__ = ["ambush_quarry"]
