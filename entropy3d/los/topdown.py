"""Top-down line of sight (EC-LOS-1..3): thin lines from base edge to base edge, seen from above.

Plain functions on numpy arrays (shapely only to describe outlines). A line is drawn from every sampled point
of the front half of the viewer's base edge (EC-LOS-2) to every sampled point of the target's
base edge that lies in front of the viewer; the target is visible when one line is clear. How a
piece's size class and the models' levels decide whether it blocks is rules data
(``rules/los.yaml``, explained there) and lives in :func:`piece_blocks` only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
import trimesh

from entropy3d.geometry import BaseShape, Pose
from entropy3d.los.losrules import LosRules
from entropy3d.los.rays import (
    boxes_overlap,
    capsules_touching,
    group_boxes,
    group_rows,
    segment_box_hits_inverse,
)

#: inches: a piece whose top is this close to a model's surface is what it stands on
STAND_TOLERANCE_IN = 0.05


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


def convex_outlines(polygon, tolerance: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """A shapely (multi)polygon as Q convex pieces: (Q, E, 2) edge normals and (Q, E) offsets,
    inside where normals . p <= offsets; pieces with fewer edges are padded with 0 . p <= 1.

    A convex outline is one piece; any other is cut into the triangles of its outline simplified
    by ``tolerance`` inches (a mesh file's silhouette has hundreds of collinear corners).
    """
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


def segments_touch_convex(starts: np.ndarray, deltas: np.ndarray, normals: np.ndarray,
                          offsets: np.ndarray) -> np.ndarray:
    """(N,) True where segment n touches any of the Q convex pieces (Cyrus-Beck, all segments at
    once, piece by piece: a segment found touching one piece is not tested against the rest).

    Arrays are (edges, segments), so the reductions over a piece's few edges run along the
    first axis (row against row), not along a short last axis.
    """
    touched = np.zeros(len(starts), bool)
    left = np.arange(len(starts))
    for piece_normals, piece_offsets in zip(normals, offsets):
        if not len(left):
            break
        normal_x, normal_y = piece_normals[:, 0:1], piece_normals[:, 1:2]
        s, d = starts[left], deltas[left]
        numerators = piece_offsets[:, None] - (s[:, 0] * normal_x + s[:, 1] * normal_y)
        denominators = d[:, 0] * normal_x + d[:, 1] * normal_y
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = numerators / denominators
        t_enter = np.where(denominators < 0, ratio, 0.0).max(axis=0)
        t_exit = np.where(denominators > 0, ratio, 1.0).min(axis=0)
        outside = ((denominators == 0) & (numerators < 0)).any(axis=0)
        hit = (t_enter <= t_exit) & ~outside
        touched[left[hit]] = True
        left = left[~hit]
    return touched


def surely_touching(starts: np.ndarray, ends: np.ndarray, centre: np.ndarray, normals: np.ndarray,
                    offsets: np.ndarray, margin: float = 1e-9) -> np.ndarray:
    """(N,) True where a segment passes well inside a one-piece convex outline: within the
    largest circle about ``centre`` that the outline holds, less ``margin`` inches. A cheap
    first answer that :func:`segments_touch_convex` would give too; False says nothing."""
    if len(normals) != 1:
        return np.zeros(len(starts), bool)
    inner = float(np.min(offsets[0] - normals[0] @ centre))
    # squared distance of the centre to each segment, coordinate by coordinate ((N,) arrays)
    ax, ay = starts[:, 0] - centre[0], starts[:, 1] - centre[1]
    dx, dy = ends[:, 0] - starts[:, 0], ends[:, 1] - starts[:, 1]
    length2 = dx * dx + dy * dy
    along = np.clip(-(ax * dx + ay * dy) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    cx, cy = ax + along * dx, ay + along * dy
    reach = inner - margin
    return (cx * cx + cy * cy < reach * reach) & (reach > 0)


def base_ellipse(pose: Pose, base: BaseShape, normals: np.ndarray, offsets: np.ndarray) -> tuple:
    """A base's outline (convex pieces ``normals``, ``offsets`` of points sampled on its edge
    ellipse) between two ellipses: (centre, cos, sin, half length, half width, inner), where the
    outline holds the edge ellipse scaled by ``inner`` and lies inside the edge ellipse itself."""
    turn = np.radians(pose.facing_deg)
    cos, sin = float(np.cos(turn)), float(np.sin(turn))
    centre = np.array(pose.xy, float)
    half_length, half_width = base.length / 2, base.width / 2
    # an edge n . p <= o seen in the ellipse's unit-disc coordinates u: m . u <= o - n . centre
    along = normals[..., 0] * cos + normals[..., 1] * sin
    across = -normals[..., 0] * sin + normals[..., 1] * cos
    scaled = np.hypot(along * half_length, across * half_width)
    used = scaled > 0
    inner = float(np.min((offsets - normals @ centre)[used] / scaled[used]))
    return centre, cos, sin, half_length, half_width, inner


def ellipse_sides(starts: np.ndarray, ends: np.ndarray, ellipse: tuple,
                  margin: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """(N,) masks of the segments that surely touch a base outline (they pass inside its inner
    ellipse) and of those left undecided (they pass between the two ellipses); the rest surely
    miss it (they stay outside the edge ellipse, which holds the outline). ``margin`` in
    unit-disc lengths keeps both answers clear of rounding."""
    centre, cos, sin, half_length, half_width, inner = ellipse
    ax, ay = starts[:, 0] - centre[0], starts[:, 1] - centre[1]
    bx, by = ends[:, 0] - centre[0], ends[:, 1] - centre[1]
    a_along, a_across = (ax * cos + ay * sin) / half_length, (-ax * sin + ay * cos) / half_width
    b_along, b_across = (bx * cos + by * sin) / half_length, (-bx * sin + by * cos) / half_width
    dx, dy = b_along - a_along, b_across - a_across
    length2 = dx * dx + dy * dy
    along = np.clip(-(a_along * dx + a_across * dy) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    cx, cy = a_along + along * dx, a_across + along * dy
    distance2 = cx * cx + cy * cy
    inside = inner - margin
    sure = (distance2 < inside * inside) & (inside > 0)
    return sure, ~sure & (distance2 <= (1.0 + margin) ** 2)


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
    front = np.stack([base.front_half_outline(pose, rules.viewer_edge_samples) for pose, base in zip(poses, bases)])
    edge = np.stack([base.outline(pose, rules.target_edge_samples) for pose, base in zip(poses, bases)])
    centres = np.array([pose.xy for pose in poses])
    forwards = np.array([pose.forward for pose in poses])
    viewers, targets = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    ahead = np.einsum("psj,pj->ps", edge[targets] - centres[viewers][:, None], forwards[viewers]) > 1e-9
    kept = ahead.sum(axis=1)                             # target points in front, per pair
    ends = edge[targets][ahead]                          # pair after pair, in outline order
    counts = front.shape[1] * kept
    pair = np.repeat(np.arange(len(pairs)), counts)
    local = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    lines = np.empty((len(local), 2, 2))
    lines[:, 0] = front[viewers[pair], local // kept[pair]]
    lines[:, 1] = ends[(np.cumsum(kept) - kept)[pair] + local % kept[pair]]
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
    inside = np.stack([shapely.contains_xy(polygon, points_xy[:, 0], points_xy[:, 1])
                       for polygon in footprints.polygons], axis=1) if len(footprints.polygons) else \
        np.zeros((len(points_xy), 0), bool)
    level = np.abs(footprints.top[None, :] - surface_z[:, None]) <= STAND_TOLERANCE_IN
    return inside & level & (footprints.miniature[None, :] < 0)


def top_down_batch(pairs: list[tuple[int, int]], poses: list[Pose], bases: list[BaseShape],
                   eye_z: np.ndarray, footprints: Footprints, rules: LosRules):
    """Top-down LOS of many (viewer, target) miniature index pairs, all lines at once.

    Returns one ``(lines, clear, blocker_rows)`` per pair: the (L, 2, 2) lines, an (L,) mask of
    clear ones, and the footprint rows that block at least one line.
    """
    z = np.array([pose.z for pose in poses])
    lines, counts = sight_lines(pairs, poses, bases, rules)
    pair_of_line = np.repeat(np.arange(len(pairs)), counts)
    blocked = np.zeros(len(lines), bool)
    blocking_rows: list[set[int]] = [set() for _ in pairs]
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
        starts, deltas = lines[:, 0], lines[:, 1] - lines[:, 0]
        pair_low, pair_high = group_boxes(starts, lines[:, 1], counts)
        # a pair's lines lie within the capsule from base centre to base centre as wide as the
        # larger base: a row far from it blocks none of them
        centres = np.array([pose.xy for pose in poses])
        reach = np.array([max(base.length, base.width) / 2 for base in bases])
        blocks &= capsules_touching(centres[viewer[:, 0]], centres[target[:, 0]],
                                    np.maximum(reach[viewer[:, 0]], reach[target[:, 0]]),
                                    np.array([low for _, low, _, _, _ in footprints.convex]).reshape(-1, 2),
                                    np.array([high for _, _, high, _, _ in footprints.convex]).reshape(-1, 2))
        first = np.cumsum(counts) - counts
        with np.errstate(divide="ignore"):
            inverse = 1.0 / deltas
        blocker_of_pair = np.zeros(blocks.shape, bool)                            # (P, R)
        for row, row_low, row_high, normals, offsets in footprints.convex:
            candidate_pairs = blocks[:, row] & boxes_overlap(pair_low, pair_high, row_low, row_high)
            candidates = np.flatnonzero(candidate_pairs)
            near = group_rows(first[candidates], counts[candidates])
            near = near[segment_box_hits_inverse(starts[near], inverse[near], row_low, row_high)]
            ellipse = footprints.ellipses[row] if footprints.ellipses else None
            if ellipse is not None:
                sure, undecided = ellipse_sides(starts[near], lines[near, 1], ellipse)
                rest = near[undecided]
            else:
                sure = surely_touching(starts[near], lines[near, 1], (row_low + row_high) / 2, normals, offsets)
                rest = near[~sure]
            touched = np.concatenate([near[sure], rest[segments_touch_convex(starts[rest], deltas[rest], normals,
                                                                             offsets)]])
            blocked[touched] = True
            blocker_of_pair[pair_of_line[touched], row] = True
        for pair, row in zip(*np.nonzero(blocker_of_pair)):
            blocking_rows[int(pair)].add(int(row))
    clear = ~blocked
    bounds = np.concatenate([[0], np.cumsum(counts)])
    return [(lines[a:b], clear[a:b], blocking_rows[k]) for k, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))]
