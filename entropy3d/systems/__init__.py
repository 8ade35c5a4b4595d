"""Game systems as plug-ins, registered by name (python-chess style: ``find_system("gang_battle")``).

Each system is a :class:`~entropy3d.systems.base.GameSystem` subclass, in a folder of its own when
it plays a game (its engine, player and words beside it: ``tag/``, ``gang_battle/``), with its
rules data in ``rules/<rules_file>.yaml``. Adding one (``docs/new-rulebook.md``): write the folder
and the rules data, add one line to :data:`SYSTEMS` below (``"name": "module:Class"``, imported
when first looked up) and its clause tests. Nothing else changes.
"""

from __future__ import annotations

from entropy3d.systems.base import GameSystem, Registry, UnknownSystemError

#: every registered game system by name; the first is the default of a scene's ``system:``
SYSTEMS = Registry({
    "entropy_city": "entropy3d.systems.entropy_city.system:EntropyCity",
    "chase_vehicles": "entropy3d.systems.chase_vehicles:ChaseVehicles",
    "tenacity_tactics": "entropy3d.systems.tenacity:TenacityTactics",
    "gang_battle": "entropy3d.systems.gang_battle:GangBattle",
    "reference_cards": "entropy3d.systems.reference_cards:ReferenceCards",
    "tag": "entropy3d.systems.tag:Tag",
})

DEFAULT_SYSTEM = SYSTEMS.names[0]


def find_system(name: str) -> type[GameSystem]:
    """The system class registered as ``name``; UnknownSystemError lists the names there are."""
    return SYSTEMS.find(name)


def played_system(name: str) -> type[GameSystem]:
    """The rulebook whose game is played on a scene of system ``name``: that system when it plays
    a game of its own, else the default one (:data:`DEFAULT_SYSTEM`, Entropy City), whose game a
    system that only decides (the reference cards) judges as it goes."""
    system = find_system(name)
    return system if system.plays() else find_system(DEFAULT_SYSTEM)


def system_names() -> tuple[str, ...]:
    """The names a scene's ``system:`` may take, in registration order."""
    return SYSTEMS.names


__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "GameSystem", "UnknownSystemError", "find_system", "played_system",
           "system_names"]
