"""Exact odds of opposed tests and attacks (EC-DICE-2, EC-DICE-5, EC-MEL-DEF, EC-GUN-2) against a
brute-force enumeration: every sequence of die faces is fed to the very function that rolls the
game's dice (:func:`opposed_test`, :func:`resolve_melee`, :func:`resolve_shot`) and weighted by
10^-faces. The cases keep pushing short (high stress, bounded policies) so the brute force stays
within seconds."""

from __future__ import annotations

import pytest

from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attack_odds import melee_odds, shot_odds
from entropy3d.systems.entropy_city.attacks import resolve_melee, resolve_shot
from entropy3d.systems.entropy_city.dice import RiskAware, never_push
from entropy3d.systems.entropy_city.odds import Side, exact_opposed
from entropy3d.systems.entropy_city.opposed import opposed_test
from entropy3d.systems.entropy_city.state import ModelState, State


class Tape:
    """A die source playing a fixed prefix of faces; asking past its end raises Exhausted."""

    class Exhausted(Exception):
        pass

    def __init__(self, faces):
        self.faces, self.used = faces, 0

    def integers(self, low, high):
        if self.used == len(self.faces):
            raise Tape.Exhausted
        self.used += 1
        return self.faces[self.used - 1]


def enumerate_faces(play, sides=10):
    """{result of play(tape): probability} over every finite face sequence ``play`` consumes."""
    found, stack = {}, [()]
    while stack:
        faces = stack.pop()
        tape = Tape(faces)
        try:
            key = play(tape)
        except Tape.Exhausted:
            stack.extend(faces + (face,) for face in range(1, sides + 1))
            continue
        assert tape.used == len(faces)
        found[key] = found.get(key, 0.0) + sides ** -len(faces)
    return found


def grouped(ends):
    found = {}
    for p, attacker, defender in ends:
        key = (attacker.outcome, attacker.total, defender.outcome, defender.total)
        found[key] = found.get(key, 0.0) + float(p)
    return found


CASES = [
    ("melee", Side(15, 6, RiskAware(0.0)), Side(0, 7, RiskAware(0.2))),
    ("gun", Side(13, 9, RiskAware(0.2)), Side(0, 8, never_push)),
    ("melee", Side(14, 9, never_push, max_stress=10), Side(16, 10, RiskAware(0.1), max_stress=10)),
]


@pytest.mark.parametrize("kind, attacker, defender", CASES)
def test_EC_DICE_2_exact_opposed_odds_match_brute_force(rules, kind, attacker, defender):
    exact = grouped(exact_opposed(kind, attacker, defender, rules))
    brute = enumerate_faces(lambda tape: (lambda r: (r.attacker.outcome, r.attacker.total, r.defender.outcome,
                                                     r.defender.total))(
        opposed_test(kind, attacker.tn, attacker.stress, defender.stress, tape, rules,
                     attacker_policy=attacker.policy, defender_policy=defender.policy, defender_tn=defender.tn,
                     attacker_max_stress=attacker.max_stress, defender_max_stress=defender.max_stress)))
    assert abs(sum(exact.values()) - 1.0) < 1e-12
    assert set(exact) == set(brute)
    assert max(abs(exact[k] - brute[k]) for k in exact) < 1e-9


def pair(defence_weapon="chain", attacker_at=(10.0, 11.95), **target):
    """k1 beside h1 (facing +x) with a chain each, stressed so that pushing stays short, on their
    last wound so that a bust ends the enumeration (no remount test to roll)."""
    def rider(model_id, gang, pose, **changes):
        fields = dict(id=model_id, gang=gang, bike_type="police", pose=pose, speed=2, stress=8, wounds=1,
                      max_stress=10, dodge=1, weapon="chain")
        fields.update(changes)
        return ModelState(**fields)
    models = {"k1": rider("k1", "komodo", Pose(*attacker_at, 0)),
              "h1": rider("h1", "hades", Pose(10, 10, 0), weapon=defence_weapon, **target)}
    return State(2, "turf_war", models, {}, {"komodo": 0, "hades": 0})


def hit_by(events, attacker):
    attack = next(e for e in events if e.kind == "attack" and e.model == attacker and "hit" in e.figures)
    return attack.figures["hit"]


@pytest.mark.parametrize("defence, defender_push", [("dodge", "risk-aware"), ("attack", "never")])
def test_EC_MEL_DEF_melee_odds_match_brute_force_through_the_rolled_attack(rules, defence, defender_push):
    state = pair(stress=9)
    odds = melee_odds(state, "k1", "h1", "chain", defence, rules, push="risk-aware", defender_push=defender_push)

    def play(tape):
        after, events = resolve_melee(state, "k1", "h1", "chain", defence, "risk-aware", defender_push, tape, rules)
        back = any(e.kind == "attack" and e.model == "k1" and e.rules.startswith("h1's chain hits") for e in events)
        return hit_by(events, "k1"), back
    brute = enumerate_faces(play)
    assert abs(float(odds.hit) - sum(p for (hit, _), p in brute.items() if hit)) < 1e-9
    assert abs(float(odds.hit_back) - sum(p for (_, back), p in brute.items() if back)) < 1e-9
    assert (odds.hit_back > 0) == (defence == "attack")


def test_EC_MEL_2_a_surprised_target_rolls_with_its_added_stress(rules):
    behind = pair(attacker_at=(7.0, 10.0), stress=6)
    beside = pair(stress=6)
    surprised = melee_odds(behind, "k1", "h1", "chain", "dodge", rules, push="never", defender_push="never")
    warned = melee_odds(beside, "k1", "h1", "chain", "dodge", rules, push="never", defender_push="never")
    assert surprised.target_bust > warned.target_bust  # +2 stress makes its 2d10 bust more often
    brute = enumerate_faces(lambda tape: hit_by(resolve_melee(behind, "k1", "h1", "chain", "dodge", "never",
                                                              "never", tape, rules)[1], "k1"))
    assert abs(float(surprised.hit) - brute.get(True, 0.0)) < 1e-9


def test_EC_GUN_2_shot_odds_match_brute_force_through_the_rolled_shot(rules):
    state = pair(stress=8)
    state = state.with_model(state.model("k1").but(gun="pistol", ammo=5))
    odds = shot_odds(state, "k1", "h1", "pistol", rules, push="risk-aware", defender_push="never")
    brute = enumerate_faces(lambda tape: (lambda events: (hit_by(events, "k1"), any(
        e.figures.get("headshot") for e in events)))(resolve_shot(state, "k1", "h1", "pistol", 1, "risk-aware",
                                                                   "never", tape, rules)[1]))
    assert abs(float(odds.hit) - sum(p for (hit, _), p in brute.items() if hit)) < 1e-9
    assert abs(float(odds.headshot) - sum(p for (_, head), p in brute.items() if head)) < 1e-9


def test_EC_DICE_5_the_same_sides_named_twice_are_enumerated_once(rules):
    """The risk-aware policy is a value: two players naming it give equal policies, so the exact
    opposed odds of the same attack asked again (as the game loop asks every option) come from the
    cache, and equal to the first answer. With a closure per naming, every ask was enumerated anew."""
    from entropy3d.systems.entropy_city.dice import policy_named
    from entropy3d.systems.entropy_city.odds import _opposed_counts

    def ask():
        return exact_opposed("gun", Side(13, 4, policy_named("risk-aware", rules)),
                             Side(0, 5, policy_named("risk-aware", rules)), rules)

    assert policy_named("risk-aware", rules) == policy_named("risk-aware", rules)
    first = ask()
    hits = _opposed_counts.cache_info().hits
    assert ask() == first
    assert _opposed_counts.cache_info().hits == hits + 1
