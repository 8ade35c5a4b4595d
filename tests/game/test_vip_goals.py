"""Playing for the VIP Takedown (entropy3d.game.vip_goals, issue 45): only a VIP's take-out of the
other VIP is the mission, so the other riders leave the enemy VIP's last wound to their own VIP."""

from __future__ import annotations

import numpy as np

from entropy3d.game.action_view import ActionView
from entropy3d.game.players import AttackOption, AutoPlayer
from entropy3d.game.vip_goals import VIP_WASTE, takeout_chance, wasted_takedown
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attack_odds import shot_odds
from entropy3d.systems.entropy_city.state import ModelState, State
from tests.systems.entropy_city.conftest import load_rules


def _rider(model_id, gang, pose, **changes) -> ModelState:
    fields = dict(id=model_id, gang=gang, bike_type="sportsbike", pose=pose, speed=1, stress=0, wounds=3,
                  max_stress=10, dodge=1)
    return ModelState(**{**fields, **changes})


def _game(*models, mission: str = "vip_takedown") -> State:
    return State(2, mission, {m.id: m for m in models}, {}, {"komodo": 0, "hades": 0})


def _shot(state: State, shooter: str, target: str, rules) -> AttackOption:
    odds = shot_odds(state, shooter, target, "pistol", rules, push="risk-aware")
    return AttackOption("pistol", target, odds.tn, None, odds)


def _choice(state: State, shooter: str, target: str, rules) -> AttackOption | None:
    player = AutoPlayer(np.random.default_rng(0), rules)
    return player.choose_attack(ActionView(state, state.model(shooter), 0, None, rules),
                                [_shot(state, shooter, target, rules)])


def test_EC_MISSION_VIP_an_escort_leaves_the_enemy_VIPs_last_wound_to_its_own_VIP():
    """Clause: EC-MISSION-VIP. Pip's pistol (1 wound a hit) 6" from Brakes, the Hades VIP on his
    last wound, only moving: any hit takes him out. By Pip that is no take-down (it hands the part
    to the nearest Hades rider), so Pip declines the shot; the same shot at a Hades rider that is
    not the VIP, or by Viper (the Komodo VIP) at Brakes, is taken; in Turf War Pip takes it too."""
    rules = load_rules()
    pip = _rider("k_pip", "komodo", Pose(10, 10, 0), gun="pistol", ammo=5)
    viper = _rider("k_viper", "komodo", Pose(10, 10, 0), gun="pistol", ammo=5, vip=True)
    brakes = _rider("h_brakes", "hades", Pose(16, 10, 0), wounds=1, only_moved=True, vip=True)
    rat = _rider("h_rat", "hades", Pose(16, 10, 0), wounds=1, only_moved=True)
    assert _choice(_game(pip, brakes), "k_pip", "h_brakes", rules) is None
    assert _choice(_game(pip, rat), "k_pip", "h_rat", rules) is not None
    assert _choice(_game(viper, brakes), "k_viper", "h_brakes", rules) is not None
    assert _choice(_game(pip, brakes, mission="turf_war"), "k_pip", "h_brakes", rules) is not None


def test_EC_MISSION_VIP_a_take_out_is_a_hit_on_the_last_wounds_a_headshot_or_a_bust_on_the_last():
    """Clause: EC-MISSION-VIP. The pistol deals 1 wound: on Brakes's last wound every hit takes him
    out, and so does his own dodge busting (EC-DICE-4: a bust costs a wound); on 2 wounds a
    headshot, or a bust after a hit (at most the bust's odds: the odds do not say whether the two
    come together); on 3 wounds only a headshot. A rider that is not a VIP loses VIP_WASTE times
    that chance, a VIP nothing."""
    rules = load_rules()
    pip = _rider("k_pip", "komodo", Pose(10, 10, 0), gun="pistol", ammo=5)
    for wounds in (1, 2, 3):
        brakes = _rider("h_brakes", "hades", Pose(16, 10, 0), wounds=wounds, only_moved=True, vip=True)
        state = _game(pip, brakes)
        odds = _shot(state, "k_pip", "h_brakes", rules).odds
        expected = {1: odds.hit + odds.target_bust, 2: odds.headshot + odds.target_bust, 3: odds.headshot}[wounds]
        assert 0.0 < takeout_chance(brakes, "pistol", odds, rules) == float(expected)
        assert wasted_takedown(state, pip, brakes, "pistol", odds, rules) == VIP_WASTE * float(expected)
        assert wasted_takedown(state, pip.but(vip=True), brakes, "pistol", odds, rules) == 0.0
