"""Segment casting: which solid a straight segment meets first, for many segments at once.

Two engines answer the same question, ``first_hits(starts, ends) -> (t, owner)``:

- :class:`EmbreeCaster` (default): Intel Embree through ``embreex``, float32, one geometry per
  owner so the hit names its piece; Embree rays are bounded by ``dists``, so a hit past the
  segment's end is never reported (trimesh's own rays are unbounded).
- :class:`ExactCaster`: trimesh's pure-numpy triangle intersector in float64; the reference the
  tests hold Embree to, and the fallback when ``embreex`` is not installed.

Moving solids (miniatures) are convex and few, so they are tested analytically against their
face planes (:func:`segment_convex_entry`) instead of rebuilding a BVH every activation.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import trimesh

try:  # embreex ships wheels for CPython on x86-64 Linux, macOS and Windows
    from embreex import rtcore_scene
    from embreex.mesh_construction import TriangleMesh as _EmbreeTriangles
except ImportError:  # pragma: no cover - exercised only where embreex is missing
    rtcore_scene = None

NO_HIT = -1


def take_rows(array: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``array[index]`` along the first axis, ``index`` integers or a boolean mask: the same
    values through ``np.take`` / ``np.compress``, several times faster than numpy's fancy
    indexing of arrays with more than one axis (the LOS batches gather (N, 2) and (N, 3) rows).
    A column-major (N, k) array gives a column-major answer, gathered column by column: its
    columns stay contiguous, so arithmetic on ``array[:, j]`` runs several times faster."""
    if array.ndim == 2 and array.flags.f_contiguous and not array.flags.c_contiguous:
        columns = array.T
        return (columns.compress(index, axis=1) if index.dtype == bool else columns.take(index, axis=1)).T
    if index.dtype == bool:
        return array.compress(index, axis=0)
    return array.take(index, axis=0)


def _no_hits_yet(starts, ends):
    """Segments as float arrays, with per-segment results that say "no hit" (t = inf, owner -1)."""
    starts, ends = _as_segments(starts, ends)
    return starts, ends, np.full(len(starts), np.inf), np.full(len(starts), NO_HIT, dtype=np.int64)


def _as_segments(starts, ends) -> tuple[np.ndarray, np.ndarray]:
    starts = np.asarray(starts, dtype=np.float64).reshape(-1, 3)
    ends = np.asarray(ends, dtype=np.float64).reshape(-1, 3)
    if starts.shape != ends.shape:
        raise ValueError(f"starts {starts.shape} and ends {ends.shape} must match")
    return starts, ends


class EmbreeCaster:
    """First hits of segments against a fixed list of meshes, through Embree (float32).

    ``owners[k]`` is what a hit on ``meshes[k]`` reports (an index into the caller's list).
    Vertices are shifted to the meshes' own corner before the float32 conversion, so table
    coordinates (0-48 in) keep about 1e-5 in of precision.
    """

    name = "embree"

    def __init__(self, meshes: Sequence[trimesh.Trimesh], owners: Sequence[int] | None = None):
        if rtcore_scene is None:  # pragma: no cover
            raise RuntimeError("embreex is not installed; use ExactCaster")
        self.owners = np.asarray(owners if owners is not None else range(len(meshes)), dtype=np.int64)
        self.size = len(meshes)
        self._origin = (np.min([m.bounds[0] for m in meshes], axis=0) if meshes else np.zeros(3))
        self._scene = rtcore_scene.EmbreeScene()
        for mesh in meshes:
            vertices = (np.asarray(mesh.vertices, np.float64) - self._origin).astype(np.float32)
            _EmbreeTriangles(scene=self._scene, vertices=vertices,
                             indices=np.asarray(mesh.faces, dtype=np.int32))
        # Embree numbers geometries 0, 1, 2... in the order they are added (tested).
        self._owner_of_geometry = self.owners

    def first_hits(self, starts, ends) -> tuple[np.ndarray, np.ndarray]:
        """For each segment: the fraction ``t`` in [0, 1] along it of its first hit (inf when it
        reaches its end unhit) and the owner hit (``NO_HIT`` = -1)."""
        starts, ends, t, owner = _no_hits_yet(starts, ends)
        if len(starts) == 0 or self.size == 0:
            return t, owner
        # C order whatever the caller's layout: Embree reads rows of three floats
        origins = np.ascontiguousarray(starts - self._origin, dtype=np.float32)
        directions = np.ascontiguousarray(ends - starts, dtype=np.float32)
        result = self._scene.run(origins, directions, dists=np.ones(len(starts), np.float32), output=1)
        geometry = np.asarray(result["geomID"], dtype=np.int64)
        hit = geometry >= 0
        t[hit] = result["tfar"][hit]
        owner[hit] = self._owner_of_geometry[geometry[hit]]
        return t, owner


class ExactCaster:
    """First hits of segments through trimesh's float64 triangle intersector (slow, exact)."""

    name = "exact"

    def __init__(self, meshes: Sequence[trimesh.Trimesh], owners: Sequence[int] | None = None):
        self.owners = np.asarray(owners if owners is not None else range(len(meshes)), dtype=np.int64)
        self.size = len(meshes)
        if meshes:
            self._mesh = trimesh.util.concatenate(list(meshes))
            self._face_owner = np.concatenate([np.full(len(m.faces), o) for m, o in zip(meshes, self.owners)])
            self._intersector = trimesh.ray.ray_triangle.RayMeshIntersector(self._mesh)

    def first_hits(self, starts, ends) -> tuple[np.ndarray, np.ndarray]:
        """Same contract as :meth:`EmbreeCaster.first_hits`."""
        starts, ends, t, owner = _no_hits_yet(starts, ends)
        if len(starts) == 0 or self.size == 0:
            return t, owner
        deltas = ends - starts
        lengths = np.linalg.norm(deltas, axis=1)
        moving = lengths > 0
        index = np.flatnonzero(moving)
        locations, ray, face = self._intersector.intersects_location(
            starts[index], deltas[index] / lengths[index, None], multiple_hits=True)
        if len(ray):
            ray = index[ray]
            along = np.linalg.norm(locations - starts[ray], axis=1) / lengths[ray]
            inside = along <= 1.0
            ray, along, face = ray[inside], along[inside], face[inside]
            order = np.lexsort((along, ray))
            ray, along, face = ray[order], along[order], face[order]
            first = np.r_[True, ray[1:] != ray[:-1]]
            t[ray[first]] = along[first]
            owner[ray[first]] = self._face_owner[face[first]]
        return t, owner


def default_caster(meshes: Sequence[trimesh.Trimesh], owners: Sequence[int] | None = None):
    """The fastest engine available: Embree when ``embreex`` imports, else the exact one."""
    if rtcore_scene is not None:
        return EmbreeCaster(meshes, owners)
    return ExactCaster(meshes, owners)  # pragma: no cover


def convex_planes(mesh: trimesh.Trimesh) -> tuple[np.ndarray, np.ndarray]:
    """The face planes of a convex mesh as (normals (P, 3), offsets (P,)), inside: n . x <= d.

    Coplanar triangles are merged, so a box has 6 planes and a 32-sided disc 34.
    """
    normals = np.asarray(mesh.face_normals, np.float64)
    offsets = np.einsum("ij,ij->i", normals, np.asarray(mesh.triangles[:, 0], np.float64))
    keys = np.round(np.column_stack([normals, offsets]), 9)
    _, unique = np.unique(keys, axis=0, return_index=True)
    return normals[unique], offsets[unique]


def segment_convex_entry(starts: np.ndarray, deltas: np.ndarray, normals: np.ndarray,
                         offsets: np.ndarray) -> np.ndarray:
    """Where each segment ``start + t * delta`` (t in [0, 1]) enters a convex solid.

    Returns t of entry (0 when it starts inside) or inf when it misses; Cyrus-Beck clipping of
    the segment against every face plane, all segments at once.
    """
    # (planes, segments) arrays: the reductions over the planes run row against row
    numerators = offsets[:, None] - normals @ starts.T   # >= 0: start inside that plane
    denominators = normals @ deltas.T
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = numerators / denominators
    entering = denominators < 0
    leaving = denominators > 0
    parallel_outside = (denominators == 0) & (numerators < 0)
    t_enter = np.max(np.where(entering, ratio, 0.0), axis=0, initial=0.0)
    t_exit = np.min(np.where(leaving, ratio, 1.0), axis=0, initial=1.0)
    hit = (t_enter <= t_exit) & ~parallel_outside.any(axis=0)
    return np.where(hit, t_enter, np.inf)


def segment_box_hits(starts: np.ndarray, deltas: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Which segments ``start + t * delta`` (t in [0, 1]) touch an axis-aligned box (slab test);
    a cheap filter before :func:`segment_convex_entry`.

    A zero delta component makes that slab +-inf (all or nothing, by where the start lies); a
    start exactly on a slab plane gives nan, which fmin/fmax skip, so a segment lying in a box's
    face may be missed: harmless for a filter in front of solids that are tested exactly.
    """
    with np.errstate(divide="ignore"):
        return segment_box_hits_inverse(starts, 1.0 / deltas, low, high)


def segment_box_hits_inverse(starts: np.ndarray, inverse: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """:func:`segment_box_hits` given ``1 / deltas`` (computed once for rays tested against many boxes)."""
    with np.errstate(invalid="ignore"):
        to_low = (low - starts) * inverse
        to_high = (high - starts) * inverse
    entering, leaving = np.fmin(to_low, to_high), np.fmax(to_low, to_high)
    # column by column: numpy's reduce along a short axis is several times slower (same values, nan kept)
    near, far = entering[:, 0], leaving[:, 0]
    for axis in range(1, entering.shape[1]):
        near, far = np.maximum(near, entering[:, axis]), np.minimum(far, leaving[:, axis])
    return (near <= far) & (near <= 1.0) & (far >= 0.0)


def group_boxes(starts: np.ndarray, ends: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bounding boxes (low, high) of consecutive groups of segments, ``counts[g]`` in group g;
    an empty group gets an empty box (low = +inf, high = -inf)."""
    dims = starts.shape[1]
    low = np.full((len(counts), dims), np.inf)
    high = np.full((len(counts), dims), -np.inf)
    filled = counts > 0
    if filled.any():
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])[filled]
        low[filled] = np.minimum.reduceat(np.minimum(starts, ends), offsets, axis=0)
        high[filled] = np.maximum.reduceat(np.maximum(starts, ends), offsets, axis=0)
    return low, high


def boxes_overlap(low: np.ndarray, high: np.ndarray, other_low: np.ndarray, other_high: np.ndarray) -> np.ndarray:
    """(G,) True where box g overlaps the one box (other_low, other_high)."""
    return np.all((low <= other_high) & (high >= other_low), axis=1)


def boxes_touching(low: np.ndarray, high: np.ndarray, other_low: np.ndarray, other_high: np.ndarray) -> np.ndarray:
    """(G, M) True where box g overlaps box m of the others: :func:`boxes_overlap` for many boxes."""
    # axis by axis on (G, M) arrays: numpy's reduce along a short last axis is several times slower
    touching = (low[:, 0, None] <= other_high[:, 0]) & (high[:, 0, None] >= other_low[:, 0])
    for axis in range(1, low.shape[1]):
        touching &= (low[:, axis, None] <= other_high[:, axis]) & (high[:, axis, None] >= other_low[:, axis])
    return touching


def group_rows(first: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The row indices of groups that start at ``first`` and hold ``counts`` rows, in order."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    starts_in_output = np.cumsum(counts) - counts
    return np.repeat(first - starts_in_output, counts) + np.arange(total)



def point_segment_distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of each point to the segment a-b (all arrays broadcast, last axis the coordinates)."""
    axis = b - a
    length2 = np.einsum("...j,...j->...", axis, axis)
    along = np.einsum("...j,...j->...", points - a, axis) / np.where(length2 > 0, length2, 1.0)
    return np.linalg.norm(points - (a + np.clip(along, 0.0, 1.0)[..., None] * axis), axis=-1)


def capsules_touching(a: np.ndarray, b: np.ndarray, radius: np.ndarray, low: np.ndarray, high: np.ndarray,
                      margin: float = 1e-6) -> np.ndarray:
    """(G, M) True where capsule g (segment a-b swept by ``radius``) may touch box m (low, high),
    tested against the box's bounding sphere; ``margin`` keeps it on the safe side of rounding."""
    centres, radii = (low + high) / 2, np.linalg.norm(high - low, axis=-1) / 2
    distances = point_segment_distances(centres[None], a[:, None], b[:, None])
    return distances <= radius[:, None] + radii[None] + margin
