"""Activations end to end: rules check the plan, physics rides it, the rules snap the facts."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.activation import activate, initial_state
from entropy3d.activation.report import dumps, report_json

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def start(proving_ground):
    return initial_state(proving_ground.table, proving_ground.geometry)


def run(ground, state, model_id, plans, seed=7):
    return activate(ground.table, ground.geometry, state, model_id, plans, np.random.default_rng(seed))


def events(result, kind):
    return [e for e in result.snapped.events if e.kind == kind]


def test_speed3_jump_lands_on_the_far_level_at_the_launch_speeds_max_distance(proving_ground, start):
    """Clause: EC-JUMP-4 and EC-JUMP-2: lands 16" from the launch, on highway_b; what is left of
    the 16" after the end of the move is flown in the next activation (Air Time)."""
    (result,) = run(proving_ground, start, "jumper", ["s3: straight 16"])
    (jump,) = events(result, "jump")
    assert jump.figures["air_time"] is True and "EC-JUMP-4" in jump.clauses
    assert jump.figures["landing_distance_in"] == 16
    x, y = jump.figures["landing_xy"]
    assert 28 <= x <= 46 and 30 <= y <= 36, "the landing point is over highway_b"
    assert jump.figures["landing_level_in"] == pytest.approx(2.0, abs=1e-6)
    flight = result.facts.flights[0]
    assert jump.figures["carry_in"] == pytest.approx(flight.launch_progress_in, abs=1e-3)
    assert result.snapped.status == "air_time" and result.after.air["jumper"].speed == 3


def test_air_time_bike_lands_during_its_next_activation(proving_ground, start):
    """Clause: EC-JUMP-2: the next activation starts in the air and comes down."""
    (first,) = run(proving_ground, start, "jumper", ["s3: straight 16"])
    (second,) = run(proving_ground, first.after, "jumper", ["s3: straight 12"], seed=8)
    assert second.facts.flights and second.facts.flights[0].land_t is not None
    assert "jumper" not in second.after.air
    assert second.after.bike("jumper").pose.z == pytest.approx(2.0, abs=0.05)


def test_speed1_attempt_gets_no_air_time_and_drops_into_the_gap(proving_ground, start):
    """Clause: EC-JUMP-1: speed 1 gets no air time; the bike ends on the street in the gap."""
    slow = start.with_bike(dataclasses.replace(start.bike("jumper"), speed=1))
    (result,) = run(proving_ground, slow, "jumper", ["s1: straight 8"])
    jumps = events(result, "jump")
    assert jumps and all(j.figures["air_time"] is False and j.clauses == ("EC-JUMP-1",) for j in jumps)
    assert result.snapped.air is None and result.snapped.status == "riding"
    assert result.after.bike("jumper").pose.z == pytest.approx(0.0, abs=1e-6)


def test_bike_aimed_at_a_wall_crashes_head_on_base_to_base(proving_ground, start):
    """Clause: EC-COL-HEAD: TN 21 - dodge, the bike stops base to base with the bank."""
    (result,) = run(proving_ground, start, "crasher", ["s3: straight 16"])
    (crash,) = events(result, "crash")
    assert crash.figures["kind"] == "head_on" and "EC-COL-HEAD" in crash.clauses
    dodge = proving_ground.table.model("crasher").rider.dodge
    assert crash.rolls[0].tn == 21 - dodge
    pose = result.after.bike("crasher").pose
    base = proving_ground.table.base_of(proving_ground.table.model("crasher"))
    assert pose.x + base.length / 2 == pytest.approx(30.0, abs=0.1)
    assert result.snapped.distance_in == int(result.facts.progress_in)
    if crash.figures["survived"]:
        after = result.after.bike("crasher")
        assert after.skip_next_activation and after.stress == start.bike("crasher").stress + 4
    else:
        assert events(result, "bust")


def test_bike_scraping_along_a_wall_crashes_side_on(proving_ground, start):
    """Clause: EC-COL-SIDE: TN 18 - dodge; a survivor rides on at speed 1."""
    (result,) = run(proving_ground, start, "scraper", ["s3: straight 6, right wide 7"])
    (crash,) = events(result, "crash")
    assert crash.figures["kind"] == "side_on" and "EC-COL-SIDE" in crash.clauses
    assert crash.rolls[0].tn == 18 - proving_ground.table.model("scraper").rider.dodge


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_bench_hit_at_speed_2_rolls_the_test_and_moves_the_bench(proving_ground, start, seed):
    """Clause: EC-DEST-3, EC-DEST-4: +risk stress, TN 13, a success moves it speed x 2 = 4";
    a fail leaves it where the rules had it and lets the opponent turn the bike 2". Never pushing,
    seeds 1 and 3 fail and 2 and 4 pass."""
    from entropy3d.rules.dice import never_push

    (result,) = activate(proving_ground.table, proving_ground.geometry, start, "smasher", ["s2: straight 12"],
                         np.random.default_rng(seed), policy=never_push)
    (smash,) = events(result, "destructible")
    assert smash.piece == "bench1" and smash.rolls[0].tn == 13
    assert smash.rolls[0].stress == start.bike("smasher").stress + 1, "risk 1 stress before the roll"
    rules = report_json("t", "smasher", seed, [result], proving_ground.ruleset)["actions"][0]["rules"]
    assert smash.rolls[0].succeeded == (seed in (2, 4))
    if smash.rolls[0].succeeded:
        spot = result.after.scenery["bench1"]
        assert np.hypot(spot.dx, spot.dy) == pytest.approx(4.0)
        assert rules["scenery"]["bench1"]["dx"] == pytest.approx(spot.dx, abs=1e-4)
    else:
        assert "bench1" not in result.after.scenery and smash.figures["forced_turn_in"] == 2
        assert rules["scenery"] == {}


def test_bench_at_speed_1_is_a_solid_obstacle(proving_ground, start):
    """Clause: EC-DEST-2: speed 1 cannot go through; the bench is hit like a wall."""
    bike = start.bike("smasher")
    slow = start.with_bike(dataclasses.replace(bike, speed=1, pose=dataclasses.replace(bike.pose, x=7.0)))
    (result,) = run(proving_ground, slow, "smasher", ["s1: straight 8"])
    (smash,) = events(result, "destructible")
    assert smash.clauses == ("EC-DEST-2",) and not smash.rolls
    assert events(result, "crash")[0].piece == "bench1"


def test_over_the_cliff_edge_busts(proving_ground, start):
    """Clause: EC-COL-EDGE: south is a cliff; the ride over it is out of the game."""
    bike = dataclasses.replace(start.bike("crasher"), pose=dataclasses.replace(start.bike("crasher").pose,
                                                                               y=5.0, facing_deg=270.0))
    (result,) = run(proving_ground, start.with_bike(bike), "crasher", ["s3: straight 16"])
    (edge,) = events(result, "cliff_edge")
    assert edge.clauses == ("EC-COL-EDGE",)
    assert result.snapped.status == "out" and result.after.bike("crasher").out_of_game


def test_snapped_distances_are_whole_inches(proving_ground, start):
    (result,) = run(proving_ground, start, "smasher", ["s2: straight 12"])
    assert result.snapped.distance_in == 12
    pose = result.after.bike("smasher").pose
    assert (pose.x, pose.y) == pytest.approx((16.0, 20.0))


def test_report_json_has_physics_and_rules_side_by_side(proving_ground, start):
    results = run(proving_ground, start, "crasher", ["s3: straight 16"])
    report = report_json("t", "crasher", 7, results, proving_ground.ruleset)
    action = report["actions"][0]
    assert action["physics"]["contacts"][0]["piece_id"] == "bank"
    assert "EC-COL-HEAD" in action["rules"]["clauses"]
    assert action["rules"]["events"][0]["text"].startswith("physics: rode ")
    assert dumps(report) == dumps(report_json("t", "crasher", 7, run(proving_ground, start, "crasher",
                                                                     ["s3: straight 16"]), proving_ground.ruleset))


def test_same_scene_plan_and_seed_give_byte_identical_json_in_two_processes(tmp_path):
    outputs = []
    for k in range(2):
        out = tmp_path / f"run{k}.json"
        subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", str(DATA / "proving_ground.yaml"),
                        "--model", "smasher", "--plan", "s2: straight 12", "--seed", "11", "--json", str(out)],
                       check=True, capture_output=True)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and b'"destructible"' in outputs[0]


def test_cli_reports_bad_model_and_plan_without_traceback(tmp_path):
    scene = str(DATA / "proving_ground.yaml")
    bad_model = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "nobody",
                                "--plan", "s2: straight 12"], capture_output=True, text=True)
    assert bad_model.returncode == 1 and "nobody" in bad_model.stderr and "Traceback" not in bad_model.stderr
    bad_plan = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "smasher",
                               "--plan", "s2: sideways 12", "--json", str(tmp_path / "x.json")],
                              capture_output=True, text=True)
    assert bad_plan.returncode == 1 and "column" in bad_plan.stderr and "Traceback" not in bad_plan.stderr
    assert not (tmp_path / "x.json").exists()


def test_png_and_gif_are_drawn(proving_ground, start, tmp_path):
    from PIL import Image

    from entropy3d.activation.drawing import draw_gif, draw_png

    results = run(proving_ground, start, "jumper", ["s3: straight 16"])
    draw_png(tmp_path / "a.png", proving_ground.geometry, results, proving_ground.ruleset)
    draw_gif(tmp_path / "a.gif", proving_ground.geometry, results, proving_ground.ruleset, px_per_in=4)
    png = np.asarray(Image.open(tmp_path / "a.png").convert("RGB"))
    assert png.std() > 10, "not a blank frame"
    assert (png == (255, 230, 0)).all(axis=2).sum() > 20, "the snapped end is drawn"
    gif = Image.open(tmp_path / "a.gif")
    assert gif.n_frames > 10


@pytest.fixture(scope="module")
def ruined_highway():
    from entropy3d.resources import bundled_dir
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(bundled_dir("scenes") / "ruined_highway.yaml")
    geometry = build_table_geometry(table)
    return table, geometry, initial_state(table, geometry)


def test_ruined_highway_speed3_jump_clears_the_gap_onto_the_east_deck(ruined_highway):
    """Clause: EC-JUMP-1, EC-JUMP-4: off the kicker at speed 3 the rules land the bike 16" on,
    on highway_east's deck level (4"), the level physics found there."""
    table, geometry, state = ruined_highway
    fast = state.with_bike(dataclasses.replace(state.bike("mutiny_3"), speed=3))
    (result,) = activate(table, geometry, fast, "mutiny_3", ["s3: straight 16"], np.random.default_rng(5))
    (jump,) = [e for e in result.snapped.events if e.kind == "jump"]
    east = geometry.by_id("highway_east")
    assert jump.figures["air_time"] is True
    assert east.mesh.bounds[0][0] <= jump.figures["landing_xy"][0] <= east.mesh.bounds[1][0]
    assert jump.figures["landing_level_in"] == pytest.approx(east.top)
    assert result.facts.trajectory[:, 3].min() > 3.5, "physics never dropped into the gap"


def test_ruined_highway_speed1_attempt_gets_no_air_time(ruined_highway):
    """Clause: EC-JUMP-1: a speed 1 ride off the kicker is no jump; it ends in the gap below."""
    table, geometry, state = ruined_highway
    slow = state.with_bike(dataclasses.replace(state.bike("mutiny_3"), speed=1))
    (result,) = activate(table, geometry, slow, "mutiny_3", ["s1: straight 8"], np.random.default_rng(5))
    jumps = [e for e in result.snapped.events if e.kind == "jump"]
    assert all(e.figures["air_time"] is False for e in jumps)
    assert result.snapped.status != "air_time" and "mutiny_3" not in result.after.air
    assert result.after.bike("mutiny_3").pose.z < 1.0, "not on the far deck"


def test_a_destructibles_starting_place_is_no_level_to_land_on(proving_ground):
    """Levels come from static pieces only: the bench moves, so its old top is not a level."""
    from entropy3d.activation.snap import static_surface_height

    geometry = proving_ground.geometry
    assert geometry.surface_height([[14.0, 20.0]])[0] == pytest.approx(0.35), "the bench stands here"
    assert static_surface_height(geometry, (14.0, 20.0), below=10.0) == pytest.approx(0.0)
    assert static_surface_height(geometry, (34.0, 33.0), below=10.0) == pytest.approx(2.0), "highway_b"
