"""`entropy3d render --levels`: every walkable surface coloured by its height level, with a legend,
and each ramp marked with where it leads."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from entropy3d.look.levels import table_levels
from entropy3d.render.levels_map import ramp_leads
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry

RUINED_HIGHWAY = bundled_dir("scenes") / "ruined_highway.yaml"


@pytest.fixture
def drawn_text(monkeypatch) -> dict[str, tuple]:
    """Every text the map draws from now on -> its box in the picture (pixels), read as drawn."""
    from PIL import ImageDraw

    text = ImageDraw.ImageDraw.text
    boxes: dict[str, tuple] = {}

    def recorded(self, xy, words, *args, **kwargs):
        boxes[words] = self.textbbox(xy, words, font=kwargs.get("font"))
        return text(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    return boxes


def test_levels_of_the_ruined_highway_and_where_its_ramps_lead():
    table = load_scene(RUINED_HIGHWAY)
    geometry = build_table_geometry(table)
    levels = table_levels(geometry)
    assert levels[0].name == "ground" and levels[0].height_in == 0.0
    heights = [level.height_in for level in levels]
    assert heights == sorted(heights)
    deck = next(level for level in levels if "highway_west" in level.pieces)
    assert deck.height_in == 4.0 and "deck" in deck.name and {"highway_east", "depot", "market"} <= set(deck.pieces)
    leads = {ramp_id: (foot, top) for ramp_id, _, _, foot, top in ramp_leads(table.spec.ramps, geometry, levels)}
    assert leads["embankment"][0].name == "ground" and leads["embankment"][1] is deck
    assert leads["market_ramp"][1] is deck
    assert leads["gap_kicker"][0] is deck and leads["gap_kicker"][1] is None, "a kicker leads nowhere: a jump"


def test_render_levels_writes_the_map_with_every_level_colour(tmp_path):
    out = tmp_path / "levels.png"
    done = subprocess.run([sys.executable, "-m", "entropy3d", "render", str(RUINED_HIGHWAY), "--levels", "-o",
                           str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "ground" in done.stdout and "deck / roof" in done.stdout
    table = load_scene(RUINED_HIGHWAY)
    pixels = np.asarray(Image.open(out).convert("RGB"))
    map_part = pixels[:, : pixels.shape[1] - 360]
    for level in table_levels(build_table_geometry(table)):
        found = np.all(map_part == level.colour, axis=2).sum()
        assert found > 400, f"{level.name} is in the legend but hardly on the map ({found} px)"


@pytest.mark.parametrize("scene", ["car_chase", "rooftop_skirmish"])
def test_a_systems_table_with_cars_or_figures_on_foot_draws_its_levels_map(scene, tmp_path):
    """The landings of a kicker are worked for the bikes on the table: a chase's cars and van are
    no bike type (the map of scenes/systems/car_chase.yaml raised "unknown bike type
    'police_car'"), and a skirmish's figures on foot ride nothing."""
    from entropy3d.render.levels_map import draw_levels

    table = load_scene(bundled_dir("scenes") / "systems" / f"{scene}.yaml")
    draw_levels(table, build_table_geometry(table), tmp_path / "levels.png")
    assert (tmp_path / "levels.png").stat().st_size > 10_000


def test_every_ramp_label_stays_on_the_map(tmp_path, drawn_text):
    """A label beside the market ramp (at the table's east edge) ran past the map into the
    legend's column; each ramp's words now stand within the map's width."""

    from entropy3d.render.levels_map import MARGIN_PX, draw_levels

    table = load_scene(RUINED_HIGHWAY)
    geometry = build_table_geometry(table)
    boxes = drawn_text
    draw_levels(table, geometry, tmp_path / "levels.png")
    labels = {words: box for words, box in boxes.items() if words.split(":")[0] in {r.id for r in table.spec.ramps}}
    assert len(labels) == len(table.spec.ramps) == 3
    for words, (left, _, right, _) in labels.items():
        assert MARGIN_PX <= left and right <= MARGIN_PX + 16.0 * table.width, words


def test_a_concave_piece_is_drawn_without_seams_across_it(tmp_path):
    """The crossroads' park sidewalk is an L: its convex parts' own edges drew black seams across
    the band; only the L's outline is drawn, so a row through the band's middle is all curb."""
    from entropy3d.render.levels_map import MARGIN_PX, draw_levels

    crossroads = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    geometry = build_table_geometry(crossroads)
    levels = draw_levels(crossroads, geometry, tmp_path / "levels.png")
    pixels = np.asarray(Image.open(tmp_path / "levels.png").convert("RGB"))
    curb = next(level for level in levels if "park_sidewalk" in level.pieces)
    row = int(round(MARGIN_PX + 30 + (crossroads.depth - 27.125) * 16.0))  # y 26.5..27.75: the south arm
    band = pixels[row, int(MARGIN_PX + 29.0 * 16):int(MARGIN_PX + 47.0 * 16)]
    assert np.all(band == curb.colour)


def test_each_ramps_label_lies_beside_its_ramp_and_over_no_raised_piece(tmp_path, drawn_text):
    """Issue 48: the market ramp's label sat over the roof-3 warehouse, its centre ~9" from the
    ramp, and read as the warehouse's. On every bundled table each ramp's words, as drawn, lie
    within 3" of the ramp's footprint and cover no roof or deck but the one the ramp stands on (a
    kicker on a deck; a railing along a deck's edge may run under the words)."""
    import shapely

    from entropy3d.render.levels_map import MARGIN_PX, draw_levels
    from entropy3d.scene.footprints import footprints_of

    boxes = drawn_text
    checked = 0
    for scene in sorted(bundled_dir("scenes").glob("*.yaml")):
        table = load_scene(scene)
        geometry = build_table_geometry(table)
        boxes.clear()
        draw_levels(table, geometry, tmp_path / "levels.png")
        footprints = footprints_of(geometry)
        for ramp in table.spec.ramps:
            words, (left, top, right, bottom) = next((w, b) for w, b in boxes.items() if w.startswith(ramp.id + ":"))
            # the map's pixels back to table inches (16 px an inch, y up from the map's foot)
            x0, x1 = (left - MARGIN_PX) / 16.0, (right - MARGIN_PX) / 16.0
            y0, y1 = table.depth - (bottom - MARGIN_PX - 30) / 16.0, table.depth - (top - MARGIN_PX - 30) / 16.0
            label = shapely.box(x0, y0, x1, y1)
            ramp_outline = shapely.union_all([f.outline for f in footprints if f.piece_id == ramp.id])
            assert label.distance(ramp_outline) <= 3.0, (scene.name, words)
            covered = [f.piece_id for f in footprints if f.kind in ("building", "platform") and f.piece_id != ramp.id
                       and label.intersection(f.outline).area > 0.05
                       and f.outline.intersection(ramp_outline).area < 0.05]  # not what it stands on
            assert not covered, (scene.name, words, covered)
            checked += 1
    # the kickers of crossroads, its package run, its VIP takedown, its Grab n Go, its Jailbreak,
    # its Rescue & Survive and its Corners, ruined highway's three (lovers point's is a mesh; Hoon
    # Hour's ring road has none)
    assert checked == 10


def test_each_roof_and_deck_is_named_on_itself(tmp_path, drawn_text):
    """Issue 48: the levels map left roofs unnamed (the legend names levels, not pieces). Each
    building and deck of the bundled tables has its id written inside its own outline, clear of
    the ramps drawn over a deck; one under 4" across (the 3" bridges between the depot and the
    garage and market) may go unnamed, its id being wider than it is."""
    import shapely

    from entropy3d.render.levels_map import MARGIN_PX, draw_levels
    from entropy3d.scene.footprints import footprints_of

    boxes = drawn_text
    for scene in ("crossroads.yaml", "ruined_highway.yaml"):
        table = load_scene(bundled_dir("scenes") / scene)
        geometry = build_table_geometry(table)
        boxes.clear()
        draw_levels(table, geometry, tmp_path / "levels.png")
        footprints = footprints_of(geometry)
        ramps = shapely.union_all([f.outline for f in footprints if f.kind == "ramp"])
        pieces = {f.piece_id for f in footprints if f.kind in ("building", "platform") and "/" not in f.piece_id}
        assert len(pieces) >= 8
        for piece in sorted(pieces):
            outline = shapely.union_all([f.outline for f in footprints if f.piece_id == piece])
            x0, _, x1, _ = outline.bounds
            if x1 - x0 < 4.0 and piece not in boxes:
                continue
            assert piece in boxes, (scene, piece)
            left, top, right, bottom = boxes[piece]
            label = shapely.box((left - MARGIN_PX) / 16.0, table.depth - (bottom - MARGIN_PX - 30) / 16.0,
                                (right - MARGIN_PX) / 16.0, table.depth - (top - MARGIN_PX - 30) / 16.0)
            assert outline.buffer(0.05).contains(label), (scene, piece)
            assert label.intersection(ramps).area < 0.01, (scene, piece)


def _written(monkeypatch) -> list[tuple[str, tuple]]:
    """Every text the map draws from now on, in order, with its box in the picture (pixels);
    a list, as many labels say the same words."""
    from PIL import ImageDraw

    text = ImageDraw.ImageDraw.text
    found: list[tuple[str, tuple]] = []

    def recorded(self, xy, words, *args, **kwargs):
        found.append((words, self.textbbox(xy, words, font=kwargs.get("font"), anchor=kwargs.get("anchor"))))
        return text(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    return found


def _inches(box, table):
    """A box of the map's pixels (16 px an inch, y up from the map's foot) in table inches."""
    import shapely

    from entropy3d.render.levels_map import MARGIN_PX

    left, top, right, bottom = box
    return shapely.box((left - MARGIN_PX) / 16.0, table.depth - (bottom - MARGIN_PX - 30) / 16.0,
                       (right - MARGIN_PX) / 16.0, table.depth - (top - MARGIN_PX - 30) / 16.0)


def test_where_a_jump_off_the_gap_kicker_lands_is_drawn_where_the_rules_land_it(tmp_path, monkeypatch):
    """Issue 48: the levels map did not show where the gap kicker lands. By hand from the scene and
    the rules data: the kicker starts at (19, 32.5) heading east, 3" long, so a bike takes off from
    its top end at x = 22 (where the level falls away) and flies straight on east. EC-JUMP-4 lands
    it its speed's maximum distance on: speed 2's max is 12", +1 for a trailbike, -2 for a scooter;
    speed 3's 16", -2 for a scooter. Ruined Highway rides trailbikes, a quad, sportsbikes and a
    scooter, so speed 2 lands 10..13" on (x 32..35) and speed 3 14..16" (x 36..38), both on
    highway_east. The map lays each span over the deck; a row through it (off the flight's dashed
    line) is lit there and nowhere else, each span's words lie within 3" of it over no other raised
    piece, and the rules engine itself, riding a trailbike off the kicker, lands where the span's
    far end is."""
    import dataclasses

    from entropy3d.render.levels_map import MARGIN_PX, draw_levels

    table = load_scene(RUINED_HIGHWAY)
    geometry = build_table_geometry(table)
    written = _written(monkeypatch)
    levels = draw_levels(table, geometry, tmp_path / "levels.png")
    pixels = np.asarray(Image.open(tmp_path / "levels.png").convert("RGB")).astype(int)
    deck = next(level for level in levels if "highway_east" in level.pieces)
    row = int(round(MARGIN_PX + 30 + (table.depth - 33.2) * 16.0))
    xs = np.arange(28.5, 40.5, 1 / 16.0)
    lit = [x for x in xs if pixels[row, int(MARGIN_PX + x * 16.0)].sum() > sum(deck.colour) + 60]
    assert lit, "no landing laid over highway_east"
    runs = np.split(np.asarray(lit), np.flatnonzero(np.diff(lit) > 0.2) + 1)
    assert [(run[0], run[-1]) for run in runs] == [pytest.approx((32.0, 35.0), abs=0.15),
                                                   pytest.approx((36.0, 38.0), abs=0.15)], lit

    from entropy3d.game.step import activation
    from entropy3d.geometric import GeometricProducer
    from entropy3d.render.level_marks import landing_spans
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine

    spans = {span.speed: span for span in landing_spans(table, ramp_leads(table.spec.ramps, geometry, levels))}
    assert [(spans[s].near_in, spans[s].far_in) for s in (2, 3)] == [(10.0, 13.0), (14.0, 16.0)]
    for speed, box in ((2, "speed 2 lands 10–13\""), (3, "speed 3 lands 14–16\"")):
        label = _inches(next(b for words, b in written if words == box), table)
        assert label.distance(spans[speed].outline()) <= 3.0, box
        assert label.intersection(spans[speed].outline()).area < 0.01, box
        for piece in ("depot", "highway_west", "gap_kicker", "embankment"):
            assert label.intersection(shapely_outline(geometry, piece)).area < 0.05, (box, piece)

    probe = SceneProbe.from_table(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    for speed, plan in ((2, "s2: straight 12"), (3, "s3: straight 16")):  # mutiny_3: a trailbike on highway_west
        rider = state.model("mutiny_3").but(speed=speed)
        steps = activation(EntropyCityEngine(table.ruleset), state.with_model(rider), "mutiny_3", [plan],
                           np.random.default_rng(5), GeometricProducer(table, geometry, probe))
        (jump,) = [e for s in steps for e in s.events if e.kind == "jump" and e.figures.get("air_time")]
        far = spans[speed].point(spans[speed].by_bike_type["trailbike"])
        assert np.hypot(*(np.asarray(jump.figures["landing_xy"]) - far)) < 0.3, (speed, jump.figures)


def shapely_outline(geometry, piece_id):
    import shapely

    from entropy3d.scene.footprints import footprints_of

    return shapely.union_all([f.outline for f in footprints_of(geometry) if f.piece_id == piece_id])


#: Ruined Highway's drop edges, by hand from its YAML: the 4" decks and roofs a bike gets onto
#: (the highway up the embankment, the depot, garage and market joined to it, the market down its
#: ramp) where no railing runs (the highway's and the bridges' long sides have them), no bridge,
#: ramp or deck of the same height joins, and the table's own edge is not it
RUINED_HIGHWAY_DROPS = [
    ("highway_west", (22, 30), (22, 35)), ("highway_east", (28, 30), (28, 35)),
    ("depot", (41, 28), (41, 30)), ("depot", (41, 35), (41, 40)), ("depot", (41, 28), (43, 28)),
    ("depot", (46, 28), (48, 28)), ("depot", (41, 40), (43, 40)), ("depot", (46, 40), (48, 40)),
    ("garage", (35, 44), (35, 48)), ("garage", (35, 44), (43, 44)), ("garage", (46, 44), (48, 44)),
    ("market", (40, 14), (40, 24)), ("market", (40, 14), (42, 14)), ("market", (46, 14), (48, 14)),
    ("market", (40, 24), (43, 24)), ("market", (46, 24), (48, 24)),
]


def test_every_drop_edge_of_the_ruined_highway_is_marked_with_its_height(tmp_path, monkeypatch):
    """Issue 48: the deck drop edges were not marked. Each edge of RUINED_HIGHWAY_DROPS is drawn
    in the drop colour along its middle and has a '↓4.0"' label within 3" of it (one label an
    edge, sixteen in all, none over a ramp or a roof of another height); a railed side, a bridge's
    side and the depot's side on the table's edge carry no drop mark."""
    import shapely

    from entropy3d.render.levels_map import MARGIN_PX, draw_levels

    table = load_scene(RUINED_HIGHWAY)
    geometry = build_table_geometry(table)
    written = _written(monkeypatch)
    draw_levels(table, geometry, tmp_path / "levels.png")
    pixels = np.asarray(Image.open(tmp_path / "levels.png").convert("RGB"))

    def marked(a, b) -> bool:
        x, y = (np.asarray(a, float) + np.asarray(b, float)) / 2
        column, row = int(MARGIN_PX + x * 16.0), int(MARGIN_PX + 30 + (table.depth - y) * 16.0)
        near = pixels[row - 2:row + 3, column - 2:column + 3].reshape(-1, 3)
        return bool(np.any(np.all(near == DROP_RGB, axis=1)))

    labels = [_inches(box, table) for words, box in written if words == "↓4.0\""]
    assert len(labels) == len(RUINED_HIGHWAY_DROPS)
    from entropy3d.render.levels_map import DROP_RGB
    for piece, a, b in RUINED_HIGHWAY_DROPS:
        assert marked(a, b), (piece, a, b)
        assert min(label.distance(shapely.LineString([a, b])) for label in labels) <= 3.0, (piece, a, b)
    for piece in ("gap_kicker", "embankment", "market_ramp", "burnt_flats", "gutted_offices", "warehouse"):
        assert all(label.intersection(shapely_outline(geometry, piece)).area < 0.05 for label in labels), piece
    for a, b in (((16, 35), (21, 35)), ((30, 30), (40, 30)), ((43, 25), (43, 27)), ((48, 30), (48, 38))):
        assert not marked(a, b), ("a railed or table edge marked as a drop", a, b)


def test_each_landings_words_lie_beside_it_and_over_no_other_raised_piece(tmp_path, monkeypatch):
    """On every bundled table each kicker's landing span at each speed with air time has its words
    within 3" of it, clear of it (so it stays seen) and of every roof, deck and ramp but the one
    it lands on."""
    from entropy3d.render.level_marks import landing_spans
    from entropy3d.render.levels_map import draw_levels, landing_label
    from entropy3d.scene.footprints import footprints_of

    written = _written(monkeypatch)
    checked = 0
    for scene in sorted(bundled_dir("scenes").glob("*.yaml")):
        table = load_scene(scene)
        geometry = build_table_geometry(table)
        written.clear()
        levels = draw_levels(table, geometry, tmp_path / "levels.png")
        raised = [f for f in footprints_of(geometry) if f.kind in ("building", "platform", "ramp")]
        for span in landing_spans(table, ramp_leads(table.spec.ramps, geometry, levels)):
            outline = span.outline()
            label = _inches(next(box for words, box in written if words == landing_label(span)), table)
            assert label.distance(outline) <= 3.0 and label.intersection(outline).area < 0.01, (scene.name, span)
            covered = {f.piece_id for f in raised if label.intersection(f.outline).area > 0.05
                       and f.outline.intersection(outline).area < 0.05}
            assert not covered, (scene.name, landing_label(span), covered)
            checked += 1
    # two speeds off each of the eight bundled kickers drawn from YAML: the crossroads' and its six
    # copies' (package run, VIP takedown, Grab n Go, Jailbreak, Rescue & Survive, Corners), and
    # ruined highway's gap kicker
    assert checked == 16
