"""Hand-built tables with known line-of-sight answers, written as scene YAML under tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
import trimesh
import yaml

from entropy3d.los import LosWorld
from entropy3d.scene import load_scene
from entropy3d.scene.miniature import BASE_THICKNESS_IN

DATA = Path(__file__).parent / "data"
#: the street of data/street.yaml: the viewer's x, and where the side-on target stands
EYE_X, TARGET_X, TARGET_Y = 4.0, 20.0, 12.0


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


def silhouette(table):
    """Side-on rectangles of the target's bike and rider: (y_lo, y_hi, z_lo, z_hi) each."""
    rules = table.ruleset
    base = rules.base_for("cruiser")
    bike_z = (BASE_THICKNESS_IN, BASE_THICKNESS_IN + rules.bike_height_in)
    rider_lo = BASE_THICKNESS_IN + 0.6 * rules.bike_height_in
    bike = (TARGET_Y - 0.425 * base.length, TARGET_Y + 0.425 * base.length, *bike_z)
    # the rider's part that shows above the bike (it is narrower than the bike, so the rest overlaps)
    rider = (TARGET_Y - 0.15 * base.length, TARGET_Y + 0.15 * base.length, bike_z[1],
             rider_lo + rules.rider_height_in)
    return bike, rider


def visible_share(table, z_cut=-1.0, y_lo=-1e9, y_hi=1e9) -> float:
    """Share of the side-on silhouette above ``z_cut`` and between ``y_lo`` and ``y_hi``."""
    def area(rect, clipped=True):
        a0, a1, z0, z1 = rect
        if clipped:
            a0, a1, z0 = max(a0, y_lo), min(a1, y_hi), max(z0, z_cut)
        return max(0.0, a1 - a0) * max(0.0, z1 - z0)

    rects = silhouette(table)
    return sum(area(r) for r in rects) / sum(area(r, clipped=False) for r in rects)
