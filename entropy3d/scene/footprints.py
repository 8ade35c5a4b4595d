"""Footprints: the table's convex parts seen from above (shapely outlines, table inches).

One place builds them for everyone who looks down on the table: the planner's
:class:`~entropy3d.scene.probe.SceneProbe`, line of sight's top-down check and the renderer's
sun shadows (which shear the corners along the sun first).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon

#: square inches: a convex outline enclosing no more than this is flat in plan view (a vertical sliver)
FLAT_AREA_IN2 = 1e-9


@dataclass(frozen=True, eq=False)
class Footprint:
    """One convex part of a piece seen from above."""

    piece_id: str
    """Id of the scene piece the part belongs to."""
    kind: str
    """The piece's kind (ground, zone, road, block, building, ramp, ...)."""
    terrain: str | None
    """Terrain name of the piece's top surface, None when it has none."""
    outline: Polygon
    """Convex outline in the table plane (inches); prepared for fast point queries by :func:`footprints_of`."""
    bottom: float
    """Lowest z of the part (inches)."""
    top: float
    """Highest z of the part (inches)."""
    plan_box: tuple[float, float, float, float]
    """The outline's (min x, min y, max x, max y), inches: shapely computes it anew at every ask."""


def plan_outline(points, min_area: float = FLAT_AREA_IN2) -> Polygon | None:
    """The convex outline of ``points`` ((N, 2) or (N, 3), inches) seen from above: the convex
    hull of their x, y; None when it encloses no more than ``min_area`` (flat in plan view)."""
    hull = MultiPoint(hull_candidates(np.asarray(points, float)[:, :2])).convex_hull
    return hull if isinstance(hull, Polygon) and hull.area > min_area else None


#: directions whose extreme points bound the polygon of :func:`hull_candidates`, counter-clockwise
HULL_FILTER_DIRECTIONS = np.array([[-1, 0], [-1, -1], [0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1]], float)


def hull_candidates(points: np.ndarray) -> np.ndarray:
    """The (N, 2) ``points`` without those strictly inside the polygon of their extreme points in
    eight directions (Akl-Toussaint): no such point can be a corner of their convex hull, so the
    hull is the same polygon, found without a shapely point per vertex of a 100k-vertex mesh. A
    point within rounding of the polygon's sides is kept; so is every point when the extreme
    points do not make a convex counter-clockwise polygon (ties)."""
    if len(points) < 64:
        return points
    corners = points[np.argmax(points @ HULL_FILTER_DIRECTIONS.T, axis=0)]
    corners = corners[np.any(corners != np.roll(corners, -1, axis=0), axis=1)]  # repeated corners once
    if len(corners) < 3:
        return points
    sides = np.roll(corners, -1, axis=0) - corners
    if np.any(sides[:, 0] * np.roll(sides, -1, axis=0)[:, 1] - sides[:, 1] * np.roll(sides, -1, axis=0)[:, 0] < 0):
        return points
    extent = float(np.ptp(points, axis=0).max()) or 1.0
    margin = 1e-9 * extent * extent
    inside = np.ones(len(points), bool)
    for corner, side in zip(corners, sides):
        inside &= side[0] * (points[:, 1] - corner[1]) - side[1] * (points[:, 0] - corner[0]) > margin
    return points[~inside]


def piece_footprints(piece) -> list[Footprint]:
    """The footprint of each convex part of a :class:`~entropy3d.scene.build.Piece`, parts flat in
    plan view left out (nothing can stand on them, nothing hides behind them)."""
    footprints = []
    for part in piece.parts:
        vertices = np.asarray(part.vertices)
        outline = plan_outline(vertices)
        if outline is not None:
            footprints.append(Footprint(piece.id, piece.kind, piece.terrain, outline,
                                        float(vertices[:, 2].min()), float(vertices[:, 2].max()),
                                        tuple(float(v) for v in outline.bounds)))
    return footprints


def footprints_of(geometry) -> list[Footprint]:
    """Footprints of every convex part of a :class:`~entropy3d.scene.build.TableGeometry`, their
    outlines prepared for fast point queries."""
    footprints = [footprint for piece in geometry.pieces for footprint in piece_footprints(piece)]
    for footprint in footprints:
        shapely.prepare(footprint.outline)
    return footprints
