"""The replay's timeline as the viewer's keys and slider move it (``entropy3d.game.timeline``):
stepping stops at both ends and the slider seeks to the action nearest its position (issue 51:
a seek that snapped to the ends and a step that ran past the last action survived the suite)."""

from __future__ import annotations

import pytest

from entropy3d.game.timeline import Step, Timeline
from entropy3d.systems.entropy_city.state import State


def sixteen_steps() -> Timeline:
    """A timeline of 16 actions (one turn on the default table has 16), at the starting poses."""
    timeline = Timeline(None, State(turn=0, mission="turf_war", models={}))
    timeline.steps = [Step(0, j) for j in range(16)]
    return timeline


def test_n_steps_one_action_at_a_time_and_stays_on_the_last():
    timeline = sixteen_steps()
    assert timeline.index == -1 and timeline.step is None
    for expected in range(16):
        timeline.t = 1.5
        timeline.next()
        assert (timeline.index, timeline.t) == (expected, 0.0)
    for _ in range(3):  # pressing n on the last action keeps it there, with its step
        timeline.next()
    assert timeline.index == 15 and timeline.step == Step(0, 15)


def test_previous_steps_back_to_the_starting_poses_and_no_further():
    timeline = sixteen_steps()
    timeline.index = 2
    # each step back starts its action from the beginning; at the starting poses nothing moves
    for expected in ((1, 0.0), (0, 0.0), (-1, 0.0), (-1, 1.5)):
        timeline.t = 1.5
        timeline.previous()
        assert (timeline.index, timeline.t) == expected
    assert timeline.step is None


@pytest.mark.parametrize("fraction, index", [
    # 16 actions span the slider's 15 gaps: action k sits at k / 15, the nearest one is taken
    (0.0, 0), (0.2, 3), (4 / 15, 4), (0.45, 7), (0.52, 8), (0.999, 15), (1.0, 15),
    # past the slider's ends: the first and the last action
    (-0.5, 0), (1.5, 15),
])
def test_the_slider_seeks_to_the_nearest_action(fraction, index):
    timeline = sixteen_steps()
    timeline.t = 2.0
    timeline.seek(fraction)
    assert (timeline.index, timeline.t) == (index, 0.0)


def test_seeking_a_replay_with_no_action_stays_at_the_starting_poses():
    timeline = Timeline(None, State(turn=0, mission="turf_war", models={}))
    timeline.seek(0.5)
    timeline.next()
    assert timeline.index == -1 and timeline.step is None


def test_TAG_MOVE_the_caption_tells_a_rulebooks_game_in_its_own_words():
    """Clause TAG-MOVE: a replay of the tag rulebook stepped in the viewer names the runner (Ash,
    not red_1) and tells its walk in the rulebook's sentence with its clause, as the film and the
    share page do; without names it keeps the id and the event's own text."""
    from pathlib import Path

    from entropy3d.game import play_game
    from entropy3d.scene import load_scene
    from entropy3d.systems.words import Names

    scene = Path(__file__).parents[1] / "data" / "tag_yard.yaml"
    replay = play_game(scene, seed=0, turns=1, producer="geometric")
    timeline = Timeline(replay, replay.header.initial)
    timeline.next()
    activation = replay.activations[timeline.step.activation]
    names = Names.of_table(load_scene(scene))
    told, plain = timeline.caption(names).splitlines(), timeline.caption().splitlines()
    assert f", {names.rider(activation.model_id)}, action 1: walk:" in told[0]
    assert f", {activation.model_id}, action 1: walk:" in plain[0]
    assert told[1].startswith(f"{names.rider(activation.model_id)} walks ") and told[1].endswith("(TAG-MOVE)")
    assert plain[1] == activation.actions[timeline.step.action].events[0].text
