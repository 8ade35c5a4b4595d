"""Activations end to end on the one path: the rules check the plan, physics rides it and
reports facts, the rules resolve them (entropy3d.game.step)."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.activation.activation_report import dumps, report_json
from entropy3d.errors import IllegalPlanError
from entropy3d.game.step import activation
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.transition import Action, check

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def start(proving_ground):
    return dataclasses.replace(proving_ground.table.initial_state(proving_ground.geometry.surface_height), turn=2)


@pytest.fixture(scope="module")
def physics(proving_ground):
    return PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)


def run(ground, producer, state, model_id, plans, seed=7, push="sit-at-tn", table=True):
    probe = SceneProbe.from_table(ground.table, ground.geometry) if table else None
    return activation(EntropyCityEngine(ground.ruleset, probe), state, model_id, plans, np.random.default_rng(seed),
                      producer, probe, push)


def events(steps, kind):
    return [e for s in steps for e in s.events if e.kind == kind]


def moves(steps):
    return [s for s in steps if s.action.move is not None]


def with_model(state, model_id, **changes):
    return state.with_model(state.model(model_id).but(**changes))


def test_speed3_jump_lands_on_the_far_level_at_the_launch_speeds_max_distance(proving_ground, physics, start):
    """Clause: EC-JUMP-4 and EC-JUMP-2: lands 16" from the launch, on highway_b; what is left of
    the 16" after the end of the move is flown in its next action."""
    steps = run(proving_ground, physics, start, "jumper", ["s3: straight 16"])
    (jump,) = [e for e in events(steps, "jump") if e.figures.get("air_time")]
    assert "EC-JUMP-4" in jump.clauses
    assert jump.figures["landing_in"] - jump.figures["launch_in"] == 16
    x, y = jump.figures["landing_xy"]
    assert 28 <= x <= 46 and 30 <= y <= 36, "the landing point is over highway_b"
    assert jump.figures["landing_level_in"] == pytest.approx(2.0, abs=1e-6)
    flight = moves(steps)[0].facts.flights[0]
    assert flight.from_kind == "ramp" and flight.from_piece == "broken_end"
    after = steps[-1].after.model("jumper")
    assert after.air is not None and after.air.speed == 3
    assert after.air.carry_in == pytest.approx(flight.launch_progress_in, abs=1e-3)


def test_air_time_bike_lands_during_its_next_activation(proving_ground, physics, start):
    """Clause: EC-JUMP-2: the next activation starts in the air and comes down on highway_b."""
    first = run(proving_ground, physics, start, "jumper", ["s3: straight 16"])
    second = run(proving_ground, physics, first[-1].after, "jumper", ["s3: straight 12"], seed=8)
    (landing,) = events(second, "landing")
    assert "EC-JUMP-2" in landing.clauses
    after = second[-1].after.model("jumper")
    assert after.air is None
    assert after.pose.z == pytest.approx(2.0, abs=0.05)


def test_a_bike_in_the_air_keeps_its_launch_speed(proving_ground, physics, start):
    """Clause: EC-JUMP-4: the rest of the jump is flown at the speed it left the ground at."""
    first = run(proving_ground, physics, start, "jumper", ["s3: straight 16"])
    with pytest.raises(Exception, match="EC-JUMP-4"):
        run(proving_ground, physics, first[-1].after, "jumper", ["s2: straight 12"])


def test_speed1_attempt_gets_no_air_time_and_drops_into_the_gap(proving_ground, physics, start):
    """Clause: EC-JUMP-1: speed 1 gets no air time; the bike ends on the street in the gap."""
    slow = with_model(start, "jumper", speed=1)
    steps = run(proving_ground, physics, slow, "jumper", ["s1: straight 8"])
    jumps = events(steps, "jump")
    assert jumps and all(j.figures["air_time"] is False and j.clauses == ("EC-JUMP-1",) for j in jumps)
    after = steps[-1].after.model("jumper")
    assert after.air is None and after.pose.z == pytest.approx(0.0, abs=1e-6)


def test_bike_aimed_at_a_wall_crashes_head_on_base_to_base(proving_ground, physics, start):
    """Clause: EC-COL-HEAD: TN 21 - dodge, the bike stops base to base with the bank and, if it
    survives, its activation ends (it skips its next one)."""
    steps = run(proving_ground, physics, start, "crasher", ["s3: straight 16", "s3: straight 16"], table=False)
    (crash,) = events(steps, "crash")
    assert crash.figures["kind"] == "head_on" and "EC-COL-HEAD" in crash.clauses
    dodge = proving_ground.table.model("crasher").rider.dodge
    assert crash.rolls[0].tn == 21 - dodge
    after = moves(steps)[0].after.model("crasher")
    base = proving_ground.table.base_of(proving_ground.table.model("crasher"))
    assert after.pose.x + base.length / 2 == pytest.approx(30.0, abs=0.1)
    if crash.figures["survived"]:
        assert after.skip_next_activation and after.stress == start.model("crasher").stress + 4
        assert after.stopped and after.speed == 0 and len(moves(steps)) == 1, "the activation ends"
    else:
        assert events(steps, "bust")


def test_bike_scraping_along_a_wall_crashes_side_on_and_its_activation_goes_on_at_speed_1(
        proving_ground, physics, start):
    """Clause: EC-COL-SIDE: TN 18 - dodge; a survivor's activation goes on at speed 1."""
    for seed in range(1, 12):
        steps = run(proving_ground, physics, start, "scraper", ["s3: straight 6, right wide 7"], seed=seed,
                    table=False)
        (crash,) = [e for e in events(steps, "crash")][:1]
        assert crash.figures["kind"] == "side_on" and "EC-COL-SIDE" in crash.clauses
        assert crash.rolls[0].tn == 18 - proving_ground.table.model("scraper").rider.dodge
        if crash.figures["survived"]:
            break
    else:
        pytest.fail("no seed survived the side-on crash")
    mid = moves(steps)[0].after
    after = mid.model("scraper")
    assert after.speed == 1 and after.speed_cap == 1 and not after.skip_next_activation
    assert after.actions_taken == 1, "the crash does not end the activation"
    with pytest.raises(IllegalPlanError, match="EC-COL-SIDE"):
        check(mid, Action.ride("scraper", "s2: straight 8"), proving_ground.ruleset)
    assert check(mid, Action.ride("scraper", "s1: straight 6"), proving_ground.ruleset).move.speed == 1


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_bench_hit_at_speed_2_rolls_the_test_and_moves_the_bench(proving_ground, physics, start, seed):
    """Clause: EC-DEST-3, EC-DEST-4: +risk stress, TN 13, a success moves it speed x 2 = 4";
    a fail has the opponent turn the bike 2" and it carries on (a forced move is ridden)."""
    steps = run(proving_ground, physics, start, "smasher", ["s2: straight 12"], seed=seed, push="never")
    (smash,) = events(steps, "destructible")[:1]
    assert smash.piece == "bench1" and smash.rolls[0].tn == 13
    assert smash.rolls[0].stress == start.model("smasher").stress + 1, "risk 1 stress before the roll"
    state = steps[-1].after
    if smash.rolls[0].succeeded:
        spot = state.scenery["bench1"]
        assert np.hypot(spot.dx, spot.dy) == pytest.approx(4.0)
        assert not [s for s in steps if s.action.kind == "forced"]
    else:
        assert "bench1" not in state.scenery and smash.figures["forced_turn_in"] == 2
        (forced,) = [s for s in steps if s.action.kind == "forced"]
        assert "2" in str(forced.action.plan) and forced.ridden, "the opponent's 2\" turn is ridden"
        end = state.model("smasher").pose
        assert abs(end.y - 20.0) > 0.3, "the bike left its straight line"


def test_bench_at_speed_1_is_a_solid_obstacle(proving_ground, physics, start):
    """Clause: EC-DEST-2: speed 1 cannot go through; the bench is hit like a wall."""
    bike = start.model("smasher")
    slow = with_model(start, "smasher", speed=1, pose=dataclasses.replace(bike.pose, x=7.0))
    steps = run(proving_ground, physics, slow, "smasher", ["s1: straight 8"])
    (smash,) = events(steps, "destructible")
    assert smash.clauses == ("EC-DEST-2",) and not smash.rolls
    assert events(steps, "crash")[0].piece == "bench1"


def test_over_the_cliff_edge_busts(proving_ground, physics, start):
    """Clause: EC-COL-EDGE: south is a cliff; a ride sent over it is out of the game. The table
    check refuses a plan that rides over it of its own accord."""
    bike = start.model("crasher")
    state = with_model(start, "crasher", pose=dataclasses.replace(bike.pose, y=5.0, facing_deg=270.0))
    with pytest.raises(Exception, match="EC-COL-EDGE"):
        run(proving_ground, physics, state, "crasher", ["s3: straight 16"])
    steps = run(proving_ground, physics, state, "crasher", ["s3: straight 16"], table=False)
    (edge,) = events(steps, "cliff_edge")
    assert edge.clauses == ("EC-COL-EDGE",)
    assert steps[-1].after.model("crasher").status == "out"


def test_snapped_distances_are_whole_inches(proving_ground, physics, start):
    steps = run(proving_ground, physics, start, "smasher", ["s2: straight 12"], seed=2, push="never")
    pose = steps[-1].after.model("smasher").pose
    assert (pose.x, pose.y) == pytest.approx((16.0, 20.0))


def test_report_json_has_facts_and_events_side_by_side(proving_ground, physics, start):
    steps = run(proving_ground, physics, start, "crasher", ["s3: straight 16"], table=False)
    report = report_json("t", "crasher", 7, steps, proving_ground.ruleset, "physics")
    move = report["steps"][1]
    assert move["facts"]["contacts"][0]["piece_id"] == "bank"
    crash = [e for e in move["events"] if e["kind"] == "crash"][0]
    assert "EC-COL-HEAD" in crash["clauses"] and crash["found"].startswith("rode ")
    again = run(proving_ground, physics, start, "crasher", ["s3: straight 16"], table=False)
    assert dumps(report) == dumps(report_json("t", "crasher", 7, again, proving_ground.ruleset, "physics"))


def test_same_scene_plan_and_seed_give_byte_identical_json_in_two_processes(tmp_path):
    outputs = []
    for k in range(2):
        out = tmp_path / f"run{k}.json"
        subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", str(DATA / "proving_ground.yaml"),
                        "--model", "smasher", "--plan", "s2: straight 12", "--seed", "11", "--json", str(out)],
                       check=True, capture_output=True)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and b'"destructible"' in outputs[0]


def test_EC_TURN_3_cli_reports_bad_model_plan_and_plan_count_without_traceback(tmp_path):
    scene = str(DATA / "proving_ground.yaml")
    bad_model = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "nobody",
                                "--plan", "s2: straight 12"], capture_output=True, text=True)
    assert bad_model.returncode == 1 and "nobody" in bad_model.stderr and "Traceback" not in bad_model.stderr
    bad_plan = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "smasher",
                               "--plan", "s2: sideways 12", "--json", str(tmp_path / "x.json")],
                              capture_output=True, text=True)
    assert bad_plan.returncode == 1 and "column" in bad_plan.stderr and "Traceback" not in bad_plan.stderr
    assert not (tmp_path / "x.json").exists()
    # EC-TURN-3: two actions; a third plan was silently dropped
    three = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "smasher",
                            *["--plan", "s2: straight 4"] * 3, "--json", str(tmp_path / "x.json")],
                           capture_output=True, text=True)
    assert three.returncode == 1 and "an activation has 2 actions: give at most 2 (EC-TURN-3)" in three.stderr
    # nothing ridden: the report records the refusal of the third plan alone (a program reads the clause)
    refused = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))
    assert "steps" not in refused and (refused["refused"]["action"], refused["refused"]["clause"]) == (3, "EC-TURN-3")
    # a refused plan is named by its place among the --plan options (here the second)
    second = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "jumper",
                             "--plan", "s2: straight 8", "--plan", "s2: straight 40", "--producer", "geometric",
                             "--seed", "1"],
                            capture_output=True, text=True)
    assert second.returncode == 1 and "Traceback" not in second.stderr
    assert second.stderr.startswith("error: --plan 2 's2: straight 40': too long") and "(EC-SPD-2)" in second.stderr


def test_gif_is_drawn(proving_ground, physics, start, tmp_path):
    from PIL import Image

    from entropy3d.activation.overhead import draw_gif

    steps = run(proving_ground, physics, start, "jumper", ["s3: straight 16"])
    draw_gif(tmp_path / "a.gif", proving_ground.geometry, steps, proving_ground.ruleset, px_per_in=4)
    gif = Image.open(tmp_path / "a.gif")
    assert gif.n_frames > 10
    last = np.asarray(gif.convert("RGB"))
    assert last.std() > 10, "not a blank frame"


def test_the_gif_says_who_rides_and_which_action(proving_ground, physics, start, tmp_path, monkeypatch):
    """A GIF passed around alone said nothing of who rode what: every frame carries a title band,
    the rider and the action on the table ("action 1 of 1: s3: straight 16"), the last frame the end."""
    from PIL import Image, ImageDraw

    from entropy3d.activation.overhead import GIF_TITLE_PX, draw_gif

    steps = run(proving_ground, physics, start, "jumper", ["s3: straight 16"])
    written: list[str] = []
    text = ImageDraw.ImageDraw.text
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", lambda self, xy, words, *a, **k: written.append(words)
                        or text(self, xy, words, *a, **k))
    draw_gif(tmp_path / "a.gif", proving_ground.geometry, steps, proving_ground.ruleset, px_per_in=4,
             rider="Jumper (Testers)")
    gif = Image.open(tmp_path / "a.gif")
    band = np.asarray(gif.convert("RGB"))[:GIF_TITLE_PX]
    assert (np.abs(band.astype(int) - (18, 19, 23)).max(axis=2) < 8).mean() > 0.8, "no dark title band on top"
    assert written.count("Jumper (Testers)") == gif.n_frames
    assert written.count("action 1 of 1: s3: straight 16") == gif.n_frames - 1
    assert written[-1].startswith("the end")


@pytest.fixture(scope="module")
def ruined_highway():
    from entropy3d.resources import bundled_dir
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(bundled_dir("scenes") / "ruined_highway.yaml")
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    return table, geometry, state, PhysicsProducer(table, geometry, rides_per_process=None)


def test_ruined_highway_speed3_jump_clears_the_gap_onto_the_east_deck(ruined_highway):
    """Clause: EC-JUMP-1, EC-JUMP-4: off the kicker at speed 3 the rules land the bike 16" on,
    on highway_east's deck level (4"), the level physics found there."""
    table, geometry, state, physics = ruined_highway
    fast = with_model(state, "mutiny_3", speed=3)
    steps = activation(EntropyCityEngine(table.ruleset), fast, "mutiny_3", ["s3: straight 16"],
                       np.random.default_rng(5), physics)
    (jump,) = [e for e in events(steps, "jump") if e.figures.get("air_time")]
    east = geometry.by_id("highway_east")
    assert east.mesh.bounds[0][0] <= jump.figures["landing_xy"][0] <= east.mesh.bounds[1][0]
    assert jump.figures["landing_level_in"] == pytest.approx(east.top)
    assert moves(steps)[0].facts.trajectory[:, 3].min() > 3.5, "physics never dropped into the gap"


def test_ruined_highway_speed1_attempt_gets_no_air_time(ruined_highway):
    """Clause: EC-JUMP-1: a speed 1 ride off the kicker is no jump; it ends in the gap below."""
    table, geometry, state, physics = ruined_highway
    slow = with_model(state, "mutiny_3", speed=1)
    steps = activation(EntropyCityEngine(table.ruleset), slow, "mutiny_3", ["s1: straight 8"],
                       np.random.default_rng(5), physics)
    assert all(e.figures["air_time"] is False for e in events(steps, "jump"))
    after = steps[-1].after.model("mutiny_3")
    assert after.air is None and after.pose.z < 1.0, "not on the far deck"


def test_a_destructibles_starting_place_is_no_level_to_land_on(proving_ground):
    """Levels come from static pieces only: the bench moves, so its old top is not a level."""
    geometry = proving_ground.geometry
    assert geometry.surface_height([[14.0, 20.0]])[0] == pytest.approx(0.35), "the bench stands here"
    assert geometry.surface_height([[14.0, 20.0]], below=10.0, static_only=True)[0] == pytest.approx(0.0)
    assert geometry.surface_height([[34.0, 33.0]], below=10.0, static_only=True)[0] == pytest.approx(2.0)
