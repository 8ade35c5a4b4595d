"""Tag's tests share the yard: the scene, its geometry, Tag's engine and the game's first state."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.systemrules import model_stats, system_of

YARD = Path(__file__).resolve().parents[2] / "data" / "tag_yard.yaml"


@pytest.fixture(scope="module")
def yard():
    """(table, geometry, engine, the first state) of tests/data/tag_yard.yaml."""
    table = load_scene(YARD)
    geometry = build_table_geometry(table)
    system = system_of(table)
    engine = system.engine(model_stats(table, system))
    return table, geometry, engine, engine.initial_state(table.initial_state(geometry.surface_height))
