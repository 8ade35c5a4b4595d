"""Headless rendering of a table with Panda3D: offscreen, no window, no GPU needed.

The only package (with ``entropy3d.viewer``) that imports panda3d. Main entry points:

- :class:`TableRenderer` -- one offscreen buffer and scene graph per table, many frames:
  ``set_camera``, ``place_model`` / ``set_model_transform`` / ``show_model``,
  ``set_piece_transform``, ``add_polyline`` / ``remove_overlay``, ``project``,
  ``render_to_array``, ``save_png``, ``close``;
- :func:`render_table` -- one PNG of a table from a named camera;
- :class:`CameraView` (with ``blend`` for camera moves), :func:`parse_size`,
  :func:`resolve_backend` (``tiny`` software rasteriser by default, ``gl`` headless EGL, ``auto``).

For a video make one renderer and call ``render_to_array()`` per frame; ``supersample=1``
trades anti-aliasing for about four times the frame rate (1280x720 crossroads: ~0.03 s
against ~0.14 s a frame on this machine).

:mod:`.cameras` (camera views, and what hides a miniature from one: the film's director judges
its shots with it) needs no Panda3D: the names from :mod:`.backend` and :mod:`.renderer`, which
do, are imported on first use (PEP 562), so ``entropy3d.render.cameras`` loads without them.
"""

from entropy3d.render.cameras import DEFAULT_CAMERA, PRESETS, CameraView

#: the names of the modules that load Panda3D, imported when first asked for
_PANDA_NAMES = {"BACKENDS": "backend", "BackendUnavailable": "backend", "resolve_backend": "backend",
                "TableRenderer": "renderer", "parse_size": "renderer", "render_table": "renderer",
                "write_png_atomic": "renderer"}


def __getattr__(name: str):
    if name in _PANDA_NAMES:
        import importlib

        return getattr(importlib.import_module(f"entropy3d.render.{_PANDA_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BACKENDS", "DEFAULT_CAMERA", "PRESETS", "BackendUnavailable", "CameraView", "TableRenderer",
           "parse_size", "render_table", "resolve_backend", "write_png_atomic"]
