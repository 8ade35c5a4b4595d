"""Words drawn over a picture of the table: name plates over miniatures and the gang legend.

Pillow only, sized by the frame (:func:`text_unit`), so the film's HUD and a still of the table
(``entropy3d render``) name miniatures and gangs alike. Colours are "#rrggbb" strings as in
scenes (gang colours); boxes are (left, top, right, bottom) pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.fonts import Box, covered_by, font

TEXT = (240, 240, 236)
#: a plate's and the legend's dark panel (r, g, b, alpha)
PLATE = (12, 14, 18, 200)
#: the least brightness (0-1, perceived: 0.299 R + 0.587 G + 0.114 B) of text in a gang colour
#: on the dark panel; a dark gang colour (navy #2c3e50) is lifted towards white
MIN_TEXT_BRIGHTNESS = 0.55


def text_unit(width: int, height: int) -> float:
    """Pixels per point of the HUD's and cards' sizes (drawn for 1280x720): by the height, but
    by the width in a portrait frame (1080x1920: 1.27, where the height would give 2.67 and
    titles wider than the frame)."""
    return min(height / 720.0, width / 850.0)


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))


def text_rgb(colour: str) -> tuple[int, int, int]:
    """A gang colour as text on the dark panel: itself when bright enough to read, else mixed
    with white just enough to reach :data:`MIN_TEXT_BRIGHTNESS` (its hue kept)."""
    red, green, blue = rgb(colour)
    brightness = (0.299 * red + 0.587 * green + 0.114 * blue) / 255
    if brightness >= MIN_TEXT_BRIGHTNESS:
        return red, green, blue
    towards_white = (MIN_TEXT_BRIGHTNESS - brightness) / (1 - brightness)
    return tuple(round(c + (255 - c) * towards_white) for c in (red, green, blue))


@dataclass(frozen=True)
class _PlateLook:
    """A plate's measures on one frame: its font, padding and colour bar (pixels)."""

    face: object
    pad: int
    bar: int

    @classmethod
    def of(cls, width: int, height: int) -> "_PlateLook":
        unit = text_unit(width, height)
        return cls(font(max(8, int(20 * unit)), True), max(2, int(6 * unit)), max(1, int(4 * unit)))

    def size(self, draw: ImageDraw.ImageDraw, name: str) -> tuple[int, int, int, int]:
        """(plate width, plate height without the bar, the text's left and top bearing) of ``name``."""
        left, top, right, bottom = draw.textbbox((0, 0), name, font=self.face)
        return right - left + 2 * self.pad, bottom - top + 2 * self.pad, left, top

    def draw(self, draw: ImageDraw.ImageDraw, x: int, y: int, name: str, colour: str) -> None:
        """The plate with its top-left corner at (x, y): ``name`` on the dark panel, a bar of the
        gang's ``colour`` under it."""
        w, h, left, top = self.size(draw, name)
        draw.rectangle((x, y, x + w, y + h), fill=PLATE)
        draw.rectangle((x, y + h, x + w, y + h + self.bar), fill=rgb(colour) + (255,))
        draw.text((x + self.pad - left, y + self.pad - top), name, font=self.face, fill=TEXT)


def _placed_plates(draw: ImageDraw.ImageDraw, look: _PlateLook, width: int, height: int,
                   plates: list[tuple[float, float, str, str]]) -> list[tuple[int, int, int, int]]:
    """Where :func:`draw_plates` puts each plate: (x, y, plate width, plate height with its bar),
    a plate's padding in from every side of the frame (a rider riding off the top of the picture
    had its plate pressed against the frame's edge, docs/film_lovers_escape.png)."""
    placed = []
    inset = look.pad
    for column, row, name, _ in plates:
        w, h, _, _ = look.size(draw, name)
        placed.append((min(max(int(column - w / 2), inset), width - w - inset),
                       min(max(int(row - h - look.bar), inset), height - h - look.bar - inset), w, h + look.bar))
    return placed


def plate_boxes(shape: tuple[int, ...], plates: list[tuple[float, float, str, str]]) -> list[Box]:
    """The boxes (left, top, right, bottom; pixels) :func:`draw_plates` would fill on a frame of
    ``shape`` (height, width, ...), so words drawn before the plates can keep clear of them."""
    height, width = shape[:2]
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return [(x, y, x + w, y + h) for x, y, w, h in _placed_plates(draw, _PlateLook.of(width, height), width, height,
                                                                  plates)]


def draw_plates(frame: np.ndarray, plates: list[tuple[float, float, str, str]]) -> np.ndarray:
    """``frame`` (a new array) with a name plate centred over each (column, row) pixel: the name
    on a dark plate with its gang's colour as a bar under it. A plate whose point is off the
    frame is drawn at the frame's edge, so a name is never lost."""
    height, width = frame.shape[:2]
    look = _PlateLook.of(width, height)
    image = Image.fromarray(np.asarray(frame, dtype=np.uint8))
    draw = ImageDraw.Draw(image, "RGBA")
    for (x, y, _, _), (_, _, name, colour) in zip(_placed_plates(draw, look, width, height, plates), plates):
        look.draw(draw, x, y, name, colour)
    return np.asarray(image)


@dataclass(frozen=True)
class Plate:
    """A name plate for a miniature: its ``name`` and gang ``colour``, and where the miniature
    stands in the picture: the box (pixels) its bike or figure fills."""

    name: str
    colour: str
    box: Box


def draw_legend(image: Image.Image, gangs: list[tuple[str, str]], taken: list[Box]) -> Box:
    """The gang legend in the top-right corner of ``image`` (drawn in place): one row per gang
    of (name, colour), a swatch of the colour and the name in it (:func:`text_rgb`) on a dark
    panel; returns the panel's box, which is added to ``taken``."""
    width, height = image.size
    unit = text_unit(width, height)
    face, pad, row_h = font(max(8, int(20 * unit)), True), max(2, int(8 * unit)), max(10, int(27 * unit))
    draw = ImageDraw.Draw(image, "RGBA")
    swatch = max(6, int(16 * unit))
    text_w = max(draw.textlength(name, font=face) for name, _ in gangs)
    margin = max(4, int(13 * unit))
    box = (int(width - margin - 3 * pad - swatch - text_w), margin, width - margin,
           int(margin + 2 * pad + row_h * len(gangs)))
    draw.rectangle(box, fill=PLATE)
    for k, (name, colour) in enumerate(gangs):
        row = box[1] + pad + row_h * k
        middle = row + row_h / 2
        draw.rectangle((box[0] + pad, int(middle - swatch / 2), box[0] + pad + swatch, int(middle + swatch / 2)),
                       fill=rgb(colour) + (255,))
        draw.text((box[0] + 2 * pad + swatch, middle), name, font=face, fill=text_rgb(colour), anchor="lm")
    taken.append(box)
    return box


def draw_name_plates(image: Image.Image, plates: list[Plate], taken: list[Box]) -> list[Box]:
    """A name plate (the film's, :func:`draw_plates`) for each of ``plates`` on ``image`` (drawn
    in place), each where it covers no miniature, no words already written (``taken``, which
    the plates join) and no other plate: over its miniature, else under it, beside it to the
    right, to the left; where none is free, over it as the film puts it (a name is never lost).
    Returns the plates' boxes, in the order given."""
    width, height = image.size
    look = _PlateLook.of(width, height)
    draw = ImageDraw.Draw(image, "RGBA")
    miniatures = [plate.box for plate in plates]
    gap = look.bar
    boxes = []
    for plate in plates:
        w, h, _, _ = look.size(draw, plate.name)
        h += look.bar
        left, top, right, bottom = plate.box
        across = (left + right) / 2 - w / 2
        down = (top + bottom) / 2 - h / 2
        places = [(across, top - gap - h), (across, bottom + gap), (right + gap, down), (left - gap - w, down)]
        fitted = [(min(max(int(x), 0), width - w), min(max(int(y), 0), height - h)) for x, y in places]

        boxes_at = [(x, y, x + w, y + h) for x, y in fitted]
        x, y, _, _ = next((box for box in boxes_at if covered_by(box, taken) is None
                           and covered_by(box, miniatures) is None), boxes_at[0])
        look.draw(draw, x, y, plate.name, plate.colour)
        boxes.append((x, y, x + w, y + h))
        taken.append(boxes[-1])
    return boxes


def plate_rise(width: int, height: int) -> int:
    """How many pixels a name plate stands tall on a frame (its panel and colour bar), so a tag
    set over a named miniature stands over its plate."""
    look = _PlateLook.of(width, height)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return look.size(probe, "Ag")[1] + look.bar + 1


@dataclass(frozen=True)
class NpcTag:
    """A mission NPC's tag on a frame (:mod:`entropy3d.look.npc_marks`): ``label`` on a plate with
    a bar of its gang's ``colour``, its bottom centre at ``top`` (column, row pixels); ``foot``:
    where it stands on the table (column, row), marked with a dot of its colour and a line up to
    the plate, or None for an NPC riding pillion (the plate stands over its holder)."""

    label: str
    colour: str
    top: tuple[float, float]
    foot: tuple[float, float] | None = None


def draw_npc_tags(frame: np.ndarray, tags: list[NpcTag]) -> np.ndarray:
    """``frame`` (a new array) with each NPC's tag (:class:`NpcTag`): its dot and line first, then
    its plate as the film's name plates are drawn (:func:`draw_plates`)."""
    if not tags:
        return frame
    height, width = frame.shape[:2]
    unit = text_unit(width, height)
    image = Image.fromarray(np.asarray(frame, dtype=np.uint8))
    draw = ImageDraw.Draw(image, "RGBA")
    radius, line = max(2, int(5 * unit)), max(1, int(2 * unit))
    for tag in tags:
        if tag.foot is None:
            continue
        (fx, fy), (tx, ty) = tag.foot, tag.top
        draw.line((fx, fy, tx, ty), fill=PLATE[:3] + (230,), width=line + 2)
        draw.line((fx, fy, tx, ty), fill=rgb(tag.colour) + (255,), width=line)
        draw.ellipse((fx - radius, fy - radius, fx + radius, fy + radius), fill=rgb(tag.colour) + (255,),
                     outline=TEXT, width=max(1, line // 2))
    return draw_plates(np.asarray(image), [(tag.top[0], tag.top[1], tag.label, tag.colour) for tag in tags])
