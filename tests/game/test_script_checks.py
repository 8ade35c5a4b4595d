"""A game script is checked against its scene before anything is played: a model, turn, plan,
attack target or weapon the game cannot give is an error with the script's line, key path and
fix, never passed over while the automatic players play on. `entropy3d validate` checks scripts
the same way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from entropy3d.errors import ScriptError
from entropy3d.game.session import play_game

ROOT = Path(__file__).resolve().parents[2]


def write_script(tmp_path, scene: Path, entries: str, turns: int = 2) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text(f"scene: {scene}\nturns: {turns}\nactivations:\n{entries}")
    return path


def refused(script: Path, tmp_path) -> list[tuple[str, int | None, str]]:
    replay = tmp_path / "game.jsonl"
    with pytest.raises(ScriptError) as error:
        play_game(None, producer="geometric", script=script, replay_path=replay)
    assert not replay.exists()  # refused before the game starts: no half-written replay
    return error.value.problems


def test_a_model_not_in_the_scene_is_refused_before_play_with_the_closest_id(small_table_path, tmp_path):
    script = write_script(tmp_path, small_table_path, "  - {turn: 1, model: h1x, plans: ['s1: straight 4']}\n")
    (where, line, message), = refused(script, tmp_path)
    assert (where, line) == ("activations[0].model", 4)
    assert "no model 'h1x'" in message and "did you mean 'h1'?" in message


def test_a_turn_after_the_games_last_is_refused(small_table_path, tmp_path):
    script = write_script(tmp_path, small_table_path, "  - {turn: 3, model: h1, plans: ['s1: straight 4']}\n")
    (where, line, message), = refused(script, tmp_path)
    assert (where, line) == ("activations[0].turn", 4) and "after the game's last (2)" in message


def test_every_problem_is_reported_at_once(small_table_path, tmp_path):
    entries = ("  - {turn: 1, model: h1, plans: ['s1: straight 4'], attack: k1 with bazooka}\n"
               "  - {turn: 1, model: h1, plans: ['s1: straight 4']}\n"
               "  - {turn: 1, model: k1, plans: ['s1: strait 4'], attack: k1}\n"
               "  - {turn: 2, model: k1, attack: k9 with chain}\n")
    problems = refused(write_script(tmp_path, small_table_path, entries), tmp_path)
    assert [(where, line) for where, line, _ in problems] == [
        ("activations[0].attack", 4), ("activations[1]", 5), ("activations[2].plans[0]", 6),
        ("activations[2].attack", 6), ("activations[3].attack", 7)]
    messages = [message for _, _, message in problems]
    assert "unknown weapon 'bazooka'; use chicken, kick, a melee weapon" in messages[0]
    assert "first at activations[0]" in messages[1]
    assert "column 5" in messages[2] and "cannot attack itself" in messages[3] and "no model 'k9'" in messages[4]


def test_an_unknown_key_names_its_line_and_the_closest_key(small_table_path, tmp_path):
    script = write_script(tmp_path, small_table_path, "  - {turn: 1, model: h1, plan: ['s1: straight 4']}\n")
    (where, line, message), = refused(script, tmp_path)
    assert (where, line) == ("activations[0].plan", 4) and "did you mean 'plans'?" in message


def test_validate_checks_a_script_against_the_scene_it_plays_on(small_table_path, tmp_path):
    bundled = ROOT / "scenes" / "scripts" / "crossroads_kicker.yaml"
    bad = write_script(tmp_path, small_table_path, "  - {turn: 1, model: h2, plans: ['s1: straight 4']}\n")
    result = subprocess.run([sys.executable, "-m", "entropy3d", "validate", str(bundled), str(bad)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert f"{bundled}: ok (game script, 5 activation(s) on Crossroads over 2 turn(s))" in result.stdout
    assert "line 4, activations[0].model: no model 'h2'" in result.stderr


def test_a_script_on_a_scene_of_another_game_system_is_refused(tmp_path):
    gang_fight = ROOT / "scenes" / "systems" / "gang_fight.yaml"
    script = write_script(tmp_path, gang_fight, "  - {turn: 1, model: orlock_1, plans: ['s1: straight 3']}\n")
    (where, line, message), = refused(script, tmp_path)
    assert (where, line) == ("", None) and "gang_battle game" in message and "leave out --script" in message


def test_EC_MEL_KICK_a_kick_too_far_in_a_script_is_refused_before_the_game(tmp_path):
    """Clause: EC-MEL-KICK: a kick of 5" or a 90-degree pivot is refused by the script's check, with
    its key path and line, not halfway through the game (review of the first kick)."""
    from entropy3d.game.session import setup_game

    yard = Path(__file__).resolve().parents[1] / "data" / "kick_yard.yaml"
    script = tmp_path / "kicks.yaml"
    script.write_text(f"scene: {yard}\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 6'], attack: k1 with kick push 5}\n"
                      "  - {turn: 2, model: h1, plans: ['s1: straight 6'], attack: k1 with kick pivot 90}\n")
    with pytest.raises(ScriptError) as refused:
        setup_game(None, script=script, producer="geometric")
    said = {where: message for where, _, message in refused.value.problems}
    assert 'a kick pushes at most 3"' in said["activations[0].attack"]
    assert "a kick pivots at most 45 degrees" in said["activations[1].attack"]
