"""The ray engines: Embree (float32, bounded rays) held to trimesh's exact float64 intersector."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import trimesh

from entropy3d.los import LosWorld
from entropy3d.los.rays import EmbreeCaster, ExactCaster, convex_planes, segment_convex_entry
from entropy3d.scene import load_scene
from tests.los.shooting import shoots

SMALL_TABLE = Path(__file__).parents[1] / "data" / "small_table.yaml"


def random_segments(rng: np.random.Generator, count: int):
    starts = rng.uniform([0, 0, 0.05], [24, 24, 8], size=(count, 3))
    ends = rng.uniform([0, 0, 0.05], [24, 24, 8], size=(count, 3))
    return starts, ends


def test_embree_agrees_with_the_exact_intersector_on_the_small_table():
    table = load_scene(SMALL_TABLE)
    fast = LosWorld(table)
    exact = LosWorld(table, geometry=fast.geometry, caster=ExactCaster)
    assert fast.static_caster.name == "embree" and exact.static_caster.name == "exact"
    starts, ends = random_segments(np.random.default_rng(7), 3000)
    t_fast, names_fast = fast.cast(starts, ends)
    t_exact, names_exact = exact.cast(starts, ends)
    hit_fast, hit_exact = np.isfinite(t_fast), np.isfinite(t_exact)
    assert 0.2 < hit_exact.mean() < 0.9  # the sample really exercises both outcomes
    # float32 may differ only where a segment grazes an edge or ends on a surface
    length = np.linalg.norm(ends - starts, axis=1)
    disagree = hit_fast != hit_exact
    assert disagree.sum() <= 3
    both = hit_fast & hit_exact
    assert np.max(np.abs(t_fast[both] - t_exact[both]) * length[both]) < 1e-4
    same_owner = names_fast[both] == names_exact[both]
    assert same_owner.mean() > 0.995


def test_embree_rays_stop_at_the_segment_end():
    """trimesh rays are unbounded; a segment that ends before a wall must not report it."""
    wall = trimesh.creation.box(extents=[0.2, 4, 4])
    wall.apply_translation([5, 0, 0])
    for caster in (EmbreeCaster([wall]), ExactCaster([wall])):
        t, owner = caster.first_hits([[0, 0, 0], [0, 0, 0], [0, 0, 0]], [[4.8, 0, 0], [4.95, 0, 0], [6, 0, 0]])
        assert np.isinf(t[0]) and owner[0] == -1, caster.name
        assert t[1] == pytest.approx(4.9 / 4.95, abs=1e-6) and owner[1] == 0, caster.name
        assert t[2] == pytest.approx(4.9 / 6, abs=1e-6), caster.name


def test_embree_reports_which_mesh_was_hit():
    boxes = []
    for k in range(3):
        box = trimesh.creation.box(extents=[1, 1, 1])
        box.apply_translation([3 * k, 0, 0])
        boxes.append(box)
    caster = EmbreeCaster(boxes, owners=[10, 11, 12])
    _, owner = caster.first_hits([[0, -5, 0], [3, -5, 0], [6, -5, 0], [9, -5, 0]],
                                 [[0, 5, 0], [3, 5, 0], [6, 5, 0], [9, 5, 0]])
    assert list(owner) == [10, 11, 12, -1]


def test_convex_entry_matches_the_exact_intersector():
    box = trimesh.creation.box(extents=[2, 1, 0.5])
    box.apply_transform(trimesh.transformations.rotation_matrix(0.6, [0, 0, 1]))
    normals, offsets = convex_planes(box)
    assert len(normals) == 6
    starts, ends = random_segments(np.random.default_rng(3), 500)
    starts, ends = starts - [12, 12, 0.5], ends - [12, 12, 0.5]
    starts, ends = starts / 6, ends / 6
    entry = segment_convex_entry(starts, ends - starts, normals, offsets)
    t_exact, _ = ExactCaster([box]).first_hits(starts, ends)
    outside = ~box.contains(starts)
    assert np.isfinite(entry[outside]).sum() > 20
    assert np.array_equal(np.isfinite(entry[outside]), np.isfinite(t_exact[outside]))
    finite = outside & np.isfinite(t_exact)
    assert np.allclose(entry[finite], t_exact[finite], atol=1e-9)
    assert np.all(entry[~outside] == 0.0)  # a segment starting inside enters at once


def test_all_pairs_through_embree_match_the_exact_engine(tmp_path):
    """End to end: every verdict on the small table (tower, L-shaped building, highway deck with
    pillars and railings, ramp, bench) is the same through Embree and the exact intersector."""
    import yaml

    spec = yaml.safe_load(SMALL_TABLE.read_text())
    spec["models"] += [
        {"id": "d1", "gang": "hades", "bike": "sportsbike", "position": [7, 17, 4.0], "facing": -30},
        {"id": "s1", "gang": "komodo", "bike": "trailbike", "position": [12, 4], "facing": 150},
        {"id": "u1", "gang": "komodo", "bike": "cruiser", "position": [6, 14.2], "facing": 10},
    ]
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump(spec))
    table = load_scene(path)
    fast = LosWorld(table)
    exact = LosWorld(table, geometry=fast.geometry, caster=ExactCaster)
    fast_results, exact_results = fast.all_pairs(), exact.all_pairs()
    assert len(fast_results) == 20
    for pair, result in fast_results.items():
        other = exact_results[pair]
        assert result.top_down == other.top_down, pair
        assert result.true_los.rays == other.true_los.rays, pair
        assert abs(result.true_los.visible_fraction - other.true_los.visible_fraction) <= 2 / result.true_los.rays
        assert shoots(result) == shoots(other), pair
    fractions = {round(r.true_los.visible_fraction, 1) for r in fast_results.values()}
    assert len(fractions) >= 3  # a mix of open, partial and hidden views, not all alike
