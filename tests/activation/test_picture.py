"""The activation picture (issue 19): a ramp jump, a roof landing, a deck-edge fall and a
destructible smash, each ridden by physics along the one path, drawn in three panels; the marks
are found in the picture by their key colour and compared with where the facts put them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from entropy3d.activation import profile
from entropy3d.activation.key import KEY, ColourKey
from entropy3d.activation.picture import (
    BACKGROUND,
    LEGEND_TOP,
    PROFILE_BOX,
    STILL_BOX,
    TOPDOWN_BOX,
    colours_in,
    draw_picture,
)
from entropy3d.activation.story import RideStory, distances_along
from entropy3d.game.step import activation
from entropy3d.geometry import Pose
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.words import Names

ROOT = Path(__file__).resolve().parents[2]
PROVING_GROUND = ROOT / "tests" / "physics" / "data" / "proving_ground.yaml"
ROOFTOPS = Path(__file__).parent / "data" / "rooftops.yaml"
#: how far (pixels) a mark may sit from where the facts put it
TOLERANCE_PX = 2.0

#: name -> (scene, model, plan, start (x, y, facing, speed) or None for the scene's)
CASES = {
    "ramp jump": (PROVING_GROUND, "jumper", "s3: straight 12", None),
    "roof landing": (ROOFTOPS, "flyer", "s3: straight 12", None),
    "deck-edge fall": (PROVING_GROUND, "jumper", "s3: straight 12", (16.0, 31.0, 90.0, 3)),
    "destructible smash": (PROVING_GROUND, "smasher", "s2: straight 12", None),
}


class Drawn:
    """One case ridden by physics and drawn."""

    def __init__(self, name: str):
        scene, model, plan, start = CASES[name]
        self.table = load_scene(scene)
        self.geometry = build_table_geometry(self.table)
        state = dataclasses.replace(self.table.initial_state(self.geometry.surface_height), turn=2)
        if start is not None:
            x, y, facing, speed = start
            z = float(self.geometry.surface_height([[x, y]])[0])
            state = state.with_model(state.model(model).but(pose=Pose(x, y, facing, z), speed=speed))
        producer = PhysicsProducer(self.table, self.geometry, rides_per_process=None)
        try:
            probe = SceneProbe.from_table(self.table, self.geometry)
            self.steps = activation(EntropyCityEngine(self.table.ruleset, probe), state, model, [plan],
                                    np.random.default_rng(3), producer, probe)
        finally:
            producer.close()
        self.story = RideStory.from_steps(self.steps, model, self.table.ruleset)
        cliffs = [edge for edge, kind in self.table.spec.table.edges.items() if kind == "cliff"]
        self.picture = draw_picture(self.table, self.geometry, self.story, Names.of_table(self.table), cliffs,
                                    backend="tiny")
        self.pixels = np.asarray(self.picture.image)

    def mark(self, name: str) -> np.ndarray:
        """(row, column) of every pixel in the profile's plot of the key colour ``name``."""
        axes = self.picture.axes
        box = self.pixels[axes.top:axes.top + axes.height + 1, axes.left:axes.left + axes.width + 1]
        rows, columns = np.nonzero(np.all(box == KEY[name][0], axis=2))
        return np.column_stack([rows + axes.top, columns + axes.left])

    def centre(self, name: str) -> np.ndarray:
        """(column, row) of the middle of the key colour ``name``'s pixels in the profile."""
        found = self.mark(name)
        assert len(found), f"no {name} mark in the profile"
        return np.array([found[:, 1].mean(), found[:, 0].mean()])


def _cache():
    cache: dict[str, Drawn] = {}

    def get(name: str) -> Drawn:
        if name not in cache:
            cache[name] = Drawn(name)
        return cache[name]

    return get


case = _cache()


@pytest.fixture(params=list(CASES))
def drawn(request) -> Drawn:
    return case(request.param)


def test_every_key_colour_in_the_panels_is_in_the_legend(drawn):
    """Each exact key colour found in the profile or the top-down panel has its legend line, and the
    legend lists no colour that is drawn nowhere."""
    legend = {name for name, _, _ in drawn.picture.legend}
    found = colours_in(drawn.picture.image, PROFILE_BOX) | colours_in(drawn.picture.image, TOPDOWN_BOX)
    for name, (rgb, _) in KEY.items():
        if rgb in found:
            assert name in legend, f"{name} {rgb} is drawn but not in the legend"
    drawn_anywhere = found | colours_in(drawn.picture.image, STILL_BOX)
    for name in legend:
        assert KEY[name][0] in drawn_anywhere, f"{name} is in the legend, drawn nowhere"


def test_the_3d_still_shows_the_ride_ribbon(drawn):
    """The 3D panel is rendered (not blank) and the ridden ribbon is visible in it."""
    left, top, right, bottom = STILL_BOX
    still = drawn.pixels[top:bottom, left:right].astype(int)
    assert still.std() > 20
    ridden = np.abs(still - KEY["ridden"][0]).max(axis=2) < 30
    assert ridden.sum() > 150, "the ridden ribbon is not in the 3D still"


def test_title_names_the_rider_and_the_plan(drawn):
    heading, outcome = drawn.picture.title
    rider = drawn.table.model(drawn.story.model_id).rider.name or drawn.story.model_id
    assert drawn.story.plan in heading and rider in heading and outcome


def test_EC_JUMP_1_ramp_jump_peak_touchdown_and_rules_landing_where_the_facts_put_them():
    """Clause: EC-JUMP-1, EC-JUMP-4. Off the broken end at speed 3: the peak dot at the facts' launch
    height plus rise, the touchdown dot at the facts' landing, the rules' landing at the jump
    event's EC-JUMP-4 distance and level, each within 2 px."""
    ramp = case("ramp jump")
    flight = ramp.story.flight
    assert flight is not None and flight.from_kind == "ramp" and flight.landed
    axes = ramp.picture.axes
    peak = ramp.story.peak()
    assert np.allclose(ramp.centre("peak"), axes.px(peak.distance_in, flight.launch_z + flight.rise_in),
                       atol=TOLERANCE_PX)
    assert np.allclose(ramp.centre("touchdown"), axes.px(flight.land_progress_in, flight.land_z), atol=TOLERANCE_PX)
    assert np.allclose(ramp.centre("take-off"), axes.px(flight.launch_progress_in, flight.launch_z),
                       atol=TOLERANCE_PX)
    jump = next(e for s in ramp.steps for e in s.events if e.kind == "jump" and "landing_xy" in e.figures)
    assert "EC-JUMP-4" in jump.clauses
    _assert_rules_landing(ramp, jump.figures["landing_in"], jump.figures["landing_level_in"])


def _assert_rules_landing(drawn: Drawn, landing_in: float, level_in: float) -> None:
    """The rules' landing line stands at EC-JUMP-4's distance; its diamond is widest at the level."""
    axes = drawn.picture.axes
    found = drawn.mark("rules landing")
    column, row = axes.px(landing_in, level_in)
    assert abs(np.median(found[:, 1]) - column) <= TOLERANCE_PX
    widths = {r: int((found[:, 0] == r).sum()) for r in np.unique(found[:, 0])}
    widest = [r for r, w in widths.items() if w == max(widths.values())]
    assert abs(float(np.mean(widest)) - row) <= TOLERANCE_PX


def test_EC_JUMP_4_roof_landing_comes_down_on_the_roof_and_the_rules_land_it_on_the_roof_level():
    """Clause: EC-JUMP-2, EC-JUMP-4. Off the kicker onto the shop roof (2"): physics comes down on
    the roof (touchdown dot at the facts' landing), the rules' landing is on the 2" level at the
    EC-JUMP-4 distance, and the outcome says Air Time and how far is still to fly."""
    roof = case("roof landing")
    flight = roof.story.flight
    assert flight.landed and flight.land_z == pytest.approx(2.0, abs=0.1)
    axes = roof.picture.axes
    assert np.allclose(roof.centre("touchdown"), axes.px(flight.land_progress_in, flight.land_z), atol=TOLERANCE_PX)
    peak = roof.story.peak()
    assert np.allclose(roof.centre("peak"), axes.px(peak.distance_in, flight.launch_z + flight.rise_in),
                       atol=TOLERANCE_PX)
    landing = roof.story.rules_landing()
    assert landing.level_in == pytest.approx(2.0)
    _assert_rules_landing(roof, landing.distance_in, landing.level_in)
    carry = next(e.figures["carry_in"] for s in roof.steps for e in s.events if "carry_in" in e.figures)
    assert f"{carry:.1f}\" still to fly, lands in its next activation" in roof.picture.title[1]
    assert roof.picture.title[1].startswith("Air Time")


def test_deck_edge_fall_touchdown_on_the_ground_and_no_peak():
    """Off the deck's north side: the flight only falls, so there is no peak mark; the touchdown dot
    is at the facts' landing on the ground, 2" under the take-off."""
    fall = case("deck-edge fall")
    flight = fall.story.flight
    assert flight is not None and flight.from_piece == "highway_a" and flight.landed
    assert flight.launch_z - flight.land_z > 1.5
    axes = fall.picture.axes
    assert len(fall.mark("peak")) == 0
    assert np.allclose(fall.centre("touchdown"), axes.px(flight.land_progress_in, flight.land_z), atol=TOLERANCE_PX)
    assert np.allclose(fall.centre("take-off"), axes.px(flight.launch_progress_in, flight.launch_z),
                       atol=TOLERANCE_PX)


def test_EC_DEST_2_destructible_smash_is_marked_where_the_bike_went_through():
    """Clause: EC-DEST-2, EC-DEST-3. Through the bench at speed 2: the smash mark stands at the
    facts' distance along the path, and the rules' end square where the rules left the bike."""
    smash = case("destructible smash")
    hit = smash.story.facts.scenery[0]
    assert hit.piece_id == "bench1"
    assert any(e.kind == "destructible" for s in smash.steps for e in s.events)
    axes = smash.picture.axes
    column, _ = smash.centre("smashed")
    assert abs(column - axes.px(hit.progress_in, 0.0)[0]) <= TOLERANCE_PX
    end = smash.story.end
    end_column, end_row = axes.px(distances_along(smash.story.path, [end.xy])[0], end.z)
    assert np.allclose(smash.centre("end"), (end_column, end_row), atol=TOLERANCE_PX)


def test_the_profile_names_what_was_smashed_as_the_title_does(monkeypatch):
    """Clause: EC-DEST-2. The smash mark's label reads "through bench 1", as the outcome line
    names scenery, not the scene id "bench1" (the two disagreed in one picture)."""
    smash = case("destructible smash")
    labels: list[str] = []
    drawing = profile._label
    monkeypatch.setattr(profile, "_label", lambda draw, at, text, *args, **kwargs:
                        labels.append(text) or drawing(draw, at, text, *args, **kwargs))
    canvas = Image.new("RGB", (PROFILE_BOX[2] - PROFILE_BOX[0] + 1, PROFILE_BOX[3] - PROFILE_BOX[1] + 1))
    profile.draw_profile(ImageDraw.Draw(canvas), smash.geometry, smash.story, ColourKey("physics"),
                         (0, 0, canvas.size[0] - 1, canvas.size[1] - 1), Names.of_table(smash.table))
    assert "through bench 1" in labels and not any("bench1" in label for label in labels)


def test_the_keys_first_swatch_stands_clear_of_its_title():
    """The key's title and its first swatch touched ("panels):" ran into the square)."""
    pixels = case("ramp jump").pixels[LEGEND_TOP:LEGEND_TOP + 20]
    first = case("ramp jump").picture.legend[0][1]
    swatch_columns = np.nonzero(np.all(pixels == first, axis=2).any(axis=0))[0]
    outline = swatch_columns.min() - 1  # the swatch's black outline
    assert np.all(pixels[:, outline - 12:outline] == BACKGROUND)


def test_the_picture_is_a_readable_size():
    image: Image.Image = case("ramp jump").picture.image
    assert image.size[0] == 1680 and 1100 < image.size[1] < 1300


def test_the_key_names_the_producer_that_rode_the_flight():
    """A geometric ride's picture says its flight and snap are the geometric producer's, not
    physics' (the key named physics whoever rode)."""
    for producer in ("physics", "geometric"):
        key = ColourKey(producer)
        for name in ("flight", "touchdown", "snap", "ridden"):
            key.colour(name)
        meanings = {name: meaning for name, _, meaning in key.entries()}
        assert meanings["flight"] == f"in the air ({producer})"
        assert meanings["touchdown"] == f"touchdown ({producer})"
        assert meanings["snap"] == f"snap from {producer} to the rules' place"
        assert meanings["ridden"] == "ridden on the wheels"


def test_piece_labels_stay_inside_the_top_down_panel_clear_of_its_title_grid_numbers_and_scale_bar():
    """A piece whose middle is just inside the panel's edge keeps its label, moved inside: not
    cut by the edge, written over the grid's numbers or the title, or over the scale bar."""
    from entropy3d.activation.overhead import Canvas
    from entropy3d.activation.topdown_panel import (
        GRID_NUMBERS_PX,
        LABEL_HALF_PX,
        TITLE_BAND_PX,
        _scale_bar_box,
        label_places,
    )

    table = load_scene(ROOT / "scenes" / "ruined_highway.yaml")
    geometry = build_table_geometry(table)
    wreck = next(p for p in geometry.pieces if p.id.split("/")[0] == "sand_car_wreck")
    middle = (wreck.mesh.bounds[0][:2] + wreck.mesh.bounds[1][:2]) / 2
    width_of = lambda text: 7.0 * len(text)  # noqa: E731
    for region, kept in (((middle[0] - 10, middle[1] - 0.05, middle[0] + 20, middle[1] + 20), True),  # bottom
                         ((middle[0] - 10, middle[1] - 20, middle[0] + 20, middle[1] + 0.05), True),  # top
                         ((middle[0] - 26, middle[1] - 2, middle[0] + 4, middle[1] + 18), False)):  # on the bar
        canvas = Canvas(geometry.width, geometry.depth, 20.0, region)
        places = label_places(canvas, geometry, {}, width_of)
        assert ("sand_car_wreck" in [name for name, _, _ in places]) == kept
        bar = _scale_bar_box(canvas)
        for name, left, mid in places:
            assert 0 <= left and left + width_of(name) <= canvas.size[0]
            assert TITLE_BAND_PX <= mid - LABEL_HALF_PX and mid + LABEL_HALF_PX <= canvas.size[1] - GRID_NUMBERS_PX
            assert not (left < bar[2] and bar[0] < left + width_of(name) and mid - LABEL_HALF_PX < bar[3]
                        and bar[1] < mid + LABEL_HALF_PX), f"{name} over the scale bar"
