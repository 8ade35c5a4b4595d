"""A scene of a system that decides from the table but plays no game of its own (the reference
cards, seed 004) is played with Entropy City's game, and the cards rule on every ride: the
rulings are kept on the action's record, in the replay and on the video's text panel
(entropy3d.game.judging)."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.game.records import action_events
from entropy3d.game.replay import read_replay
from entropy3d.game.session import play_game, replay_bytes
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.systems.words import Names, sentence

FALL_SCENE = bundled_dir("scenes") / "systems" / "rooftop_fall.yaml"


@pytest.fixture(scope="module")
def fall_game():
    return play_game(FALL_SCENE, seed=1, turns=2, producer="physics")


def _rulings(replay):
    return [(activation, action, ruling) for activation in replay.activations for action in activation.actions
            for ruling in action.rulings]


def test_a_fall_in_the_game_is_ruled_a_collision_at_the_cards_speed_for_its_height(fall_game):
    """REF-FALL, card "Falling": "Falling is a Collision ... Speed - by height": "3m/10ft - Speed:
    3x1 (30kph/20mph)", "10m/30ft - Speed: 5x1 (50kph/30mph)" (the highest row not above the
    height). The spotter leaves the bridge in turn 1 and lands two storeys down in the yard."""
    falls = [(activation, ruling) for activation, _, ruling in _rulings(fall_game)
             if ruling.figures["judged"] == "landing" and "REF-COLL" in ruling.clauses]
    assert falls, "no fall was ruled in the game"
    for _, ruling in falls:
        drop = ruling.figures["drop_m"]
        expected = "1x1" if drop < 3 else "3x1" if drop < 10 else "5x1"
        assert ruling.rules.startswith(f"a fall is a collision at {expected} kph"), (drop, ruling.rules)
        assert ruling.figures["system"] == "Reference cards" and ruling.kind == "ruling"
    assert any(activation.model_id == "spotter" and 3 <= ruling.figures["drop_m"] < 10 for activation, ruling in falls)


def test_REF_FALL_the_spotter_coming_down_on_brick_falls_once(fall_game):
    """REF-FALL (issue 46): in this game (seed 1, physics) the spotter rides off the bridge, comes
    down on Brick's rider 1.8" up and rolls off him into the yard. A referee rules one fall of
    two storeys (4.2" = 5.96 m, the 3 m row) and Damaged 1; it was ruled two falls (3.36 m onto
    Brick, 2.60 m off him) and Damaged 2."""
    falls = [ruling for activation, _, ruling in _rulings(fall_game)
             if activation.model_id == "spotter" and ruling.figures["judged"] == "landing"]
    assert [ruling.figures["speed"] for ruling in falls] == ["3x1"], [ruling.rules for ruling in falls]
    assert falls[0].figures["drop_m"] == pytest.approx(4.2 * 1.42, rel=0.01)
    assert falls[0].figures["damaged"] == {"spotter": 1}


def test_levels_come_down_are_ruled_by_the_elevation_card(fall_game):
    """REF-ELEV, card "Elevation": "Descend - Losing Elevation gains Move:+1" per level."""
    descents = [ruling for _, _, ruling in _rulings(fall_game) if ruling.figures["judged"] == "move"]
    assert descents
    for ruling in descents:
        levels = int(ruling.rules.split("came down ")[1].split(" ")[0])
        assert ruling.figures["move"] == levels and ruling.clauses == ("REF-ELEV",)


def test_rulings_are_kept_by_the_replay_and_read_on_the_video(fall_game, tmp_path: Path):
    path = tmp_path / "fall.jsonl"
    path.write_bytes(replay_bytes(fall_game))
    again = read_replay(path)
    assert [r.to_json() for _, _, r in _rulings(again)] == [r.to_json() for _, _, r in _rulings(fall_game)]
    names = Names.of_table(load_scene(FALL_SCENE))
    for _, _, ruling in _rulings(again):
        line = sentence(ruling, names)
        if ruling.figures.get("applied"):  # what the rulings did, told by the game played (its rider's name)
            assert line == ruling.rules.replace(ruling.model, names.rider(ruling.model), 1), line
            continue
        assert line.startswith("Reference cards: ") and ruling.rules.split(":")[0] in line, line
    events = action_events(*next((activation, activation.actions.index(action))
                                 for activation, action, _ in _rulings(again)))
    assert any(event.kind == "ruling" for event in events)


def test_the_share_page_and_the_viewer_tell_the_rulings_with_the_action(fall_game):
    """REF-FALL, REF-ELEV: a ruling read on the video is read on the shared page's timeline and
    in the viewer's caption of the same action too."""
    from entropy3d.game.timeline import Timeline
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.share.steps import replay_steps

    table = load_scene(FALL_SCENE)
    names = Names.of_table(table)
    entries = replay_steps(fall_game, table, build_table_geometry(table))
    timeline = Timeline(fall_game, fall_game.header.initial)
    assert len(entries) == len(timeline.steps)
    told = captioned = 0
    for index, step in enumerate(timeline.steps):
        action = fall_game.activations[step.activation].actions[step.action]
        page_sentences = [line[0] for line in entries[index]["lines"]]
        timeline.index, timeline.t = index, 1e9
        caption = timeline.caption()
        for ruling in action.rulings:
            told += 1
            assert sentence(ruling, names) in page_sentences
        if action.rulings and action.attack is None:  # an attack after the ride is told after its rulings
            captioned += 1
            assert action.rulings[-1].text in caption, caption
    assert told and captioned, "the game's rides were ruled on"


def test_an_entropy_city_game_has_no_rulings_and_no_rulings_key():
    """The Entropy City replays are unchanged: the key is left out when there are no rulings."""
    replay = play_game(bundled_dir("scenes") / "crossroads.yaml", seed=3, turns=1, producer="geometric")
    assert not _rulings(replay)
    assert b'"rulings"' not in replay_bytes(replay)
