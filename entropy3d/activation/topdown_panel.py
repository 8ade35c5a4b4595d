"""The top-down panel of an activation picture: the table around the ride from above, with an
inch grid and scale, pieces labelled by name, the turning template, the planned and ridden path,
the flight's moments, the rules' landing and the bike where the rules leave it. Colours come
from the shared :class:`~entropy3d.activation.key.ColourKey`. Lengths are table inches.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw
from shapely.geometry import LineString

from entropy3d.activation.key import ColourKey, font
from entropy3d.activation.overhead import Canvas, cross, dashed, draw_base, table_image
from entropy3d.activation.story import RideStory
from entropy3d.fonts import covered_by

#: inches of table shown around the ride (and its landing) on each side, at least
AROUND_IN = 5.0
#: the smallest stretch of table (inches) the panel shows, so a short ride keeps its context
MIN_SIDE_IN = 22.0
#: pixels at the panel's top kept for its title: no grid number is written there
TITLE_BAND_PX = 30
#: pixels at the panel's bottom where the grid's x numbers are written
GRID_NUMBERS_PX = 18
#: half a piece label's height, pixels
LABEL_HALF_PX = 9
LABELLED_KINDS = ("building", "platform", "ramp", "destructible", "mesh", "block")


def ride_region(story: RideStory, width_in: float, depth_in: float, aspect: float) -> tuple[float, ...]:
    """The (x0, y0, x1, y1) inches around the ride, its landing and its end, with ``aspect``
    (width / height) of the panel, kept on the table where it can be."""
    points = [story.trajectory[:, 1:3], story.path, [story.end.xy], [story.start.xy]]
    landing = story.rules_landing()
    if landing is not None:
        points.append([landing.xy])
    points = np.vstack([np.asarray(p, float).reshape(-1, 2) for p in points])
    lo, hi = points.min(axis=0) - AROUND_IN, points.max(axis=0) + AROUND_IN
    centre, size = (lo + hi) / 2, np.maximum(hi - lo, MIN_SIDE_IN)
    if size[0] / size[1] < aspect:
        size[0] = size[1] * aspect
    else:
        size[1] = size[0] / aspect
    lo = np.minimum(np.maximum(centre - size / 2, [-1.0, -1.0]), np.maximum([width_in + 1, depth_in + 1] - size,
                                                                             -1.0))
    # the table's edge never pushes a point of the ride out (a landing the rules put off the table)
    lo = np.minimum(np.maximum(lo, points.max(axis=0) + 1.0 - size), points.min(axis=0) - 1.0)
    return (float(lo[0]), float(lo[1]), float(lo[0] + size[0]), float(lo[1] + size[1]))


def _grid(draw, canvas: Canvas, width_in: float, depth_in: float) -> None:
    """1" lines, every 6th stronger and numbered along the panel's left and bottom sides."""
    x0, y0, x1, y1 = canvas.region
    for x in range(max(0, int(np.ceil(x0))), int(min(width_in, x1)) + 1):
        strong = x % 6 == 0
        draw.line(canvas.px([(x, max(0, y0)), (x, min(depth_in, y1))]),
                  fill=(110, 110, 120) if strong else (62, 62, 70), width=1)
        if strong:
            (cx, _), = canvas.px([(x, y0)])
            draw.text((cx + 2, canvas.size[1] - GRID_NUMBERS_PX + 2), f"{x}\"", fill=(200, 200, 205), font=font(12))
    for y in range(max(0, int(np.ceil(y0))), int(min(depth_in, y1)) + 1):
        strong = y % 6 == 0
        draw.line(canvas.px([(max(0, x0), y), (min(width_in, x1), y)]),
                  fill=(110, 110, 120) if strong else (62, 62, 70), width=1)
        (_, cy), = canvas.px([(x0, y)])
        if strong and cy > TITLE_BAND_PX:
            draw.text((3, cy - 14), f"{y}\"", fill=(200, 200, 205), font=font(12))


def _scale_bar_place(canvas: Canvas) -> tuple[int, float, float]:
    """(inches long, left and bottom pixels of the bar) of the panel's scale bar."""
    length = 6 if canvas.region[2] - canvas.region[0] > 12 else 2
    return length, canvas.size[0] - 20 - length * canvas.scale, canvas.size[1] - 34


def _scale_bar_box(canvas: Canvas) -> tuple[float, float, float, float]:
    length, left, bottom = _scale_bar_place(canvas)
    return (left - 6, bottom - 20, left + length * canvas.scale + 6, bottom + 8)


def _scale_bar(draw, canvas: Canvas) -> None:
    length, left, bottom = _scale_bar_place(canvas)
    draw.rectangle(list(_scale_bar_box(canvas)), fill=(20, 20, 24))
    draw.line([(left, bottom), (left + length * canvas.scale, bottom)], fill=(255, 255, 255), width=3)
    for k in range(length + 1):
        tick = left + k * canvas.scale
        draw.line([(tick, bottom - (6 if k in (0, length) else 3)), (tick, bottom)], fill=(255, 255, 255))
    draw.text((left, bottom - 20), f"{length} inches", fill=(255, 255, 255), font=font(12))


def label_places(canvas: Canvas, geometry, scenery, width_of) -> list[tuple[str, float, float]]:
    """(name, left, middle) pixels of each named piece's label: at the middle of its footprint,
    when that lies in the panel, moved inside it (clear of the title band at its top and the grid
    numbers along its bottom) where the text would run over its edge; higher pieces first, and a
    label that would cover the scale bar or one already placed is left out. ``width_of(text)``:
    its pixel width."""
    placed: dict[str, list] = {}
    for piece in sorted(geometry.pieces, key=lambda p: -p.top):
        if piece.kind not in LABELLED_KINDS:
            continue
        name = piece.id.split("/")[0]
        spot = scenery.get(piece.id)
        if spot is not None and spot.removed:
            continue
        shift = np.zeros(2) if spot is None else np.array([spot.dx, spot.dy])
        lo, hi = piece.mesh.bounds[0][:2] + shift, piece.mesh.bounds[1][:2] + shift
        placed.setdefault(name, []).append((lo, hi))
    x0, y0, x1, y1 = canvas.region
    places: list[tuple[str, float, float]] = []
    written: list[tuple[float, float, float, float]] = [_scale_bar_box(canvas)]
    for name, boxes in placed.items():
        centre = (np.min([b[0] for b in boxes], axis=0) + np.max([b[1] for b in boxes], axis=0)) / 2
        if not (x0 < centre[0] < x1 and y0 < centre[1] < y1):
            continue
        (cx, cy), = canvas.px([centre])
        width = width_of(name)
        left = min(max(cx - width / 2, 2), canvas.size[0] - width - 2)
        middle = min(max(cy, TITLE_BAND_PX + LABEL_HALF_PX), canvas.size[1] - GRID_NUMBERS_PX - LABEL_HALF_PX)
        box = (left - 2, middle - LABEL_HALF_PX, left + width + 2, middle + LABEL_HALF_PX)
        if covered_by(box, written):
            continue
        written.append(box)
        places.append((name, left, middle))
    return places


def _labels(draw, canvas: Canvas, geometry, scenery) -> None:
    face = font(13)
    for name, left, middle in label_places(canvas, geometry, scenery, lambda text: draw.textlength(text, font=face)):
        draw.text((left, middle - 7), name, fill=(255, 255, 255), font=face, stroke_width=2, stroke_fill=(0, 0, 0))


def draw_topdown(geometry, story: RideStory, key: ColourKey, size: tuple[int, int], cliff_edges=()) -> Image.Image:
    """The top-down panel, ``size`` (width, height) pixels."""
    region = ride_region(story, geometry.width, geometry.depth, size[0] / size[1])
    canvas = Canvas(geometry.width, geometry.depth, size[0] / (region[2] - region[0]), region)
    x0, y0, x1, y1 = region
    seen = {"south": y0 <= 0, "north": y1 >= geometry.depth, "west": x0 <= 0, "east": x1 >= geometry.width}
    cliff_edges = [edge for edge in cliff_edges if seen[edge]]
    cliff = key.colour("cliff") if cliff_edges else None
    image, _ = table_image(geometry, story.scenery, canvas.scale, cliff_edges, canvas,
                           Image.new("RGB", size, (24, 24, 28)), cliff)
    draw = ImageDraw.Draw(image)
    _grid(draw, canvas, geometry.width, geometry.depth)
    _labels(draw, canvas, geometry, story.scenery)

    band = LineString(story.path).buffer(story.base.width / 2, cap_style="flat") if len(story.path) > 1 else None
    if band is not None and not band.is_empty:
        for polygon in getattr(band, "geoms", [band]):
            draw.polygon(canvas.px(np.asarray(polygon.exterior.coords)), outline=key.colour("template"), width=2)
    for pose, base, _ in story.others:
        if x0 < pose.x < x1 and y0 < pose.y < y1:
            draw_base(draw, canvas, base, pose, key.colour("other"), 2)

    trajectory = story.trajectory
    points = canvas.px(trajectory[:, 1:3])
    airborne = story.airborne_rows()
    for k in range(len(points) - 1):
        colour = key.colour("flight" if airborne[k] and airborne[k + 1] else "ridden")
        draw.line([points[k], points[k + 1]], fill=colour, width=4)
    dashed(draw, canvas.px(story.path), key.colour("planned"), 2)

    for hit in story.facts.scenery:
        xy = trajectory[np.argmin(np.abs(trajectory[:, 0] - hit.t_s)), 1:3]
        (cx, cy), = canvas.px([xy])
        draw.regular_polygon((cx, cy, 9), 3, rotation=180, outline=key.colour("smashed"), width=3)
    for contact in story.facts.contacts:
        cross(draw, canvas, contact.point[:2], key.colour("contact"))
    moments = {m.name: m for m in story.moments()}
    for name in ("take-off", "peak", "touchdown"):
        if name in moments:
            (cx, cy), = canvas.px([moments[name].xyz[:2]])
            draw.ellipse([cx - 5, cy - 5, cx + 5, cy + 5], fill=key.colour(name))
    landing = story.rules_landing()
    if landing is not None:
        came_down = moments.get("touchdown", moments["end"])
        (sx, sy), (lx, ly) = canvas.px([came_down.xyz[:2], landing.xy])
        draw.line([(sx, sy), (lx, ly)], fill=key.colour("snap"), width=2)
        draw.regular_polygon((lx, ly, 9), 4, fill=key.colour("rules landing"))
    draw_base(draw, canvas, story.base, story.end, key.colour("end"), 3)
    _scale_bar(draw, canvas)
    draw.text((8, 6), "From above (grid 1 inch)", fill=(235, 235, 235), font=font(17, bold=True), stroke_width=2,
              stroke_fill=(0, 0, 0))
    return image
