"""Multi-level at a glance: the table from above with every walkable surface coloured by its
height level (ground, curb, deck 1, roof 2 ...), a legend naming each level and its height, and
every ramp drawn as an arrow up its slope with where it leads.

Levels are read off the built table (:func:`~entropy3d.scene.build.build_table_geometry`): the
tops of the ground, curbs (blocks), decks (platforms) and roofs (buildings); heights within
:data:`SAME_LEVEL_IN` are one level. Drawn with PIL (no renderer needed). Lengths are inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely
from PIL import Image, ImageDraw

from entropy3d.fonts import font
from entropy3d.outputs import AtomicFile
from entropy3d.scene.footprints import footprints_of

#: tops closer than this (inches) are one level
SAME_LEVEL_IN = 0.1
GROUND_KINDS = ("ground", "zone", "road")
LEVEL_KINDS = {"block": "curb", "platform": "deck", "building": "roof"}
OBSTACLE_KINDS = ("pillar", "railing", "destructible", "mesh")
GROUND_RGB, CURB_RGB, OBSTACLE_RGB = (70, 74, 82), (128, 132, 140), (30, 30, 34)
#: colours of the raised levels, lowest first (cycled when a table has more)
LEVEL_RGB = ((66, 133, 244), (52, 168, 83), (251, 188, 5), (234, 67, 53), (171, 71, 188), (0, 172, 193))
RAMP_RGB = (255, 255, 255)
MARGIN_PX = 40


@dataclass(frozen=True)
class Level:
    """One height level: ``name`` as a player says it ("ground", "curb", "deck 1", "roof 2"),
    ``height_in``, its ``colour`` and the ``pieces`` (ids) whose tops make it."""

    name: str
    height_in: float
    colour: tuple[int, int, int]
    pieces: tuple[str, ...]


def table_levels(geometry) -> list[Level]:
    """The table's walkable levels, lowest first: ground, curbs, then each raised height of decks
    and roofs numbered from 1 ("deck 1", "roof 2", "deck / roof 3" when both share a height)."""
    levels = [Level("ground", 0.0, GROUND_RGB, tuple(p.id for p in geometry.pieces if p.kind in GROUND_KINDS))]
    curbs = [p for p in geometry.pieces if p.kind == "block"]
    if curbs:
        levels.append(Level("curb", max(p.top for p in curbs), CURB_RGB, tuple(p.id for p in curbs)))
    raised: list[list] = []
    for piece in sorted((p for p in geometry.pieces if p.kind in ("platform", "building")), key=lambda p: p.top):
        if raised and piece.top - raised[-1][0].top <= SAME_LEVEL_IN:
            raised[-1].append(piece)
        else:
            raised.append([piece])
    for number, group in enumerate(raised, start=1):
        kinds = sorted({LEVEL_KINDS[p.kind] for p in group})
        levels.append(Level(f"{' / '.join(kinds)} {number}", group[0].top, LEVEL_RGB[(number - 1) % len(LEVEL_RGB)],
                            tuple(p.id for p in group)))
    return levels


def level_of(levels: list[Level], piece) -> Level | None:
    """The level a piece's top belongs to (None for a ramp or an obstacle)."""
    return next((level for level in levels if piece.id in level.pieces), None)


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


def place_ramp_labels(table, geometry, leads, size_in) -> dict[str, tuple[float, float, float, float]]:
    """Where each ramp's label lies on the map: ramp id -> its box (x0, y0, x1, y1) in table inches.

    ``size_in(text) -> (width, height)`` in inches. Each label is tried beside the ramp (either
    side) and beyond either end, kept on the table, and the spot taken that covers least of the
    raised pieces (roofs, decks, other ramps, scenery) and of the labels already placed, then is
    nearest the ramp: a label laid over a roof next to its ramp read as that roof's (the market
    ramp's on Ruined Highway sat over the warehouse, its centre 9" from the ramp)."""
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
        others += [shapely.box(*box) for box in placed.values()]
        spots = [_label_spot(centre, width, height, table, others, ramp_outline) for centre in centres]
        placed[ramp_id] = min(spots, key=lambda spot: spot[:2])[2]
    return placed


def _label_spot(centre, width: float, height: float, table, others, ramp_outline) -> tuple:
    """A label box of ``width`` x ``height`` inches centred at ``centre``, moved onto the table:
    (the area of ``others`` it covers, its distance from the ramp, the box (x0, y0, x1, y1))."""
    x = float(np.clip(centre[0] - width / 2, LABEL_GAP_IN, max(LABEL_GAP_IN, table.width - width - LABEL_GAP_IN)))
    y = float(np.clip(centre[1] - height / 2, LABEL_GAP_IN, max(LABEL_GAP_IN, table.depth - height - LABEL_GAP_IN)))
    box = shapely.box(x, y, x + width, y + height)
    return sum(box.intersection(other).area for other in others), box.distance(ramp_outline), \
        (x, y, x + width, y + height)


def _name_piece(draw, px, piece_id: str, outline, px_per_in: float) -> None:
    """A roof's or a deck's id written inside its outline: across the horizontal chord through
    its centre (through a point inside it, for an L), in the largest of 13, 11 and 9 px that fits
    the chord; left out when none fits (a piece a few inches across)."""
    if outline.is_empty:
        return
    point = outline.centroid if outline.contains(outline.centroid) else outline.representative_point()
    left, _, right, _ = outline.bounds
    chord = outline.intersection(shapely.LineString([(left - 1.0, point.y), (right + 1.0, point.y)]))
    pieces = [line for line in getattr(chord, "geoms", [chord]) if line.length > 0 and line.distance(point) < 1e-6]
    if not pieces:
        return
    (x0, _), (x1, _) = pieces[0].coords[0], pieces[0].coords[-1]
    for size in (13, 11, 9):
        face = font(size)
        width = draw.textlength(piece_id, font=face)
        if width + 8 <= abs(x1 - x0) * px_per_in:
            (x, y), = px([((x0 + x1) / 2, point.y)])
            draw.text((x - width / 2, y - size / 2 - 1), piece_id, fill=(20, 20, 24), font=face)
            return


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


def draw_levels(table, geometry, path: str | Path, px_per_in: float = 16.0) -> list[Level]:
    """Write the levels map of ``table`` as a PNG (atomically); returns the levels in its legend."""
    levels = table_levels(geometry)
    leads = ramp_leads(table.spec.ramps, geometry, levels)
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
    for piece_id, outline in names:  # on the part of a deck no ramp's slope is drawn over
        _name_piece(draw, px, piece_id, outline.difference(ramps_drawn), px_per_in)
    for x in range(0, int(width) + 1, 6):
        draw.text(px([(x, 0)])[0], f"{x}\"", fill=(180, 180, 186), font=font(12))
    for y in range(6, int(depth) + 1, 6):
        (cx, cy), = px([(0, y)])
        draw.text((cx - 30, cy - 7), f"{y}\"", fill=(180, 180, 186), font=font(12))

    ramps = {ramp.id: ramp for ramp in table.spec.ramps}
    for ramp_id, low, high, foot, top in leads:
        _ramp_slope(draw, px, ramps[ramp_id], low, high, foot.colour, (top or foot).colour if top else RAMP_RGB)
    face = font(13)
    labels = place_ramp_labels(table, geometry, leads,
                               lambda text: (draw.textlength(text, font=face) / px_per_in, 16 / px_per_in))
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
    with AtomicFile(path) as pending:
        image.save(pending.temporary, format="PNG")
    return levels
