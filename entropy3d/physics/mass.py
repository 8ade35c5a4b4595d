"""Mass properties of the bodies a physics world is built from: metres, kilograms, kg m^2.

Plain functions on trimesh meshes and numpy arrays, apart from :mod:`entropy3d.physics.world`
so that the world module stays about placing bodies.
"""

from __future__ import annotations

import numpy as np
import trimesh

DEBRIS_DENSITY_PER_RISK = 60.0  #: kg/m^3 of a destructible's solid volume per risk level


def mass_properties(mesh_m: trimesh.Trimesh, mass: float) -> tuple[np.ndarray, np.ndarray]:
    """(centre of mass, inertia tensor about it) of a solid ``mesh_m`` (metres) of ``mass`` kg.

    PyBullet would give a mesh body a bounding-box inertia about the mesh origin instead."""
    mesh_m = mesh_m.copy()
    mesh_m.density = mass / max(mesh_m.volume, 1e-9)
    return np.asarray(mesh_m.center_mass), np.asarray(mesh_m.moment_inertia)


def principal_frame(inertia: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(principal moments, right-handed principal axes as matrix columns)."""
    moments, axes = np.linalg.eigh(inertia)
    if np.linalg.det(axes) < 0:
        axes[:, 2] *= -1
    return np.maximum(moments, 1e-6), axes


def quaternion_of(matrix: np.ndarray) -> list[float]:
    """The rotation ``matrix`` (3x3) as a quaternion in PyBullet's order (x, y, z, w)."""
    rotation = np.eye(4)
    rotation[:3, :3] = matrix
    w, x, y, z = trimesh.transformations.quaternion_from_matrix(rotation)
    return [x, y, z, w]


def debris_mass_kg(volume_m3: float, risk: int) -> float:
    """Mass of a destructible: risk 1 (a chair) is light, risk 3 (a table) heavy (EC-DEST-1)."""
    return float(volume_m3 * DEBRIS_DENSITY_PER_RISK * max(1, risk))
