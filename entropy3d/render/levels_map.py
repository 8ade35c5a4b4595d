"""Multi-level at a glance: the table from above with every walkable surface coloured by its
height level (ground, curb, deck 1, roof 2 ...), a legend naming each level and its height, and
every ramp drawn as an arrow up its slope with where it leads, where a jump off each kicker lands
at each speed with air time (EC-JUMP-4), and the drop edges a bike rides off with their heights
(:mod:`~entropy3d.render.level_marks`).

Levels are read off the built table (:func:`entropy3d.look.levels.table_levels`, shared with the
printed table plan): the tops of the ground, curbs (blocks), decks (platforms) and roofs
(buildings); heights within :data:`~entropy3d.look.levels.SAME_LEVEL_IN` are one level. Drawn with
PIL (no renderer needed). Lengths are inches.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import shapely
from PIL import Image, ImageDraw

from entropy3d.fonts import font
from entropy3d.look.levels import GROUND_KINDS, LEVEL_KINDS, SAME_LEVEL_IN, Level, level_of, table_levels
from entropy3d.outputs import AtomicFile
from entropy3d.render.level_marks import drop_edges, landing_spans
from entropy3d.scene.footprints import footprints_of

OBSTACLE_KINDS = ("pillar", "railing", "destructible", "mesh")
OBSTACLE_RGB = (30, 30, 34)
RAMP_RGB = (255, 255, 255)
#: a jump's landing span (laid over the level, this opaque) and a drop edge's ticks and words
LANDING_RGBA, DROP_RGB = (255, 255, 255, 120), (255, 140, 0)
MARGIN_PX = 40


def ramp_leads(spec_ramps, geometry, levels: list[Level]) -> list[tuple]:
    """For each ramp of the scene: (ramp id, low end xy, high end xy, the level at its foot, the
    level it leads up to or None when its top end leads nowhere walkable: a kicker)."""
    footprints = [f for f in footprints_of(geometry) if f.kind in LEVEL_KINDS or f.kind in GROUND_KINDS]
    out = []
    for ramp in spec_ramps:
        piece = geometry.by_id(ramp.id)
        forward = np.array([math.cos(math.radians(ramp.heading)), math.sin(math.radians(ramp.heading))])
        low, high = np.asarray(ramp.start, float), np.asarray(ramp.start, float) + forward * ramp.length

        def level_at(point, height):
            import shapely

            found = [f for f in footprints if abs(f.top - height) <= SAME_LEVEL_IN
                     and shapely.contains_xy(f.outline, *point)]
            return level_of(levels, geometry.by_id(found[0].piece_id)) if found else None

        foot = level_at(low - forward * 0.3, ramp.base_height) or levels[0]
        out.append((ramp.id, low, high, foot, level_at(high + forward * 0.3, piece.top)))
    return out


#: room (inches) between a ramp and its label, and between a label and the map's edge
LABEL_GAP_IN = 0.3
#: a raised piece the ramp overlaps by more than this (square inches) is what it stands on
OWN_GROUND_SQ_IN = 0.05


def ramp_label(ramp_id: str, foot: Level, top: Level | None) -> str:
    """What a ramp's label says: where it leads, or that it is a kicker."""
    return f"{ramp_id}: {foot.name} up to {top.name}" if top is not None else f"{ramp_id}: kicker (jump)"


def place_ramp_labels(table, geometry, leads, size_in, taken=()) -> dict[str, tuple[float, float, float, float]]:
    """Where each ramp's label lies on the map: ramp id -> its box (x0, y0, x1, y1) in table inches.

    ``size_in(text) -> (width, height)`` in inches. Each label is tried beside the ramp (either
    side) and beyond either end, kept on the table, and the spot taken that covers least of the
    raised pieces (roofs, decks, other ramps, scenery) and of the labels already placed, then is
    nearest the ramp: a label laid over a roof next to its ramp read as that roof's (the market
    ramp's on Ruined Highway sat over the warehouse, its centre 9" from the ramp). ``taken``: boxes
    already written in (the pieces' names), kept clear like the labels placed."""
    ramps = {ramp.id: ramp for ramp in table.spec.ramps}
    raised = [f for f in footprints_of(geometry) if f.top > SAME_LEVEL_IN and f.kind not in GROUND_KINDS]
    placed: dict[str, tuple[float, float, float, float]] = {}
    for ramp_id, low, high, foot, top in leads:
        width, height = size_in(ramp_label(ramp_id, foot, top))
        along = np.subtract(high, low) / max(1e-9, float(np.hypot(*np.subtract(high, low))))
        side = np.array([-along[1], along[0]])
        half_width = ramps[ramp_id].width / 2

        reach_side = abs(side[0]) * width / 2 + abs(side[1]) * height / 2  # half the box along ``side``
        reach_along = abs(along[0]) * width / 2 + abs(along[1]) * height / 2
        middle = (np.asarray(low) + np.asarray(high)) / 2
        centres = [middle + sign * side * (half_width + LABEL_GAP_IN + reach_side) for sign in (1, -1)]
        centres += [np.asarray(low) - along * (LABEL_GAP_IN + reach_along),
                    np.asarray(high) + along * (LABEL_GAP_IN + reach_along)]
        ramp_outline = shapely.union_all([f.outline for f in footprints_of(geometry) if f.piece_id == ramp_id])
        # what the ramp stands on (a kicker on a deck) is its own ground, not another piece
        others = [f.outline for f in raised if f.piece_id != ramp_id
                  and f.outline.intersection(ramp_outline).area <= OWN_GROUND_SQ_IN]
        others += [shapely.box(*box) for box in [*taken, *placed.values()]]
        spots = [_label_spot(centre, width, height, table, others, ramp_outline) for centre in centres]
        placed[ramp_id] = min(spots, key=lambda spot: spot[:2])[2]
    return placed


def place_beside(centres, size: tuple[float, float], table, others, target, words=()) -> tuple:
    """The label box (x0, y0, x1, y1 table inches) of ``size`` inches, centred at one of
    ``centres`` moved onto the table, that covers least of ``others`` (outlines) and, a hundred
    times worse, of ``words`` (boxes of words already written), then lies nearest ``target``
    (the outline it names)."""
    words = [shapely.box(*box) for box in words]
    spots = []
    for centre in centres:
        covered, distance, box = _label_spot(centre, *size, table, others, target)
        covered += 100.0 * sum(shapely.box(*box).intersection(other).area for other in words)
        spots.append((round(covered, 3), distance, box))
    return min(spots, key=lambda spot: spot[:2])[2]


def _label_spot(centre, width: float, height: float, table, others, ramp_outline) -> tuple:
    """A label box of ``width`` x ``height`` inches centred at ``centre``, moved onto the table:
    (the area of ``others`` it covers, its distance from the ramp, the box (x0, y0, x1, y1))."""
    x = float(np.clip(centre[0] - width / 2, LABEL_GAP_IN, max(LABEL_GAP_IN, table.width - width - LABEL_GAP_IN)))
    y = float(np.clip(centre[1] - height / 2, LABEL_GAP_IN, max(LABEL_GAP_IN, table.depth - height - LABEL_GAP_IN)))
    box = shapely.box(x, y, x + width, y + height)
    return sum(box.intersection(other).area for other in others), box.distance(ramp_outline), \
        (x, y, x + width, y + height)


def _name_piece(draw, px, piece_id: str, outline, px_per_in: float) -> tuple | None:
    """A roof's or a deck's id written inside its outline: along a horizontal chord, the one
    through its centre first (through a point inside it, for an L), else one a little above or
    below (a deck with a jump's landing laid over its middle), in the largest of 13, 11 and 9 px
    whose box fits inside; left out when none fits (a piece a few inches across). Returns the
    name's box (x0, y0, x1, y1 table inches), or None."""
    if outline.is_empty:
        return None
    point = outline.centroid if outline.contains(outline.centroid) else outline.representative_point()
    left, bottom, right, top = outline.bounds
    rows = [point.y] + [bottom + (top - bottom) * f for f in (0.5, 0.35, 0.65, 0.2, 0.8, 0.12, 0.88)]
    for y, size in [(y, size) for y in rows for size in (13, 11, 9)]:
        face = font(size)
        width = (draw.textlength(piece_id, font=face) + 8) / px_per_in
        half_height = (size / 2 + 2) / px_per_in
        chord = outline.intersection(shapely.LineString([(left - 1.0, y), (right + 1.0, y)]))
        for line in getattr(chord, "geoms", [chord]):
            if not isinstance(line, shapely.LineString) or line.length <= 0:
                continue
            middle = (line.coords[0][0] + line.coords[-1][0]) / 2
            box = (middle - width / 2, y - half_height, middle + width / 2, y + half_height)
            if outline.contains(shapely.box(*box)):
                (x, row), = px([(middle, y)])
                draw.text((x - (width * px_per_in - 8) / 2, row - size / 2 - 1), piece_id, fill=(20, 20, 24),
                          font=face)
                return box
    return None


def _ramp_slope(draw, px, ramp, low, high, foot_rgb, top_rgb, bands: int = 10) -> None:
    """The ramp's footprint in bands shading from its foot's level colour to its top's."""
    forward = (high - low) / max(1e-9, float(np.linalg.norm(high - low)))
    side = np.array([-forward[1], forward[0]]) * ramp.width / 2
    for k in range(bands):
        a = low + (high - low) * k / bands
        b = low + (high - low) * (k + 1) / bands
        f = (k + 0.5) / bands
        colour = tuple(int(c0 + f * (c1 - c0)) for c0, c1 in zip(foot_rgb, top_rgb))
        draw.polygon(px([a + side, b + side, b - side, a - side]), fill=colour)


def landing_label(span) -> str:
    """What a landing span's label says: the speed and how far from take-off it lands."""
    reach = f"{span.near_in:g}\"" if span.far_in - span.near_in < 0.05 else f"{span.near_in:g}–{span.far_in:g}\""
    return f"speed {span.speed} lands {reach}"


def drop_label(edge) -> str:
    """What a drop edge's label says: how far the level falls there."""
    return f"↓{edge.drop_in:.1f}\""


def place_mark_labels(table, geometry, spans, drops, size_in, placed) -> tuple[list, list]:
    """Where the words of each landing span and each drop edge lie: two lists of boxes (x0, y0,
    x1, y1 table inches) in the order of ``spans`` and ``drops``, each beside what it names, on
    the table, covering as little as can be of the raised pieces (but the one a span lands on or
    an edge belongs to), the spans and the labels already ``placed`` (boxes; the new ones join)."""
    footprints = [f for f in footprints_of(geometry) if f.top > SAME_LEVEL_IN and f.kind not in GROUND_KINDS]
    span_outlines = [span.outline() for span in spans]
    flights = [shapely.LineString([span.takeoff_xy, span.point(span.near_in)]).buffer(0.2) for span in spans]
    span_boxes = []
    for span, outline in zip(spans, span_outlines):
        width, height = size_in(landing_label(span))
        heading = math.radians(span.heading_deg)
        along = np.array([math.cos(heading), math.sin(heading)])
        side = np.array([-along[1], along[0]])
        reach_side = abs(side[0]) * width / 2 + abs(side[1]) * height / 2
        reach_along = abs(along[0]) * width / 2 + abs(along[1]) * height / 2
        middle = span.point((span.near_in + span.far_in) / 2)
        # beside the span (on what it lands on, or out past that piece's edge), or beyond its far end
        centres = [middle + sign * side * (span.width_in / 2 + LABEL_GAP_IN + reach_side + out) + shift * along
                   for out in (0.0, 1.2, 2.0) for sign in (1, -1) for shift in (0.0, -reach_along, reach_along)]
        centres += [span.point(span.far_in) + along * (LABEL_GAP_IN + reach_along)]
        others = [f.outline for f in footprints if f.outline.intersection(outline).area <= OWN_GROUND_SQ_IN]
        others += [o for o in span_outlines if o is not outline] + flights
        box = place_beside(centres, (width, height), table, others, outline, placed)
        span_boxes.append(box)
        placed.append(box)
    drop_boxes = []
    for edge in drops:
        width, height = size_in(drop_label(edge))
        out = np.asarray(edge.outward)
        along = np.subtract(edge.b, edge.a) / max(1e-9, edge.line.length)
        reach_out = abs(out[0]) * width / 2 + abs(out[1]) * height / 2
        middle = (np.asarray(edge.a) + np.asarray(edge.b)) / 2
        shifts = [0.0, -0.3, 0.3]
        centres = [middle + shift * edge.line.length * along + sign * out * (LABEL_GAP_IN + reach_out)
                   for sign in (1, -1) for shift in shifts]
        others = [f.outline for f in footprints if f.piece_id != edge.piece_id] + span_outlines + flights
        box = place_beside(centres, (width, height), table, others, edge.line, placed)
        drop_boxes.append(box)
        placed.append(box)
    return span_boxes, drop_boxes


def _draw_spans(image: Image.Image, px, spans) -> None:
    """Each landing span laid over the map, see-through, and a dashed flight line from the
    kicker's top to where the nearest landing begins."""
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    shade = ImageDraw.Draw(overlay)
    for span in spans:
        shade.polygon(px(np.asarray(span.outline().exterior.coords)), fill=LANDING_RGBA, outline=(255, 255, 255, 255))
    image.paste(overlay, (0, 0), overlay)
    draw = ImageDraw.Draw(image)
    for span in spans:  # the speed written on its span, so two spans side by side are told apart
        (x, y), = px([span.point((span.near_in + span.far_in) / 2)])
        draw.text((x, y), str(span.speed), fill=(20, 20, 24), font=font(14, True), anchor="mm")
        nearest = min(s.near_in for s in spans if s.ramp_id == span.ramp_id)
        for k in np.arange(0.0, nearest - 0.2, 0.8):
            draw.line(px([span.point(k + 0.2), span.point(min(k + 0.6, nearest))]), fill=RAMP_RGB, width=2)


def _draw_drop(draw, px, edge, px_per_in: float) -> None:
    """A drop edge: a line along it with short ticks pointing off it, down the drop (a map's cliff)."""
    a, b = np.asarray(edge.a), np.asarray(edge.b)
    draw.line(px([a, b]), fill=DROP_RGB, width=3)
    out = np.asarray(edge.outward)
    for f in np.arange(0.25, edge.line.length, 0.5) / max(edge.line.length, 1e-9):
        foot = a + (b - a) * f
        draw.line(px([foot, foot + out * 6.0 / px_per_in]), fill=DROP_RGB, width=2)


def _legend_text(draw, at: tuple[int, int], width_px: float, words: str) -> int:
    """``words`` wrapped to ``width_px`` from ``at`` in the legend's 13 px; returns the next free row."""
    face = font(13)
    x, row = at
    line = ""
    for word in words.split(" "):
        if line and draw.textlength(f"{line} {word}", font=face) > width_px:
            draw.text((x, row), line, fill=(235, 235, 235), font=face)
            row, line = row + 17, word
        else:
            line = f"{line} {word}".strip()
    draw.text((x, row), line, fill=(235, 235, 235), font=face)
    return row + 20


def draw_levels(table, geometry, path: str | Path, px_per_in: float = 16.0) -> list[Level]:
    """Write the levels map of ``table`` as a PNG (atomically); returns the levels in its legend."""
    levels = table_levels(geometry)
    leads = ramp_leads(table.spec.ramps, geometry, levels)
    spans = landing_spans(table, leads)
    drops = drop_edges(table, geometry, leads, spans)
    width, depth = geometry.width, geometry.depth
    legend_w = 360
    size = (int(width * px_per_in) + 2 * MARGIN_PX + legend_w, int(depth * px_per_in) + 2 * MARGIN_PX + 30)
    image = Image.new("RGB", size, (18, 19, 23))
    draw = ImageDraw.Draw(image)

    def px(points):
        points = np.atleast_2d(np.asarray(points, float))
        return [(MARGIN_PX + x * px_per_in, MARGIN_PX + 30 + (depth - y) * px_per_in) for x, y in points[:, :2]]

    # a piece's convex parts are filled, then the outline of their union drawn (the parts' own
    # edges drew seams across an L-shaped sidewalk); pieces lowest first, so a roof covers a street
    parts: dict[str, list] = {}
    names: list[tuple[str, object]] = []  # roofs and decks, named once drawn (over every fill)
    for footprint in footprints_of(geometry):
        parts.setdefault(footprint.piece_id, []).append(footprint)
    for piece_id, pieces_parts in sorted(parts.items(), key=lambda item: max(f.top for f in item[1])):
        piece = geometry.by_id(piece_id)
        if piece.kind == "ramp":
            colour = next(lead[3].colour for lead in leads if lead[0] == piece.id)
        elif piece.kind in OBSTACLE_KINDS:
            colour = OBSTACLE_RGB
        else:
            level = level_of(levels, piece)
            colour = level.colour if level is not None else OBSTACLE_RGB
        for footprint in pieces_parts:
            draw.polygon(px(np.asarray(footprint.outline.exterior.coords)), fill=colour)
        if piece.kind in LEVEL_KINDS:
            union = shapely.union_all([footprint.outline for footprint in pieces_parts])
            for polygon in getattr(union, "geoms", [union]):
                for ring in [polygon.exterior, *polygon.interiors]:
                    draw.line(px(np.asarray(ring.coords)), fill=(0, 0, 0), width=1)
            if piece.kind != "block":
                names.append((piece.id, union))
    ramp_ids = {ramp.id for ramp in table.spec.ramps}
    ramps_drawn = shapely.union_all([f.outline for f in footprints_of(geometry) if f.piece_id in ramp_ids])
    drawn_over = shapely.union_all([ramps_drawn, *[span.outline() for span in spans]])
    named = [_name_piece(draw, px, piece_id, outline.difference(drawn_over), px_per_in)
             for piece_id, outline in names]  # on the part of a deck no ramp's slope or landing is drawn over
    named = [box for box in named if box is not None]
    for x in range(0, int(width) + 1, 6):
        draw.text(px([(x, 0)])[0], f"{x}\"", fill=(180, 180, 186), font=font(12))
    for y in range(6, int(depth) + 1, 6):
        (cx, cy), = px([(0, y)])
        draw.text((cx - 30, cy - 7), f"{y}\"", fill=(180, 180, 186), font=font(12))

    ramps = {ramp.id: ramp for ramp in table.spec.ramps}
    for ramp_id, low, high, foot, top in leads:
        _ramp_slope(draw, px, ramps[ramp_id], low, high, foot.colour, (top or foot).colour if top else RAMP_RGB)
    _draw_spans(image, px, spans)
    draw = ImageDraw.Draw(image)
    for edge in drops:
        _draw_drop(draw, px, edge, px_per_in)
    face, small = font(13), font(12)
    labels = place_ramp_labels(table, geometry, leads,
                               lambda text: (draw.textlength(text, font=face) / px_per_in, 16 / px_per_in), named)
    span_boxes, drop_boxes = place_mark_labels(
        table, geometry, spans, drops, lambda text: (draw.textlength(text, font=small) / px_per_in, 15 / px_per_in),
        [*named, *labels.values()])
    for ramp_id, low, high, foot, top in leads:
        a, b = px([low, high])
        draw.line([a, b], fill=RAMP_RGB, width=3)
        direction = np.subtract(b, a) / max(1e-9, float(np.hypot(*np.subtract(b, a))))
        side = np.array([-direction[1], direction[0]])
        tip = np.asarray(b)
        draw.polygon([tuple(tip), tuple(tip - 14 * direction + 8 * side), tuple(tip - 14 * direction - 8 * side)],
                     fill=RAMP_RGB)
        x0, _, _, y1 = labels[ramp_id]
        (x, y), = px([(x0, y1)])
        draw.text((x, y), ramp_label(ramp_id, foot, top), fill=(255, 255, 255), font=face, stroke_width=2,
                  stroke_fill=(0, 0, 0))

    for words, (x0, _, _, y1), colour in [*((landing_label(s), b, RAMP_RGB) for s, b in zip(spans, span_boxes)),
                                          *((drop_label(e), b, DROP_RGB) for e, b in zip(drops, drop_boxes))]:
        (x, y), = px([(x0, y1)])
        draw.text((x, y), words, fill=colour, font=small, stroke_width=2, stroke_fill=(0, 0, 0))

    draw.text((MARGIN_PX, 8), f"{table.name}: walkable levels from above", fill=(235, 235, 235), font=font(20, True))
    left = size[0] - legend_w + 10
    draw.text((left, MARGIN_PX + 30), "Levels (height of the top)", fill=(235, 235, 235), font=font(15, True))
    row = MARGIN_PX + 58
    for level in levels:
        draw.rectangle([left, row, left + 22, row + 18], fill=level.colour, outline=(0, 0, 0))
        draw.text((left + 30, row), f"{level.name}: {level.height_in:.2f}\"", fill=(235, 235, 235), font=font(14))
        row += 26
    draw.rectangle([left, row, left + 22, row + 18], fill=OBSTACLE_RGB, outline=(90, 90, 90))
    draw.text((left + 30, row), "not walkable: pillars, railings, walls, scenery", fill=(235, 235, 235),
              font=font(13))
    row += 26
    draw.line([(left, row + 9), (left + 22, row + 9)], fill=RAMP_RGB, width=4)
    draw.text((left + 30, row), "ramp: arrow points up the slope", fill=(235, 235, 235), font=font(14))
    row += 26
    if spans:
        draw.rectangle([left, row, left + 22, row + 18], fill=(170, 170, 172), outline=RAMP_RGB)
        row = _legend_text(draw, (left + 30, row), legend_w - 50, "jump landing off a kicker (EC-JUMP-4): the "
                           "span of this table's bikes at each speed with air time, from take-off at the top:")
        for speed in sorted({span.speed for span in spans}):
            by_bike = next(span.by_bike_type for span in spans if span.speed == speed)
            reaches = sorted(set(by_bike.values()))
            words = "; ".join(f"{reach:g}\" " + ", ".join(sorted(b for b, r in by_bike.items() if r == reach))
                              for reach in reaches)
            row = _legend_text(draw, (left + 40, row), legend_w - 60, f"speed {speed}: {words}")
        row += 8
    if drops:
        draw.line([(left, row + 4), (left + 22, row + 4)], fill=DROP_RGB, width=3)
        for x in range(left + 3, left + 22, 8):
            draw.line([(x, row + 4), (x, row + 11)], fill=DROP_RGB, width=2)
        _legend_text(draw, (left + 30, row), legend_w - 50, "drop edge: a bike rides off here, into a jump "
                     "(EC-JUMP-1); ↓ the drop in inches")
    with AtomicFile(path) as pending:
        image.save(pending.temporary, format="PNG")
    return levels
