"""The one take (game/step.py) as any rulebook's engine meets it: the facts it reads and the
record a playing system keeps of an action that rides nothing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropy3d.core.event import Event
from entropy3d.game.loop import action_record
from entropy3d.game.step import take
from entropy3d.systems.entropy_city.transition import ATTACK, Action
from tests.systems.entropy_city.test_attacks import side_by_side


@dataclass
class Seen:
    target: str
    visible_fraction: float


class Table:
    """Answers the one question an engine that reads sight asks: what the attacker sees."""

    def sightings(self, state, viewer):
        return [Seen("k1", 1.0), Seen("h1", 0.4375)]


class Engine:
    """An engine whose attack always hits, and that reads sight or not (``reads_sight``)."""

    reads_rides = False

    def __init__(self, reads_sight: bool):
        self.reads_sight = reads_sight
        self.read = "never resolved"

    def check(self, state, action, table=None):
        return action

    def resolve(self, state, action, facts, rng):
        self.read = facts
        return state, [Event("attack", action.model_id, "hits", clauses=("TOY-HIT",), figures={"hit": True})]


def test_an_attack_gets_the_sighting_of_its_target_only_from_an_engine_that_reads_sight():
    state = side_by_side()
    attack = Action(ATTACK, "k1", target="h1", weapon="fists")
    seeing, blind = Engine(reads_sight=True), Engine(reads_sight=False)
    seen = take(seeing, state, attack, np.random.default_rng(0), None, Table())
    unseen = take(blind, state, attack, np.random.default_rng(0), None, Table())
    assert seeing.read == Seen("h1", 0.4375) and seen.reading is seeing.read and seen.facts is None
    assert blind.read is None and unseen.reading is None and unseen.facts is None
    # the replay's record: the sight the shooter had when there was one, and no made-up figure when not
    recorded, bare = action_record(0, seen).attack, action_record(0, unseen).attack
    assert recorded.visible == 0.4375 and bare.visible is None and "visible" not in bare.to_json()
    assert recorded.events == bare.events == unseen.events
    assert bare.attacker == "k1" and bare.target == "h1" and bare.clauses == ("TOY-HIT",)


def test_EC_TURN_3_a_plan_after_one_that_spent_the_activation_is_refused_by_name(small_table_path):
    """`activate --plan "stop s1: straight 4" --plan "s1: straight 6"` rode the stop and dropped
    the second plan without a word (issue 49): a stop spends the activation (EC-ACT-STOP), so
    the second is refused, naming it (the plan's number) and the stop that spent it."""
    import pytest

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.step import activation
    from entropy3d.geometric import GeometricProducer
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine

    table = load_scene(small_table_path)
    geometry = build_table_geometry(table)
    state = table.initial_state(geometry.surface_height)
    probe = SceneProbe.from_table(table, geometry)
    engine, rides = EntropyCityEngine(table.ruleset, probe), GeometricProducer(table, geometry)
    stopped = activation(engine, state, "h1", ["stop s1: straight 5"], np.random.default_rng(1), rides, probe)
    assert stopped[-1].after.model("h1").stopped
    with pytest.raises(IllegalPlanError, match="'stop s1: straight 5' spent its activation") as refused:
        activation(engine, state, "h1", ["stop s1: straight 5", "s1: straight 6"], np.random.default_rng(1), rides,
                   probe)
    assert refused.value.action == 2


def test_EC_ACT_ATTACK_an_activation_takes_attacks_said_as_text_from_a_point_of_the_move(tmp_path):
    """Clause: EC-ACT-ATTACK, EC-ACT-GUNGHO. `entropy3d act SCENE -m h1 -a "gungho s1: straight 16"
    -a "attack k1 with chain" -a "attack k2 with chain"`: the engine reads an attack from its text,
    and it is struck from the first point of the ride from which the rules allow it (beside k1 at
    x ~ 10, beside k2 at x ~ 12; h1 ends at x = 19, out of reach of both); an attack the rules
    refuse is refused by number, and one not said in full is too. Before, `act` on an Entropy City
    table knew plans only ("attack" was no plan)."""
    import pytest

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.step import activation
    from entropy3d.geometric import GeometricProducer
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine
    from tests.game.test_game_loop import GUNG_HO_LANE

    (tmp_path / "lane.yaml").write_text(GUNG_HO_LANE)
    table = load_scene(tmp_path / "lane.yaml")
    geometry = build_table_geometry(table)
    state = table.initial_state(geometry.surface_height)
    probe = SceneProbe.from_table(table, geometry)
    engine, rides = EntropyCityEngine(table.ruleset, probe), GeometricProducer(table, geometry)
    said = ["gungho s1: straight 16", "attack k1 with chain", "attack k2 with chain"]
    steps = activation(engine, state, "h1", said, np.random.default_rng(3), rides, probe)
    struck = [(s.action.target, round(s.action.from_pose.x)) for s in steps if s.action.kind == "attack"]
    assert [target for target, _ in struck] == ["k1", "k2"] and all(x < 15 for _, x in struck), struck
    with pytest.raises(IllegalPlanError, match="its attacks are melee attacks") as refused:
        activation(engine, state, "h1", said + ["attack k1 with pistol"], np.random.default_rng(3), rides, probe)
    assert refused.value.action == 4
    with pytest.raises(IllegalPlanError, match="say whom and with what") as refused:
        activation(engine, state, "h1", ["s2: straight 10", "attack k1"], np.random.default_rng(3), rides, probe)
    assert refused.value.action == 2


def test_EC_GUN_STOPPED_a_focussed_shot_is_taken_where_the_rider_stopped(small_table_path):
    """Clause: EC-GUN-STOPPED, EC-ACT-ATTACK. A stop's focussed shot is taken where the bike
    stopped: the engine refuses it from a point of the stop's ride (the `act` command once struck
    it from the ride's first point, where range and sight are other), and `act` takes it from
    where the rider stands."""
    import pytest

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.step import _struck_from, activation
    from entropy3d.geometric import GeometricProducer
    from entropy3d.geometry import Pose
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine

    table = load_scene(small_table_path)
    geometry = build_table_geometry(table)
    start = table.initial_state(geometry.surface_height)
    start = start.with_model(start.model("h1").but(gun="shotgun", ammo=2))
    probe = SceneProbe.from_table(table, geometry)
    engine, rides = EntropyCityEngine(table.ruleset, probe), GeometricProducer(table, geometry)
    steps = activation(engine, start, "h1", ["stop s1: straight 5"], np.random.default_rng(1), rides)[:-1]
    stopped = steps[-1].after
    assert stopped.model("h1").attack_chance == "focussed"
    shot = Action.attack("h1", "k1", "shotgun")
    assert _struck_from(engine, steps, shot, None).from_pose is None
    with pytest.raises(IllegalPlanError, match="taken where it stopped") as refused:
        engine.check(stopped, Action.attack("h1", "k1", "shotgun", from_pose=Pose(5.0, 11.0, 0.0)))
    assert refused.value.clause == "EC-GUN-STOPPED"
