"""The static table as a Panda3D scene graph: pieces, frame, cliff edges, markings, grid, shadows.

Everything on the table's ground (the ground itself, zones, roads, road markings, cliff hazard
bands, sun shadows, the inch grid) lies within 0.03" of z = 0. A depth buffer cannot order layers
that close from a camera 100" away, so these are drawn first, in a fixed order, passing the depth
test always (painter's algorithm); they still write depth, and every raised piece is then drawn over
them with the normal depth test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import trimesh
from panda3d.core import DepthTestAttrib, DepthWriteAttrib, NodePath, RenderAttrib, RenderState

from entropy3d.look import shapes
from entropy3d.look.facades import WINDOW_COLOUR, building_windows
from entropy3d.look.frame import (
    CLIFF_COLOUR,
    EDGES,
    FRAME_COLOUR,
    HAZARD_RED,
    HAZARD_WHITE,
    frame_meshes,
    hazard_band,
)
from entropy3d.look.light import SUN_DIRECTION
from entropy3d.look.paint import UP_NORMAL_Z, TablePaint, cut_walls, layer_of, wall_shade
from entropy3d.look.shadows import polygon_triangles, table_shadows
from entropy3d.look.shapes import colour_rgb
from entropy3d.render.nodes import (
    baked_triangles_node,
    flat_normals,
    image_texture,
    mesh_node,
    painted_triangles_node,
    unlit_node,
)
from entropy3d.scene.build import Piece, TableGeometry
from entropy3d.scene.schema import SceneSpec

#: ground-layer kinds, drawn in this order before anything else
GROUND_KINDS = ("ground", "road", "zone")
MARKING_COLOUR = "#e7d36b"
SHADOW_RGBA = (0.0, 0.02, 0.06, 0.32)
#: shadows on raised tops float this far above them (inches) to win the depth test
RAISED_SHADOW_LIFT = 0.015
GRID_FAINT_RGBA = (1.0, 1.0, 1.0, 0.16)
GRID_STRONG_RGBA = (1.0, 1.0, 1.0, 0.42)


@dataclass(frozen=True)
class GridStyle:
    """The inch grid: faint lines every ``spacing`` inches, strong ones every ``major`` lines."""

    spacing: float = 1.0
    """Inches between faint lines."""
    major: int = 6
    """Every this many lines is strong (6 lines = 6 inches)."""
    faint_width: float = 0.025
    """Faint line width, inches."""
    strong_width: float = 0.06
    """Strong line width, inches."""


def ground_layer_state(backend: str) -> RenderState:
    """Depth state of the ground layers: always drawn, always writing depth.

    OpenGL writes no depth while the depth test is off, so GL gets an always-passing test; the
    software rasteriser does not honour "always" (it z-fights) but does write depth with the test
    off, so it gets that.
    """
    test = DepthTestAttrib.make(RenderAttrib.M_always if backend == "gl" else RenderAttrib.M_none)
    return RenderState.make(test, DepthWriteAttrib.make(DepthWriteAttrib.M_on))


def _ground_layer(node: NodePath, order: int, state: RenderState) -> NodePath:
    node.set_bin("background", order)
    node.set_state(node.get_state().compose(state))
    return node


def painted_piece_node(piece: Piece, paint: TablePaint, texture, geometry: TableGeometry) -> NodePath:
    """A static piece of a painted kind: its tops textured from ``paint``, its walls in its plain
    colour, darkening towards their foot (:func:`~entropy3d.look.paint.wall_shade`)."""
    node = NodePath(piece.id)
    up = piece.mesh.face_normals[:, 2] > UP_NORMAL_Z
    if up.any():
        tops, normals = _texture_sized(piece.mesh.triangles[up], piece.mesh.face_normals[up])
        texcoords = paint.texcoords(tops.reshape(-1, 3)).reshape(-1, 3, 2)
        painted_triangles_node("tops", tops, normals, texcoords, texture).reparent_to(node)
    if (~up).any():
        walls = cut_walls(piece.mesh.triangles[~up])
        normals = flat_normals(walls)[:, 0]
        baked_triangles_node("walls", walls, normals, colour_rgb(piece.colour),
                             shade=wall_shade(walls, normals, geometry)).reparent_to(node)
    return node


#: the longest edge (inches) of a painted top's triangle: the software rasteriser maps a texture
#: across a triangle without perspective correction, so a table-wide triangle seen from the side
#: slides its paint by inches (a Corners zone of the corners yard was drawn 1.5" off its place and
#: kinked along the diagonal). At 4" the zones sit on their outlines at 640x384; 2" cost a 720p
#: frame of the crossroads 50% more time (0.39 s -> 0.60 s), 4" 6% (0.41 s -> 0.43 s)
PAINTED_EDGE_IN = 4.0


def _texture_sized(triangles: np.ndarray, normals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``triangles`` (N, 3, 3) cut until no edge is over :data:`PAINTED_EDGE_IN`, with their
    faces' ``normals`` (N, 3) carried to the pieces: the same surface in smaller triangles."""
    vertices, faces = np.asarray(triangles, float).reshape(-1, 3), np.arange(3 * len(triangles)).reshape(-1, 3)
    cut, cut_faces, index = trimesh.remesh.subdivide_to_size(vertices, faces, PAINTED_EDGE_IN, max_iter=12,
                                                             return_index=True)
    return np.asarray(cut)[cut_faces], np.asarray(normals)[index]


def build_table_node(spec: SceneSpec, geometry: TableGeometry, grid: GridStyle | None = GridStyle(),
                     shadows: bool = True, backend: str = "tiny",
                     paint: TablePaint | None = None) -> tuple[NodePath, dict[str, NodePath]]:
    """The whole static table under one node, and each piece's node by piece id; ``backend``
    (tiny or gl) picks the ground layers' depth state (:func:`ground_layer_state`). With
    ``paint`` (:func:`~entropy3d.look.paint.paint_table`) the ground, roads, blocks, roofs,
    decks and ramps are drawn painted, and the shadows and road markings come with the paint.

    Piece nodes are kept apart (not flattened together) so a renderer can move destructible
    scenery that physics knocked about. Everything else never moves and carries its light baked
    in (:mod:`.lighting`); destructibles are lit as they turn.
    """
    root = NodePath("table")
    pieces: dict[str, NodePath] = {}
    layer = ground_layer_state(backend)
    textures = {} if paint is None else {name: image_texture(f"paint-{name}", getattr(paint, name))
                                         for name in ("ground", "raised")}
    for piece in geometry.pieces:
        if paint is not None and layer_of(piece) is not None:
            node = painted_piece_node(piece, paint, textures[layer_of(piece)], geometry)
        else:
            smooth = 40.0 if piece.kind == "destructible" else 0.0
            node = mesh_node(piece.id, piece.mesh, colour_rgb(piece.colour), smooth, baked=not piece.dynamic)
        if piece.kind in GROUND_KINDS:
            _ground_layer(node, GROUND_KINDS.index(piece.kind), layer)
        node.reparent_to(root)
        pieces[piece.id] = node

    for building in spec.buildings:  # under its building's node: a building cut away takes its windows
        triangles = building_windows(building)
        if len(triangles):
            panes = baked_triangles_node("windows", triangles, flat_normals(triangles)[:, 0],
                                         colour_rgb(WINDOW_COLOUR))
            panes.reparent_to(pieces.get(building.id, root))

    width, depth = geometry.width, geometry.depth
    edges = dict(spec.table.edges)
    wood, cliff = frame_meshes(width, depth, edges)
    mesh_node("frame", trimesh.util.concatenate(wood), colour_rgb(FRAME_COLOUR), baked=True).reparent_to(root)
    if cliff:
        mesh_node("cliff", trimesh.util.concatenate(cliff), colour_rgb(CLIFF_COLOUR), baked=True).reparent_to(root)

    markings = [shapes.dashed_centre_line(road.points, 1.0, 0.8, 0.12, 0.0)
                for road in spec.roads if road.markings and paint is None]
    markings = [m for m in markings if len(m)]
    if markings:
        node = unlit_node("road-markings", np.concatenate(markings), (*colour_rgb(MARKING_COLOUR), 1.0))
        _ground_layer(node, 3, layer).reparent_to(root)

    if shadows and paint is None:  # painted, the table carries its shadows in its paint
        for height, shade in table_shadows(geometry, SUN_DIRECTION):
            triangles = polygon_triangles(shade, height + (0.0 if height == 0.0 else RAISED_SHADOW_LIFT))
            if not len(triangles):
                continue
            node = unlit_node(f"shadow-{height:.2f}", triangles, SHADOW_RGBA)
            if height == 0.0:
                _ground_layer(node, 4, layer)
            else:  # on a raised top: drawn after the solids, depth-tested, a hair above the surface
                node.set_bin("fixed", 0)
            node.reparent_to(root)

    if grid is not None:
        faint = shapes.grid_strips(width, depth, grid.spacing, grid.faint_width, 0.0, skip_every=grid.major)
        strong = shapes.grid_strips(width, depth, grid.spacing, grid.strong_width, 0.0, every=grid.major)
        if len(faint):
            _ground_layer(unlit_node("grid-faint", faint, GRID_FAINT_RGBA), 5, layer).reparent_to(root)
        if len(strong):
            _ground_layer(unlit_node("grid-strong", strong, GRID_STRONG_RGBA), 6, layer).reparent_to(root)

    for edge in EDGES:
        if edges.get(edge) != "cliff":
            continue
        red, white = hazard_band(edge, width, depth)
        _ground_layer(unlit_node(f"cliff-{edge}-red", red, (*colour_rgb(HAZARD_RED), 1.0)), 7, layer).reparent_to(root)
        _ground_layer(unlit_node(f"cliff-{edge}-white", white, (*colour_rgb(HAZARD_WHITE), 1.0)),
                      7, layer).reparent_to(root)
    return root, pieces
