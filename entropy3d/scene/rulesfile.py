"""Reading rules data files (``rules/*.yaml``) into validated values.

The schemas live beside the code that uses the data (:mod:`entropy3d.systems.entropy_city.rulesdata` for the
game rules, :mod:`entropy3d.los.losrules` for line of sight) and report problems by key path; this
module reads the YAML and adds the line of each problem.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, TypeVar

from entropy3d.errors import RulesDataError
from entropy3d.resources import rules_file
from entropy3d.scene.yamlsource import line_of, read_yaml_with_lines
from entropy3d.systems.entropy_city.ruleset import Ruleset

T = TypeVar("T")

#: top-level keys that mark a file as rules data, and which kind (see :func:`rules_kind`)
GAME_RULES_KEYS = frozenset({"speeds", "bike_types", "bike_rules", "turn_templates"})
LOS_RULES_KEYS = frozenset({"sees_over", "top_down", "true_los"})


def rules_kind(data: Any) -> Literal["game", "los"] | None:
    """What a parsed YAML file is, by its top-level keys: ``"game"`` rules data (any of
    speeds, bike_types, bike_rules, turn_templates), ``"los"`` rules data (any of sees_over,
    top_down, true_los), or None (not rules data: a scene)."""
    if not isinstance(data, Mapping):
        return None
    if GAME_RULES_KEYS & set(data):
        return "game"
    if LOS_RULES_KEYS & set(data):
        return "los"
    return None


def read_rules_file(source: Path) -> tuple[dict, dict[str, int]]:
    """The top-level mapping of a rules data YAML file and the line of every key path."""
    data, lines = read_yaml_with_lines(source, RulesDataError)
    if not isinstance(data, dict):
        raise RulesDataError(source, [("", 1, "must be a mapping of sections")])
    return data, lines


def build_from_file(source: Path, build: Callable[[Mapping[str, Any], str], T],
                    read: tuple[dict, dict[str, int]] | None = None) -> T:
    """``build(mapping, source)`` over a rules file (already ``read`` or not), its
    RulesDataError given the line of every problem."""
    data, lines = read or read_rules_file(source)
    try:
        return build(data, str(source))
    except RulesDataError as error:
        raise RulesDataError(error.source, [(path, line if line is not None else line_of(lines, path), message)
                                            for path, line, message in error.problems]) from None


@functools.lru_cache(maxsize=8)
def _load_cached(path: str) -> Ruleset:
    source = Path(path)
    data, lines = read = read_rules_file(source)
    other = data.get("game_system")
    if other is not None and other != "entropy_city":
        # another game system's rules data would fail every Entropy City key; say what it is instead
        raise RulesDataError(source, [("game_system", line_of(lines, "game_system"),
                                       f"this is rules data of the {other!r} game system, not Entropy City's; "
                                       f"give Entropy City's rules data (the bundled rules/entropy_city.yaml, or "
                                       f"leave the option out); `entropy3d validate {source.name}` checks this file")])
    return build_from_file(source, Ruleset.from_mapping, read)


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load and validate a rules data file; the bundled Entropy City rules by default."""
    return _load_cached(str(Path(path).resolve() if path else rules_file()))
