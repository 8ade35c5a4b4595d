"""Resolution of table events the physics layer measures: crashes, destructibles, jumps, the
cliff edge (all pure; a roll happens only when an rng is given). Melee geometry and attack TNs
live in :mod:`entropy3d.systems.entropy_city.combat`. Every result lists the clause ids it applied.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropy3d.geometry import angle_between_deg
from entropy3d.systems.entropy_city.dice import Policy, TestRoll, roll_test, sit_at_tn
from entropy3d.systems.entropy_city.ruleset import Ruleset

HEAD_ON = "head_on"
SIDE_ON = "side_on"


def crash_kind(heading_deg: float, impact_dir_deg: float, ruleset: Ruleset) -> str:
    """Head-on or side-on (EC-COL-HEAD / EC-COL-SIDE).

    heading_deg: the bike's heading. impact_dir_deg: direction from the bike's centre towards
    the contact (for a wall, the reversed outward surface normal). Head-on when the two are
    within ``crash.head_on_max_deg`` (45) degrees, side-on otherwise.
    """
    limit = float(ruleset.data("crash.head_on_max_deg"))
    return HEAD_ON if angle_between_deg(heading_deg, impact_dir_deg) <= limit + 1e-9 else SIDE_ON


@dataclass(frozen=True)
class CrashResult:
    """An unavoidable impact (EC-COL-1) and its survival test.

    kind: head_on or side_on. tn: the survival TN (21 or 18 minus dodge). roll: the test, None
    if not rolled. survived: the test passed (None if not rolled); a failed test crashes the bike
    (run :func:`entropy3d.systems.entropy_city.dice.resolve_bust`). stress_added: stress on survival.
    skip_next_activation: head-on survival stops the bike base to base. speed_after: side-on
    survival rides on at speed 1 for the rest of the activation (None: unchanged).
    """

    kind: str
    tn: int
    roll: TestRoll | None
    survived: bool | None
    stress_added: int
    skip_next_activation: bool
    speed_after: int | None
    clauses: tuple[str, ...]


def resolve_crash(heading_deg: float, impact_dir_deg: float, dodge: int, stress: int,
                  ruleset: Ruleset, rng: np.random.Generator | None = None,
                  policy: Policy = sit_at_tn, max_stress: int | None = None, tn_mod: int = 0, bonus: int = 0,
                  optional: int = 0) -> CrashResult:
    """Classify an unavoidable impact and, with ``rng``, roll the survival test (EC-COL-*).
    tn_mod: added to the survival TN (a stunned rider's +3, EC-COND-STUN). bonus / optional: a
    stat the rider's traits add to the total (EC-TRAIT; :func:`entropy3d.systems.entropy_city.dice.with_stat`)."""
    kind = crash_kind(heading_deg, impact_dir_deg, ruleset)
    spec = ruleset.data(f"crash.{kind}")
    tn = int(spec["tn_base"]) - dodge + tn_mod
    clause = "EC-COL-HEAD" if kind == HEAD_ON else "EC-COL-SIDE"
    roll = _rolled(tn, stress, rng, ruleset, policy, max_stress, bonus, optional)
    survived = None if roll is None else roll.succeeded
    ok = survived is not False
    return CrashResult(
        kind=kind, tn=tn, roll=roll, survived=survived,
        stress_added=int(spec["stress"]) if survived else 0,
        skip_next_activation=bool(spec.get("skip_next_activation", False)) and ok,
        speed_after=spec.get("speed_after") if ok else None,
        clauses=("EC-COL-1", clause) + (("EC-DICE-4",) if survived is False else ()))


def _rolled(tn: int, stress: int, rng: np.random.Generator | None, ruleset: Ruleset, policy: Policy,
            max_stress: int | None, bonus: int, optional: int) -> TestRoll | None:
    """A test with what traits add to it (EC-TRAIT), or None without an rng."""
    if rng is None:
        return None
    return roll_test(tn, stress, rng, ruleset, policy, max_stress, bonus, optional)


@dataclass(frozen=True)
class EdgeResult:
    """A ride sent over the cliff edge of Lovers Point Brawl busts, no test (EC-COL-EDGE)."""

    busts: bool = True
    out_of_game: bool = True
    clauses: tuple[str, ...] = ("EC-COL-EDGE",)


def resolve_cliff_edge() -> EdgeResult:
    """Over the cliff edge: automatic bust without chance of survival (EC-COL-EDGE)."""
    return EdgeResult()


@dataclass(frozen=True)
class DestructibleResult:
    """Riding through a destructible piece (EC-DEST-2..4).

    eligible: speed >= 2 and full movement; otherwise the piece is a solid obstacle and nothing
    else applies. stress_added: its risk (1-3), taken at once. roll: the TN 13 test (None if not
    rolled). item_moved_in: on success the item moves speed x 2 inches, the rider choosing the
    direction. forced_turn_in: on a fail the opponent turns the bike 2 inches; it carries on.
    """

    eligible: bool
    stress_added: int
    tn: int
    roll: TestRoll | None
    item_moved_in: float
    forced_turn_in: float
    clauses: tuple[str, ...]


def destructible_eligible(speed: int, full_movement: bool, ruleset: Ruleset) -> bool:
    """Full-speed movement at speed 2 or more is needed to go through (EC-DEST-2)."""
    return full_movement and speed >= int(ruleset.data("destructible.min_speed"))


def resolve_destructible(speed: int, full_movement: bool, risk: int, stress: int, ruleset: Ruleset,
                         rng: np.random.Generator | None = None, policy: Policy = sit_at_tn,
                         max_stress: int | None = None, tn_mod: int = 0, bonus: int = 0,
                         optional: int = 0) -> DestructibleResult:
    """Go through a destructible piece of ``risk`` 1-3 (EC-DEST-1..4). The test is rolled with
    the risk stress already added. tn_mod: added to the TN (a stunned rider's +3, EC-COND-STUN).
    bonus / optional: a stat the rider's traits add (EC-TRAIT)."""
    risks = list(ruleset.data("destructible_risk"))
    if risk not in risks:
        raise ValueError(f"destructible risk must be one of {risks}, got {risk!r} (EC-DEST-1)")
    spec = ruleset.data("destructible")
    tn = int(spec["tn"]) + tn_mod
    if not destructible_eligible(speed, full_movement, ruleset):
        return DestructibleResult(False, 0, tn, None, 0.0, 0.0, ("EC-DEST-2",))
    roll = _rolled(tn, stress + risk, rng, ruleset, policy, max_stress, bonus, optional)
    moved = float(spec["push_per_speed_in"]) * speed if roll is not None and roll.succeeded else 0.0
    turned = float(spec["forced_turn_in"]) if roll is not None and not roll.succeeded else 0.0
    return DestructibleResult(True, risk, tn, roll, moved, turned,
                              ("EC-DEST-1", "EC-DEST-2", "EC-DEST-3", "EC-DEST-4"))


def takes_off(from_kind: str, drop_in: float, ruleset: Ruleset) -> bool:
    """Whether a spell in the air is a jump (EC-JUMP-1): off a ramp, or off the edge of a level that
    drops more than the step height (``ride.step_height_in``). A bike bouncing off a curb or a bump
    is still riding. from_kind: the kind of piece it left; drop_in: how far the level fell there."""
    return from_kind == "ramp" or drop_in > float(ruleset.data("ride.step_height_in")) + 1e-9


@dataclass(frozen=True)
class JumpResult:
    """A launch off a jump (EC-JUMP-1, EC-JUMP-4).

    air_time: the launch speed was 2 or 3. landing_distance_in: how far from the launch the
    rider lands: the maximum distance of its launch speed (EC-JUMP-4).
    """

    air_time: bool
    landing_distance_in: float
    clauses: tuple[str, ...]


def resolve_jump(launch_speed: int, bike_type: str, ruleset: Ruleset) -> JumpResult:
    """Launch at ``launch_speed``: air time at speed 2 or 3, landing at its maximum distance."""
    from entropy3d.systems.entropy_city.speeds import distance_band

    if launch_speed not in ruleset.data("jump.air_time_speeds"):
        return JumpResult(False, 0.0, ("EC-JUMP-1",))
    landing = distance_band(bike_type, launch_speed, ruleset).max
    return JumpResult(True, landing, ("EC-JUMP-1", "EC-JUMP-2", "EC-JUMP-4"))
