"""Frames of the small table, judged by pixel statistics rather than golden images.

Each test checks something a viewer would notice: a blank or flat frame, a table lost in the
backdrop, a miniature missing or in the wrong colour, cameras that all show the same thing.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.render.conftest import SIZE, colour_near, luminance

GANG = {"hades": "#c0392b", "komodo": "#27ae60"}


def backdrop_only(renderer) -> np.ndarray:
    renderer.scene.hide()
    try:
        return renderer.render_to_array()
    finally:
        renderer.scene.show()


def test_iso_frame_has_contrast_many_colours_and_the_table_fills_it(fresh_view):
    image = fresh_view.render_to_array()
    assert image.shape == (SIZE[1], SIZE[0], 3) and image.dtype == np.uint8
    assert luminance(image).std() > 25, "flat frame: lighting or geometry missing"

    quantised = (image // 32).reshape(-1, 3)
    _, counts = np.unique(quantised, axis=0, return_counts=True)
    assert (counts > 0.004 * len(quantised)).sum() >= 8, "too few distinct colours for a table with terrain"

    table_mask = np.abs(image.astype(int) - backdrop_only(fresh_view).astype(int)).sum(axis=2) > 24
    assert 0.25 < table_mask.mean() < 0.95, f"table covers {table_mask.mean():.0%} of the frame"


def test_faces_of_different_orientation_differ_in_brightness(fresh_view):
    """The tower's roof, south wall and west wall are one colour; the sun must set them apart.
    Seen from the south-west, where all three face the camera (the iso camera turns to wherever
    it sees the miniatures best)."""
    from entropy3d.render.cameras import box_corners, fit_view

    fresh_view.set_camera(fit_view(box_corners((0, 0, 0), (24, 24, 7)), 225.0, 42.0, 35.0, fresh_view.aspect))
    image = fresh_view.render_to_array()
    tower = fresh_view.geometry.by_id("tower").mesh.bounds  # x 2..8, y 2..8, top ~6.4
    (x0, y0, _), (x1, y1, top) = tower
    mid = (top + 0.3) / 2
    points = {"roof": (5, 5, top), "south": (5, y0, mid), "west": (x0, 5, mid)}
    pixels = {name: fresh_view.project([p])[0] for name, p in points.items()}
    level = {name: luminance(image[int(r) - 2:int(r) + 3, int(c) - 2:int(c) + 3]).mean()
             for name, (c, r) in pixels.items()}
    assert level["roof"] > level["south"] + 15 > level["west"] + 30, level


def test_gang_colours_show_where_each_bike_stands(fresh_view, small_table):
    fresh_view.set_camera("overview")
    image = fresh_view.render_to_array()
    for model in small_table.models:
        pose = fresh_view.model_poses[model.id]
        pixel = fresh_view.project([(pose.x, pose.y, pose.z + 0.5)])[0]
        own, other = GANG[model.gang], [c for g, c in GANG.items() if g != model.gang][0]
        assert colour_near(image, pixel, own), f"{model.id}: no {model.gang} colour at {pixel}"
        assert not colour_near(image, pixel, other, radius=4), f"{model.id}: wrong gang colour at {pixel}"


def test_moving_a_miniature_moves_its_colour(fresh_view):
    from entropy3d.geometry import Pose

    fresh_view.set_camera("overview")
    old = fresh_view.model_poses["k1"]
    new = Pose(20.0, 6.0, 90.0, 0.0)  # bare asphalt, clear of the buildings
    fresh_view.place_model("k1", new)
    image = fresh_view.render_to_array()
    assert colour_near(image, fresh_view.project([(new.x, new.y, 0.5)])[0], GANG["komodo"])
    assert not colour_near(image, fresh_view.project([(old.x, old.y, 0.5)])[0], GANG["komodo"], radius=4)


def test_hidden_miniature_and_polyline_overlay(fresh_view):
    fresh_view.set_camera("overview")
    fresh_view.show_model("h1", False)
    line = [(3.0, 21.0, 0.3), (21.0, 21.0, 0.3)]
    fresh_view.add_polyline(line, colour="#ff00ff", width=0.25, name="path")
    image = fresh_view.render_to_array()
    h1 = fresh_view.model_poses["h1"]
    assert not colour_near(image, fresh_view.project([(h1.x, h1.y, 0.5)])[0], GANG["hades"], radius=4)
    middle = fresh_view.project([(12.0, 21.0, 0.3)])[0]
    assert colour_near(image, middle, "#ff00ff", radius=3)
    fresh_view.remove_overlay("path")
    assert not colour_near(fresh_view.render_to_array(), middle, "#ff00ff", radius=3)


def test_each_camera_shows_a_different_picture(fresh_view):
    frames = {}
    for name in fresh_view.camera_names:
        fresh_view.set_camera(name)
        frames[name] = fresh_view.render_to_array().astype(int)
    names = list(frames)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert np.abs(frames[a] - frames[b]).mean() > 15, f"{a} and {b} look alike"


def test_a_frame_is_the_same_after_any_other(small_table):
    """Each frame starts from a cleared picture and depth buffer (the buffer's own clear; the
    layers clear nothing): a view drawn after a low one, which filled the depth buffer close to
    the eye, is the view a renderer that drew nothing before draws. Left over depth would hide
    2.6% of this picture; up to 0.5% may differ, as the software rasteriser settles a few ties
    at the edges of touching faces by the process's history (66 pixels of 38,400 after a film
    was rendered in the same process)."""
    from entropy3d.render import TableRenderer

    with TableRenderer(small_table, (240, 160), camera="overview") as fresh:
        expected = fresh.render_to_array()
    with TableRenderer(small_table, (240, 160), camera="low") as used:
        before = used.render_to_array()
        used.set_camera("overview")
        after = used.render_to_array()
    assert (before != expected).any(axis=2).mean() > 0.2
    assert (after != expected).any(axis=2).mean() < 0.005


def test_grid_toggle_changes_only_the_ground(small_table):
    from entropy3d.render import TableRenderer

    with TableRenderer(small_table, (240, 160), grid=False, camera="overview", title="") as plain, \
            TableRenderer(small_table, (240, 160), grid=True, camera="overview", title="") as gridded:
        without, with_grid = plain.render_to_array().astype(int), gridded.render_to_array().astype(int)
    changed = np.abs(with_grid - without).sum(axis=2) > 12
    assert 0.02 < changed.mean() < 0.5, f"grid changed {changed.mean():.1%} of the pixels"
    # lines are lighter than the ground they cross
    assert with_grid[changed].mean() > without[changed].mean()


def test_unknown_camera_lists_the_names(fresh_view):
    with pytest.raises(ValueError, match="iso, overview, low"):
        fresh_view.set_camera("drone")


def test_unknown_model_and_piece_are_named(fresh_view):
    with pytest.raises(KeyError, match="h1, k1"):
        fresh_view.show_model("nobody")
    with pytest.raises(KeyError, match="tower"):
        fresh_view.set_piece_transform("nothing", np.eye(4))


def test_destructible_piece_can_be_moved(fresh_view):
    fresh_view.set_camera("overview")
    bench = fresh_view.geometry.by_id("bench1").mesh.bounds.mean(axis=0)
    before = fresh_view.render_to_array().astype(int)
    shift = np.eye(4)
    shift[:3, 3] = (0.0, 4.0, 0.0)
    fresh_view.set_piece_transform("bench1", shift)
    try:
        after = fresh_view.render_to_array().astype(int)
    finally:
        fresh_view.set_piece_transform("bench1", np.eye(4))
    col, row = fresh_view.project([bench])[0].astype(int)
    assert np.abs(after[row - 2:row + 3, col - 2:col + 3] - before[row - 2:row + 3, col - 2:col + 3]).mean() > 20


def test_simple_solids_stand_in_for_missing_bike_models(small_table):
    from entropy3d.render import TableRenderer

    with TableRenderer(small_table, (320, 240), camera="overview", bike_models=False, title="") as solids:
        image = solids.render_to_array()
        for model in small_table.models:
            pose = solids.model_poses[model.id]
            pixel = solids.project([(pose.x, pose.y, pose.z + 0.5)])[0]
            assert colour_near(image, pixel, GANG[model.gang], radius=6), model.id
