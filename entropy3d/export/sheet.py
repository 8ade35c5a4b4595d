"""The printable table plan: the table from above at 1:1 (one inch on paper is one table inch),
tiled on A4 or Letter pages, to lay a real table out from.

PDF: page 1 is an overview of the whole table (shrunk to fit, with the pages' layout and the
legend of levels on it); then one page per tile, each covering whole inches of the table with
the inch grid (heavier every 6", numbered in table inches), a dashed cut line round the tile,
crosses at its corners to align neighbours on, and "joins page N" beside each side that joins
another page. The tiles are portrait or landscape, whichever needs fewer pages (A4: 7" x 10",
Letter: 10" x 7"); a tile with nothing on it but the bare ground is not printed (the overview
shows it as a grey box). Print at 100% ("actual size"). SVG: the whole table at 1:1 on one sheet
(its size is given in inches) for a plotter, a print shop or editing.

Labels never cross a cut line: a label stays :data:`LABEL_INSET_PT` inside its page, and a piece
that two pages show enough of is labelled on both. No label is written over another, a ramp's
arrow or the grid's numbers.

Lengths are table inches; page coordinates points (72 per inch), y up from the bottom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import shapely
from shapely.ops import polylabel

from entropy3d.export.pens import PdfPen, SvgPen, arrow_head, text_box
from entropy3d.export.plan_marks import INK, Mark, TablePlan, hatch_segments
from entropy3d.outputs import AtomicFile, write_atomic

POINTS_PER_INCH = 72.0
#: page sizes in points (ISO 216 A4: 210 x 297 mm; US Letter: 8.5 x 11 in), portrait
PAPERS = {"a4": (210 / 25.4 * 72, 297 / 25.4 * 72), "letter": (8.5 * 72, 11.0 * 72)}
#: white border round the printed tile: most printers cannot print the last ~0.25"
MARGIN_PT = 0.5 * 72
#: room above the tile for the page's title line
HEADER_PT = 0.4 * 72
GRID_COLOUR = "#9a9a9a"
GRID_MAJOR_EVERY_IN = 6
CUT_COLOUR = "#505050"
MARK_PT = 14.0
#: room for the overview's title and notes above its map
OVERVIEW_HEADER_PT = 1.1 * 72
#: the overview's page numbers and labels (ids), points
OVERVIEW_PAGE_NUMBER_PT, OVERVIEW_LABEL_PT = 9.0, 4.0
#: hatch lines on the shrunk overview stand this fraction of their 1:1 pages' spacing apart on
#: paper (shrunk with the map, 0.15:1, they would stand 1-4 points apart: a grey fill again)
OVERVIEW_HATCH_CLOSER = 0.45
#: a label keeps this far inside its page's cut line, points: a cut by hand wanders ~1 mm (2.8 pt)
LABEL_INSET_PT = 4.0
#: a page that shows at least this much of a piece (square inches) whose label stands on another
#: page writes the label too
LABEL_REPEAT_MIN_IN2 = 1.0
#: labels and arrows keep this far apart, points
CLEARANCE_PT = 1.0


@dataclass(frozen=True)
class Tile:
    """The part of the table one page shows: x from ``x0`` to ``x1``, y from ``y0`` to ``y1``
    (inches); ``number`` is its page number (the overview is page 1; 0: a tile of bare ground,
    not printed); ``column`` and ``row`` count from the west and from the north."""

    number: int
    column: int
    row: int
    x0: float
    y0: float
    x1: float
    y1: float

    def box(self):
        return shapely.box(self.x0, self.y0, self.x1, self.y1)


@dataclass(frozen=True)
class Layout:
    """How a plan is split into pages: the printed ``tiles`` (numbered from 2), the ``bare`` ones
    left out, and the tile pages' ``page_size`` (points; landscape when wider than high)."""

    tiles: tuple[Tile, ...]
    bare: tuple[Tile, ...]
    page_size: tuple[float, float]

    @property
    def landscape(self) -> bool:
        return self.page_size[0] > self.page_size[1]


def tile_size_in(page_size: tuple[float, float]) -> tuple[int, int]:
    """Whole inches of table one page (points, as printed) holds, (across, up): what fits inside
    the margins and below the title line."""
    width, height = page_size
    return (int((width - 2 * MARGIN_PT) // POINTS_PER_INCH),
            int((height - 2 * MARGIN_PT - HEADER_PT) // POINTS_PER_INCH))


def tiles(width_in: float, depth_in: float, page_size: tuple[float, float]) -> list[Tile]:
    """The tiles covering the table in reading order: the north row first, west to east."""
    across, up = tile_size_in(page_size)
    columns, rows = math.ceil(width_in / across), math.ceil(depth_in / up)
    result = []
    for row in range(rows):
        y1 = depth_in - row * up
        for column in range(columns):
            x0 = column * across
            result.append(Tile(2 + len(result), column, row, x0, max(0.0, y1 - up), min(width_in, x0 + across), y1))
    return result


def has_content(plan: TablePlan, tile: Tile) -> bool:
    """Whether anything but the bare ground shows on ``tile``: a piece, a road, a zone, a base, a cliff."""
    inside = tile.box().buffer(-0.01)
    return any(mark.content and mark.kind != "text" and mark.shape().intersects(inside) for mark in plan.marks)


def page_layout(plan: TablePlan, paper: str) -> Layout:
    """The tiles of ``plan`` on ``paper``, portrait or landscape, whichever prints fewer pages
    (portrait on a tie); tiles of bare ground are left out and the rest numbered from 2."""
    portrait = PAPERS[paper]
    best = None
    for page_size in (portrait, portrait[::-1]):
        every = tiles(plan.width, plan.depth, page_size)
        shown = [tile for tile in every if has_content(plan, tile)]
        if best is None or len(shown) < len(best[1]):
            best = (every, shown, page_size)
    every, shown, page_size = best
    numbered = {(t.column, t.row): number for number, t in enumerate(shown, start=2)}
    printed = tuple(Tile(numbered[(t.column, t.row)], t.column, t.row, t.x0, t.y0, t.x1, t.y1) for t in shown)
    bare = tuple(Tile(0, t.column, t.row, t.x0, t.y0, t.x1, t.y1) for t in every if (t.column, t.row) not in numbered)
    return Layout(printed, bare, page_size)


def _page_box(left: float, bottom: float, width: float, height: float):
    return shapely.box(left, bottom, left + width, bottom + height)


def _draw_area(pen, mark: Mark, to_page, hatch_spacing_in: float | None, window: Tile | None) -> None:
    """An area: its fill, its hatch lines over that (only those on the ``window``: the lines
    are phased from the table, so a page's share of them is the same lines), then its outline
    (holes outlined too)."""
    if mark.fill is not None:
        pen.area(to_page(mark.points), mark.fill, None)
    if mark.hatch is not None:
        shape = mark.shape() if window is None else mark.shape().intersection(window.box().buffer(0.1))
        pairs = hatch_segments(shape, mark.hatch, hatch_spacing_in)
        if pairs:
            pen.segments(to_page(np.concatenate(pairs)).reshape(-1, 2, 2), mark.hatch.colour, mark.hatch.width_pt,
                         mark.hatch.dash)
    for ring in (mark.points, *mark.holes):
        pen.area(to_page(ring), None, mark.stroke, mark.width_pt, mark.dash)


def _draw_marks(pen, plan: TablePlan, to_page, kinds: tuple[str, ...], window: Tile | None = None,
                hatch_wider: float = 1.0) -> None:
    """The plan's drawn marks of ``kinds`` (areas, lines, arrows) through ``to_page`` (inches ->
    points); marks wholly outside ``window`` are left out; ``hatch_wider``: hatch spacing factor."""
    for mark in plan.marks:
        if mark.kind not in kinds:
            continue
        if window is not None:
            (x0, y0), (x1, y1) = mark.points.min(axis=0), mark.points.max(axis=0)
            if x1 < window.x0 or x0 > window.x1 or y1 < window.y0 or y0 > window.y1:
                continue
        if mark.kind == "area":
            spacing = mark.hatch.spacing_in * hatch_wider if mark.hatch is not None and hatch_wider != 1.0 else None
            _draw_area(pen, mark, to_page, spacing, window)
        elif mark.kind == "line":
            pen.line(to_page(mark.points), mark.stroke, mark.width_pt, mark.dash)
        elif mark.kind == "arrow":
            points = to_page(mark.points)
            pen.line(points, mark.stroke, mark.width_pt, mark.dash)
            pen.area(arrow_head(points, mark.width_pt), mark.stroke, None)


def _arrow_shapes(plan: TablePlan, to_page) -> list:
    """Every arrow (ramps' up-slope arrows, bases' noses) as page geometry a label keeps clear of."""
    shapes = []
    for mark in plan.marks:
        if mark.kind == "arrow":
            points = to_page(mark.points)
            shaft = shapely.LineString(points).buffer(mark.width_pt / 2 + CLEARANCE_PT)
            shapes.append(shaft.union(shapely.Polygon(arrow_head(points, mark.width_pt)).buffer(CLEARANCE_PT)))
    return shapes


def _inside(x: float, y: float, lines: tuple[str, ...], size_pt: float, within) -> tuple[float, float]:
    """A label's centre moved so that its box lies inside the rectangle ``within`` (shapely box, points)."""
    left, bottom, width, height = text_box(x, y, lines, size_pt)
    x_min, y_min, x_max, y_max = within.bounds
    x += max(0.0, x_min - left) - max(0.0, left + width - x_max)
    y += max(0.0, y_min - bottom) - max(0.0, bottom + height - y_max)
    return x, y


def _place(x: float, y: float, lines: tuple[str, ...], size_pt: float, taken: list, within) -> tuple[float, float]:
    """Where to centre a label wanted at (x, y): inside ``within`` (a shapely box, points) and
    over none of the ``taken`` shapes (labels, numbers, arrows), the nearest such of a few steps
    up, down and sideways; where it overlaps them least when none is clear."""
    _, _, width, height = text_box(x, y, lines, size_pt)
    steps = sorted(((dx, dy) for dx in range(-2, 3) for dy in range(-4, 5)),
                   key=lambda d: math.hypot(d[0] * (width / 2 + 1), d[1] * (height + 0.5)))
    best, least = None, math.inf
    for dx, dy in steps:
        cx, cy = _inside(x + dx * (width / 2 + 1), y + dy * (height + 0.5), lines, size_pt, within)
        box = _page_box(*text_box(cx, cy, lines, size_pt))
        overlap = sum(box.intersection(shape).area for shape in taken if box.intersects(shape))
        if overlap < least:
            best, least = (cx, cy), overlap
        if overlap == 0.0:
            break
    return best


def _write_label(pen, x, y, lines, size_pt, colour, taken: list, within) -> None:
    x, y = _place(x, y, lines, size_pt, taken, within)
    pen.text(x, y, lines, size_pt, colour)
    taken.append(_page_box(*text_box(x, y, lines, size_pt)))


def _tile_label_point(mark: Mark, tile: Tile) -> np.ndarray | None:
    """Where on ``tile`` a label goes (inches), or None when it does not: at its own point when
    that is on the tile, else in the middle of what the tile shows of the piece it names, when
    that is at least :data:`LABEL_REPEAT_MIN_IN2`."""
    (x, y), = mark.points
    if tile.x0 <= x <= tile.x1 and tile.y0 <= y <= tile.y1:
        return mark.points[0]
    if mark.region is None:
        return None
    shown = mark.region.intersection(tile.box())
    if shown.area < LABEL_REPEAT_MIN_IN2:
        return None
    middle = polylabel(max(getattr(shown, "geoms", [shown]), key=lambda g: g.area), tolerance=0.05)
    return np.array([middle.x, middle.y])


def _grid(pen, tile: Tile, to_page) -> None:
    """Inch lines over the tile, heavier every :data:`GRID_MAJOR_EVERY_IN`, numbered in inches."""
    for x in range(math.ceil(tile.x0), math.floor(tile.x1) + 1):
        major = x % GRID_MAJOR_EVERY_IN == 0
        pen.line(to_page(np.array([[x, tile.y0], [x, tile.y1]])), GRID_COLOUR, 0.6 if major else 0.25)
    for y in range(math.ceil(tile.y0), math.floor(tile.y1) + 1):
        major = y % GRID_MAJOR_EVERY_IN == 0
        pen.line(to_page(np.array([[tile.x0, y], [tile.x1, y]])), GRID_COLOUR, 0.6 if major else 0.25)


def _grid_numbers(pen, tile: Tile, to_page) -> list:
    """Table inches along the tile's bottom and left sides (beside their lines, inside the tile
    by :data:`LABEL_INSET_PT`), so a page says where it lies; returns their boxes (points), which
    labels keep clear of."""
    boxes = []
    numbers = [(x, tile.y0, f"{x}", 1) for x in range(math.ceil(tile.x0), math.floor(tile.x1) + 1)]
    numbers += [(tile.x0, y, f"{y}", -1) for y in range(math.ceil(tile.y0) + 1, math.floor(tile.y1) + 1)]
    for x, y, words, up in numbers:
        (px, py), = to_page(np.array([[x, y]]))
        _, _, width, height = text_box(0.0, 0.0, (words,), 5.0)
        px, py = px + LABEL_INSET_PT + width / 2, py + up * (LABEL_INSET_PT + height / 2)
        pen.text(px, py, (words,), 5.0, "#555555")
        boxes.append(_page_box(*text_box(px, py, (words,), 5.0)))
    return boxes


def _alignment(pen, tile: Tile, to_page, neighbours: dict[str, int]) -> None:
    """The dashed cut line round the tile, a cross on each corner and the joining pages' numbers."""
    corners = to_page(np.array([[tile.x0, tile.y0], [tile.x1, tile.y0], [tile.x1, tile.y1], [tile.x0, tile.y1]]))
    pen.area(corners, None, CUT_COLOUR, 0.5, (3, 3))
    for x, y in corners:
        pen.line(np.array([[x - MARK_PT, y], [x + MARK_PT, y]]), INK, 0.5)
        pen.line(np.array([[x, y - MARK_PT], [x, y + MARK_PT]]), INK, 0.5)
    (left, bottom), (right, top) = corners[0], corners[2]
    middle_x, middle_y = (left + right) / 2, (bottom + top) / 2
    places = {"north": (middle_x, top + 8), "south": (middle_x, bottom - 8),
              "west": (left - 9, middle_y), "east": (right + 9, middle_y)}
    for side, number in neighbours.items():
        x, y = places[side]
        pen.text(x, y, (f"p{number}",) if side in ("west", "east") else (f"joins page {number}",), 6.0,
                 CUT_COLOUR, halo=False)


def _neighbours(tile: Tile, layout: tuple[Tile, ...]) -> dict[str, int]:
    by_place = {(t.column, t.row): t.number for t in layout}
    steps = {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}
    return {side: by_place[(tile.column + dc, tile.row + dr)] for side, (dc, dr) in steps.items()
            if (tile.column + dc, tile.row + dr) in by_place}


def draw_tile_page(pen, plan: TablePlan, tile: Tile, layout: tuple[Tile, ...], page_size: tuple[float, float],
                   pages: int) -> None:
    """One 1:1 page: the tile at the bottom-left margin, 72 points per table inch; ``pages``:
    how many the document has."""

    def to_page(points):
        points = np.atleast_2d(np.asarray(points, float))
        return np.column_stack([MARGIN_PT + (points[:, 0] - tile.x0) * POINTS_PER_INCH,
                                MARGIN_PT + (points[:, 1] - tile.y0) * POINTS_PER_INCH])

    width_pt = (tile.x1 - tile.x0) * POINTS_PER_INCH
    height_pt = (tile.y1 - tile.y0) * POINTS_PER_INCH
    pen.clip(MARGIN_PT, MARGIN_PT, width_pt, height_pt)
    _draw_marks(pen, plan, to_page, ("area", "line"), tile)  # in the plan's order: a piece hides what it stands on
    _grid(pen, tile, to_page)  # over the pieces, under the arrows and labels
    _draw_marks(pen, plan, to_page, ("arrow",), tile)
    taken = _grid_numbers(pen, tile, to_page) + _arrow_shapes(plan, to_page)
    within = _page_box(MARGIN_PT, MARGIN_PT, width_pt, height_pt).buffer(-LABEL_INSET_PT, join_style="mitre")
    for mark in plan.marks:
        if mark.kind == "text" and (point := _tile_label_point(mark, tile)) is not None:
            (x, y), = to_page(point)
            _write_label(pen, x, y, mark.lines, mark.size_pt, mark.stroke or INK, taken, within)
    pen.unclip()
    _alignment(pen, tile, to_page, _neighbours(tile, layout))
    title = (f"{plan.name} - page {tile.number} of {pages} - x {tile.x0:g}-{tile.x1:g}\", "
             f"y {tile.y0:g}-{tile.y1:g}\" - print at 100% (actual size): the grid is 1 inch")
    pen.text(MARGIN_PT, page_size[1] - MARGIN_PT - 4, (title,), 8.0, INK, halo=False, anchor="start")


#: the overview legend's sections: (section, heading, columns)
LEGEND_SECTIONS = (("levels", "Levels: the closer the hatch, the higher", 3), ("table", "On the table", 2))
LEGEND_ROW_PT, LEGEND_HEADING_PT, LEGEND_GAP_PT = 15.0, 15.0, 8.0


def _legend_sections(plan: TablePlan) -> list[tuple[str, int, list]]:
    return [(heading, columns, entries) for section, heading, columns in LEGEND_SECTIONS
            if (entries := [entry for entry in plan.legend if entry.section == section])]


def legend_height(plan: TablePlan) -> float:
    """Points the overview's legend takes below the map."""
    return sum(LEGEND_HEADING_PT + LEGEND_ROW_PT * math.ceil(len(entries) / columns) + LEGEND_GAP_PT
               for _, columns, entries in _legend_sections(plan))


def _legend(pen, plan: TablePlan, left: float, top: float, room: float) -> None:
    """The overview's legend below its map: the levels (each swatch hatched as the plan hatches
    it, shrunk as the map is), then the roads, gangs, terrain and hazards."""
    row = top
    for heading, columns, entries in _legend_sections(plan):
        pen.text(left, row, (heading,), 8.0, INK, halo=False, anchor="start")
        row -= LEGEND_HEADING_PT
        for k, entry in enumerate(entries):
            x, y = left + (k % columns) * room / columns, row - LEGEND_ROW_PT * (k // columns)
            corners = np.array([[x, y - 5], [x + 22, y - 5], [x + 22, y + 7], [x, y + 7]])
            if entry.hatch is not None:
                spacing = max(2.5, entry.hatch.spacing_in * POINTS_PER_INCH * OVERVIEW_HATCH_CLOSER)
                sample = replace(entry.hatch, spacing_in=spacing, origin=(x, y))
                pairs = hatch_segments(shapely.Polygon(corners), sample)
                pen.segments(np.asarray(pairs), entry.hatch.colour, entry.hatch.width_pt, entry.hatch.dash)
            pen.area(corners, entry.fill, entry.stroke, 0.6, entry.dash)
            if entry.arrow:
                shaft = np.array([[x + 3, y + 1], [x + 19, y + 1]])
                pen.line(shaft, INK, 1.0)
                pen.area(arrow_head(shaft, 0.8), INK, None)
            pen.text(x + 27, y - 2, (entry.words,), 7.0, INK, halo=False, anchor="start")
        row -= LEGEND_ROW_PT * math.ceil(len(entries) / columns) + LEGEND_GAP_PT


def draw_overview_page(pen, plan: TablePlan, layout: Layout, page_size: tuple[float, float], paper: str) -> None:
    """Page 1: the whole table shrunk to fit, the pages' tiles numbered on it (bare ones grey),
    how to use them and the legend of levels."""
    page_width, page_height = page_size
    room = page_width - 2 * MARGIN_PT
    scale = min(room / plan.width, (page_height - 2 * MARGIN_PT - OVERVIEW_HEADER_PT - 18 - legend_height(plan))
                / plan.depth)
    left = MARGIN_PT + (room - plan.width * scale) / 2
    bottom = page_height - MARGIN_PT - OVERVIEW_HEADER_PT - plan.depth * scale

    def to_page(points):
        points = np.atleast_2d(np.asarray(points, float))
        return np.column_stack([left + points[:, 0] * scale, bottom + points[:, 1] * scale])

    wider = OVERVIEW_HATCH_CLOSER * POINTS_PER_INCH / scale
    for kinds in (("area", "line"), ("arrow",)):
        _draw_marks(pen, plan, to_page, kinds, hatch_wider=wider)
    taken = _arrow_shapes(plan, to_page)  # what no word is written over: arrows, page numbers, labels
    for tile in layout.bare:
        corners = to_page(np.array([[tile.x0, tile.y0], [tile.x1, tile.y0], [tile.x1, tile.y1], [tile.x0, tile.y1]]))
        pen.area(corners, "#f2f2f2", "#9a9a9a", 0.6, (1, 2))
    for tile in layout.tiles:
        corners = to_page(np.array([[tile.x0, tile.y0], [tile.x1, tile.y0], [tile.x1, tile.y1], [tile.x0, tile.y1]]))
        pen.area(corners, None, "#1f4e9a", 0.7)  # solid: two tiles share an edge, out-of-step dashes read as a smear
        # the page number in the tile's north-west corner, where it hides the fewest labels
        (x, y), = to_page(np.array([[tile.x0, tile.y1]]))
        _, _, number_width, number_height = text_box(x, y, (f"{tile.number}",), OVERVIEW_PAGE_NUMBER_PT)
        x, y = x + number_width / 2 + 1, y - number_height / 2 - 1
        pen.text(x, y, (f"{tile.number}",), OVERVIEW_PAGE_NUMBER_PT, "#1f4e9a")
        # padded: a label beside it would read as one word with it ("36Fang")
        taken.append(_page_box(*text_box(x, y, (f"{tile.number}",), OVERVIEW_PAGE_NUMBER_PT)).buffer(3.0))
    whole_map = shapely.box(*to_page(np.array([[0.0, 0.0]]))[0], *to_page(np.array([[plan.width, plan.depth]]))[0])
    for mark in plan.marks:
        if mark.kind == "text":
            (x, y), = to_page(mark.points)
            _write_label(pen, x, y, mark.lines[:1], OVERVIEW_LABEL_PT, mark.stroke or INK, taken, whole_map)
    across, up = tile_size_in(layout.page_size)
    top = page_height - MARGIN_PT
    pages = len(layout.tiles) + 1
    paper_name = paper.upper() if paper == "a4" else "Letter"
    bare = (f" {len(layout.bare)} tile{'s' * (len(layout.bare) != 1)} of bare ground (grey) are not printed."
            if layout.bare else "")
    pen.text(MARGIN_PT, top - 14, (f"{plan.name}: table plan",), 16.0, INK, halo=False, anchor="start")
    notes = (f"Table {plan.width:g}\" x {plan.depth:g}\", north up, x from the west edge, y from the south edge. "
             f"This page is shrunk ({scale / POINTS_PER_INCH:.3f}:1).",
             f"{'Page 2 is' if pages == 2 else f'Pages 2-{pages} are'} 1:1 ({paper_name} "
             f"{'landscape' if layout.landscape else 'portrait'}, {across}\" x {up}\" of table each, blue boxes): "
             f"print at 100% / actual size, no 'fit to page'.{bare}",
             "Check a page: its grid squares measure 1 inch (25.4 mm). Cut on the dashed lines, lay the pages "
             "edge to edge,",
             "matching the corner crosses and the 'joins page N' notes. Labels: id (a starting base: its rider), "
             "what it is, its height and level.")
    for k, line in enumerate(notes):
        pen.text(MARGIN_PT, top - 34 - 11 * k, (line,), 7.0, INK, halo=False, anchor="start")
    _legend(pen, plan, MARGIN_PT, bottom - 18, room)


def write_pdf(plan: TablePlan, path: str | Path, paper: str = "a4") -> Layout:
    """The overview and the 1:1 tiled pages as one PDF, written atomically; returns the layout."""
    from reportlab.pdfgen.canvas import Canvas

    layout = page_layout(plan, paper)
    pages = len(layout.tiles) + 1
    with AtomicFile(path) as output:
        canvas = Canvas(str(output.temporary), pagesize=PAPERS[paper], pageCompression=1, invariant=1)
        canvas.setTitle(f"{plan.name}: table plan at 1:1")
        canvas.setCreator("entropy3d sheet")
        pen = PdfPen(canvas)
        draw_overview_page(pen, plan, layout, PAPERS[paper], paper)
        canvas.showPage()
        for tile in layout.tiles:
            canvas.setPageSize(layout.page_size)
            draw_tile_page(pen, plan, tile, layout.tiles, layout.page_size, pages)
            canvas.showPage()
        canvas.save()
    return layout


def svg_text(plan: TablePlan) -> str:
    """The whole table at 1:1 on one SVG sheet with a margin, the inch grid and every label."""
    whole = Tile(1, 0, 0, 0.0, 0.0, plan.width, plan.depth)
    page = (plan.width * POINTS_PER_INCH + 2 * MARGIN_PT, plan.depth * POINTS_PER_INCH + 2 * MARGIN_PT + HEADER_PT)
    pen = SvgPen(*page)
    draw_tile_page(pen, plan, whole, (), page, 1)
    return pen.document(f"{plan.name}: table plan at 1:1")


def write_svg(plan: TablePlan, path: str | Path) -> Path:
    """:func:`svg_text` written atomically."""
    return write_atomic(path, svg_text(plan).encode("utf-8"))
