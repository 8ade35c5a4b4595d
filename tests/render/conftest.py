"""One small table and one shared renderer for the render tests (each frame costs ~0.1 s)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.scene import load_scene

SMALL_TABLE = Path(__file__).parents[1] / "data" / "small_table.yaml"
SIZE = (480, 320)


@pytest.fixture(scope="session")
def small_table():
    return load_scene(SMALL_TABLE)


@pytest.fixture(scope="session")
def renderer(small_table):
    from entropy3d.render import TableRenderer

    with TableRenderer(small_table, SIZE, backend="tiny") as shared:
        yield shared


@pytest.fixture()
def fresh_view(renderer, small_table):
    """The shared renderer back at the start poses, iso camera, no overlays, after the test too."""

    def reset():
        renderer.clear_overlays()
        for model in small_table.models:
            renderer.show_model(model.id)
            z = renderer.geometry.surface_height([model.position[:2]])[0]
            renderer.place_model(model.id, small_table.start_pose(model, float(z)))
        renderer.scene.show()
        renderer.set_camera("iso")

    reset()
    yield renderer
    reset()


def luminance(image: np.ndarray) -> np.ndarray:
    return image[..., :3].astype(float) @ np.array([0.299, 0.587, 0.114])


def colour_near(image: np.ndarray, pixel, rgb_hex: str, radius: int = 10, tolerance: float = 0.07) -> bool:
    """Whether a pixel within ``radius`` of ``pixel`` (column, row) has the hue of ``rgb_hex``:
    its chromaticity (r, g, b divided by their sum) within ``tolerance`` of the colour's, and
    saturated enough that grey cannot match."""
    target = np.array([int(rgb_hex[i:i + 2], 16) for i in (1, 3, 5)], float)
    target_chroma = target / target.sum()
    col, row = int(round(pixel[0])), int(round(pixel[1]))
    patch = image[max(0, row - radius):row + radius + 1, max(0, col - radius):col + radius + 1].astype(float)
    sums = patch.sum(axis=2, keepdims=True)
    chroma = patch / np.maximum(sums, 1.0)
    close = np.linalg.norm(chroma - target_chroma, axis=2) < tolerance
    saturated = (patch.max(axis=2) - patch.min(axis=2)) > 30
    return bool(np.any(close & saturated))
