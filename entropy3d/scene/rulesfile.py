"""Reading rules data files (``rules/*.yaml``) into a :class:`~entropy3d.rules.Ruleset`."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from entropy3d.errors import RulesDataError
from entropy3d.resources import rules_file
from entropy3d.rules.ruleset import Ruleset


@functools.lru_cache(maxsize=8)
def _load_cached(path: str) -> Ruleset:
    source = Path(path)
    try:
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise RulesDataError(source, [("", None, f"not valid YAML: {error}")]) from None
    if not isinstance(data, dict):
        raise RulesDataError(source, [("", None, "must be a mapping of sections")])
    return Ruleset.from_mapping(data, str(source))


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load and validate a rules data file; the bundled Entropy City rules by default."""
    return _load_cached(str(Path(path).resolve() if path else rules_file()))
