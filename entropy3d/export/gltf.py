"""A table, its miniatures and a replay's motion as one glTF 2.0 binary file (``.glb``).

glTF is Y up, right-handed, in metres (glTF 2.0 spec, 3.4 "Coordinate system and units"), which
is what Blender's importer and web viewers expect. The table speaks inches, x right, y away, z
up; one conversion (:data:`TABLE_TO_GLTF`) turns table x, y, z into glTF x, z, -y.

DECISION: the file is the *physical* table, 1 table inch = 0.0254 m (a 48" table is 1.2192 m
wide, an oval base 75 x 42 mm, EC-BASE), because the users who open it are modelling and
printing terrain for that table. The depicted world's scale (``scale.metres_per_inch`` in the
rules data, ~1.42 m per table inch) is kept in the file's ``asset.extras`` for who wants the
city at life size (scale by metres_per_inch / 0.0254, ~56x).

Every scene piece is a node named by its scene id, under a ``table pieces`` group; destructibles
stand under ``destructible scenery`` with their origin at their centre, bikes (``model ID``)
under ``miniature models`` with their
origin at the centre of the base bottom, so that a replay's motion
(:mod:`entropy3d.export.motion`) is one translation, one rotation about +Y and one visibility
(scale 0 when off the table) per node: one animation named after the replay, in depicted
seconds.

The table looks as the film paints it (:mod:`entropy3d.export.painted`): a painted piece's node
holds its tops, textured from the film's plan-view paint (road markings, materials' grain, soft
shadows), with its walls (``ID/walls``) and a building's windows (``ID/windows``) as child nodes.
Materials are matte glTF PBR named for what they cover: a painted top by its terrain and colour
("asphalt #3b3d42"), walls by their piece's kind ("building walls #9c8f80"), "window glass", a
mesh or destructible by what it is ("park_tree #4a7a35"), a miniature's parts by gang.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import trimesh

from entropy3d.core.scenery import ScenerySpot
from entropy3d.errors import MeshError
from entropy3d.export import hex_rgb
from entropy3d.export.motion import Motion, Track, replay_motion
from entropy3d.export.painted import (
    PAINT_TEXELS,
    add_paint_textures,
    is_painted,
    matte,
    painted_parts,
    window_part,
)
from entropy3d.game.replay import Replay
from entropy3d.geometry import Pose
from entropy3d.look.paint import TablePaint, layer_of, paint_table
from entropy3d.outputs import write_atomic
from entropy3d.scene.build import TableGeometry
from entropy3d.scene.miniature import miniature_colour_parts, miniature_shape
from entropy3d.scene.table import Table
from entropy3d.systems.entropy_city.state import State
from entropy3d.units import INCHES_PER_UNIT

#: glTF metres per table inch: the physical table (see the module's DECISION)
METRES_PER_TABLE_INCH = 1.0 / INCHES_PER_UNIT["m"]

#: table inches (x right, y away, z up) to glTF metres (x right, y up, z towards the viewer)
TABLE_TO_GLTF = np.array([[1.0, 0.0, 0.0, 0.0],
                          [0.0, 0.0, 1.0, 0.0],
                          [0.0, -1.0, 0.0, 0.0],
                          [0.0, 0.0, 0.0, 1.0]]) @ np.diag([METRES_PER_TABLE_INCH] * 3 + [1.0])

RIDER_COLOUR = (0.17, 0.16, 0.18)
#: how much darker than its gang's colour a base is (the films paint a slate top with a gang rim;
#: a glTF base is one material, so it keeps the shade that says whose it is)
BASE_SHADE = 0.4
#: group nodes; a space is never in a scene id, so these never clash with a piece's node
PIECES, SCENERY, MINIATURES = "table pieces", "destructible scenery", "miniature models"


#: an authored mesh is smoothed across edges whose faces meet at less than this (degrees) and
#: split at sharper ones, as the renderer shades the bike models (render/miniatures.SMOOTH_DEG)
SMOOTH_DEG = 35.0

def model_node(model_id: str) -> str:
    """The node name of a miniature (apart from piece ids, which may be the same words)."""
    return f"model {model_id}"

_FLOAT = 5126  # glTF componentType FLOAT


def gltf_points(points_in) -> np.ndarray:
    """Table points (..., 3) in inches as glTF points in metres."""
    points = np.asarray(points_in, float)
    return points @ TABLE_TO_GLTF[:3, :3].T


def heading_quaternions(headings_deg) -> np.ndarray:
    """(N, 4) glTF rotations (x, y, z, w) of table headings: a turn counter-clockwise about table
    +z is the same turn about glTF +Y."""
    half = np.radians(np.asarray(headings_deg, float)) / 2.0
    zeros = np.zeros_like(half)
    return np.column_stack([zeros, np.sin(half), zeros, np.cos(half)])


def material_name(piece) -> str:
    """What a piece's material is called: a surface by its terrain ("asphalt", "concrete"); a
    mesh or a destructible by what it is, its id without the number that tells copies apart
    ("park_tree" for park_tree_3; a tree's riding terrain, concrete, says nothing of its look)."""
    if piece.kind == "mesh" or piece.dynamic:
        return re.sub(r"_\d+$", "", piece.id.split("/")[0])
    return piece.terrain or piece.kind


def _in_gltf(mesh: trimesh.Trimesh, material, offset_in=(0.0, 0.0, 0.0),
             flat: bool = True) -> trimesh.Trimesh:
    """A copy of ``mesh`` (table inches) moved by ``-offset_in``, in glTF axes and metres.
    flat: every face its own vertices, so that boxes and prisms shade flat (shared corners would
    average the normals of faces at right angles); else smooth within :data:`SMOOTH_DEG`."""
    mesh = trimesh.Trimesh(vertices=np.asarray(mesh.vertices) - np.asarray(offset_in, float),
                           faces=mesh.faces, process=False)
    if flat:
        mesh.unmerge_vertices()
    else:  # smooth, but corners split where faces meet sharper than the renderer smooths: a welded
        # mesh's thin part shares corners between faces back to back, whose normals would cancel
        mesh = trimesh.graph.smooth_shade(mesh, angle=np.radians(SMOOTH_DEG), facet_minarea=None)
    mesh.apply_transform(TABLE_TO_GLTF)
    mesh.visual = trimesh.visual.TextureVisuals(material=material)
    return mesh


def _placement(point_in, heading_deg: float, shown: bool = True) -> dict:
    """A node's glTF translation, rotation and scale for a table point and heading."""
    return {"translation": gltf_points(point_in).tolist(),
            "rotation": heading_quaternions([heading_deg])[0].tolist(),
            "scale": [1.0, 1.0, 1.0] if shown else [0.0, 0.0, 0.0]}


def _miniature_parts(table: Table, bike_type: str, gang: str) -> list[tuple[str, trimesh.Trimesh]]:
    """(name, mesh) parts of one miniature in its own frame (base bottom centre at the origin,
    facing +x), in glTF axes and metres."""
    gang_rgb = hex_rgb(table.gang_colour(gang))
    local = miniature_shape(table.ruleset.base_for(bike_type), Pose(0.0, 0.0), table.ruleset, bike_type)
    base_rgb = tuple(c * (1.0 - BASE_SHADE) for c in gang_rgb)
    parts = [("base", _in_gltf(local.base, matte(f"{gang} base", base_rgb)))]
    try:
        coloured = miniature_colour_parts(table.ruleset, bike_type)
    except (MeshError, FileNotFoundError):  # no bundled model: the solids sight and physics use
        coloured = [("bike", None, local.bike), ("rider", RIDER_COLOUR, local.rider)]
    for k, (name, rgb, mesh) in enumerate(coloured):
        colour = gang_rgb if rgb is None else rgb
        label = f"{gang} bodywork" if rgb is None else "#" + "".join(f"{round(255 * c):02x}" for c in colour)
        parts.append((f"{name}{k}", _in_gltf(mesh, matte(label, colour), flat=False)))  # authored, smooth
    return parts


def _scenery_centre(geometry: TableGeometry, piece_id: str) -> np.ndarray:
    """The point a destructible's ScenerySpot moves and turns (its mesh's bounds centre, as the
    video turns it), inches."""
    return geometry.by_id(piece_id).mesh.bounds.mean(axis=0)


def _add_painted(scene: trimesh.Scene, piece, paint: TablePaint, geometry: TableGeometry) -> str | None:
    """Add a painted piece: its tops in the node named by its id, its walls in ``ID/walls``
    beneath it. Returns the name of the mesh of its tops, if it has any."""
    parts = painted_parts(piece, f"{material_name(piece)} {piece.colour}", paint, geometry, TABLE_TO_GLTF)
    for k, (part, mesh) in enumerate(parts):
        node = piece.id if k == 0 else f"{piece.id}/{part}"
        scene.add_geometry(mesh, node_name=node, geom_name=node, parent_node_name=PIECES if k == 0 else piece.id)
    return piece.id if parts and parts[0][0] == "tops" else None


def build_scene(table: Table, geometry: TableGeometry, state: State,
                paint: TablePaint | None = None) -> tuple[trimesh.Scene, dict[str, dict], dict[str, str]]:
    """The table and the miniatures of ``state`` as a trimesh scene in glTF axes and metres; the
    placement (translation, rotation, scale) of every node that a replay may move; and, with
    ``paint``, which image paints the tops in each painted mesh (mesh name -> "ground" or
    "raised"; see :func:`~entropy3d.export.painted.add_paint_textures`)."""
    scene = trimesh.Scene()
    for group in (PIECES, SCENERY, MINIATURES):
        scene.graph.update(frame_from=scene.graph.base_frame, frame_to=group)
    placements: dict[str, dict] = {}
    layers: dict[str, str] = {}
    for piece in geometry.pieces:
        if paint is not None and is_painted(piece):
            tops = _add_painted(scene, piece, paint, geometry)
            if tops is not None:
                layers[tops] = layer_of(piece)
            continue
        material = matte(f"{material_name(piece)} {piece.colour}", hex_rgb(piece.colour))
        flat = piece.kind != "mesh"  # a user's mesh keeps its own (smooth) shading
        if piece.dynamic:
            centre = _scenery_centre(geometry, piece.id)
            spot = state.scenery.get(piece.id, ScenerySpot())
            scene.add_geometry(_in_gltf(piece.mesh, material, centre, flat), node_name=piece.id, geom_name=piece.id,
                               parent_node_name=SCENERY)
            placements[piece.id] = _placement(centre + [spot.dx, spot.dy, 0.0], spot.turn_deg, not spot.removed)
        else:
            scene.add_geometry(_in_gltf(piece.mesh, material, flat=flat), node_name=piece.id, geom_name=piece.id,
                               parent_node_name=PIECES)
    for building in table.spec.buildings:
        windows = window_part(building, TABLE_TO_GLTF)
        if windows is not None:
            parent = building.id if building.id in scene.graph.nodes else PIECES
            scene.add_geometry(windows, node_name=f"{building.id}/windows", geom_name=f"{building.id}/windows",
                               parent_node_name=parent)
    for model in state.models.values():
        node = model_node(model.id)
        scene.graph.update(frame_from=MINIATURES, frame_to=node)
        for name, mesh in _miniature_parts(table, model.bike_type, model.gang):
            scene.add_geometry(mesh, node_name=f"{node}/{name}", geom_name=f"{model.bike_type}/{model.gang}/{name}",
                               parent_node_name=node)
        pose = model.pose
        placements[node] = _placement((pose.x, pose.y, pose.z), pose.facing_deg, model.in_play)
    return scene, placements, layers


class _Buffers:
    """Appends float accessors to the buffer trimesh's glTF exporter is building."""

    def __init__(self, buffer_items, tree):
        self.items, self.tree = buffer_items, tree

    def accessor(self, values: np.ndarray, kind: str) -> int:
        data = np.ascontiguousarray(values, dtype=np.float32)
        key = f"entropy3d-animation-{len(self.items)}"
        self.items[key] = data.tobytes()  # 4-byte floats: every view stays 4-byte aligned
        rows = data.reshape(len(data), -1)
        blob = {"bufferView": len(self.items) - 1, "componentType": _FLOAT, "count": len(rows), "type": kind,
                "min": rows.min(axis=0).tolist(), "max": rows.max(axis=0).tolist()}
        accessors = self.tree["accessors"]
        accessors[key] = blob
        return len(accessors) - 1


def _channels(buffers: _Buffers, node: int, track: Track, samplers: list, channels: list) -> None:
    """Translation and rotation (linear) and visibility as scale (step) channels of one node."""
    times = buffers.accessor(np.asarray(track.times), "SCALAR")
    outputs = {"translation": (gltf_points(track.points), "VEC3"),
               "rotation": (heading_quaternions(track.headings), "VEC4")}
    for path, (values, kind) in outputs.items():
        samplers.append({"input": times, "output": buffers.accessor(values, kind), "interpolation": "LINEAR"})
        channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})
    shown_times = buffers.accessor(np.array([t for t, _ in track.shown]), "SCALAR")
    scales = np.array([[1.0] * 3 if visible else [0.0] * 3 for _, visible in track.shown])
    samplers.append({"input": shown_times, "output": buffers.accessor(scales, "VEC3"), "interpolation": "STEP"})
    channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": "scale"}})


def _finisher(placements: dict[str, dict], motion: Motion | None, name: str, extras: dict,
              paint: TablePaint, layers: dict[str, str]):
    """trimesh's buffer post-processor: the paint as the painted tops' textures, placements as
    node TRS, the motion as one animation."""

    def finish(buffer_items, tree) -> None:
        add_paint_textures(buffer_items, tree, paint, layers)
        index = {node.get("name"): k for k, node in enumerate(tree["nodes"])}
        for node_name, placement in placements.items():
            node = tree["nodes"][index[node_name]]
            node.pop("matrix", None)  # an animated node must use translation/rotation/scale
            node.update(placement)
        tree["asset"]["extras"] = extras
        if motion is None:
            return
        buffers, samplers, channels = _Buffers(buffer_items, tree), [], []
        tracks = {**{model_node(k): t for k, t in motion.bikes.items()}, **motion.scenery}
        for node_name, track in tracks.items():
            if track.moves and node_name in index:
                _channels(buffers, index[node_name], track, samplers, channels)
        if channels:
            tree["animations"] = [{"name": name, "samplers": samplers, "channels": channels}]

    return finish


def _set_view_targets(tree) -> None:
    """trimesh's tree post-processor: vertex and index buffer views say what they hold
    (``bufferView.target``, which the glTF validator asks for)."""
    views = tree.get("bufferViews", [])
    for mesh in tree.get("meshes", []):
        for primitive in mesh["primitives"]:
            for accessor in primitive["attributes"].values():
                views[tree["accessors"][accessor]["bufferView"]]["target"] = 34962  # ARRAY_BUFFER
            if "indices" in primitive:
                views[tree["accessors"][primitive["indices"]]["bufferView"]]["target"] = 34963  # ELEMENT_ARRAY_BUFFER


def glb_bytes(table: Table, geometry: TableGeometry, replay: Replay | None = None) -> bytes:
    """The GLB of ``table`` with its miniatures where the scene (or the replay's start) puts
    them and, for a replay, its motion as an animation."""
    if replay is None:
        state = table.initial_state(geometry.surface_height)
        motion = None
    else:
        state = replay.header.initial
        centres = {p.id: tuple(_scenery_centre(geometry, p.id)) for p in geometry.pieces if p.dynamic}
        motion = replay_motion(replay, centres)
    paint = paint_table(table.spec, geometry, PAINT_TEXELS)
    scene, placements, layers = build_scene(table, geometry, state, paint)
    scale = table.ruleset.spec.scale
    extras = {"entropy3d": {"scene": table.name, "units": "metres, the physical table: 1 table inch = 0.0254 m",
                            "table_in": [table.width, table.depth],
                            "depicted_metres_per_table_inch": scale.metres_per_inch,
                            "animation": "depicted seconds" if motion is not None else None}}
    name = f"{table.name} (seed {replay.header.seed})" if replay is not None else table.name
    return trimesh.exchange.gltf.export_glb(scene, include_normals=True, tree_postprocessor=_set_view_targets,
                                            buffer_postprocessor=_finisher(placements, motion, name, extras,
                                                                           paint, layers))


def export_glb(table: Table, geometry: TableGeometry, path: str | Path, replay: Replay | None = None) -> Path:
    """Write :func:`glb_bytes` to ``path`` atomically; returns the path."""
    return write_atomic(path, glb_bytes(table, geometry, replay))

