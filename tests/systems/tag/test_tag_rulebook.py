"""Tag, the example rulebook of docs/new-rulebook.md (entropy3d/systems/tag/): added with nothing
changed outside its folder, its rules data, its tests and one registration line, it plays a game
through the one loop and the one take, its film tells its tag, its share page steps to the tag in
a real browser, and a sweep plays it on a real Dask cluster (issue 44).

The rules tests work its four clauses by hand on a state the tests place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.game.records import action_events
from entropy3d.game.session import play_game, resimulate
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import OUT
from entropy3d.systems.entropy_city.transition import ACTIVATE, MOVE, Action

ROOT = Path(__file__).resolve().parents[3]
YARD = ROOT / "tests" / "data" / "tag_yard.yaml"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Seed 7, 3 turns: Ash tags Cal in turn 3 (the dice decide: the test reads what they did)."""
    path = tmp_path_factory.mktemp("tag") / "tag.jsonl"
    return play_game(YARD, seed=7, turns=3, producer="geometric", replay_path=path), path


def tags(replay) -> list[tuple[int, int, object]]:
    return [(k, j, event) for k, activation in enumerate(replay.activations)
            for j in range(len(activation.actions)) for event in action_events(activation, j) if event.kind == "tag"]


def test_TAG_TURN_a_runner_has_one_action_and_an_activation_starts_afresh(yard):
    """Clause: TAG-TURN."""
    table, _, engine, state = yard
    walk = engine.parse_action("red_1", "walk: straight 2")
    state, _ = engine.resolve(state, engine.check(state, Action(ACTIVATE, "red_1")), None, np.random.default_rng(0))
    moved = state.with_model(state.model("red_1").but(actions_taken=1))
    with pytest.raises(IllegalPlanError, match="one action") as refused:
        engine.check(moved, walk)
    assert refused.value.clause == "TAG-TURN"
    again, _ = engine.resolve(moved, Action(ACTIVATE, "red_1"), None, np.random.default_rng(0))
    assert engine.check(again, walk).move is not None
    first = [engine.start_turn(state, np.random.default_rng(seed), None) for seed in range(20)]
    assert all(t.rolls[-1][0] != t.rolls[-1][1] and all(a == b for a, b in t.rolls[:-1]) for t in first)
    assert {t.first for t in first} == {"reds", "blues"}
    assert engine.activation_order(state, "blues", {"reds": ["red_1", "red_2"], "blues": ["blue_2"]}) == \
        ["blue_2", "red_1", "red_2"]


def test_TAG_MOVE_a_walk_past_the_move_or_into_the_shed_is_refused(yard):
    """Clause: TAG-MOVE. rules/tag.yaml: 6" a walk."""
    table, geometry, engine, state = yard
    from entropy3d.game.tableview import TableView

    view = TableView(table, geometry)
    assert engine.check(state, engine.parse_action("red_1", "walk: straight 6"), view).move.length_in == 6
    with pytest.raises(IllegalPlanError, match="too far") as too_far:
        engine.check(state, engine.parse_action("red_1", "walk: straight 7"), view)
    by_the_shed = state.with_model(state.model("red_1").but(pose=Pose(7, 12, 0)))  # its west wall is at x = 10
    with pytest.raises(IllegalPlanError, match="meets 'shed'") as into_the_shed:
        engine.check(by_the_shed, engine.parse_action("red_1", "walk: straight 5"), view)
    assert too_far.value.clause == into_the_shed.value.clause == "TAG-MOVE"


def test_TAG_TAG_a_tag_reaches_1_5_inches_and_takes_out_on_a_4_or_more(yard):
    """Clause: TAG-TAG, TAG-END. rules/tag.yaml: reach 1.5", a d6 needing 4+, 1 point a tag."""
    _, _, engine, state = yard
    near = state.with_model(state.model("blue_1").but(pose=Pose(4.4, 8, 180)))
    with pytest.raises(IllegalPlanError, match="18.0\" away") as refused:
        engine.check(state, engine.parse_action("red_1", "tag blue_1"))
    assert refused.value.clause == "TAG-TAG"
    with pytest.raises(IllegalPlanError, match="not an enemy"):
        engine.check(near, engine.parse_action("red_1", "tag red_2"))
    tag = engine.check(near, engine.parse_action("red_1", "tag blue_1"))
    outcomes = {}
    for seed in range(40):
        rng = np.random.default_rng(seed)
        die = int(np.random.default_rng(seed).integers(1, 7))
        after, events = engine.resolve(near, tag, None, rng)
        outcomes[die] = after.model("blue_1").status == OUT
        assert events[0].figures["die"] == die and "TAG-TAG" in events[0].clauses
        if outcomes[die]:
            assert after.score == {"reds": 1, "blues": 0} and events[-1].kind == "score"
    assert outcomes == {1: False, 2: False, 3: False, 4: True, 5: True, 6: True}


def test_TAG_END_the_game_ends_when_a_side_has_no_runner(yard):
    """Clause: TAG-END."""
    _, _, engine, state = yard
    assert engine.game_over(state) == ""
    gone = state.with_model(state.model("blue_1").but(status=OUT)).with_model(state.model("blue_2").but(status=OUT))
    assert engine.game_over(gone) == "blues has no runner left"
    assert engine.winner(state.add_score("blues", 1)) == "blues" and engine.winner(state) == ""


def test_TAG_END_a_game_is_played_through_the_one_loop_and_plays_again_byte_for_byte(game):
    """Clause: TAG-END, TAG-TAG. The same loop, take and replay file as every rulebook's."""
    replay, path = game
    assert replay.end is not None and replay.end.winner == "reds" and replay.end.score == {"reds": 1, "blues": 0}
    [(k, j, tag)] = tags(replay)
    assert tag.model == "red_1" and tag.figures["target"] == "blue_1" and tag.figures["taken_out"]
    assert replay.activations[k].state_after.model("blue_1").status == OUT
    walks = [a for activation in replay.activations for a in activation.actions if a.action.kind == MOVE]
    assert walks and all(a.ridden and len(a.trajectory) > 1 for a in walks)
    same, _ = resimulate(path)
    assert same


def test_TAG_TAG_the_film_tells_the_tag_in_the_rulebooks_words(game, tmp_path):
    """Clause: TAG-TAG. The short film shows the tag's action and captions it red."""
    from entropy3d.video import VideoOptions, count_frames, render_video
    from entropy3d.video.cut import caption, short_segments
    from entropy3d.video.movie import replay_names

    replay, _ = game
    options = VideoOptions(size=(320, 180), fps=6, cut="short", sound=False, supersample=1)
    names = replay_names(replay)
    [(k, j, _)] = tags(replay)
    shown = {(s.activation, s.action) for s in short_segments(replay, options, names) if s.kind == "action"}
    assert (k, j) in shown
    said = caption(action_events(replay.activations[k], j), names)
    assert said.text == "Ash tags Cal: rolled 4 needing 4+ - TAGGED, out of the game" and said.bad
    film = render_video(replay, tmp_path / "tag.mp4", options)
    frames = count_frames(replay, options)
    assert film.stat().st_size > 10_000 and frames > 6 * 10


def test_TAG_TAG_the_share_page_steps_to_the_tag_in_a_real_browser(game, tmp_path):
    """Clause: TAG-TAG. `entropy3d share` as a user runs it; headless Chromium draws it, steps
    to the tag with the page's own button and logs no error."""
    from tests.share.test_share_page import console_errors, open_page, page_data, share, start_browser

    _, path = game
    page = share(path, tmp_path / "tag.html")
    steps = page_data(page)["steps"]
    [told] = [s for s in steps if s["title"].endswith("action 1: tag")]
    assert told["lines"][0][0] == "Ash tags Cal: rolled 4 needing 4+ - TAGGED, out of the game"
    driver = start_browser(tmp_path / "profile")
    try:
        open_page(driver, page)
        for _ in range(steps.index(told) + 1):
            driver.find_element("id", "next").click()
        shown = driver.execute_script("return document.body.innerText")
        assert "Ash tags Cal" in shown and not console_errors(driver)
        # at the end of the tag, Cal (blue_1) is off the table and Ash still on it
        assert driver.execute_script("return [window.entropy3dShare.shown('blue_1'), "
                                     "window.entropy3dShare.shown('red_1')]") == [False, True]
    finally:
        driver.quit()


def test_TAG_TURN_a_sweep_plays_tag_on_a_real_dask_cluster(tmp_path):
    """Clause: TAG-TURN. `entropy3d sweep` as a user runs it: two worker processes, four games."""
    from entropy3d.sweep.store import ResultStore

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "entropy3d", "sweep", str(YARD), "--games", "4", "--producer",
                           "geometric", "--workers", "2", "--out", str(tmp_path / "results")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "4 game(s) played" in done.stdout
    with ResultStore.existing(tmp_path / "results") as store:
        assert len(store.finished()) == 4
