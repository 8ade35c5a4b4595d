"""The viewer's typed action, headless: the scene's own rulebook checks it (its engine, the one
the game loop plays), with the odds of a move's tests, where a move only the table refuses would
have gone, and a ride that goes the one path in that rulebook."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.game.replay import load_source
from entropy3d.viewer.planning import SceneRules, preview_state

SYSTEMS = Path(__file__).parents[2] / "scenes" / "systems"
DATA = Path(__file__).parents[1] / "data"


def rules_of(scene):
    table, geometry, _ = load_source(scene)
    rules = SceneRules(table, geometry)
    return rules, preview_state(rules.initial_state(), at_start=True)


@pytest.fixture(scope="module")
def crossroads():
    return rules_of(None)


def test_EC_TER_BUILDING_a_plan_into_a_wall_is_refused_and_its_path_drawn_to_the_wall(crossroads):
    """Clause: EC-TER-BUILDING (issue 47: a refused plan drew no path). Viper (39, 22.7) facing
    west at speed 2, 3" on and a left medium turn (5" radius) south, ends at (31, 17.7), inside
    the offices (x 27.5-37.5, y 14.5-20.5): refused by the table, and the path the plan takes on an
    empty table is there to draw, running into the offices' footprint."""
    rules, state = crossroads
    refused = rules.preview(state, "komodo_1", "s2: straight 3, left medium 5")
    assert refused.move is None and refused.clause == "EC-TER-BUILDING"
    path = np.asarray(refused.refused_path)
    inside = (path[:, 0] > 27.5) & (path[:, 0] < 37.5) & (path[:, 1] > 14.5) & (path[:, 1] < 20.5)
    assert inside.any() and not inside[0]
    assert refused.to_dict()["refused_path"] is True


def test_EC_SPD_2_a_plan_the_rules_refuse_draws_no_path(crossroads):
    """Clause: EC-SPD-2: 30" at speed 2 is refused by the rules themselves (no table in it), so
    there is no path to draw; a legal plan has its move, odds and no refused path."""
    rules, state = crossroads
    too_far = rules.preview(state, "komodo_1", "s2: straight 30")
    assert too_far.clause == "EC-SPD-2" and too_far.refused_path is None
    legal = rules.preview(state, "komodo_1", "s2: straight 8")
    assert legal.move is not None and legal.refused_path is None and legal.refusal is None


# (scene, model, an action in its rulebook's words, the clause prefix of its events, how far it moves (inches;
# None: it stays and its event names the target), one its rulebook refuses, the clause that refuses it)
RULEBOOKS = [
    (SYSTEMS / "car_chase.yaml", "interceptor", "drive: straight 12", "SW-", 12.0, "drive: straight 30", "SW-VEH-1"),
    (SYSTEMS / "gang_fight.yaml", "escher_1", "walk: straight 3", "GANG-", 3.0, "walk: straight 30", "GANG-MOVE"),
    (SYSTEMS / "gang_fight.yaml", "escher_1", "shoot", "GANG-", None, "dance", "GANG-TURN"),
    (SYSTEMS / "rooftop_skirmish.yaml", "sniper", "attack", "TEN-", None, "walk: straight 3", "TEN-MOVE"),
    (DATA / "tag_yard.yaml", "red_1", "walk: straight 3", "TAG-", 3.0, "tag blue_1", "TAG-TAG"),
    (SYSTEMS / "rooftop_fall.yaml", "jet", "s2: straight 8", "REF-", 8.0, "drive: straight 8", "EC-MOVE-1"),
]


@pytest.mark.parametrize("scene, model, action, prefix, inches, refused, clause", RULEBOOKS,
                         ids=lambda value: value.stem if isinstance(value, Path) else None)
def test_an_action_typed_in_the_scenes_rulebook_is_checked_and_taken_by_its_engine(scene, model, action, prefix,
                                                                                  inches, refused, clause):
    """Issue 44: the viewer checks and takes an action in the scene's own rulebook, with the
    engine the game loop plays (a chase's drive, a gang fighter's walk and shot, a 10acity attack,
    a tag runner's walk, an Entropy City ride judged by the reference cards): its events carry that
    rulebook's clauses and the model stands where its move ended; what that rulebook refuses is
    refused with its clause."""
    rules, state = rules_of(scene)
    preview = rules.preview(state, model, action)
    assert preview.refusal is None, preview.lines()
    steps = rules.ride(state, model, action, seed=1)
    clauses = [c for step in steps for e in step.events for c in e.clauses]
    assert any(c.startswith(prefix) for c in clauses), clauses
    before, after = state.model(model).pose, steps[-1].after.model(model).pose
    moved = float(np.hypot(after.x - before.x, after.y - before.y))
    if inches is None:
        assert moved == pytest.approx(0.0, abs=1e-9) and preview.checked.target is not None
        target = preview.checked.target
        assert any(e.model == target or target in e.text for step in steps for e in step.events)
    else:
        assert moved == pytest.approx(inches, abs=0.05)
        assert (preview.move.end_pose.x, preview.move.end_pose.y) == pytest.approx((after.x, after.y), abs=0.05)
    said_no = rules.preview(state, model, refused)
    assert said_no.checked is None and said_no.clause == clause, said_no.lines()


def test_GANG_MOVE_a_fighter_after_a_ride_here_may_walk_again_in_a_new_activation():
    """Clause GANG-MOVE: the preview starts the model's activation first, as the ride does (the
    loop's way): a fighter that walked here walks again, not refused for the actions it took."""
    rules, state = rules_of(SYSTEMS / "gang_fight.yaml")
    after = rules.ride(state, "escher_1", "walk: straight 3", seed=1)[-1].after
    again = rules.preview(after, "escher_1", "walk: straight 2", seed=2)
    assert again.refusal is None and again.move.length_in == pytest.approx(2.0)


def test_the_panel_tells_a_figure_in_its_rulebooks_words():
    """A gang fighter's panel: its wounds and conditions as the gang battle sets them up (Dreg
    starts Prone & Pinned, GANG-PIN), no bike, no speed, no stress; a chase vehicle's names its
    vehicle."""
    rules, state = rules_of(SYSTEMS / "gang_fight.yaml")
    from entropy3d.viewer.questions import TableQuestions

    questions = TableQuestions(rules.table, rules.geometry)
    text = questions.panel(state.model("orlock_3"), None, rules.system, rules.engine.condition_words)
    for part in ("Dreg (orlock_3)", "Gang battle rules", "in play, 1 wound left", "Prone", "ballistic skill 4"):
        assert part in text, (part, text)
    assert "bike" not in text and "speed" not in text and "stress" not in text
    rules, state = rules_of(SYSTEMS / "car_chase.yaml")
    questions = TableQuestions(rules.table, rules.geometry)
    text = questions.panel(state.model("van"), None, rules.system, rules.engine.condition_words)
    assert "vehicle: van" in text and "top speed mph 90" in text, text


def test_TEN_STRESS_the_panel_tells_the_stress_an_attack_put_on_a_10acity_figure():
    """Clause TEN-STRESS: after the sniper's attack taken here, the runner it hit is told with the
    stress it took of its maximum (a figure with none on it is told without)."""
    rules, state = rules_of(SYSTEMS / "rooftop_skirmish.yaml")
    from entropy3d.viewer.questions import TableQuestions

    questions = TableQuestions(rules.table, rules.geometry)
    target = rules.preview(state, "sniper", "attack").checked.target
    for seed in range(1, 40):  # the first dice that hit
        after = rules.ride(state, "sniper", "attack", seed=seed)[-1].after.model(target)
        if after.stress:
            break
    assert after.stress, "no seed in 1-39 hit"
    text = questions.panel(after, None, rules.system, rules.engine.condition_words)
    assert f"stress {after.stress} of {after.max_stress}" in text, text
    assert "stress" not in questions.panel(state.model(target), None, rules.system, rules.engine.condition_words)
