"""What a shared page shows, as plain JSON-able data: the table's meshes, the miniatures and, for a
replay, one entry per ridden action (poses, trajectory, words, templates, sight lines).

Everything is computed here, in Python, from the same code the viewer and the video use (the
table geometry, :class:`~entropy3d.game.timeline.Timeline`, the plain-words formatter, the
turning templates, the LOS engine); the page's JavaScript only draws and interpolates. Lengths are
table inches (x right, y away, z up), headings degrees counter-clockwise from +x, times seconds.

Meshes travel as base64 little-endian arrays: positions quantised to int16 steps of ``q`` inches
(``q`` about 0.002" on a 48" table) and uint16/uint32 triangle indices; the page shades them flat.

The table looks as the film paints it (:mod:`entropy3d.look`): the two plan images of
:func:`~entropy3d.look.paint.paint_table` travel as JPEG and paint every top of a painted piece
(texture coordinates from plan position, as the film's), the walls darken at their foot
(:func:`~entropy3d.look.paint.wall_shade`), the buildings carry their windows
(:func:`~entropy3d.look.facades.building_windows`) and the table its wooden frame
(:mod:`entropy3d.look.frame`). What never moves travels as triangle soups with their light already
in their colours (:func:`~entropy3d.look.light.lit_colours`, as the film bakes it); what moves (the
miniatures, knocked-about scenery) the page lights with the same sun, fill and ambient light.
"""

from __future__ import annotations

import base64
import io
from collections import defaultdict

import numpy as np
import trimesh
from PIL import Image

from entropy3d.geometry import Pose
from entropy3d.look import light
from entropy3d.look.facades import WINDOW_COLOUR, building_windows
from entropy3d.look.frame import (
    CLIFF_BOTTOM,
    CLIFF_COLOUR,
    FRAME_COLOUR,
    FRAME_WIDTH,
    HAZARD_RED,
    HAZARD_WHITE,
    frame_meshes,
    hazard_band,
)
from entropy3d.look.paint import UP_NORMAL_Z, cut_walls, layer_of, paint_table, wall_shade
from entropy3d.look.shapes import colour_rgb
from entropy3d.scene.build import TableGeometry
from entropy3d.scene.miniature import miniature_colour_parts, miniature_shape
from entropy3d.scene.table import Table

#: piece kinds that lie on the table top, drawn in this order over each other (as the renderer does)
GROUND_KINDS = ("ground", "road", "zone")
#: decimals kept for poses and trajectories (a thousandth of an inch, of a second, of a degree)
DECIMALS = 3
#: trajectories are thinned to at most this many samples a second before they are written
SAMPLES_PER_SECOND = 30
#: the painted plan images' side in texels: 1024 across a 48" table is 21 texels an inch, more
#: than a phone's or a laptop's view of the whole table shows (a 2048 bake took 7 s and doubled
#: the page), and JPEG at this quality keeps the road markings' edges
PAINT_TEXELS = 1024
PAINT_JPEG_QUALITY = 85
#: the hazard band along a cliff edge stands this far over the ground (inches), under any kerb
HAZARD_LIFT = 0.04


def _b64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()).decode()


class MeshPacker:
    """Packs meshes into the page's compact form with one quantum ``q`` (inches per int16 step)."""

    def __init__(self, extent_in: float):
        self.q = max(extent_in, 1.0) / 32000.0

    @classmethod
    def for_table(cls, geometry: TableGeometry) -> "MeshPacker":
        """A packer whose range holds the table's pieces and its frame (:mod:`entropy3d.look.frame`)."""
        return cls(max(float(abs(geometry.bounds()).max()) + FRAME_WIDTH, abs(CLIFF_BOTTOM)))

    def quantised(self, points) -> np.ndarray:
        positions = np.round(np.asarray(points, float).reshape(-1, 3) / self.q)
        if np.abs(positions).max(initial=0) > 32767:
            raise ValueError("mesh outside the quantised range")
        return positions.astype(np.int16)

    def pack(self, mesh: trimesh.Trimesh) -> dict:
        positions = self.quantised(mesh.vertices)
        faces = np.asarray(mesh.faces)
        index_type = np.uint16 if len(positions) < 65536 else np.uint32
        return {"positions": _b64(positions), "indices": _b64(faces.astype(index_type).ravel()),
                "wide": index_type is np.uint32}

    def pack_soup(self, triangles: np.ndarray, colours: np.ndarray) -> dict:
        """Triangles (N, 3, 3) with a colour (0..1) at each corner (N, 3, 3), drawn as given (their
        light already in): positions as :meth:`pack`'s, colours as RGB bytes, no index."""
        rgb = np.round(np.clip(np.asarray(colours, float).reshape(-1, 3), 0, 1) * 255).astype(np.uint8)
        return {"positions": _b64(self.quantised(triangles)), "colours": _b64(rgb)}


def _merged(meshes: list[trimesh.Trimesh]) -> trimesh.Trimesh:
    return meshes[0] if len(meshes) == 1 else trimesh.util.concatenate(meshes)


class _Soup:
    """Triangles gathered with their baked corner colours, packed as one soup."""

    def __init__(self):
        self.triangles, self.colours = [], []

    def add(self, triangles: np.ndarray, colours: np.ndarray) -> None:
        if len(triangles):
            self.triangles.append(np.asarray(triangles, float).reshape(-1, 3, 3))
            self.colours.append(np.asarray(colours, float).reshape(-1, 3, 3))

    def add_lit(self, triangles: np.ndarray, rgb, shade: np.ndarray | None = None) -> None:
        """Matte triangles of colour ``rgb`` lit by the film's light, face by face (flat), each
        corner's light scaled by ``shade`` (N, 3) if given."""
        triangles = np.asarray(triangles, float).reshape(-1, 3, 3)
        lit = np.repeat(light.lit_colours(_face_normals(triangles), rgb)[:, None, :], 3, axis=1)
        self.add(triangles, lit if shade is None else lit * np.asarray(shade, float).reshape(-1, 3, 1))

    def packed(self, packer: MeshPacker) -> dict | None:
        if not self.triangles:
            return None
        return packer.pack_soup(np.concatenate(self.triangles), np.concatenate(self.colours))


def _face_normals(triangles: np.ndarray) -> np.ndarray:
    normal = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = np.linalg.norm(normal, axis=1, keepdims=True)
    return normal / np.where(length > 0, length, 1.0)


def jpeg_uri(image: np.ndarray) -> str:
    """An (rows, columns, 3) uint8 image as a JPEG data URI, its row 0 the JPEG's first row."""
    out = io.BytesIO()
    Image.fromarray(image).save(out, "JPEG", quality=PAINT_JPEG_QUALITY, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode()


def light_payload() -> dict:
    """The film's light (:mod:`entropy3d.look.light`), for what the page lights as it moves."""
    return {"ambient": list(light.AMBIENT_RGB),
            "sun": {"direction": np.round(light.SUN_DIRECTION, 4).tolist(), "rgb": list(light.SUN_RGB)},
            "fill": {"direction": np.round(light.FILL_DIRECTION, 4).tolist(), "rgb": list(light.FILL_RGB)}}


def table_payload(table: Table, geometry: TableGeometry, packer: MeshPacker) -> dict:
    """The table as the film paints it: the painted tops of ``ground`` and ``raised`` pieces (each
    to be textured by its plan image, ``paint``), the baked rest that never moves (walls, windows,
    frame, cliff bands) and the unpainted static pieces merged by colour (the page lights them);
    destructibles by id; the names of its cliff edges (EC-COL-EDGE: riding over one takes a bike
    out); ``hull``, corners around everything, which the page's camera frames."""
    paint = paint_table(table.spec, geometry, PAINT_TEXELS)
    tops = {"ground": _Soup(), "raised": _Soup()}
    baked = _Soup()
    layers: dict[str, list] = defaultdict(list)
    solids: dict[str, list] = defaultdict(list)
    movable = []
    for piece in geometry.pieces:
        layer = layer_of(piece)
        if piece.dynamic:
            movable.append({"id": piece.id, "colour": piece.colour, "mesh": packer.pack(piece.mesh),
                            "centre": [round(float(c), DECIMALS) for c in piece.mesh.bounds.mean(axis=0)[:2]]})
        elif layer is not None:  # as the film's painted_piece_node: tops from the image, walls shaded
            up = piece.mesh.face_normals[:, 2] > UP_NORMAL_Z
            tops[layer].add_lit(piece.mesh.triangles[up], (1.0, 1.0, 1.0))
            walls = cut_walls(piece.mesh.triangles[~up])
            baked.add_lit(walls, colour_rgb(piece.colour), wall_shade(walls, _face_normals(walls), geometry))
        elif piece.kind in GROUND_KINDS:
            layers[(GROUND_KINDS.index(piece.kind), piece.colour)].append(piece.mesh)
        else:
            solids[piece.colour].append(piece.mesh)
    for building in table.spec.buildings:
        baked.add_lit(building_windows(building), colour_rgb(WINDOW_COLOUR))
    edges = dict(table.spec.table.edges)
    wood, cliff = frame_meshes(geometry.width, geometry.depth, edges)
    body = [(wood, FRAME_COLOUR)] + ([(cliff, CLIFF_COLOUR)] if cliff else [])
    for boxes, colour in body:
        for box in boxes:
            baked.add_lit(box.triangles, colour_rgb(colour))
    bands = _Soup()  # unlit, as the film draws them
    for edge in sorted(edge for edge, kind in edges.items() if kind == "cliff"):
        for stripes, colour in zip(hazard_band(edge, geometry.width, geometry.depth, HAZARD_LIFT),
                                   (HAZARD_RED, HAZARD_WHITE)):
            bands.add(stripes, np.broadcast_to(colour_rgb(colour), stripes.shape))
    return {"width": geometry.width, "depth": geometry.depth,
            "paint": {name: jpeg_uri(getattr(paint, name)) for name in ("ground", "raised")},
            "painted": {name: soup.packed(packer) for name, soup in tops.items()},
            "baked": baked.packed(packer), "bands": bands.packed(packer),
            "ground": [{"layer": layer, "colour": colour, "mesh": packer.pack(_merged(meshes))}
                       for (layer, colour), meshes in sorted(layers.items())],
            "solids": [{"colour": colour, "mesh": packer.pack(_merged(meshes))} for colour, meshes in solids.items()],
            "destructibles": movable,
            "cliffs": sorted(edge for edge, kind in edges.items() if kind == "cliff"),
            "hull": _hull(geometry, wood + cliff)}


def _hull(geometry: TableGeometry, body: list[trimesh.Trimesh]) -> list[list[float]]:
    """The corners of the convex hull of the whole table (pieces and frame), inches: the page fits
    its camera's view around them."""
    points = np.concatenate([np.asarray(m.vertices, float) for m in [p.mesh for p in geometry.pieces] + body])
    hull = trimesh.convex.convex_hull(points)
    return np.round(np.asarray(hull.vertices, float), 2).tolist()


def miniatures_payload(table: Table, packer: MeshPacker) -> dict:
    """Each bike type once (its parts in the model's frame: facing +x, base centre at the origin;
    ``colour`` None is the bodywork to paint in the gang's colour), and each model's type, base,
    gang colour and name."""
    kinds, bases, models = {}, {}, []
    for model in table.models:
        base = table.base_of(model)
        base_key = f"{base.length:g}x{base.width:g}"
        if base_key not in bases:
            disc = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), table.ruleset, model.bike_type).base
            bases[base_key] = packer.pack(disc)
        armed = model.on_foot and model.rider.gun is not None
        kind = model.bike_type + ("_armed" if armed else "")
        if kind not in kinds:
            kinds[kind] = _parts(table, model.bike_type, armed, packer)
        models.append({"id": model.id, "name": model.rider.name or model.id, "gang": model.gang,
                       "colour": table.gang_colour(model.gang), "bike": kind, "base": base_key})
    return {"bikes": kinds, "bases": bases, "models": models}


def _parts(table: Table, kind: str, armed: bool, packer: MeshPacker) -> list[dict]:
    """A miniature's parts as every picture draws them (:func:`miniature_colour_parts`: its bike,
    vehicle or figure on foot), ``colour`` None for the bodywork painted in the gang's colour."""
    return [{"part": name, "colour": None if rgb is None else "#%02x%02x%02x" % tuple(round(255 * c) for c in rgb),
             "mesh": packer.pack(mesh)} for name, rgb, mesh in miniature_colour_parts(table.ruleset, kind, armed)]


def pose_list(pose: Pose) -> list[float]:
    """[x, y, z, heading] rounded, the page's pose."""
    return [round(float(v), DECIMALS) for v in (pose.x, pose.y, pose.z, pose.facing_deg)]


def thinned(trajectory: np.ndarray) -> np.ndarray:
    """A trajectory (t, x, y, z, heading rows) with at most :data:`SAMPLES_PER_SECOND` rows a second,
    its first and last rows kept, headings unwrapped so the page can interpolate them."""
    rows = np.array(trajectory, float).reshape(-1, 5)
    if not len(rows):  # an action that rides nothing (a shot, a tag): the page stands the model at its pose
        return rows
    rows[:, 4] = np.degrees(np.unwrap(np.radians(rows[:, 4])))
    slots = np.floor(rows[:, 0] * SAMPLES_PER_SECOND)
    keep = np.r_[True, slots[1:] != slots[:-1]]
    keep[-1] = True
    return np.round(rows[keep], DECIMALS)
