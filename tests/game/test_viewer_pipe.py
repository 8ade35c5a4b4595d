"""The viewer picks the ground layers' depth state from the window's graphics pipe.

Found by running `entropy3d view` in a real (Xvfb) OpenGL window: with the software pipe's state
the roads, terrain zones and inch grid were not drawn at all.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from entropy3d.viewer.app import pipe_backend


def fake_pipe(type_name: str):
    return SimpleNamespace(get_type=lambda: SimpleNamespace(get_name=lambda: type_name))


@pytest.mark.parametrize("type_name, backend", [("TinyXGraphicsPipe", "tiny"), ("TinyOffscreenGraphicsPipe", "tiny"),
                                                ("glxGraphicsPipe", "gl"), ("eglGraphicsPipe", "gl")])
def test_pipe_backend(type_name, backend):
    assert pipe_backend(fake_pipe(type_name)) == backend


def test_real_software_pipe_is_tiny():
    from panda3d.core import GraphicsPipeSelection

    selection = GraphicsPipeSelection.get_global_ptr()
    pipe = selection.make_module_pipe("p3tinydisplay")
    assert pipe is not None
    assert pipe_backend(pipe) == "tiny"
