"""Fixtures of the rules-engine tests: the real rules data, and scripted dice."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from entropy3d.systems.entropy_city.ruleset import Ruleset

RULES_FILE = Path(__file__).resolve().parents[3] / "rules" / "entropy_city.yaml"


def load_rules() -> Ruleset:
    with open(RULES_FILE, encoding="utf-8") as handle:
        return Ruleset.from_mapping(yaml.safe_load(handle), str(RULES_FILE))


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    return load_rules()


class ScriptedDice:
    """A stand-in for numpy.random.Generator that deals the given die faces in order, so the
    rulebook's worked examples can be replayed exactly. Fails loudly when it runs out."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.dealt = 0

    def integers(self, low, high, size=None):
        n = 1 if size is None else int(size)
        if self.dealt + n > len(self.faces):
            raise AssertionError(f"scripted dice ran out after {self.faces}")
        out = self.faces[self.dealt:self.dealt + n]
        self.dealt += n
        assert all(low <= f < high for f in out), f"face out of range {out}"
        return out[0] if size is None else out

    @property
    def exhausted(self) -> bool:
        return self.dealt == len(self.faces)


@pytest.fixture()
def dice():
    """Factory of scripted dice: ``dice([7, 8])``."""
    return ScriptedDice
