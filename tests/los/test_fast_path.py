"""The batched, culled line of sight agrees exactly with a straightforward reference.

The reference below answers one pair at a time with no culling: every top-down line against
every footprint's every convex piece, every silhouette ray clipped against every target plane
in one block, every sight ray against every other miniature's every solid. It shares with the
fast path only the definitions: the ray engines of the pieces, the footprints, the blocking rule
(:func:`piece_blocks`), the sampling of base edges, the verdict numbers, and the bounding-box
slab test in front of each exact test (by which a segment lying exactly along a box face misses:
bikes lined up side by side on the bundled scenes draw top-down lines exactly tangent to a base).
"""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.los import LosWorld, TopDownVerdict, TrueVerdict
from entropy3d.los.rays import segment_box_hits, segment_convex_entry
from entropy3d.los.topdown import piece_blocks, stands_on
from entropy3d.los.truelos import true_verdict_numbers, view_frames
from entropy3d.los.world import RAY_END_GAP_IN
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from tests.los.test_verdicts_kept import SCENES, scattered_poses

PAIRS_PER_STATE = 40


def reference_lines(world: LosWorld, viewer, target) -> np.ndarray:
    rules = world.rules
    starts = viewer.base.front_half_outline(viewer.pose, rules.viewer_edge_samples)
    ends = target.base.outline(target.pose, rules.target_edge_samples)
    ends = ends[viewer.pose.to_local(ends)[:, 0] > 1e-9]
    return np.array([[s, e] for s in starts for e in ends]).reshape(-1, 2, 2)


def reference_top_down(world: LosWorld, minis: list, v: int, t: int) -> TopDownVerdict:
    footprints = world._footprints(minis)
    viewer, target = minis[v], minis[t]
    lines = reference_lines(world, viewer, target)
    z = np.array([m.pose.z for m in minis])
    standing = stands_on(footprints, np.array([m.pose.xy for m in minis]), z)
    blocked = np.zeros(len(lines), bool)
    blockers = set()
    names = [world.pieces[k].id for k, _, _ in world._piece_footprints] + [m.id for m in minis]
    for row, low, high, normals, offsets in footprints.convex:
        if footprints.miniature[row] in (v, t) or not piece_blocks(
                world.rules, footprints.size_class[row], footprints.bottom[row], footprints.top[row], z[v], z[t],
                viewer.eye[2], target.eye[2], standing[v, row] | standing[t, row]):
            continue
        starts, deltas = lines[:, 0], lines[:, 1] - lines[:, 0]
        boxed = segment_box_hits(starts, deltas, low, high)
        numerators = offsets[None] - np.einsum("nj,qej->nqe", starts, normals)
        denominators = np.einsum("nj,qej->nqe", deltas, normals)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = numerators / denominators
        t_enter = np.where(denominators < 0, ratio, 0.0).max(axis=2, initial=-np.inf)
        t_exit = np.where(denominators > 0, ratio, 1.0).min(axis=2, initial=np.inf)
        outside = ((denominators == 0) & (numerators < 0)).any(axis=2)
        touched = ((t_enter <= t_exit) & ~outside).any(axis=1) & boxed
        blocked |= touched
        if touched.any():
            blockers.add(names[row])
    clear = ~blocked
    return TopDownVerdict(bool(clear.any()), int(clear.sum()), len(lines), tuple(sorted(blockers)))


def reference_silhouette(world: LosWorld, eye: np.ndarray, target) -> tuple[np.ndarray, np.ndarray]:
    grid = world.rules.silhouette_grid
    parts = target.parts[:2]
    vertices = np.concatenate([p[0] for p in parts])
    frame = view_frames(eye[None], vertices.mean(axis=0)[None])[0]
    relative = (vertices - eye) @ frame.T
    depth = relative[:, 0]
    if not np.all(depth > 1e-6):
        return np.zeros((0, 3)), np.zeros(0, dtype=np.int64)
    slope = relative[:, 1:] / depth[:, None]
    low, high = slope.min(axis=0), slope.max(axis=0)
    cells = (np.arange(grid) + 0.5) / grid
    a, b = low[0] + cells * (high - low)[0], low[1] + cells * (high - low)[1]
    directions = (frame[0] + a[:, None, None] * frame[1] + b[None, :, None] * frame[2]).reshape(-1, 3)
    deltas = directions * 1.01 * depth.max()
    entry = np.stack([segment_convex_entry(np.broadcast_to(eye, deltas.shape), deltas, normals, offsets)
                      for _, normals, offsets in parts], axis=1)
    part = np.argmin(entry, axis=1)
    t = entry[np.arange(len(entry)), part]
    hit = np.isfinite(t)
    return eye + t[hit, None] * deltas[hit], part[hit]


def reference_true_los(world: LosWorld, minis: list, v: int, t: int) -> TrueVerdict:
    viewer = minis[v]
    ends, part = reference_silhouette(world, viewer.eye, minis[t])
    in_front = (ends[:, :2] - viewer.pose.xy) @ viewer.pose.forward > 0
    gap = RAY_END_GAP_IN / np.maximum(np.linalg.norm(ends - viewer.eye, axis=1), 1e-9)
    stops = ends - (ends - viewer.eye) * gap[:, None]
    starts = np.broadcast_to(viewer.eye, stops.shape)
    hit_t, names = world.cast(starts, stops)       # the pieces, through the ray engines
    names = np.asarray(names, dtype=object)
    for index, mini in enumerate(minis):
        if index in (v, t):
            continue
        for vertices, normals, offsets in mini.parts:
            entry = segment_convex_entry(starts, stops - starts, normals, offsets)
            boxed = segment_box_hits(starts, stops - starts, mini.low, mini.high) & segment_box_hits(
                starts, stops - starts, vertices.min(axis=0), vertices.max(axis=0))
            entry[~boxed] = np.inf
            closer = entry < hit_t
            hit_t[closer], names[closer] = entry[closer], mini.id
    visible = ~np.isfinite(hit_t) & in_front
    blockers = tuple(sorted(set(names[in_front & np.isfinite(hit_t)])))
    return TrueVerdict(**true_verdict_numbers(part, visible, world.rules, ~in_front), blockers=blockers)


@pytest.mark.parametrize("scene", SCENES)
def test_fast_path_agrees_with_the_straightforward_reference(scene):
    """Clause: EC-LOS-1..4, EC-COVER-1 - random pairs in scattered game states of each bundled
    scene: both verdicts exactly equal to the one-pair-at-a-time reference."""
    world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    rng = np.random.default_rng(SCENES.index(scene) + 101)
    compared = 0
    for poses in [world.start_poses()] + [scattered_poses(world, rng) for _ in range(2)]:
        minis = world.miniatures(poses)
        ids = list(minis)
        chosen = rng.choice(len(ids) * (len(ids) - 1), size=min(PAIRS_PER_STATE, len(ids) * (len(ids) - 1)),
                            replace=False)
        pairs = [(v, t + (t >= v)) for v, t in zip(chosen // (len(ids) - 1), chosen % (len(ids) - 1))]
        results = world.all_pairs(poses, pairs=[(ids[v], ids[t]) for v, t in pairs])
        mini_list = [minis[i] for i in ids]
        for v, t in pairs:
            fast = results[(ids[v], ids[t])]
            assert fast.top_down == reference_top_down(world, mini_list, v, t), (ids[v], ids[t])
            assert fast.true_los == reference_true_los(world, mini_list, v, t), (ids[v], ids[t])
            compared += 1
    assert compared >= 100
