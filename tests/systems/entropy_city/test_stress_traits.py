"""The traits of stress, stats and deeds (EC-TRAIT, issue 45), each played on the one path
(transition.check / resolve on a state, scripted dice) with the rulebook's words and the sums
worked out by hand. The readings of "needs work" are the DECISIONs of ``traits:`` in
rules/entropy_city.yaml.

The plans used: at speed 3 "s3: left tight 3, straight 9" costs 2 stress and tests at TN 14 (a
fail +4 stress); a chain's blow is TN 14 for 2 stress (EC-WPN); a rider's dodge stat is 1 unless
given. Scripted dice deal in order: the attacker's two, then the defender's (EC-DICE-2).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.attacks import melee_setup
from entropy3d.systems.entropy_city.sentences import Names, sentence
from entropy3d.systems.entropy_city.transition import Action, check
from tests.systems.entropy_city.test_attacks import attack, side_by_side
from tests.systems.entropy_city.test_transition import begin, head_on, model, state_of, take

TIGHT = "s3: left tight 3, straight 9"
NAMES = Names({"k1": "Viper", "h1": "Ash"}, {"komodo": "Komodo", "hades": "Hades MC"}, {"k1": "komodo", "h1": "hades"})


def tight_test(events):
    """The roll of the tight template's test (EC-TMPL-2)."""
    (test,) = [e for e in events if e.kind == "test" and "tight template" in e.rules]
    return test.rolls[0]


def with_traits(state, model_id, *traits, **changes):
    return state.with_model(state.model(model_id).but(traits=tuple(traits), **changes))


def test_EC_TRAIT_second_wind_takes_3_off_the_first_time_max_stress_is_reached(rules, dice):
    """"Second Wind: The first time this character reaches their Max Stress stat, their stress is
    reduced by 3." h1 (stress 8 of 10) is hit by a chain: 9+9 = 18 makes TN 14 and beats its dodge
    1+2 +8 stress +1 stat = 12; +2 stress = 10, its max: second wind, 10 - 3 = 7. Hit again from 8:
    10 again, but the wind is spent: it stays 10."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "h1", ("second_wind", None), stress=8)
    after, events = attack(state, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([9, 9, 1, 2]))
    assert after.model("h1").stress == 7
    (wind,) = [e for e in events if "EC-TRAIT" in e.clauses]
    assert wind.stress_change == -3 and sentence(wind, NAMES) == "Ash gets its second wind at max stress: -3 stress"
    again, _ = attack(after.with_model(after.model("h1").but(stress=8)),
                      Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([9, 9, 1, 2]))
    assert again.model("h1").stress == 10


def test_EC_TRAIT_thrives_under_pressure_lowers_every_test_from_stress_6_on(rules, dice):
    """"Thrives Under Pressure: When reaches stress 6 or higher TN of all future tests is reduced by
    1." From stress 5 the tight turn's +2 makes 7: its TN 14 is 13, and 3+3 +7 = 13 passes (stress
    stays 7; untraited it fails, +4). Back at stress 2 the next tight turn (+2 = 4) still tests at
    13 ("all future tests"): 4+5 +4 = 13 passes; a rider whose stress never reached 6 needs 14. Its
    chain's blow is a test of its too: TN 13 (14 untraited)."""
    state = begin(state_of(model(stress=5, traits=(("thrives_under_pressure", None),))), "k1", rules)
    after, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([3, 3]))
    roll = tight_test(events)
    assert roll.tn == 13 and roll.succeeded and after.model("k1").stress == 7
    calm = after.with_model(after.model("k1").but(stress=2))
    later, events = take(calm, Action.ride("k1", TIGHT, "never"), rules, dice([4, 5]))
    assert tight_test(events).tn == 13 and tight_test(events).succeeded and later.model("k1").stress == 4
    never_woken = state.with_model(state.model("k1").but(stress=2))
    _, events = take(never_woken, Action.ride("k1", TIGHT, "never"), rules, dice([4, 5]))
    assert tight_test(events).tn == 14 and not tight_test(events).succeeded
    # its attacks are tests too: its chain needs 13, not 14
    beside = with_traits(side_by_side(0.3, weapon="chain"), "k1", *later.model("k1").traits,
                         trait_marks=later.model("k1").trait_marks)
    assert melee_setup(beside, "k1", "h1", "chain", "dodge", rules).tn == 13


def test_EC_TRAIT_cracks_under_pressure_adds_stress_until_it_stops(rules, dice):
    """"Cracks Under Pressure: When reaches stress 6 or higher add 1 stress at the end of each
    activation until character has performed a stopped action, for the rest of this game this
    character cannot focus actions & stopped actions only reduce stress by 3." Stress 5, the tight
    turn (+2, 5+5 +7 = 17 passes) makes 7: cracked. Focus is refused; the activation's end adds 1
    (8). Next activation it stops: no stress at that end. The activation after, its recovery takes
    3 off (8 -> 5), where an uncracked rider recovers to 0 (EC-STOP-RECOVER)."""
    state = begin(state_of(model(stress=5, traits=(("cracks_under_pressure", None),))), "k1", rules)
    state, _ = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([5, 5]))
    assert state.model("k1").stress == 7
    with pytest.raises(IllegalPlanError, match="EC-TRAIT"):
        check(state, Action.ride("k1", "focus s3: straight 16"), rules)
    state, events = take(state, Action.end("k1"), rules)
    assert state.model("k1").stress == 8 and any("cracks under pressure" in e.rules for e in events)
    state = begin(state, "k1", rules)
    state, _ = take(state, Action.ride("k1", "stop s2: straight 8"), rules)
    state, _ = take(state, Action.end("k1"), rules)
    assert state.model("k1").stress == 8, "it stopped: no more stress an activation"
    recovered = begin(state, "k1", rules)
    assert recovered.model("k1").stress == 5


def test_EC_TRAIT_unwavering_dedication_loses_x_stress_each_turn(rules):
    """"Unwavering Dedication (x): Each turn this character loses x stress." x = 2, as it
    activates: 5 -> 3, then 3 -> 1, then 1 -> 0 (no lower)."""
    state = state_of(model(stress=5, traits=(("unwavering_dedication", 2),)))
    seen = []
    for _ in range(3):
        state = begin(state, "k1", rules)
        seen.append(state.model("k1").stress)
    assert seen == [3, 1, 0]


def test_EC_TRAIT_subtle_as_a_sledgehammer_lowers_incoming_attacks_after_its_first_hit(rules, dice):
    """"Subtle as a Sledgehammer: Once this character has made its first successful attack, the TN
    of all incoming attacks are reduced by 1 ... for the rest of this game." k1's chain misses
    (2+3 = 5): h1's punch at k1 still needs 14. It hits (9+9 = 18 beats 1+2 +1 = 4): from then on
    the punch needs 13."""
    state = with_traits(side_by_side(0.3, weapon="chain"), "k1", ("subtle_as_a_sledgehammer", None))
    punch_tn = melee_setup(state, "h1", "k1", "punch", "dodge", rules).tn
    missed, _ = attack(state, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([2, 3, 1, 2]))
    assert melee_setup(missed, "h1", "k1", "punch", "dodge", rules).tn == punch_tn == 14
    hit, events = attack(state, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([9, 9, 1, 2]))
    assert next(e for e in events if "hit" in e.figures).figures["hit"]
    assert melee_setup(hit, "h1", "k1", "punch", "dodge", rules).tn == 13


def test_EC_TRAIT_squid_is_hit_at_13_and_wears_no_protection(rules, dice):
    """"Squid: ... too cool to wear any protection ... the target number to hit them lower. So for the
    moment let's say 13." h1 with protection 2: a chain (TN 14) needs 16 to hit it; a squid, 13.
    7+6 = 13 against a dodge of 1+1 +1 = 3 hits the squid and misses the other."""
    armoured = with_traits(side_by_side(0.3, weapon="chain"), "h1", protection=2)
    squid = with_traits(armoured, "h1", ("squid", None))
    assert melee_setup(armoured, "k1", "h1", "chain", "dodge", rules).tn == 16
    assert melee_setup(squid, "k1", "h1", "chain", "dodge", rules).tn == 13
    hits = []
    for state in (armoured, squid):
        after, events = attack(state, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([7, 6, 1, 1]))
        hits.append(after.model("h1").stress)
    assert hits == [0, 2]


def test_EC_TRAIT_inebriated_less_ride_stress_no_stops_and_a_test_to_slow_down(rules, dice):
    """"Inebriated: Reduces all non-attack stress by 1 to a minimum of 1, cannot perform stop or
    focus actions. Slowing down requires a test TN13, if failed they stay in their current speed
    and add 1 stress." The tight turn's 2 stress is 1 (9+5 +1 = 15 passes its TN 14); stop and focus
    are refused; from speed 3 to 2 it tests at TN 13: 3+4 = 7 fails (speed stays 3, +1 stress),
    6+7 = 13 passes (speed 2, no stress)."""
    drunk = begin(state_of(model(traits=(("inebriated", None),))), "k1", rules)
    after, _ = take(drunk, Action.ride("k1", TIGHT, "never"), rules, dice([9, 5]))
    assert after.model("k1").stress == 1
    for plan in ("stop s2: straight 8", "focus s3: straight 16"):
        with pytest.raises(IllegalPlanError, match="EC-TRAIT"):
            check(drunk, Action.ride("k1", plan), rules)
    held, events = take(drunk, Action.ride("k1", "s2: straight 8", "never"), rules, dice([3, 4]))
    (slowing,) = [e for e in events if "slowing" in e.rules]
    assert slowing.rolls[0].tn == 13 and held.model("k1").speed == 3 and held.model("k1").stress == 1
    assert sentence(slowing, NAMES) == ("Viper tries to slow down, drunk: needs 13, rolls 7 - fails, "
                                       "stays at speed 3, +1 stress")
    slowed, _ = take(drunk, Action.ride("k1", "s2: straight 8", "never"), rules, dice([6, 7]))
    assert slowed.model("k1").speed == 2 and slowed.model("k1").stress == 0


def test_EC_TRAIT_rage_filled_pushes_until_it_passes_or_busts(rules, dice):
    """"Rage Filled: This character may never choose to fail a test, it must always continue until
    either it is successful or it busts." Its player asks never to push: the tight turn's 3+4 +2 = 9
    would fail (+4 stress, 6); raging it pushes a 5: 14, passed (stress 2). In an attack the
    rage-filled target pushes its dodge too (its player asked never to): 1+2 = 3, then 10: 13, still
    short of the blow's 9+9 = 18, then 9: 22, a bust (EC-DICE-4: the blow lands, +2 stress, a wound
    lost; its remount 9+9 +2 = 20 makes TN 17 - 2 = 15). Not raging, 1+2 +1 = 4 is simply hit."""
    state = begin(state_of(model(traits=(("rage_filled", None),))), "k1", rules)
    after, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([3, 4, 5]))
    assert tight_test(events).dice == (3, 4, 5) and after.model("k1").stress == 2
    raging = with_traits(side_by_side(0.3, weapon="chain"), "h1", ("rage_filled", None))
    after, events = attack(raging, Action.attack("k1", "h1", "chain", "never", "never"), rules,
                           dice([9, 9, 1, 2, 10, 9, 9, 9]))
    assert any(e.kind == "bust" and e.model == "h1" for e in events) and after.model("h1").wounds == 2


def test_EC_TRAIT_clutz_adds_its_dodge_to_every_test_but_crashes_and_dodges(rules, dice):
    """"Clutz: ... Dodge must be added to all test results even if it causes the rider to bust but
    it cannot be used in an attempt when trying to survive a collision or dodge an attack." Dodge 2:
    the tight turn's 5+5 +2 stress +2 = 14 passes (stress 2); 9+9 +2 +2 = 22 busts. Dodging a chain's
    8+7 = 15: 7+7 = 14 and no stat, hit (with its dodge, 16, it would be missed). A head-on crash
    tests at 21, not 21 - 2."""
    clutz = model(dodge=2, traits=(("clutz", None),))
    state = begin(state_of(clutz), "k1", rules)
    passed, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([5, 5]))
    assert tight_test(events).total == 14 and passed.model("k1").stress == 2
    busted, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([9, 9, 6, 6]))
    assert tight_test(events).total == 22 and any(e.kind == "bust" for e in events)
    target = with_traits(side_by_side(0.3, weapon="chain"), "h1", ("clutz", None), dodge=2)
    after, _ = attack(target, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([8, 7, 7, 7]))
    assert after.model("h1").stress == 2
    _, events = take(state_of(clutz.but(speed=2)), Action.ride("k1", "s2: straight 12"), rules,
                     np.random.default_rng(0), progress=5.0, contacts=[head_on(5.0)])
    (crash,) = [e for e in events if e.kind == "crash"]
    assert crash.rolls[0].tn == 21 and crash.rolls[0].bonus == 0


def test_EC_TRAIT_do_you_even_lift_bro_adds_strength_to_every_test_but_its_defence(rules, dice):
    """"Do you even lift bro?: ... Strength must be added to all test results even if it causes the
    rider to bust but it cannot be used in an attempt to shake off an attack." Strength 3: the tight
    turn's 5+4 +2 +3 = 14 passes; its chain's 6+5 +3 = 14 makes TN 14 and beats a dodge of 1+1 +1;
    dodging 8+7 = 15 itself, 6+6 +1 = 13 and no strength: hit."""
    bro = (("do_you_even_lift_bro", None),)
    state = begin(state_of(model(strength=3, traits=bro)), "k1", rules)
    after, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([5, 4]))
    assert tight_test(events).total == 14 and tight_test(events).succeeded and after.model("k1").stress == 2
    lifter = with_traits(side_by_side(0.3, weapon="chain"), "k1", *bro, strength=3)
    after, _ = attack(lifter, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([6, 5, 1, 1]))
    assert after.model("h1").stress == 2
    lifted = with_traits(side_by_side(0.3, weapon="chain"), "h1", *bro, strength=3)
    after, _ = attack(lifted, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([8, 7, 6, 6]))
    assert after.model("h1").stress == 2


def test_EC_TRAIT_uncanny_grace_may_add_its_dodge_to_a_rides_tests(rules, dice):
    """"Uncanny Grace: ... Their dodge may be added or ignored in regards to any test that would be
    directly relevant." Dodge 2 on the tight turn: 5+5 +2 = 12 fails, +2 = 14 passes (added); 10+9
    +2 = 21 passes and +2 would bust (ignored: 21). Not a melee attack's: 6+6 = 12 misses TN 14."""
    state = begin(state_of(model(dodge=2, traits=(("uncanny_grace", None),))), "k1", rules)
    after, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([5, 5]))
    assert tight_test(events).total == 14 and tight_test(events).bonus == 2 and after.model("k1").stress == 2
    _, events = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([10, 9]))
    assert tight_test(events).total == 21 and tight_test(events).bonus == 0 and tight_test(events).succeeded
    graceful = with_traits(side_by_side(0.3, weapon="chain"), "k1", ("uncanny_grace", None), dodge=2)
    after, _ = attack(graceful, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([6, 6, 1, 1]))
    assert after.model("h1").stress == 0


def test_EC_TRAIT_true_power_may_add_strength_to_its_melee_attack(rules, dice):
    """"True Power: ... this rider may add their strength or ignore it during any test in which it is
    relevant" (Strength: "May be added to assist a melee attack or to an attempted recovery from a
    crash"). Strength 3: the chain's 6+5 = 11 +3 = 14 hits (dodge 1+1 +1); 10+9 = 19 +3 would bust,
    so 19 (still a hit). Not a ride's test: the tight turn's 5+5 +2 = 12 fails (+4 stress, 6). Its
    remount is ("recovery from a crash"): from stress 4 the turn's +2 and 9+9 = 24 bust; a wound
    lost, the remount at TN 17 - 2 = 15: 3+3 +6 stress = 12, +3 = 15, back on (untraited: out)."""
    power = with_traits(side_by_side(0.3, weapon="chain"), "k1", ("true_power", None), strength=3)
    after, events = attack(power, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([6, 5, 1, 1]))
    blow = next(e for e in events if "hit" in e.figures)
    assert blow.rolls[0].total == 14 and after.model("h1").stress == 2
    _, events = attack(power, Action.attack("k1", "h1", "chain", "never", "never"), rules, dice([10, 9, 1, 1]))
    assert next(e for e in events if "hit" in e.figures).rolls[0].total == 19
    state = begin(state_of(model(strength=3, traits=(("true_power", None),))), "k1", rules)
    after, _ = take(state, Action.ride("k1", TIGHT, "never"), rules, dice([5, 5]))
    assert after.model("k1").stress == 6
    strained = state.with_model(state.model("k1").but(stress=4))
    after, events = take(strained, Action.ride("k1", TIGHT, "never"), rules, dice([9, 9, 3, 3]))
    (bust,) = [e for e in events if e.kind == "bust"]
    assert bust.rolls[0].tn == 15 and bust.rolls[0].total == 15 and after.model("k1").in_play
    assert after.model("k1").wounds == 2 and after.model("k1").skip_next_action


def test_EC_TRAIT_a_scene_gives_its_riders_these_traits(tmp_path):
    """A scene's ``rider: {traits: ...}`` of each of the twelve loads into the game's state, and a
    rider whose trait adds strength carries its Strength stat (the old rules data refused them by
    name: "not played yet")."""
    from entropy3d.scene import load_scene
    from tests.scene.test_loading import write_scene

    names = ("second_wind", "thrives_under_pressure", "cracks_under_pressure", "subtle_as_a_sledgehammer",
             "squid", "inebriated", "rage_filled", "clutz", "do_you_even_lift_bro", "uncanny_grace", "true_power")
    riders = "\n".join(f"  - {{id: r{i}, gang: a, bike: police, position: [{5 + 3 * i}, 10], facing: 0,\n"
                       f"     rider: {{strength: 3, traits: {{{name}: null}}}}}}" for i, name in enumerate(names))
    path = write_scene(tmp_path, "name: Traits\ngangs: {a: {name: A, colour: \"#ff0000\"}}\nmodels:\n" + riders
                       + "\n  - {id: u, gang: a, bike: police, position: [40, 30], facing: 0,\n"
                       "     rider: {traits: {unwavering_dedication: 2}}}\n")
    state = load_scene(path).initial_state()
    assert [state.model(f"r{i}").trait(name)[0] for i, name in enumerate(names)] == [True] * len(names)
    assert state.model("u").trait("unwavering_dedication") == (True, 2)
    assert state.model(f"r{names.index('true_power')}").strength == 3
    assert state.model(f"r{names.index('squid')}").strength == 1, "no trait of its reads strength"


def test_EC_TRAIT_a_scripted_game_on_the_trait_yard_plays_the_cards_traits(tmp_path):
    """The Trait yard (tests/data/trait_yard.yaml), seed 1, two turns of two 6" straights at speed 1
    each (no stress, no test). Ash (stress 4, Unwavering Dedication (2)) loses 2 as each activation
    starts: 2 after turn 1, 0 after turn 2. Viper starts at stress 6 (Cracks Under Pressure): it
    wakes once the first thing of the game has resolved (its activation's start), and each
    activation's end adds 1, as it never stops: 7, then 8. The marks survive the state's JSON
    form (the replay's)."""
    from entropy3d.game.session import play_game
    from entropy3d.systems.entropy_city.state import State

    yard = Path(__file__).resolve().parents[2] / "data" / "trait_yard.yaml"
    script = tmp_path / "run.yaml"
    rides = "plans: ['s1: straight 6', 's1: straight 6']"
    script.write_text(f"scene: {yard}\nturns: 2\nfallback: error\nactivations:\n"
                      + "".join(f"  - {{turn: {turn}, model: {rider}, {rides}}}\n" for turn in (1, 2)
                                for rider in ("h1", "k1")))
    replay = play_game(None, seed=1, producer="geometric", script=script)
    stress = {(a.turn, a.model_id): a.state_after.model(a.model_id).stress for a in replay.activations}
    assert stress == {(1, "h1"): 2, (2, "h1"): 0, (1, "k1"): 7, (2, "k1"): 8}
    said = [e.rules for a in replay.activations for e in a.events if "EC-TRAIT" in e.clauses]
    assert said.count("sheds 2 stress: unwavering dedication") == 2
    assert said.count("cracks under pressure: +1 stress until it stops") == 2
    end = State.from_json(replay.end.state.to_json()).model("k1")
    assert end.trait_marks == ("cracks_under_pressure", "cracking") and end.stress == 8


def test_EC_TRAIT_an_action_a_trait_refuses_must_be_a_plan_action():
    """A misspelt action in a trait's ``refuses_actions`` is a rules-data error naming the key and the
    actions there are, never a refusal that silently never happens."""
    import yaml

    from entropy3d.errors import RulesDataError
    from entropy3d.systems.entropy_city.ruleset import Ruleset
    from tests.systems.entropy_city.conftest import RULES_FILE

    data = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    data["traits"]["inebriated"]["refuses_actions"] = ["stopp"]
    with pytest.raises(RulesDataError, match=r"traits\.inebriated: refuses_actions: unknown plan action 'stopp'; "
                                             r"use move, focus"):
        Ruleset.from_mapping(data, "entropy_city.yaml")
