"""The heads-up display and the cards of a demo video, drawn with Pillow onto rendered frames.

Everything is 2D and sized relative to the frame height, so 640x360 and 1920x1080 look alike.
Colours are "#rrggbb" strings as in scenes (gang colours).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.fonts import font

PANEL = (12, 14, 18, 190)
TEXT = (240, 240, 236)
MUTED = (170, 174, 180)
GOOD = (120, 220, 120)
BAD = (240, 90, 80)
ACCENT = (255, 211, 26)


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))


@dataclass(frozen=True)
class BikeLine:
    """One bike on the HUD: id, rider name, gang colour, speed, stress of max, wounds, status and
    conditions (bleeding, stunned, burning, wet: EC-COND-*)."""

    model_id: str
    name: str
    colour: str
    speed: int
    stress: int
    max_stress: int
    wounds: int
    status: str
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class HudInfo:
    """What the HUD shows on one frame.

    heading: top line ("Turn 2 of 3 - activation 3/8"). active: the active bike, or None.
    plan: the action's plan text. lines: (sentence, detail) per event, newest last: the plain
    words drawn large, the dice and clauses under them, smaller (see :mod:`entropy3d.video.words`).
    score: (gang name, colour, points) per gang.
    """

    heading: str
    active: BikeLine | None
    plan: str = ""
    lines: tuple[tuple[str, str], ...] = ()
    score: tuple[tuple[str, str, int], ...] = field(default_factory=tuple)


def _panel(pixels: np.ndarray, box) -> None:
    """Darken a box of the frame in place (a translucent panel, drawn with numpy: Pillow's
    full-frame alpha compositing costs more than the 3D render at 720p)."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    alpha = PANEL[3] / 255.0
    region = pixels[max(0, y0):y1, max(0, x0):x1]
    region[...] = (region * (1.0 - alpha) + np.array(PANEL[:3]) * alpha).astype(np.uint8)


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
    pixels = np.array(frame, dtype=np.uint8, copy=True)
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
        texts.append(("text", (x, y), f"speed {bike.speed}   wounds {bike.wounds}   {bike.status.replace('_', ' ')}",
                      small, TEXT, None))
        y += int(30 * unit)
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
        texts.append(("text", (bar_x + bar_w // 2, y + int(2 * unit)), f"{bike.stress}/{bike.max_stress}", tiny, TEXT,
                      "ma"))
        y += int(30 * unit)
        if info.plan:
            texts.append(("text", (x, y), info.plan, tiny, ACCENT, None))
        if bike.conditions:
            texts.append(("text", (box[2] - pad, y), " ".join(bike.conditions).upper(), tiny, BAD, "ra"))

    if info.lines:
        left = pad + int(345 * unit)
        box_w = width - pad - left
        say, fine = font(int(21 * unit), True), font(int(15 * unit))
        rows: list[tuple[str, object, tuple, int]] = []  # text, font, colour, height
        for sentence, detail in info.lines[-3:]:
            bad = any(w in sentence for w in ("crashes", "busts", "BUST", "out of the game", "fails"))
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

    for box in boxes:
        _panel(pixels, box)
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    for kind, where, text, face, colour, anchor in texts:
        if kind == "text":
            draw.text(where, text, font=face, fill=colour, anchor=anchor)
        elif kind == "rect":
            draw.rectangle(where, fill=colour)
        else:
            draw.rectangle(where, outline=colour)
    return np.asarray(image)


def draw_card(frame: np.ndarray, title: str, lines: tuple[str, ...] = (), colours: tuple[str, ...] = (),
              darken: float = 0.55) -> np.ndarray:
    """A title card over a darkened frame: a big title and centred lines (a gang colour chip
    before line k when ``colours[k]`` is given)."""
    height, width = frame.shape[:2]
    unit = height / 720.0
    pixels = (frame.astype(np.float32) * (1.0 - darken)).astype(np.uint8)
    top, bottom = int(height * 0.30), int(height * 0.34 + (110 + 42 * len(lines)) * unit)
    _panel(pixels, (0, top, width, min(height, bottom)))
    image = Image.fromarray(pixels)
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
