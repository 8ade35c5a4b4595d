"""The cases that used to depend on which code path resolved a move: each now goes plan -> check
-> facts -> resolve, with either producer, and the rules decide the same way."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.game.step import activation
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.engine import EntropyCityEngine

ROOT = Path(__file__).resolve().parents[2]
PRODUCERS = {"physics": lambda t, g: PhysicsProducer(t, g, rides_per_process=None), "geometric": GeometricProducer}


class Setup:
    def __init__(self, path):
        self.table = load_scene(path)
        self.geometry = build_table_geometry(self.table)
        self.probe = SceneProbe.from_table(self.table, self.geometry)
        self.state = dataclasses.replace(self.table.initial_state(self.geometry.surface_height), turn=2)
        self.producers = {name: make(self.table, self.geometry) for name, make in PRODUCERS.items()}

    def run(self, producer, state, model_id, plans, seed=1, push="sit-at-tn", table=True):
        probe = self.probe if table else None
        return activation(EntropyCityEngine(self.table.ruleset, probe), state, model_id, plans,
                          np.random.default_rng(seed), self.producers[producer], probe, push)

    def placed(self, model_id, x, y, facing, **changes):
        z = float(self.geometry.surface_height([[x, y]])[0])
        return self.state.with_model(self.state.model(model_id).but(pose=Pose(x, y, facing, z), **changes))


@pytest.fixture(scope="module")
def small():
    return Setup(ROOT / "tests" / "data" / "small_table.yaml")


@pytest.fixture(scope="module")
def ground():
    return Setup(ROOT / "tests" / "physics" / "data" / "proving_ground.yaml")


def events(steps, kind):
    return [e for s in steps for e in s.events if e.kind == kind]


def test_EC_TER_CURB_the_physics_path_checks_the_table_first(tmp_path):
    """Clause: EC-TER-CURB. `activate` refuses what `plan` refuses: the curb is crossed at 42
    degrees, whichever producer would ride it; nothing is ridden, and the report (--json) records
    only the refusal, its plan and clause, for a program to read (a whole file, written atomically)."""
    for producer in PRODUCERS:
        scene = str(ROOT / "scenes" / "crossroads.yaml")
        report = tmp_path / f"{producer}.json"
        out = subprocess.run([sys.executable, "-m", "entropy3d.cli", "activate", scene, "--model", "komodo_1",
                              "--plan", "s2: right wide 3, straight 6", "--producer", producer,
                              "--json", str(report)], capture_output=True, text=True)
        assert out.returncode == 1 and "EC-TER-CURB" in out.stderr and "Traceback" not in out.stderr
        written = json.loads(report.read_text(encoding="utf-8"))
        assert "steps" not in written and written["refused"]["clause"] == "EC-TER-CURB"
        assert (written["refused"]["action"], written["refused"]["plan"]) == (1, "s2: right wide 3, straight 6")
    plan = subprocess.run([sys.executable, "-m", "entropy3d.cli", "plan", str(ROOT / "scenes" / "crossroads.yaml"),
                           "--model", "komodo_1", "s2: right wide 3, straight 6"], capture_output=True, text=True)
    assert plan.returncode == 1 and "EC-TER-CURB" in plan.stderr


@pytest.mark.parametrize("producer", PRODUCERS)
def test_EC_JUMP_1_riding_off_a_curb_at_speed_3_is_no_jump(small, producer):
    """Clause: EC-JUMP-1, EC-JUMP-2: off the 0.12" curb of block_a at 45 degrees and speed 3 the
    wheels may leave the ground for a moment (physics sees it), but a bump is no jump: no air
    time, the bike is not left in the air."""
    state = small.placed("h1", 8.5, 8.5, 45.0, speed=3)
    steps = small.run(producer, state, "h1", ["s3: straight 14"])
    move = steps[1]
    assert all(f.from_kind != "ramp" and f.drop_in <= 0.2 for f in move.facts.flights)
    assert not events(steps, "jump")
    assert steps[-1].after.model("h1").air is None


@pytest.mark.parametrize("producer", PRODUCERS)
def test_EC_JUMP_1_riding_off_a_2_inch_deck_edge_at_speed_3_is_a_2_inch_drop(ground, producer):
    """Clause: EC-JUMP-1, REF-FALL: off highway_b's north edge (a 2" deck) at speed 3 both producers
    report a 2" drop where it left, so the rules see a jump. Physics sees the take-off when the
    rear of the base leaves the deck, its centre already past the edge: it used to report 0"."""
    state = ground.placed("jumper", 37.0, 34.5, 90.0, speed=3)
    assert state.model("jumper").pose.z == pytest.approx(2.0)
    steps = ground.run(producer, state, "jumper", ["s3: straight 12"])
    (flight,) = steps[1].facts.flights
    assert (flight.from_piece, flight.from_kind) == ("highway_b", "platform")
    assert flight.drop_in == pytest.approx(2.0, abs=0.05)
    assert events(steps, "jump")
    assert steps[-1].after.model("jumper").pose.z == pytest.approx(0.0, abs=0.1)


@pytest.mark.parametrize("producer", PRODUCERS)
def test_EC_JUMP_4_both_producers_see_the_kicker(ground, producer):
    """Clause: EC-JUMP-1, EC-JUMP-4: off the broken end's ramp at speed 3, both producers report the
    flight off the ramp and the rules land it 16" from take-off over highway_b."""
    steps = ground.run(producer, ground.state, "jumper", ["s3: straight 16"])
    (jump,) = [e for e in events(steps, "jump") if e.figures.get("air_time")]
    assert steps[1].facts.flights[0].from_kind == "ramp"
    assert jump.figures["landing_in"] - jump.figures["launch_in"] == 16
    assert 28 <= jump.figures["landing_xy"][0] <= 46 and jump.figures["landing_level_in"] == pytest.approx(2.0)


@pytest.mark.parametrize("producer", PRODUCERS)
def test_EC_DEST_2_a_destructible_at_speed_1_is_solid_for_both_producers(ground, producer):
    """Clause: EC-DEST-2: at speed 1 the bench is a solid obstacle: a crash, not a ride through its
    centre."""
    bike = ground.state.model("smasher")
    state = ground.state.with_model(bike.but(speed=1, pose=dataclasses.replace(bike.pose, x=7.0)))
    steps = ground.run(producer, state, "smasher", ["s1: straight 8"])
    (smash,) = events(steps, "destructible")
    assert smash.clauses == ("EC-DEST-2",)
    (crash,) = events(steps, "crash")
    assert crash.piece == "bench1"
    assert steps[-1].after.model("smasher").pose.x < 14.0, "stopped before the bench's centre"


def test_the_replay_and_the_video_show_the_bike_where_the_rules_put_it(tmp_path):
    """Clause: EC-JUMP-4, EC-JUMP-2: the staged kicker jump's replay keeps, per action, the model
    as the rules left it (in the air, at the end of its path), and that is the pose the next
    action starts from, not the physical end of the flight."""
    from entropy3d.game.replay import read_replay
    from entropy3d.game.session import play_game

    play_game(None, producer="geometric", script=ROOT / "scenes" / "scripts" / "crossroads_kicker.yaml",
              replay_path=tmp_path / "r.jsonl")
    replay = read_replay(tmp_path / "r.jsonl")
    flights = [(a, x) for a in replay.activations for x in a.actions
               if any(e.kind == "jump" and e.figures.get("air_time") for e in x.events)]
    assert flights, "the staged jump was not played"
    activation_record, action = flights[0]
    assert action.model_after is not None and action.model_after.air is not None
    rules_end = action.model_after.pose
    assert (rules_end.x, rules_end.y) == pytest.approx(tuple(action.planned_path[-1]), abs=1e-3)
    rider = activation_record.model_id
    later = [a for a in replay.activations if a.model_id == rider and a.turn > activation_record.turn]
    assert later and later[0].state_before.model(rider).pose == rules_end


def test_geometric_producer_needs_no_physics_engine():
    """The geometric producer and the rules run with pybullet unimportable."""
    code = ("import sys; sys.modules['pybullet'] = None\n"
            "from entropy3d.game.session import play_game\n"
            f"r = play_game({str(bundled_dir('scenes') / 'crossroads.yaml')!r}, seed=2, turns=1, "
            "producer='geometric')\n"
            "print(len(r.activations))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) > 0
