"""The table's light baked into its vertex colours draws what Panda3D's own lighting draws
(issue 17: the software rasteriser lights no static vertex per frame)."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from panda3d.core import Camera, NodePath, OrthographicLens

from entropy3d.look.light import lit_colours
from entropy3d.render.backend import OffscreenTarget
from entropy3d.render.lighting import add_lights
from entropy3d.render.nodes import baked_triangles_node, lit_triangles_node, shaded_triangles

#: pixels per unit of the orthographic camera
SCALE = 40


def _drawn_both_ways(mesh: trimesh.Trimesh, rgb) -> tuple[np.ndarray, np.ndarray]:
    """``mesh`` drawn lit, then baked, in the same place and from the same camera (orthographic,
    from above and the south)."""
    scene = NodePath("scene")
    triangles, normals = shaded_triangles(mesh)
    lit = lit_triangles_node("lit", triangles, normals, rgb)
    baked = baked_triangles_node("baked", triangles, normals, rgb)
    lit.reparent_to(scene)
    baked.reparent_to(scene)
    lights = add_lights(scene)
    lens = OrthographicLens()
    lens.set_film_size(4.0, 4.0)
    lens.set_near_far(-100, 100)
    camera = scene.attach_new_node(Camera("camera", lens))
    camera.set_pos(0, -10, 6)
    camera.look_at(0, 0, 0)
    images = []
    with OffscreenTarget("tiny", 4 * SCALE, 4 * SCALE) as target:
        target.add_layer(camera, sort=1)
        for shown, hidden in ((lit, baked), (baked, lit)):
            shown.show()
            hidden.hide()
            images.append(target.render())
    del lights
    return images[0], images[1]


@pytest.mark.parametrize("rgb", [(0.62, 0.48, 0.33), (0.95, 0.95, 0.9), (0.1, 0.12, 0.15)])
def test_a_baked_mesh_draws_the_pixels_the_lit_one_draws(rgb):
    # an icosphere: 320 faces facing every way, some lit by both lights, some by none; a light
    # colour clamps where the sun and the fill add up on a bright surface
    sphere = trimesh.creation.icosphere(subdivisions=2, radius=1.4)
    lit, baked = (image.astype(int) for image in _drawn_both_ways(sphere, rgb))
    drawn = np.any(lit != lit[0, 0], axis=2)
    assert drawn.sum() > 5_000  # the sphere is there, not the clear colour only
    assert len(np.unique(lit[drawn], axis=0)) > 20  # in many shades, one a way it faces
    difference = np.abs(lit - baked).max(axis=2)
    # the same colours, but for the rounding of a colour's last bit where the rasteriser
    # interpolates a lit corner and a stored one
    assert difference.max() <= 1, difference.max()
    assert (difference > 0).mean() < 0.01


def test_lit_colours_add_the_ambient_and_each_light_facing_the_normal_and_clamp():
    from entropy3d.look.light import AMBIENT_RGB, FILL_DIRECTION, FILL_RGB, SUN_DIRECTION, SUN_RGB

    away = -(SUN_DIRECTION + FILL_DIRECTION) / np.linalg.norm(SUN_DIRECTION + FILL_DIRECTION)
    rgb = np.array([0.5, 0.4, 0.3])
    colours = lit_colours(np.array([away, SUN_DIRECTION]), rgb)
    assert np.allclose(colours[0], np.asarray(AMBIENT_RGB) * rgb)  # facing away from both: ambient only
    cosine = float(SUN_DIRECTION @ FILL_DIRECTION)
    expected = (np.asarray(AMBIENT_RGB) + np.asarray(SUN_RGB) + cosine * np.asarray(FILL_RGB)) * rgb
    assert np.allclose(colours[1], expected)
    assert np.all(lit_colours(np.array([SUN_DIRECTION]), (1.0, 1.0, 1.0)) == 1.0)  # clamped


def test_only_destructible_scenery_moves(renderer, small_table):
    geometry = renderer.geometry
    static = next(p for p in geometry.pieces if not p.dynamic)
    with pytest.raises(ValueError, match="never moves"):
        renderer.set_piece_transform(static.id, np.eye(4))
    moving = next((p for p in geometry.pieces if p.dynamic), None)
    if moving is not None:
        renderer.set_piece_transform(moving.id, np.eye(4))


def test_a_flat_mesh_lit_face_by_face_stores_what_its_corners_lit_one_by_one_store():
    mesh = trimesh.creation.icosphere(subdivisions=2, radius=1.4)
    rgb = (0.62, 0.48, 0.33)
    by_face = baked_triangles_node("by-face", mesh.triangles, mesh.face_normals, rgb)
    by_corner = baked_triangles_node("by-corner", *shaded_triangles(mesh), rgb)

    def stored(node):
        geom = node.node().get_geom(0)
        return (bytes(geom.get_vertex_data().get_array(0).get_handle().get_data()),
                bytes(geom.get_primitive(0).get_vertices().get_handle().get_data()))

    vertices, corners = stored(by_face)
    assert len(vertices) > 0 and (vertices, corners) == stored(by_corner)


def test_a_flattened_table_keeps_its_shadows_and_grid_see_through(small_table):
    """The viewer flattens the table it never moves into few batches, one vertex format for all:
    the baked pieces' format must keep the overlays' alpha (an RGB one made every shadow black)."""
    from panda3d.core import GeomVertexReader, TransparencyAttrib

    from entropy3d.render.table_scene import GridStyle, build_table_node
    from entropy3d.scene.build import build_table_geometry

    table_node, _ = build_table_node(small_table.spec, build_table_geometry(small_table), GridStyle(), True)
    table_node.flatten_strong()
    alphas = []
    for geom_path in table_node.find_all_matches("**/+GeomNode"):
        geom_node = geom_path.node()
        for index in range(geom_node.get_num_geoms()):
            state = geom_path.get_net_state().compose(geom_node.get_geom_state(index))
            attrib = state.get_attrib(TransparencyAttrib)
            if attrib is None or attrib.get_mode() == TransparencyAttrib.M_none:
                continue
            geom = geom_node.get_geom(index)
            reader = GeomVertexReader(geom.get_vertex_data(), "color")  # shared by the batches: read
            for primitive in geom.get_primitives():                     # the corners this one draws
                for corner in range(primitive.get_num_vertices()):
                    reader.set_row(primitive.get_vertex(corner))
                    alphas.append(reader.get_data4()[3])
    assert len(alphas) > 100  # the shadows and the grid are there, and see-through
    assert max(alphas) < 0.5
