"""Triangles to Panda3D nodes: the one road by which every mesh reaches the renderer.

Meshes stay in table inches with z up (Panda3D's own convention), so no axis swap or scale is
needed. Lit geometry carries positions and normals and takes its colour from a
:class:`~panda3d.core.Material`, not from vertex colours: the software rasteriser
(``p3tinydisplay``) multiplies lit vertex colours in twice (a colour c comes out as c*c), while a
material comes out right in both backends. Unlit overlays (grid, text backing, backdrop) use
vertex colours, which both backends draw as given; so does geometry that never moves, whose light
is baked into its vertex colours (:func:`baked_triangles_node`, :mod:`.lighting`).
"""

from __future__ import annotations

import functools

import numpy as np
import trimesh
from panda3d.core import (
    Geom,
    GeomEnums,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    LColor,
    Material,
    NodePath,
    SamplerState,
    Texture,
    TransparencyAttrib,
)

from entropy3d.look.light import lit_colours

_LIT = np.dtype([("position", np.float32, 3), ("normal", np.float32, 3)])
_UNLIT = np.dtype([("position", np.float32, 3), ("colour", np.uint8, 4)])
#: a baked vertex: its lit colour kept in floats, as the lighting computes it (bytes would round a
#: sixth of a lit sphere's pixels one level off); RGBA, as every unlit vertex has an alpha, so that
#: flattening a table (the viewer) into one vertex format keeps its shadows' and grid's alpha; the
#: position homogeneous (w = 1), which makes a vertex whole 64-bit words (:func:`shared_vertices`)
_BAKED = np.dtype([("position", np.float32, 4), ("colour", np.float32, 4)])
#: a baked vertex that also samples a texture (the table's paint, :mod:`.paint`)
_PAINTED = np.dtype([("position", np.float32, 4), ("colour", np.float32, 4), ("texcoord", np.float32, 2)])


@functools.cache
def _baked_format() -> GeomVertexFormat:
    """Position and an RGBA colour, float32, the layout of :data:`_BAKED`."""
    columns = GeomVertexArrayFormat()
    columns.add_column(InternalName.get_vertex(), 4, GeomEnums.NT_float32, GeomEnums.C_point)
    columns.add_column(InternalName.get_color(), 4, GeomEnums.NT_float32, GeomEnums.C_color)
    return GeomVertexFormat.register_format(GeomVertexFormat(columns))


@functools.cache
def _painted_format() -> GeomVertexFormat:
    """:func:`_baked_format` and a texture coordinate, the layout of :data:`_PAINTED`."""
    columns = GeomVertexArrayFormat()
    columns.add_column(InternalName.get_vertex(), 4, GeomEnums.NT_float32, GeomEnums.C_point)
    columns.add_column(InternalName.get_color(), 4, GeomEnums.NT_float32, GeomEnums.C_color)
    columns.add_column(InternalName.get_texcoord(), 2, GeomEnums.NT_float32, GeomEnums.C_texcoord)
    return GeomVertexFormat.register_format(GeomVertexFormat(columns))


def _geom_node(name: str, vertex_format, records: np.ndarray) -> NodePath:
    """A node of one Geom: ``records`` (3 per triangle, in order) stored once per distinct vertex
    and drawn through an index. The software rasteriser lights and transforms every stored vertex
    each frame, and a smooth bike part or a building's wall shares each corner among several
    triangles: a table frame drew 25-35% faster (issue 17), to the same pixels but for a few ties
    of depth where two path overlays meet."""
    vertices, index = shared_vertices(records)
    data = GeomVertexData(name, vertex_format, Geom.UH_static)
    data.unclean_set_num_rows(len(vertices))
    memoryview(data.modify_array(0)).cast("B")[:] = vertices.tobytes()
    triangles = GeomTriangles(Geom.UH_static)
    wide = len(vertices) > 0xFFFF
    triangles.set_index_type(GeomEnums.NT_uint32 if wide else GeomEnums.NT_uint16)
    corners = triangles.modify_vertices()
    corners.unclean_set_num_rows(len(index))
    memoryview(corners).cast("B")[:] = index.astype(np.uint32 if wide else np.uint16).tobytes()
    geom = Geom(data)
    geom.add_primitive(triangles)
    node = GeomNode(name)
    node.add_geom(geom)
    return NodePath(node)


def shared_vertices(records: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``records`` (a structured array whose items are whole 64-bit words) as (distinct records,
    index into them with one entry per record): equal bytes, equal vertex. Grouped by a 64-bit
    hash of each record's words, as sorting the records themselves took ~1 s for a million; a
    hash collision (every record is checked against its group's) keeps every record apart."""
    count = len(records)
    if count == 0:
        return records, np.zeros(0, np.int64)
    words = records.view(np.uint64).reshape(count, -1)
    digest = np.full(count, 0xCBF29CE484222325, np.uint64)
    for column in words.T:  # FNV-1a over the words
        digest ^= column
        digest *= np.uint64(0x100000001B3)
    order = np.argsort(digest)
    ordered = digest[order]
    starts = np.empty(count, bool)
    starts[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    if starts.all():  # distinct hashes: distinct records (a flat-shaded print shares few corners)
        return records, np.arange(count)
    index = np.empty(count, np.int64)
    index[order] = np.cumsum(starts) - 1
    distinct = np.take(words, order[starts], axis=0)
    if not np.array_equal(np.take(distinct, index, axis=0), words):
        return records, np.arange(count)
    return distinct.view(records.dtype).reshape(-1), index


def material(rgb, shininess: float = 0.0) -> Material:
    """A matte material of colour ``rgb`` (floats in [0, 1]) for ambient and diffuse light."""
    colour = LColor(float(rgb[0]), float(rgb[1]), float(rgb[2]), 1.0)
    result = Material()
    result.set_ambient(colour)
    result.set_diffuse(colour)
    if shininess > 0:
        result.set_specular(LColor(0.25, 0.25, 0.25, 1.0))
        result.set_shininess(shininess)
    return result


def lit_triangles_node(name: str, triangles: np.ndarray, normals: np.ndarray, rgb) -> NodePath:
    """Triangles (N, 3, 3) with per-corner normals (N, 3, 3) as a lit node of one colour."""
    triangles = np.asarray(triangles, np.float32).reshape(-1, 3)
    records = np.empty(len(triangles), _LIT)
    records["position"] = triangles
    records["normal"] = np.asarray(normals, np.float32).reshape(-1, 3)
    node = _geom_node(name, GeomVertexFormat.get_v3n3(), records)
    node.set_material(material(rgb), 1)
    return node


def baked_triangles_node(name: str, triangles: np.ndarray, normals: np.ndarray, rgb,
                         shade: np.ndarray | None = None) -> NodePath:
    """Triangles (N, 3, 3) of one matte colour that never move, with per-corner normals (N, 3, 3)
    or, flat-shaded, one normal per face (N, 3): lit once, here, by
    :func:`~entropy3d.render.lighting.lit_colours`, and drawn unlit. They draw as
    :func:`lit_triangles_node` would draw them under :func:`~entropy3d.render.lighting.add_lights`,
    and cost the rasteriser no lighting per frame. ``shade`` (N, 3), if given, scales each
    corner's light (ambient occlusion at a wall's foot, :func:`~entropy3d.look.paint.wall_shade`)."""
    triangles = np.asarray(triangles, np.float32).reshape(-1, 3, 3)
    normals = np.asarray(normals)
    records = np.empty(3 * len(triangles), _BAKED)
    records["position"][:, :3] = triangles.reshape(-1, 3)
    records["position"][:, 3] = records["colour"][:, 3] = 1.0
    if normals.shape == (len(triangles), 3):  # a face's corners share its colour: light each face once
        records["colour"].reshape(-1, 3, 4)[:, :, :3] = lit_colours(normals, rgb)[:, None, :]
    else:
        records["colour"][:, :3] = lit_colours(normals, rgb)
    if shade is not None:
        records["colour"][:, :3] *= np.asarray(shade, np.float32).reshape(-1, 1)
    node = _geom_node(name, _baked_format(), records)
    node.set_light_off(1)
    return node


def painted_triangles_node(name: str, triangles: np.ndarray, normals: np.ndarray, texcoords: np.ndarray,
                           texture: Texture) -> NodePath:
    """Flat triangles (N, 3, 3) that never move, one normal per face (N, 3), painted by
    ``texture`` at per-corner ``texcoords`` (N, 3, 2): their light baked into vertex colours as
    :func:`baked_triangles_node` bakes a white surface's, their colour from the texture, the two
    multiplied (the rasteriser's modulate mode)."""
    triangles = np.asarray(triangles, np.float32).reshape(-1, 3, 3)
    records = np.empty(3 * len(triangles), _PAINTED)
    records["position"][:, :3] = triangles.reshape(-1, 3)
    records["position"][:, 3] = records["colour"][:, 3] = 1.0
    records["colour"].reshape(-1, 3, 4)[:, :, :3] = lit_colours(normals, (1.0, 1.0, 1.0))[:, None, :]
    records["texcoord"] = np.asarray(texcoords, np.float32).reshape(-1, 2)
    node = _geom_node(name, _painted_format(), records)
    node.set_light_off(1)
    node.set_texture(texture)
    return node


def image_texture(name: str, image: np.ndarray) -> Texture:
    """An (rows, columns, 3) uint8 image, row 0 at the bottom (texture coordinate v = 0), as a
    mipmapped texture: trilinear far off (no shimmer on a distant road), bilinear close up."""
    rows, columns = image.shape[:2]
    texture = Texture(name)
    texture.setup_2d_texture(columns, rows, Texture.T_unsigned_byte, Texture.F_rgb)
    texture.set_ram_image_as(np.ascontiguousarray(image).tobytes(), "RGB")
    texture.set_minfilter(SamplerState.FT_linear_mipmap_linear)
    texture.set_magfilter(SamplerState.FT_linear)
    texture.set_wrap_u(SamplerState.WM_clamp)
    texture.set_wrap_v(SamplerState.WM_clamp)
    return texture


def flat_normals(triangles: np.ndarray) -> np.ndarray:
    """Per-corner normals (N, 3, 3) equal to each triangle's face normal."""
    triangles = np.asarray(triangles, float)
    normal = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = np.linalg.norm(normal, axis=1, keepdims=True)
    normal = normal / np.where(length > 0, length, 1.0)
    return np.repeat(normal[:, None, :], 3, axis=1)


def mesh_node(name: str, mesh: trimesh.Trimesh, rgb, smooth_angle_deg: float = 0.0, baked: bool = False) -> NodePath:
    """A trimesh (table inches, z up) as a lit node of one colour; ``baked``: its light baked in
    (:func:`baked_triangles_node`), for a mesh that never moves.

    Faces are flat-shaded so that walls, roofs and ramps of different orientation read clearly
    different under the sun; ``smooth_angle_deg`` > 0 smooths across edges sharper than that
    angle is not (for round things: barrels, base discs, bike models).
    """
    if not baked:
        return lit_triangles_node(name, *shaded_triangles(mesh, smooth_angle_deg), rgb)
    if smooth_angle_deg <= 0:  # flat: a face's corners share its normal
        return baked_triangles_node(name, mesh.triangles, mesh.face_normals, rgb)
    return baked_triangles_node(name, *shaded_triangles(mesh, smooth_angle_deg), rgb)


def shaded_triangles(mesh: trimesh.Trimesh, smooth_angle_deg: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(triangles, per-corner normals), both (N, 3, 3): flat, or smoothed across edges whose
    faces meet at less than ``smooth_angle_deg``."""
    if smooth_angle_deg > 0:
        smooth = trimesh.graph.smooth_shade(mesh, angle=np.radians(smooth_angle_deg), facet_minarea=None)
        return smooth.vertices[smooth.faces], smooth.vertex_normals[smooth.faces]
    return mesh.triangles, np.repeat(mesh.face_normals[:, None, :], 3, axis=1)


def unlit_node(name: str, triangles: np.ndarray, rgba, double_sided: bool = False) -> NodePath:
    """Triangles (N, 3, 3) in one colour ``rgba`` (floats), not affected by lights.

    An alpha below 1 blends the triangles over what is behind them (faint grid lines, shadows).
    """
    triangles = np.asarray(triangles, np.float32).reshape(-1, 3)
    records = np.empty(len(triangles), _UNLIT)
    records["position"] = triangles
    records["colour"] = np.round(np.clip(np.asarray(rgba, float), 0, 1) * 255).astype(np.uint8)
    node = _geom_node(name, GeomVertexFormat.get_v3c4(), records)
    node.set_light_off(1)
    if len(rgba) == 4 and rgba[3] < 1.0:
        node.set_transparency(TransparencyAttrib.M_alpha)
        node.set_depth_write(False)
    if double_sided:
        node.set_two_sided(True)
    return node


def soft_disc_node(name: str, rgb, alpha: float, core: float = 0.55, segments: int = 28) -> NodePath:
    """A flat disc of radius 1 on z = 0 facing up, ``rgb`` at opacity ``alpha`` out to ``core``
    of its radius, fading to clear at its edge (a contact shadow: scale it to a base's size)."""
    angles = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
    ring = np.column_stack([np.cos(angles), np.sin(angles), np.zeros(segments)])
    inner, outer = ring * core, ring
    nxt = np.roll(np.arange(segments), -1)
    centre = np.zeros((segments, 3))
    corners = np.concatenate([  # the core as a fan, the fade as a band of quads
        np.stack([centre, inner, inner[nxt]], axis=1),
        np.stack([inner, outer, outer[nxt]], axis=1),
        np.stack([inner, outer[nxt], inner[nxt]], axis=1)])
    opacity = np.concatenate([np.full((segments, 3), alpha), np.tile([alpha, 0.0, 0.0], (segments, 1)),
                              np.tile([alpha, 0.0, alpha], (segments, 1))])
    records = np.empty(corners.shape[0] * 3, _UNLIT)
    records["position"] = corners.reshape(-1, 3)
    colour = np.column_stack([np.tile(np.asarray(rgb, float)[:3], (len(records), 1)), opacity.reshape(-1)])
    records["colour"] = np.round(np.clip(colour, 0, 1) * 255).astype(np.uint8)
    node = _geom_node(name, GeomVertexFormat.get_v3c4(), records)
    node.set_light_off(1)
    node.set_transparency(TransparencyAttrib.M_alpha)
    node.set_depth_write(False)
    return node


def gradient_card(name: str, top_rgb, bottom_rgb) -> NodePath:
    """A card filling the 2D frame (-1..1 in x and z) that fades from ``bottom_rgb`` to ``top_rgb``."""
    corners = np.array([[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]], np.float32)
    colours = np.array([bottom_rgb, bottom_rgb, top_rgb, top_rgb], float)
    order = [0, 1, 2, 0, 2, 3]
    records = np.empty(6, _UNLIT)
    records["position"] = corners[order]
    records["colour"] = np.round(np.column_stack([colours[order], np.ones(6)]) * 255).astype(np.uint8)
    node = _geom_node(name, GeomVertexFormat.get_v3c4(), records)
    node.set_light_off(1)
    node.set_two_sided(True)
    return node
