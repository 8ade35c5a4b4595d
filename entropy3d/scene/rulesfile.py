"""Reading rules data files (``rules/*.yaml``) into a :class:`~entropy3d.rules.Ruleset`."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from entropy3d.errors import RulesDataError
from entropy3d.resources import rules_file
from entropy3d.rules.ruleset import Ruleset


def read_rules_mapping(source: Path) -> dict:
    """The top-level mapping of a rules data YAML file; RulesDataError names the file otherwise."""
    try:
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise RulesDataError(source, [("", None, f"not valid YAML: {error}")]) from None
    if not isinstance(data, dict):
        raise RulesDataError(source, [("", None, "must be a mapping of sections")])
    return data


@functools.lru_cache(maxsize=8)
def _load_cached(path: str) -> Ruleset:
    return Ruleset.from_mapping(read_rules_mapping(Path(path)), path)


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load and validate a rules data file; the bundled Entropy City rules by default."""
    return _load_cached(str(Path(path).resolve() if path else rules_file()))
