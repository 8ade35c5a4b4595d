"""The table's body as plain triangles: its wooden frame, the dark wall under a cliff edge and the
red and white hazard band along it, in table inches (no Panda3D).

The film (:mod:`entropy3d.render.table_scene`) and the share page draw the same body from these.
"""

from __future__ import annotations

import numpy as np
import trimesh

from entropy3d.look import shapes

FRAME_WIDTH = 0.9
FRAME_LIP = 0.08
TABLE_THICKNESS = 1.6
#: how far a cliff edge's dark wall falls below the table top, inches
CLIFF_BOTTOM = -TABLE_THICKNESS - 1.0
FRAME_COLOUR = "#3b2f27"
CLIFF_COLOUR = "#171514"
HAZARD_RED, HAZARD_WHITE = "#c8281e", "#f2efe6"
#: the hazard band along a cliff edge: its width and stripe length, and how far inside the edge
#: its middle runs (inches)
HAZARD_BAND_IN, HAZARD_STRIPE_IN, HAZARD_INSET_IN = 0.4, 1.0, 0.2

EDGES = ("south", "east", "north", "west")


def edge_segment(edge: str, width: float, depth: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start, end, outward unit vector) of a table edge; south is y = 0, west is x = 0."""
    corners = {"south": ((0, 0), (width, 0), (0, -1)), "east": ((width, 0), (width, depth), (1, 0)),
               "north": ((width, depth), (0, depth), (0, 1)), "west": ((0, depth), (0, 0), (-1, 0))}
    start, end, outward = corners[edge]
    return np.array(start, float), np.array(end, float), np.array(outward, float)


def frame_box(lo, hi) -> trimesh.Trimesh:
    """An axis-aligned box as a trimesh with unshared corners (for flat shading)."""
    triangles = shapes.box_triangles(lo, hi)
    return trimesh.Trimesh(triangles.reshape(-1, 3), np.arange(len(triangles) * 3).reshape(-1, 3), process=False)


def frame_meshes(width: float, depth: float, edges: dict[str, str]) -> tuple[list, list]:
    """The table's body and frame: a raised wooden lip along open edges; along ``cliff`` edges no
    lip, the body cut flush and a dark wall falling below the table top. Returns (wooden boxes,
    cliff boxes), trimeshes in inches."""
    f, t = FRAME_WIDTH, 0.06
    is_cliff = {edge: edges.get(edge) == "cliff" for edge in EDGES}
    body_lo = (0.0 if is_cliff["west"] else -f, 0.0 if is_cliff["south"] else -f, -TABLE_THICKNESS)
    body_hi = (width if is_cliff["east"] else width + f, depth if is_cliff["north"] else depth + f, -0.5)
    wood, cliff = [frame_box(body_lo, body_hi)], []
    lips = {"south": ((-f, -f), (width + f, 0)), "north": ((-f, depth), (width + f, depth + f)),
            "west": ((-f, 0), (0, depth)), "east": ((width, 0), (width + f, depth))}
    walls = {"south": ((-f, -t), (width + f, 0)), "north": ((-f, depth), (width + f, depth + t)),
             "west": ((-t, -f), (0, depth + f)), "east": ((width, -f), (width + t, depth + f))}
    for edge in EDGES:
        if is_cliff[edge]:
            (x0, y0), (x1, y1) = walls[edge]
            cliff.append(frame_box((x0, y0, CLIFF_BOTTOM), (x1, y1, -0.005)))
        else:
            (x0, y0), (x1, y1) = lips[edge]
            wood.append(frame_box((x0, y0, -0.5), (x1, y1, FRAME_LIP)))
    return wood, cliff


def hazard_band(edge: str, width: float, depth: float, z: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The warning band just inside a cliff edge as (red stripes, white stripes), triangles
    (N, 3, 3) facing up at ``z``."""
    start, end, outward = edge_segment(edge, width, depth)
    inset = -outward * HAZARD_INSET_IN
    return shapes.hazard_stripes(start + inset, end + inset, HAZARD_BAND_IN, HAZARD_STRIPE_IN, z)
