"""Hand-built tables with known line-of-sight answers, written as scene YAML under tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
import trimesh
import yaml

from entropy3d.los import LosWorld
from entropy3d.scene import load_scene

DATA = Path(__file__).parent / "data"


def street(tmp_path: Path, name: str = "street", models=None, **sections) -> Path:
    """The open street (tests/los/data/street.yaml) with extra scene sections added."""
    spec = yaml.safe_load((DATA / "street.yaml").read_text())
    if models is not None:
        spec["models"] = models
    for key, items in sections.items():
        spec[key] = spec.get(key, []) + items
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return path


def write_box_stl(path: Path, size_mm, corner_mm=(0.0, 0.0, 0.0)) -> Path:
    """An axis-aligned box STL in millimetres with its low corner at ``corner_mm``."""
    box = trimesh.creation.box(extents=size_mm)
    box.apply_translation([c + s / 2 for c, s in zip(corner_mm, size_mm)])
    box.export(path)
    return path


@pytest.fixture
def world_of():
    """Load a scene file into a LosWorld."""
    return lambda path, **kwargs: LosWorld(load_scene(path), **kwargs)
