"""The table's light as numbers: a sun, a weak cool fill and ambient light, in one place.

The renderers light their scenes with these (:func:`entropy3d.render.lighting.add_lights`), the
painted plan images cast their shadows away from :data:`SUN_DIRECTION`, and the table that never
moves carries the light baked into its vertex colours (:func:`lit_colours`): the lights are fixed
in the table's frame and its surfaces are matte, so a static vertex's lit colour is the same in
every frame. Baked, the software rasteriser draws those vertices without lighting them each frame
(a 720p table frame ~10-15% faster, issue 17) to the same pixels: Panda3D's fixed-function model,
per vertex, is what :func:`lit_colours` computes (ambient plus each directional light's colour
times the cosine of its angle to the normal, at least 0, times the material colour, clamped to 1).
Plain numpy, so pictures made without Panda3D (the glTF export, the share page) share the light.
"""

from __future__ import annotations

import numpy as np

#: direction towards the sun (x, y, z), from the south-east and high: roofs are brightest, south
#: walls half lit, west walls in shade, so every orientation reads differently in the iso view
SUN_DIRECTION = np.array([0.45, -0.35, 0.82]) / np.linalg.norm([0.45, -0.35, 0.82])
SUN_RGB = (0.78, 0.75, 0.70)
#: direction towards the fill light: from the sun's side (south-east) but lower, so it lifts the
#: walls facing south-east a little more than the roofs
FILL_DIRECTION = np.array([0.6, -0.5, 0.6]) / np.linalg.norm([0.6, -0.5, 0.6])
FILL_RGB = (0.12, 0.14, 0.18)
AMBIENT_RGB = (0.36, 0.37, 0.40)


def lit_colours(normals: np.ndarray, rgb) -> np.ndarray:
    """(N, 3) colours in [0, 1] of matte vertices of colour ``rgb`` whose unit normals are
    ``normals`` (N, 3), table frame, under the lights of :func:`add_lights`."""
    normals = np.asarray(normals, float).reshape(-1, 3)
    light = (np.asarray(AMBIENT_RGB)
             + np.maximum(normals @ SUN_DIRECTION, 0.0)[:, None] * np.asarray(SUN_RGB)
             + np.maximum(normals @ FILL_DIRECTION, 0.0)[:, None] * np.asarray(FILL_RGB))
    return np.clip(light * np.asarray(rgb, float)[:3], 0.0, 1.0)
