"""The picture of one attack from where the models stand (``entropy3d attack --png``): the table
from above around the two riders, the attacker's reach (melee) or the sight line with the share of
the target it sees and the rays' end points (a shot), and beside it the verdict in words: allowed
or refused with its clause, TN, odds, cover.

Drawn with Pillow over :func:`entropy3d.activation.overhead.table_image`; the numbers come from
the rules (the CLI's check and odds) and the LOS engine, never from here. Lengths are inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.activation.key import font
from entropy3d.activation.overhead import Canvas, dashed, draw_base, table_image
from entropy3d.fonts import covered_by
from entropy3d.geometry import BaseShape, Pose

MAP_PX = 760
PANEL_W = 560
BACKGROUND = (18, 19, 23)
TEXT = (235, 235, 235)
MUTED = (165, 170, 178)
ALLOWED_RGB, REFUSED_RGB = (94, 224, 122), (240, 90, 80)
CLEAR_RGB, COVER_RGB, HIDDEN_RGB = (95, 217, 255), (255, 176, 32), (240, 90, 80)  # as the video's
REACH_RGB = (255, 211, 26)
OTHER_RGB = (200, 200, 210)
#: inches of table shown around the two riders, at least
AROUND_IN = 5.0
#: the most pixels an inch is drawn at (two bases side by side still fill the map)
MAX_PX_PER_IN = 60.0
#: inches of the world beyond the table's edge the map may show (a cliff edge stays in sight)
PAST_EDGE_IN = 1.0


@dataclass(frozen=True)
class AttackScene:
    """What the picture shows. attacker, target: (name, pose, base, colour "#rrggbb"). others: the
    other riders as (name, pose, base); a rider's name is its id when it has none. weapon, kind:
    chicken, melee or gun. reach_in: the melee weapon's reach or the gun's range (inches), None
    for chicken and for a gun of unlimited range (the sniper rifle). visible: the share of the
    target the attacker sees (a shot), else None; rays: (N, 2) end points of the sight rays
    on the target and whether each is seen, or None. allowed: the rules allow it; lines: the
    verdict in words (first line the headline)."""

    attacker: tuple[str, Pose, BaseShape, str]
    target: tuple[str, Pose, BaseShape, str]
    others: tuple[tuple[str, Pose, BaseShape], ...]
    weapon: str
    kind: str
    reach_in: float | None
    visible: float | None
    rays: tuple[np.ndarray, np.ndarray] | None
    allowed: bool
    lines: tuple[str, ...]


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def sight_rgb(visible: float | None, need: float = 0.25) -> tuple[int, int, int]:
    """Green at half or more visible, amber in cover, red under what a shot needs."""
    share = visible or 0.0
    return CLEAR_RGB if share >= 0.5 else COVER_RGB if share >= need - 1e-9 else HIDDEN_RGB


def map_region(scene: AttackScene, width_in: float, depth_in: float) -> tuple[float, float, float, float]:
    """A square of table (x0, y0, x1, y1 inches) holding both riders with room around them, moved
    onto the table where it would reach more than PAST_EDGE_IN past an edge (riders at the edge
    left half the map dark), or centred on the table where it is the larger."""
    points = np.array([scene.attacker[1].xy, scene.target[1].xy])
    centre = points.mean(axis=0)
    apart = float(np.hypot(*(points[1] - points[0])))
    half = 0.5 * apart + AROUND_IN + 0.5 * max(scene.attacker[2].length, scene.target[2].length)
    if scene.kind == "melee" and scene.reach_in is not None:
        half = max(half, scene.reach_in + scene.attacker[2].length + 1.0)
    low = []
    for middle, size in zip(centre, (width_in, depth_in)):
        if 2 * half >= size + 2 * PAST_EDGE_IN:
            low.append(size / 2 - half)
        else:
            low.append(min(max(middle - half, -PAST_EDGE_IN), size + PAST_EDGE_IN - 2 * half))
    return (low[0], low[1], low[0] + 2 * half, low[1] + 2 * half)


def draw_attack(geometry, scenery, scene: AttackScene, need: float = 0.25) -> Image.Image:
    """The whole picture: the map on the left, the verdict on the right."""
    x0, y0, x1, y1 = map_region(scene, geometry.width, geometry.depth)
    px_per_in = min(MAX_PX_PER_IN, MAP_PX / (x1 - x0))
    canvas = Canvas(geometry.width, geometry.depth, px_per_in, (x0, y0, x1, y1), (0, 0))
    drawn, _ = table_image(geometry, scenery, px_per_in, canvas=canvas,
                           image=Image.new("RGB", canvas.size, BACKGROUND))
    picture = drawn.crop((0, 0, MAP_PX, MAP_PX))  # the map alone: nothing spills onto the panel
    draw = ImageDraw.Draw(picture, "RGBA")
    label = font(17, bold=True)
    for _, pose, base in scene.others:
        draw_base(draw, canvas, base, pose, OTHER_RGB, width=2)
    a_id, a_pose, a_base, a_colour = scene.attacker
    t_id, t_pose, t_base, t_colour = scene.target
    if scene.kind == "melee" and scene.reach_in is not None:
        reach = BaseShape(a_base.length + 2 * scene.reach_in, a_base.width + 2 * scene.reach_in)
        ring = canvas.px(np.vstack([reach.outline(a_pose, 96), reach.outline(a_pose, 96)[:1]]))
        dashed(draw, ring, REACH_RGB, 3, dash=3)
    if scene.kind == "gun":
        colour = sight_rgb(scene.visible, need)
        if scene.reach_in is not None:
            circle = [a_pose.xy + scene.reach_in * np.array([math.cos(t), math.sin(t)])
                      for t in np.linspace(0.0, 2 * math.pi, 241)]
            dashed(draw, canvas.px(circle), REACH_RGB, 2, dash=2)
        draw.line(canvas.px([a_pose.xy, t_pose.xy]), fill=colour + (255,), width=4)
        if scene.rays is not None:
            ends, seen = scene.rays
            for end, ok in zip(np.asarray(ends)[:, :2], seen):
                (cx, cy), = canvas.px([end])
                dot = CLEAR_RGB if ok else HIDDEN_RGB
                draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=dot + (255,))
    else:
        draw.line(canvas.px([a_pose.xy, t_pose.xy]), fill=REACH_RGB + (200,), width=2)
    draw_base(draw, canvas, a_base, a_pose, _rgb(a_colour), width=4)
    draw_base(draw, canvas, t_base, t_pose, _rgb(t_colour), width=4)
    taken: list[tuple[float, float, float, float]] = []
    _tag(draw, canvas, a_pose, f"{a_id} (attacker{_up(a_pose)})", _rgb(a_colour), label, taken)
    _tag(draw, canvas, t_pose, f"{t_id} (target{_up(t_pose)})", _rgb(t_colour), label, taken)
    for name, pose, _ in scene.others:
        _tag(draw, canvas, pose, name, OTHER_RGB, font(14), taken)
    if scene.kind == "gun":
        middle = 0.5 * (a_pose.xy + t_pose.xy)
        (mx, my), = canvas.px([middle])
        words = f"{(scene.visible or 0.0):.0%} visible"
        text_w = draw.textlength(words, font=label)
        draw.rounded_rectangle((mx - text_w / 2 - 8, my - 34, mx + text_w / 2 + 8, my - 8), radius=6,
                               fill=(12, 14, 18, 210), outline=sight_rgb(scene.visible, need) + (255,), width=2)
        draw.text((mx - text_w / 2, my - 31), words, font=label, fill=sight_rgb(scene.visible, need))
    _scale_bar(draw, canvas)
    image = Image.new("RGB", (MAP_PX + PANEL_W, MAP_PX), BACKGROUND)
    image.paste(picture, (0, 0))
    _panel(ImageDraw.Draw(image), scene)
    return image


def _up(pose: Pose) -> str:
    """", 6.4" up" for a rider on a raised level (a roof, a deck), else ""."""
    return f", {pose.z:.1f}\" up" if pose.z > 0.5 else ""


def _tag(draw, canvas, pose: Pose, text: str, colour, face, taken: list) -> None:
    """Name a rider below and right of its base, unless the words would cover a name already in
    ``taken`` (pixel boxes; the attacker's and target's come first) or the rider is off the map."""
    (x, y), = canvas.px([pose.xy])
    if not (0 <= x <= MAP_PX and 0 <= y <= MAP_PX):
        return
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face, stroke_width=2)
    width = right - left
    left = max(6, x + 10 if x + 10 + width < MAP_PX - 6 else x - 10 - width)  # kept inside the map
    box = (left, y + 12 + top, left + width, y + 12 + bottom)
    if covered_by(box, taken):
        return
    taken.append(box)
    dark = 0.3 * colour[0] + 0.59 * colour[1] + 0.11 * colour[2] < 100  # a dark gang colour: a light outline
    draw.text((left, y + 12), text, font=face, fill=colour, stroke_width=2,
              stroke_fill=(235, 235, 235) if dark else (0, 0, 0))


def _scale_bar(draw, canvas: Canvas) -> None:
    inches = 1 if canvas.scale > 40 else 2 if canvas.scale > 15 else 6
    left, bottom = 16, MAP_PX - 18
    draw.line([(left, bottom), (left + inches * canvas.scale, bottom)], fill=TEXT, width=3)
    draw.text((left, bottom - 22), f"{inches}\"", font=font(15, bold=True), fill=TEXT, stroke_width=2,
              stroke_fill=(0, 0, 0))


def _panel(draw, scene: AttackScene) -> None:
    x = MAP_PX + 22
    y = 22
    head = font(22, bold=True)
    for part in _wrap(draw, scene.lines[0] if scene.lines else "", head, PANEL_W - 40):
        draw.text((x, y), part, font=head, fill=ALLOWED_RGB if scene.allowed else REFUSED_RGB)
        y += 30
    y += 12
    body = font(18)
    for line in scene.lines[1:]:
        for part in _wrap(draw, line, body, PANEL_W - 40):
            draw.text((x, y), part, font=body, fill=TEXT if not part.startswith("  ") else MUTED)
            y += 27
    y += 16
    key = [("attacker's reach", REACH_RGB)] if scene.kind == "melee" else []
    if scene.kind == "gun":
        key += [("gun's range (where it falls in the map)", REACH_RGB)] if scene.reach_in is not None else []
        key += [("sight line: half or more visible", CLEAR_RGB), ("in cover (a shot needs 25%)", COVER_RGB),
                ("too little visible to shoot", HIDDEN_RGB), ("dots: rays seen / blocked", MUTED)]
    small = font(15)
    for words, colour in key:
        draw.rectangle((x, y + 4, x + 14, y + 18), fill=colour)
        draw.text((x + 24, y), words, font=small, fill=MUTED)
        y += 24


def _wrap(draw, text: str, face, width: int) -> list[str]:
    words, lines, line = text.split(" "), [], ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if draw.textlength(candidate, font=face) > width and line:
            lines.append(line)
            line = "    " + word if text.startswith("  ") else word
        else:
            line = candidate
    return lines + [line] if line else lines
