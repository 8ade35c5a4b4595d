"""The viewer's questions to the table, headless: picking under the mouse, standing a dragged
model on the level under it, measuring, and the selection's sight labels and panel."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.game.replay import load_source
from entropy3d.geometry import Pose
from entropy3d.viewer.marks import pixel_of_point, ruler_ticks
from entropy3d.viewer.questions import GROUND_SAMPLE_IN, SURFACE_SLACK_IN, TableQuestions
from tests.los.shooting import shoots

OFFICES_CENTRE = (32.5, 17.5)


@pytest.fixture(scope="module")
def crossroads():
    table, geometry, _ = load_source(None)
    questions = TableQuestions(table, geometry)
    state = table.initial_state(geometry.surface_height)
    return questions, state, {m.id: m.pose for m in state.models.values()}


def down(x, y):
    return np.array([x, y, 100.0]), np.array([x, y, -1.0])


def test_click_on_a_model_picks_it_and_a_drag_ignores_models(crossroads):
    questions, _, poses = crossroads
    pose = poses["komodo_1"]
    assert questions.pick(*down(pose.x, pose.y), poses).what == "komodo_1"
    under = questions.pick(*down(pose.x, pose.y), poses, models=False)
    assert under is not None and under.what != "komodo_1" and under.point[2] < 0.5


def test_a_model_dragged_over_a_roof_stands_on_the_roof(crossroads):
    questions, _, poses = crossroads
    hit = questions.pick(*down(*OFFICES_CENTRE), poses, models=False)
    assert hit.what == "offices"
    pose = questions.stand(hit.point, 90.0)
    roof = float(questions.geometry.surface_height([OFFICES_CENTRE])[0])
    assert pose.z == pytest.approx(roof) and roof > 5.0
    assert (pose.x, pose.y, pose.facing_deg) == pytest.approx((*OFFICES_CENTRE, 90.0))


def test_a_ray_meeting_a_wall_stands_the_model_at_its_foot(crossroads):
    """Pointing at the offices' west wall from the street: the model stays on the street."""
    questions, _, poses = crossroads
    hit = questions.pick(np.array([25.0, 17.5, 1.5]), np.array([40.0, 17.5, 1.5]), poses, models=False)
    assert hit.what == "offices" and hit.point[0] == pytest.approx(27.5, abs=0.05)
    level = questions.level_at(hit.point)
    expected = questions.geometry.surface_height([hit.point[:2]], below=hit.point[2] + SURFACE_SLACK_IN)[0]
    assert level == pytest.approx(expected) and level < 1.0


def test_measure_from_a_roof_to_the_street_counts_the_drop(crossroads):
    questions, _, _ = crossroads
    roof = float(questions.geometry.surface_height([OFFICES_CENTRE])[0])
    start, end = np.array([*OFFICES_CENTRE, roof]), np.array([OFFICES_CENTRE[0], 11.25, 0.01])
    measure = questions.measure(start, end)
    assert measure.straight_in == pytest.approx(np.linalg.norm(end - start))
    flat = 17.5 - 11.25
    # over the roof, down the wall, along the street: each level change cuts one 0.1" sample's corner
    assert measure.ground_in == pytest.approx(flat + (roof - 0.01), abs=3 * GROUND_SAMPLE_IN)
    assert measure.ground_in > measure.straight_in
    flat_measure = questions.measure(np.array([24.0, 2.0, 0.01]), np.array([24.0, 14.0, 0.01]))
    assert flat_measure.straight_in == pytest.approx(12.0)
    assert "12.0\" straight" in flat_measure.text()


def test_EC_BASE_between_two_models_the_measure_is_base_edge_to_base_edge_first(crossroads):
    """Clause: EC-BASE (75 x 42 mm ovals: 2.953" long). Two sportsbikes nose to tail 10" apart
    centre to centre along x are 10 - 2.953 = 7.05" apart base edge to base edge; side by side
    5" apart, 5 - 42 mm (1.654") = 3.35"."""
    questions, _, poses = crossroads
    at = {**poses, "komodo_1": Pose(10.0, 10.0, 0.0, 0.0), "komodo_2": Pose(20.0, 10.0, 0.0, 0.0)}
    start, end = np.array([10.0, 10.0, 0.0]), np.array([20.0, 10.0, 0.0])
    measure = questions.measure(start, end, models=("komodo_1", "komodo_2"), poses=at)
    assert measure.edge_in == pytest.approx(10.0 - 75 / 25.4, abs=0.01) and measure.straight_in == pytest.approx(10.0)
    assert measure.text().startswith('measure: 7.0" base edge to base edge; centre to centre (a gun\'s range, '
                                     'EC-GUN-2) 10.0" straight')
    abreast = {**at, "komodo_2": Pose(10.0, 15.0, 0.0, 0.0)}
    side = questions.measure(start, np.array([10.0, 15.0, 0.0]), models=("komodo_1", "komodo_2"), poses=abreast)
    assert side.edge_in == pytest.approx(5.0 - 42 / 25.4, abs=0.01)
    assert questions.measure(start, end).edge_in is None


def test_EC_LOS_4_EC_COVER_1_sight_labels_are_the_los_engines_verdicts(crossroads):
    """Clauses EC-LOS-4, EC-COVER-1, EC-GUN-2: the labels carry the LOS engine's % visible and
    cover, and "can shoot" where the sight allows a shot and the target is in the gun's range.
    Scale (komodo_2) carries a shotgun: 60 m at 1.42 m to the inch is 42.25" of table."""
    questions, state, poses = crossroads
    reach = 60 / 1.42
    moved = {**poses, "komodo_2": Pose(32.0, 11.25, 200.0, 0.01)}
    for at in (poses, moved):
        labels, results = questions.sight("komodo_2", at, state)
        assert {label.target for label in labels} == {"hades_1", "hades_2", "hades_3", "hades_4", "hades_5"}
        for label in labels:
            truth = questions.world.line_of_sight("komodo_2", label.target, at)
            assert label.visible_percent == round(100 * truth.true_los.visible_fraction, 1)
            away = np.hypot(at["komodo_2"].x - at[label.target].x, at["komodo_2"].y - at[label.target].y)
            assert (label.cover, label.can_shoot) == (truth.true_los.cover, shoots(truth) and away <= reach)
            assert bool(label.no_shot) == (not label.can_shoot)
            assert results[label.target].true_los == truth.true_los
    start_labels, _ = questions.sight("komodo_2", poses, state)
    moved_labels, _ = questions.sight("komodo_2", moved, state)
    in_the_street = [label for label in moved_labels if label.target != "hades_5"]  # hades_5: on a roof
    assert any(label.can_shoot for label in start_labels) and not any(label.can_shoot for label in in_the_street)


def test_EC_GUN_2_a_rider_without_a_gun_in_range_or_a_shot_left_has_none_and_is_told_why(crossroads):
    """Clause: EC-GUN-2 (issue 47: riders with no gun, a chain or a sword, were labelled "can
    shoot"). Viper (komodo_1) carries a sword: no shot at anyone, though Brakes is 100% in sight.
    Scale's shotgun reaches 42.25" (60 m / 1.42): Ash, 81% in sight at 42.5", is out of range,
    Brakes at 34.6" is not. Scale with no shot left shoots nobody."""
    questions, state, poses = crossroads
    viper = {label.target: label for label in questions.sight("komodo_1", poses, state)[0]}
    assert viper["hades_1"].visible_percent == 100.0 and not any(label.can_shoot for label in viper.values())
    assert {label.no_shot for label in viper.values()} == {"Viper carries no gun (EC-GUN-2)"}
    assert viper["hades_1"].text("Brakes") == "Brakes: 100% visible, no shot"
    scale = {label.target: label for label in questions.sight("komodo_2", poses, state)[0]}
    assert scale["hades_3"].visible_percent > 25 and not scale["hades_3"].can_shoot
    assert scale["hades_3"].no_shot == 'Ash is 42.5" away; a shotgun reaches 42.3" (60 m) (EC-GUN-2)'
    assert scale["hades_1"].can_shoot and scale["hades_1"].no_shot == ""
    empty = state.with_model(state.model("komodo_2").but(ammo=0))
    dry = questions.sight("komodo_2", poses, empty)[0]
    assert not any(label.can_shoot for label in dry)
    assert {label.no_shot for label in dry} == {"Scale's shotgun has no shots left (EC-GUN-2)"}


def test_EC_LOS_2_a_label_says_a_target_is_behind_the_front_half(crossroads):
    """Clause: EC-LOS-2 (issue 47: after turning a model an enemy read "0% visible, no shot" with
    no word why). Scale turned to face east, away from every Hades rider to its west: each is
    wholly behind its front half, and its label says so."""
    questions, state, poses = crossroads
    turned = {**poses, "komodo_2": Pose(poses["komodo_2"].x, poses["komodo_2"].y, 0.0, poses["komodo_2"].z)}
    labels = questions.sight("komodo_2", turned, state)[0]
    west = [label for label in labels if poses[label.target].x < poses["komodo_2"].x - 5]
    assert west and all(label.behind and label.visible_percent == 0 and not label.can_shoot for label in west)
    assert "behind its front half (EC-LOS-2)" in west[0].text("x")
    facing = questions.sight("komodo_2", poses, state)[0]
    assert not any(label.behind for label in facing)


def test_EC_COVER_1_a_sight_label_says_what_is_visible_not_a_percent_of_cover():
    """Clause: EC-COVER-1. "Hawk: 92% cover, can shoot" read as 92% hidden (no shot under the 25%
    rule) of a rider 92% visible and in cover: the percent is what is visible, and says so."""
    from entropy3d.viewer.questions import SightLabel

    def text(percent, cover, can_shoot):
        return SightLabel("komodo_5", percent, cover, can_shoot, True, ()).text("Hawk")
    assert text(92.0, True, True) == "Hawk: 92% visible (cover), can shoot"
    assert text(100.0, False, True) == "Hawk: 100% visible, can shoot"
    assert text(12.0, True, False) == "Hawk: 12% visible (cover), no shot"


def test_panel_names_the_rider_and_its_numbers(crossroads):
    questions, state, _ = crossroads
    model = state.models["komodo_2"]
    text = questions.panel(model, questions.table.model("komodo_2").rider)
    for part in ("Scale (komodo_2)", "gang: Komodo", "bike: sportsbike", f"speed {model.speed}",
                 f"stress {model.stress}/{model.max_stress}", f"wounds {model.wounds}", "conditions: none",
                 "loadout: dagger, shotgun"):
        assert part in text, (part, text)


def test_ruler_ticks_every_inch_and_pixels_from_the_matrix():
    lines, numbers = ruler_ticks([0, 0, 0], [0, 12, 0])
    assert len(lines) == 1 + 13 and [n for n, _ in numbers] == list(range(13))
    assert np.allclose(numbers[12][1][:2], [0.9, 12.0])
    identity_like = np.eye(4)
    assert np.allclose(pixel_of_point(identity_like, (200, 100), (0, 0, 0)), [100, 50])
    assert np.allclose(pixel_of_point(identity_like, (200, 100), (1, 1, 0)), [200, 0])


def test_EC_TER_BUILDING_a_tried_position_says_why_a_model_cannot_stand_there(crossroads):
    """Clauses EC-TER-BUILDING, EC-FOOT-DEPLOY, EC-BASE (issue 47: a what-if drag accepted a bike
    off the table at x = -27.5, on a 6.4" roof and half over a roof edge without a word). The
    offices are the box x 27.5-37.5, y 14.5-20.5, 6.4" high (scenes/crossroads.yaml); a
    sportsbike's base is 75 x 42 mm, 2.95" x 1.65"."""
    questions, _, poses = crossroads
    roof = float(questions.geometry.surface_height([OFFICES_CENTRE])[0])

    def why(model_id, pose):
        return questions.standing_problems({**poses, model_id: pose}, [model_id]).get(model_id, "")

    assert why("komodo_1", Pose(-27.5, 20.0, 0.0, 0.0)) == "off the 48x48 inch table"
    # centre 0.1" west of the wall, facing east: the front of the base is 1.4" inside the offices
    assert "inside the offices" in why("komodo_1", Pose(27.4, 17.5, 0.0, 0.01))
    on_roof = why("komodo_1", Pose(*OFFICES_CENTRE, 0.0, roof))
    assert on_roof == (f'a bike on the roof of the offices, {roof:.1f}" up: '
                       'a bike does not enter a building (EC-TER-BUILDING)')
    # on the roof with its centre 0.5" in from the west wall: the rear of the base is over the street
    street = float(questions.geometry.surface_height([(26.6, 17.5)])[0])  # the pavement by the wall, 0.12"
    assert f'its base hangs {roof - street:.1f}" over an edge' in why("komodo_1", Pose(28.0, 17.5, 0.0, roof))
    # a figure on foot stands on a roof, one a building: Hawk (komodo_5) is on the offices already
    assert why("hades_5", Pose(*OFFICES_CENTRE, 0.0, roof)).startswith(  # the one tried is the one told
        "Deadeye is on foot in the offices, which already holds Hawk: one on foot per building (EC-FOOT-DEPLOY")
    shops = float(questions.geometry.surface_height([(16.75, 6.25)])[0])  # the shops' roof: nobody on it
    assert why("hades_5", Pose(16.75, 6.25, 0.0, shops)) == "" and shops > 3.0
    scale = poses["komodo_2"]
    assert "overlaps" in why("komodo_1", Pose(scale.x, scale.y + 0.5, 180.0, scale.z))
    assert why("komodo_1", Pose(24.0, 11.25, 0.0, 0.01)) == ""  # the open street
    # the street kicker (x 34-37, y 23.75-26.25, rising 1" westwards over 3"): a base on its slope
    # is 0.5" lower at one end than the other, no edge; at its top end the 1" drop is under the base
    on_ramp = float(questions.geometry.surface_height([(35.5, 25.0)])[0])
    assert 0.3 < on_ramp < 0.8 and why("komodo_1", Pose(35.5, 25.0, 180.0, on_ramp)) == ""
    top = float(questions.geometry.surface_height([(34.4, 25.0)])[0])
    assert why("komodo_1", Pose(34.4, 25.0, 180.0, top)).startswith("its base hangs")
    assert questions.standing_problems(poses, list(poses)) == {}  # the scene's own start is legal
