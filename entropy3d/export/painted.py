"""The film's painted table as glTF parts: painted tops, shaded walls, windows and the paint images.

The look is the film's (:mod:`entropy3d.look`), never painted a second way: a piece the film
paints (:func:`~entropy3d.look.paint.layer_of`) keeps its tops (faces whose normal rises more than
:data:`~entropy3d.look.paint.UP_NORMAL_Z`) in its own node, textured from the plan-view image that
paints them (``ground`` or ``raised`` of :func:`~entropy3d.look.paint.paint_table`: asphalt grain,
road markings, slab joints, soft sun shadows, ambient occlusion) at the texture coordinates
:meth:`~entropy3d.look.paint.TablePaint.texcoords` gives its plan position; its walls, cut and
darkened towards their foot as the film darkens them (:func:`~entropy3d.look.paint.cut_walls`,
:func:`~entropy3d.look.paint.wall_shade`, as glTF vertex colours that multiply the piece's
colour), in a child node ``ID/walls``; a building's window rows
(:func:`~entropy3d.look.facades.building_windows`) in ``ID/windows``.

The light itself is not baked: a glTF viewer lights the file with its own lights. The paint's sun
shadows and occlusion are baked, as a painted table's are.

DECISION: the two images go into the file once each, as JPEG (quality :data:`JPEG_QUALITY`) at
:data:`PAINT_TEXELS` a side: ~43 texels a table inch on a 48" table, so a centre line (0.12") is
5 texels wide; the painted noise does not compress as PNG (crossroads' ground image is 3.0 MB as
PNG, 0.7 MB as JPEG). trimesh's writer would embed (and re-encode) an image for every material that
uses it, so the painted materials leave trimesh untextured and :func:`add_paint_textures` gives
them the shared textures afterwards.
"""

from __future__ import annotations

import io

import numpy as np
import trimesh
from PIL import Image
from trimesh.visual.material import PBRMaterial

from entropy3d.look.facades import WINDOW_COLOUR, building_windows
from entropy3d.look.paint import UP_NORMAL_Z, TablePaint, cut_walls, layer_of, wall_shade
from entropy3d.look.shapes import colour_rgb
from entropy3d.scene.build import Piece, TableGeometry
from entropy3d.scene.schema import Building

#: texels a side of each paint image in the file (a power of two; see the module's DECISION)
PAINT_TEXELS = 2048
JPEG_QUALITY = 90
#: what the sides of a painted piece are called in its material's name, by kind
SIDE_WORDS = {"building": "walls", "block": "kerb", "platform": "deck sides", "ramp": "ramp sides"}
#: window glass: dark, smooth (viewers give it a highlight), not metal
WINDOW_MATERIAL = f"window glass {WINDOW_COLOUR}"
WINDOW_ROUGHNESS = 0.25
#: glTF sampler constants: linear filtering with mipmaps, clamped at the table's edge
_LINEAR, _LINEAR_MIPMAP_LINEAR, _CLAMP_TO_EDGE = 9729, 9987, 33071


def linear(srgb) -> np.ndarray:
    """sRGB values in 0..1 (the scene's and rules' colours, the paint's texels, as a screen shows
    them) as linear ones: glTF's ``baseColorFactor`` and vertex colours are linear (glTF 2.0 spec,
    3.9.2), textures sRGB. Written as they are, "#3b3d42" asphalt came out light grey."""
    srgb = np.clip(np.asarray(srgb, float), 0.0, 1.0)
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def matte(name: str, rgb, roughness: float = 0.85) -> PBRMaterial:
    """A matte (not metallic) glTF material of colour ``rgb`` (three sRGB floats in 0..1, as the
    scene gives colours)."""
    rgba = [int(round(255 * float(c))) for c in linear(rgb)] + [255]
    return PBRMaterial(name=name, baseColorFactor=rgba, metallicFactor=0.0, roughnessFactor=roughness)


def soup(triangles: np.ndarray, surface: PBRMaterial, to_gltf: np.ndarray, texcoords=None,
         shade=None) -> trimesh.Trimesh:
    """Triangles (N, 3, 3) in table inches as a flat-shaded mesh in glTF axes (``to_gltf``, a 4x4
    transform), each corner its own vertex; ``texcoords`` (3N, 2) and ``shade`` (3N,) light
    factors per corner, which the film multiplies into a colour as the screen shows it: as glTF
    vertex colours (linear, multiplying a linear colour) they are :func:`linear`-ised, which shows
    any colour c shaded by f as f c within 5/255 (an sRGB curve is nearly a power)."""
    triangles = np.asarray(triangles, float).reshape(-1, 3, 3)
    mesh = trimesh.Trimesh(triangles.reshape(-1, 3), np.arange(3 * len(triangles)).reshape(-1, 3), process=False)
    mesh.apply_transform(to_gltf)
    mesh.visual = trimesh.visual.TextureVisuals(uv=texcoords, material=surface)
    if shade is not None:
        grey = np.round(255 * linear(np.asarray(shade, float).reshape(-1))).astype(np.uint8)
        mesh.visual.vertex_attributes["color"] = np.column_stack([grey, grey, grey, np.full_like(grey, 255)])
    return mesh


def painted_parts(piece: Piece, name: str, paint: TablePaint, geometry: TableGeometry,
                  to_gltf: np.ndarray) -> list[tuple[str, trimesh.Trimesh]]:
    """(part, mesh) of a piece the film paints: ``"tops"`` textured at their plan position
    (material ``name``, white: the texture is the colour) and ``"walls"`` in the piece's colour,
    shaded towards their foot. Either is left out when the piece has none."""
    up = piece.mesh.face_normals[:, 2] > UP_NORMAL_Z
    parts = []
    if up.any():
        tops = piece.mesh.triangles[up]
        parts.append(("tops", soup(tops, matte(name, (1.0, 1.0, 1.0)), to_gltf,
                                   texcoords=paint.texcoords(tops.reshape(-1, 3)))))
    if (~up).any():
        walls = cut_walls(piece.mesh.triangles[~up])
        normals, valid = trimesh.triangles.normals(walls)
        walls = walls[valid]  # a sliver the cut left has no area and no normal to shade it by
        if len(walls):
            side = f"{piece.kind} {SIDE_WORDS.get(piece.kind, 'sides')} {piece.colour}"
            parts.append(("walls", soup(walls, matte(side, colour_rgb(piece.colour)), to_gltf,
                                        shade=wall_shade(walls, normals, geometry))))
    return parts


def window_part(building: Building, to_gltf: np.ndarray) -> trimesh.Trimesh | None:
    """A building's window rows, just proud of its walls, as one mesh of window glass (None when
    its walls are too short for a window)."""
    panes = building_windows(building)
    if not len(panes):
        return None
    return soup(panes, matte(WINDOW_MATERIAL, colour_rgb(WINDOW_COLOUR), WINDOW_ROUGHNESS), to_gltf)


def is_painted(piece: Piece) -> bool:
    """Whether the film paints ``piece``'s tops (and so does the export)."""
    return layer_of(piece) is not None


def jpeg(image: np.ndarray) -> bytes:
    """A paint image (rows from y = 0 up) as JPEG bytes, north at the top: glTF's texture
    coordinates start at the image's top row, trimesh's (which the writer flips) at its bottom."""
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image[::-1])).save(buffer, "JPEG", quality=JPEG_QUALITY)
    return buffer.getvalue()


def add_paint_textures(buffer_items, tree: dict, paint: TablePaint, layers: dict[str, str]) -> None:
    """Embed the paint images the file uses (once each) and texture the tops of every mesh in
    ``layers`` (mesh name -> "ground" or "raised") from its layer's image. ``buffer_items`` is
    the binary chunk trimesh's writer is building (a view per item, in order)."""
    used = sorted({layer for layer in layers.values()})
    if not used:
        return
    texture_of = {}
    for layer in used:
        data = jpeg(getattr(paint, layer))
        buffer_items[f"entropy3d-paint-{layer}"] = data + bytes(-len(data) % 4)  # views start 4-byte aligned
        tree.setdefault("images", []).append({"bufferView": len(buffer_items) - 1, "mimeType": "image/jpeg",
                                              "name": f"table paint ({layer})"})
        tree.setdefault("textures", []).append({"sampler": 0, "source": len(tree["images"]) - 1,
                                                "name": f"table paint ({layer})"})
        texture_of[layer] = len(tree["textures"]) - 1
    tree["samplers"] = [{"magFilter": _LINEAR, "minFilter": _LINEAR_MIPMAP_LINEAR,
                         "wrapS": _CLAMP_TO_EDGE, "wrapT": _CLAMP_TO_EDGE}]
    chosen: dict[tuple[int, int], int] = {}  # (material as trimesh wrote it, texture) -> material textured so
    for mesh in tree.get("meshes", []):
        layer = layers.get(mesh.get("name"))
        if layer is None:
            continue
        primitive = mesh["primitives"][0]
        key = (primitive["material"], texture_of[layer])
        if key not in chosen:
            index = key[0]
            if any(written == index for written, _ in chosen):  # one material, both layers' tops: a copy each
                original = tree["materials"][index]
                tree["materials"].append({**original, "pbrMetallicRoughness": dict(original["pbrMetallicRoughness"])})
                index = len(tree["materials"]) - 1
            tree["materials"][index]["pbrMetallicRoughness"]["baseColorTexture"] = {"index": key[1]}
            chosen[key] = index
        primitive["material"] = chosen[key]
