"""Models on foot in whole games: the automatic players walk and shoot with them, they activate
after the bikes (EC-TURN-2), both producers walk them the same way, a bike can ride into one,
line of sight sees from their eye, and the replay is the same bytes for the same seed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.game.session import play_game, replay_bytes, resimulate
from entropy3d.game.step import take
from entropy3d.game.tableview import TableView
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.transition import Action

ON_FOOT_TABLE = Path(__file__).parents[1] / "data" / "on_foot_table.yaml"
WALKERS = {"sniper", "brawler"}


@pytest.fixture(scope="module")
def table_parts():
    table = load_scene(ON_FOOT_TABLE)
    geometry = build_table_geometry(table)
    return table, geometry, TableView(table, geometry)


@pytest.fixture(scope="module")
def auto_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("foot") / "game.jsonl"
    return play_game(ON_FOOT_TABLE, seed=1, turns=4, producer="geometric", replay_path=path), path


def test_EC_TURN_2_EC_FOOT_MOVE_the_auto_player_walks_and_shoots_on_foot(auto_game):
    """Clause: EC-TURN-2, EC-FOOT-MOVE, EC-GUN-2. In every turn the models on foot activate after
    every bike; every action of theirs is a walk (or a skipped action); the sniper on the roof
    shoots its rifle at a rider."""
    replay, _ = auto_game
    assert replay.turns
    for turn in replay.turns:
        kinds = [model_id in WALKERS for model_id in turn.order]
        assert kinds == sorted(kinds), f"turn {turn.turn}: {turn.order}"
    walks = [a for act in replay.activations if act.model_id in WALKERS for a in act.actions]
    assert walks and all(a.plan.startswith("walk:") or a.plan == "" for a in walks)
    shots = [a.attack for a in walks if a.attack is not None and a.attack.kind == "sniper_rifle"]
    assert shots and all("EC-GUN-2" in s.clauses for s in shots)


def test_a_game_with_models_on_foot_replays_byte_identical(auto_game, tmp_path):
    """The same seed plays the same game, and resimulating the replay file gives its bytes."""
    replay, path = auto_game
    again = play_game(ON_FOOT_TABLE, seed=1, turns=4, producer="geometric", replay_path=tmp_path / "again.jsonl")
    assert replay_bytes(again) == path.read_bytes() == (tmp_path / "again.jsonl").read_bytes()
    identical, _ = resimulate(path)
    assert identical


def test_EC_FOOT_MOVE_both_producers_walk_a_model_on_foot_the_same_way(table_parts):
    """Clause: EC-FOOT-MOVE. DECISION: the physics producer has no body for a figure, so it walks
    it as the geometric producer does: the same trajectory, no contacts, up the curb's step."""
    from entropy3d.physics.producer import PhysicsProducer

    table, geometry, view = table_parts
    state = table.initial_state(geometry.surface_height)
    brawler = state.model("brawler")
    state = state.with_model(brawler.but(pose=Pose(11, 8.6, 180, 0.0)))
    steps = [take(EntropyCityEngine(table.ruleset, view), state, Action.ride("brawler", "walk: straight 4"),
                  np.random.default_rng(0), producer, view)
             for producer in (GeometricProducer(table, geometry, view), PhysicsProducer(table, geometry, None))]
    ridden = [np.asarray(step.facts.trajectory) for step in steps]
    assert np.array_equal(ridden[0], ridden[1]) and not steps[1].facts.contacts
    assert ridden[0][-1, 3] == pytest.approx(0.12)  # stepped up onto block_a's sidewalk
    assert steps[1].after.model("brawler").pose == steps[0].after.model("brawler").pose


def test_EC_COL_HEAD_a_bike_ridden_into_a_model_on_foot_crashes_and_the_figure_stands(table_parts):
    """Clause: EC-COL-HEAD, EC-COL-1. DECISION: a model on foot is in a ride's way like any
    model: a rider sent straight into it has a head-on crash; the figure stays where it stood."""
    table, geometry, view = table_parts
    state = table.initial_state(geometry.surface_height)
    state = state.with_model(state.model("k1").but(pose=Pose(17, 12, 180, 0.0)))
    step = take(EntropyCityEngine(table.ruleset, view), state, Action.ride("k1", "s1: straight 8", unavoidable=True),
                np.random.default_rng(2), GeometricProducer(table, geometry, view), view)
    crash = [e for e in step.events if e.kind == "crash"]
    assert crash and crash[0].piece == "brawler" and "EC-COL-HEAD" in crash[0].clauses
    assert step.after.model("brawler").pose == state.model("brawler").pose


def test_EC_LOS_4_a_figure_on_foot_sees_from_its_eye_and_is_seen_by_its_body(table_parts):
    """Clause: EC-LOS-4, EC-COVER-1. The sniper's eye is its figure's height above the base top
    on the roof, less los.yaml's 0.08"; at the roof's edge it sees a rider in the street below,
    from the middle of the roof the roof's edge hides the street."""
    table, geometry, view = table_parts
    state = table.initial_state(geometry.surface_height)
    sniper = state.model("sniper")
    eye = view.los.miniatures({m.id: m.pose for m in state.models.values()})["sniper"].eye
    assert eye[2] == pytest.approx(sniper.pose.z + 0.12 + 31 / 25.4 - 0.08)
    target = state.model("brawler").but(pose=Pose(12, 4, 0, 0.0))
    state = state.with_model(target)
    edge = Pose(7.4, 4.0, 0, sniper.pose.z)
    middle = Pose(4.0, 4.0, 0, sniper.pose.z)
    rider = "k1"
    state = state.with_model(state.model(rider).but(pose=Pose(11, 5, 90, 0.0)))
    seen = view.sight(state, "sniper", rider, edge)
    hidden = view.sight(state, "sniper", rider, middle)
    assert seen.bike_seen and seen.visible_fraction >= 0.25
    assert not hidden.bike_seen and hidden.visible_fraction < seen.visible_fraction
