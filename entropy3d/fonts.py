"""The one font every 2D drawing uses (the video HUD, activation pictures, level maps), and the
one test of whether words would cover words already written: Pillow only, so any layer that
draws with PIL can use it without pulling in a renderer."""

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


Box = tuple[float, float, float, float]


def covered_by(box: Box, taken) -> Box | None:
    """The first of ``taken`` that ``box`` overlaps, or None; boxes are (left, top, right,
    bottom) pixels, and boxes that only touch do not overlap. A label placed where it meets one
    is moved or left out, so no name is written over another."""
    return next((other for other in taken if box[0] < other[2] and other[0] < box[2]
                 and box[1] < other[3] and other[1] < box[3]), None)
