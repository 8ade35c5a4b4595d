"""Playing for the holder (entropy3d.game.holder_goals, issue 45): a rider carrying its gang's NPC
avoids fights and rides on for a road exit, its gang shoots first at whoever threatens it."""

from __future__ import annotations

import dataclasses

import numpy as np

from entropy3d.game.action_view import ActionView
from entropy3d.game.holder_goals import THREAT_IN, danger_points, holds
from entropy3d.game.npc_goals import NpcRun
from entropy3d.game.players import AttackOption, AutoPlayer
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attack_odds import shot_odds
from entropy3d.systems.entropy_city.state import Item, ModelState, State
from tests.systems.entropy_city.conftest import load_rules


def _rider(model_id, gang, pose, **changes) -> ModelState:
    fields = dict(id=model_id, gang=gang, bike_type="sportsbike", pose=pose, speed=1, stress=0, wounds=3,
                  max_stress=10, dodge=1)
    return ModelState(**{**fields, **changes})


def _jailbreak(*models, carrier: str | None = None) -> State:
    state = State(2, "jailbreak", {m.id: m for m in models}, {}, {"komodo": 0, "hades": 0})
    return dataclasses.replace(state, items=(Item("prisoner", 0, 0, carrier=carrier),)) if carrier else state


def _shot(state: State, shooter: str, target: str, rules) -> AttackOption:
    odds = shot_odds(state, shooter, target, "pistol", rules, push="risk-aware")
    return AttackOption("pistol", target, odds.tn, None, odds)


def test_EC_MISSION_JAIL_the_prisoners_holder_declines_the_shot_its_gang_mate_takes():
    """Clause: EC-MISSION-JAIL. A close pistol shot (6") at a rival only moving is worth taking
    for a rider holding nothing; the rider holding the prisoner declines it: a bust or a shot back
    that takes its last wound drops the prisoner, and it is the mission."""
    rules = load_rules()
    models = (_rider("k1", "komodo", Pose(10, 10, 0), gun="pistol", ammo=5),
              _rider("h1", "hades", Pose(16, 10, 0), only_moved=True))
    free, holding = _jailbreak(*models), _jailbreak(*models, carrier="k1")
    assert not holds(free, free.model("k1")) and holds(holding, holding.model("k1"))
    player = AutoPlayer(np.random.default_rng(0), rules)
    offered = [_shot(free, "k1", "h1", rules)]
    taken = player.choose_attack(ActionView(free, free.model("k1"), 0, None, rules), offered)
    assert taken is not None and taken.target == "h1"
    assert player.choose_attack(ActionView(holding, holding.model("k1"), 0, None, rules), offered) is None


def test_EC_MISSION_JAIL_an_escort_shoots_the_rival_threatening_its_holder_first():
    """Clause: EC-MISSION-JAIL. Two rivals 8" from Pip, one each side, alike in all but where they
    are: h_1 5" from Viper, who holds the prisoner, h_2 21" from it. Alike, the player takes
    the later target id on a tie (h_2); with Viper holding, the shot at the threat is worth
    ESCORT_HUNT times more and is the one taken."""
    rules = load_rules()
    models = (_rider("k_pip", "komodo", Pose(20, 12, 90), gun="pistol", ammo=5),
              _rider("k_viper", "komodo", Pose(25, 20, 90)),
              _rider("h_1", "hades", Pose(20, 20, 90), only_moved=True),
              _rider("h_2", "hades", Pose(20, 4, 90), only_moved=True))
    player = AutoPlayer(np.random.default_rng(0), rules)
    for carrier, wanted in ((None, "h_2"), ("k_viper", "h_1")):
        state = _jailbreak(*models, carrier=carrier)
        options = [_shot(state, "k_pip", target, rules) for target in ("h_1", "h_2")]
        assert options[0].odds == options[1].odds  # the same shot either way
        choice = player.choose_attack(ActionView(state, state.model("k_pip"), 0, None, rules), options)
        assert choice is not None and choice.target == wanted, carrier


def test_EC_MISSION_JAIL_a_holder_facing_away_from_the_nearest_road_exit_gains_by_riding_on():
    """Clause: EC-MISSION-JAIL. A holder stopped by the jail at (14.5, 22.7), facing east, between
    the main street's west exit (0.5, 24) 14" behind it and its east exit (47.5, 24): riding 6"
    east takes it 6" nearer the east exit, its progress (the old pull, to the nearest exit only,
    counted it 6" further from the west one and the holder crept on at the least length); riding
    west is progress too, for the west exit."""
    run = NpcRun(((0.5, 24.0), (47.5, 24.0)), (("west", 21.5, 26.5), ("east", 21.5, 26.5)))
    start = np.array([14.5, 22.7])
    east, west = run.progress(start, np.array([20.5, 22.7]), None), run.progress(start, np.array([8.5, 22.7]), None)
    assert 5.9 < east < 6.0 and 5.9 < west < 6.1
    assert run.gap(np.array([20.5, 22.7]), None) > run.gap(start, None)  # the nearest exit is further


def test_a_holder_counts_every_rival_within_reach_of_where_it_ends():
    """Points off a holder's end: an inch for each inch each rival in play is inside THREAT_IN."""
    near = _rider("h1", "hades", Pose(4, 0, 0))
    far = _rider("h2", "hades", Pose(30, 0, 0))
    gone = _rider("h3", "hades", Pose(1, 0, 0), status="out")
    assert danger_points(np.array([0.0, 0.0]), [near, far, gone]) == THREAT_IN - 4.0
