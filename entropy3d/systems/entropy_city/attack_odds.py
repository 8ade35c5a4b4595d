"""Exact odds of an attack before it is rolled: the opposed test enumerated
(:func:`entropy3d.systems.entropy_city.odds.opposed_counts`: whole counts summed, one fraction made of each
sum) and every end judged by the very functions that judge a rolled attack
(:func:`~entropy3d.systems.entropy_city.attacks.melee_outcome`,
:func:`~entropy3d.systems.entropy_city.attacks.shot_outcome`),
so the odds and the game cannot disagree. Used by ``entropy3d attack`` and by the automatic
players to weigh their attacks."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attacks import melee_outcome, melee_setup, shot_outcome, shot_tn
from entropy3d.systems.entropy_city.bike_advantages import advantage_bike
from entropy3d.systems.entropy_city.combat import rider_dodge
from entropy3d.systems.entropy_city.dice import Outcome, policy_named
from entropy3d.systems.entropy_city.kick import KickPlan
from entropy3d.systems.entropy_city.odds import Side, opposed_counts
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import State


@dataclass(frozen=True)
class AttackOdds:
    """Probabilities of one attack's outcomes (exact fractions; not exclusive of each other).

    tn: the attacker's TN. hit: the attack hits. headshot: it hits as a headshot (EC-HEADSHOT).
    hit_back: the defender, attacking back, hits the attacker (EC-MEL-DEF).
    attacker_bust / target_bust: that side's roll busts (EC-DICE-4).
    """

    tn: int
    hit: Fraction
    headshot: Fraction
    hit_back: Fraction
    attacker_bust: Fraction
    target_bust: Fraction


def melee_odds(state: State, attacker_id: str, target_id: str, weapon: str, defence: str, ruleset: Ruleset, *,
               push: str = "sit-at-tn", defender_push: str = "sit-at-tn", from_pose: Pose | None = None,
               kick: KickPlan | None = None) -> AttackOdds:
    """Exact odds of a melee attack as :func:`~entropy3d.systems.entropy_city.attacks.resolve_melee` rolls it
    (EC-MEL-DEF, EC-MEL-2: a surprised target's stress is raised before it rolls); ``kick``: which
    bike a kick pushes (its TN depends on it, EC-MEL-KICK)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    setup = melee_setup(state, attacker_id, target_id, weapon, defence, ruleset, from_pose, kick)
    whole, ends = opposed_counts("melee", Side(setup.tn, attacker.stress, policy_named(push, ruleset),
                                               attacker.max_stress),
                                 Side(setup.defender_tn, target.stress + setup.surprise_stress,
                                      policy_named(defender_push, ruleset), target.max_stress), ruleset)
    hit = headshot = hit_back = 0
    for n, attacker_roll, defender_roll in ends:
        _, hits, hits_back, kill = melee_outcome(setup, attacker_roll, defender_roll, weapon, ruleset)
        hit += n * hits
        headshot += n * kill
        hit_back += n * hits_back
    return AttackOdds(setup.tn, Fraction(hit, whole), Fraction(headshot, whole), Fraction(hit_back, whole),
                      *_busts(whole, ends))


def shot_odds(state: State, attacker_id: str, target_id: str, gun: str, ruleset: Ruleset, *, shot: int = 0,
              push: str = "sit-at-tn", defender_push: str = "sit-at-tn") -> AttackOdds:
    """Exact odds of one shot (the ``shot``-th of a split shot) as
    :func:`~entropy3d.systems.entropy_city.attacks.resolve_shot` rolls it (EC-GUN-1, EC-GUN-2, EC-GUN-SPLIT)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    tn = shot_tn(state, attacker_id, target_id, gun, shot, ruleset)
    dodge = rider_dodge(target.dodge, advantage_bike(target), ruleset)
    whole, ends = opposed_counts("gun", Side(tn, attacker.stress, policy_named(push, ruleset), attacker.max_stress),
                                 Side(0, target.stress, policy_named(defender_push, ruleset), target.max_stress),
                                 ruleset)
    hit = headshot = 0
    for n, attacker_roll, defender_roll in ends:
        _, hits, kill = shot_outcome(attacker_roll, defender_roll, dodge, gun, ruleset)
        hit += n * hits
        headshot += n * kill
    return AttackOdds(tn, Fraction(hit, whole), Fraction(headshot, whole), Fraction(0), *_busts(whole, ends))


def _busts(whole: int, ends) -> tuple[Fraction, Fraction]:
    """Each side's chance of busting, from :func:`~entropy3d.systems.entropy_city.odds.opposed_counts`' ends."""
    attacker = sum(n for n, a, _ in ends if a.outcome is Outcome.BUST)
    target = sum(n for n, _, d in ends if d.outcome is Outcome.BUST)
    return Fraction(attacker, whole), Fraction(target, whole)
