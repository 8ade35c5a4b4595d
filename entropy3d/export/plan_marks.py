"""The table seen from above as drawing marks in table inches: what the printed table plan
(:mod:`entropy3d.export.sheet`) draws, page by page, to lay a real table out from.

A plan is printed on an office printer, so it is drawn in lines, not solid fills: every piece is
its outline from above (the union of its convex parts' footprints,
:func:`entropy3d.scene.footprints.piece_footprints`); decks and roofs are hatched in the colour of
their level (:func:`entropy3d.look.levels.table_levels`, the levels map's colours and names), the
lines the closer the higher the level and at an angle of their own per level; ramps carry a rung
across per 1/4" of rise and an arrow up the slope; roads are outlines with their centre lines;
terrain zones a dashed outline and dotted rows. Each piece has a label: its id, what it is, its
own height and, where a bike rides on it, its level (the height of its top above the table, and
the level's name, "roof 3"; other pieces give their top); destructibles their risk (EC-DEST-1),
miniatures their base at the starting pose with a facing nose. Cliff edges (EC-COL-EDGE) are a hazard band; in Lovers
Point Brawl the cliff is also the gangs' deployment edge (rulebook "Mission Types"). Scenes name
no other deployment zone: every gang's starting bases are drawn where the scene puts them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon

from entropy3d.export import hex_rgb
from entropy3d.look.levels import Level, level_of, table_levels
from entropy3d.scene.build import RIDDEN_KINDS, TableGeometry
from entropy3d.scene.footprints import piece_footprints
from entropy3d.scene.table import Table
from entropy3d.systems.entropy_city.missions import LOVERS_POINT

#: how far the fills of small pieces (cars, benches, barrels) are mixed towards white: a printed plan is paper
PAPER_MIX = 0.85
INK = "#202020"
PAPER = "#ffffff"
#: starting bases are filled in their gang's colour this much mixed towards white
BASE_MIX = 0.7
#: road edges, and the dashed centre lines (ochre: they run along grid lines too)
ROAD_INK, ROAD_CENTRE_INK = "#6a6a6a", "#b08400"
#: a ramp's rungs: one across it per this rise, inches
RAMP_RUNG_RISE_IN = 0.25
RAMP_INK = "#9a5b00"
#: hatch line spacing of a level (inches): 0.45" less 0.035" per inch of height, kept between the
#: widest and the closest: a taller piece reads darker (a 2" roof 0.38", a 10.6" tower 0.1"),
#: while a page stays mostly paper
HATCH_AT_TABLE_IN, HATCH_CLOSER_PER_IN, HATCH_WIDEST_IN, HATCH_CLOSEST_IN = 0.45, 0.035, 0.4, 0.1
#: the hatch lines' angle of the raised levels, lowest first (cycled), degrees from east
HATCH_ANGLES = (45.0, 135.0, 60.0, 120.0, 30.0, 150.0)
#: level colours are darkened by this much (0..1) for thin lines on white paper
HATCH_DARKEN = 0.25
CLIFF_RED = "#c0392b"
CLIFF_BAND_IN = 0.5
#: inches between the short "CLIFF EDGE" notes along a cliff, so that every page along it has one
CLIFF_NOTE_EVERY_IN = 6.0
#: kinds drawn without a label of their own (their parent piece is labelled)
UNLABELLED = ("ground", "road", "pillar", "railing")
#: drawing order: later kinds on top
ORDER = ("ground", "zone", "road", "block", "platform", "pillar", "railing", "building", "mesh", "ramp",
         "destructible")


@dataclass(frozen=True)
class Mark:
    """One thing to draw, table inches.

    kind: ``area`` (closed outline ``points``, with ``holes``; filled, then hatched, then outlined), ``line``
    (open polyline), ``arrow`` (a line with a head at its end) or ``text`` (``lines`` centred at
    ``points[0]``). fill / stroke: "#rrggbb" or None. width_pt: line width in points. dash: dash
    pattern in points, () solid. size_pt: font size. region: for a label, the outline of what it
    names (a page showing enough of it repeats the label). content: False for what alone does
    not make a page worth printing (the table's bare ground).
    """

    kind: str
    points: np.ndarray
    fill: str | None = None
    stroke: str | None = INK
    width_pt: float = 0.6
    dash: tuple[float, ...] = ()
    lines: tuple[str, ...] = ()
    size_pt: float = 7.0
    holes: tuple[np.ndarray, ...] = ()
    hatch: Hatch | None = None
    region: Polygon | MultiPolygon | None = None
    content: bool = True

    def shape(self):
        """The mark as shapely geometry in table inches (an area's polygon, a line, a label's point)."""
        if self.kind == "area":
            return Polygon(self.points, self.holes)
        if self.kind in ("line", "arrow"):
            return shapely.LineString(self.points)
        return shapely.Point(self.points[0])


@dataclass(frozen=True)
class Hatch:
    """Parallel lines over an area: ``spacing_in`` inches apart, running at ``angle_deg``
    (anticlockwise from east), one of them through ``origin`` (table inches: hatches of pieces side
    by side line up, and so do the two halves of a piece on two pages); ``colour`` "#rrggbb",
    ``width_pt`` and ``dash`` in points."""

    spacing_in: float
    angle_deg: float
    colour: str
    width_pt: float = 0.5
    dash: tuple[float, ...] = ()
    origin: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class LegendEntry:
    """One line of the overview's legend: a swatch drawn as the plan draws it (``stroke``,
    ``fill``, ``dash``, ``hatch``; ``arrow``: an arrow across it) and its ``words``;
    ``section``: "levels" or "table"."""

    words: str
    stroke: str | None = INK
    fill: str | None = None
    dash: tuple[float, ...] = ()
    hatch: Hatch | None = None
    arrow: bool = False
    section: str = "table"


@dataclass(frozen=True)
class TablePlan:
    """A table's marks (in drawing order) and its size, inches; ``legend``: the overview's
    legend, the levels first."""

    name: str
    width: float
    depth: float
    marks: tuple[Mark, ...]
    legend: tuple[LegendEntry, ...] = ()


def hatch_segments(shape, hatch: Hatch, spacing_in: float | None = None) -> list[np.ndarray]:
    """The hatch lines of ``shape`` (a shapely polygon, holes left bare), each a (2, 2) array of
    its ends in table inches; ``spacing_in`` overrides the hatch's (the shrunk overview page
    draws them wider apart so that they stay lines)."""
    spacing = spacing_in or hatch.spacing_in
    if shape.is_empty or spacing <= 0:
        return []
    angle = math.radians(hatch.angle_deg)
    along, across = np.array([math.cos(angle), math.sin(angle)]), np.array([-math.sin(angle), math.cos(angle)])
    corners = np.asarray(shapely.envelope(shape).exterior.coords)
    offsets = (corners - np.asarray(hatch.origin)) @ across
    reach = float(np.ptp(corners @ along)) + 1.0
    middle = corners.mean(axis=0)
    lines = []
    for k in range(math.floor(offsets.min() / spacing), math.ceil(offsets.max() / spacing) + 1):
        through = np.asarray(hatch.origin) + across * k * spacing
        through = through + along * float((middle - through) @ along)
        lines.append([through - along * reach, through + along * reach])
    if not lines:
        return []
    cut = shapely.intersection(shapely.MultiLineString(lines), shape)
    parts = getattr(cut, "geoms", [cut])
    return [np.asarray(part.coords)[[0, -1]] for part in parts
            if isinstance(part, shapely.LineString) and not part.is_empty and part.length > 1e-6]


def level_hatch(level: Level, raised_number: int) -> Hatch:
    """The hatch of a deck or roof level: its colour (the levels map's, darkened for thin lines),
    closer the higher the level, at the angle of its number (1 = the lowest raised level)."""
    spacing = float(np.clip(HATCH_AT_TABLE_IN - HATCH_CLOSER_PER_IN * level.height_in, HATCH_CLOSEST_IN,
                            HATCH_WIDEST_IN))
    colour = "#" + "".join(f"{int(round(c * (1 - HATCH_DARKEN))):02x}" for c in level.colour)
    return Hatch(spacing, HATCH_ANGLES[(raised_number - 1) % len(HATCH_ANGLES)], colour, 0.5)


def _raised_hatches(levels: list[Level]) -> dict[str, Hatch]:
    """Level name -> hatch, for the raised levels (decks and roofs), lowest first."""
    raised = [level for level in levels if level.name not in ("ground", "curb")]
    return {level.name: level_hatch(level, number) for number, level in enumerate(raised, start=1)}


#: the rows of marks a terrain zone is stippled with (dash patterns, points), one per terrain of
#: the rules in their order (cycled), so that grass, dirt and gravel side by side differ on paper;
#: none is a long dash, the road centre line's
TERRAIN_ROWS = ((0.9, 5.0), (3.0, 4.0), (0.9, 2.5, 3.0, 2.5), (0.9, 2.0), (0.9, 1.5, 0.9, 5.0), (0.9, 3.5, 0.9, 6.0))


def terrain_style(table: Table, name: str) -> tuple[str, Hatch]:
    """A terrain zone's outline colour (its colour darkened) and its stippled rows."""
    colour = dark_colour(table.ruleset.terrain[name].colour)
    rows = TERRAIN_ROWS[list(table.ruleset.terrain).index(name) % len(TERRAIN_ROWS)]
    return colour, Hatch(0.3, 0.0, colour, 0.7, dash=rows)


def _legend(table: Table, geometry: TableGeometry, levels: list[Level]) -> tuple[LegendEntry, ...]:
    """The levels (ground, curb, each deck or roof level with its hatch), then the gangs' starting
    bases, the cliff, each terrain zone with its rule flags, ramps and destructibles."""
    hatches = _raised_hatches(levels)
    entries = []
    for level in levels:
        if level.name == "ground":
            entries.append(LegendEntry("ground 0\": the paper", stroke=INK, section="levels"))
        elif level.name == "curb":
            entries.append(LegendEntry(f"curb {_inches(level.height_in)}: outline only", stroke=INK, section="levels"))
        else:
            entries.append(LegendEntry(f"{level.name}: level {_inches(level.height_in)}", stroke=INK,
                                       hatch=hatches[level.name], section="levels"))
    if any(p.kind == "ramp" for p in geometry.pieces):
        entries.append(LegendEntry("ramp: rung per 1/4\" rise, arrow up", stroke=INK,
                                   hatch=Hatch(0.3, 90.0, RAMP_INK, 0.9), arrow=True, section="levels"))
    if any(p.kind == "road" for p in geometry.pieces):
        entries.append(LegendEntry("road: its edges and dashed centre line", stroke=ROAD_INK,
                                   hatch=Hatch(1.0, 0.0, ROAD_CENTRE_INK, 1.0, (4, 3))))
    for gang_id, gang in table.spec.gangs.items():
        count = sum(1 for m in table.models if m.gang == gang_id)
        entries.append(LegendEntry(f"{gang.name}: {count} starting base{'s' * (count != 1)}", stroke=gang.colour,
                                   fill=paper_colour(gang.colour, BASE_MIX)))
    if "cliff" in table.spec.table.edges.values():
        entries.append(LegendEntry("cliff edge: a ride over it busts (EC-COL-EDGE)", stroke=CLIFF_RED,
                                   hatch=_cliff_hatch()))
    for name in sorted({p.terrain for p in geometry.pieces if p.kind == "zone" and p.terrain}):
        colour, hatch = terrain_style(table, name)
        entries.append(LegendEntry(terrain_words(table, name), stroke=colour, dash=(4, 2), hatch=hatch))
    if any(p.risk is not None for p in geometry.pieces):
        entries.append(LegendEntry("destructibles: risk 1-3 (EC-DEST-1)", stroke=dark_colour("#8a8070"),
                                   fill=paper_colour("#8a8070")))
    return tuple(entries)


def paper_colour(colour: str, mix: float = PAPER_MIX) -> str:
    """``colour`` mixed towards white by ``mix`` (0..1), for fills that print light."""
    rgb = np.array(hex_rgb(colour))
    rgb = rgb + (1.0 - rgb) * mix
    return "#" + "".join(f"{int(round(255 * v)):02x}" for v in rgb)


def dark_colour(colour: str, mix: float = 0.35) -> str:
    """``colour`` mixed towards black by ``mix`` (0..1): outlines that read on white paper."""
    rgb = np.array(hex_rgb(colour)) * (1.0 - mix)
    return "#" + "".join(f"{int(round(255 * v)):02x}" for v in rgb)


def _polygons(shape) -> list[Polygon]:
    parts = [shape] if isinstance(shape, Polygon) else list(getattr(shape, "geoms", []))
    return [p for p in parts if isinstance(p, Polygon) and not p.is_empty]


def _piece_shape(piece):
    """A piece's outline from above, the union of its convex parts (shapely, inches)."""
    return shapely.unary_union([f.outline for f in piece_footprints(piece)])


def _label_point(piece, shape) -> np.ndarray:
    point = shape.representative_point() if not shape.is_empty else shapely.Point(piece.mesh.centroid[:2])
    return np.array([point.x, point.y])


def _cliff_hatch() -> Hatch:
    return Hatch(0.15, 45.0, CLIFF_RED, 0.7)


def _inches(value: float) -> str:
    return f'{value:.2f}'.rstrip("0").rstrip(".") + '"'


def terrain_words(table: Table, name: str) -> str:
    """A terrain's name with its rules flags, e.g. "gravel (difficult)" (EC-TER-*)."""
    terrain = table.ruleset.terrain[name]
    flags = [word for word, on in (("difficult", terrain.difficult), ("dangerous", terrain.dangerous)) if on]
    return name + (f" ({', '.join(flags)})" if flags else "")


def piece_lines(piece, table: Table, level: Level | None = None) -> tuple[str, ...]:
    """The label of a piece: id, what it is, height and level (its top above the table) when a
    bike rides on it, else its top (a lamp's or a crate's top is no level); a deck or a roof
    names its ``level`` as the legend and the levels map do ("roof 3")."""
    spec = table.spec
    bottom, top = float(piece.mesh.bounds[0][2]), piece.top
    height_level = f"{_inches(top - bottom)} high, {'level' if piece.kind in RIDDEN_KINDS else 'top'} {_inches(top)}"
    if level is not None and level.name not in ("ground", "curb"):
        height_level += f" ({level.name})"
    what = piece.kind
    if piece.kind == "building":
        building = next(b for b in spec.buildings if b.id == piece.id)
        what = f"building, {building.storeys} storey{'s' if building.storeys > 1 else ''}" + \
            (", ruined" if building.ruined else "")
    elif piece.kind == "platform":
        platform = next(p for p in spec.platforms if p.id == piece.id)
        what = f"{platform.kind} deck" + (", railings" if platform.railings else "")
    elif piece.kind == "block":
        what = f"sidewalk block, curb {_inches(top - bottom)}"
    elif piece.kind == "ramp":
        ramp = next(r for r in spec.ramps if r.id == piece.id)
        what = f"ramp, rises {_inches(ramp.rise_in)} towards the arrow"
    elif piece.kind == "destructible":
        item = next(d for d in spec.destructibles if d.id == piece.id)
        what = f"{item.kind}, destructible risk {piece.risk}"
    elif piece.kind == "zone":
        return (piece.id, terrain_words(table, piece.terrain))
    elif piece.kind == "mesh" and piece.risk is not None:
        what = f"mesh, destructible risk {piece.risk}"
    return (piece.id, what, height_level)


def _ramp_arrow(table: Table, ramp_id: str) -> np.ndarray:
    ramp = next(r for r in table.spec.ramps if r.id == ramp_id)
    forward = np.array([math.cos(math.radians(ramp.heading)), math.sin(math.radians(ramp.heading))])
    start = np.asarray(ramp.start, float)
    return np.array([start + forward * 0.15 * ramp.length, start + forward * 0.85 * ramp.length])


def _ramp_rungs(table: Table, ramp_id: str) -> Hatch:
    """Lines across a ramp, one per :data:`RAMP_RUNG_RISE_IN` of rise from its foot: the closer
    the rungs, the steeper the ramp."""
    ramp = next(r for r in table.spec.ramps if r.id == ramp_id)
    steps = max(2, round(ramp.rise_in / RAMP_RUNG_RISE_IN))
    return Hatch(ramp.length / steps, ramp.heading + 90.0, RAMP_INK, 0.9, origin=tuple(ramp.start))


def _edge_marks(table: Table) -> list[Mark]:
    """Cliff edges as a hazard band with their rule; in Lovers Point Brawl also the deployment edge."""
    width, depth = table.width, table.depth
    band = CLIFF_BAND_IN
    bands = {"south": [(0, 0), (width, 0), (width, band), (0, band)],
             "north": [(0, depth - band), (width, depth - band), (width, depth), (0, depth)],
             "west": [(0, 0), (band, 0), (band, depth), (0, depth)],
             "east": [(width - band, 0), (width, 0), (width, depth), (width - band, depth)]}
    label_at = {"south": (width / 2, band + 0.45), "north": (width / 2, depth - band - 0.45),
                "west": (band + 0.3, depth / 2), "east": (width - band - 0.3, depth / 2)}
    marks = []
    for edge, kind in sorted(table.spec.table.edges.items()):
        if kind != "cliff":
            continue
        marks.append(Mark("area", np.array(bands[edge], float), stroke=CLIFF_RED, width_pt=1.0,
                          hatch=_cliff_hatch()))
        lines = [f"CLIFF EDGE ({edge}): a ride over it busts (EC-COL-EDGE)"]
        if table.spec.mission == LOVERS_POINT:
            lines.append("deployment edge: every gang deploys from the cliff (Lovers Point Brawl)")
        marks.append(Mark("text", np.array([label_at[edge]], float), stroke=CLIFF_RED, lines=tuple(lines),
                          size_pt=9.0))
        along = width if edge in ("south", "north") else depth
        for k in range(int(along // CLIFF_NOTE_EVERY_IN)):  # a short note on every page the edge crosses
            at = (k + 0.5) * CLIFF_NOTE_EVERY_IN
            if abs(at - along / 2) > CLIFF_NOTE_EVERY_IN / 2:
                x, y = (at, label_at[edge][1]) if edge in ("south", "north") else (label_at[edge][0], at)
                marks.append(Mark("text", np.array([[x, y]]), stroke=CLIFF_RED, lines=("CLIFF EDGE",), size_pt=7.0))
    return marks


def _model_marks(table: Table, geometry: TableGeometry) -> list[Mark]:
    """Every miniature's base at its starting pose, in its gang's colour, with a facing nose,
    labelled with its rider's name (who stands there, as the players call them), then its id."""
    marks = []
    state = table.initial_state(geometry.surface_height)
    for model in state.models.values():
        base = table.ruleset.base_for(model.bike_type)
        colour = table.gang_colour(model.gang)
        outline = base.outline(model.pose)
        marks.append(Mark("area", outline, fill=paper_colour(colour, BASE_MIX), stroke=colour, width_pt=1.2))
        nose = model.pose.to_table(np.array([[0.0, 0.0], [0.5 * base.length, 0.0]]))
        marks.append(Mark("arrow", nose, stroke=INK, width_pt=0.8))
        gang = table.spec.gangs[model.gang].name
        below = model.pose.to_table(np.array([[0.0, 0.0]]))[0] - np.array([0.0, 0.5 * base.width + 0.25])
        rider = table.model(model.id).rider.name or model.id
        marks.append(Mark("text", np.array([below]), lines=(rider, f"{model.id}: {gang}, {model.bike_type}"),
                          size_pt=6.0, region=Polygon(outline)))
    return marks


def _piece_marks(piece, shape, table: Table, levels: list[Level], hatches: dict[str, Hatch]) -> list[Mark]:
    """A piece's outline marks: hatched decks and roofs, rungs on ramps, dotted terrain zones,
    outlined curbs, lightly filled small pieces (cars, benches, barrels, trees)."""
    level = level_of(levels, piece)
    # paper white under a raised piece hides the lines of what it stands on (a kicker on a deck)
    style: dict = {"stroke": INK, "width_pt": 0.7, "fill": PAPER}
    if piece.kind in ("building", "platform"):
        style = {"stroke": INK, "width_pt": 1.4 if piece.kind == "building" else 1.2, "fill": PAPER,
                 "hatch": hatches[level.name]}
    elif piece.kind == "ramp":
        style = {"stroke": INK, "width_pt": 1.0, "fill": PAPER, "hatch": _ramp_rungs(table, piece.id)}
    elif piece.kind == "zone":
        colour, hatch = terrain_style(table, piece.terrain)
        style = {"stroke": colour, "width_pt": 0.9, "dash": (4, 2), "hatch": hatch}
    elif piece.kind == "ground":
        style = {"stroke": INK, "width_pt": 0.8, "content": False}
    elif piece.kind in ("mesh", "destructible", "pillar", "railing"):
        style = {"stroke": dark_colour(piece.colour), "width_pt": 0.8, "fill": paper_colour(piece.colour)}
    return [Mark("area", np.asarray(p.exterior.coords)[:-1],
                 holes=tuple(np.asarray(h.coords)[:-1] for h in p.interiors), **style) for p in _polygons(shape)]


def _road_marks(table: Table, geometry: TableGeometry) -> list[Mark]:
    """The roads as one outline (crossings open into each other) and their dashed centre lines."""
    shape = shapely.unary_union([_piece_shape(p) for p in geometry.pieces if p.kind == "road"])
    marks = []
    for polygon in _polygons(shape):
        for ring in (polygon.exterior, *polygon.interiors):
            marks.append(Mark("line", np.asarray(ring.coords), stroke=ROAD_INK, width_pt=0.8))
    for road in table.spec.roads:
        if road.markings:
            marks.append(Mark("line", np.asarray(road.points, float), stroke=ROAD_CENTRE_INK, width_pt=1.0,
                              dash=(8, 5)))
    return marks


def table_plan(table: Table, geometry: TableGeometry) -> TablePlan:
    """The marks of ``table`` seen from above, in drawing order, labels last."""
    levels = table_levels(geometry)
    hatches = _raised_hatches(levels)
    areas, lines, labels = [], [], []
    pieces = sorted(geometry.pieces, key=lambda p: ORDER.index(p.kind) if p.kind in ORDER else len(ORDER))
    for piece in pieces:
        if piece.kind == "road":
            continue
        shape = _piece_shape(piece)
        areas.extend(_piece_marks(piece, shape, table, levels, hatches))
        if piece.kind == "ramp":
            lines.append(Mark("arrow", _ramp_arrow(table, piece.id), stroke=INK, width_pt=1.5))
        if piece.kind not in UNLABELLED:
            labels.append(Mark("text", np.array([_label_point(piece, shape)]),
                               lines=piece_lines(piece, table, level_of(levels, piece)), region=shape))
    roads = _road_marks(table, geometry)
    return TablePlan(table.name, table.width, table.depth,
                     tuple(areas[:1] + roads + areas[1:] + lines + _edge_marks(table) + _model_marks(table, geometry)
                           + labels),
                     _legend(table, geometry, levels))
