"""``entropy3d sheet``: the table plan at 1:1 on A4 or Letter pages and as one SVG sheet.

The page geometry and the grid are read back from the written files (pdfplumber parses the PDF's
drawing operators; the SVG is XML), not taken from the module's own constants: a printed page
must measure 1" per table inch (72 PDF points per inch).
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np
import pdfplumber
import pytest
from PIL import Image

from tests.export.conftest import ROOT

LOVERS_POINT = ROOT / "scenes" / "lovers_point.yaml"
#: ISO 216 A4 (210 x 297 mm) and US Letter (8.5 x 11 in), in points (1/72 inch)
PAGE_POINTS = {"a4": (595.276, 841.890), "letter": (612.0, 792.0)}


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


def test_every_page_is_the_paper_size_and_the_table_is_covered(plan_pdf):
    paper, path = plan_pdf
    with pdfplumber.open(path) as pdf:
        sizes = {(round(float(p.width), 2), round(float(p.height), 2)) for p in pdf.pages}
        assert sizes == {tuple(round(v, 2) for v in PAGE_POINTS[paper])}
        assert "table plan" in pdf.pages[0].extract_text()
        # the tiles' inch ranges, read from each page's title, cover the 48" x 48" table exactly once
        covered = 0.0
        for page in pdf.pages[1:]:
            found = re.search(r'x ([0-9.]+)-([0-9.]+)", y ([0-9.]+)-([0-9.]+)"', page.extract_text())
            x0, x1, y0, y1 = map(float, found.groups())
            covered += (x1 - x0) * (y1 - y0)
        assert covered == pytest.approx(48 * 48)


def test_grid_lines_are_72_points_apart_a_printed_inch_per_table_inch(plan_pdf):
    paper, path = plan_pdf
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[1]
        # grid lines run the whole tile: at least 6" of it
        xs = grid_positions(page, vertical=True, span_pt=6 * 72 - 1)
        ys = grid_positions(page, vertical=False, span_pt=6 * 72 - 1)
    assert len(xs) >= 7 and len(ys) >= 7
    assert np.diff(xs) == pytest.approx(72.0, abs=0.02)
    assert np.diff(ys) == pytest.approx(72.0, abs=0.02)
    # the tile sits inside the page with room for the printer's margin
    assert xs[0] >= 18 and xs[-1] <= PAGE_POINTS[paper][0] - 18


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
    from entropy3d.export.plan import piece_lines
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


def overlapping_words(page) -> list[tuple[str, str]]:
    """Pairs of words written over each other on a PDF page (their boxes overlap by more than
    a quarter point each way)."""
    words = page.extract_words()
    return [(a["text"], b["text"]) for k, a in enumerate(words) for b in words[k + 1:]
            if min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 0.25
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.25]


@pytest.mark.parametrize("scene", ["lovers_point", "crossroads", "ruined_highway"])
def test_the_overview_writes_no_label_or_page_number_over_another(scene, tmp_path):
    """Page 1 shrinks the table 0.15:1: its page numbers stood in the middle of each tile, over
    the labels there ("3" over "town_west"), and labels of pieces side by side over each other
    ("police_barricade", "police_barrier"). Page numbers sit in the tiles' corners; a label
    that would cover another moves beside it."""
    output = tmp_path / f"{scene}.pdf"
    assert sheet(ROOT / "scenes" / f"{scene}.yaml", "-o", output).returncode == 0
    with pdfplumber.open(output) as pdf:
        overview = pdf.pages[0]
        assert overlapping_words(overview) == []
        text = overview.extract_text()
    for number in range(2, 2 + len(pdf.pages) - 1):
        assert str(number) in text.split()


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
