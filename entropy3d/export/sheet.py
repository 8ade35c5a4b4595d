"""The printable table plan: the table from above at 1:1 (one inch on paper is one table inch),
tiled on A4 or Letter pages, to lay a real table out from.

PDF: page 1 is an overview of the whole table (shrunk to fit, with the pages' layout on it);
then one page per tile, each covering whole inches of the table (A4: 7" x 10", Letter: 7" x 9")
with the inch grid (heavier every 6", numbered in table inches), a dashed cut line round the
tile, crosses at its corners to align neighbours on, and "page N" beside each side that joins
another page. Print at 100% ("actual size"). SVG: the whole table at 1:1 on one sheet (its size
is given in inches) for a plotter, a print shop or editing.

Lengths are table inches; page coordinates points (72 per inch), y up from the bottom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from entropy3d.export.pens import PdfPen, SvgPen, arrow_head, text_box
from entropy3d.export.plan import INK, TablePlan
from entropy3d.outputs import AtomicFile, write_atomic

POINTS_PER_INCH = 72.0
#: page sizes in points (ISO 216 A4: 210 x 297 mm; US Letter: 8.5 x 11 in)
PAPERS = {"a4": (210 / 25.4 * 72, 297 / 25.4 * 72), "letter": (8.5 * 72, 11.0 * 72)}
#: white border round the printed tile: most printers cannot print the last ~0.25"
MARGIN_PT = 0.5 * 72
#: room above the tile for the page's title line
HEADER_PT = 0.4 * 72
GRID_COLOUR = "#8a8a8a"
GRID_MAJOR_EVERY_IN = 6
CUT_COLOUR = "#505050"
MARK_PT = 14.0
#: room for the overview's title and notes above its map
OVERVIEW_HEADER_PT = 1.1 * 72
#: the overview's page numbers and labels (ids), points
OVERVIEW_PAGE_NUMBER_PT, OVERVIEW_LABEL_PT = 9.0, 4.0


@dataclass(frozen=True)
class Tile:
    """The part of the table one page shows: x from ``x0`` to ``x1``, y from ``y0`` to ``y1``
    (inches); ``number`` is its page number (the overview is page 1); ``column`` and ``row``
    count from the west and from the north."""

    number: int
    column: int
    row: int
    x0: float
    y0: float
    x1: float
    y1: float


def tile_size_in(paper: str) -> tuple[int, int]:
    """Whole inches of table one page holds, (across, up): what fits inside the margins."""
    width, height = PAPERS[paper]
    return (int((width - 2 * MARGIN_PT) // POINTS_PER_INCH),
            int((height - 2 * MARGIN_PT - HEADER_PT) // POINTS_PER_INCH))


def tiles(width_in: float, depth_in: float, paper: str) -> list[Tile]:
    """The pages' tiles in reading order: the north row first, west to east."""
    across, up = tile_size_in(paper)
    columns, rows = math.ceil(width_in / across), math.ceil(depth_in / up)
    result = []
    for row in range(rows):
        y1 = depth_in - row * up
        for column in range(columns):
            x0 = column * across
            result.append(Tile(2 + len(result), column, row, x0, max(0.0, y1 - up), min(width_in, x0 + across), y1))
    return result


def _draw_marks(pen, plan: TablePlan, to_page, kinds: tuple[str, ...], window: Tile | None = None) -> None:
    """The plan's marks of ``kinds`` through ``to_page`` (inches -> points).

    window: the tile a page shows: marks wholly outside it are left out, a label is drawn only
    on the page its anchor is on, moved inside the tile so that no cut goes through it.
    """
    for mark in plan.marks:
        if mark.kind not in kinds:
            continue
        if window is not None:
            (x0, y0), (x1, y1) = mark.points.min(axis=0), mark.points.max(axis=0)
            if x1 < window.x0 or x0 > window.x1 or y1 < window.y0 or y0 > window.y1:
                continue
        points = to_page(mark.points)
        if mark.kind == "area":
            pen.area(points, mark.fill, mark.stroke, mark.width_pt, mark.dash)
        elif mark.kind == "line":
            pen.line(points, mark.stroke, mark.width_pt, mark.dash)
        elif mark.kind == "arrow":
            pen.line(points, mark.stroke, mark.width_pt, mark.dash)
            pen.area(arrow_head(points, mark.width_pt), mark.stroke, None)
        elif mark.kind == "text":
            (x, y), = points
            if window is not None:
                x, y = _inside(x, y, mark.lines, mark.size_pt,
                               to_page(np.array([[window.x0, window.y0], [window.x1, window.y1]])))
            pen.text(x, y, mark.lines, mark.size_pt, mark.stroke or INK)


def _clear_of(x: float, y: float, lines: tuple[str, ...], size_pt: float, taken: list,
              within: np.ndarray) -> tuple[float, float]:
    """Where to centre a label near (x, y) so that its box overlaps none of the ``taken`` boxes
    (left, bottom, width, height; points) and stays inside the rectangle ``within`` (corners):
    there, or a step above, below, left or right of it, the nearest that is clear; there when
    none is (the overview is a guide: every label is on its 1:1 page too)."""
    _, _, width, height = text_box(x, y, lines, size_pt)
    (x_min, y_min), (x_max, y_max) = within
    for dx, dy in ((0, 0), (0, 1), (0, -1), (0, 2), (0, -2), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)):
        cx, cy = x + dx * (width / 2 + 1), y + dy * (height + 0.5)
        left, bottom = cx - width / 2, cy - height / 2
        if left < x_min or bottom < y_min or left + width > x_max or bottom + height > y_max:
            continue
        if all(left >= l + w or left + width <= l or bottom >= b + h or bottom + height <= b for l, b, w, h in taken):
            return cx, cy
    return x, y


def _inside(x: float, y: float, lines: tuple[str, ...], size_pt: float, corners: np.ndarray) -> tuple[float, float]:
    """A label's centre moved so that its box lies inside the rectangle ``corners`` (points)."""
    left, bottom, width, height = text_box(x, y, lines, size_pt)
    (x_min, y_min), (x_max, y_max) = corners
    x += max(0.0, x_min - left) - max(0.0, left + width - x_max)
    y += max(0.0, y_min - bottom) - max(0.0, bottom + height - y_max)
    return x, y


def _grid(pen, tile: Tile, to_page) -> None:
    """Inch lines over the tile, heavier every :data:`GRID_MAJOR_EVERY_IN`, numbered in inches."""
    for x in range(math.ceil(tile.x0), math.floor(tile.x1) + 1):
        major = x % GRID_MAJOR_EVERY_IN == 0
        pen.line(to_page(np.array([[x, tile.y0], [x, tile.y1]])), GRID_COLOUR, 0.6 if major else 0.25)
    for y in range(math.ceil(tile.y0), math.floor(tile.y1) + 1):
        major = y % GRID_MAJOR_EVERY_IN == 0
        pen.line(to_page(np.array([[tile.x0, y], [tile.x1, y]])), GRID_COLOUR, 0.6 if major else 0.25)


def _grid_numbers(pen, tile: Tile, to_page) -> None:
    """Table inches along the tile's bottom and left sides, so a page says where it lies."""
    for x in range(math.ceil(tile.x0), math.floor(tile.x1) + 1):
        (px, py), = to_page(np.array([[x, tile.y0]]))
        pen.text(px + 5, py + 5, (f"{x}",), 5.0, "#555555")
    for y in range(math.ceil(tile.y0) + 1, math.floor(tile.y1) + 1):
        (px, py), = to_page(np.array([[tile.x0, y]]))
        pen.text(px + 6, py - 5, (f"{y}",), 5.0, "#555555")


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


def _neighbours(tile: Tile, layout: list[Tile]) -> dict[str, int]:
    by_place = {(t.column, t.row): t.number for t in layout}
    steps = {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}
    return {side: by_place[(tile.column + dc, tile.row + dr)] for side, (dc, dr) in steps.items()
            if (tile.column + dc, tile.row + dr) in by_place}


def draw_tile_page(pen, plan: TablePlan, tile: Tile, layout: list[Tile], page_size: tuple[float, float]) -> None:
    """One 1:1 page: the tile at the bottom-left margin, 72 points per table inch."""

    def to_page(points):
        points = np.atleast_2d(np.asarray(points, float))
        return np.column_stack([MARGIN_PT + (points[:, 0] - tile.x0) * POINTS_PER_INCH,
                                MARGIN_PT + (points[:, 1] - tile.y0) * POINTS_PER_INCH])

    width_pt = (tile.x1 - tile.x0) * POINTS_PER_INCH
    height_pt = (tile.y1 - tile.y0) * POINTS_PER_INCH
    pen.clip(MARGIN_PT, MARGIN_PT, width_pt, height_pt)
    _draw_marks(pen, plan, to_page, ("area",), tile)
    _grid(pen, tile, to_page)  # over the fills, under the paint, arrows and labels
    _draw_marks(pen, plan, to_page, ("line", "arrow"), tile)
    _draw_marks(pen, plan, to_page, ("text",), tile)
    _grid_numbers(pen, tile, to_page)
    pen.unclip()
    _alignment(pen, tile, to_page, _neighbours(tile, layout))
    title = (f"{plan.name} - page {tile.number} of {len(layout) + 1} - x {tile.x0:g}-{tile.x1:g}\", "
             f"y {tile.y0:g}-{tile.y1:g}\" - print at 100% (actual size): the grid is 1 inch")
    pen.text(MARGIN_PT, page_size[1] - MARGIN_PT - 4, (title,), 8.0, INK, halo=False, anchor="start")


def draw_overview_page(pen, plan: TablePlan, layout: list[Tile], page_size: tuple[float, float], paper: str) -> None:
    """Page 1: the whole table shrunk to fit, the pages' tiles numbered on it, and how to use them."""
    page_width, page_height = page_size
    room = page_width - 2 * MARGIN_PT
    scale = min(room / plan.width, (page_height - 2 * MARGIN_PT - OVERVIEW_HEADER_PT) / plan.depth)
    bottom = page_height - MARGIN_PT - OVERVIEW_HEADER_PT - plan.depth * scale

    def to_page(points):
        points = np.atleast_2d(np.asarray(points, float))
        return np.column_stack([MARGIN_PT + points[:, 0] * scale, bottom + points[:, 1] * scale])

    for kinds in (("area",), ("line", "arrow")):
        _draw_marks(pen, plan, to_page, kinds)
    taken = []  # the boxes of the words on the map so far: no label is written over another
    for tile in layout:
        corners = to_page(np.array([[tile.x0, tile.y0], [tile.x1, tile.y0], [tile.x1, tile.y1], [tile.x0, tile.y1]]))
        pen.area(corners, None, "#1f4e9a", 0.8, (4, 2))
        # the page number in the tile's north-west corner, where it hides the fewest labels
        (x, y), = to_page(np.array([[tile.x0, tile.y1]]))
        _, _, number_width, number_height = text_box(x, y, (f"{tile.number}",), OVERVIEW_PAGE_NUMBER_PT)
        x, y = x + number_width / 2 + 1, y - number_height / 2 - 1
        pen.text(x, y, (f"{tile.number}",), OVERVIEW_PAGE_NUMBER_PT, "#1f4e9a")
        taken.append(text_box(x, y, (f"{tile.number}",), OVERVIEW_PAGE_NUMBER_PT))
    whole_map = to_page(np.array([[0.0, 0.0], [plan.width, plan.depth]]))
    for mark in plan.marks:
        if mark.kind == "text":
            (x, y), = to_page(mark.points)
            x, y = _inside(x, y, mark.lines[:1], OVERVIEW_LABEL_PT, whole_map)
            x, y = _clear_of(x, y, mark.lines[:1], OVERVIEW_LABEL_PT, taken, whole_map)
            pen.text(x, y, mark.lines[:1], OVERVIEW_LABEL_PT, mark.stroke or INK)
            taken.append(text_box(x, y, mark.lines[:1], OVERVIEW_LABEL_PT))
    across, up = tile_size_in(paper)
    top = page_height - MARGIN_PT
    pen.text(MARGIN_PT, top - 14, (f"{plan.name}: table plan",), 16.0, INK, halo=False, anchor="start")
    notes = (f"Table {plan.width:g}\" x {plan.depth:g}\", north up, x from the west edge, y from the south edge. "
             f"This page is shrunk ({scale / POINTS_PER_INCH:.3f}:1).",
             f"Pages 2-{len(layout) + 1} are 1:1 ({paper.upper() if paper == 'a4' else 'Letter'}, "
             f"{across}\" x {up}\" of table each, blue boxes above): print at 100% / actual size, "
             "no 'fit to page'.",
             "Check a page: its grid squares measure 1 inch (25.4 mm). Cut on the dashed lines, lay the pages "
             "edge to edge,",
             "matching the corner crosses and the 'joins page N' notes. Labels: id (a starting base: its rider), "
             "what it is, its height and level.")
    for k, line in enumerate(notes):
        pen.text(MARGIN_PT, top - 34 - 11 * k, (line,), 7.5, INK, halo=False, anchor="start")
    columns = 2
    for k, (fill, words) in enumerate(plan.legend):
        x = MARGIN_PT + (k % columns) * room / columns
        y = bottom - 20 - 14 * (k // columns)
        pen.area(np.array([[x, y - 4], [x + 16, y - 4], [x + 16, y + 6], [x, y + 6]]), fill, INK, 0.4)
        pen.text(x + 22, y - 2, (words,), 7.5, INK, halo=False, anchor="start")


def write_pdf(plan: TablePlan, path: str | Path, paper: str = "a4") -> list[Tile]:
    """The overview and the 1:1 tiled pages as one PDF, written atomically; returns the tiles."""
    from reportlab.pdfgen.canvas import Canvas

    page_size = PAPERS[paper]
    layout = tiles(plan.width, plan.depth, paper)
    with AtomicFile(path) as output:
        canvas = Canvas(str(output.temporary), pagesize=page_size, pageCompression=1, invariant=1)
        canvas.setTitle(f"{plan.name}: table plan at 1:1")
        canvas.setCreator("entropy3d sheet")
        pen = PdfPen(canvas)
        draw_overview_page(pen, plan, layout, page_size, paper)
        canvas.showPage()
        for tile in layout:
            draw_tile_page(pen, plan, tile, layout, page_size)
            canvas.showPage()
        canvas.save()
    return layout


def svg_text(plan: TablePlan) -> str:
    """The whole table at 1:1 on one SVG sheet with a margin, the inch grid and every label."""
    whole = Tile(1, 0, 0, 0.0, 0.0, plan.width, plan.depth)
    page = (plan.width * POINTS_PER_INCH + 2 * MARGIN_PT, plan.depth * POINTS_PER_INCH + 2 * MARGIN_PT + HEADER_PT)
    pen = SvgPen(*page)
    draw_tile_page(pen, plan, whole, [], page)
    return pen.document(f"{plan.name}: table plan at 1:1")


def write_svg(plan: TablePlan, path: str | Path) -> Path:
    """:func:`svg_text` written atomically."""
    return write_atomic(path, svg_text(plan).encode("utf-8"))
