"""A scene's game system: its name checked against the registry, its models' ``stats:`` checked by
the system's schema, and its rules data (``rules/<system.rules_file>.yaml``) read and validated.

Generic over :mod:`entropy3d.systems`: registering a system changes nothing here.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Mapping

from entropy3d.errors import RulesDataError, UnknownSystemError
from entropy3d.resources import rules_file
from entropy3d.scene.rulesfile import build_from_file
from entropy3d.scene.yamlsource import line_of
from entropy3d.systems import DEFAULT_SYSTEM, find_system, played_system, system_names
from entropy3d.systems.base import GameSystem

Problem = tuple[str, "int | None", str]


def system_problems(spec, lines: dict[str, int]) -> list[Problem]:
    """Problems of a validated scene spec's ``system:`` (a registered name) and of every model's
    ``stats:`` (that system's stats schema), each with its key path and line."""
    try:
        system = find_system(spec.system)
    except UnknownSystemError:
        return [("system", line_of(lines, "system"),
                 f"unknown game system {spec.system!r}; use one of {', '.join(system_names())} "
                 f"(default {DEFAULT_SYSTEM}; `entropy3d systems` says what each serves)")]
    problems = []
    for i, model in enumerate(spec.models):
        if model.vehicle is not None and not system.drives_vehicles:
            where = f"models[{i}].vehicle"
            problems.append((where, line_of(lines, where), f"{system.title} (system: {system.name}) drives no cars or "
                                                           "vans: give the model a `bike:` instead"))
        for path, _, message in system.stats_problems(model.stats):
            where = f"models[{i}].stats" + (f".{path}" if path and not path.startswith("[") else path)
            problems.append((where, line_of(lines, where), f"{message} ({system.title} stats, "
                                                           f"system: {system.name})"))
    if not problems and system.stats_rules_problems is not GameSystem.stats_rules_problems:
        # names the stats give that only the system's rules data knows (a weapon of its `weapons:`)
        loaded = load_system(system.name)
        index = {model.id: i for i, model in enumerate(spec.models)}
        for model_id, key, message in loaded.stats_rules_problems({m.id: loaded.stats_of(m.stats)
                                                                    for m in spec.models}):
            where = f"models[{index[model_id]}].stats.{key}"
            problems.append((where, line_of(lines, where), message))
    return problems


@functools.lru_cache(maxsize=16)
def _load_cached(name: str, path: str) -> GameSystem:
    return build_from_file(Path(path), find_system(name).from_mapping)


def load_system(name: str, path: str | Path | None = None) -> GameSystem:
    """The system registered as ``name`` with its rules data validated (the bundled
    ``rules/<rules_file>.yaml`` unless ``path`` is given); RulesDataError names file, line and key."""
    system = find_system(name)
    return _load_cached(name, str(Path(path).resolve() if path else rules_file(system.rules_file)))


def load_system_file(source: Path, read: tuple[dict, dict[str, int]]) -> GameSystem:
    """A system rules data file already read (``read_yaml_with_lines``), by its top-level
    ``game_system:`` key; RulesDataError names the file, line and key of every problem."""
    data, lines = read
    try:
        system = find_system(data.get("game_system"))
    except UnknownSystemError as error:
        raise RulesDataError(source, [("game_system", line_of(lines, "game_system"), str(error))]) from None
    return build_from_file(source, system.from_mapping, read)


def system_of(table, played: bool = False) -> GameSystem:
    """The game system of a loaded table, with its rules data. Entropy City's rules data is the
    table's own ruleset (the scene's ``rules:``). played: the rulebook whose game is played there
    instead (:func:`~entropy3d.systems.played_system`: the default one on the table of a system
    that only decides)."""
    system = played_system(table.spec.system) if played else find_system(table.spec.system)
    if system.rules_schema is type(table.ruleset.spec):
        return system(table.ruleset)
    return load_system(system.name)


def model_stats(table, system: GameSystem) -> Mapping[str, Any]:
    """Model id -> its validated stats in ``system`` (defaults filled in)."""
    return {model.id: system.stats_of(model.stats) for model in table.models}
