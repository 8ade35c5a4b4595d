"""The heads-up display and the cards of a demo video, drawn with Pillow onto rendered frames.

Everything is 2D and sized relative to the frame height, so 640x360 and 1920x1080 look alike.
Colours are "#rrggbb" strings as in scenes (gang colours).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFont

PANEL = (12, 14, 18, 190)
TEXT = (240, 240, 236)
MUTED = (170, 174, 180)
GOOD = (120, 220, 120)
BAD = (240, 90, 80)
ACCENT = (255, 211, 26)


@functools.lru_cache(maxsize=16)
def font(size: int, bold: bool = False):
    """A TrueType font of ``size`` pixels: DejaVu Sans when installed, else Pillow's own."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))


@dataclass(frozen=True)
class BikeLine:
    """One bike on the HUD: id, rider name, gang colour, speed, stress of max, wounds, status."""

    model_id: str
    name: str
    colour: str
    speed: int
    stress: int
    max_stress: int
    wounds: int
    status: str


@dataclass(frozen=True)
class HudInfo:
    """What the HUD shows on one frame.

    heading: top line ("Turn 2 of 3 - activation 3/8"). active: the active bike, or None.
    plan: the action's plan text. lines: event and dice lines, newest last (the rule applied in
    brackets). score: (gang name, colour, points) per gang.
    """

    heading: str
    active: BikeLine | None
    plan: str = ""
    lines: tuple[str, ...] = ()
    score: tuple[tuple[str, str, int], ...] = field(default_factory=tuple)


def _panel(draw: ImageDraw.ImageDraw, box, radius: int) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=PANEL)


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


def draw_hud(frame: np.ndarray, info: HudInfo) -> np.ndarray:
    """The frame with the HUD drawn over it (a new array)."""
    height, width = frame.shape[:2]
    unit = height / 720.0
    image = Image.fromarray(frame).convert("RGBA")
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    pad = int(14 * unit)
    big, small, tiny = font(int(26 * unit), True), font(int(19 * unit)), font(int(16 * unit))

    top = info.heading
    text_w = draw.textlength(top, font=big)
    _panel(draw, (pad, pad, pad * 3 + text_w, pad + int(44 * unit)), int(8 * unit))
    draw.text((pad * 2, pad + int(7 * unit)), top, font=big, fill=TEXT)

    if info.score:
        y = pad
        box_w = int(230 * unit)
        _panel(draw, (width - pad - box_w, y, width - pad, y + int(14 * unit + 30 * unit * len(info.score))),
               int(8 * unit))
        for k, (name, colour, points) in enumerate(info.score):
            row = y + int(8 * unit + 30 * unit * k)
            draw.rectangle((width - box_w, row + int(4 * unit), width - box_w + int(14 * unit), row + int(18 * unit)),
                           fill=rgb(colour))
            draw.text((width - box_w + int(24 * unit), row), name, font=small, fill=TEXT)
            draw.text((width - pad * 2, row), f"{points:+d}", font=small, fill=TEXT, anchor="ra")

    if info.active is not None:
        bike = info.active
        box = (pad, height - pad - int(150 * unit), pad + int(330 * unit), height - pad)
        _panel(draw, box, int(8 * unit))
        x, y = box[0] + pad, box[1] + int(10 * unit)
        draw.rectangle((x, y + int(4 * unit), x + int(18 * unit), y + int(24 * unit)), fill=rgb(bike.colour))
        draw.text((x + int(28 * unit), y), f"{bike.name}", font=big, fill=TEXT)
        y += int(38 * unit)
        draw.text((x, y), f"speed {bike.speed}   wounds {bike.wounds}   {bike.status.replace('_', ' ')}",
                  font=small, fill=TEXT)
        y += int(30 * unit)
        draw.text((x, y), "stress", font=small, fill=TEXT)
        bar_x = x + int(70 * unit)
        bar_w = box[2] - pad - bar_x
        draw.rectangle((bar_x, y + int(4 * unit), bar_x + bar_w, y + int(20 * unit)), outline=MUTED)
        share = min(1.0, bike.stress / max(1, bike.max_stress))
        colour = GOOD if share < 0.5 else ACCENT if share < 0.8 else BAD
        if share > 0:
            draw.rectangle((bar_x + 2, y + int(6 * unit), bar_x + 2 + int((bar_w - 4) * share), y + int(18 * unit)),
                           fill=colour)
        draw.text((bar_x + bar_w // 2, y + int(2 * unit)), f"{bike.stress}/{bike.max_stress}", font=tiny, fill=TEXT,
                  anchor="ma")
        y += int(30 * unit)
        if info.plan:
            draw.text((x, y), info.plan, font=tiny, fill=ACCENT)

    if info.lines:
        left = pad + int(345 * unit)
        box_w = width - pad - left
        wrapped: list[str] = []
        for line in info.lines[-4:]:
            wrapped += _wrap(line, tiny, box_w - 2 * pad, draw)
        wrapped = wrapped[-6:]
        line_h = int(22 * unit)
        box = (left, height - pad - line_h * len(wrapped) - pad, width - pad, height - pad)
        _panel(draw, box, int(8 * unit))
        for k, line in enumerate(wrapped):
            colour = BAD if ("bust" in line or "fail" in line) else TEXT
            draw.text((left + pad, box[1] + pad // 2 + k * line_h), line, font=tiny, fill=colour)

    return np.asarray(Image.alpha_composite(image, layer).convert("RGB"))


def draw_card(frame: np.ndarray, title: str, lines: tuple[str, ...] = (), colours: tuple[str, ...] = (),
              darken: float = 0.55) -> np.ndarray:
    """A title card over a darkened frame: a big title and centred lines (a gang colour chip
    before line k when ``colours[k]`` is given)."""
    height, width = frame.shape[:2]
    unit = height / 720.0
    image = Image.fromarray((frame.astype(np.float32) * (1.0 - darken)).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    big, small = font(int(64 * unit), True), font(int(28 * unit))
    y = int(height * 0.34)
    draw.text((width // 2, y), title, font=big, fill=TEXT, anchor="ma")
    y += int(96 * unit)
    for k, line in enumerate(lines):
        colour = colours[k] if k < len(colours) else ""
        draw.text((width // 2, y), line, font=small, fill=TEXT if not colour else rgb(colour), anchor="ma")
        y += int(42 * unit)
    return np.asarray(image)
