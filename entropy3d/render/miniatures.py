"""Miniatures as Panda3D nodes: a base, a bike in its gang's colour, a rider, a facing mark.

Each miniature is built once in its own frame (base centre at the origin, facing +x, standing on
z = 0) so that moving it for an animation is one transform: position (x, y, z) and heading
(Panda3D's H is counter-clockwise about +z, like ``Pose.facing_deg``).

The bundled bike meshes (:func:`entropy3d.scene.miniature.load_bike_model`, already in table
inches, z up) are drawn when the file exists: the ``bike`` bodywork in the gang colour, the base
in a dark shade of it, the rest in its authored colours. Without a file the solids of
:func:`~entropy3d.scene.miniature.miniature_shape` are drawn, which are also what line of sight and
physics use.
"""

from __future__ import annotations

import numpy as np
import trimesh
from panda3d.core import NodePath

from entropy3d.errors import MeshError
from entropy3d.geometry import Pose
from entropy3d.render.nodes import flat_normals, lit_triangles_node, mesh_node
from entropy3d.render.shapes import colour_rgb
from entropy3d.scene.miniature import BASE_THICKNESS_IN, load_bike_model, miniature_shape
from entropy3d.scene.schema import Model
from entropy3d.scene.table import Table

RIDER_RGB = colour_rgb("#2c2a2e")
NOSE_RGB = colour_rgb("#f4f1e8")
SMOOTH_DEG = 35.0


def darker(rgb, amount: float) -> np.ndarray:
    """``rgb`` mixed towards black by ``amount`` (0..1)."""
    return np.asarray(rgb, float) * (1.0 - amount)


def bike_parts(bike_type: str) -> dict[str, trimesh.Trimesh] | None:
    """The bundled bike model of ``bike_type`` facing +x at the origin, or None if there is none."""
    try:
        return load_bike_model(bike_type)
    except (MeshError, FileNotFoundError):
        return None


def _authored_colour_nodes(name: str, mesh: trimesh.Trimesh) -> list[NodePath]:
    """One node per authored face colour of ``mesh`` (lit colours come from materials)."""
    colours = np.asarray(mesh.visual.face_colors)[:, :3]
    unique, owner = np.unique(colours, axis=0, return_inverse=True)
    nodes = []
    for index, rgb in enumerate(unique):
        part = mesh.submesh([np.flatnonzero(owner.ravel() == index)], append=True)
        nodes.append(mesh_node(f"{name}-{index}", part, rgb / 255.0, SMOOTH_DEG))
    return nodes


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
    local = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), table.ruleset)
    root = NodePath(f"model:{model.id}")
    mesh_node("base", local.base, darker(gang_rgb, 0.6), smooth_angle_deg=40.0).reparent_to(root)
    nose = _nose_triangles(base.length, base.width, BASE_THICKNESS_IN + 0.004)
    lit_triangles_node("nose", nose, flat_normals(nose), NOSE_RGB).reparent_to(root)

    parts = bike_parts(model.bike) if use_models else None
    if parts is not None:
        for name, mesh in parts.items():
            if name == "base":
                continue
            if name == "bike":
                mesh_node(name, mesh, gang_rgb, SMOOTH_DEG).reparent_to(root)
            else:
                for node in _authored_colour_nodes(name, mesh):
                    node.reparent_to(root)
    else:
        mesh_node("bike", local.bike, gang_rgb).reparent_to(root)
        mesh_node("rider", local.rider, RIDER_RGB).reparent_to(root)
    return root
