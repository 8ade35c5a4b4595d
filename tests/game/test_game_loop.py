"""The game loop with the geometric producer (no physics): turns, order, actions, replay, scripts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.errors import ReplayError, ScriptError
from entropy3d.game.replay import ReplayWriter, load_source, read_replay, scene_file
from entropy3d.game.session import play_game, replay_bytes, resimulate
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, ModelState, State


def _play(path, seed=3, turns=6, **kwargs):
    return play_game(path, seed=seed, turns=turns, producer="geometric", **kwargs)


def test_same_seed_same_replay_bytes_and_resimulation_matches(small_table_path, tmp_path):
    first = _play(small_table_path, replay_path=tmp_path / "a.jsonl")
    _play(small_table_path, replay_path=tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert replay_bytes(first) == (tmp_path / "a.jsonl").read_bytes()
    identical, _ = resimulate(tmp_path / "a.jsonl")
    assert identical


@pytest.mark.parametrize("producer", ["geometric", "physics"])
def test_same_seed_same_bytes_in_separate_processes(small_table_path, tmp_path, producer):
    code = ("import sys; from entropy3d.game.session import play_game; "
            f"play_game(sys.argv[1], seed=11, turns=2, producer={producer!r}, replay_path=sys.argv[2])")
    for name in ("p1.jsonl", "p2.jsonl"):
        subprocess.run([sys.executable, "-c", code, str(small_table_path), str(tmp_path / name)], check=True)
    assert (tmp_path / "p1.jsonl").read_bytes() == (tmp_path / "p2.jsonl").read_bytes()


def test_different_seeds_play_different_games(small_table_path):
    plans = {tuple(a.plan for act in _play(small_table_path, seed=s, turns=3).activations for a in act.actions)
             for s in range(4)}
    assert len(plans) >= 3


def test_EC_TURN_1_to_4_turn_structure(small_table_path):
    """Clause: EC-TURN-1, EC-TURN-2, EC-TURN-3, EC-TURN-4. The roll-off decides who goes first,
    faster models activate first, two actions per activation, speed 1 in the first action."""
    replay = _play(small_table_path, seed=5, turns=5)
    assert replay.turns, "no turn was played"
    for turn in replay.turns:
        a, b = turn.roll_off[-1]
        assert a != b
        activations = [x for x in replay.activations if x.turn == turn.turn]
        played = [x.model_id for x in activations]
        if turn is replay.turns[-1] and "gang" in replay.end.reason:
            assert played == list(turn.order)[:len(played)]  # the game ended inside this turn
        else:
            assert played == list(turn.order)
        speeds = [x.state_before.model(x.model_id).speed for x in activations if not x.skipped]
        first_of_turn = activations[0].state_before
        start_speeds = [first_of_turn.model(m).speed for m in turn.order]
        assert start_speeds == sorted(start_speeds, reverse=True), speeds
    for activation in replay.activations:
        assert len(activation.actions) <= 2
    opening = [x for x in replay.activations if x.turn == 1 and x.actions]
    assert opening and all(x.actions[0].speed == 1 for x in opening if x.actions[0].plan)


def test_records_round_trip_through_the_replay_file(small_table_path, tmp_path):
    replay = _play(small_table_path, replay_path=tmp_path / "r.jsonl")
    loaded = read_replay(tmp_path / "r.jsonl")
    assert len(loaded.activations) == len(replay.activations)
    assert loaded.end.score == replay.end.score
    for a, b in zip(loaded.activations, replay.activations):
        assert a.state_after.to_json() == b.state_after.to_json()
        for x, y in zip(a.actions, b.actions):
            assert x.plan == y.plan and np.allclose(x.trajectory, y.trajectory, atol=1e-3)


def test_replay_writer_leaves_no_file_when_interrupted(tmp_path):
    target = tmp_path / "game.jsonl"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        with ReplayWriter(target) as writer:
            writer.stream.write("{\"half\": ")
            raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [target]


def test_bad_replay_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "format": "something-else"}\n')
    with pytest.raises(ReplayError) as error:
        read_replay(bad)
    assert "bad.jsonl" in str(error.value) and "line 1" in str(error.value)


def test_long_automatic_game_stays_finite_and_out_of_walls(small_table_path):
    """A long game (geometric producer) keeps every pose finite, on the table or out, never in a building."""
    table = load_scene(small_table_path)
    probe = SceneProbe.from_table(table)
    for seed in range(3):
        replay = _play(small_table_path, seed=seed, turns=40)
        for activation in replay.activations:
            for bike in activation.state_after.models.values():
                assert np.isfinite([bike.pose.x, bike.pose.y, bike.pose.z, bike.pose.facing_deg]).all()
                assert 0 <= bike.stress <= 30 and bike.wounds >= 0
                if bike.status != OUT:
                    assert probe.building_entered(bike.pose.xy[None, :], bike.pose.z) is None


def test_scripted_game_follows_the_script(small_table_path, tmp_path):
    script = tmp_path / "stage.yaml"
    script.write_text(f"scene: {small_table_path}\nturns: 1\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 6', 's2: straight 10']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: right tight 3, straight 1', 's1: straight 4']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    plans = {a.model_id: [x.plan for x in a.actions] for a in replay.activations}
    assert plans["h1"][0] == "s1: straight 6"
    assert plans["k1"][0] == "s1: right tight 3, straight 1"


def test_scripted_illegal_plan_names_the_entry_and_clause(small_table_path, tmp_path):
    script = tmp_path / "bad.yaml"
    script.write_text(f"scene: {small_table_path}\nturns: 1\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s3: straight 16']}\n")
    with pytest.raises(ScriptError) as error:
        play_game(None, seed=1, producer="geometric", script=script)
    text = str(error.value)
    assert "bad.yaml" in text and "line 4, activations[0].plans[0]" in text and "EC-TURN-4" in text


def test_script_with_unknown_key_is_rejected(tmp_path):
    script = tmp_path / "typo.yaml"
    script.write_text("activatons: []\n")
    with pytest.raises(ScriptError) as error:
        play_game(None, producer="geometric", script=script)
    assert "activatons" in str(error.value)


def _state(mission, *models) -> State:
    return State(1, mission, {m.id: m for m in models}, {}, {"a": 0, "b": 0})


def _model(model_id, gang, status, wounds=2) -> ModelState:
    from entropy3d.geometry import Pose

    return ModelState(model_id, gang, "police", Pose(1, 1), 1, 0, wounds, 10, status=status)


def test_turf_war_scores_take_outs_and_busts(ruleset):
    """Mission Types, Turf War: a point per take-out, minus one per bust (rules data missions.turf_war)."""
    victim = _model("v", "a", OUT, wounds=0)
    state = _state(missions.TURF_WAR, victim, _model("w", "b", "riding"))
    state = missions.score_bust(state, victim, ruleset)
    state = missions.score_taken_out(state, victim, "b", ruleset)
    assert state.score == {"a": -1, "b": 1}
    assert missions.game_over(state) == "only one gang left on the table"
    assert missions.winner(state) == "b"


def test_lovers_point_scores_escapes_double(ruleset):
    """Mission Types, Lovers Point Brawl: a point per enemy taken out, two per escape, no bust cost."""
    runner = _model("r", "a", ESCAPED)
    victim = _model("v", "b", OUT, wounds=0)
    state = _state(missions.LOVERS_POINT, runner, victim)
    state = missions.score_escaped(state, runner, ruleset)
    state = missions.score_taken_out(state, victim, None, ruleset)
    state = missions.score_bust(state, victim, ruleset)
    assert state.score == {"a": 3, "b": 0}


@pytest.fixture(scope="module")
def ruleset():
    from entropy3d.scene.rulesfile import load_ruleset

    return load_ruleset()


def test_replay_is_json_lines_with_sorted_keys(small_table_path, tmp_path):
    _play(small_table_path, turns=2, replay_path=tmp_path / "r.jsonl")
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[0] == "header" and kinds[-1] == "end" and "activation" in kinds
    assert all(line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")) for line in lines)


def test_physics_game_is_deterministic_and_sane(small_table_path, tmp_path):
    """A short game with the physics producer: same bytes twice, finite poses."""
    for name in ("a.jsonl", "b.jsonl"):
        play_game(small_table_path, seed=4, turns=3, producer="physics", replay_path=tmp_path / name)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    replay = read_replay(tmp_path / "a.jsonl")
    ridden = [a for act in replay.activations for a in act.actions if a.plan]
    assert ridden and all(np.isfinite(a.trajectory).all() for a in ridden)
    assert any(len(a.trajectory) > 10 for a in ridden)
    assert Path(replay.header.scene) == small_table_path


@pytest.mark.parametrize("script", sorted((Path(__file__).resolve().parents[2] / "scenes" / "scripts").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_bundled_scripts_play(script):
    """Every bundled staging script validates and its plans are legal on its scene."""
    replay = play_game(None, producer="geometric", script=script)
    scripted = {(a.turn, a.model_id) for a in replay.activations if a.actions}
    from entropy3d.game.script import load_script

    game_script, _, _ = load_script(script)
    assert {(e.turn, e.model) for e in game_script.activations} <= scripted
    for entry in game_script.activations:
        played = next(a for a in replay.activations if (a.turn, a.model_id) == (entry.turn, entry.model))
        assert [x.plan for x in played.actions][:len(entry.plans)] == [str(parse(p)) for p in entry.plans]


def parse(text):
    from entropy3d.systems.entropy_city.plan import parse_plan

    return parse_plan(text)


def test_resimulating_a_replay_of_other_code_or_scene_is_refused(small_table_path, tmp_path):
    replay = tmp_path / "r.jsonl"
    _play(small_table_path, turns=1, replay_path=replay)
    lines = replay.read_text().splitlines()
    header = json.loads(lines[0])
    for key, words in (("engine_sha256", "different version"), ("scene_sha256", "changed")):
        changed = dict(header, **{key: "0" * 64})
        replay.write_text("\n".join([json.dumps(changed)] + lines[1:]) + "\n")
        with pytest.raises(ReplayError, match=words):
            resimulate(replay)


def test_EC_ACT_ATTACK_a_script_names_its_attack_target_and_weapon(ruleset, tmp_path):
    """`attack: TARGET [with WEAPON]` picks that attack among the ones the rules allow, and none
    when the named weapon is not allowed there."""
    from types import SimpleNamespace

    from entropy3d.game.players import AttackOption
    from entropy3d.game.script import GameScript, ScriptedPlayer

    options = [AttackOption("chicken", "h1", 15), AttackOption("chain", "h1", 14), AttackOption("pistol", "h2", 13)]
    view = SimpleNamespace(state=SimpleNamespace(turn=1), model=SimpleNamespace(id="k1", attacks_made=0))

    def chosen(attack):
        script = GameScript(activations=[{"turn": 1, "model": "k1", "plans": ["s1: straight 6"], "attack": attack}])
        choice = ScriptedPlayer(script, tmp_path / "s.yaml", ruleset, None).choose_attack(view, options)
        return None if choice is None else (choice.kind, choice.target)

    assert chosen("h1 with chain") == ("chain", "h1")
    assert chosen("h1") == ("chicken", "h1")
    assert chosen("h2 with pistol") == ("pistol", "h2")
    assert chosen("h2 with chain") is None


def test_a_replay_finds_its_scene_where_it_moved_and_says_where_it_looked(small_table_path, tmp_path):
    """A replay names its scene as given when it was played. Sent elsewhere, or its scene moved,
    a file of the same name and bytes beside the replay (or among the bundled scenes) is its
    scene, and it plays again byte for byte; a file of that name with other bytes is not."""
    played, kept = tmp_path / "played", tmp_path / "kept"
    played.mkdir()
    kept.mkdir()
    scene = played / "arena.yaml"
    scene.write_bytes(small_table_path.read_bytes())
    path = kept / "game.jsonl"
    _play(scene, turns=1, replay_path=path)
    scene.unlink()
    with pytest.raises(ReplayError, match=r"header\.scene.*arena\.yaml.*is not there.*put the scene file back"):
        scene_file(read_replay(path))
    (kept / "arena.yaml").write_text(small_table_path.read_text() + "\n# edited\n")
    with pytest.raises(ReplayError, match="with the same bytes"):
        scene_file(read_replay(path))
    (kept / "arena.yaml").write_bytes(small_table_path.read_bytes())
    assert scene_file(read_replay(path)) == kept / "arena.yaml"
    identical, _ = resimulate(path)
    assert identical


def test_a_replay_of_a_bundled_scene_made_elsewhere_finds_the_bundled_scene(tmp_path):
    path = tmp_path / "r.jsonl"
    play_game(None, seed=2, turns=1, producer="geometric", replay_path=path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    path.write_text("\n".join([json.dumps(dict(header, scene="/home/someone/entropy3d/scenes/crossroads.yaml"),
                                          sort_keys=True, separators=(",", ":"))] + lines[1:]) + "\n")
    assert scene_file(read_replay(path)) == bundled_dir("scenes") / "crossroads.yaml"
    table, _, replay = load_source(path)
    assert table.spec.name == header["scene_name"] and replay.source == path


@pytest.mark.parametrize("scene", ["tests/data/tag_yard.yaml", "scenes/systems/rooftop_skirmish.yaml",
                                   "scenes/systems/gang_fight.yaml", "scenes/crossroads.yaml"])
def test_one_loop_records_every_rulebook_alike(scene):
    """Every rulebook plays on the one loop (game/loop.py) into the same records: an action's
    stress before and after is its model's as the rules left it (10acity's figures take stress,
    TEN-STRESS; the loop of the other rulebooks once wrote 0), an End Phase that did nothing
    leaves no action behind (Tag's has none; it once added an empty ``end`` to every turn), and
    an attack that spends no action of its own (Entropy City's, EC-ACT-ATTACK) is the ``attack``
    of the ride it came from, where the other rulebooks' shots are actions of their own."""
    replay = _play(Path(__file__).parents[2] / scene, seed=7, turns=3)
    actions = [(activation, action) for activation in replay.activations for action in activation.actions]
    assert actions
    for activation, action in actions:
        assert action.stress_after == action.model_after.stress, (activation.model_id, action.index)
    if "tag_yard" in scene:
        assert not any(action.action.kind == "end" for _, action in actions)
    attacks = [action for _, action in actions if action.attack is not None]
    if "crossroads" in scene or "gang_fight" in scene:
        assert attacks, "no attack in the game: pick a seed that has one"
    for action in attacks:
        assert (action.action.kind == "attack") == ("crossroads" not in scene or action.facts is None)


GUNG_HO_LANE = """
name: Gung-ho lane
table: {width: 30, depth: 14, ground: asphalt}
roads:
  - {id: lane, points: [[0, 7], [30, 7]], width: 10}
gangs:
  hades: {name: Hades MC, colour: "#c0392b"}
  komodo: {name: Komodo, colour: "#27ae60"}
models:
  - {id: h1, gang: hades, bike: police, position: [3, 6], facing: 0, speed: 2, rider: {weapon: chain}}
  - {id: k1, gang: komodo, bike: police, position: [10, 7.95], facing: 0, speed: 1}
  - {id: k2, gang: komodo, bike: police, position: [12, 4.05], facing: 0, speed: 1}
"""


def test_EC_ACT_GUNGHO_a_script_makes_four_attacks_along_a_gung_ho_ride(tmp_path):
    """Clause: EC-ACT-GUNGHO, through a scripted game: h1 rides gung-ho (double full movement at
    speed 1, 16" on a police bike) between k1 and k2, whom it passes close by, and its script
    names four chain attacks. All four are made from points of the ride, each after the first at
    2 more stress (its record's stress before and after); all belong to the ride's action (index 0),
    the first as the ride's ``attack``. A fifth named attack fails the script check."""
    (tmp_path / "lane.yaml").write_text(GUNG_HO_LANE)
    (tmp_path / "s.yaml").write_text(
        "scene: lane.yaml\nseed: 1\nturns: 1\npush: never\nactivations:\n"
        "  - {turn: 1, model: h1, plans: ['gungho s1: straight 16'], "
        "attack: [k1 with chain, k2 with chain, k1 with chain, k2 with chain]}\n")
    replay = _play(None, script=tmp_path / "s.yaml", turns=1)
    h1 = next(a for a in replay.activations if a.model_id == "h1")
    ride, *more = h1.actions
    assert ride.plan == "gungho s1: straight 16" and ride.attack.target == "k1"
    assert [(a.action.kind, a.attack.target, a.index) for a in more] == [("attack", "k2", 0), ("attack", "k1", 0),
                                                                             ("attack", "k2", 0)]
    assert [(a.stress_before, a.stress_after) for a in more] == [(0, 2), (2, 4), (4, 6)]
    # from the points of the ride beside them (k1 at x = 10, k2 at 12), not where it ended (x = 19)
    assert all(a.attack.from_pose.x < 15 for a in h1.actions)
    (tmp_path / "s.yaml").write_text((tmp_path / "s.yaml").read_text().replace("k2 with chain]", "k2, k1]"))
    with pytest.raises(ScriptError, match="5 attacks: an activation has one, a gung-ho ride 4 at most"):
        _play(None, script=tmp_path / "s.yaml", turns=1)
    # a list after a plain ride: one attack only (the rest were silently never made)
    (tmp_path / "s.yaml").write_text((tmp_path / "s.yaml").read_text().replace("gungho s1: straight 16",
                                                                               "s1: straight 8"))
    with pytest.raises(ScriptError, match="5 attacks: an activation has one"):
        _play(None, script=tmp_path / "s.yaml", turns=1)
