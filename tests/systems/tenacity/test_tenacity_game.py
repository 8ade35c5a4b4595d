"""A 10acity skirmish played on the bundled rooftop skirmish (scenes/systems/rooftop_skirmish.yaml):
``demo`` on a scene whose ``system:`` is tenacity_tactics plays that system (its engine, its
automatic players, its mission), into a replay that is the same bytes for the same seed, and
``act`` takes one figure's turn in its words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.core.event import Event
from entropy3d.game.replay import read_replay
from entropy3d.game.session import play_game, replay_bytes
from entropy3d.systems.entropy_city.state import OUT

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "rooftop_skirmish.yaml"


def events_of(replay) -> list[Event]:
    found = []
    for activation in replay.activations:
        for action in activation.actions:
            found += list(action.events)
            found += list(action.attack.events) if action.attack is not None else []
    return found


@pytest.fixture(scope="module")
def played():
    """Seed 7's three turns: Runner is knocked unconscious, the Reds win 1 - 0 (seed 2 told this
    story until the initiative Perception rolled TEN-ELEV's advantage die)."""
    return play_game(SCENE, seed=7, turns=3, producer="geometric")


def test_the_skirmish_is_played_by_the_tenacity_engine_and_ends(played):
    """Clauses: TEN-TURN, TEN-ATTACK, TEN-COVER, TEN-SIZE, TEN-STRESS through a whole game. The state
    is the skirmish's (mission skirmish, each figure's maximum stress and wound from the rules
    data), every attack names the TEN-* clauses, no Entropy City clause is applied, figures take
    stress, each turn's order is one side then the other (group initiative), and the score is the
    mission's: a point for each enemy knocked unconscious. The game ends: its turns or a side down."""
    initial = played.header.initial
    assert initial.mission == "skirmish" and {m.max_stress for m in initial.models.values()} == {5}
    events = events_of(played)
    attacks = [e for e in events if e.kind == "shot"]
    assert attacks and all({"TEN-ATTACK", "TEN-COVER", "TEN-SIZE"} <= set(e.clauses) for e in attacks)
    assert not [c for e in events for c in e.clauses if c.startswith("EC-")]
    assert any("stress" in e.figures or "damage" in e.figures for e in events)
    for turn in played.turns:
        sides = [initial.model(m).gang for m in turn.order]
        assert sides == sorted(sides, key=lambda g: g != turn.first_player)  # the first side, then the other
    end = played.end.state
    for gang in end.score:
        assert end.score[gang] == sum(1 for m in end.models.values() if m.gang != gang and m.status == OUT)
    assert [m.id for m in end.models.values() if m.status == OUT] == ["runner"]
    assert any(e.figures.get("out_of_action") for e in events) and played.end.winner == "reds"
    assert played.end.turns_played == 3


def test_a_long_skirmish_ends_when_a_side_has_no_figure_conscious():
    """Clause: TEN-STRESS. The mission (DECISION): the skirmish ends when a side has no figure
    conscious. Seed 3 given 20 turns: the Blues' last figure falls unconscious in turn 11; the Reds,
    who knocked out three and lost one, win 3 - 1 (turn 13 and 3 - 2 while the initiative
    Perception rolled no TEN-ELEV advantage die; turn 12 and 3 - 1 while partial hard cover
    wrongly doubled the damage a figure behind it took). The same seed plays the same bytes."""
    long = play_game(SCENE, seed=3, turns=20, producer="geometric")
    assert long.end.reason == "blues has no figure conscious" and long.end.turns_played == 11
    assert long.end.score == {"reds": 3, "blues": 1} and long.end.winner == "reds"
    assert replay_bytes(play_game(SCENE, seed=3, turns=20, producer="geometric")) == replay_bytes(long)


def test_walks_are_walked_by_the_shared_producer(played):
    """Clause: TEN-MOVE. A figure's walk is walked by the producer and it stands where the walk
    ended, within its movement speed (6 spaces of 1")."""
    moves = [a for act in played.activations for a in act.actions if a.action.kind == "move"]
    assert moves
    for move in moves:
        assert move.facts is not None and move.facts.producer == "geometric"
        assert move.model_after.pose.xy == pytest.approx(move.facts.end_pose.xy)
        assert move.facts.progress_in <= 6.0 + 1e-6


def test_same_seed_same_bytes_another_seed_another_game(played):
    """Determinism: the dice and the players come from the seed only."""
    again = play_game(SCENE, seed=7, turns=3, producer="geometric")
    assert replay_bytes(again) == replay_bytes(played)
    other = play_game(SCENE, seed=1, turns=3, producer="geometric")
    assert replay_bytes(other) != replay_bytes(played)


def test_TEN_ELEV_on_the_rooftops_a_figure_above_an_enemy_rolls_initiative_with_an_advantage_die(played):
    """Clauses: TEN-ELEV, TEN-TURN. "Being in an elevated position gives an advantage die to
    perception checks": Sniper on the tower (storey 3), Guard and Runner on the works (2) and
    Spotter on the shed (1) each stand above an enemy in the street; Lookout and Scout stand in it.
    The first turn's initiative rolls their Perception with one more die each: 6 figures of 2
    Perception dice and 4 advantage dice, 16 dice (scripted 1s: the Reds 1 + 1, the Blues 1 +
    Spotter's rank 2). The game's first turn opens saying who rolled the die."""
    from entropy3d.game.session import setup_game
    from tests.systems.tenacity.conftest import Dice

    game, _ = setup_game(SCENE, seed=7, producer="geometric")
    dice = Dice(*[1] * 16)
    start = game.engine.start_turn(game.state, dice, None)
    assert len(dice.sides) == 16 and not dice.faces and (start.rolls, start.first) == (((2, 3),), "blues")
    first = next(a for a in played.activations if a.turn == 1)
    elevated = [e for e in first.events if "TEN-ELEV" in e.clauses]
    assert sorted(e.model for e in elevated) == ["guard", "runner", "sniper", "spotter"]
    assert all(e.figures["initiative_advantage"] == 1 for e in elevated)


def test_demo_plays_the_skirmish_renders_it_and_replay_check_passes(tmp_path):
    """``entropy3d demo`` on the rooftop skirmish plays 10acity (not Entropy City) into a video and
    a replay, and ``replay-check`` plays it again in another process to the same bytes."""
    run = [sys.executable, "-m", "entropy3d"]
    done = subprocess.run([*run, "demo", str(SCENE), "--turns", "1", "--seed", "1", "--producer", "geometric",
                           "--out", str(tmp_path / "t.gif"), "--replay", str(tmp_path / "t.jsonl"),
                           "--size", "128x72", "--fps", "5"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Rooftop Skirmish" in done.stdout and (tmp_path / "t.gif").stat().st_size > 1000
    assert not re.search(r"\b(reds|blues)\b", done.stdout), "the summary names a side by its id"
    lines = (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["initial"]["mission"] == "skirmish"
    assert any(e.kind == "shot" for e in events_of(read_replay(tmp_path / "t.jsonl")))
    check = subprocess.run([*run, "replay-check", str(tmp_path / "t.jsonl")], capture_output=True, text=True,
                           timeout=600)
    assert check.returncode == 0 and "deterministic" in check.stdout, check.stderr


def test_act_takes_one_turn_in_the_tenacity_engine():
    """Clauses: TEN-ATTACK, TEN-COVER, TEN-TURN through ``entropy3d act``, the system's own move
    command: Guard attacks Runner past the concrete barrier (partial hard cover: one size smaller,
    -1 and a disadvantage die: seed 4 rolls 8,10,9, the 10 set aside, 9 + 1 - 1 = 9) against
    Runner's Reaction (3 dice: 6,10,10, 10 + 1 and a natural 10's hero die 10 = 21), named by name,
    the kept faces, ranks and the critical's die told in the rules' own words under the sentence;
    a second attack in the same turn is refused naming TEN-TURN; a walk past the movement speed is
    refused naming TEN-MOVE."""
    runner = CliRunner()
    done = runner.invoke(app, ["act", str(SCENE), "-m", "guard", "-a", "attack runner", "--seed", "4",
                               "--producer", "geometric"])
    assert done.exit_code == 0, done.output
    assert ("Guard attacks Runner with the pistol (in partial hard cover, -1 to attack): 9 (dice 8,10,9) v 21 "
            "(dice 6,10,10) - misses") in done.output
    # the kept faces, the ranks and the natural 10's hero die: 21 is no sum of the faces shown
    assert "rules: attacks Runner with the pistol" in done.output
    assert "attack 9 (of 8,10,9) +1 -1 = 9 v defence 10 (of 6,10,10) +1 +10 (critical) = 21: misses" in done.output
    said = [line for line in done.output.splitlines() if line.startswith("  ")]  # the events, not the echo
    assert not [line for line in said if "runner" in line] and "TEN-COVER" in done.output
    twice = runner.invoke(app, ["act", str(SCENE), "-m", "guard", "-a", "attack runner", "-a", "attack runner",
                                "--seed", "4", "--producer", "geometric"])
    assert twice.exit_code == 1 and "(TEN-TURN)" in twice.output and "Traceback" not in twice.output
    far = runner.invoke(app, ["act", str(SCENE), "-m", "lookout", "-a", "walk: straight 7", "--producer",
                              "geometric"])
    assert far.exit_code == 1 and "(TEN-MOVE)" in far.output


def test_TEN_COVER_an_attack_is_filmed_along_its_sight_line_in_the_systems_words(played):
    """Clauses: TEN-COVER, TEN-SIZE. The video's fight view of every attack: the sight line from the
    attacker's eye (a figure on foot) to its target, labelled with the share seen and 10acity's own
    cover and attack modifier; an attack at a target partly behind hard cover reads "in partial
    hard cover, -1 to attack" (one size smaller) and is drawn in the cover colour; a figure its
    stress puts down is UNCONSCIOUS (TEN-STRESS), not the gang rules' OUT OF ACTION."""
    from entropy3d.scene.rulesfile import load_ruleset
    from entropy3d.systems import find_system
    from entropy3d.video.fight import COVER_COLOUR, fight_view, label_text, line_colour

    ruleset = load_ruleset()
    figures = frozenset(played.header.initial.models)
    system = find_system("tenacity_tactics")
    views = [(action, fight_view(action.attack, ruleset, figures, system))
             for activation in played.activations for action in activation.actions if action.attack is not None]
    assert views and all(view is not None and view.attacker == action.action.model_id for action, view in views)
    action, view = next((a, v) for a, v in views if v.cover == "partial hard")
    assert label_text(view).endswith("% visible - in partial hard cover, -1 to attack")
    assert line_colour(view) == COVER_COLOUR and view.target == action.action.target
    downed = [view for _, view in views if view.taken_out]
    assert downed and all(view.banner == "UNCONSCIOUS" for view in downed)


def test_TEN_PRONE_the_video_shows_a_figure_stood_up_as_standing_while_it_shoots(played):
    """Clause: TEN-PRONE. In turn 3 Guard starts prone, stands up, walks and attacks: the video's
    panel showed PRONE through the walk and the attack (the activation's starting state); the
    figure as the viewer knows it during each action is as the action before left it."""
    from entropy3d.video.pacing import seen_model

    [guard] = [a for a in played.activations if a.turn == 3 and a.model_id == "guard"]
    assert [step.action.kind for step in guard.actions] == ["stand_up", "move", "attack"]
    assert "prone" in guard.state_before.model("guard").conditions
    stand, walk, attack = guard.actions
    assert seen_model(guard, stand, holding=False) is None  # nothing done yet: the starting state
    assert "prone" not in seen_model(guard, stand, holding=True).conditions
    assert "prone" not in seen_model(guard, walk, holding=False).conditions
    assert "prone" not in seen_model(guard, attack, holding=False).conditions


def test_TEN_ATTACK_every_shot_is_filmed_with_both_figures_in_frame():
    """Clause: TEN-ATTACK. The demo of seed 7 filmed the Lookout's and the Scout's rifle shots with
    the ride's camera, their target out of frame or under the panels: the Lookout stands 1.5" from
    the table's edge, and no fight camera kept the void beyond it under the usual share. Every shot
    now gets a fight camera with both figures inside the frame, over the HUD's panels."""
    import numpy as np

    from entropy3d.render.cameras import occluder_mesh
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.systems import find_system
    from entropy3d.video.director import project
    from entropy3d.video.fight import CLEAR_BAND_Y, fight_of

    replay = play_game(SCENE, seed=7, turns=2, producer="geometric")
    table = load_scene(SCENE)
    occluders = occluder_mesh(build_table_geometry(table))
    on_foot = {m.id for m in replay.header.initial.models.values() if m.on_foot}
    shots = 0
    for activation in replay.activations:
        for action in activation.actions:
            if action.attack is None:
                continue
            view, camera = fight_of(action, table.ruleset, (table.width, table.depth), occluders, on_foot,
                                    find_system(table.spec.system))
            if view is None:
                continue
            shots += 1
            assert camera is not None, f"no fight camera for {view.attacker}'s shot at {view.target}"
            eye, look, fov = camera
            points = project(eye, look, fov, np.array([view.shooter, view.aim]))
            assert np.all(np.abs(points[:, 0]) < 0.95), (view.attacker, points)
            assert np.all((points[:, 1] > CLEAR_BAND_Y[0]) & (points[:, 1] < CLEAR_BAND_Y[1])), (view.attacker, points)
    assert shots >= 6
