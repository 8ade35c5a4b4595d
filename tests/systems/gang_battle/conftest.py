"""The gang battle tests share the rulebook: the bundled ``rules/gang_battle.yaml`` as a system."""

from __future__ import annotations

import pytest

from entropy3d.scene.systemrules import load_system


@pytest.fixture(scope="module")
def gang():
    """The gang battle game system with the bundled rules data."""
    return load_system("gang_battle")
