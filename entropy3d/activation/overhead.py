"""Top-down drawing of an activation with PIL: the table from above (also the top-down panel of
:mod:`entropy3d.activation.picture`) and an animated GIF of the ride, the physical trajectory
shaded by height, ending on the snapped result.

Files are written to a temporary file first and moved into place, so a failure never leaves a
half-written picture.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw
from scipy.spatial import ConvexHull

from entropy3d.fonts import font
from entropy3d.game.step import Step
from entropy3d.geometry import BaseShape, Pose
from entropy3d.outputs import AtomicFile

MARGIN_IN = 1.5
PATH_COLOUR = (255, 255, 255)
LOW_COLOUR, HIGH_COLOUR = np.array([80, 200, 255]), np.array([255, 90, 40])
END_COLOUR = (255, 230, 0)
OTHER_COLOUR = (200, 200, 210)
CRASH_COLOUR = (255, 0, 60)


class Canvas:
    """Table inches to pixels (y up on the table, down in the image): the region ``x0``..``x1``,
    ``y0``..``y1`` inches, drawn from pixel ``origin`` (left, top) at ``px_per_in``."""

    def __init__(self, width_in: float, depth_in: float, px_per_in: float,
                 region: tuple[float, float, float, float] | None = None, origin: tuple[int, int] = (0, 0)):
        self.width_in, self.depth_in, self.scale = width_in, depth_in, px_per_in
        self.region = region or (-MARGIN_IN, -MARGIN_IN, width_in + MARGIN_IN, depth_in + MARGIN_IN)
        self.origin = origin
        x0, y0, x1, y1 = self.region
        self.size = (int((x1 - x0) * px_per_in), int((y1 - y0) * px_per_in))

    def px(self, points) -> list[tuple[float, float]]:
        points = np.atleast_2d(np.asarray(points, float))
        x0, _, _, y1 = self.region
        x = self.origin[0] + (points[:, 0] - x0) * self.scale
        y = self.origin[1] + (y1 - points[:, 1]) * self.scale
        return list(zip(x.tolist(), y.tolist()))


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _shade(rgb, top: float, max_top: float) -> tuple[int, int, int]:
    """Higher pieces drawn lighter, so levels read at a glance."""
    f = min(1.0, top / max_top) if max_top > 0 else 0.0
    return tuple(int(min(255, c * (0.85 + 0.3 * f) + 30 * f)) for c in rgb)


def table_image(geometry, scenery_moves, px_per_in: float, cliff_edges=(), canvas: Canvas | None = None,
                image: Image.Image | None = None, cliff_colour=CRASH_COLOUR) -> tuple[Image.Image, Canvas]:
    """The table from above: every piece's footprint, lowest first (higher is lighter); moved
    destructibles where they stand now (``scenery_moves``: piece id -> ScenerySpot); cliff
    edges in ``cliff_colour``. Draws into ``image`` through ``canvas`` when given."""
    canvas = canvas or Canvas(geometry.width, geometry.depth, px_per_in)
    image = image or Image.new("RGB", canvas.size, (24, 24, 28))
    draw = ImageDraw.Draw(image)
    draw.rectangle([*canvas.origin, canvas.origin[0] + canvas.size[0], canvas.origin[1] + canvas.size[1]],
                   fill=(24, 24, 28))
    pieces = sorted(geometry.pieces, key=lambda p: p.top)
    max_top = max((p.top for p in pieces), default=1.0)
    for piece in pieces:
        spot = scenery_moves.get(piece.id)
        if spot is not None and spot.removed:
            continue
        for part in piece.parts:
            xy = np.asarray(part.vertices)[:, :2]
            if spot is not None:
                xy = xy + np.array([spot.dx, spot.dy])
            try:
                hull = xy[ConvexHull(xy).vertices]
            except Exception:  # a degenerate (flat) part has no area to draw
                continue
            outline = (0, 0, 0) if piece.kind in ("building", "platform", "pillar", "railing") else None
            draw.polygon(canvas.px(hull), fill=_shade(_hex(piece.colour), piece.top, max_top), outline=outline)
    corners = {"south": [(0, 0), (geometry.width, 0)], "north": [(0, geometry.depth), (geometry.width, geometry.depth)],
               "west": [(0, 0), (0, geometry.depth)], "east": [(geometry.width, 0), (geometry.width, geometry.depth)]}
    for edge in cliff_edges:
        draw.line(canvas.px(corners[edge]), fill=cliff_colour, width=4)
    return image, canvas


def _heights_colour(z: float, lo: float, hi: float) -> tuple[int, int, int]:
    f = 0.0 if hi - lo < 1e-6 else (z - lo) / (hi - lo)
    return tuple(int(v) for v in LOW_COLOUR + f * (HIGH_COLOUR - LOW_COLOUR))


def draw_base(draw, canvas, base: BaseShape, pose: Pose, colour, width: int = 3) -> None:
    outline = canvas.px(base.outline(pose))
    draw.polygon(outline, outline=colour, width=width)
    nose = canvas.px([pose.xy, pose.xy + pose.forward * base.length / 2])
    draw.line(nose, fill=colour, width=width)


def dashed(draw, points, colour, width: int, dash: int = 4) -> None:
    for k in range(0, len(points) - 1, 2 * dash):
        draw.line(points[k:k + dash + 1], fill=colour, width=width)


def cross(draw, canvas, xy, colour, r: int = 6) -> None:
    (cx, cy), = canvas.px([xy])
    draw.line([(cx - r, cy - r), (cx + r, cy + r)], fill=colour, width=3)
    draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=colour, width=3)


def _overlay(image, canvas, steps: Sequence[Step], ruleset, upto_t: float | None) -> None:
    draw = ImageDraw.Draw(image)
    if not steps:
        return
    model_id = steps[0].action.model_id
    for other in steps[0].before.models.values():
        if other.id != model_id and other.in_play:
            draw_base(draw, canvas, ruleset.base_for(other.bike_type), other.pose, OTHER_COLOUR, 2)
    base = ruleset.base_for(steps[0].before.model(model_id).bike_type)
    final = steps[-1].after.model(model_id).pose
    steps = [s for s in steps if s.action.move is not None]
    offset = 0.0
    for step in steps:
        trajectory = step.trajectory
        if len(trajectory) == 0:
            continue
        lo, hi = float(trajectory[:, 3].min()), float(trajectory[:, 3].max())
        rows = trajectory if upto_t is None else trajectory[trajectory[:, 0] + offset <= upto_t]
        points = canvas.px(rows[:, 1:3]) if len(rows) else []
        for (a, b), z in zip(zip(points[:-1], points[1:]), rows[1:, 3]):
            draw.line([a, b], fill=_heights_colour(float(z), lo, hi), width=4)
        for contact in step.facts.contacts:
            if upto_t is None or contact.t_s + offset <= upto_t:
                (cx, cy), = canvas.px([contact.point[:2]])
                r = 5
                draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=CRASH_COLOUR, width=3)
        if upto_t is not None and len(rows):
            row = rows[-1]
            draw_base(draw, canvas, base, Pose(float(row[1]), float(row[2]), float(row[4])), (255, 255, 255), 2)
        offset += float(trajectory[-1, 0])
    for step in steps:
        dashed(draw, canvas.px(step.action.move.path), PATH_COLOUR, 2)
        if upto_t is None:
            for event in step.events:
                if "landing_xy" in event.figures:
                    cross(draw, canvas, event.figures["landing_xy"], END_COLOUR)
    if upto_t is None:
        draw_base(draw, canvas, base, final, END_COLOUR)


#: pixels of the GIF's title band: who rides, and which action is on the table
GIF_TITLE_PX = 44


def draw_gif(path, geometry, results: Sequence[Step], ruleset, px_per_in: float = 10.0,
             fps: int = 15, cliff_edges=(), rider: str = "") -> None:
    """Animated top-down GIF of the ride at depicted speed, ending on the snapped result, under a
    title band naming ``rider`` and the action being ridden (a GIF passed around alone says who
    and what)."""
    moves = results[0].before.scenery if results else {}
    background, canvas = table_image(geometry, moves, px_per_in, cliff_edges)
    ends = np.cumsum([float(r.trajectory[-1, 0]) if len(r.trajectory) else 0.0 for r in results])
    moves = [k for k, r in enumerate(results) if r.action.plan is not None]  # the player's actions
    frames = []
    for t in np.arange(0.0, float(ends[-1]) + 1e-9 if len(ends) else 0.0, 1.0 / fps):
        frame = background.copy()
        _overlay(frame, canvas, results, ruleset, float(t))
        riding = int(np.searchsorted(ends, t, side="right"))
        number = max(1, sum(1 for k in moves if k <= riding))
        plan = results[moves[number - 1]].action.plan if moves else ""
        frames.append(_titled(frame, rider, f"action {number} of {len(moves)}: {plan}"))
    final, _ = table_image(geometry, results[-1].after.scenery if results else {}, px_per_in, cliff_edges)
    _overlay(final, canvas, results, ruleset, None)
    frames.append(_titled(final, rider, "the end: where the rules leave the bike (yellow)"))
    durations = [int(1000 / fps)] * (len(frames) - 1) + [2000]
    with AtomicFile(path) as pending:
        frames[0].save(pending.temporary, format="GIF", save_all=True, append_images=frames[1:], duration=durations,
                       loop=0)


def _titled(frame: Image.Image, rider: str, line: str) -> Image.Image:
    """``frame`` under a band of GIF_TITLE_PX pixels: ``rider`` in bold, then ``line``."""
    titled = Image.new("RGB", (frame.width, frame.height + GIF_TITLE_PX), (18, 19, 23))
    titled.paste(frame, (0, GIF_TITLE_PX))
    draw = ImageDraw.Draw(titled)
    draw.text((8, 4), rider, fill=(235, 235, 235), font=font(15, bold=True))
    draw.text((8, 23), line, fill=(200, 200, 210), font=font(13))
    return titled
