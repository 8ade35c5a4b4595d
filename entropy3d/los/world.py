"""The table as line of sight sees it: cached ray engines over the pieces, queried per game state.

:class:`LosWorld` is a thin cached wrapper: it builds the ray engine of the static pieces once,
keeps the destructible pieces in a second, small engine that :meth:`LosWorld.updated` rebuilds
alone when pieces are moved or destroyed, and takes the miniatures' poses (game state) with each
query. The algorithms are the plain functions of :mod:`~entropy3d.los.topdown`,
:mod:`~entropy3d.los.truelos` and :mod:`~entropy3d.los.rays`.

What blocks true LOS is every solid piece (not the painted zones and roads) and every other
miniature; the viewer's and the target's own miniatures never block their own rays.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np
import shapely
import trimesh
from shapely.geometry import Polygon
from trimesh.path.polygons import projected

from entropy3d.geometry import BaseShape, Pose
from entropy3d.los.losrules import LosRules, load_los_rules
from entropy3d.los.rays import (
    NO_HIT,
    boxes_touching,
    convex_planes,
    default_caster,
    group_boxes,
    group_rows,
    segment_box_hits_inverse,
    segment_convex_entry,
    take_rows,
)
from entropy3d.los.results import LosResult, SightGeometry, TopDownVerdict, TrueVerdict
from entropy3d.los.topdown import (
    BaseOutline,
    Footprints,
    base_outline,
    base_outlines,
    convex_rings,
    inner_box,
    largest_first,
    outline_corners,
    rings_planes,
    top_down_batch,
)
from entropy3d.los.truelos import (
    rays_ahead,
    rays_near_miniatures,
    silhouette_rays,
    slab_planes,
    stops_short,
    true_verdicts_numbers,
    view_windows,
)
from entropy3d.scene.build import Piece, TableGeometry, build_table_geometry
from entropy3d.scene.footprints import piece_footprints, plan_outline
from entropy3d.scene.miniature import miniature_shape
from entropy3d.scene.table import Table
from entropy3d.systems.entropy_city.combat import shot_in_sight

#: painted decals: seen, never in the way
DECAL_KINDS = frozenset({"zone", "road"})
#: inches: silhouette rays stop this short of the target surface they end on
RAY_END_GAP_IN = 1e-4
#: inches: a destructible's box is widened this much before rays that miss it skip its engine,
#: far more than the float32 rounding of the engine's vertices (about 3e-6 in on a 48 in table)
PIECE_BOX_MARGIN_IN = 1e-3
#: miniatures kept built, keyed by (model id, pose): a game state's poses are asked many times
MINIATURE_CACHE_SIZE = 512
#: rays handed to the static engine at once: their copies and its answers (about 150 bytes a ray)
#: stay under a megabyte, so a query's peak memory stays low; glibc gives freed memory back to the
#: system past a few MB at the top of the heap, and the next query page-faults it in again
RAYS_PER_CAST = 4096


@dataclass(frozen=True, eq=False)
class Miniature:
    """One miniature as line of sight sees it at one pose, table inches."""

    id: str
    """Model id."""
    pose: Pose
    """Where it stands; ``z`` is the surface under its base."""
    base: BaseShape
    """Its base (EC-BASE)."""
    parts: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]
    """Convex solids bike, rider, base as (vertices, plane normals, plane offsets)."""
    sight_slabs: tuple[np.ndarray, np.ndarray, np.ndarray]
    """Bike and rider as slabs (:func:`~entropy3d.los.truelos.slab_planes`), what a ray is seen on."""
    eye: np.ndarray
    """The rider's eye: the top of the rider solid less ``eye_below_rider_top_in``."""
    top: float
    """Highest point (top of the rider), inches."""
    low: np.ndarray
    """(3,) lowest corner of its bounding box."""
    high: np.ndarray
    """(3,) highest corner of its bounding box."""
    part_boxes: tuple[tuple[np.ndarray, np.ndarray], ...]
    """(3,) lowest and highest corners of each of ``parts``."""
    base_outline: BaseOutline
    """Its base seen from above, as top-down LOS tests it (a footprint row)."""


#: a convex solid as (vertices (V, 3), plane normals (P, 3), plane offsets (P,))
ConvexSolid = tuple[np.ndarray, np.ndarray, np.ndarray]


def miniature_parts(base: BaseShape, table: Table, kind: str | None = None
                    ) -> tuple[tuple[ConvexSolid, ...], float, tuple]:
    """A miniature standing at the origin facing +x, from ``miniature_shape`` (scene layer): its
    convex solids bike, rider, base as (vertices, plane normals, plane offsets), the top of the
    rider (a figure on foot: body, head, base and the top of its head; a vehicle: bodywork,
    glasshouse, base and its roof) and the bike and rider as slabs. ``kind`` is the model's
    ``bike_type``. Every miniature of one kind shares these; :func:`make_miniature` places them."""
    shape = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), table.ruleset, kind)
    parts = tuple((np.asarray(mesh.vertices, float), *convex_planes(mesh))
                  for mesh in (shape.bike, shape.rider, shape.base))
    return parts, float(shape.rider.bounds[1][2]), slab_planes(parts[:2])


def make_miniature(model_id: str, base: BaseShape, pose: Pose, table: Table, rules: LosRules,
                   local: tuple | None = None, outline: BaseOutline | None = None) -> Miniature:
    """The LOS view of one miniature: :func:`make_miniatures` of one."""
    return make_miniatures([model_id], base, [pose], table, rules, local,
                           [outline or base_outline(base, pose)])[0]


def make_miniatures(model_ids: Sequence[str], base: BaseShape, poses: Sequence[Pose], table: Table,
                    rules: LosRules, local: tuple | None, outlines: Sequence[BaseOutline]) -> list[Miniature]:
    """The LOS view of miniatures on one base shape: its :func:`miniature_parts` (``local``,
    built here when not given) turned to each one's facing and moved to where it stands, all at
    once (one stacked matmul per part, the same arithmetic as one by one); ``outlines``: their
    :func:`base_outline`."""
    local_parts, local_top, (slab_normals, near, far) = local or miniature_parts(base, table)
    turns = [math.radians(pose.facing_deg) for pose in poses]
    rotations_t = np.array([[[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]]      # (M, 3, 3) rotations, transposed
                            for c, s in zip(map(math.cos, turns), map(math.sin, turns))]).reshape(-1, 3, 3)
    where = np.array([[pose.x, pose.y, pose.z] for pose in poses], float).reshape(-1, 3)
    placed = []
    for vertices, normals, offsets in local_parts:
        turned = normals @ rotations_t
        placed.append((vertices @ rotations_t + where[:, None], turned, offsets + (turned @ where[:, :, None])[..., 0]))
    everything = np.concatenate([vertices for vertices, _, _ in placed], axis=1)
    lows, highs = everything.min(axis=1), everything.max(axis=1)
    part_lows = [vertices.min(axis=1) for vertices, _, _ in placed]
    part_highs = [vertices.max(axis=1) for vertices, _, _ in placed]
    slab_normals = slab_normals @ rotations_t[:, None]
    shifts = (slab_normals @ where[:, None, :, None])[..., 0]
    minis = []
    for m, (model_id, pose, outline) in enumerate(zip(model_ids, poses, outlines)):
        top = pose.z + local_top
        minis.append(Miniature(
            model_id, pose, base, tuple((v[m], n[m], o[m]) for v, n, o in placed),
            (slab_normals[m], near + shifts[m], far - shifts[m]),
            np.array([pose.x, pose.y, top - rules.eye_below_rider_top_in]), float(highs[m, 2]), lows[m], highs[m],
            tuple((low[m], high[m]) for low, high in zip(part_lows, part_highs)), outline))
    return minis


def piece_footprint(piece: Piece):
    """A piece's outline seen from above (shapely): the union of its convex parts, or the
    projected silhouette of a mesh file's triangles; where that cannot be made (trimesh gives up
    on odd meshes, and GEOS refuses the union of a self-intersecting scan's triangles with "side
    location conflict", a traceback of `los` in issue 49), the outline of its corners."""
    if piece.kind == "mesh":
        try:
            outline = projected(piece.mesh, normal=[0, 0, 1])
        except (shapely.errors.GEOSException, ValueError):
            outline = None
        if outline is None or outline.is_empty or not outline.is_valid:
            outline = plan_outline(piece.mesh.vertices) or Polygon()
        return outline
    return shapely.union_all([footprint.outline for footprint in piece_footprints(piece)])


def _footprint_entry(index: int, piece: Piece):
    """(piece index, outline, (normals, offsets) of its convex pieces, largest first)."""
    outline = piece_footprint(piece)
    return index, outline, rings_planes(largest_first(convex_rings(outline)))


def _objects(items: list) -> np.ndarray:
    """A 1-D object array of ``items`` (numpy would not guess the shape of geometry objects)."""
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def _pose_matrix(pose: Pose) -> np.ndarray:
    matrix = trimesh.transformations.rotation_matrix(math.radians(pose.facing_deg), [0, 0, 1])
    matrix[:3, 3] = [pose.x, pose.y, pose.z]
    return matrix


def home_poses(table: Table, geometry: TableGeometry) -> dict[str, Pose]:
    """Where each piece stands as built, so a move can be given as a new :class:`Pose`.

    Destructibles and mesh pieces use the scene's position, facing and height; other pieces their
    outline's centre, facing 0 and their lowest point.
    """
    homes: dict[str, Pose] = {}
    for piece in geometry.pieces:
        lo, hi = piece.mesh.bounds
        homes[piece.id] = Pose(float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2, 0.0, float(lo[2]))
    for item in table.spec.destructibles:
        homes[item.id] = Pose(item.position[0], item.position[1], item.facing, item.base_height)
    for item in table.spec.meshes:
        homes[item.id] = Pose(item.position[0], item.position[1], item.rotation[2], item.position[2])
    return homes


class LosWorld:
    """Line-of-sight queries over one table; cheap to query, cheap to update.

    ``caster`` builds a ray engine from (meshes, owners): :func:`~entropy3d.los.rays.default_caster`
    (Embree) unless a test passes :class:`~entropy3d.los.rays.ExactCaster`.
    """

    def __init__(self, table: Table, geometry: TableGeometry | None = None, rules: LosRules | None = None,
                 caster: Callable = default_caster):
        self.table = table
        self.geometry = geometry or build_table_geometry(table)
        self.rules = rules or load_los_rules()
        self._caster = caster
        self._homes = home_poses(table, self.geometry)
        solid = [p for p in self.geometry.pieces if p.kind not in DECAL_KINDS]
        self._originals = {piece.id: piece for piece in solid}
        self._miniature_cache: dict[tuple[str, Pose], Miniature] = {}
        self._local_miniatures: dict[tuple[BaseShape, str], tuple] = {}
        self._start_poses: dict[str, Pose] | None = None
        self._set_pieces(tuple(p for p in solid if not p.dynamic), tuple(p for p in solid if p.dynamic))

    def _set_pieces(self, static: tuple[Piece, ...], dynamic: tuple[Piece, ...], static_caster=None,
                    static_footprints=None) -> None:
        self.static_pieces, self.dynamic_pieces = static, dynamic
        self.pieces = static + dynamic
        offset = len(static)
        self.static_caster = static_caster or self._caster([p.mesh for p in static], range(offset))
        self.dynamic_caster = self._caster([p.mesh for p in dynamic], range(offset, offset + len(dynamic)))
        corners = np.array([p.mesh.bounds for p in dynamic], float).reshape(-1, 2, 3)
        self._dynamic_boxes = (corners[:, 0] - PIECE_BOX_MARGIN_IN, corners[:, 1] + PIECE_BOX_MARGIN_IN)
        corners = np.array([p.mesh.bounds for p in static], float).reshape(-1, 2, 3)
        self._static_boxes = (corners[:, 0] - PIECE_BOX_MARGIN_IN, corners[:, 1] + PIECE_BOX_MARGIN_IN)
        if static_footprints is None:
            static_footprints = [_footprint_entry(k, p) for k, p in enumerate(static) if p.size_class > 0]
        self._static_footprints = static_footprints
        self._pieces_footprints_built = None
        entries = static_footprints + [
            _footprint_entry(offset + k, p) for k, p in enumerate(dynamic) if p.size_class > 0]
        self._piece_footprints = entries

    def __repr__(self) -> str:
        return (f"LosWorld({self.table.name!r}, {len(self.static_pieces)} static + "
                f"{len(self.dynamic_pieces)} destructible pieces, {self.static_caster.name})")

    # ----------------------------------------------------------------------------- scenery state

    def updated(self, changes: Mapping[str, Pose | None]) -> "LosWorld":
        """A world with pieces moved (id -> new :class:`Pose` of where it stands) or removed
        (id -> None); this world is left as it is. Poses are absolute, from the piece as built,
        so a removed piece can be put back. Only the destructibles' engine is rebuilt; the static
        engine is shared, unless a change names a static piece."""
        unknown = sorted(set(changes) - set(self._originals))
        if unknown:
            raise KeyError(f"no solid piece {', '.join(map(repr, unknown))} on {self.table.name!r}")

        def rebuilt(pieces: tuple[Piece, ...], dynamic: bool) -> tuple[Piece, ...]:
            kept = [piece for piece in pieces if piece.id not in changes]
            moved = [self._moved(piece_id, pose) for piece_id, pose in changes.items()
                     if pose is not None and self._originals[piece_id].dynamic == dynamic]
            return tuple(kept + moved)

        world = copy.copy(self)
        dynamic = rebuilt(self.dynamic_pieces, True)
        if all(self._originals[piece_id].dynamic for piece_id in changes):
            world._set_pieces(self.static_pieces, dynamic, self.static_caster, self._static_footprints)
        else:
            world._set_pieces(rebuilt(self.static_pieces, False), dynamic)
        return world

    def _moved(self, piece_id: str, pose: Pose) -> Piece:
        original = self._originals[piece_id]
        transform = _pose_matrix(pose) @ np.linalg.inv(_pose_matrix(self._homes[piece_id]))
        mesh = original.mesh.copy()
        mesh.apply_transform(transform)
        parts = tuple(part.copy().apply_transform(transform) for part in original.parts)
        return dataclasses.replace(original, mesh=mesh, parts=parts)

    # ---------------------------------------------------------------------------- miniatures

    def start_poses(self) -> dict[str, Pose]:
        """Every model's starting pose; z from the scene, else the highest surface under it.
        Probed once per table (the scene's pieces as built, whatever :meth:`updated` moved)."""
        if self._start_poses is None:
            models = self.table.models
            heights = self.geometry.surface_height([m.position[:2] for m in models]) if models else []
            self._start_poses = {m.id: self.table.start_pose(m, float(z)) for m, z in zip(models, heights)}
        return dict(self._start_poses)

    def miniatures(self, poses: Mapping[str, Pose | None] | None = None) -> dict[str, Miniature]:
        """The miniatures at ``poses`` (model id -> Pose; ids left out stand at their start pose;
        None: off the table, e.g. taken out, so it neither sees nor blocks)."""
        chosen = {**self.start_poses(), **(poses or {})}
        def not_kept() -> list:
            missing = []
            for model_id, pose in chosen.items():
                model = self.table.model(model_id)  # a KeyError naming the models there are
                if pose is not None and (model_id, pose) not in self._miniature_cache:
                    missing.append((model_id, pose, self.table.base_of(model), model.bike_type))
            return missing

        missing = not_kept()
        if len(self._miniature_cache) + len(missing) > MINIATURE_CACHE_SIZE:
            # forgotten all at once, so the models that were kept are placed again with the rest
            self._miniature_cache.clear()
            missing = not_kept()
        outlines = base_outlines([base for _, _, base, _ in missing], [pose for _, pose, _, _ in missing])
        shapes: dict[tuple[BaseShape, str], list[int]] = {}
        for k, (_, _, base, kind) in enumerate(missing):
            shapes.setdefault((base, kind), []).append(k)
        for (base, kind), members in shapes.items():
            if (base, kind) not in self._local_miniatures:
                self._local_miniatures[(base, kind)] = miniature_parts(base, self.table, kind)
            placed = make_miniatures([missing[k][0] for k in members], base, [missing[k][1] for k in members],
                                     self.table, self.rules, self._local_miniatures[(base, kind)],
                                     [outlines[k] for k in members])
            self._miniature_cache.update(((missing[k][0], missing[k][1]), mini) for k, mini in zip(members, placed))
        minis = {}
        for model_id, pose in chosen.items():
            if pose is None:
                continue
            key = (model_id, pose)
            minis[model_id] = self._miniature_cache[key]
        return minis

    # ------------------------------------------------------------------------------- queries

    def cast(self, starts, ends, minis: Sequence[Miniature] = (), skip: np.ndarray | None = None,
             counts: np.ndarray | None = None, near: Sequence[tuple[np.ndarray, ...]] | None = None):
        """First hit of each segment against the pieces and ``minis``.

        ``skip`` (N, k) lists, per segment, indices into ``minis`` it must ignore (-1 pads).
        ``counts`` optionally groups consecutive segments (a pair's rays) so that a miniature is
        only tested against the groups whose bounding box it touches. ``near`` instead gives, per
        miniature, per part of it (bike, rider, base), the segments (indices) that may meet that
        part, every other one missing it.
        Returns ``(t, names)``: fraction along the segment of the first hit (inf: clear) and the
        id of what it hit ('' when clear).
        """
        t, owner = self._first_hits(starts, ends, minis, skip, counts, near)
        return t, self._owner_names(minis)[owner - NO_HIT]  # NO_HIT (-1) maps to ""

    def _owner_names(self, minis: Sequence[Miniature]) -> np.ndarray:
        """What an owner index of :meth:`_first_hits` names, shifted by one: '' (no hit), the
        pieces, then ``minis``."""
        return np.array([""] + [p.id for p in self.pieces] + [m.id for m in minis], dtype=object)

    def _first_hits(self, starts, ends, minis: Sequence[Miniature], skip: np.ndarray | None,
                    counts: np.ndarray | None, near: Sequence[tuple[np.ndarray, ...]] | None,
                    near_destructibles: np.ndarray | None = None, near_static: np.ndarray | None = None,
                    start_of: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`cast` with the hit as an owner index: a piece's index in ``self.pieces``, or
        ``len(self.pieces)`` plus the miniature's index in ``minis``, or NO_HIT.
        ``near_destructibles`` and ``near_static`` optionally list the only segments (indices)
        that may meet a destructible piece, or a static one: the others skip that engine.
        ``start_of`` optionally says which row of ``starts`` each segment starts at (a pair's
        rays share its eye: no array of starts as long as the rays is built)."""
        starts = np.asarray(starts, float).reshape(-1, 3)
        ends = np.asarray(ends, float).reshape(-1, 3)
        if start_of is not None and (near is None or near_static is None or near_destructibles is None):
            starts, start_of = take_rows(starts, start_of), None

        def starts_of(rows: np.ndarray) -> np.ndarray:
            return take_rows(starts, rows if start_of is None else start_of.take(rows))

        if near_static is None:
            t, owner = self.static_caster.first_hits(starts, ends)
        else:
            t = np.full(len(ends), np.inf)
            owner = np.full(len(ends), NO_HIT, dtype=np.int64)
            for begin in range(0, len(near_static), RAYS_PER_CAST):
                rows = near_static[begin:begin + RAYS_PER_CAST]
                t[rows], owner[rows] = self.static_caster.first_hits(starts_of(rows), take_rows(ends, rows))
        if near_destructibles is None:
            near_destructibles = np.arange(len(ends))
        t_dynamic, owner_dynamic = self.dynamic_caster.first_hits(starts_of(near_destructibles),
                                                                  take_rows(ends, near_destructibles))
        nearer = t_dynamic < t[near_destructibles]
        t[near_destructibles[nearer]] = t_dynamic[nearer]
        owner[near_destructibles[nearer]] = owner_dynamic[nearer]
        pieces = len(self.pieces)
        if counts is None:
            counts = np.array([len(starts)])
        if near is None:
            # which groups' boxes each miniature's box touches, all at once: a miniature is tested
            # against the rays of those groups only, so the work follows the rays near it; then
            # each part against the rays that meet its box
            group_low, group_high = group_boxes(starts, ends, counts)
            touching = boxes_touching(group_low, group_high, np.array([m.low for m in minis]).reshape(-1, 3),
                                      np.array([m.high for m in minis]).reshape(-1, 3))
            first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
            near = [self._rows_near_parts(starts, ends, group_rows(first[touching[:, k]], counts[touching[:, k]]),
                                          mini) for k, mini in enumerate(minis)]
        for index, mini in enumerate(minis):
            for (_, normals, offsets), rows in zip(mini.parts, near[index]):
                if skip is not None:
                    rows = rows[~(skip[rows] == index).any(axis=1)]
                if not len(rows):  # most miniatures are near no ray of the batch
                    continue
                # column-major: the plane tests run along contiguous columns (take_rows keeps it)
                row_starts = np.asfortranarray(starts_of(rows))
                entry = segment_convex_entry(row_starts, np.asfortranarray(take_rows(ends, rows)) - row_starts,
                                             normals, offsets)
                closer = entry < t[rows]
                t[rows[closer]] = entry[closer]
                owner[rows[closer]] = pieces + index
        return t, owner

    @staticmethod
    def _rows_near_parts(starts: np.ndarray, ends: np.ndarray, rows: np.ndarray, mini: Miniature) -> tuple:
        """Of ``rows``, per part of ``mini``, those whose segment meets the part's box; none when
        the segment misses the miniature's box (it holds the parts' boxes; the slab test is
        monotone in corners)."""
        row_starts = np.asfortranarray(take_rows(starts, rows))
        with np.errstate(divide="ignore"):
            row_inverse = 1.0 / (np.asfortranarray(take_rows(ends, rows)) - row_starts)
        kept = segment_box_hits_inverse(row_starts, row_inverse, mini.low, mini.high)
        rows, row_starts, row_inverse = rows[kept], take_rows(row_starts, kept), take_rows(row_inverse, kept)
        return tuple(rows[segment_box_hits_inverse(row_starts, row_inverse, low, high)]
                     for low, high in mini.part_boxes)

    def line_of_sight(self, viewer: str, target: str, poses: Mapping[str, Pose | None] | None = None) -> LosResult:
        """Both verdicts for ``viewer`` looking at ``target`` (model ids) at ``poses``."""
        if viewer == target:
            raise ValueError(f"a model cannot look at itself ({viewer!r})")
        return self.all_pairs(poses, pairs=[(viewer, target)])[(viewer, target)]

    def all_pairs(self, poses: Mapping[str, Pose | None] | None = None,
                  pairs: Sequence[tuple[str, str]] | None = None) -> dict[tuple[str, str], LosResult]:
        """Both verdicts for every ordered (viewer, target) pair, in one batch of ray casts."""
        minis = self.miniatures(poses)
        ids = list(minis)
        order = {model_id: k for k, model_id in enumerate(ids)}
        if pairs is None:
            pairs = [(a, b) for a in ids for b in ids if a != b]
        for model_id in {i for pair in pairs for i in pair} - set(order):
            self.table.model(model_id)  # a KeyError naming the models there are
            raise KeyError(f"model {model_id!r} is off the table (its pose is None)")
        index_pairs = [(order[a], order[b]) for a, b in pairs]
        mini_list = [minis[i] for i in ids]
        pair_eyes = np.array([mini_list[v].eye for v, _ in index_pairs]).reshape(-1, 3)
        targets = np.array([t for _, t in index_pairs], dtype=np.int64)
        target_vertices = np.array([np.concatenate([m.parts[0][0], m.parts[1][0]]) for m in mini_list])[targets]
        slabs = [np.array([m.sight_slabs[k] for m in mini_list])[targets] for k in range(3)]
        windows = view_windows(pair_eyes, target_vertices)
        ends, parts, cells, counts = silhouette_rays(pair_eyes, target_vertices, *slabs, self.rules.silhouette_grid,
                                                     windows)
        pair_of_ray = np.repeat(np.arange(len(index_pairs)), counts)
        # EC-LOS-2: a ray to a point behind the viewer's base centre line sees nothing; skip it
        viewers = np.array([v for v, _ in index_pairs], dtype=np.int64)
        in_front = rays_ahead(ends, counts, np.array([m.pose.xy for m in mini_list]).reshape(-1, 2)[viewers],
                              np.array([m.pose.forward for m in mini_list]).reshape(-1, 2)[viewers])
        cast_pair = pair_of_ray.compress(in_front)
        # near never holds a pair's own viewer or target, so no ray needs a skip list
        # the rays no piece's box (widened past Embree's float32 rounding) comes near skip its engine
        near, near_destructibles, near_static = rays_near_miniatures(
            pair_eyes, target_vertices, self.rules.silhouette_grid, index_pairs, mini_list, cast_pair,
            cells.compress(in_front), self._dynamic_boxes, windows, self._static_boxes)
        del cells
        # a ray near no solid reaches its target: only the others get a start and a stop (two
        # thirds of the rays cast at 8 bikes on crossroads)
        tested = np.zeros(len(cast_pair), bool)
        for rows in (near_static, near_destructibles, *(rows for parts in near for rows in parts)):
            tested[rows] = True
        row_of_cast = np.cumsum(tested) - 1     # a cast ray's row among the tested ones
        casting = in_front.copy()
        casting[in_front] = tested
        # the rays' starts are their pairs' eyes, never repeated ray by ray
        start_of = cast_pair.compress(tested)
        del cast_pair, tested
        stops = stops_short(ends, np.flatnonzero(casting), pair_eyes, start_of, RAY_END_GAP_IN)
        # the same rays, as rows among the tested ones
        near, near_destructibles, near_static = ([tuple(row_of_cast.take(rows) for rows in parts) for parts in near],
                                                 row_of_cast.take(near_destructibles), row_of_cast.take(near_static))
        del row_of_cast
        t, hit_owner = self._first_hits(np.asfortranarray(pair_eyes), stops, mini_list, None, None, near,
                                        near_destructibles, near_static, start_of)     # of the rays cast, in order
        del stops
        hit = np.isfinite(t)
        reached = in_front.copy()
        reached[casting] = ~hit

        numbers = true_verdicts_numbers(pair_of_ray, parts, reached, len(index_pairs), self.rules, ~in_front)
        # who blocks each pair's rays: unique (pair, name) among the rays that hit something
        stopped = np.flatnonzero(casting).compress(hit)
        owner_names = self._owner_names(mini_list)
        owners = len(owner_names)
        blocked_by = [[] for _ in index_pairs]
        keys = np.take(pair_of_ray, stopped) * owners + (hit_owner.compress(hit) - NO_HIT)
        for key in np.flatnonzero(np.bincount(keys, minlength=len(index_pairs) * owners)).tolist():
            blocked_by[key // owners].append(str(owner_names[key % owners]))
        del t, hit_owner, hit, stopped, keys, casting, pair_of_ray, near, near_static, near_destructibles, start_of

        # top-down after true LOS, when only the rays' answers are kept: its work arrays never
        # stack on the rays' (a lower peak of memory: glibc keeps it for the next query)
        lines, clear, line_counts, blocker_of_pair = top_down_batch(
            index_pairs, [m.pose for m in mini_list], [m.base for m in mini_list],
            np.array([m.eye[2] for m in mini_list]), self._footprints(mini_list), self.rules)
        footprint_names = [self.pieces[k].id for k, _, _ in self._piece_footprints] + ids
        # who blocks each pair's top-down lines, and how many are clear
        top_blockers = [[] for _ in index_pairs]
        for pair, row in zip(*(column.tolist() for column in np.nonzero(blocker_of_pair))):
            top_blockers[pair].append(footprint_names[row])
        clear_counts = np.bincount(np.repeat(np.arange(len(index_pairs)), line_counts)[clear],
                                   minlength=len(index_pairs)).tolist()
        line_bounds = np.concatenate([[0], np.cumsum(line_counts)]).tolist()

        results = {}
        bounds = np.concatenate([[0], np.cumsum(counts)]).tolist()
        for k, ((a, b), (v, _)) in enumerate(zip(pairs, index_pairs)):
            span, line_span = slice(bounds[k], bounds[k + 1]), slice(line_bounds[k], line_bounds[k + 1])
            results[(a, b)] = LosResult(
                viewer=a, target=b,
                top_down=TopDownVerdict(clear_counts[k] > 0, clear_counts[k], line_bounds[k + 1] - line_bounds[k],
                                        tuple(sorted(set(top_blockers[k])))),
                true_los=TrueVerdict(**numbers[k], blockers=tuple(sorted(blocked_by[k]))),
                geometry=SightGeometry(lines[line_span], clear[line_span], mini_list[v].eye, ends[span],
                                       reached[span]),
            )
        return results

    def closest_target(self, viewer: str, targets: Sequence[str] | None = None,
                       poses: Mapping[str, Pose | None] | None = None) -> str | None:
        """The closest of ``targets`` (every other model by default) that ``viewer`` can shoot:
        in its front arc and line of sight with a shot allowed (GANG-ARC, EC-COVER-1); None when
        there is none. Distance is between base centres, inches; ties go to the id first listed."""
        minis = self.miniatures(poses)
        targets = [t for t in (targets if targets is not None else minis) if t != viewer]
        results = self.all_pairs(poses, pairs=[(viewer, t) for t in targets])
        ruleset = self.table.ruleset
        shots = [t for t in targets if shot_in_sight(results[(viewer, t)].true_los.visible_fraction,
                                                     results[(viewer, t)].true_los.bike_seen, ruleset)]
        origin = minis[viewer].pose.xy
        return min(shots, key=lambda t: float(np.linalg.norm(minis[t].pose.xy - origin)), default=None)

    def _pieces_footprints(self) -> Footprints:
        """The pieces' rows of :meth:`_footprints`, built once per set of pieces."""
        if self._pieces_footprints_built is None:
            pieces = [self.pieces[k] for k, _, _ in self._piece_footprints]
            convex = tuple((row, *outline_corners(outline), *convex_parts)
                           for row, (_, outline, convex_parts) in enumerate(self._piece_footprints))
            self._pieces_footprints_built = Footprints(
                polygons=_objects([polygon for _, polygon, _ in self._piece_footprints]),
                size_class=np.array([p.size_class for p in pieces], dtype=np.int64),
                bottom=np.array([float(p.mesh.bounds[0][2]) for p in pieces], dtype=float),
                top=np.array([p.top for p in pieces], dtype=float),
                miniature=np.full(len(pieces), -1, dtype=np.int64),
                convex=convex,
                ellipses=(None,) * len(pieces),
                inner_boxes=tuple(inner_box(*entry[1:]) for entry in convex))
        return self._pieces_footprints_built

    def _footprints(self, minis: Sequence[Miniature]) -> Footprints:
        """What can block top-down lines: the pieces' rows, then one row per miniature's base."""
        pieces = self._pieces_footprints()
        rows = len(pieces.convex)
        outlines = [mini.base_outline for mini in minis]
        return Footprints(
            polygons=np.concatenate([pieces.polygons, _objects([o.polygon for o in outlines])]),
            size_class=np.concatenate([pieces.size_class, np.full(len(minis), self.rules.miniature_size_class)]),
            bottom=np.concatenate([pieces.bottom, [m.pose.z for m in minis]]),
            top=np.concatenate([pieces.top, [m.top for m in minis]]),
            miniature=np.concatenate([pieces.miniature, np.arange(len(minis))]),
            convex=pieces.convex + tuple((rows + index, o.low, o.high, o.normals, o.offsets)
                                         for index, o in enumerate(outlines)),
            ellipses=pieces.ellipses + tuple(o.ellipse for o in outlines),
            inner_boxes=pieces.inner_boxes + (None,) * len(minis),
        )

