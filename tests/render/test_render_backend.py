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


def test_a_render_holds_no_x_display_so_an_x_server_going_away_does_not_end_it(tmp_path):
    """The software backend draws offscreen, never through the X display: its module's default
    pipe opens the display (":0.0" when DISPLAY is unset), so a render beside the viewer tests'
    Xvfb held a connection to it, and Xlib ends a process whose X server goes away. Here a frame
    is drawn with DISPLAY naming a live Xvfb, the Xvfb stops, and a second frame must follow."""
    import os
    import subprocess
    import sys

    from tests.viewer.xwindow import Xvfb, missing_tools

    assert not missing_tools(), f"tools/system_deps installs {missing_tools()}"
    stopped = tmp_path / "stopped"
    code = ("import os, sys, time\n"
            "from entropy3d.render.backend import OffscreenTarget\n"
            "target = OffscreenTarget('tiny', 32, 24)\n"
            "target.render()\n"
            "print(target.buffer.get_pipe().get_type().get_name(), flush=True)\n"
            "while not os.path.exists(sys.argv[1]):\n"
            "    time.sleep(0.05)\n"
            "target.clear_colour = (0.0, 1.0, 0.0)\n"
            "assert (target.render() == [0, 255, 0]).all()\n"
            "print('second frame', flush=True)\n")
    server = Xvfb()
    try:
        child = subprocess.Popen([sys.executable, "-c", code, str(stopped)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env={**os.environ, "DISPLAY": server.display})
        pipe = child.stdout.readline().strip()
    finally:
        server.close()
    stopped.touch()
    out, err = child.communicate(timeout=60)
    assert pipe == "TinyOffscreenGraphicsPipe" and child.returncode == 0 and "second frame" in out, (pipe, out, err)
    assert "X fatal error" not in err
