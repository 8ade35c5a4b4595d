"""The heads-up display and the cards of a demo video, drawn with Pillow onto rendered frames.

Everything is 2D and sized relative to the frame height, so 640x360 and 1920x1080 look alike.
Colours are "#rrggbb" strings as in scenes (gang colours).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.fonts import font

# the name plates and gang colours as text: shared with the stills of the table
from entropy3d.look.labels import (
    TEXT,
    rgb,
    text_rgb,
    text_unit,
)

PANEL = (12, 14, 18, 190)
MUTED = (170, 174, 180)
GOOD = (120, 220, 120)
BAD = (240, 90, 80)
ACCENT = (255, 211, 26)
#: the HUD shows the newest this many (sentence, detail) lines
HUD_LINES = 3


def vitals_words(bike: "BikeLine") -> str:
    """A bike's speed and wounds ("speed 2   wounds 3"); a figure of a system's own game has no
    speed and counts the wounds it may still take ("2 wounds left": a chase's "wounds 2" after
    "1 Wound: 2 left" reads as two Wounds taken)."""
    if bike.figure_only:
        return f"{bike.wounds} wound{'' if bike.wounds == 1 else 's'} left"
    return f"speed {bike.speed}   wounds {bike.wounds}"


@dataclass(frozen=True)
class BikeLine:
    """One bike on the HUD: id, rider name, gang colour, speed, stress of max, wounds, status and
    conditions (bleeding, stunned, burning, wet: EC-COND-*). figure_only: a figure of a game system
    that plays its own rules (gang battle), which has no speed or stress: only its wounds, status
    and conditions are shown."""

    model_id: str
    name: str
    colour: str
    speed: int
    stress: int
    max_stress: int
    wounds: int
    status: str
    conditions: tuple[str, ...] = ()
    figure_only: bool = False


@dataclass(frozen=True)
class HudInfo:
    """What the HUD shows on one frame.

    heading: top line ("Turn 2 of 3 - activation 3/8"). active: the active bike, or None.
    plan: the action's plan text. lines: (sentence, detail) per event, newest last: the plain
    words drawn large, the dice and clauses under them, smaller (see :mod:`entropy3d.systems.words`).
    score: (gang name, colour, points) per gang. caption: one line in large print, centred at the
    bottom (the short cut's words, :mod:`entropy3d.video.cut`), red when ``caption_bad``.
    """

    heading: str
    active: BikeLine | None
    plan: str = ""
    lines: tuple[tuple[str, str], ...] = ()
    score: tuple[tuple[str, str, int], ...] = field(default_factory=tuple)
    caption: str = ""
    caption_bad: bool = False


#: a panel's darkening in integers: (value x (255 - alpha) + colour x alpha + 127) // 255
_PANEL_KEEP = 255 - PANEL[3]
_PANEL_ADD = np.array([c * PANEL[3] + 127 for c in PANEL[:3]], dtype=np.uint16)


def _panel(pixels: np.ndarray, box) -> None:
    """Darken a box of the frame in place (a translucent panel, drawn with numpy in 16-bit
    integers: Pillow's full-frame alpha compositing costs more than the 3D render at 720p)."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    region = _rows(pixels[max(0, y0):y1, max(0, x0):x1])
    region[...] = (region.astype(np.uint16) * _PANEL_KEEP + np.tile(_PANEL_ADD, region.shape[1] // 3)) // 255


def _rows(region: np.ndarray) -> np.ndarray:
    """A (h, w, 3) box of a frame as a (h, w * 3) view: numpy's loops over a row of a few thousand
    values run about 4x faster than over the 3 channels of each pixel (issue 17). Raises where the
    box cannot be viewed so (a frame not C-contiguous), rather than write to a copy."""
    return region.reshape(region.shape[0], region.shape[1] * 3, copy=False)


@dataclass(frozen=True, eq=False)
class Overlay:
    """What a HUD or a card lays over a frame, drawn once and laid on every frame that shows
    the same thing: translucent panels, then text and chips as (y0, y1, x0, x1, ink, uncovered)
    regions, each (y1 - y0, 3 (x1 - x0)) uint16 with the channels side by side along a row: ink is
    255 x the colour already weighted by coverage, plus 127 for rounding, and uncovered is 255 minus
    the coverage."""

    panels: tuple
    regions: tuple

    def lay_on(self, pixels: np.ndarray) -> None:
        """Draw this overlay onto ``pixels`` (height, width, 3) uint8, in place."""
        for box in self.panels:
            _panel(pixels, box)
        for y0, y1, x0, x1, ink, uncovered in self.regions:
            region = _rows(pixels[y0:y1, x0:x1])
            region[...] = (region * uncovered + ink) // 255


def make_overlay(size: tuple[int, int], panels: list, items: list) -> Overlay:
    """Draw ``items`` (kind, where, text, font, colour, anchor: Pillow text, filled or outlined
    rectangles) once, as ink and coverage, and keep the disjoint regions they cover."""
    width, height = size
    ink, coverage = Image.new("RGB", size), Image.new("L", size)
    for canvas, white in ((ImageDraw.Draw(ink), False), (ImageDraw.Draw(coverage), True)):
        for kind, where, text, face, colour, anchor in items:
            fill = 255 if white else colour
            if kind == "text":
                canvas.text(where, text, font=face, fill=fill, anchor=anchor)
            elif kind == "rect":
                canvas.rectangle(where, fill=fill)
            else:
                canvas.rectangle(where, outline=fill)
    ink_pixels = np.asarray(ink, dtype=np.uint16)
    covered = np.asarray(coverage, dtype=np.uint16)
    regions = []
    for y0, y1 in _runs(covered.any(axis=1)):
        for x0, x1 in _runs(covered[y0:y1].any(axis=0)):
            regions.append((y0, y1, x0, x1, _rows(ink_pixels[y0:y1, x0:x1] * 255 + 127),
                            np.repeat(255 - covered[y0:y1, x0:x1], 3, axis=1)))
    return Overlay(tuple(panels), tuple(regions))


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """The [start, stop) index ranges where ``mask`` is True."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
    return list(zip(edges[0::2].tolist(), edges[1::2].tolist()))


def _clipped(text: str, face, width: int, draw: ImageDraw.ImageDraw) -> str:
    """``text`` cut to ``width`` pixels, ending in "..." when cut."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "...", font=face) > width:
        text = text[:-1]
    return text.rstrip(" ,") + "..."


def _wrap(text: str, face, width: int, draw: ImageDraw.ImageDraw) -> list[str]:
    words, lines, current = text.split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if draw.textlength(trial, font=face) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


@dataclass(frozen=True, eq=False)
class LaidFrame:
    """A rendered picture and what is still to be laid over it: a card's darkening (``keep``
    256ths of each value), an overlay, and an inset picture pasted over both at its (left, top,
    width, height) box (a jump's profile). A film yields these, and the MP4 encoder's feeder
    thread lays them on (:meth:`pixels`) while the next picture renders: numpy, Pillow and Panda3D
    all leave the GIL, so the two cores work at once (issue 17: 3.7 ms a 720p frame moved off the
    drawing thread). ``picture`` is never written to (a held shot shares it between frames)."""

    picture: np.ndarray
    overlay: Overlay
    keep: int | None = None
    inset: tuple[Image.Image, tuple[int, int, int, int]] | None = None

    def pixels(self) -> np.ndarray:
        """The finished frame (a new (height, width, 3) uint8 array)."""
        if self.keep is None:
            pixels = np.array(self.picture, dtype=np.uint8, copy=True)
        else:  # 16-bit integers: a quarter of the time of float32
            pixels = ((self.picture.astype(np.uint16) * self.keep) >> 8).astype(np.uint8)
        self.overlay.lay_on(pixels)
        if self.inset is not None:
            paste_inset(pixels, *self.inset)
        return pixels


def paste_inset(pixels: np.ndarray, inset: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Paste ``inset``, scaled to ``box`` (left, top, width, height), over ``pixels`` in place,
    framed by a thin light border."""
    left, top, w, h = box
    pixels[top - 2:top + h + 2, left - 2:left + w + 2] = 200
    pixels[top:top + h, left:left + w] = np.asarray(inset.resize((w, h)).convert("RGB"))


def finished(frame: np.ndarray | LaidFrame) -> np.ndarray:
    """A film's frame as pixels: a :class:`LaidFrame` finished, an array as it is."""
    return frame.pixels() if isinstance(frame, LaidFrame) else frame


class HeldFrames:
    """Finishes a film's frames in order for a reader that never writes to them (an encoder): a
    held shot (the same picture under the same overlay, darkening and no inset as the frame
    before) gives the frame before's pixels again instead of laying the same HUD on a new copy."""

    def __init__(self):
        self._last: tuple[LaidFrame, np.ndarray] | None = None

    def __call__(self, frame: np.ndarray | LaidFrame) -> np.ndarray:
        if not isinstance(frame, LaidFrame):
            self._last = None
            return frame
        if self._last is not None:
            before, pixels = self._last
            if (frame.inset is None and before.inset is None and frame.picture is before.picture
                    and frame.overlay is before.overlay and frame.keep == before.keep):
                return pixels
        pixels = frame.pixels()
        self._last = (frame, pixels)
        return pixels


def hud_frame(frame: np.ndarray, info: HudInfo) -> LaidFrame:
    """The frame with the HUD of ``info`` to be laid over it."""
    return LaidFrame(frame, hud_overlay(info, frame.shape[1], frame.shape[0]))


def draw_hud(frame: np.ndarray, info: HudInfo) -> np.ndarray:
    """The frame with the HUD drawn over it (a new array)."""
    return hud_frame(frame, info).pixels()


@functools.lru_cache(maxsize=32)
def hud_overlay(info: HudInfo, width: int, height: int) -> Overlay:
    """The HUD of ``info`` on a frame of ``width`` x ``height`` pixels, drawn once: a video shows
    the same HUD for many frames."""
    unit = text_unit(width, height)
    boxes, texts = [], []  # panels are darkened first, then the text is drawn over them
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    pad = int(14 * unit)
    big, small, tiny = font(int(26 * unit), True), font(int(19 * unit)), font(int(16 * unit))

    top = info.heading
    text_w = measure.textlength(top, font=big)
    boxes.append((pad, pad, pad * 3 + text_w, pad + int(44 * unit)))
    texts.append(("text", (pad * 2, pad + int(7 * unit)), top, big, TEXT, None))

    if info.score:
        y = pad
        box_w = int(230 * unit)
        boxes.append((width - pad - box_w, y, width - pad, y + int(14 * unit + 30 * unit * len(info.score))))
        for k, (name, colour, points) in enumerate(info.score):
            row = y + int(8 * unit + 30 * unit * k)
            texts.append(("rect", (width - box_w, row + int(4 * unit), width - box_w + int(14 * unit),
                                   row + int(18 * unit)), None, None, rgb(colour), None))
            texts.append(("text", (width - box_w + int(24 * unit), row), name, small, TEXT, None))
            texts.append(("text", (width - pad * 2, row), f"{points:+d}", small, TEXT, "ra"))

    if info.active is not None:
        bike = info.active
        box = (pad, height - pad - int(150 * unit), pad + int(330 * unit), height - pad)
        boxes.append(box)
        x, y = box[0] + pad, box[1] + int(10 * unit)
        texts.append(("rect", (x, y + int(4 * unit), x + int(18 * unit), y + int(24 * unit)), None, None,
                      rgb(bike.colour), None))
        room = box[2] - pad - (x + int(28 * unit))
        size = 26
        while size > 14 and measure.textlength(bike.name, font=font(int(size * unit), True)) > room:
            size -= 2  # a long "name (gang)" shrinks to fit its panel
        texts.append(("text", (x + int(28 * unit), y + int((26 - size) * unit * 0.6)), f"{bike.name}",
                      font(int(size * unit), True), TEXT, None))
        y += int(38 * unit)
        texts.append(("text", (x, y), f"{vitals_words(bike)}   {bike.status.replace('_', ' ')}", small, TEXT, None))
        y += int(30 * unit)
        if not bike.figure_only:  # a figure of a game system's own rules has no stress
            texts.append(("text", (x, y), "stress", small, TEXT, None))
            bar_x = x + int(70 * unit)
            bar_w = box[2] - pad - bar_x
            texts.append(("outline", (bar_x, y + int(4 * unit), bar_x + bar_w, y + int(20 * unit)), None, None, MUTED,
                          None))
            share = min(1.0, bike.stress / max(1, bike.max_stress))
            colour = GOOD if share < 0.5 else ACCENT if share < 0.8 else BAD
            if share > 0:
                texts.append(("rect", (bar_x + 2, y + int(6 * unit), bar_x + 2 + int((bar_w - 4) * share),
                                       y + int(18 * unit)), None, None, colour, None))
            texts.append(("text", (bar_x + bar_w // 2, y + int(2 * unit)), f"{bike.stress}/{bike.max_stress}", tiny,
                          TEXT, "ma"))
            y += int(30 * unit)
        said = ", ".join(c.replace("_", " ") for c in bike.conditions).upper()  # OUT OF AMMO, PRONE
        if said:
            texts.append(("text", (box[2] - pad, y), said, tiny, BAD, "ra"))
        if info.plan:  # wrapped in the panel, beside the conditions; what does not fit ends in "..."
            room = box[2] - pad - x - (int(measure.textlength(said, font=tiny)) + pad if said else 0)
            line_h = int(18 * unit)
            rows = max(1, (box[3] - int(4 * unit) - y) // line_h)
            lines = _wrap(info.plan, tiny, room, measure)
            if len(lines) > rows:
                lines = lines[:rows - 1] + [_clipped(" ".join(lines[rows - 1:]), tiny, room, measure)]
            for k, line in enumerate(lines):
                texts.append(("text", (x, y + k * line_h), line, tiny, ACCENT, None))

    if info.lines:
        left = pad + int(345 * unit)
        box_w = width - pad - left
        say, fine = font(int(21 * unit), True), font(int(15 * unit))
        rows: list[tuple[str, object, tuple, int]] = []  # text, font, colour, height
        for sentence, detail in info.lines[-HUD_LINES:]:
            bad = any(w in sentence for w in ("crashes", "busts", "BUST", "out of the game", "fails", "OUT OF ACTION",
                                              "BOTTLE OUT"))
            rows += [(line, say, BAD if bad else TEXT, int(27 * unit))
                     for line in (_wrap(sentence, say, box_w - 2 * pad, measure) if sentence else ())]
            rows += [(line, fine, MUTED, int(20 * unit)) for line in _wrap(detail, fine, box_w - 2 * pad, measure)]
        while sum(r[3] for r in rows) > int(300 * unit):
            rows.pop(0)
        box = (left, height - pad - sum(r[3] for r in rows) - pad, width - pad, height - pad)
        boxes.append(box)
        y = box[1] + pad // 2
        for line, face, colour, line_h in rows:
            texts.append(("text", (left + pad, y), line, face, colour, None))
            y += line_h

    if info.caption:
        size = 34
        while size > 22 and measure.textlength(info.caption, font=font(int(size * unit), True)) > width - 6 * pad:
            size -= 2  # a long line shrinks to fit one line before it is cut
        face = font(int(size * unit), True)
        line = _clipped(info.caption, face, width - 6 * pad, measure)
        text_w = measure.textlength(line, font=face)
        bottom = height - int(3 * pad)
        box = (int((width - text_w) / 2 - 1.5 * pad), bottom - int(56 * unit),
               int((width + text_w) / 2 + 1.5 * pad), bottom)
        boxes.append(box)
        texts.append(("text", (width // 2, box[1] + int(10 * unit)), line, face, BAD if info.caption_bad else TEXT,
                      "ma"))

    return make_overlay((width, height), boxes, texts)


def card_frame(frame: np.ndarray, title: str, lines: tuple[str, ...] = (), colours: tuple[str, ...] = (),
               darken: float = 0.55) -> LaidFrame:
    """A title card to be laid over the frame, darkened by ``darken``: a big title and centred
    lines (line k in its gang's colour when ``colours[k]`` is given)."""
    height, width = frame.shape[:2]
    return LaidFrame(frame, card_overlay(title, tuple(lines), tuple(colours), width, height),
                     round(256 * (1.0 - darken)))


def draw_card(frame: np.ndarray, title: str, lines: tuple[str, ...] = (), colours: tuple[str, ...] = (),
              darken: float = 0.55) -> np.ndarray:
    """The title card of :func:`card_frame` drawn (a new array)."""
    return card_frame(frame, title, lines, colours, darken).pixels()


@functools.lru_cache(maxsize=8)
def card_overlay(title: str, lines: tuple[str, ...], colours: tuple[str, ...], width: int, height: int) -> Overlay:
    """A card's panel and text on a frame of ``width`` x ``height`` pixels, drawn once."""
    unit = text_unit(width, height)
    top, bottom = int(height * 0.30), int(height * 0.34 + (110 + 42 * len(lines)) * unit)
    big, small = font(int(64 * unit), True), font(int(28 * unit))
    y = int(height * 0.34)
    items = [("text", (width // 2, y), title, big, TEXT, "ma")]
    y += int(96 * unit)
    for k, line in enumerate(lines):
        colour = colours[k] if k < len(colours) else ""
        items.append(("text", (width // 2, y), line, small, TEXT if not colour else text_rgb(colour), "ma"))
        y += int(42 * unit)
    return make_overlay((width, height), [(0, top, width, min(height, bottom))], items)
