"""EC-TRAIT: the automatic player follows the traits that oblige (Aggressive (x): an attack on an
Aggressive rival asks it to attack back; Matter of Pride: it rides after the rider that shot it)
and uses the ones that offer (Nimble (x): the free move straight ahead)."""

from __future__ import annotations

import numpy as np

from entropy3d.game.entropy_city_player import EntropyCityPlayer
from entropy3d.game.mission_goals import RiderGoal
from entropy3d.game.players import AutoPlayer
from entropy3d.geometry import Pose
from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.attack_chances import ALONG_THE_MOVE
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.state import State
from tests.systems.entropy_city.conftest import load_rules
from tests.systems.entropy_city.test_attacks import rider, side_by_side

rules = load_rules()


def player_of(rules, gang="komodo"):
    engine = EntropyCityEngine(rules)
    chooser = AutoPlayer(np.random.default_rng(0), rules, daring=1.5)
    return engine, EntropyCityPlayer(gang, engine, chooser, {"komodo": chooser.push, "hades": "never"})


def test_EC_TRAIT_an_attack_on_an_aggressive_rival_asks_it_to_attack_back():
    """Aggressive (x): "any future melee defences must be responded to with an attack if possible".
    k1 (chain) beside h1 (lead pipe, Aggressive 2, reached): the automatic player's attack asks h1
    to attack back, which the engine's check requires (a dodge would be refused); h1 not yet
    latched: a dodge, as every attack asks."""
    state = side_by_side(0.3, weapon="chain", attack_chance=ALONG_THE_MOVE)
    h1 = state.model("h1").but(weapon="leadpipe", traits=(("aggressive", 2),))
    engine, player = player_of(rules)
    for latched, defence in (((), "dodge"), (("aggressive",), "attack")):
        now = state.with_model(h1.but(traits_latched=latched))
        action = player.choose_action(SystemView(now, now.model("k1"), engine, None))
        assert (action.kind, action.target, action.defence) == ("attack", "h1", defence)
        engine.check(now, action)


def test_EC_TRAIT_matter_of_pride_sends_the_rider_after_its_shooter():
    """Matter of Pride: "all future activations must be spent attempting to deliver a melee attack
    to the enemy that did it": of two rivals, the automatic player's quarry is the one that shot
    it, not the nearer one."""
    me = rider("h1", "hades", Pose(10, 10, 0), pride_target="k_far")
    near, far = rider("k_near", "komodo", Pose(14, 10, 0)), rider("k_far", "komodo", Pose(30, 20, 0))
    state = State(2, "turf_war", {m.id: m for m in (me, near, far)})
    goal = RiderGoal.of(state, me, rules)
    assert [r.id for r in goal.quarry(state, me, [near, far])] == ["k_far"]
    assert [r.id for r in goal.quarry(state, me.but(pride_target=None), [near, far])] == ["k_near", "k_far"]


def test_EC_TRAIT_nimble_the_automatic_player_rides_its_free_move_straight_ahead():
    """Nimble (x): offered 3" after a hit, the automatic player rides 's2: straight 3' (the engine
    accepts it), before anything else."""
    state = side_by_side(0.3, weapon="chain", traits=(("nimble", 3),), free_move_in=3.0, actions_taken=1)
    engine, player = player_of(rules)
    action = player.choose_action(SystemView(state, state.model("k1"), engine, None))
    assert (action.kind, str(action.plan)) == ("forced", "s2: straight 3")
    assert engine.check(state, action).move.length_in == 3


def test_EC_TRAIT_a_script_names_the_traits_it_uses_and_a_taunt_is_a_weapon_word(tmp_path):
    """A script's `use:` names Strategist or All Part of the Plan; another name is refused before
    play with its key path and the names allowed; `attack: h1 with get_a_real_bike` (Get a Real
    Bike's taunt) is no unknown weapon."""
    import pytest

    from entropy3d.errors import ScriptError
    from entropy3d.game.session import play_game
    from tests.systems.entropy_city.test_choice_traits_game import YARD

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nactivations:\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 8'], attack: h1 with get_a_real_bike,"
                      " use: {plotting: [1]}}\n")
    with pytest.raises(ScriptError) as error:
        play_game(None, producer="geometric", script=script, replay_path=tmp_path / "game.jsonl")
    (where, line, message), = error.value.problems
    assert (where, line) == ("activations[0].use.plotting", 3)
    assert "strategist, all_part_of_the_plan" in message


def test_EC_TRAIT_charismatic_energy_the_automatic_leader_relieves_a_follower_near_its_max():
    """Charismatic Energy: the automatic player takes stress off a follower it sees that is within 3
    of its max (k1 at 8 of 10): 4 of it, in lieu of its attack; with k1 at 5 it attacks as ever."""
    from tests.systems.entropy_city.test_attacks import Table
    from tests.systems.entropy_city.test_choice_traits import IN_VIEW

    state = side_by_side(0.3, weapon="chain", attack_chance=ALONG_THE_MOVE, traits=(("charismatic_energy", None),))
    leader = state.model("k1")
    engine, player = player_of(rules)
    for stress, expected in ((8, (("k2", 4),)), (5, ())):
        now = state.with_model(leader.but(id="k2", pose=Pose(20, 20, 0), stress=stress, traits=(),
                                          attack_chance=None))
        action = player.choose_action(SystemView(now, now.model("k1"), engine, Table(IN_VIEW)))
        assert action.kind == "attack" and action.shares == expected
