"""Game systems as plug-ins, registered by name (python-chess style: ``find_system("gang_battle")``).

Each system is a :class:`~entropy3d.systems.base.GameSystem` subclass in a module of its own,
with its rules data in ``rules/<rules_file>.yaml``. Adding one: write the module, add it to
:data:`SYSTEMS` below, write its rules data and its clause tests. Nothing in the physics, line of
sight, scene or render packages changes.
"""

from __future__ import annotations

from entropy3d.systems.base import GameSystem, Registry, UnknownSystemError
from entropy3d.systems.chase_vehicles import ChaseVehicles
from entropy3d.systems.entropy_city import EntropyCity
from entropy3d.systems.gang_battle import GangBattle
from entropy3d.systems.reference_cards import ReferenceCards
from entropy3d.systems.tenacity import TenacityTactics

#: every registered game system; the first is the default of a scene's ``system:``
SYSTEMS = Registry([EntropyCity, ChaseVehicles, TenacityTactics, GangBattle, ReferenceCards])

DEFAULT_SYSTEM = EntropyCity.name


def find_system(name: str) -> type[GameSystem]:
    """The system class registered as ``name``; UnknownSystemError lists the names there are."""
    return SYSTEMS.find(name)


def system_names() -> tuple[str, ...]:
    """The names a scene's ``system:`` may take, in registration order."""
    return SYSTEMS.names


__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "GameSystem", "UnknownSystemError", "find_system", "system_names"]
