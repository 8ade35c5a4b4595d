"""Miniatures as Panda3D nodes: a base (slate top, gang-coloured rim), a bike in its gang's
colour, a rider, a facing mark (a figure on foot: :func:`~entropy3d.scene.miniature.figure_model`
on its round base).

Each miniature is built once in its own frame (base centre at the origin, facing +x, standing on
z = 0) so that moving it for an animation is one transform: position (x, y, z) and heading
(Panda3D's H is counter-clockwise about +z, like ``Pose.facing_deg``).

The bundled bike and vehicle meshes (the file :func:`entropy3d.scene.miniature.miniature_model_path`
chooses, already in table inches, z up) are drawn when the file exists: the bodywork in the gang
colour, the base's rim in it too, the rest in its authored colours. Without a file the solids of
:func:`~entropy3d.scene.miniature.miniature_shape` are drawn, which are also what line of sight and
physics use.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
from panda3d.core import NodePath

from entropy3d.errors import MeshError
from entropy3d.geometry import BaseShape, Pose
from entropy3d.look.shapes import colour_rgb
from entropy3d.render.nodes import flat_normals, lit_triangles_node, mesh_node, shaded_triangles
from entropy3d.scene.miniature import (
    BASE_THICKNESS_IN,
    base_disc,
    figure_colour_parts,
    miniature_model_path,
    miniature_shape,
    model_file_colour_parts,
)
from entropy3d.scene.schema import Model
from entropy3d.scene.table import Table
from entropy3d.systems.entropy_city.ruleset import Ruleset

RIDER_RGB = colour_rgb("#2c2a2e")
#: a base is painted as a hobbyist paints one: its top a neutral dark slate that no terrain or gang
#: shares, its rim in the gang's colour (which side a model is on still reads from any angle)
BASE_TOP_RGB = colour_rgb("#45413c")
NOSE_RGB = colour_rgb("#f4f1e8")
SMOOTH_DEG = 35.0
#: bases and figures on foot are smoothed across edges sharper than this (degrees)
BASE_SMOOTH_DEG = 40.0
#: a wreck (EC-WOUND) is its miniature burnt out: colours scaled to a sooty grey (r, g, b, a)...
WRECK_COLOUR_SCALE = (0.32, 0.30, 0.29, 1.0)
#: ...and lying over on its side this far (degrees about its long axis)
WRECK_LEAN_DEG = 24.0
#: a taken-out figure that leaves no wreck lies on its side: rolled this far about its facing,
#: raised this much (inches, half a 25 mm base) so its base stays above the ground
DOWN_ROLL_DEG = 80.0
DOWN_RAISE_IN = 0.5
#: a ghost (the rules' pose beside the physical one) is drawn at this opacity
GHOST_ALPHA = 0.4


@functools.lru_cache(maxsize=32)
def model_part_arrays(path: Path) -> tuple[tuple[str, tuple | None, np.ndarray, np.ndarray], ...] | None:
    """A bundled miniature mesh file (:func:`miniature_model_path`; facing +x at the origin) as
    drawable pieces ``(name, rgb, triangles, normals)``, one per authored colour; ``rgb`` None marks
    the bodywork to paint in the gang colour. None when the file is missing. Cached: smoothing the
    normals is the slow part of building a miniature.
    """
    try:
        parts = model_file_colour_parts(path)
    except (MeshError, FileNotFoundError):
        return None
    pieces = []
    for name, rgb, part in parts:
        triangles, normals = shaded_triangles(part, SMOOTH_DEG)
        pieces.append((name, rgb, triangles.astype(np.float32), normals.astype(np.float32)))
    return tuple(pieces)


@functools.lru_cache(maxsize=32)
def base_arrays(base: BaseShape) -> tuple[np.ndarray, np.ndarray]:
    """The base disc of ``base`` at the origin, facing +x, as drawable (triangles, normals).
    Cached by shape: a table's miniatures share a few bases, and smoothing a disc's normals was
    most of the time it took to build a miniature."""
    return shaded_triangles(base_disc(base, Pose(0.0, 0.0, 0.0, 0.0)), BASE_SMOOTH_DEG)


_FIGURE_PARTS: dict[tuple[float, bool], tuple[tuple[str, tuple | None, np.ndarray, np.ndarray], ...]] = {}


def figure_part_arrays(ruleset: Ruleset, armed: bool) -> tuple[tuple[str, tuple | None, np.ndarray, np.ndarray], ...]:
    """A figure on foot (:func:`figure_colour_parts`) as drawable pieces ``(name, rgb, triangles,
    normals)``, the form of :func:`model_part_arrays`; cached by the figure's height (inches), the
    only thing of the rules data its shape depends on, and whether it is armed."""
    key = (float(ruleset.figure_height_in), bool(armed))
    if key not in _FIGURE_PARTS:
        _FIGURE_PARTS[key] = tuple((name, rgb, *shaded_triangles(mesh, BASE_SMOOTH_DEG))
                                   for name, rgb, mesh in figure_colour_parts(ruleset, armed=armed))
    return _FIGURE_PARTS[key]


def _nose_triangles(length: float, width: float, z: float) -> np.ndarray:
    """A small arrow head at the front of the base, showing the facing from above."""
    tip = np.array([0.5 * length - 0.04, 0.0, z])
    back_left = np.array([0.5 * length - 0.3 * width, 0.14 * width, z])
    back_right = np.array([0.5 * length - 0.3 * width, -0.14 * width, z])
    return np.array([[tip, back_left, back_right]])


def build_miniature_node(table: Table, model: Model, use_models: bool = True) -> NodePath:
    """One miniature in its own frame, coloured by its gang; ``use_models=False`` draws the
    simple solids even when a bike model exists."""
    gang_rgb = colour_rgb(table.gang_colour(model.gang))
    base = table.base_of(model)
    root = NodePath(f"model:{model.id}")
    base_node = root.attach_new_node("base")
    triangles, normals = base_arrays(base)
    rim = np.abs(normals[:, :, 2]).mean(axis=1) < 0.5
    lit_triangles_node("top", triangles[~rim], normals[~rim], BASE_TOP_RGB).reparent_to(base_node)
    lit_triangles_node("rim", triangles[rim], normals[rim], gang_rgb).reparent_to(base_node)
    nose = _nose_triangles(base.length, base.width, BASE_THICKNESS_IN + 0.004)
    lit_triangles_node("nose", nose, flat_normals(nose), NOSE_RGB).reparent_to(root)

    path = miniature_model_path(table.ruleset, model.bike_type)
    pieces = model_part_arrays(path) if use_models and path is not None else None
    if path is None:  # a figure on foot
        pieces = figure_part_arrays(table.ruleset, armed=model.rider.gun is not None)
    rider = root.attach_new_node("rider")  # its parts move together when he is thrown off
    if pieces is not None:
        for name, rgb, triangles, normals in pieces:
            node = lit_triangles_node(name, triangles, normals, gang_rgb if rgb is None else rgb)
            node.reparent_to(rider if name == "rider" and not model.on_foot else root)
    else:
        local = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), table.ruleset, model.bike_type)
        mesh_node("bike", local.bike, gang_rgb).reparent_to(root)
        mesh_node("rider", local.rider, RIDER_RGB).reparent_to(rider)
    return root
