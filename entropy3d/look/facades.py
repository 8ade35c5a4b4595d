"""Window rows on building walls, one row per storey, so height and storeys read at a glance.

Plain numpy over the scene's building outlines; the windows are thin quads standing just proud of
each wall, facing out, so they light with the wall they sit on.
"""

from __future__ import annotations

import numpy as np

from entropy3d.look.shapes import quad_triangles
from entropy3d.scene.schema import Building

WINDOW_WIDTH = 0.45
"""Inches (about 0.65 m depicted)."""
WINDOW_PITCH = 1.0
"""Inches between window centres along a wall."""
WINDOW_SILL, WINDOW_HEAD = 0.35, 0.8
"""Bottom and top of a window as fractions of the storey height."""
PROUD = 0.025
"""How far windows stand out of the wall, inches: enough for a coarse depth buffer."""
WINDOW_COLOUR = "#2b3440"
"""The glass: dark blue-grey, darker than any wall."""


def _outline_ccw(corners) -> np.ndarray:
    outline = np.asarray(corners, float)
    x, y = outline[:, 0], outline[:, 1]
    signed_area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return outline if signed_area > 0 else outline[::-1]


def building_windows(building: Building) -> np.ndarray:
    """Window quads of one building as outward-facing triangles (N, 3, 3), inches.

    Ruined buildings lose every third window (deterministically), which reads as broken.
    """
    outline = _outline_ccw(building.corners())
    quads = []
    for p, q in zip(outline, np.roll(outline, -1, axis=0)):
        length = float(np.linalg.norm(q - p))
        count = int((length - 0.3) // WINDOW_PITCH)
        if count < 1:
            continue
        along = (q - p) / length
        outward = np.array([along[1], -along[0]])
        first = (length - (count - 1) * WINDOW_PITCH) / 2
        for storey in range(building.storeys):
            floor = building.base_height + storey * building.storey_height
            bottom = floor + WINDOW_SILL * building.storey_height
            top = floor + WINDOW_HEAD * building.storey_height
            for k in range(count):
                if building.ruined and (k + storey) % 3 == 0:
                    continue
                centre = p + along * (first + k * WINDOW_PITCH) + outward * PROUD
                a = centre - along * WINDOW_WIDTH / 2
                b = centre + along * WINDOW_WIDTH / 2
                quads.append([(*a, bottom), (*b, bottom), (*b, top), (*a, top)])
    return quad_triangles(np.array(quads)) if quads else np.zeros((0, 3, 3))
