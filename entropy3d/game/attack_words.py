"""An attack as a player writes it, read the same way wherever it is written: a game script's
``attacks:`` entry and the answer typed in the viewer to a hand-played rider's attack question
(:class:`~entropy3d.game.hand.HandChooser`): ``TARGET [with WEAPON]``, a gun's split shots
``TARGET with pistol x2`` (EC-GUN-SPLIT), a kick ``TARGET with kick [own] [push N] [pivot D]``
(EC-MEL-KICK), a pass ``FRIEND with pass`` (EC-ACT-PASS). The words pick one of the attacks the
rules offer now (:meth:`~entropy3d.game.entropy_city_player.EntropyCityPlayer.attack_options`);
they decide no rule: an attack not offered is none.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from entropy3d.game.players import AttackOption
from entropy3d.systems.entropy_city.attacks import weapon_and_shots
from entropy3d.systems.entropy_city.kick import KICK, parse_kick


def attack_parts(attack: str) -> tuple[str, str]:
    """``TARGET [with WEAPON]`` as (target, weapon); weapon '' when not named."""
    target, _, weapon = (part.strip() for part in attack.partition(" with "))
    return target, weapon


def option_named(options: Sequence[AttackOption], said: str) -> AttackOption | None:
    """The option of ``options`` that ``said`` names, with its kick's choices or its gun's shots
    (``x2``), or None when no option is that attack. IllegalPlanError for a kick's words the rules
    do not read (:func:`~entropy3d.systems.entropy_city.kick.parse_kick`), ValueError for a bad ``xN``."""
    target, weapon = attack_parts(said)
    if weapon.split() and weapon.split()[0].lower() == KICK:  # "kick [own] [push N] [pivot D]"
        kick = parse_kick(weapon.split())
        return next((dataclasses.replace(o, kick=kick) for o in options if o.target == target and o.kind == KICK),
                    None)
    named, shots = weapon_and_shots(weapon)  # "pistol x2": the gun's shots split (EC-GUN-SPLIT)
    return next((dataclasses.replace(o, shots=shots) for o in options
                 if o.target == target and (not named or o.kind == named)), None)
