"""Mass properties of the bodies a physics world is built from: metres, kilograms, kg m^2.

Plain functions on trimesh meshes and numpy arrays, apart from :mod:`entropy3d.physics.world`
so that the world module stays about placing bodies.
"""

from __future__ import annotations

import math

import numpy as np
import trimesh

JACOBI_SWEEPS = 50  #: a 3x3 tensor needs a handful; the cap only guards against a NaN
DEBRIS_DENSITY_PER_RISK = 60.0  #: kg/m^3 of a destructible's solid volume per risk level


def mass_properties(mesh_m: trimesh.Trimesh, mass: float) -> tuple[np.ndarray, np.ndarray]:
    """(centre of mass, inertia tensor about it) of a solid ``mesh_m`` (metres) of ``mass`` kg.

    PyBullet would give a mesh body a bounding-box inertia about the mesh origin instead."""
    mesh_m = mesh_m.copy()
    mesh_m.density = mass / max(mesh_m.volume, 1e-9)
    return np.asarray(mesh_m.center_mass), np.asarray(mesh_m.moment_inertia)


def principal_frame(inertia: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(principal moments, right-handed principal axes as matrix columns) of a symmetric 3x3
    ``inertia``, by cyclic Jacobi rotations in Python floats.

    Not LAPACK: ``numpy.linalg.eigh`` gives axes whose last bits depend on the OpenBLAS kernel
    the CPU picks (a Haswell and an AVX-512 kernel differ), and those bits shape every piece of
    debris, so the same seed played a different game on another machine. Plain IEEE arithmetic
    and square roots round the same on every CPU. The moments come in the axes' order (an
    already diagonal tensor keeps its own axes), not sorted.
    """
    a = [[float(value) for value in row] for row in np.asarray(inertia, float)]
    axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    for _sweep in range(JACOBI_SWEEPS):
        if a[0][1] == 0.0 and a[0][2] == 0.0 and a[1][2] == 0.0:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if a[p][q] == 0.0:
                continue
            theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q])
            t = math.copysign(1.0, theta) / (abs(theta) + math.sqrt(theta * theta + 1.0))
            c = 1.0 / math.sqrt(t * t + 1.0)
            s = t * c
            for m in (a, axes):  # columns p and q of a and of the axes: times the rotation
                for row in m:
                    row[p], row[q] = c * row[p] - s * row[q], s * row[p] + c * row[q]
            a[p], a[q] = ([c * x - s * y for x, y in zip(a[p], a[q])],  # rows p and q of a
                          [s * x + c * y for x, y in zip(a[p], a[q])])
            a[p][q] = a[q][p] = 0.0  # what this rotation was chosen to zero
    moments = np.array([a[0][0], a[1][1], a[2][2]])
    return np.maximum(moments, 1e-6), np.array(axes)


def quaternion_of(matrix: np.ndarray) -> list[float]:
    """The rotation ``matrix`` (3x3) as a quaternion in PyBullet's order (x, y, z, w), by the
    direct formula (not trimesh's default eigen-solve, which rounds by the CPU's LAPACK kernel)."""
    rotation = np.eye(4)
    rotation[:3, :3] = matrix
    w, x, y, z = trimesh.transformations.quaternion_from_matrix(rotation, isprecise=True)
    return [float(x), float(y), float(z), float(w)]


def debris_mass_kg(volume_m3: float, risk: int) -> float:
    """Mass of a destructible: risk 1 (a chair) is light, risk 3 (a table) heavy (EC-DEST-1)."""
    return float(volume_m3 * DEBRIS_DENSITY_PER_RISK * max(1, risk))
