"""Attack geometry and attack numbers (EC-MEL-*, EC-GUN-1, EC-MOVE-3, EC-JUMP-3, EC-ACT-PICKUP,
EC-ACT-PASS, EC-ACT-GUNGHO, EC-BIKE-CRUISER, EC-BIKE-TRAIL). Pure functions over
:class:`~entropy3d.geometry.Pose` and :class:`~entropy3d.geometry.BaseShape` in table inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from entropy3d.core.facts import Sight
from entropy3d.geometry import BaseShape, Pose, angle_between_deg
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import bike_clause


def base_gap_in(a_pose: Pose, a_base: BaseShape, b_pose: Pose, b_base: BaseShape,
                samples: int = 180) -> float:
    """Shortest edge-to-edge distance between two bases, inches (0 when they touch or overlap)."""
    a = a_base.outline(a_pose, samples)
    b = b_base.outline(b_pose, samples)
    if a_base.contains(a_pose, b).any() or b_base.contains(b_pose, a).any():
        return 0.0
    # the nearest pair's squared distance, then its root: the same bits as the least of every
    # pair's distance (the root is monotone and correctly rounded), without 32,400 roots a call;
    # of the points that can make that pair only (:func:`_near_points`), each pair's distance
    # computed as for every pair, so the least is the same number
    a, b = _near_points(a, b)
    dx, dy = a[:, 0, None] - b[None, :, 0], a[:, 1, None] - b[None, :, 1]
    return float(np.sqrt((dx * dx + dy * dy).min()))


#: every how many outline points :func:`_near_points` measures for its bound
NEAR_BOUND_STRIDE = 12
#: inches added to :func:`_near_points`' bound: far more than the rounding of any distance on a table
NEAR_SLACK_IN = 1e-6


def _near_points(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of outlines ``a`` and ``b`` ((N, 2) each, inches) that may make their nearest
    pair. The least distance of every ``NEAR_BOUND_STRIDE``-th point of each (a bound from above
    of the least of all pairs) leaves out a point further than it from the other outline's box:
    no such point is within it of any point of the other. A melee check asks this a few thousand
    times a game; a tenth of the pairs are left (a box and few numpy calls: each costs more here
    than the pairs it would leave out)."""
    sa, sb = a[::NEAR_BOUND_STRIDE], b[::NEAR_BOUND_STRIDE]
    d = sa[:, None, :] - sb[None, :, :]
    bound = math.sqrt(float((d * d).sum(axis=2).min())) + NEAR_SLACK_IN
    low_a, high_a = a.min(axis=0) - bound, a.max(axis=0) + bound
    low_b, high_b = b.min(axis=0) - bound, b.max(axis=0) + bound
    return a[((a >= low_b) & (a <= high_b)).all(axis=1)], b[((b >= low_a) & (b <= high_a)).all(axis=1)]


def beside_fraction(attacker: Pose, a_base: BaseShape, target: Pose, t_base: BaseShape) -> float:
    """The share of the attacker's base length that lies beside the target's base: the overlap of
    their extents along the target's heading, over the attacker's extent (0..1)."""
    a_local = target.to_local(a_base.outline(attacker, 96))[:, 0]
    lo, hi = float(a_local.min()), float(a_local.max())
    half = 0.5 * t_base.length
    overlap = max(0.0, min(hi, half) - max(lo, -half))
    return overlap / max(hi - lo, 1e-9)


@dataclass(frozen=True)
class MeleeCheck:
    """Whether a melee attack may be made (EC-MEL-1, EC-MEL-2, EC-JUMP-3).

    allowed: all conditions hold. gap_in: edge-to-edge distance. reach_in: the weapon's reach.
    beside: share of the attacker's base beside the target. surprise: the attacker is behind the
    target (EC-MEL-2). reason: why not, empty when allowed; refused_by: the clause that refuses
    it (EC-MEL-1 for reach and the half base beside, EC-JUMP-3 in the air), "" when allowed.
    """

    allowed: bool
    gap_in: float
    reach_in: float
    beside: float
    surprise: bool
    reason: str
    clauses: tuple[str, ...]
    refused_by: str = ""


#: the kick (EC-MEL-KICK), a melee attack every rider has, with the punch, under "None: BTB"
KICK = "kick"


def weapon_reach_in(weapon: str, ruleset: Ruleset) -> float:
    """A melee weapon's reach in inches (0 is base to base; EC-WPN, data ``weapons``); a kick's is
    the punch's, base to base ("None: BTB ... Kick Bike", EC-MEL-KICK)."""
    if weapon == KICK:
        weapon = "punch"
    weapons = ruleset.data("weapons")
    if weapon not in weapons:
        raise ValueError(f"unknown melee weapon {weapon!r}; use one of {', '.join(weapons)}")
    return float(weapons[weapon]["reach_in"])


def attacked_from_behind(attacker: Pose, target: Pose) -> bool:
    """The attacker's centre is in the back half of the target (behind its side-to-side line)."""
    return float(target.to_local(attacker.xy)[0, 0]) < 0.0


def check_melee(attacker: Pose, a_base: BaseShape, target: Pose, t_base: BaseShape, weapon: str,
                ruleset: Ruleset, *, attacker_airborne: bool = False,
                target_airborne: bool = False, target_on_foot: bool = False) -> MeleeCheck:
    """Check (not resolve) a melee attack by geometry.

    DECISION (EC-MEL-1 against a model on foot, ``target_on_foot``): half of a bike's 75 mm base
    can never lie beside a 25 mm one, so a rider striking a figure on foot needs half of the
    *figure's* base beside its own; the rule as written stands between bases of a size."""
    reach = weapon_reach_in(weapon, ruleset)
    gap = base_gap_in(attacker, a_base, target, t_base)
    beside = beside_fraction(target, t_base, attacker, a_base) if target_on_foot and t_base.length < a_base.length \
        else beside_fraction(attacker, a_base, target, t_base)
    surprise = attacked_from_behind(attacker, target)
    clauses = ["EC-MEL-1"] + (["EC-MEL-2"] if surprise else [])
    reason, refused_by = "", "EC-MEL-1"
    if target_airborne and not attacker_airborne:
        reason, refused_by = "an airborne rider can only be meleed by another launched rider", "EC-JUMP-3"
        clauses.append("EC-JUMP-3")
    elif gap > reach + float(ruleset.data("melee.btb_tolerance_in")):
        reason = f"out of reach: {gap:.2f}\" apart, {weapon} reaches {reach:g}\""
    elif beside < float(ruleset.data("melee.beside_fraction")) - 1e-9:
        reason = f"only {beside:.0%} of the base is beside the target; half is needed"
    return MeleeCheck(not reason, gap, reach, beside, surprise, reason, tuple(clauses), refused_by if reason else "")


@dataclass(frozen=True)
class SurpriseEffect:
    """A surprise attack (EC-MEL-2): the defender adds ``defender_stress`` and may only dodge."""

    defender_stress: int
    dodge_only: bool
    clauses: tuple[str, ...] = ("EC-MEL-2",)


def surprise_effect(ruleset: Ruleset) -> SurpriseEffect:
    """The effect of being attacked from behind."""
    return SurpriseEffect(int(ruleset.data("melee.surprise_stress")), True)


def chicken_allowed(attacker: Pose, target: Pose) -> bool:
    """Game of chicken only approaching the target from its front (EC-MEL-CHICKEN): the attacker
    is in the target's front half and heading towards it (more than 90 degrees off its heading)."""
    in_front = float(target.to_local(attacker.xy)[0, 0]) > 0.0
    return in_front and angle_between_deg(attacker.facing_deg, target.facing_deg) > 90.0


@dataclass(frozen=True)
class ChickenStress:
    """Stress of a won game of chicken (EC-MEL-CHICKEN): the loser takes ``loser``, the winner
    ``winner`` (half, rounded down, at least 1; none after a natural 21). side_step_in: the
    winner's optional side-step."""

    loser: int
    winner: int
    side_step_in: float
    clauses: tuple[str, ...] = ("EC-MEL-CHICKEN",)


def chicken_stress(winner_total: int, ruleset: Ruleset, winner_crit: bool = False) -> ChickenStress:
    """Stress table of the game of chicken: a success of 15..21 gives 1..7 stress."""
    spec = ruleset.data("chicken")
    if winner_crit:
        total = 21
    elif winner_total < int(spec["tn"]):
        raise ValueError(f"a game of chicken needs {spec['tn']} to succeed, got {winner_total}")
    else:
        total = winner_total
    loser = min(int(spec["max_stress"]), total - int(spec["stress_offset"]))
    winner = int(spec["crit_winner_stress"]) if winner_crit else max(int(spec["winner_min_stress"]),
                                                                    loser // 2)
    return ChickenStress(loser, winner, float(spec["side_step_in"]))


def shot_in_sight(visible_fraction: float, bike_seen: bool, ruleset: Ruleset) -> bool:
    """Whether what a shooter sees of a target allows a shot (EC-COVER-1: "at least 25% of the
    motorcycle and rider must be visible"; EC-LOS-4: the bike itself, not a limb). The LOS engine
    measures both (:class:`~entropy3d.core.facts.Sight`); this is the one place that decides."""
    return bike_seen and visible_fraction >= float(ruleset.data("shooting.min_visible_fraction")) - 1e-9


def may_shoot(now: Sight, at_activation_start: Sight, stealth: bool, ruleset: Ruleset) -> bool:
    """Whether a shooter may shoot a target it sees now (:func:`shot_in_sight`, EC-COVER-1); a
    Stealth target only if the shooter also saw it, its bike itself (EC-LOS-4), when the
    activation started (EC-STEALTH). ``now`` and ``at_activation_start``: what the LOS engine
    measured (anything with ``visible_fraction`` and ``bike_seen``)."""
    allowed = shot_in_sight(now.visible_fraction, now.bike_seen, ruleset)
    return allowed and (not stealth or bool(at_activation_start.bike_seen))


def gun_range_in(gun: str, ruleset: Ruleset) -> float:
    """A gun's effective range in table inches, from the rulebook's metres through the table scale
    (EC-GUN-2); infinite for a gun of unlimited range (``range_m: null``, the sniper rifle)."""
    metres = ruleset.data(f"guns.{gun}.range_m")
    return math.inf if metres is None else ruleset.scale.inches(float(metres))


def gun_tn(speed: int, ruleset: Ruleset) -> int:
    """A gun attack's TN at the shooter's speed (0 = stopped), per option ``gun_tn`` (EC-GUN-1)."""
    table = ruleset.option("gun_tn")
    if speed not in table:
        raise ValueError(f"no gun TN for speed {speed}")
    return int(table[speed])


def attack_tn(base_tn: int, ruleset: Ruleset, *, protection: int = 0, target_only_moved: bool = False,
              target_bike: str | None = None, target_airborne: bool = False,
              ranged: bool = False, at_the_bike: bool = False) -> int:
    """The TN to hit a rider: the weapon's TN + protection (melee) + 1 if the target only moved
    (EC-MOVE-3) + 1 against a trailbike rider (EC-BIKE-TRAIL) + the airborne penalty for ranged
    attacks (EC-JUMP-3). ``at_the_bike``: the attack is at the bike, not its rider (a kick,
    EC-MEL-KICK): neither the rider's protection nor the trailbike rider's modifier counts."""
    return base_tn + sum(change for _, change in attack_tn_modifiers(
        ruleset, protection=protection, target_only_moved=target_only_moved, target_bike=target_bike,
        target_airborne=target_airborne, ranged=ranged, at_the_bike=at_the_bike))


def attack_tn_modifiers(ruleset: Ruleset, *, protection: int = 0, target_only_moved: bool = False,
                        target_bike: str | None = None, target_airborne: bool = False,
                        ranged: bool = False, at_the_bike: bool = False) -> list[tuple[str, int]]:
    """What :func:`attack_tn` adds to a weapon's TN, each change with the clause that makes it
    ("" for the rider's protection, a stat): so an attack's event cites the clauses its TN
    applied. Changes of 0 are left out."""
    if at_the_bike:
        protection, target_bike = 0, None
    changes = [("", 0 if ranged else protection),
               ("EC-MOVE-3", int(ruleset.data("actions.only_moved_tn_mod")) if target_only_moved else 0),
               (bike_clause(target_bike) if target_bike is not None else "",
                ruleset.bike_rules(target_bike).attack_rider_tn_mod if target_bike is not None else 0),
               ("EC-JUMP-3", int(ruleset.data("jump.ranged_tn_mod")) if ranged and target_airborne else 0)]
    return [(clause, change) for clause, change in changes if change]


def attack_stress(base_stress: int, attacker_bike: str, speed: int, ruleset: Ruleset) -> int:
    """Stress a melee hit deals: a cruiser at speed 3 deals +1 (EC-BIKE-CRUISER)."""
    extra = ruleset.bike_rules(attacker_bike).speed3_attack_stress
    return base_stress + (extra if speed == 3 else 0)


def rider_dodge(dodge: int, bike_type: str, ruleset: Ruleset) -> int:
    """A rider's dodge on a given bike: trailbikes +1 (EC-BIKE-TRAIL)."""
    return dodge + ruleset.bike_rules(bike_type).dodge_bonus


def gungho_attack_stress(attack_number: int, ruleset: Ruleset) -> int:
    """Stress the attacker takes for its n-th (1-based) gung-ho attack: +2 after the first, at
    most 4 attacks (EC-ACT-GUNGHO)."""
    spec = ruleset.data("actions.gungho")
    if not 1 <= attack_number <= int(spec["max_attacks"]):
        raise ValueError(f"gung-ho allows attacks 1..{spec['max_attacks']}, not {attack_number}")
    return 0 if attack_number == 1 else int(spec["stress_per_extra_attack"])


@dataclass(frozen=True)
class KickCheck:
    """A Kick Bike attack (EC-MEL-KICK): TN, and whether the push and pivot are within limits."""

    tn: int
    allowed: bool
    reason: str
    clauses: tuple[str, ...] = ("EC-MEL-KICK",)


def check_kick(push_in: float, pivot_deg: float, kicked_bike: str, own_bike: bool,
               ruleset: Ruleset) -> KickCheck:
    """Push either bike up to 3" and pivot up to 45 degrees; +3 TN to kick an enemy cruiser
    (moving one's own bike keeps the TN) (EC-MEL-KICK, EC-BIKE-CRUISER)."""
    spec = ruleset.data("melee.kick")
    tn = int(spec["tn"])
    if not own_bike:
        tn += ruleset.bike_rules(kicked_bike).kick_tn_mod
    reason = ""
    if push_in > float(spec["max_push_in"]) + 1e-9:
        reason = f"a kick pushes at most {float(spec['max_push_in']):g}\""
    elif abs(pivot_deg) > float(spec["max_pivot_deg"]) + 1e-9:
        reason = f"a kick pivots at most {float(spec['max_pivot_deg']):g} degrees"
    return KickCheck(tn, not reason, reason)


@dataclass(frozen=True)
class ItemActionCheck:
    """Pick up or pass an item (EC-ACT-PICKUP, EC-ACT-PASS): allowed, stress, TN modifier."""

    allowed: bool
    stress: int
    tn_mod: int
    reason: str
    clauses: tuple[str, ...]


def check_pickup(distance_in: float, bikes_within_crowd_range: int, ruleset: Ruleset) -> ItemActionCheck:
    """Within 1" of the item; +1 stress; +1 TN per bike within 3"."""
    spec = ruleset.data("actions.pickup")
    ok = distance_in <= float(spec["range_in"]) + 1e-9
    return ItemActionCheck(ok, int(spec["stress"]) if ok else 0,
                           int(spec["tn_per_bike_within"]) * bikes_within_crowd_range,
                           "" if ok else f"the item is {distance_in:.2f}\" away; pick up needs "
                           f"{spec['range_in']}\"", ("EC-ACT-PICKUP",))


def check_pass(distance_in: float, same_gang: bool, ruleset: Ruleset) -> ItemActionCheck:
    """Pass to a friendly rider within 1"; +1 stress."""
    spec = ruleset.data("actions.pass")
    reason = ""
    if not same_gang:
        reason = "items are passed to a friendly rider"
    elif distance_in > float(spec["range_in"]) + 1e-9:
        reason = f"the rider is {distance_in:.2f}\" away; passing needs {spec['range_in']}\""
    return ItemActionCheck(not reason, 0 if reason else int(spec["stress"]), 0, reason, ("EC-ACT-PASS",))


def clamp_stress(stress: int) -> int:
    """Stress never drops below zero."""
    return max(0, int(math.floor(stress)))
