"""Static scenery as collision pieces: each part of a piece as convex hulls where that is its
shape, as a concave triangle mesh where it is not (vertices and faces in the part's units).

Plain functions on trimesh meshes, apart from :mod:`entropy3d.physics.world`, which builds
bodies from these pieces.
"""

from __future__ import annotations

import numpy as np
import trimesh
from scipy.spatial import ConvexHull, QhullError

#: a component with this many triangles or more is a detailed print: it may ride as its hull ...
PROXY_MIN_FACES = 10_000
#: ... when the hull strays no more than this from the drawn surface, inches (0.5 mm: print texture)
PROXY_TOLERANCE_IN = 0.02


def hull_deviation_in(component: trimesh.Trimesh, hull: trimesh.Trimesh, samples: int = 2000) -> float:
    """How far the convex ``hull`` strays from the drawn ``component``, inches: the largest
    distance to the component's surface of the hull's face centres and of ``samples`` points
    spread evenly over the hull (seeded: the same answer in every process)."""
    points = np.vstack([hull.triangles_center, trimesh.sample.sample_surface_even(hull, samples, seed=0)[0]])
    _, distances, _ = trimesh.proximity.closest_point(component, points)
    return float(np.max(distances))


def hull_corners(points: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The convex hull of ``points`` (V, 3) as its corners, in the order of ``points``, and its
    volume (the points' units cubed: 0 for a flat solid, which qhull hulls only joggled); None
    when qhull fails even joggled.

    The same corners as ``trimesh.convex.convex_hull`` (qhull's, options ``QbB Pp Qt``, else
    ``QJ``, sorted; tests/physics/test_physics_shapes.py checks it on every bundled mesh), without
    the mesh that trimesh builds, re-winds and processes around them: qhull is ~0.25 ms of its
    ~1.8 ms, paid for each of the ~200 solids of a bundled scene's meshes when its physics world
    is first built. The volume is summed over qhull's facets: it only weighs how much of its hull
    a solid fills."""
    try:
        try:
            hull = ConvexHull(points, qhull_options="QbB Pp Qt")
        except QhullError:
            hull = ConvexHull(points, qhull_options="QJ")
    except (QhullError, ValueError):
        return None
    a, b, c = (points[hull.simplices[:, k]] for k in range(3))
    inside = points[hull.vertices].mean(axis=0)
    volume = float(np.abs(np.einsum("ij,ij->i", np.cross(b - a, c - a), inside - a)).sum() / 6.0)
    return points[np.sort(hull.vertices)], volume


def convex_pieces(part: trimesh.Trimesh) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """A static part as collision pieces (vertices, faces or None when convex).

    Imported meshes often are several convex solids in one file (a trunk and a canopy, a wreck's
    body and cab): each connected component that fills its convex hull becomes that hull; so does a
    detailed one (``PROXY_MIN_FACES`` or more) whose hull strays no more than ``PROXY_TOLERANCE_IN``
    from it (a 3D-printed tile's surface texture), a collision proxy that costs no more to ride over
    than its shape needs; a truly concave component stays a triangle mesh (smoothed with
    ``GEOM_CONCAVE_INTERNAL_EDGE``)."""
    if part.is_convex:
        return [(np.asarray(part.vertices), None)]
    out = []
    for component in part.split(only_watertight=False):
        if len(component.vertices) < 4:
            continue  # a stray sliver (scene loading drops these; a part made in code may not)
        hull = hull_corners(np.asarray(component.vertices, float))
        if hull is None:  # not even a flat hull: nothing to collide with
            continue
        corners, volume = hull
        if component.is_watertight and volume > 0 and component.volume >= 0.97 * volume:
            out.append((corners, None))
        elif (len(component.faces) >= PROXY_MIN_FACES
              and hull_deviation_in(component, component.convex_hull) <= PROXY_TOLERANCE_IN):
            out.append((corners, None))  # a detailed print rides as its shape
        else:
            out.append((np.asarray(component.vertices), np.asarray(component.faces)))
    return out
