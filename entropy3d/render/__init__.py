"""Headless rendering of a table with Panda3D: offscreen, no window, no GPU needed.

The only package (with ``entropy3d.viewer``) that imports panda3d. Main entry points:

- :class:`TableRenderer` -- one offscreen buffer and scene graph per table, many frames:
  ``set_camera``, ``place_model``, ``add_polyline``, ``render_to_array``, ``save_png``;
- :func:`render_table` -- one PNG of a table from a named camera;
- :class:`CameraView`, :func:`parse_size`, :func:`resolve_backend`.
"""

from entropy3d.render.backend import BACKENDS, BackendUnavailable, resolve_backend
from entropy3d.render.cameras import DEFAULT_CAMERA, PRESETS, CameraView
from entropy3d.render.renderer import TableRenderer, parse_size, render_table, write_png_atomic

__all__ = ["BACKENDS", "DEFAULT_CAMERA", "PRESETS", "BackendUnavailable", "CameraView", "TableRenderer",
           "parse_size", "render_table", "resolve_backend", "write_png_atomic"]
