"""``entropy3d sheet``: the table plan at 1:1 on A4 or Letter pages and as one SVG sheet.

The page geometry, the grid, the words and the hatch lines are read back from the written files
(pdfplumber parses the PDF's drawing operators; pdftoppm renders its pages as a printer would; the
SVG is XML), not taken from the module's own constants or layout: a printed page must measure 1"
per table inch (72 PDF points per inch).
"""

from __future__ import annotations

import functools
import math
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np
import pdfplumber
import pytest
import shapely
from PIL import Image

from tests.export.conftest import ROOT

LOVERS_POINT = ROOT / "scenes" / "lovers_point.yaml"
BUNDLED = sorted(path.stem for path in (ROOT / "scenes").glob("*.yaml"))
#: ISO 216 A4 (210 x 297 mm) and US Letter (8.5 x 11 in), in points (1/72 inch), portrait
PAGE_POINTS = {"a4": (595.276, 841.890), "letter": (612.0, 792.0)}
#: what a printer cannot print: the last 0.25" round the paper (points)
UNPRINTABLE_PT = 18.0
#: a cut by hand with scissors wanders about 1 mm (2.8 points) off the dashed line
HAND_CUT_PT = 2.8


def sheet(*args):
    return subprocess.run([sys.executable, "-m", "entropy3d", "sheet", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module", params=["a4", "letter"])
def plan_pdf(request, tmp_path_factory):
    output = tmp_path_factory.mktemp("sheet") / f"lovers_point_{request.param}.pdf"
    done = sheet(LOVERS_POINT, "-o", output, "--paper", request.param)
    assert done.returncode == 0, done.stderr
    return request.param, output


def grid_positions(page, vertical: bool, span_pt: float) -> list[float]:
    """Distinct x (vertical) or y positions of straight lines at least ``span_pt`` long on the
    printed page (what lies outside it is clipped away)."""
    positions = set()
    for line in page.lines:
        if not (0 <= line["x0"] <= page.width and 0 <= line["top"] <= page.height):
            continue
        if vertical and abs(line["x0"] - line["x1"]) < 0.01 and abs(line["bottom"] - line["top"]) >= span_pt:
            positions.add(round(line["x0"], 2))
        if not vertical and abs(line["top"] - line["bottom"]) < 0.01 and abs(line["x1"] - line["x0"]) >= span_pt:
            positions.add(round(line["top"], 2))
    return sorted(positions)


def tile_range(page) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1) of the table a tile page shows, inches, read from its title."""
    found = re.search(r'x ([0-9.]+)-([0-9.]+)", y ([0-9.]+)-([0-9.]+)"', page.extract_text())
    return tuple(map(float, found.groups()))


def test_every_page_is_the_paper_size_and_the_table_is_covered(plan_pdf):
    """The overview is portrait; the tiles portrait or landscape, whichever needs fewer pages:
    Letter's 10" x 7" landscape tiles cover the 48" table in 35 pages where portrait 7" x 9" took 42."""
    paper, path = plan_pdf
    with pdfplumber.open(path) as pdf:
        portrait = tuple(round(v, 2) for v in PAGE_POINTS[paper])
        assert (round(float(pdf.pages[0].width), 2), round(float(pdf.pages[0].height), 2)) == portrait
        sizes = {(round(float(p.width), 2), round(float(p.height), 2)) for p in pdf.pages[1:]}
        assert sizes == {portrait if paper == "a4" else portrait[::-1]}
        assert len(pdf.pages) == 36
        assert "table plan" in pdf.pages[0].extract_text()
        # the tiles' inch ranges, read from each page's title, cover the 48" x 48" table exactly once
        ranges = [tile_range(page) for page in pdf.pages[1:]]
    covered = shapely.unary_union([shapely.box(x0, y0, x1, y1) for x0, x1, y0, y1 in ranges])
    total = sum((x1 - x0) * (y1 - y0) for x0, x1, y0, y1 in ranges)
    assert covered.area == pytest.approx(48 * 48) and total == pytest.approx(48 * 48)


def test_grid_lines_are_72_points_apart_a_printed_inch_per_table_inch(plan_pdf):
    paper, path = plan_pdf
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[1]
        page_width = float(page.width)
        # grid lines run the whole tile: at least 6" of it
        xs = grid_positions(page, vertical=True, span_pt=6 * 72 - 1)
        ys = grid_positions(page, vertical=False, span_pt=6 * 72 - 1)
    assert len(xs) >= 7 and len(ys) >= 7
    assert np.diff(xs) == pytest.approx(72.0, abs=0.02)
    assert np.diff(ys) == pytest.approx(72.0, abs=0.02)
    # the tile sits inside the page with room for the printer's margin
    assert xs[0] >= UNPRINTABLE_PT and xs[-1] <= page_width - UNPRINTABLE_PT


def test_labels_name_heights_levels_risk_and_the_cliff_EC_COL_EDGE_EC_DEST_1(plan_pdf):
    _, path = plan_pdf
    with pdfplumber.open(path) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages[1:])
    assert "CLIFF EDGE (south)" in text and "EC-COL-EDGE" in text
    assert "deployment edge" in text  # Lovers Point Brawl deploys from the cliff
    assert "destructible risk" in text
    assert 'high, level 2.52"' in text  # the diner: 0.12" curb + one 2.4" storey


def test_a_piece_no_bike_rides_on_gives_its_top_not_a_level(tmp_path):
    """A tree's or a crate's top is no level a bike can reach: the tile pages called it one."""
    from entropy3d.export.plan_marks import piece_lines
    from entropy3d.resources import bundled_dir
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import RIDDEN_KINDS, build_table_geometry

    table = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    kinds = set()
    for piece in build_table_geometry(table).pieces:
        if piece.kind == "zone":
            continue
        height = piece_lines(piece, table)[-1]
        kinds.add(piece.kind)
        if piece.kind in RIDDEN_KINDS:
            assert ", level " in height, (piece.id, height)
        else:
            assert ", top " in height and "level" not in height, (piece.id, height)
    assert {"building", "destructible"} <= kinds and kinds - set(RIDDEN_KINDS), kinds


@pytest.fixture(scope="module")
def bundled_sheets(tmp_path_factory) -> dict[tuple[str, str], object]:
    """Every bundled scene's plan on A4 and on Letter, written once for the tests below (through
    the library: the command line's own run is tested above)."""
    from entropy3d.export.plan_marks import table_plan
    from entropy3d.export.sheet import write_pdf
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    folder = tmp_path_factory.mktemp("bundled_sheets")
    written = {}
    for scene in BUNDLED:
        table = load_scene(ROOT / "scenes" / f"{scene}.yaml")
        plan = table_plan(table, build_table_geometry(table))
        for paper in PAGE_POINTS:
            written[(scene, paper)] = folder / f"{scene}_{paper}.pdf"
            write_pdf(plan, written[(scene, paper)], paper)
    return written


@functools.lru_cache(maxsize=None)
def read_pages(path) -> list[dict]:
    """Each page of a plan PDF as read back: its size, words, text, lines, filled triangles and
    (tile pages) the dashed cut rectangle and the table range of its title."""
    pages = []
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            cut = [r for r in page.rects if r["dash"] and list(r["dash"][0]) == [3, 3]]
            text = page.extract_text()
            pages.append({"number": number, "width": float(page.width), "height": float(page.height),
                          "words": page.extract_words(), "text": text, "lines": page.lines,
                          "triangles": [c for c in page.curves if len(c["pts"]) == 4 and c["fill"]],
                          "cut": cut[0] if number > 1 else None,
                          "range": tile_range(page) if number > 1 else None})
    return pages


def overlapping_words(words) -> list[tuple[str, str]]:
    """Pairs of words written over each other on a PDF page (their boxes overlap by more than
    a quarter point each way)."""
    return [(a["text"], b["text"]) for k, a in enumerate(words) for b in words[k + 1:]
            if min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 0.25
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.25]


@pytest.mark.parametrize("paper", list(PAGE_POINTS))
@pytest.mark.parametrize("scene", BUNDLED)
def test_no_word_is_written_over_another_on_any_page(scene, paper, bundled_sheets):
    """Page 1 shrinks the table 0.15:1: its page numbers stood in the middle of each tile, over
    the labels there ("3" over "town_west"), and labels of pieces side by side over each other
    ("police_barricade", "police_barrier"). On the 1:1 pages labels were written over the grid's
    numbers ("p3a8rk_lawn_east": park_lawn_east over "38") and over each other (crossroads page
    27: the offices' and the sidewalk's labels). Page numbers sit in the tiles' corners; a label
    that would cover another word moves beside it."""
    pages = read_pages(bundled_sheets[(scene, paper)])
    assert [(page["number"], overlapping_words(page["words"])) for page in pages
            if overlapping_words(page["words"])] == []
    overview = pages[0]["text"].split()
    for number in range(2, len(pages) + 1):
        assert str(number) in overview


@pytest.mark.parametrize("paper", list(PAGE_POINTS))
@pytest.mark.parametrize("scene", BUNDLED)
def test_no_label_crosses_a_cut_line_or_leaves_the_printable_area(scene, paper, bundled_sheets):
    """Every word of a tile page lies either inside its dashed cut line, clear of it by more
    than a hand cut wanders (1 mm), or wholly outside it (the title, "joins page N"); and every
    word of every page lies where a printer prints (0.25" from the paper's edges). Labels stood
    1.2 points from the cut line (crossroads page 14: park_lawn_east, page 21: the kicker's "ramp,")."""
    bad = []
    for page in read_pages(bundled_sheets[(scene, paper)]):
        printable = shapely.box(UNPRINTABLE_PT, UNPRINTABLE_PT, page["width"] - UNPRINTABLE_PT,
                                page["height"] - UNPRINTABLE_PT)
        for word in page["words"]:
            box = shapely.box(word["x0"], word["top"], word["x1"], word["bottom"])
            if not printable.contains(box):
                bad.append((page["number"], word["text"], "outside the printable area"))
            cut = page["cut"]
            if cut is None:
                continue
            inside = shapely.box(cut["x0"], cut["top"], cut["x1"], cut["bottom"])
            if box.intersects(inside) and not inside.buffer(-HAND_CUT_PT, join_style="mitre").contains(box):
                bad.append((page["number"], word["text"], "on the cut line"))
    assert bad == []


def footprint(piece):
    """A piece's outline from above as the scene builds it (shapely, inches)."""
    from entropy3d.scene.footprints import piece_footprints

    return shapely.unary_union([f.outline for f in piece_footprints(piece)])


@pytest.mark.parametrize("scene", ["crossroads", "ruined_highway"])
def test_a_piece_two_pages_show_is_named_on_both(scene, bundled_sheets):
    """A label stood only on the page of its piece's middle: crossroads page 20 showed most of
    the kicker's top end with its arrow and no name. Every page that shows 2 square inches or
    more of a ramp, a deck or a building names it."""
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    pieces = [p for p in build_table_geometry(load_scene(ROOT / "scenes" / f"{scene}.yaml")).pieces
              if p.kind in ("ramp", "platform", "building")]
    unnamed = []
    for page in read_pages(bundled_sheets[(scene, "a4")])[1:]:
        x0, x1, y0, y1 = page["range"]
        words = {word["text"] for word in page["words"]}
        for piece in pieces:
            shown = footprint(piece).intersection(shapely.box(x0, y0, x1, y1)).area
            if shown >= 2.0 and piece.id not in words:
                unnamed.append((page["number"], piece.id, round(shown, 1)))
    assert unnamed == []


def arrows(page) -> list:
    """The arrows drawn on a page (a filled triangle and the line ending at its tip) as shapely
    geometry in pdfplumber's page coordinates (y down)."""
    found = []
    for head in page["triangles"]:
        tip = np.array(head["pts"][0])
        shafts = [shapely.LineString(line["pts"]) for line in page["lines"]
                  if min(np.hypot(*(np.array(end) - tip)) for end in (line["pts"][0], line["pts"][-1])) < 0.5]
        found.append(shapely.unary_union([shapely.Polygon(head["pts"]), *shafts]))
    return found


@pytest.mark.parametrize("scene", BUNDLED)
def test_the_overview_writes_no_word_over_an_arrow(scene, bundled_sheets):
    """On the overview the kicker's up-slope arrow ran under its label (crossroads
    "street_kicker"): no word's box touches a ramp's arrow or a base's facing nose."""
    overview = read_pages(bundled_sheets[(scene, "a4")])[0]
    drawn = arrows(overview)
    assert any(arrow.length > 10 for arrow in drawn)  # the ramps' and the noses' arrows were found
    covered = [(word["text"], [round(c) for c in arrow.bounds]) for word in overview["words"] for arrow in drawn
               if shapely.box(word["x0"], word["top"], word["x1"], word["bottom"]).intersects(arrow)]
    assert covered == []


def test_the_legend_names_each_level_and_the_deck_is_hatched_in_its_colour(bundled_sheets):
    """The highway deck was filled grey like the ground, with no legend of levels. The overview
    names every level of the table (the levels map's names and heights), with a swatch; the 1:1
    page of highway_west hatches the deck in its level's swatch colour, and no line of that
    colour lies off the decks and roofs of that level (the ground around is bare paper)."""
    from entropy3d.look.levels import table_levels
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    geometry = build_table_geometry(load_scene(ROOT / "scenes" / "ruined_highway.yaml"))
    levels = table_levels(geometry)
    pages = read_pages(bundled_sheets[("ruined_highway", "a4")])
    overview = pages[0]
    text = " ".join(overview["text"].split())
    assert "Levels" in text
    for level in levels:
        height = f"{level.height_in:.2f}".rstrip("0").rstrip(".")
        assert f'{level.name}: level {height}"' in text or level.name in ("ground", "curb")
    deck_level = next(level for level in levels if "highway_west" in level.pieces)
    # the legend's swatch of the deck's level: the lines just left of its words
    first = deck_level.name.split()[0]
    entry = next(w for w in overview["words"] if w["text"] == first and w["top"] > overview["height"] * 0.6)
    swatch = {line["stroking_color"] for line in overview["lines"]
              if entry["x0"] - 30 <= line["x0"] and line["x1"] <= entry["x0"] - 3
              and entry["top"] - 8 <= line["top"] and line["bottom"] <= entry["bottom"] + 8}
    assert len(swatch) == 1, swatch
    colour, = swatch
    same_level = shapely.unary_union([footprint(geometry.by_id(piece_id)) for piece_id in deck_level.pieces])
    page = next(p for p in pages[1:] if "highway_west" in {w["text"] for w in p["words"]})
    x0, _, y0, _ = page["range"]
    cut = page["cut"]
    hatch = [line for line in page["lines"] if line["stroking_color"] == colour]
    assert len(hatch) >= 10
    for line in hatch:
        middle = shapely.Point(x0 + ((line["x0"] + line["x1"]) / 2 - cut["x0"]) / 72,
                               y0 + (cut["bottom"] - (line["top"] + line["bottom"]) / 2) / 72)
        assert same_level.buffer(0.05).contains(middle), (line["x0"], line["top"])


#: the old plan's solid grey fills inked 10-22% of every crossroads page (A4, pdftoppm at 50 dpi,
#: mean darkness; 16% on average); a page of plain text inks about 5%
INK_BOUND = 0.08


@pytest.mark.parametrize("scene, paper", [("crossroads", "a4"), ("ruined_highway", "letter")])
def test_pages_are_light_on_ink(scene, paper, bundled_sheets, tmp_path):
    """Outlines and hatching, not solid fills: no page, rendered as a printer prints it
    (pdftoppm), inks more than :data:`INK_BOUND` of its paper (mean darkness, 0 white, 1 black)."""
    assert shutil.which("pdftoppm"), "pdftoppm (Debian poppler-utils) is missing: run tools/system_deps"
    subprocess.run(["pdftoppm", "-r", "50", "-gray", str(bundled_sheets[(scene, paper)]), str(tmp_path / "page")],
                   check=True, timeout=300)
    ink = {picture.stem: 1.0 - np.asarray(Image.open(picture), float).mean() / 255
           for picture in sorted(tmp_path.glob("page-*.pgm"))}
    assert len(ink) == 36
    assert {page: round(value, 3) for page, value in ink.items() if value > INK_BOUND} == {}


def test_a_table_with_bare_ground_prints_only_the_pages_with_something_on_them(tmp_path):
    """A 48" table with one building and two bases in its south-west corner: a tile of bare
    ground has nothing to lay out, so the plan is the overview and the one tile that shows the
    corner (not 36 pages); the overview and the command say how many tiles were left out."""
    scene = tmp_path / "corner.yaml"
    scene.write_text("""name: Corner shop
table: {width: 48, depth: 48, ground: asphalt}
buildings:
  - {id: corner_shop, rect: [1, 3, 6, 6], storeys: 1}
gangs:
  hades: {name: Hades MC, colour: "#c0392b"}
  komodo: {name: Komodo, colour: "#27ae60"}
models:
  - {id: h1, gang: hades, bike: cruiser, position: [2, 1.5], facing: 0}
  - {id: k1, gang: komodo, bike: cruiser, position: [5, 1.5], facing: 0}
""")
    output = tmp_path / "corner.pdf"
    done = sheet(scene, "-o", output)
    assert done.returncode == 0, done.stderr
    # A4 portrait tiles are 7" x 10": the table needs 7 x 5 = 35 of them, 34 of them bare
    assert "2 A4 pages" in done.stdout and "34 of bare ground left out" in done.stdout
    with pdfplumber.open(output) as pdf:
        assert len(pdf.pages) == 2
        assert "34 tiles of bare ground" in " ".join(pdf.pages[0].extract_text().split())
        x0, x1, y0, y1 = tile_range(pdf.pages[1])
        assert "corner_shop" in pdf.pages[1].extract_text()
    assert x0 <= 1 and x1 >= 6 and y0 <= 0 and y1 >= 6


def test_starting_bases_are_labelled_with_their_riders(plan_pdf):
    """Players call their miniatures by the riders' names: a starting base says "Sgt Kane", then
    "police_1: City Police, police" on its 1:1 page (the overview: the name)."""
    _, path = plan_pdf
    with pdfplumber.open(path) as pdf:
        overview = pdf.pages[0].extract_text()
        pages = "\n".join(page.extract_text() for page in pdf.pages[1:])
    assert "Sgt Kane" in overview and "Brakes" in overview and "hades_1" not in overview
    assert "Sgt Kane" in pages and "police_1: City Police, police" in pages


def test_pages_render_to_pictures_with_something_on_them(plan_pdf, tmp_path):
    _, path = plan_pdf
    assert shutil.which("pdftoppm"), "pdftoppm (Debian poppler-utils) is missing: run tools/system_deps"
    subprocess.run(["pdftoppm", "-r", "30", "-png", "-f", "1", "-l", "2", str(path), str(tmp_path / "page")],
                   check=True, timeout=120)
    pictures = sorted(tmp_path.glob("page-*.png"))
    assert len(pictures) == 2
    for picture in pictures:
        pixels = np.asarray(Image.open(picture).convert("L"), float)
        assert pixels.std() > 20, picture.name  # not a blank page


def test_svg_is_the_whole_table_at_one_to_one_with_ramps_directions(tmp_path):
    output = tmp_path / "plan.svg"
    done = sheet(ROOT / "scenes" / "crossroads.yaml", "-o", output)
    assert done.returncode == 0, done.stderr
    root = ElementTree.parse(output).getroot()
    width_in = float(root.get("width").removesuffix("in"))
    _, _, view_width, _ = map(float, root.get("viewBox").split())
    units_per_inch = view_width / width_in
    assert 48 < width_in < 50
    namespace = "{http://www.w3.org/2000/svg}"
    xs = set()
    for line in root.iter(f"{namespace}polyline"):
        (x0, y0), (x1, y1) = [tuple(map(float, p.split(","))) for p in line.get("points").split()][:2]
        if math.isclose(x0, x1) and abs(y1 - y0) >= 47 * units_per_inch:
            xs.add(round(x0, 2))
    steps = np.diff(sorted(xs)) / units_per_inch
    assert len(xs) >= 49 and steps == pytest.approx(1.0, abs=1e-3)  # one line per table inch
    texts = [t.text for t in root.iter(f"{namespace}text")]
    assert "street_kicker" in texts and 'ramp, rises 1" towards the arrow' in texts


def test_bad_arguments_are_clean_errors_and_write_nothing(tmp_path):
    done = sheet(LOVERS_POINT, "-o", tmp_path / "plan.pdf", "--paper", "a3")
    assert done.returncode == 1 and "--paper 'a3'" in done.stderr and "a4, letter" in done.stderr
    done = sheet(LOVERS_POINT, "-o", tmp_path / "plan.png")
    assert done.returncode == 1 and ".pdf or .svg" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
