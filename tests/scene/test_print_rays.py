"""A detailed 3D print (``OWN_RAY_SCENE_MIN_FACES`` triangles or more) is cast in an Embree scene
of its own, built at the first downward ray over its plan box: surface heights and crossings are
what one scene of the whole table gives, and a print no ray passes over costs no ray scene."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import trimesh

from entropy3d.scene import load_scene
from entropy3d.scene.build import COINCIDENT_IN, OWN_RAY_SCENE_MIN_FACES, build_table_geometry

SMALL_TABLE = Path(__file__).parents[1] / "data" / "small_table.yaml"


def _rippled_tile() -> trimesh.Trimesh:
    """A 2" x 2" x 0.2" tile of 49k triangles, its top rippled 0.02" deep (a print's texture)."""
    tile = trimesh.creation.box(extents=[2.0, 2.0, 0.2])
    for _ in range(6):
        tile = tile.subdivide()
    vertices = tile.vertices.copy()
    top = vertices[:, 2] > 0.0999
    vertices[top, 2] -= 0.01 * (1 + np.sin(9.0 * vertices[top, 0]) * np.sin(7.0 * vertices[top, 1]))
    return trimesh.Trimesh(vertices + [1.0, 1.0, 0.1], tile.faces)  # from (0, 0, 0) to (2, 2, 0.2)


@pytest.fixture(scope="module")
def print_table(tmp_path_factory):
    """The small test table with the tile on the ground in the park, away from every model."""
    folder = tmp_path_factory.mktemp("print_table")
    _rippled_tile().export(folder / "tile.stl")
    text = SMALL_TABLE.read_text().replace(
        "destructibles:", "meshes:\n  - {id: tile, file: tile.stl, units: in, position: [17, 17, 0]}\ndestructibles:")
    (folder / "table.yaml").write_text(text)
    table = load_scene(folder / "table.yaml")
    return table, build_table_geometry(table)


def _one_scene_crossings(geometry, points):
    """(height, ray) of every crossing, cast the way one Embree scene of every piece casts them."""
    whole = trimesh.util.concatenate([piece.mesh for piece in geometry.pieces])
    top = max(piece.top for piece in geometry.pieces) + 1.0
    origins = np.column_stack([points, np.full(len(points), top)])
    locations, rays, _ = whole.ray.intersects_location(origins, np.tile([0.0, 0.0, -1.0], (len(points), 1)),
                                                       multiple_hits=True)
    return locations[:, 2], rays


def _points_over_and_around(geometry, k: int, count: int = 600) -> np.ndarray:
    lo, hi = geometry.pieces[k].mesh.bounds[:, :2]
    rng = np.random.default_rng(11)
    return np.vstack([rng.uniform(lo, hi, (count, 2)), rng.uniform(lo - 3.0, hi + 3.0, (count, 2)),
                      rng.uniform(0.0, geometry.width, (count, 2))])


def test_a_print_cast_alone_gives_the_heights_one_scene_gives(print_table):
    table, geometry = print_table
    k = next(i for i, piece in enumerate(geometry.pieces) if piece.id == "tile")
    assert len(geometry.pieces[k].mesh.faces) >= OWN_RAY_SCENE_MIN_FACES and geometry._cast_alone == (k,)
    points = _points_over_and_around(geometry, k)
    heights, rays = _one_scene_crossings(geometry, points)
    highest = np.zeros(len(points))
    np.maximum.at(highest, rays, heights)
    assert np.array_equal(geometry.surface_height(points), highest)
    over = geometry._under(k, points)
    assert len(over) > 600 and (highest[over] > 0.15).sum() >= 600  # the tile's rippled top, 0.18 to 0.2"


def test_a_print_on_the_ground_gives_one_crossing_per_surface_and_its_top_is_its_own(print_table):
    """Over the tile a ray crosses its top (the tile's) and, at z 0, the tile's bottom where it
    lies on the ground: one crossing there, as one scene gives, and it is the ground's."""
    table, geometry = print_table
    k = next(i for i, piece in enumerate(geometry.pieces) if piece.id == "tile")
    points = _points_over_and_around(geometry, k)
    heights, rays, owners = geometry.downward_crossings(points)
    expected_heights, expected_rays = _one_scene_crossings(geometry, points)
    for ray in range(len(points)):
        mine, theirs = np.sort(heights[rays == ray]), np.sort(expected_heights[expected_rays == ray])
        assert len(mine) == len(theirs) and np.allclose(mine, theirs, rtol=0, atol=COINCIDENT_IN), ray
    lo, hi = geometry.pieces[k].mesh.bounds
    assert lo[2] == 0.0 and np.allclose(lo[:2], [17, 17]) and np.allclose(hi, [19, 19, 0.2], atol=1e-3)
    inside = np.flatnonzero(np.all((points > lo[:2] + 0.1) & (points < hi[:2] - 0.1), axis=1))
    assert len(inside) > 300
    for ray in inside:
        on_ray = rays == ray
        assert owners[on_ray][np.argmax(heights[on_ray])] == k
        assert k not in owners[on_ray & (np.abs(heights) <= COINCIDENT_IN)]
    assert geometry.surface_terrain(points[inside[0]]) == geometry.pieces[k].terrain


def test_no_ray_scene_is_built_for_a_print_no_ray_passes_over(print_table, monkeypatch):
    """Loading the table and asking heights where the models stand builds one Embree scene, of
    the other pieces; the first ray over the tile builds the tile's."""
    from trimesh.ray import ray_pyembree

    built = []
    real_init = ray_pyembree._EmbreeWrap.__init__

    def counting_init(self, vertices, faces, scale):
        built.append(len(faces))
        real_init(self, vertices, faces, scale)

    monkeypatch.setattr(ray_pyembree._EmbreeWrap, "__init__", counting_init)
    table, _ = print_table
    geometry = build_table_geometry(load_scene(table.source))
    tile = len(geometry.by_id("tile").mesh.faces)
    geometry.surface_height([model.position[:2] for model in table.models])
    assert built and tile not in built and max(built) < OWN_RAY_SCENE_MIN_FACES
    geometry.surface_height([[18.0, 18.5]])
    assert tile in built
