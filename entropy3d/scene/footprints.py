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


def plan_outline(points, min_area: float = FLAT_AREA_IN2) -> Polygon | None:
    """The convex outline of ``points`` ((N, 2) or (N, 3), inches) seen from above: the convex
    hull of their x, y; None when it encloses no more than ``min_area`` (flat in plan view)."""
    hull = MultiPoint(np.asarray(points, float)[:, :2]).convex_hull
    return hull if isinstance(hull, Polygon) and hull.area > min_area else None


def piece_footprints(piece) -> list[Footprint]:
    """The footprint of each convex part of a :class:`~entropy3d.scene.build.Piece`, parts flat in
    plan view left out (nothing can stand on them, nothing hides behind them)."""
    footprints = []
    for part in piece.parts:
        vertices = np.asarray(part.vertices)
        outline = plan_outline(vertices)
        if outline is not None:
            footprints.append(Footprint(piece.id, piece.kind, piece.terrain, outline,
                                        float(vertices[:, 2].min()), float(vertices[:, 2].max())))
    return footprints


def footprints_of(geometry) -> list[Footprint]:
    """Footprints of every convex part of a :class:`~entropy3d.scene.build.TableGeometry`, their
    outlines prepared for fast point queries."""
    footprints = [footprint for piece in geometry.pieces for footprint in piece_footprints(piece)]
    for footprint in footprints:
        shapely.prepare(footprint.outline)
    return footprints
