"""Offscreen targets on the process-wide engine: clear frames, reuse of closed buffers, isolation."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.render.backend import OffscreenTarget


def test_an_empty_target_draws_its_clear_colour_top_row_first():
    with OffscreenTarget("tiny", 40, 24) as target:
        target.clear_colour = (1.0, 0.0, 0.0)
        image = target.render()
    assert image.shape == (24, 40, 3) and image.dtype == np.uint8
    assert np.all(image == [255, 0, 0])


def test_closed_buffers_are_reused_and_live_targets_do_not_draw_each_other():
    first = OffscreenTarget("tiny", 48, 32)
    buffer = first.buffer
    first.close()
    with pytest.raises(RuntimeError, match="closed"):
        first.render()
    red, blue = OffscreenTarget("tiny", 48, 32), OffscreenTarget("tiny", 48, 32)
    try:
        assert buffer in (red.buffer, blue.buffer), "a closed buffer of the same size must be reused"
        red.clear_colour, blue.clear_colour = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
        assert np.all(red.render() == [255, 0, 0])
        assert np.all(blue.render() == [0, 0, 255])
        assert np.all(red.render() == [255, 0, 0])
    finally:
        red.close()
        blue.close()


def test_a_frame_read_back_is_pandas_own_rgb_conversion_top_row_first(renderer):
    """The read-back (issue 17: three channel copies in place of Panda3D's conversion, half its
    time) gives the bytes of ``get_ram_image_as("RGB")``, bottom row last, on a real table frame."""
    image = renderer.target.render()
    texture = renderer.target.texture
    converted = np.frombuffer(memoryview(texture.get_ram_image_as("RGB")), np.uint8)
    converted = converted.reshape(texture.get_y_size(), texture.get_x_size(), 3)[::-1]
    assert image.std() > 20  # a table, not a flat colour: a swapped channel or a flipped row shows
    assert np.array_equal(image, converted)
    assert not np.array_equal(image, converted[::-1]) and not np.array_equal(image, converted[..., ::-1])
