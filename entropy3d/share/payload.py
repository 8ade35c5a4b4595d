"""What a shared page shows, as plain JSON-able data: the table's meshes, the miniatures and, for a
replay, one entry per ridden action (poses, trajectory, words, templates, sight lines).

Everything is computed here, in Python, from the same code the viewer and the video use (the
table geometry, :class:`~entropy3d.game.timeline.Timeline`, the plain-words formatter, the
turning templates, the LOS engine); the page's JavaScript only draws and interpolates. Lengths are
table inches (x right, y away, z up), headings degrees counter-clockwise from +x, times seconds.

Meshes travel as base64 little-endian arrays: positions quantised to int16 steps of ``q`` inches
(``q`` about 0.002" on a 48" table) and uint16/uint32 triangle indices; the page shades them flat.
"""

from __future__ import annotations

import base64
from collections import defaultdict

import numpy as np
import trimesh

from entropy3d.geometry import Pose
from entropy3d.scene.build import TableGeometry
from entropy3d.scene.miniature import figure_colour_parts, load_bike_model, miniature_shape
from entropy3d.scene.table import Table

#: piece kinds that lie on the table top, drawn in this order over each other (as the renderer does)
GROUND_KINDS = ("ground", "road", "zone")
#: decimals kept for poses and trajectories (a thousandth of an inch, of a second, of a degree)
DECIMALS = 3
#: trajectories are thinned to at most this many samples a second before they are written
SAMPLES_PER_SECOND = 30


def _b64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()).decode()


class MeshPacker:
    """Packs meshes into the page's compact form with one quantum ``q`` (inches per int16 step)."""

    def __init__(self, extent_in: float):
        self.q = max(extent_in, 1.0) / 32000.0

    def pack(self, mesh: trimesh.Trimesh) -> dict:
        positions = np.round(np.asarray(mesh.vertices, float) / self.q)
        if np.abs(positions).max(initial=0) > 32767:
            raise ValueError("mesh outside the quantised range")
        faces = np.asarray(mesh.faces)
        index_type = np.uint16 if len(positions) < 65536 else np.uint32
        return {"positions": _b64(positions.astype(np.int16)), "indices": _b64(faces.astype(index_type).ravel()),
                "wide": index_type is np.uint32}


def _merged(meshes: list[trimesh.Trimesh]) -> trimesh.Trimesh:
    return meshes[0] if len(meshes) == 1 else trimesh.util.concatenate(meshes)


def table_payload(table: Table, geometry: TableGeometry, packer: MeshPacker) -> dict:
    """The table: ground layers in drawing order, raised pieces merged by colour, destructibles by
    id, and the names of its cliff edges (EC-COL-EDGE: riding over one takes a bike out)."""
    layers: dict[str, list] = defaultdict(list)
    solids: dict[str, list] = defaultdict(list)
    movable = []
    for piece in geometry.pieces:
        if piece.dynamic:
            movable.append({"id": piece.id, "colour": piece.colour, "mesh": packer.pack(piece.mesh),
                            "centre": [round(float(c), DECIMALS) for c in piece.mesh.bounds.mean(axis=0)[:2]]})
        elif piece.kind in GROUND_KINDS:
            layers[(GROUND_KINDS.index(piece.kind), piece.colour)].append(piece.mesh)
        else:
            solids[piece.colour].append(piece.mesh)
    return {"width": geometry.width, "depth": geometry.depth, "top": round(float(geometry.bounds()[1][2]), DECIMALS),
            "ground": [{"layer": layer, "colour": colour, "mesh": packer.pack(_merged(meshes))}
                       for (layer, colour), meshes in sorted(layers.items())],
            "solids": [{"colour": colour, "mesh": packer.pack(_merged(meshes))} for colour, meshes in solids.items()],
            "destructibles": movable,
            "cliffs": sorted(edge for edge, kind in dict(table.spec.table.edges).items() if kind == "cliff")}


def miniatures_payload(table: Table, packer: MeshPacker) -> dict:
    """Each bike type once (its parts in the model's frame: facing +x, base centre at the origin;
    ``colour`` None is the bodywork to paint in the gang's colour), and each model's type, base,
    gang colour and name."""
    kinds, bases, models = {}, {}, []
    for model in table.models:
        base = table.base_of(model)
        base_key = f"{base.length:g}x{base.width:g}"
        if base_key not in bases:
            disc = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), table.ruleset, model.on_foot).base
            bases[base_key] = packer.pack(disc)
        kind = model.bike if not model.on_foot else "on_foot" + ("_armed" if model.rider.gun else "")
        if kind not in kinds:
            kinds[kind] = _figure_parts(table, model.rider.gun is not None, packer) if model.on_foot \
                else _bike_parts(model.bike, packer)
        models.append({"id": model.id, "name": model.rider.name or model.id, "gang": model.gang,
                       "colour": table.gang_colour(model.gang), "bike": kind, "base": base_key})
    return {"bikes": kinds, "bases": bases, "models": models}


def _figure_parts(table: Table, armed: bool, packer: MeshPacker) -> list[dict]:
    """A figure on foot's parts (:func:`figure_colour_parts`), as :func:`_bike_parts` gives a bike's."""
    return [{"part": name, "colour": None if rgb is None else "#%02x%02x%02x" % tuple(round(255 * c) for c in rgb),
             "mesh": packer.pack(mesh)} for name, rgb, mesh in figure_colour_parts(table.ruleset, armed)]


def _bike_parts(bike_type: str, packer: MeshPacker) -> list[dict]:
    parts = []
    for name, mesh in load_bike_model(bike_type).items():
        if name == "base":  # the rules' base shape is drawn instead, in a shade of the gang colour
            continue
        colours = np.asarray(mesh.visual.face_colors)[:, :3]
        unique, owner = np.unique(colours, axis=0, return_inverse=True)
        groups = [(None, np.arange(len(mesh.faces)))] if name == "bike" else \
            [("#%02x%02x%02x" % tuple(int(c) for c in rgb), np.flatnonzero(owner.ravel() == k))
             for k, rgb in enumerate(unique)]
        for colour, faces in groups:
            parts.append({"part": name, "colour": colour, "mesh": packer.pack(mesh.submesh([faces], append=True))})
    return parts


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
