"""Tag's engine at its edges, each expected value worked out by hand from rules/tag.yaml (move_in
6", reach_in 1.5", tag_on 4, die_sides 6, points_per_tag 1): every refusal's clause and words,
the reach at exactly 1.5", what a walk and a tag leave in the state and their events (issue 51:
the mutation run of the engines found these unchecked: a refusal naming no clause, a tag at
1.5" refused, a walk counting -1 actions, an event with no target all passed the tests)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import OUT
from entropy3d.systems.entropy_city.transition import ACTIVATE, Action


def facing(state, gap_in: float):
    """Ash (red_1) at (10, 8) and Cal (blue_1) ``gap_in`` east of it, both in the game."""
    state = state.with_model(state.model("red_1").but(pose=Pose(10.0, 8.0, 0.0)))
    return state.with_model(state.model("blue_1").but(pose=Pose(10.0 + gap_in, 8.0, 180.0)))


def refusal(engine, state, action) -> tuple[str, str]:
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, action)
    return refused.value.clause, refused.value.message


def test_TAG_END_the_game_starts_on_the_tag_mission(yard):
    """Clause: TAG-END. The mission is the rules data's ``mission: tag``."""
    _, _, _, state = yard
    assert state.mission == "tag"


def test_TAG_TAG_TAG_TURN_TAG_END_every_refusal_names_its_clause_and_says_why(yard):
    """Clauses TAG-TAG, TAG-TURN, TAG-END: the words of each refusal, as a player reads them."""
    _, _, engine, state = yard
    near = facing(state, 1.0)
    assert refusal(engine, near, engine.parse_action("red_1", "tag red_2")) == (
        "TAG-TAG", "'red_2' is not an enemy runner")
    assert refusal(engine, near, engine.parse_action("red_1", "tag nobody")) == (
        "TAG-TAG", "'nobody' is not an enemy runner")
    gone = near.with_model(near.model("blue_1").but(status=OUT))
    assert refusal(engine, gone, engine.parse_action("red_1", "tag blue_1")) == ("TAG-TAG", "blue_1 is already out")
    assert refusal(engine, gone, engine.parse_action("blue_1", "walk: straight 1")) == (
        "TAG-END", "blue_1 is out of the game")
    done = near.with_model(near.model("red_1").but(actions_taken=1))
    assert refusal(engine, done, engine.parse_action("red_1", "tag blue_1")) == (
        "TAG-TURN", "red_1 has taken its one action this activation")
    assert refusal(engine, near, Action("watch", "red_1")) == ("TAG-TURN", "a runner may walk or tag; not 'watch'")
    with pytest.raises(IllegalPlanError) as unsaid:
        engine.parse_action("red_1", "tag")
    assert (unsaid.value.clause, unsaid.value.message) == ("TAG-TAG", "say whom to tag: 'tag RUNNER', not 'tag'")
    assert refusal(engine, near, engine.parse_action("red_1", "walk: straight 7")) == (
        "TAG-MOVE", 'too far: 7" is over the 6" red_1 walks')


def test_TAG_TAG_a_tag_reaches_exactly_its_reach_and_no_further(yard):
    """Clause: TAG-TAG ("within 1.5\""): 1.5" away is a tag; 1.51" is refused with the distance,
    measured between base centres along both axes (1.2" east and 0.9" north is 1.5")."""
    _, _, engine, state = yard
    tag = engine.parse_action("red_1", "tag blue_1")
    assert engine.check(facing(state, 1.5), tag) is tag
    assert refusal(engine, facing(state, 1.51), tag) == ("TAG-TAG", 'blue_1 is 1.5" away: a tag reaches 1.5"')
    diagonal = facing(state, 1.2)
    diagonal = diagonal.with_model(diagonal.model("blue_1").but(pose=Pose(11.2, 8.9, 180.0)))
    assert engine.check(diagonal, tag) is tag
    further = diagonal.with_model(diagonal.model("blue_1").but(pose=Pose(11.2, 9.0, 180.0)))
    assert refusal(engine, further, tag)[0] == "TAG-TAG"


def test_TAG_MOVE_a_walk_is_checked_with_its_plan_and_leaves_one_action_taken(yard):
    """Clause: TAG-MOVE: the checked walk keeps its plan; resolved, the runner stands where the
    producer's walk ended, has taken 1 action, and the event says how far, to a tenth of an inch."""
    _, _, engine, state = yard
    walk = engine.parse_action("red_1", "walk: straight 4")
    checked = engine.check(state, walk)
    assert checked.plan == walk.plan and checked.move.length_in == pytest.approx(4.0)
    end = Pose(6.14159, 8.0, 0.0)
    facts = Facts("geometric", 4.0, 3.14159, False, np.zeros((0, 5)), end_pose=end)
    after, events = engine.resolve(state, checked, facts, np.random.default_rng(0))
    model = after.model("red_1")
    assert model.pose == end and model.actions_taken == 1
    (event,) = events
    assert (event.kind, event.model) == ("move", "red_1")
    assert event.text == 'geometric: walked 3.1" -> rules: walks 3.1" of its 6"'  # the producer's words, the rules'
    assert (event.clauses, event.found, event.producer) == (("TAG-MOVE",), 'walked 3.1"', "geometric")
    assert event.figures == {"walked": True, "length_in": 3.1}
    started, _ = engine.resolve(after, Action(ACTIVATE, "red_1"), None, np.random.default_rng(0))
    assert started.model("red_1").actions_taken == 0


@pytest.mark.parametrize("seed", range(12))
def test_TAG_TAG_a_tag_rolls_one_die_and_takes_out_on_4_or_more(yard, seed):
    """Clauses TAG-TAG, TAG-END: a tag rolls one six-sided die (the generator's next integer in
    1..6, drawn here from the same seed); 4, 5 or 6 takes the target out and scores 1 for the
    tagger's side; the event names the target and says the roll."""
    _, _, engine, state = yard
    near = facing(state, 1.0)
    die = int(np.random.default_rng(seed).integers(1, 7))
    after, events = engine.resolve(near, engine.check(near, engine.parse_action("red_1", "tag blue_1")), None,
                                   np.random.default_rng(seed))
    tagged = die >= 4
    event = events[0]
    assert (event.kind, event.model, event.piece, event.clauses) == ("tag", "red_1", "blue_1", ("TAG-TAG",))
    assert event.text == f"tags blue_1: rolled {die} needing 4+: " + ("tagged, out" if tagged else "missed")
    assert event.figures == {"target": "blue_1", "die": die, "needed": 4, "taken_out": tagged}
    assert after.model("blue_1").status == (OUT if tagged else near.model("blue_1").status)
    assert after.score.get("reds", 0) == (1 if tagged else 0) and after.model("red_1").actions_taken == 1


def test_TAG_MOVE_a_walk_into_the_shed_or_round_a_template_is_refused_in_the_runners_words(yard):
    """Clause: TAG-MOVE: Tag plays no climbing or jumping, and a runner walks straights and pivots
    only. Ash put at (8, 12) facing east walks into the shed (x 10-14, y 9-15)."""
    from entropy3d.game.tableview import TableView

    table, geometry, engine, state = yard
    view = TableView(table, geometry)
    by_the_shed = state.with_model(state.model("red_1").but(pose=Pose(8.0, 12.0, 0.0)))
    with pytest.raises(IllegalPlanError, match=r"^the walk meets 'shed' [0-9.]+\" along it; climbing and jumping "
                                               r"are not played \(TAG-MOVE\)$"):
        engine.check(by_the_shed, engine.parse_action("red_1", "walk: straight 5"), view)
    with pytest.raises(IllegalPlanError, match=r"^a runner walks in straights and pivots: "):
        engine.check(state, engine.parse_action("red_1", "s1: left tight 3"), view)


def test_TAG_END_a_tag_that_takes_a_runner_out_scores_for_the_other_side_and_says_so(yard):
    """Clause: TAG-END: the tagger's side scores ``points_per_tag`` (1) for the runner it tagged."""
    _, _, engine, state = yard
    near = facing(state, 1.0)
    seed = next(s for s in range(50) if int(np.random.default_rng(s).integers(1, 7)) >= 4)
    _, events = engine.resolve(near, engine.check(near, engine.parse_action("red_1", "tag blue_1")), None,
                               np.random.default_rng(seed))
    score = events[1]
    assert (score.kind, score.model, score.text, score.clauses) == (
        "score", "blue_1", "reds scores 1 for blue_1 tagged", ("TAG-END",))
    assert score.figures == {"gang": "reds", "points": 1}


def test_TAG_TURN_the_dice_have_the_rules_datas_sides(yard):
    """Clause: TAG-TURN, TAG-TAG: rules data with 20-sided dice roll 1-20 for the first turn and
    for a tag (the bundled 6 hides a die rolled with the default sides)."""
    import yaml

    from entropy3d.systems.tag import Tag

    data = yaml.safe_load((Path(__file__).resolve().parents[3] / "rules" / "tag.yaml").read_text())
    _, _, engine, state = yard
    twenty = Tag.from_mapping({**data, "die_sides": 20}).engine({})
    near = facing(state, 1.0)
    rolls = set()
    for seed in range(40):
        _, events = twenty.resolve(near, twenty.check(near, twenty.parse_action("red_1", "tag blue_1")), None,
                                   np.random.default_rng(seed))
        rolls.add(events[0].figures["die"])
        assert events[0].figures["die"] == int(np.random.default_rng(seed).integers(1, 21))
    assert max(rolls) > 6
    pairs = [pair for seed in range(40) for pair in twenty.start_turn(state, np.random.default_rng(seed), None).rolls]
    for side in (0, 1):  # each side's die, the first and the second
        assert max(pair[side] for pair in pairs) > 6 and min(pair[side] for pair in pairs) >= 1
