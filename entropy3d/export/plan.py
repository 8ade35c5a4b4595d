"""The table seen from above as drawing marks in table inches: what the printed table plan
(:mod:`entropy3d.export.sheet`) draws, page by page, to lay a real table out from.

Every piece is its outline from above (the union of its convex parts' footprints,
:func:`entropy3d.scene.footprints.piece_footprints`) with a label: its id, what it is, its own
height and, where a bike rides on it, its level (the height of its top above the table; other
pieces give their top); ramps carry an arrow up the slope, destructibles their risk (EC-DEST-1), miniatures their base
at the starting pose with a facing nose. Cliff edges (EC-COL-EDGE) are a hazard band; in Lovers
Point Brawl the cliff is also the gangs' deployment edge (rulebook "Mission Types"). Scenes name
no other deployment zone: every gang's starting bases are drawn where the scene puts them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from entropy3d.export import hex_rgb
from entropy3d.rules.missions import LOVERS_POINT
from entropy3d.scene.build import RIDDEN_KINDS, TableGeometry
from entropy3d.scene.footprints import piece_footprints
from entropy3d.scene.table import Table

#: how far piece fills are mixed towards white: a printed plan is mostly paper
PAPER_MIX = 0.6
INK = "#202020"
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

    kind: ``area`` (closed outline, filled), ``line`` (open polyline), ``arrow`` (a line with a
    head at its end) or ``text`` (``lines`` centred at ``points[0]``). fill / stroke: "#rrggbb"
    or None. width_pt: line width in points. dash: dash pattern in points, () solid.
    size_pt: font size. detail: False for marks the overview leaves out (labels' detail lines).
    """

    kind: str
    points: np.ndarray
    fill: str | None = None
    stroke: str | None = INK
    width_pt: float = 0.6
    dash: tuple[float, ...] = ()
    lines: tuple[str, ...] = ()
    size_pt: float = 7.0
    detail: bool = True


@dataclass(frozen=True)
class TablePlan:
    """A table's marks (in drawing order) and its size, inches; ``legend``: (fill colour, words)
    for the overview page."""

    name: str
    width: float
    depth: float
    marks: tuple[Mark, ...]
    legend: tuple[tuple[str, str], ...] = ()


def _legend(table: Table, geometry: TableGeometry) -> tuple[tuple[str, str], ...]:
    """Gangs and their starting bases, the cliff, and each terrain on the table with its rule flags."""
    entries = []
    for gang_id, gang in table.spec.gangs.items():
        count = sum(1 for m in table.models if m.gang == gang_id)
        entries.append((paper_colour(gang.colour, 0.3), f"{gang.name}: {count} starting base{'s' * (count != 1)}"))
    if "cliff" in table.spec.table.edges.values():
        entries.append((paper_colour(CLIFF_RED, 0.35), "cliff edge: a ride over it busts (EC-COL-EDGE)"))
    for name in sorted({p.terrain for p in geometry.pieces if p.kind in ("ground", "zone", "road") and p.terrain}):
        entries.append((paper_colour(table.ruleset.terrain[name].colour), terrain_words(table, name)))
    entries.append(("#ffffff", "ramps: the arrow points up the slope; destructibles: risk 1-3 (EC-DEST-1)"))
    return tuple(entries)


def paper_colour(colour: str, mix: float = PAPER_MIX) -> str:
    """``colour`` mixed towards white by ``mix`` (0..1), for fills that print light."""
    rgb = np.array(hex_rgb(colour))
    rgb = rgb + (1.0 - rgb) * mix
    return "#" + "".join(f"{int(round(255 * v)):02x}" for v in rgb)


def _outline_rings(piece) -> list[np.ndarray]:
    """The exterior rings of a piece's outline from above, inches."""
    shape = shapely.unary_union([f.outline for f in piece_footprints(piece)])
    polygons = [shape] if isinstance(shape, Polygon) else list(getattr(shape, "geoms", []))
    return [np.asarray(p.exterior.coords) for p in polygons if isinstance(p, Polygon) and not p.is_empty]


def _label_point(piece) -> np.ndarray:
    shape = shapely.unary_union([f.outline for f in piece_footprints(piece)])
    point = shape.representative_point() if not shape.is_empty else shapely.Point(piece.mesh.centroid[:2])
    return np.array([point.x, point.y])


def _inches(value: float) -> str:
    return f'{value:.2f}'.rstrip("0").rstrip(".") + '"'


def terrain_words(table: Table, name: str) -> str:
    """A terrain's name with its rules flags, e.g. "gravel (difficult)" (EC-TER-*)."""
    terrain = table.ruleset.terrain[name]
    flags = [word for word, on in (("difficult", terrain.difficult), ("dangerous", terrain.dangerous)) if on]
    return name + (f" ({', '.join(flags)})" if flags else "")


def piece_lines(piece, table: Table) -> tuple[str, ...]:
    """The label of a piece: id, what it is, height and level (its top above the table) when a
    bike rides on it, else its top (a lamp's or a crate's top is no level)."""
    spec = table.spec
    bottom, top = float(piece.mesh.bounds[0][2]), piece.top
    height_level = f"{_inches(top - bottom)} high, {'level' if piece.kind in RIDDEN_KINDS else 'top'} {_inches(top)}"
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
        marks.append(Mark("area", np.array(bands[edge], float), fill=paper_colour(CLIFF_RED, 0.35), stroke=CLIFF_RED,
                          width_pt=1.0))
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
        marks.append(Mark("area", base.outline(model.pose), fill=paper_colour(colour, 0.3), stroke=colour,
                          width_pt=1.0))
        nose = model.pose.to_table(np.array([[0.0, 0.0], [0.5 * base.length, 0.0]]))
        marks.append(Mark("arrow", nose, stroke=INK, width_pt=0.8))
        gang = table.spec.gangs[model.gang].name
        below = model.pose.to_table(np.array([[0.0, 0.0]]))[0] - np.array([0.0, 0.5 * base.width + 0.25])
        rider = table.model(model.id).rider.name or model.id
        marks.append(Mark("text", np.array([below]), lines=(rider, f"{model.id}: {gang}, {model.bike_type}"),
                          size_pt=6.0))
    return marks


def table_plan(table: Table, geometry: TableGeometry) -> TablePlan:
    """The marks of ``table`` seen from above, in drawing order, labels last."""
    areas, lines, labels = [], [], []
    pieces = sorted(geometry.pieces, key=lambda p: ORDER.index(p.kind) if p.kind in ORDER else len(ORDER))
    for piece in pieces:
        fill = paper_colour(piece.colour)
        for ring in _outline_rings(piece):
            areas.append(Mark("area", ring[:-1], fill=fill, stroke=INK if piece.kind != "road" else None,
                              width_pt=1.2 if piece.kind in ("building", "platform") else 0.6))
        if piece.kind == "ramp":
            lines.append(Mark("arrow", _ramp_arrow(table, piece.id), stroke=INK, width_pt=1.5))
        if piece.kind not in UNLABELLED:
            labels.append(Mark("text", np.array([_label_point(piece)]), lines=piece_lines(piece, table)))
    for road in table.spec.roads:
        if road.markings:
            lines.append(Mark("line", np.asarray(road.points, float), stroke="#ffffff", width_pt=1.0, dash=(6, 6)))
    return TablePlan(table.name, table.width, table.depth,
                     tuple(areas + lines + _edge_marks(table) + _model_marks(table, geometry) + labels),
                     _legend(table, geometry))
