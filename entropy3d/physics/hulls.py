"""Static scenery as collision pieces: each part of a piece as convex hulls where that is its
shape, as a concave triangle mesh where it is not (vertices and faces in the part's units).

Plain functions on trimesh meshes, apart from :mod:`entropy3d.physics.world`, which builds
bodies from these pieces.
"""

from __future__ import annotations

import numpy as np
import trimesh

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
        try:
            hull = component.convex_hull
        except Exception:  # qhull on a flat component: it has no volume to collide with
            continue
        if component.is_watertight and hull.volume > 0 and component.volume >= 0.97 * hull.volume:
            out.append((np.asarray(hull.vertices), None))
        elif len(component.faces) >= PROXY_MIN_FACES and hull_deviation_in(component, hull) <= PROXY_TOLERANCE_IN:
            out.append((np.asarray(hull.vertices), None))  # a detailed print rides as its shape
        else:
            out.append((np.asarray(component.vertices), np.asarray(component.faces)))
    return out
