"""A game of the gang battle rules played on the bundled gang fight (scenes/systems/gang_fight.yaml):
``demo`` on a scene whose ``system:`` is gang_battle plays that system (its engine, its automatic
players, its mission), into a replay that is the same bytes for the same seed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from entropy3d.core.event import Event
from entropy3d.game.replay import read_replay
from entropy3d.game.session import play_game, replay_bytes
from entropy3d.systems.entropy_city.state import OUT

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "gang_fight.yaml"


def events_of(replay) -> list[Event]:
    found = []
    for activation in replay.activations:
        for action in activation.actions:
            found += list(action.events)
            found += list(action.attack.events) if action.attack is not None else []
    return found


@pytest.fixture(scope="module")
def played():
    return play_game(SCENE, seed=7, turns=3, producer="geometric")


def test_the_gang_fight_is_played_by_the_gang_battle_engine(played):
    """Clauses: GANG-ARC, GANG-SHOOT, GANG-INJURY, GANG-TURN through a whole game. The state is the
    gang fight's (mission gang_fight, wounds from the fighters' stats: Harl has 2), every shot names
    the GANG-* clauses (a close-combat blow GANG-CC), no Entropy City clause is applied, fighters
    are hurt, and the score is the mission's: a point for each enemy Out of Action."""
    initial = played.header.initial
    assert initial.mission == "gang_fight" and initial.model("orlock_5").wounds == 2
    assert "prone" in initial.model("orlock_3").conditions
    events = events_of(played)
    shots = [e for e in events if e.kind == "shot" and not e.figures.get("close_combat")]
    assert shots and all({"GANG-ARC", "GANG-COVER", "GANG-SHOOT"} <= set(e.clauses) for e in shots)
    blows = [e for e in events if e.kind == "shot" and e.figures.get("close_combat")]  # a Fight's attack dice
    assert all("GANG-CC" in e.clauses for e in blows)
    assert not [c for e in events for c in e.clauses if c.startswith("EC-")]
    end = played.end.state
    hurt = [m for m in end.models.values() if m.status == OUT or m.conditions != initial.model(m.id).conditions]
    assert hurt
    for gang in end.score:
        taken = sum(1 for m in end.models.values() if m.gang != gang and m.status == OUT)
        assert end.score[gang] == taken
    first = played.turns[0]
    assert first.first_player in ("orlock", "escher") and len(first.roll_off[0]) == 2
    assert set(first.order) == set(initial.models)  # every fighter is Ready (GANG-TURN)


def test_moves_are_walked_by_the_shared_producer(played):
    """Clause: GANG-MOVE. A fighter's move is ridden by the producer (the figure's walk) and the
    fighter stands where the walk ended."""
    moves = [a for act in played.activations for a in act.actions if a.action.kind == "move"]
    assert moves
    for move in moves:
        assert move.facts is not None and move.facts.producer == "geometric"
        assert move.model_after.pose.xy == pytest.approx(move.facts.end_pose.xy)
        assert move.facts.progress_in <= 6.0 + 1e-6  # the longest MVMT of the scene (Sable's)


def test_same_seed_same_bytes_another_seed_another_game(played):
    """Determinism: the dice and the players come from the seed only."""
    again = play_game(SCENE, seed=7, turns=3, producer="geometric")
    assert replay_bytes(again) == replay_bytes(played)
    other = play_game(SCENE, seed=8, turns=3, producer="geometric")
    assert replay_bytes(other) != replay_bytes(played)


def test_demo_plays_the_gang_fight_renders_it_and_replay_check_passes(tmp_path):
    """``entropy3d demo`` on the gang fight plays gang battle rules (not Entropy City) into a video
    and a replay, and ``replay-check`` plays it again in another process to the same bytes."""
    run = [sys.executable, "-m", "entropy3d"]
    done = subprocess.run([*run, "demo", str(SCENE), "--turns", "2", "--seed", "3", "--producer", "geometric",
                           "--out", str(tmp_path / "g.gif"), "--replay", str(tmp_path / "g.jsonl"),
                           "--size", "128x72", "--fps", "5"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Gang Fight on the Ruined Highway" in done.stdout and (tmp_path / "g.gif").stat().st_size > 1000
    assert not re.search(r"\b(orlock|escher)\b", done.stdout), "the summary names a gang by its id"
    lines = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["initial"]["mission"] == "gang_fight"
    assert any(e.kind == "shot" for e in events_of(read_replay(tmp_path / "g.jsonl")))
    check = subprocess.run([*run, "replay-check", str(tmp_path / "g.jsonl")], capture_output=True, text=True,
                           timeout=600)
    assert check.returncode == 0 and "deterministic" in check.stdout, check.stderr


def test_a_script_is_refused_on_a_gang_fight_with_the_fix(tmp_path):
    """Scripts hold Entropy City plans: on a gang_battle scene the error names the scene's system."""
    script = tmp_path / "s.yaml"
    script.write_text("seed: 1\nactivations: []\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "entropy3d", "demo", str(SCENE), "--script", str(script),
                           "--out", str(tmp_path / "x.gif")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "gang_battle" in done.stderr and "--script" in done.stderr


def test_GANG_MOVE_activate_walks_a_fighter_in_the_gang_battles_words():
    """Clause: GANG-MOVE. ``activate`` is the one command for any rulebook (issue 44): on a gang
    fight its plans are the fighter's actions in the gang battle's words, checked by its engine;
    a bike's plan is refused by that engine, cleanly, naming the actions there are."""
    done = subprocess.run([sys.executable, "-m", "entropy3d", "activate", str(SCENE), "-m", "orlock_4",
                           "-p", "walk: pivot left 90, straight 5", "--producer", "geometric", "--seed", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "walked 5.0\"; GANG-MOVE" in done.stdout and "Krug: in play" in done.stdout
    bike = subprocess.run([sys.executable, "-m", "entropy3d", "activate", str(SCENE), "-m", "orlock_1",
                           "-p", "s1: straight 3", "--producer", "geometric"], capture_output=True, text=True,
                          timeout=600)
    assert bike.returncode == 1 and "Traceback" not in bike.stderr
    assert "unknown action 's1: straight 3'" in bike.stderr and "(GANG-TURN)" in bike.stderr


def test_a_weapon_the_rules_data_lacks_names_the_model_and_the_choices(tmp_path):
    """A fighter's ``stats.weapon`` is checked against rules/gang_battle.yaml's ``weapons:`` before
    a game starts: the error names the key path and the weapons there are."""
    from entropy3d.errors import SceneError
    from entropy3d.game.session import setup_game

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "models").symlink_to(SCENE.parents[2] / "models")
    scene = tmp_path / "a" / "b" / "gang.yaml"
    scene.write_text(SCENE.read_text(encoding="utf-8").replace("weapon: stub_gun", "weapon: flamer"),
                     encoding="utf-8")
    with pytest.raises(SceneError) as caught:
        setup_game(scene, producer="geometric")
    [(key, _, message)] = caught.value.problems
    assert key == "models[3].stats.weapon" and "'flamer'" in message and "autogun" in message


def test_act_plays_one_activation_in_the_gang_battle_engine():
    """Clauses: GANG-PIN, GANG-ARC, GANG-MOVE through ``entropy3d act``, the system's own move
    command: Dreg (orlock_3) starts Prone & Pinned, stands up and shoots the closest Escher in his
    arc (Lyra, escher_1); Krug (orlock_4), facing 190°, turns 90° left and moves his 5" (5 x
    (cos 280°, sin 280°) = (+0.87, -4.92) from (34, 21.5)) but not 9"; a refused action is one line
    naming the clause."""
    from typer.testing import CliRunner

    from entropy3d.cli import app

    runner = CliRunner()
    done = runner.invoke(app, ["act", str(SCENE), "-m", "orlock_3", "-a", "stand up", "-a", "shoot", "--seed", "4",
                               "--producer", "geometric"])
    assert done.exit_code == 0, done.output
    assert "Dreg stands up: no longer Prone & Pinned\n    GANG-PIN" in done.output  # riders by name
    assert "Dreg shoots Lyra with the autogun (in the open, +0 to hit)" in done.output
    assert "escher_1" not in done.output and "line of sight: Lyra 100% visible" in done.output
    # GANG-WOUND: the small print under the hit gives each hit's wound roll and armour save
    # GANG-AMMO: the Firepower die says how many hits ("'6' = 3 hits"): told beside them
    hits = int(re.search(r"needing 4\+: (\d) hits \(Firepower 6\)", done.output).group(1))
    small_print = done.output.split("Lyra is hit by Dreg: ")[1].splitlines()[1].strip()
    rolls = re.findall(r"wound (\d) needing (\d)\+(?:, save (\d) needing (\d)\+: (saved|unsaved)|: no wound)",
                       small_print)
    assert small_print.startswith("GANG-WOUND; ") and len(rolls) == hits == 3, small_print
    for wound, needed, save, save_needed, verdict in rolls:
        assert (int(wound) >= int(needed)) == bool(save)
        assert not save or (verdict == "saved") == (int(save) >= int(save_needed))
    moved = runner.invoke(app, ["act", str(SCENE), "-m", "orlock_4", "-a", "walk: pivot left 90, straight 5",
                                "--seed", "4", "--producer", "geometric"])
    assert moved.exit_code == 0 and "Krug walks 5\" on foot\n    geometric: walked 5.0\"; GANG-MOVE" in moved.output
    assert "Krug: in play, 1 wound left, no conditions, at (34.87, 16.58) facing 280°" in moved.output
    refused = runner.invoke(app, ["act", str(SCENE), "-m", "orlock_4", "-a", "walk: straight 9", "--producer",
                                  "geometric"])
    assert refused.exit_code == 1 and "(GANG-MOVE)" in refused.output and "Traceback" not in refused.output
    # the state line gives conditions in the rulebook's words, not as ids (GANG-AMMO)
    empty = runner.invoke(app, ["act", str(SCENE), "-m", "orlock_3", "-a", "stand up", "-a", "shoot", "--seed", "3",
                                "--producer", "geometric"])
    assert "Firepower 1: Ammo check" in empty.output and "is Out of Ammo" in empty.output
    assert "Dreg: in play, 1 wound left, Out of Ammo, at" in empty.output and "out_of_ammo" not in empty.output
    # the same command rides Entropy City on its tables: `act` is `activate`'s other name
    other = runner.invoke(app, ["act", str(SCENE.parents[1] / "crossroads.yaml"), "-m", "hades_1", "-a",
                                "s1: straight 6", "--producer", "geometric", "--seed", "1"])
    assert other.exit_code == 0 and "rides 6" in other.output, other.output


def test_GANG_BOTTLE_a_bottled_gang_fights_on_making_cool_checks_each_turn(played):
    """Clause: GANG-BOTTLE. Seed 7: a gang fails its bottle check at the end of turn 1, and the fight
    goes on (``bottled_gang: cool_checks``): each later turn opens (the turn's first activation's
    start events) with a Cool check for each of its fighters still on the table, those failing
    flee Out of Action and the other gang scores for them."""
    failed = [e for e in events_of(played) if e.kind == "condition" and e.figures.get("bottled")]
    assert failed, "no gang bottled out in this game"
    gang = failed[0].figures["gang"]
    assert played.end.turns_played == 3 and "bottled out" not in played.end.reason
    turn_of_failure = next(a.turn for a in played.activations
                           for x in a.actions for e in x.events if e is failed[0] or e == failed[0])
    for turn in range(turn_of_failure + 1, played.end.turns_played + 1):
        first = next(a for a in played.activations if a.turn == turn)
        checks = [e for e in first.events if e.clauses == ("GANG-BOTTLE",) and "dice" in e.figures]
        standing = [m for m in first.state_before.models.values() if m.gang == gang]
        assert checks and {e.model for e in checks} <= {m.id for m in standing}
        for check in checks:
            assert check.figures["fled"] == (sum(check.figures["dice"]) < check.figures["needed"])
            assert (first.state_before.model(check.model).status == OUT) == check.figures["fled"]


def test_GANG_PIN_act_refuses_a_prone_fighter_by_name():
    """Clause: GANG-PIN. Dreg (orlock_3) starts Prone & Pinned: a shot is refused naming the
    clause and Dreg by name, as every other line of `act` names him, not as orlock_3."""
    from typer.testing import CliRunner

    from entropy3d.cli import app

    refused = CliRunner().invoke(app, ["act", str(SCENE), "-m", "orlock_3", "-a", "shoot", "--seed", "1",
                                       "--producer", "geometric"])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert "error: Dreg is Prone & Pinned" in refused.output and "(GANG-PIN)" in refused.output, refused.output
    assert "orlock_3 is" not in refused.output
