"""Mesh files (STL, OBJ, glTF/GLB) read with trimesh and placed on the table in inches.

STL and OBJ carry no units and trimesh's guess is wrong for small printed parts, so every mesh
piece declares ``units:``; the conversion to inches happens here, once.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import trimesh

from entropy3d.errors import MeshError
from entropy3d.scene.schema import MeshPiece
from entropy3d.units import INCHES_PER_UNIT

_Y_UP_SUFFIXES = {".gltf", ".glb"}
# glTF is Y-up; turn it Z-up (x stays, y -> z, z -> -y)
_Y_UP_TO_Z_UP = trimesh.transformations.rotation_matrix(np.pi / 2, [1, 0, 0])


def read_mesh_file(path: Path) -> trimesh.Trimesh:
    """Read every triangle of a mesh file into one Trimesh in the file's own units and axes.

    Uses ``trimesh.load_scene`` (glTF/OBJ may hold many nodes) and bakes the node transforms.
    """
    suffix = path.suffix.lower()
    if suffix not in (".stl", ".obj", ".gltf", ".glb", ".ply", ".off"):
        raise MeshError(path, [("", None, f"unsupported mesh format {suffix!r}; use STL, OBJ, glTF or GLB")])
    try:
        scene = trimesh.load_scene(str(path))
        mesh = scene.to_mesh() if hasattr(scene, "to_mesh") else scene.dump(concatenate=True)
    except Exception as error:  # trimesh raises many kinds on a broken file
        raise MeshError(path, [("", None, f"mesh file {path.name!r} does not parse: "
                                          f"{type(error).__name__}: {error}")]) from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise MeshError(path, [("", None, f"mesh file {path.name!r} holds no triangles")])
    if not np.all(np.isfinite(mesh.vertices)):
        raise MeshError(path, [("", None, f"mesh file {path.name!r} has non-finite vertices")])
    return mesh


def placement_matrix(piece: MeshPiece, up: str) -> np.ndarray:
    """4x4 transform from file coordinates to table inches: axes, units, scale, rotation, position."""
    matrix = np.eye(4)
    if up == "y":
        matrix = _Y_UP_TO_Z_UP @ matrix
    scale = np.broadcast_to(np.asarray(piece.scale, dtype=float), (3,)) * INCHES_PER_UNIT[piece.units]
    matrix = np.diag([*scale, 1.0]) @ matrix
    rx, ry, rz = np.radians(piece.rotation)
    rotation = trimesh.transformations.euler_matrix(rx, ry, rz, axes="sxyz")
    matrix = rotation @ matrix
    matrix[:3, 3] += np.asarray(piece.position, dtype=float)
    return matrix


def load_mesh_piece(piece: MeshPiece, path: Path) -> trimesh.Trimesh:
    """Read ``path`` and place it as the scene's ``piece`` says, in table inches (z up)."""
    mesh = read_mesh_file(path).copy()
    up = piece.up or ("y" if path.suffix.lower() in _Y_UP_SUFFIXES else "z")
    mesh.apply_transform(placement_matrix(piece, up))
    extents = mesh.extents
    if np.any(extents <= 0) and np.count_nonzero(extents) < 2:
        raise MeshError(path, [("", None, f"mesh file {path.name!r} is degenerate (extents {extents})")])
    return mesh
