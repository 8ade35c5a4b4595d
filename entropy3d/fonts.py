"""The one font every 2D drawing uses (the video HUD, activation pictures, level maps): Pillow only,
so any layer that draws with PIL can use it without pulling in a renderer."""

from __future__ import annotations

import functools

from PIL import ImageFont


@functools.lru_cache(maxsize=16)
def font(size: int, bold: bool = False):
    """A TrueType font of ``size`` pixels: DejaVu Sans when installed, else Pillow's own."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)
