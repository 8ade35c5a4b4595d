"""Sun shadows as flat polygons: plain functions over the table's convex parts (shapely, numpy).

The software rasteriser has no shaders, so there is no shadow map; instead every convex part is
projected along the sun onto a flat receiving surface (the ground, a block's sidewalk, a roof, a
deck), where the hull of its projected corners is its shadow. Drawn as a translucent dark decal,
this reads as a real cast shadow and shows at a glance how high things stand.
"""

from __future__ import annotations

import numpy as np
import shapely
import trimesh
from shapely.geometry import MultiPolygon, Polygon

from entropy3d.scene.build import TableGeometry
from entropy3d.scene.footprints import plan_outline

#: kinds of piece whose flat top receives shadows besides the ground
RECEIVER_KINDS = ("block", "building", "platform")
#: kinds of piece lying flat on the ground, which cast no shadow
FLAT_KINDS = ("ground", "zone", "road")


def cast_shadow(parts, sun: np.ndarray, height: float) -> Polygon | MultiPolygon:
    """The shadow of convex ``parts`` (trimeshes, inches) on the plane z = ``height``, lit from
    the unit direction ``sun`` (towards the sun, z > 0). Whatever lies below the plane casts
    nothing onto it: corners are lifted to the plane first, which is exact for upright prisms."""
    outlines = []
    for part in parts:
        corners = np.asarray(part.vertices, float)
        if corners[:, 2].max() <= height:
            continue
        lift = np.maximum(corners[:, 2], height) - height
        flat = corners[:, :2] - np.outer(lift, sun[:2] / sun[2])
        hull = plan_outline(flat, min_area=1e-6)
        if hull is not None:
            outlines.append(hull)
    return shapely.unary_union(outlines) if outlines else Polygon()


def top_outline(mesh: trimesh.Trimesh, tolerance: float = 1e-3) -> Polygon | MultiPolygon:
    """The outline (2D, inches) of a mesh's upward faces at its highest level."""
    top = mesh.bounds[1][2]
    upward = (mesh.face_normals[:, 2] > 0.99) & (np.abs(mesh.triangles[:, :, 2] - top).max(axis=1) < tolerance)
    triangles = [Polygon(tri[:, :2]) for tri in mesh.triangles[upward]]
    return shapely.unary_union([t for t in triangles if t.area > 1e-9]) if triangles else Polygon()


def shadow_reaches(bounds: np.ndarray, height: float, sun: np.ndarray, area: np.ndarray) -> bool:
    """Whether a part with these ``bounds`` (inches, as trimesh gives them) can shade any of
    ``area`` (its x, y low and high corners) on the plane z = ``height``: its shadow there lies
    within its plan box stretched away from the sun by its height above the plane. A print of
    100k vertices is hulled only for the tops its shadow can reach (it was 94 of a table's 137 ms
    of shadows, hulled for all 15)."""
    (x0, y0, _), (x1, y1, top) = bounds
    (low_x, low_y), (high_x, high_y) = area
    lift = max(top - height, 0.0)
    reach_x, reach_y = -lift * sun[0] / sun[2], -lift * sun[1] / sun[2]
    return (min(x0, x0 + reach_x) <= high_x and max(x1, x1 + reach_x) >= low_x
            and min(y0, y0 + reach_y) <= high_y and max(y1, y1 + reach_y) >= low_y)


def table_shadows(geometry: TableGeometry, sun: np.ndarray, min_rise: float = 0.05) -> list[tuple[float, object]]:
    """Every sun shadow on the table as ``(height, polygon)``: one on the ground (z = 0) and one
    per raised flat top (sidewalks, roofs, decks) that something taller darkens.

    A piece casts onto a surface when its top stands more than ``min_rise`` above it; a surface
    never shadows itself. Destructible (dynamic) pieces cast none: the shadows are drawn once,
    and a bench that physics knocks away must not leave its shadow behind.
    """
    solids = [p for p in geometry.pieces if p.kind not in FLAT_KINDS and not p.dynamic]
    table = shapely.box(0, 0, geometry.width, geometry.depth)
    result = []
    ground = cast_shadow([part for p in solids if p.top > min_rise for part in p.parts], sun, 0.0)
    if not ground.is_empty:
        result.append((0.0, ground.intersection(table)))
    for receiver in solids:
        if receiver.kind not in RECEIVER_KINDS:
            continue
        height = receiver.top
        area = receiver.mesh.bounds[:, :2]
        casters = [part for p in solids if p is not receiver and p.top > height + min_rise for part in p.parts
                   if shadow_reaches(part.bounds, height, sun, area)]
        if not casters:
            continue
        shade = cast_shadow(casters, sun, height).intersection(top_outline(receiver.mesh))
        if shade.area > 1e-4:
            result.append((height, shade))
    return result


def polygon_triangles(shape, z: float) -> np.ndarray:
    """A shapely polygon or multipolygon (or collection) as up-facing triangles (N, 3, 3) at ``z``."""
    polygons = list(getattr(shape, "geoms", [shape]))
    triangles = []
    for polygon in polygons:
        if not isinstance(polygon, Polygon) or polygon.is_empty or polygon.area < 1e-6:
            continue
        vertices, faces = trimesh.creation.triangulate_polygon(polygon, engine="earcut")
        flat = vertices[faces]
        triangles.append(np.concatenate([flat, np.full(flat.shape[:2] + (1,), z)], axis=2))
    return np.concatenate(triangles) if triangles else np.zeros((0, 3, 3))
