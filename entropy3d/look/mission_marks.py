"""What a mission marks on the table for the whole game, painted as players mark a table with tape
and chalk: every picture of the table (the film, the stills, the share page, the glTF export)
paints it from :func:`~entropy3d.look.paint.paint_table`, so they agree.

- Corners (EC-MISSION-CORNERS): each zone held, a tinted rectangle edged in tape, its name in it;
- Hoon Hour (EC-MISSION-HOON): each checkpoint, a ring of its radius with its place in the order
  in it ("1", "2" ... "FINISH");
- Rescue & Survive (EC-MISSION-RESCUE): each NPC's destination, a ring of the rules' ``deliver_in``
  in its gang's colour, "DROP" in it;
- Jailbreak (EC-MISSION-JAIL): "JAIL" on the jail's roof, a ring of the rules' ``stop_within_in``
  round its door and windows, and "EXIT" across every road where it leaves the table.

Marks are plan shapes in table inches (shapely) with a colour, an opacity and a label; the
painter (:func:`paint_marks`, called by the bake) lays them on the plan images. The rings'
radii are the rules' own numbers, so a ring is what a player measures to.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw
from shapely import box
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from entropy3d.fonts import font
from entropy3d.look.shapes import colour_rgb
from entropy3d.scene.npc_set_up import road_exits
from entropy3d.scene.schema import SceneSpec
from entropy3d.scene.table import checkpoint_radius_in
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.sentences import piece_name

#: the tape a neutral mark is laid in: a blue no terrain, road marking, gang or hazard band uses
MARK_COLOUR = "#2f9bff"
#: a zone's or a ring's tint (0..1 over the paint under it) and its tape edge's
FILL_OPACITY = 0.32
EDGE_OPACITY = 0.92
#: the tape's width, inches
EDGE_IN = 0.3
#: how far an EXIT band reaches in from the table edge, inches
EXIT_DEPTH_IN = 1.6


@dataclass(frozen=True)
class Mark:
    """A mark painted on the table: ``shape`` (a shapely polygon, table inches) tinted in
    ``colour`` ("#rrggbb") at ``opacity`` (0: not tinted), on the ``layer`` image ("ground" or
    "raised", as :func:`~entropy3d.look.paint.layer_of` says); ``label`` written over its middle in
    the same colour at :data:`EDGE_OPACITY`, letters ``label_in`` high and at most
    ``label_width_in`` long, the letters' tops pointing ``facing`` (a compass word): "north" reads
    from the south; a tall, narrow zone's name runs up the table ("west"); an EXIT reads to the
    rider riding out over its edge (the south edge's tops point south)."""

    shape: BaseGeometry
    colour: str = MARK_COLOUR
    opacity: float = FILL_OPACITY
    layer: str = "ground"
    label: str = ""
    label_in: float = 0.0
    label_width_in: float = 0.0
    facing: str = "north"


def _edged(shape: BaseGeometry, colour: str) -> list[Mark]:
    """A tinted area and the tape round its edge (inside it)."""
    edge = shape.difference(shape.buffer(-EDGE_IN))
    return [Mark(shape, colour, FILL_OPACITY), Mark(edge, colour, EDGE_OPACITY)]


def _ring(x: float, y: float, radius: float, colour: str, label: str = "") -> list[Mark]:
    """A tinted disc of ``radius`` round (x, y), edged in tape, ``label`` in it."""
    disc = Point(x, y).buffer(radius, 64)
    marks = _edged(disc, colour)
    if label:
        marks.append(Mark(disc, colour, 0.0, label=label, label_in=min(2.2, 0.55 * radius),
                          label_width_in=1.5 * radius))
    return marks


def mission_marks(spec: SceneSpec, ruleset: Ruleset) -> list[Mark]:
    """The marks of ``spec``'s mission, in painting order (none for a mission that marks nothing)."""
    marks: list[Mark] = []
    if spec.corners is not None:
        for zone in spec.corners.zones:
            x0, y0, x1, y1 = zone.rect
            tall = (y1 - y0) > (x1 - x0)
            long_side, short_side = max(x1 - x0, y1 - y0), min(x1 - x0, y1 - y0)
            name = piece_name(zone.id).removeprefix("the ").upper()
            marks += _edged(box(x0, y0, x1, y1), MARK_COLOUR)
            marks.append(Mark(box(x0, y0, x1, y1), MARK_COLOUR, 0.0, label=name,
                              label_in=min(1.1, 0.3 * short_side), label_width_in=long_side - 4 * EDGE_IN,
                              facing="west" if tall else "north"))
    if spec.hoon_hour is not None:
        gates = spec.hoon_hour.checkpoints
        for k, gate in enumerate(gates):
            marks += _ring(gate.at[0], gate.at[1], checkpoint_radius_in(gate, ruleset), MARK_COLOUR,
                           "FINISH" if k == len(gates) - 1 else str(k + 1))
    if spec.rescue_survive is not None:
        reach = float(ruleset.data("missions.rescue_survive.deliver_in"))
        for npc in spec.rescue_survive.npcs:
            colour = spec.gangs[npc.gang].colour if npc.gang in spec.gangs else MARK_COLOUR
            marks += _ring(npc.to[0], npc.to[1], reach, colour, "DROP")
    if spec.jailbreak is not None:
        marks += _jail_marks(spec, float(ruleset.data("missions.jailbreak.stop_within_in")))
    return marks


def _jail_marks(spec: SceneSpec, reach: float) -> list[Mark]:
    """"JAIL" on the jail's roof, the reach round its openings and EXIT at every road exit."""
    marks: list[Mark] = []
    jail = next((b for b in spec.buildings if b.id == spec.jailbreak.jail), None)
    if jail is not None:
        footprint = box(*_bounds(jail.corners()))
        x0, y0, x1, y1 = footprint.bounds
        marks.append(Mark(footprint, MARK_COLOUR, FILL_OPACITY, layer="raised", label="JAIL",
                          label_in=min(2.0, 0.3 * min(x1 - x0, y1 - y0)), label_width_in=0.8 * (x1 - x0)))
    for x, y in spec.jailbreak.openings:
        disc = Point(x, y).buffer(reach, 64)
        marks += _edged(disc, MARK_COLOUR)
    width, depth = spec.table.width, spec.table.depth
    for edge, lo, hi in road_exits(spec):
        band = {"south": box(lo, 0.0, hi, EXIT_DEPTH_IN), "north": box(lo, depth - EXIT_DEPTH_IN, hi, depth),
                "west": box(0.0, lo, EXIT_DEPTH_IN, hi), "east": box(width - EXIT_DEPTH_IN, lo, width, hi)}[edge]
        marks += _edged(band, MARK_COLOUR)
        marks.append(Mark(band, MARK_COLOUR, 0.0, label="EXIT", label_in=0.8 * EXIT_DEPTH_IN,
                          label_width_in=0.8 * (hi - lo), facing=edge))
    return marks


def _bounds(corners) -> tuple[float, float, float, float]:
    xs, ys = [float(c[0]) for c in corners], [float(c[1]) for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


#: the letters of a label: white, as chalk over the tape's tint
LABEL_COLOUR = "#f4f6f8"
LABEL_OPACITY = 0.9


def paint_marks(canvas, marks: list[Mark], layer: str) -> None:
    """Lay the ``marks`` of ``layer`` on ``canvas`` (a plan image of
    :mod:`entropy3d.look.paint`: ``rgb``, ``height``, ``scale`` texels per inch, ``shape_mask``), in
    place: each tints the painted texels under its shape, then its label is written over them."""
    painted = ~np.isnan(canvas.height)
    for mark in marks:
        if mark.layer != layer:
            continue
        if mark.opacity > 0:
            _tint(canvas.rgb, canvas.shape_mask(mark.shape) & painted, colour_rgb(mark.colour), mark.opacity)
        if mark.label:
            _tint(canvas.rgb, _label_mask(canvas, mark) & painted, colour_rgb(LABEL_COLOUR), LABEL_OPACITY)


def _tint(rgb: np.ndarray, where: np.ndarray, colour: np.ndarray, opacity: float) -> None:
    rgb[where] = rgb[where] * (1.0 - opacity) + colour * opacity


def _label_mask(canvas, mark: Mark) -> np.ndarray:
    """A bool mask of ``mark``'s label on ``canvas``, centred on its shape: drawn by Pillow (rows
    down the letters), turned so the letters' tops point ``facing`` in the plan, whose rows run
    north and columns east. Shrunk to fit ``label_width_in``; left out when under 4 texels high."""
    per_inch = float(canvas.scale.min())
    size = int(mark.label_in * per_inch)
    face = font(max(size, 1), True)
    width = face.getlength(mark.label)
    if width > mark.label_width_in * per_inch:
        size = int(size * mark.label_width_in * per_inch / width)
        face = font(max(size, 1), True)
    mask = np.zeros((canvas.size, canvas.size), bool)
    if size < 4:
        return mask
    left, top, right, bottom = face.getbbox(mark.label)
    image = Image.new("1", (right - left + 2, bottom - top + 2), 0)
    ImageDraw.Draw(image).text((1 - left, 1 - top), mark.label, font=face, fill=1)
    letters = np.asarray(image, bool)
    plan = {"north": letters[::-1], "south": letters[:, ::-1], "west": letters.T,
            "east": letters.T[::-1, ::-1]}[mark.facing]
    centre = np.asarray(mark.shape.centroid.coords[0]) * canvas.scale  # (column, row)
    row0, col0 = int(round(centre[1] - plan.shape[0] / 2)), int(round(centre[0] - plan.shape[1] / 2))
    rows = slice(max(row0, 0), min(row0 + plan.shape[0], canvas.size))
    cols = slice(max(col0, 0), min(col0 + plan.shape[1], canvas.size))
    mask[rows, cols] = plan[rows.start - row0:rows.stop - row0, cols.start - col0:cols.stop - col0]
    return mask
