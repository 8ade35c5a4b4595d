"""The table painted as a hobbyist paints one, baked once per table into two plan-view images.

The software rasteriser has no shaders, so no shadow map, no ambient occlusion pass and no
material shading per pixel; what it does cheaply is a texture (~1 ms a 720p frame over the whole
table, measured against the untextured table). So everything that makes a table look painted is
worked out here, once, with numpy and scipy, in the table's plan:

- each terrain's material (asphalt's grain and repair patches, concrete's slab joints, mottled
  grass, pebbly dirt, rubble, tread plate, planks) from its rules colour and seeded noise;
- road markings, and what the mission marks on the table (:mod:`.mission_marks`: Corners' zones,
  Hoon Hour's checkpoints, Rescue & Survive's drop points, Jailbreak's jail and road exits);
- soft sun shadows (the polygons of :mod:`.shadows`, blurred at their edges);
- ambient occlusion: a surface darkens near anything standing taller beside it, the more the
  taller and the nearer (a blurred height field);
- a light edge along every raised top (the dry-brushed highlight of a kerb, a roof's parapet).

Two images, because a deck can stand over a road: ``ground`` paints every surface at most
:data:`LOW_TOP_IN` high (ground, roads, zones, sidewalk blocks), ``raised`` every higher top
(roofs, decks, ramps), higher over lower. Each covers the table's plan: pixel row 0 at y = 0 and
column 0 at x = 0 (Panda3D keeps a texture bottom row first), so a point (x, y) inches samples
(x / width, y / depth). Deterministic: the noise comes from a fixed seed, so the same table
gives the same bytes in any process.

The light stays in the vertex colours (:mod:`.lighting`), the paint in the texture: the two
multiply, as the rasteriser's modulate mode does.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import trimesh
from PIL import Image, ImageDraw
from scipy import ndimage

from entropy3d.look import shapes
from entropy3d.look.light import SUN_DIRECTION
from entropy3d.look.mission_marks import mission_marks, paint_marks
from entropy3d.look.shadows import FLAT_KINDS, table_shadows
from entropy3d.look.shapes import colour_rgb
from entropy3d.scene.build import Piece, TableGeometry
from entropy3d.scene.footprints import plan_outline
from entropy3d.scene.schema import SceneSpec

#: kinds of piece whose upward faces are painted from the images; the rest (prints, destructible
#: scenery, railings, pillars) keep their plain colours
PAINTED_KINDS = ("ground", "road", "zone", "block", "building", "platform", "ramp")
#: a face whose unit normal rises more than this is a top (painted); the rest are walls
UP_NORMAL_Z = 0.5
#: tops at most this high (inches) are painted in the ground image, higher ones in the raised one
LOW_TOP_IN = 0.5
#: the ground, roads and zones lie at most this high (inches): road markings are painted there
FLAT_TOP_IN = 0.05
#: the images' side in pixels: a power of two (the rasteriser's textures), from 256 to this
MAX_TEXELS = 2048
#: texels across the table per pixel of the frame's longer side: 1.6 keeps a road's grain crisp
#: where the camera follows a bike, without baking more than the frame can show
TEXELS_PER_FRAME_PIXEL = 1.6
SEED = 20261206

#: sidewalk slabs and roof panels, inches between joints (1.4 m depicted)
SLAB_IN = 1.0
#: wide planks and tread plate, inches
PLANK_IN = 0.45
TREAD_IN = 0.22
MARKING_RGB = colour_rgb("#e7d36b")
#: the sun's shadows: how dark (0..1), their cool tint and the blur of their edges (sigma, inches)
SHADOW_DARKNESS = 0.36
SHADOW_TINT = np.array([0.0, 0.02, 0.06])
SHADOW_SOFT_IN = 0.05
#: ambient occlusion: the blur's reach (sigma, inches), the height at which a neighbour occludes
#: fully (inches) and the most it darkens
AO_REACH_IN = 0.4
AO_FULL_HEIGHT_IN = 1.5
AO_STRENGTH = 0.45
#: the light edge of raised tops: its width (inches) and how much it lightens
RIM_IN = 0.07
#: walls darken towards the ground at their foot (ambient occlusion): this much at the foot,
#: fading over this height (inches); each wall is cut this high above its foot, so the fade has
#: corners to live on (a storey-high wall is one quad)
WALL_AO_STRENGTH = 0.38
WALL_AO_FADE_IN = 0.3
WALL_AO_CUT_IN = 0.8
#: ambient occlusion is worked out on a grid this many times coarser than the images
AO_COARSENING = 4
RIM_LIGHTEN = 1.18


@dataclass(frozen=True)
class TablePaint:
    """The two painted images of a table, (rows, columns, 3) uint8 each, and the table's size
    in inches, which maps a point to its texel (:meth:`texcoords`)."""

    ground: np.ndarray
    raised: np.ndarray
    width: float
    depth: float

    def texcoords(self, points) -> np.ndarray:
        """(N, 2) texture coordinates of points (N, >= 2) in table inches."""
        points = np.asarray(points, float)
        return np.column_stack([points[:, 0] / self.width, points[:, 1] / self.depth])


def texels_for(frame_side_px: int) -> int:
    """The images' side (a power of two, 256 to :data:`MAX_TEXELS`) for frames whose longer
    side is ``frame_side_px`` pixels (after supersampling): the power of two at or below
    :data:`TEXELS_PER_FRAME_PIXEL` times it (a bake takes 0.14 s at 512, 0.5 s at 1024 and 2.3 s
    at 2048: the tests' small frames, baked by the dozen, take the smaller ones)."""
    wanted = TEXELS_PER_FRAME_PIXEL * frame_side_px
    return int(min(MAX_TEXELS, max(256, 2 ** int(np.floor(np.log2(max(wanted, 1.0)))))))


def layer_of(piece: Piece) -> str | None:
    """Which image paints ``piece``'s tops: "ground", "raised", or None (not painted)."""
    if piece.kind not in PAINTED_KINDS or piece.dynamic:
        return None
    return "ground" if piece.top <= LOW_TOP_IN else "raised"


#: the last few tables' paint, by (scene, size, texels): a film, its stills and a highlight reel
#: of one table bake it once
_PAINTS: OrderedDict[tuple, TablePaint] = OrderedDict()
_PAINTS_KEPT = 4


def paint_table(spec: SceneSpec, geometry: TableGeometry, texels: int) -> TablePaint:
    """The table's paint at ``texels`` x ``texels`` per image (cached, see :data:`_PAINTS`)."""
    key = (spec.model_dump_json(), geometry.width, geometry.depth, len(geometry.pieces), texels)
    if key not in _PAINTS:
        _PAINTS[key] = _bake(spec, geometry, texels)
        while len(_PAINTS) > _PAINTS_KEPT:
            _PAINTS.popitem(last=False)
    _PAINTS.move_to_end(key)
    return _PAINTS[key]


class _Canvas:
    """One image being painted: albedo (float RGB), the height of the surface each texel shows
    (NaN where none), and the pixel scale."""

    def __init__(self, texels: int, width: float, depth: float):
        self.size = texels
        self.scale = np.array([texels / width, texels / depth])  # texels per inch along x, y
        self.rgb = np.zeros((texels, texels, 3), np.float32)
        self.height = np.full((texels, texels), np.nan, np.float32)

    @property
    def texels_per_inch(self) -> float:
        return float(self.scale.min())

    def pixels(self, points) -> list[tuple[float, float]]:
        """Points (N, >= 2) inches as PIL's pixel coordinates: PIL puts whole numbers at texel
        centres, where a texture samples texel k over [k, k + 1), so half a texel back."""
        return [tuple(p) for p in np.asarray(points, float)[:, :2] * self.scale - 0.5]

    def mask(self, polygons_xy) -> np.ndarray:
        """A bool (texels, texels) mask of the filled polygons (each (N, 2) inches)."""
        image = Image.new("1", (self.size, self.size), 0)
        draw = ImageDraw.Draw(image)
        for polygon in polygons_xy:
            draw.polygon(self.pixels(polygon), fill=1)
        return np.asarray(image, bool)

    def window(self, polygons_xy) -> tuple[slice, slice]:
        """The rows and columns of the texels the polygons (each (N, 2) inches) can cover, with a
        margin for a rim: painting a piece touches only its own window of the table."""
        corners = np.concatenate([np.asarray(p, float)[:, :2] for p in polygons_xy]) * self.scale
        (c0, r0), (c1, r1) = np.floor(corners.min(axis=0)) - 2, np.ceil(corners.max(axis=0)) + 3
        clamp = lambda v: int(min(max(v, 0), self.size))  # noqa: E731
        return slice(clamp(r0), clamp(r1)), slice(clamp(c0), clamp(c1))

    def window_mask(self, polygons_xy, rows: slice, cols: slice) -> np.ndarray:
        """:meth:`mask` within the window ``rows``, ``cols`` only."""
        image = Image.new("1", (cols.stop - cols.start, rows.stop - rows.start), 0)
        draw = ImageDraw.Draw(image)
        offset = np.array([cols.start, rows.start], float)
        for polygon in polygons_xy:
            draw.polygon([(x - offset[0], y - offset[1]) for x, y in self.pixels(polygon)], fill=1)
        return np.asarray(image, bool)

    def shape_mask(self, shape) -> np.ndarray:
        """A bool mask of a shapely polygon or multipolygon (holes left out)."""
        image = Image.new("1", (self.size, self.size), 0)
        draw = ImageDraw.Draw(image)
        for polygon in getattr(shape, "geoms", [shape]):
            if polygon.is_empty or not hasattr(polygon, "exterior"):
                continue
            draw.polygon(self.pixels(np.asarray(polygon.exterior.coords)), fill=1)
            for hole in polygon.interiors:
                draw.polygon(self.pixels(np.asarray(hole.coords)), fill=0)
        return np.asarray(image, bool)


class _Noise:
    """Value noise over the whole table, one field per feature size, and a per-texel grain."""

    def __init__(self, texels: int, width: float, depth: float):
        rng = np.random.default_rng(SEED)
        self.fields = {}
        for name, cell_in in (("fine", 0.09), ("mid", 0.55), ("coarse", 2.6)):
            rows, cols = int(np.ceil(depth / cell_in)) + 2, int(np.ceil(width / cell_in)) + 2
            small = Image.fromarray((rng.random((rows, cols), np.float32) * 2 - 1), mode="F")
            self.fields[name] = np.asarray(small.resize((texels, texels), Image.BICUBIC), np.float32)
        self.fields["grain"] = rng.random((texels, texels), np.float32)
        ys, xs = np.mgrid[0:texels, 0:texels].astype(np.float32)
        self.x, self.y = (xs + 0.5) * (width / texels), (ys + 0.5) * (depth / texels)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.fields[name]

    def window(self, rows: slice, cols: slice) -> "_Noise":
        """The same noise over a window of the table (views, no copies)."""
        part = object.__new__(_Noise)
        part.fields = {name: field[rows, cols] for name, field in self.fields.items()}
        part.x, part.y = self.x[rows, cols], self.y[rows, cols]
        return part


def _smoothstep(lo: float, hi: float, value: np.ndarray) -> np.ndarray:
    t = np.clip((value - lo) / (hi - lo), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _lines(coordinate: np.ndarray, period: float, half_width: float) -> np.ndarray:
    """1 on lines every ``period`` inches along ``coordinate``, fading to 0 ``half_width`` away."""
    distance = np.abs((coordinate + period / 2) % period - period / 2)
    return 1.0 - _smoothstep(half_width * 0.5, half_width, distance)


def material(terrain: str | None, rgb, noise: _Noise, where: np.ndarray, texels_per_inch: float) -> np.ndarray:
    """(K, 3) albedo of the K texels ``where`` (a bool mask) painted as ``terrain`` whose rules
    colour is ``rgb``: the colour varied as a hobbyist's paint varies, never far from it (a
    player still tells asphalt from grass at a glance)."""
    c = np.asarray(rgb, np.float32)[:3]
    fine, mid, coarse, grain = (noise[n][where] for n in ("fine", "mid", "coarse", "grain"))
    x, y = noise.x[where], noise.y[where]
    line = max(0.025, 0.8 / texels_per_inch)  # a joint at least a texel wide
    shade = 1.0 + 0.06 * mid + 0.035 * fine
    if terrain == "asphalt":
        shade *= 1.0 - 0.09 * _smoothstep(0.25, 0.45, coarse)  # patched repairs
        shade = np.where(grain > 0.985, shade * 1.45, shade)  # pale aggregate
        shade *= 1.0 + 0.05 * _smoothstep(0.2, 0.7, -coarse)  # worn, lighter lanes
    elif terrain == "concrete":
        joints = np.maximum(_lines(x, SLAB_IN, line), _lines(y, SLAB_IN, line))
        shade *= (1.0 - 0.16 * joints) * (1.0 - 0.07 * _smoothstep(0.3, 0.6, coarse))
        shade = np.where(grain > 0.993, shade * 0.8, shade)
    elif terrain == "grass":
        dry = 0.55 * _smoothstep(0.0, 0.8, mid + 0.5 * coarse)[:, None]  # sun-dried patches
        colour = c * (1 - dry) + np.clip(c * np.array([1.18, 1.08, 0.78], np.float32), 0, 1) * dry
        shade = 0.97 + 0.1 * fine
        shade = np.where(grain > 0.97, shade * 0.78, shade)  # tufts
        return np.clip(colour * shade[:, None], 0, 1)
    elif terrain in ("dirt", "sand", "gravel"):
        shade = 1.0 + 0.11 * mid + 0.06 * fine
        stones = {"gravel": 0.9, "dirt": 0.965, "sand": 0.985}[terrain]
        shade = np.where(grain > stones, shade * 1.3, np.where(grain < 1 - stones, shade * 0.76, shade))
    elif terrain == "ruins":
        shade = 1.0 + 0.16 * mid
        shade = np.where(fine > 0.4, shade * 1.3, np.where(fine < -0.45, shade * 0.65, shade))
    elif terrain == "metal":
        diamond = _lines(x + y, TREAD_IN, line * 1.2) * _lines(x - y, 2 * TREAD_IN, TREAD_IN * 0.6)
        shade *= (1.0 + 0.16 * diamond) * (1.0 - 0.12 * _smoothstep(0.1, 0.6, mid))  # tread, scuffs
    elif terrain == "wood":
        shade *= (1.0 - 0.25 * _lines(y, PLANK_IN, line)) * (1.0 + 0.05 * np.sin(x * 9.0 + 4.0 * mid))
    return np.clip(c[None, :] * shade[:, None], 0, 1)


def _piece_polygons(piece: Piece) -> list[np.ndarray]:
    """The plan triangles (N, 3, 2) of ``piece``'s upward faces, as a list of (3, 2) arrays."""
    up = piece.mesh.face_normals[:, 2] > UP_NORMAL_Z
    return list(np.asarray(piece.mesh.triangles[up][:, :, :2], float))


def _rim(mask: np.ndarray, texels_per_inch: float) -> np.ndarray:
    """The texels of ``mask`` within :data:`RIM_IN` of its edge."""
    steps = max(1, int(round(RIM_IN * texels_per_inch)))
    return mask & ~ndimage.binary_erosion(mask, iterations=steps, border_value=1)


def _occluder_heights(geometry: TableGeometry, canvas: _Canvas) -> np.ndarray:
    """The height (inches) of the tallest static solid over each texel of ``canvas``; 0 where none."""
    heights = np.zeros((canvas.size, canvas.size), np.float32)
    for piece in geometry.pieces:
        if piece.kind in FLAT_KINDS or piece.dynamic:
            continue
        for part in piece.parts:
            outline = plan_outline(part.vertices, min_area=1e-4)
            if outline is None:
                continue
            polygon = [np.asarray(outline.exterior.coords)]
            rows, cols = canvas.window(polygon)
            covered = canvas.window_mask(polygon, rows, cols)
            top = float(part.vertices[:, 2].max())
            np.maximum(heights[rows, cols], np.where(covered, top, 0.0), out=heights[rows, cols])
    return heights


def _darken_by_occlusion(canvas: _Canvas, occluders: np.ndarray) -> None:
    """Ambient occlusion on every painted level of ``canvas``: texels near taller solids darken.
    ``occluders`` are :func:`_occluder_heights` at a coarser grid (a whole fraction of the
    canvas's): occlusion varies over inches, not texels, and blurring 2048 texels square took
    ~0.2 s a level. Each level's occlusion is worked out on the coarse grid, where a coarse texel
    takes its level from the canvas texel at its corner, and the whole is scaled up once."""
    step = canvas.size // occluders.shape[0]
    sigma = AO_REACH_IN * canvas.texels_per_inch / step
    levels = np.round(canvas.height[::step, ::step], 2)
    factor = np.ones(occluders.shape, np.float32)
    for level in np.unique(levels[~np.isnan(levels)]):
        rise = np.clip((occluders - level - 0.05) / AO_FULL_HEIGHT_IN, 0.0, 1.0)
        if not rise.any():
            continue
        occlusion = ndimage.gaussian_filter(rise, sigma, mode="constant")
        on_level = levels == level
        factor[on_level] = 1.0 - AO_STRENGTH * np.clip(occlusion[on_level], 0.0, 1.0)
    if step > 1:
        factor = ndimage.zoom(factor, step, order=1, grid_mode=True, mode="nearest")
    canvas.rgb *= factor[..., None]


def _shade_by_sun(canvas: _Canvas, shadows) -> None:
    """Soft sun shadows: each shadow polygon darkens the texels of its own level; the levels'
    shadows are gathered into one cover and its edges blurred once."""
    tolerance = 0.03
    heights = np.nan_to_num(canvas.height, nan=-9.0)
    cover = np.zeros((canvas.size, canvas.size), bool)
    for height, shape in shadows:
        if shape.is_empty:
            continue
        if height == 0.0:  # the ground shadow falls on every flat ground layer (roads, zones)
            on_level = (heights > -1.0) & (heights <= tolerance)
        else:
            on_level = np.abs(heights - height) < tolerance
        cover |= canvas.shape_mask(shape) & on_level
    if not cover.any():
        return
    sigma = max(0.6, SHADOW_SOFT_IN * canvas.texels_per_inch)
    darkness = (ndimage.gaussian_filter(cover.astype(np.float32), sigma) * SHADOW_DARKNESS)[..., None]
    canvas.rgb[:] = canvas.rgb * (1.0 - darkness) + SHADOW_TINT * darkness


def _bake(spec: SceneSpec, geometry: TableGeometry, texels: int) -> TablePaint:
    width, depth = geometry.width, geometry.depth
    noise = _Noise(texels, width, depth)
    canvases = {"ground": _Canvas(texels, width, depth), "raised": _Canvas(texels, width, depth)}
    for piece in sorted(geometry.pieces, key=lambda p: p.top):  # higher tops over lower ones
        layer = layer_of(piece)
        polygons = _piece_polygons(piece)
        if layer is None or not polygons:
            continue
        canvas = canvases[layer]
        rows, cols = canvas.window(polygons)
        where = canvas.window_mask(polygons, rows, cols)
        if not where.any():
            continue
        rgb, height = canvas.rgb[rows, cols], canvas.height[rows, cols]
        rgb[where] = material(piece.terrain, colour_rgb(piece.colour), noise.window(rows, cols), where,
                              canvas.texels_per_inch)
        height[where] = piece.top
        if piece.kind not in ("ground", "road", "zone"):
            rim = _rim(where, canvas.texels_per_inch)
            rgb[rim] = np.clip(rgb[rim] * RIM_LIGHTEN, 0, 1)

    ground = canvases["ground"]
    markings = [shapes.dashed_centre_line(road.points, 1.0, 0.8, 0.12, 0.0) for road in spec.roads if road.markings]
    dashes = [tri[:, :2] for m in markings for tri in m]
    if dashes:  # on the road's level only: a kerb or a kicker across a centre line hides its dashes
        painted = ground.mask(dashes) & (np.nan_to_num(ground.height, nan=9.0) <= FLAT_TOP_IN)
        ground.rgb[painted] = MARKING_RGB * (0.9 + 0.1 * noise["grain"][painted, None])
    marks = mission_marks(spec, geometry.ruleset)  # the mission's zones, rings and exits, under the shadows
    for layer, canvas in canvases.items():
        paint_marks(canvas, marks, layer)

    coarse = _Canvas(max(texels // AO_COARSENING, 64), width, depth)
    occluders = _occluder_heights(geometry, coarse)
    shadows = table_shadows(geometry, SUN_DIRECTION)
    for canvas in canvases.values():
        _darken_by_occlusion(canvas, occluders)
        _shade_by_sun(canvas, shadows)
    for canvas in canvases.values():
        _fill_unpainted(canvas)
    return TablePaint(*(np.round(np.clip(canvases[k].rgb, 0, 1) * 255).astype(np.uint8) for k in ("ground", "raised")),
                      width=width, depth=depth)


def _fill_unpainted(canvas: _Canvas) -> None:
    """Give every texel no top was painted on the colour of the nearest painted one: a texture
    is sampled between texels and averaged into its smaller copies (mipmaps), so black around a
    roof would bleed into its edges, the more the farther the camera."""
    empty = np.isnan(canvas.height)
    if empty.all() or not empty.any():
        return
    nearest = ndimage.distance_transform_edt(empty, return_distances=False, return_indices=True)
    canvas.rgb[:] = canvas.rgb[nearest[0], nearest[1]]



def cut_walls(triangles: np.ndarray) -> np.ndarray:
    """Wall triangles (N, 3, 3) cut by a level plane :data:`WALL_AO_CUT_IN` above each one's
    foot (its lowest corner), the same surface in more triangles (winding kept)."""
    triangles = np.asarray(triangles, float).reshape(-1, 3, 3)
    if not len(triangles):
        return triangles
    feet = np.round(triangles[:, :, 2].min(axis=1), 3)
    pieces = []
    for foot in np.unique(feet):
        group = triangles[feet == foot]
        vertices, faces = group.reshape(-1, 3), np.arange(3 * len(group)).reshape(-1, 3)
        origin = (0.0, 0.0, float(foot) + WALL_AO_CUT_IN)
        for normal in ((0.0, 0.0, 1.0), (0.0, 0.0, -1.0)):
            cut_vertices, cut_faces = trimesh.intersections.slice_faces_plane(vertices, faces, normal, origin)[:2]
            if len(cut_faces):
                pieces.append(np.asarray(cut_vertices)[cut_faces])
    return np.concatenate(pieces) if pieces else triangles[:0]


def wall_shade(triangles: np.ndarray, normals: np.ndarray, geometry: TableGeometry) -> np.ndarray:
    """(N, 3) light factors of the corners of wall triangles (N, 3, 3) whose face normals are
    ``normals`` (N, 3): 1 - :data:`WALL_AO_STRENGTH` at the surface the wall stands on (found
    just outside the wall, static pieces only), fading to 1 over :data:`WALL_AO_FADE_IN`. A deck's
    side high over a road stays lit."""
    corners = np.asarray(triangles, float).reshape(-1, 3)
    if not len(corners):
        return np.ones((0, 3))
    outward = np.repeat(np.asarray(normals, float)[:, :2], 3, axis=0)
    outward /= np.maximum(np.linalg.norm(outward, axis=1, keepdims=True), 1e-9)
    probes = np.round(np.column_stack([corners[:, :2] + 0.05 * outward, corners[:, 2]]), 4)
    unique, inverse = np.unique(probes, axis=0, return_inverse=True)
    ground = geometry.surface_height(unique[:, :2], below=unique[:, 2] + 0.01, static_only=True)
    rise = np.maximum(unique[:, 2] - ground, 0.0)[inverse.reshape(-1)]
    return (1.0 - WALL_AO_STRENGTH * np.exp(-rise / WALL_AO_FADE_IN)).reshape(-1, 3)
