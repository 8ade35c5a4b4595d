"""Top-down line of sight (EC-LOS-1..3): thin lines from base edge to base edge, seen from above.

Plain functions on numpy arrays (shapely only to describe outlines). A line is drawn from every sampled point
of the front half of the viewer's base edge (EC-LOS-2) to every sampled point of the target's
base edge that lies in front of the viewer; the target is visible when one line is clear. How a
piece's size class and the models' levels decide whether it blocks is rules data
(``rules/los.yaml``, explained there) and lives in :func:`piece_blocks` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import shapely
import trimesh

from entropy3d.geometry import BaseShape, Pose, poses_to_table
from entropy3d.los._toplines import lines_blocked
from entropy3d.los.losrules import LosRules
from entropy3d.los.rays import boxes_touching, capsules_touching, group_boxes, group_rows, take_rows

#: inches: outlines are simplified this much before being cut into convex pieces
CONVEX_TOLERANCE_IN = 0.01
#: inches: a piece whose top is this close to a model's surface is what it stands on
STAND_TOLERANCE_IN = 0.05
#: what keeps the cheap sure answers of :func:`lines_blocked` clear of rounding: inches inside an
#: inner box or circle, unit-disc lengths inside or outside a base's ellipses
SURE_MARGIN = 1e-9


@dataclass(frozen=True, eq=False)
class Footprints:
    """What can block top-down lines: one row per piece or miniature, inches.

    polygons: shapely outlines seen from above. size_class: EC-LOS-3 class (> 0).
    bottom, top: lowest and highest z. miniature: index of the miniature a row is (-1: a piece).
    convex: per row, (row, low, high, normals, offsets): its outline's bounding box and convex
    pieces (:func:`convex_outlines`).
    """

    polygons: np.ndarray
    size_class: np.ndarray
    bottom: np.ndarray
    top: np.ndarray
    miniature: np.ndarray
    convex: tuple
    ellipses: tuple = ()
    """Per row, for a miniature's base: the ellipse its outline is inscribed in (:func:`base_ellipse`),
    else None; empty: none known."""
    inner_boxes: tuple = ()
    """Per row whose outline is its own bounding box (a building square to the table): that box
    shrunk by a hair (:func:`inner_box`), else None; empty: none known."""


def convex_outlines(polygon, tolerance: float = CONVEX_TOLERANCE_IN) -> tuple[np.ndarray, np.ndarray]:
    """A shapely (multi)polygon as Q convex pieces: (Q, E, 2) edge normals and (Q, E) offsets,
    inside where normals . p <= offsets; pieces with fewer edges are padded with 0 . p <= 1.

    A convex outline is one piece; any other is cut into the triangles of its outline simplified
    by ``tolerance`` inches (a mesh file's silhouette has hundreds of collinear corners).
    """
    return rings_planes(convex_rings(polygon, tolerance))


def convex_rings(polygon, tolerance: float = CONVEX_TOLERANCE_IN) -> list[np.ndarray]:
    """The corners (K, 2) of each convex piece of :func:`convex_outlines`, in its order."""
    rings = []
    polygon = polygon.simplify(tolerance, preserve_topology=True)
    for part in getattr(polygon, "geoms", [polygon]):
        if part.is_empty or part.area <= 0:
            continue
        if part.convex_hull.area - part.area <= 1e-9 * max(1.0, part.area):
            rings.append(np.asarray(part.exterior.coords)[:-1])
        else:
            vertices, faces = trimesh.creation.triangulate_polygon(part, engine="earcut")
            rings.extend(vertices[face] for face in faces)
    return rings


def rings_planes(rings: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Convex rings' edges as (Q, E, 2) normals and (Q, E) offsets (:func:`convex_outlines`)."""
    edges_max = max((len(ring) for ring in rings), default=3)
    normals = np.zeros((len(rings), edges_max, 2))
    offsets = np.ones((len(rings), edges_max))
    for q, ring in enumerate(rings):
        x, y = ring[:, 0], ring[:, 1]
        if np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) < 0:  # make it counter-clockwise
            ring = ring[::-1]
        edges = np.roll(ring, -1, axis=0) - ring
        keep = np.hypot(edges[:, 0], edges[:, 1]) > 1e-12
        edge_normals = np.column_stack([edges[keep, 1], -edges[keep, 0]])
        edge_normals /= np.hypot(edge_normals[:, 0], edge_normals[:, 1])[:, None]
        normals[q, :len(edge_normals)] = edge_normals
        offsets[q, :len(edge_normals)] = np.einsum("ij,ij->i", edge_normals, ring[keep])
    return normals, offsets


def same_length_rings_planes(rings: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """:func:`rings_planes` of many one-ring outlines whose rings all have K corners, (M, K, 2):
    per outline its (1, K, 2) normals and (1, K) offsets, the same arithmetic ring by ring; None
    when a ring has an edge too short to keep (then :func:`rings_planes` it one by one)."""
    x, y = rings[:, :, 0], rings[:, :, 1]
    clockwise = (np.einsum("mk,mk->m", x, np.roll(y, -1, axis=1))
                 - np.einsum("mk,mk->m", np.roll(x, -1, axis=1), y)) < 0
    rings = np.where(clockwise[:, None, None], rings[:, ::-1], rings)
    edges = np.roll(rings, -1, axis=1) - rings
    if not np.all(np.hypot(edges[..., 0], edges[..., 1]) > 1e-12):
        return None
    normals = np.stack([edges[..., 1], -edges[..., 0]], axis=-1)
    normals /= np.hypot(normals[..., 0], normals[..., 1])[..., None]
    offsets = np.einsum("mkj,mkj->mk", normals, rings)
    return [(n[None], o[None]) for n, o in zip(normals, offsets)]


def largest_first(rings: list[np.ndarray]) -> list[np.ndarray]:
    """Convex rings ordered by area, largest first (stable): a line touching an outline
    most likely touches its largest pieces, so testing them first settles most lines early."""
    areas = [abs(np.dot(r[:, 0], np.roll(r[:, 1], -1)) - np.dot(np.roll(r[:, 0], -1), r[:, 1])) for r in rings]
    return [rings[k] for k in sorted(range(len(rings)), key=lambda k: -areas[k])]


def inner_radius(centre: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> float:
    """Inches: the largest circle about ``centre`` that a one-piece convex outline holds (nan
    when the outline has several pieces: no line is then sure to touch it by that circle)."""
    if len(normals) != 1:
        return np.nan
    return float(np.min(offsets[0] - normals[0] @ centre))


def inner_box(low: np.ndarray, high: np.ndarray, normals: np.ndarray, offsets: np.ndarray,
              margin: float = 1e-9) -> tuple[np.ndarray, np.ndarray] | None:
    """When an outline (convex pieces ``normals``, ``offsets``) is exactly its bounding box
    ``low``-``high`` (one rectangle square to the table): that box shrunk by ``margin`` inches
    each way, inside which a segment surely touches the outline (the slab test of a segment
    against a box costs a fraction of the test against its edges); else None."""
    if normals.shape[:2] != (1, 4):
        return None
    sides = {(1.0, 0.0): high[0], (-1.0, 0.0): -low[0], (0.0, 1.0): high[1], (0.0, -1.0): -low[1]}
    found = {(float(n[0]) + 0.0, float(n[1]) + 0.0): float(o) for n, o in zip(normals[0], offsets[0])}
    if found != {side: float(offset) for side, offset in sides.items()} or np.any(high - low <= 2 * margin):
        return None
    return low + margin, high - margin


def base_ellipse(pose: Pose, base: BaseShape, normals: np.ndarray, offsets: np.ndarray) -> tuple:
    """A base's outline (convex pieces ``normals``, ``offsets`` of points sampled on its edge
    ellipse) between two ellipses: (centre, cos, sin, half length, half width, inner), where the
    outline holds the edge ellipse scaled by ``inner`` and lies inside the edge ellipse itself
    (a vehicle's footprint, a superellipse: the ellipse that holds it, ``BaseShape.enclosing_axes``)."""
    turn = np.radians(pose.facing_deg)
    cos, sin = float(np.cos(turn)), float(np.sin(turn))
    centre = np.array(pose.xy, float)
    length, width = base.enclosing_axes
    half_length, half_width = length / 2, width / 2
    # an edge n . p <= o seen in the ellipse's unit-disc coordinates u: m . u <= o - n . centre
    along = normals[..., 0] * cos + normals[..., 1] * sin
    across = -normals[..., 0] * sin + normals[..., 1] * cos
    scaled = np.hypot(along * half_length, across * half_width)
    used = scaled > 0
    inner = float(np.min((offsets - normals @ centre)[used] / scaled[used]))
    return centre, cos, sin, half_length, half_width, inner


def base_ellipses(poses: Sequence[Pose], bases: Sequence[BaseShape], normals: np.ndarray,
                  offsets: np.ndarray) -> list[tuple]:
    """:func:`base_ellipse` of M bases whose outlines are one convex piece of K edges each,
    (M, K, 2) normals and (M, K) offsets, all at once. Rounding may differ from
    :func:`base_ellipse` in the last bit, far inside the margin (``SURE_MARGIN``) of the ellipse test
    of :func:`lines_blocked`."""
    turns = np.radians([pose.facing_deg for pose in poses])[:, None]
    cos, sin = np.cos(turns), np.sin(turns)
    centres = np.array([(pose.x, pose.y) for pose in poses], float).reshape(-1, 2)
    half_length = np.array([base.enclosing_axes[0] for base in bases], float)[:, None] / 2
    half_width = np.array([base.enclosing_axes[1] for base in bases], float)[:, None] / 2
    along = normals[..., 0] * cos + normals[..., 1] * sin
    across = -normals[..., 0] * sin + normals[..., 1] * cos
    scaled = np.hypot(along * half_length, across * half_width)
    used = scaled > 0
    reach = offsets - (normals[..., 0] * centres[:, :1] + normals[..., 1] * centres[:, 1:])
    inner = np.where(used, reach / np.where(used, scaled, 1.0), np.inf).min(axis=1)
    return [(centre, c, s, length, width, value) for centre, c, s, length, width, value in zip(
        centres, cos[:, 0].tolist(), sin[:, 0].tolist(), half_length[:, 0].tolist(), half_width[:, 0].tolist(),
        inner.tolist())]


def sight_lines(pairs: list[tuple[int, int]], poses: list[Pose], bases: list[BaseShape],
                rules: LosRules) -> tuple[np.ndarray, np.ndarray]:
    """The top-down lines of many (viewer, target) index pairs, all at once: (L, 2, 2) lines,
    pair after pair, and (P,) how many each pair has.

    A pair's lines go from every point of the front half of the viewer's base edge to every
    point of the target's base edge, viewer point by viewer point. Only target edge points
    strictly in front of the viewer's base centre line count: a rider has no LOS out of the back
    half of its base (EC-LOS-2).
    """
    if not len(pairs):
        return np.zeros((0, 2, 2)), np.zeros(0, dtype=np.int64)
    front = poses_to_table(poses, np.stack([base.local_front_half(rules.viewer_edge_samples) for base in bases]))
    edge = poses_to_table(poses, np.stack([base.local_outline(rules.target_edge_samples) for base in bases]))
    centres = np.array([(pose.x, pose.y) for pose in poses], float)
    forwards = np.array([pose.forward for pose in poses])
    viewers, targets = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    ahead = np.einsum("psj,pj->ps", edge[targets] - centres[viewers][:, None], forwards[viewers]) > 1e-9
    kept = ahead.sum(axis=1)                             # target points in front, per pair
    ends = edge[targets][ahead]                          # pair after pair, in outline order
    counts = front.shape[1] * kept
    # pair by pair, each front point once per kept target point: runs, no division per line
    per_front = np.repeat(kept, front.shape[1])
    lines = np.empty((int(counts.sum()), 2, 2))
    lines[:, 0] = np.repeat(front[viewers].reshape(-1, 2), per_front, axis=0)
    lines[:, 1] = take_rows(ends, group_rows(np.repeat(np.cumsum(kept) - kept, front.shape[1]), per_front))
    return lines, counts


def piece_blocks(rules: LosRules, size_class, bottom, top, viewer_z, target_z, viewer_eye_z,
                 target_eye_z, stood_on) -> np.ndarray:
    """Whether a piece whose outline crosses a top-down line blocks it (all args broadcast).

    A piece blocks by its size class (EC-LOS-3) unless: one of the two models stands on it; it
    lies wholly beneath both models; its underside is above both models' eyes; or the higher
    model stands ``sees_over[size_class]`` levels above the piece's top (TEN-ELEV).
    """
    size_class = np.asarray(size_class)
    top = np.asarray(top, float)
    low = np.minimum(viewer_z, target_z)
    high = np.maximum(viewer_z, target_z)
    beneath = top <= low + STAND_TOLERANCE_IN
    overhead = np.asarray(bottom) >= np.maximum(viewer_eye_z, target_eye_z)
    needed = np.full(size_class.shape, np.inf)
    for klass, levels in rules.sees_over.items():
        if levels is not None:
            needed[size_class == klass] = levels * rules.level_height_in
    seen_over = high - top >= needed - STAND_TOLERANCE_IN
    return (size_class > 0) & ~beneath & ~overhead & ~np.asarray(stood_on) & ~seen_over


def stands_on(footprints: Footprints, points_xy: np.ndarray, surface_z: np.ndarray) -> np.ndarray:
    """(M, B) True where miniature m's base centre is inside piece b's outline at its top."""
    inside = shapely.contains_xy(footprints.polygons[None, :], points_xy[:, 0, None], points_xy[:, 1, None]) \
        if len(footprints.polygons) and len(points_xy) else np.zeros((len(points_xy), len(footprints.polygons)), bool)
    level = np.abs(footprints.top[None, :] - surface_z[:, None]) <= STAND_TOLERANCE_IN
    return inside & level & (footprints.miniature[None, :] < 0)


def top_down_batch(pairs: list[tuple[int, int]], poses: list[Pose], bases: list[BaseShape],
                   eye_z: np.ndarray, footprints: Footprints, rules: LosRules):
    """Top-down LOS of many (viewer, target) miniature index pairs, all lines at once.

    Returns the (L, 2, 2) lines of every pair, pair after pair, an (L,) mask of the clear ones,
    (P,) how many lines each pair has and a (P, R) mask of the footprint rows that block at
    least one line of each pair.
    """
    z = np.array([pose.z for pose in poses])
    lines, counts = sight_lines(pairs, poses, bases, rules)
    blocked = np.zeros(len(lines), bool)
    blocker_of_pair = np.zeros((len(pairs), len(footprints.convex)), bool)
    if len(lines) and len(footprints.polygons):
        # whether a row blocks depends on the pair only (levels, own bases, what they stand on),
        # so decide that first, per (pair, row), and test lines only against rows that block
        viewer = np.array([v for v, _ in pairs])[:, None]
        target = np.array([t for _, t in pairs])[:, None]
        standing = stands_on(footprints, np.array([pose.xy for pose in poses]), z)
        own = (footprints.miniature[None, :] == viewer) | (footprints.miniature[None, :] == target)
        blocks = ~own & piece_blocks(
            rules, footprints.size_class[None, :], footprints.bottom[None, :], footprints.top[None, :],
            z[viewer], z[target], eye_z[viewer], eye_z[target],
            standing[viewer[:, 0]] | standing[target[:, 0]])                       # (P, R)
        # column-major copies: the pairs' boxes are reduced along contiguous x and y columns
        starts, ends = np.asfortranarray(lines[:, 0]), np.asfortranarray(lines[:, 1])
        pair_low, pair_high = group_boxes(starts, ends, counts)
        # a pair's lines lie within the capsule from base centre to base centre as wide as the
        # larger base: a row far from it blocks none of them
        centres = np.array([pose.xy for pose in poses])
        reach = np.array([base.radius for base in bases])
        row_low = np.array([low for _, low, _, _, _ in footprints.convex]).reshape(-1, 2)
        row_high = np.array([high for _, _, high, _, _ in footprints.convex]).reshape(-1, 2)
        blocks &= capsules_touching(centres[viewer[:, 0]], centres[target[:, 0]],
                                    np.maximum(reach[viewer[:, 0]], reach[target[:, 0]]), row_low, row_high)
        blocks &= boxes_touching(pair_low, pair_high, row_low, row_high)
        first = np.cumsum(counts) - counts
        # every line of the pairs each row may block, against the row's box, its cheap sure
        # answers (a base's ellipses, a square outline's inner box, a one-piece outline's inner
        # circle), then its convex pieces (:func:`lines_blocked`)
        rows = np.flatnonzero(blocks.any(axis=0)).astype(np.int64, copy=False)
        lines_blocked(np.ascontiguousarray(blocks).view(np.uint8), rows, first.astype(np.int64, copy=False),
                      counts.astype(np.int64, copy=False),
                      *(np.ascontiguousarray(lines[:, end, axis]) for end in (0, 1) for axis in (0, 1)),
                      *row_tests(footprints, rows), blocked.view(np.uint8), blocker_of_pair.view(np.uint8),
                      SURE_MARGIN)
    return lines, ~blocked, counts, blocker_of_pair



def row_tests(footprints: Footprints, rows: np.ndarray) -> tuple[np.ndarray, ...]:
    """What :func:`lines_blocked` (``los/_toplines.c``) reads of each footprint row of ``rows``:
    (K, 4) boxes (low x, y, high x, y); (K,) the kind of sure answer it has, 0 an inner box
    (:func:`inner_box`), 1 a base's ellipses (:func:`base_ellipse`), 2 an inner circle about its
    box's centre (:func:`inner_radius`, nan: none); (K, 8) the values of that answer (the inner
    box's corners; the ellipse's centre x, y, cos, sin, half length, half width and inner scale;
    the circle's centre x, y and radius); and its convex pieces (:func:`convex_outlines`) as
    (K,) first edge, pieces and edges per piece into (T, 2) normals and (T,) offsets."""
    count = len(rows)
    boxes, values = np.empty((count, 4)), np.full((count, 8), np.nan)
    kinds, edge_first, pieces, edges = (np.empty(count, np.int64) for _ in range(4))
    inner_boxes = footprints.inner_boxes or (None,) * len(footprints.convex)
    ellipses = footprints.ellipses or (None,) * len(footprints.convex)
    normals_of, offsets_of, total = [], [], 0
    for k, row in enumerate(rows.tolist()):
        _, low, high, normals, offsets = footprints.convex[row]
        boxes[k, :2], boxes[k, 2:] = low, high
        if inner_boxes[row] is not None:
            kinds[k] = 0
            values[k, :2], values[k, 2:4] = inner_boxes[row]
        elif ellipses[row] is not None:
            centre, *numbers = ellipses[row]
            kinds[k] = 1
            values[k, :2], values[k, 2:7] = centre, numbers
        else:
            centre = (low + high) / 2
            kinds[k] = 2
            values[k, :2], values[k, 2] = centre, inner_radius(centre, normals, offsets)
        edge_first[k], (pieces[k], edges[k]) = total, normals.shape[:2]
        total += normals.shape[0] * normals.shape[1]
        normals_of.append(normals.reshape(-1, 2))
        offsets_of.append(offsets.reshape(-1))
    return (boxes, kinds, values, edge_first, pieces, edges,
            np.ascontiguousarray(np.concatenate(normals_of or [np.zeros((0, 2))]), dtype=float),
            np.ascontiguousarray(np.concatenate(offsets_of or [np.zeros(0)]), dtype=float))

@dataclass(frozen=True, eq=False)
class BaseOutline:
    """A miniature's base edge seen from above as a top-down footprint row, table inches."""

    polygon: shapely.Polygon
    """The base edge (48 points) as a shapely polygon."""
    low: np.ndarray
    """(2,) lowest corner of the polygon's bounding box."""
    high: np.ndarray
    """(2,) highest corner."""
    normals: np.ndarray
    """Convex pieces' edge normals (:func:`convex_outlines`)."""
    offsets: np.ndarray
    """Their offsets."""
    ellipse: tuple
    """The ellipses the outline lies between (:func:`base_ellipse`)."""


def base_outline(base: BaseShape, pose: Pose) -> BaseOutline:
    """The :class:`BaseOutline` of a base standing at ``pose``."""
    polygon = shapely.Polygon(base.outline(pose))
    normals, offsets = convex_outlines(polygon)
    return BaseOutline(polygon, *outline_corners(polygon), normals, offsets, base_ellipse(pose, base, normals, offsets))


def base_outlines(bases: Sequence[BaseShape], poses: Sequence[Pose]) -> list[BaseOutline]:
    """:func:`base_outline` of many bases, the shapely steps of :func:`convex_outlines` done for
    all at once (a base edge simplified is one convex ring; any other falls back to it)."""
    if not len(bases):
        return []
    polygons = shapely.polygons(poses_to_table(poses, np.stack([base.local_outline() for base in bases])))
    # plain Douglas-Peucker, a sixth of the topology-preserving simplifier's cost: a base edge is
    # convex, so any subset of its corners is too and cannot cross itself (the same corners as
    # with preserve_topology on 6,000 random poses of three base shapes)
    simple = shapely.simplify(polygons, CONVEX_TOLERANCE_IN, preserve_topology=False)
    # corners kept in order from a convex ring make a convex ring: only a collapsed one falls back
    convex = (shapely.get_type_id(simple) == shapely.GeometryType.POLYGON) & (shapely.area(simple) > 0)
    exteriors = shapely.get_exterior_ring(simple)
    rings = np.split(shapely.get_coordinates(exteriors), np.cumsum(shapely.get_num_coordinates(exteriors))[:-1])
    corners = shapely.bounds(polygons)
    planes, ellipses = {}, {}
    for size in {len(ring) for ring, ok in zip(rings, convex) if ok}:
        members = [k for k, ring in enumerate(rings) if convex[k] and len(ring) == size]
        batch = same_length_rings_planes(np.stack([rings[k][:-1] for k in members]))
        planes.update(zip(members, batch or [rings_planes([rings[k][:-1]]) for k in members]))
        ellipses.update(zip(members, base_ellipses(
            [poses[k] for k in members], [bases[k] for k in members],
            np.concatenate([planes[k][0] for k in members]), np.concatenate([planes[k][1] for k in members]))))
    outlines = []
    for k, (base, pose) in enumerate(zip(bases, poses)):
        if not convex[k]:
            outlines.append(base_outline(base, pose))
            continue
        normals, offsets = planes[k]
        outlines.append(BaseOutline(polygons[k], corners[k, :2], corners[k, 2:], normals, offsets, ellipses[k]))
    return outlines


def outline_corners(outline) -> tuple[np.ndarray, np.ndarray]:
    """(2,) lowest and highest corners of a shapely outline's bounding box."""
    bounds = np.asarray(outline.bounds, float)
    return bounds[:2], bounds[2:]
