"""The kick (EC-MEL-KICK): "Kick Bike: TN 13, 0 stress/wounds, push either opposing bike or your
own up to 3 inches away & pivot up to 45 degree." (seed 000, under "None: BTB"), and the cruiser's
"TN for kicking against a cruiser is increased by 3" (EC-BIKE-CRUISER).

A kick is a melee attack any rider may make base to base, like the punch it is listed with: the
target dodges or attacks back as against any melee attack (EC-MEL-DEF) and a kick from behind
surprises (EC-MEL-2). The attacker says before the test which bike goes (the target's or its own),
how far (0-3") and how it pivots (-45 to 45 degrees, counter-clockwise positive). A kick that
lands deals no stress and no wound: it moves the bike.

DECISION: "away" is straight away from the other bike's centre, the kicked bike keeping its
heading as it slides, then pivoting on its centre. The slide stops where its base would first
overlap a solid piece at its level more than it did, another model's base on its level, or where
its centre would leave the table or the ground under it would rise or fall by more than a step
(``ride.step_height_in``): a kick does not push a bike through a wall, off the table or off a
deck, as the rulebook gives it no damage to deal; the bike follows the ground within a step (a
curb). A pivot that would meet something is not made. Where the bike stops is worked out from the table when
the kick is checked (:func:`kick_destination`), so resolving it asks the table nothing.

The kick's TN is the rulebook's 13, +3 against an enemy cruiser, and the modifiers of any attack on
the target that are not about its rider (EC-MOVE-3's +1 after it only moved, -2 when it is
stopped, the attacker's stun and stunt): a rider's protection or a trailbike rider's dodginess
does not make a bike harder to kick (:func:`~entropy3d.systems.entropy_city.attacks.target_tn`, ``at_the_bike``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, normalize_deg
from entropy3d.systems.entropy_city.bike_advantages import advantage_bike
from entropy3d.systems.entropy_city.combat import KICK, check_kick
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import State

__all__ = ["KICK", "KickPlan", "KickedTo", "kick_destination", "kick_limits", "kick_tn", "parse_kick"]

#: inches the slide is walked in (a base stops within this of what it meets)
SLIDE_STEP_IN = 0.05
#: square inches two bases may share before one is in the other's way (touching is not)
BASES_TOUCH_IN2 = 0.01


@dataclass(frozen=True)
class KickPlan:
    """What the attacker declares before the test (EC-MEL-KICK): ``own`` bike or the target's,
    pushed ``push_in`` inches away and pivoted ``pivot_deg`` degrees (counter-clockwise +)."""

    own: bool = False
    push_in: float = 3.0
    pivot_deg: float = 0.0

    def __str__(self) -> str:
        words = ["kick"] + (["own"] if self.own else [])
        return " ".join(words + [f"push {self.push_in:g}"] + ([f"pivot {self.pivot_deg:g}"] if self.pivot_deg else []))

    def to_json(self) -> dict:
        return {"own": self.own, "push_in": self.push_in, "pivot_deg": self.pivot_deg}

    @classmethod
    def from_json(cls, data) -> "KickPlan":
        return cls(bool(data["own"]), float(data["push_in"]), float(data["pivot_deg"]))


def parse_kick(words: list[str]) -> KickPlan:
    """A kick from the words after ``with``: ``kick``, then any of ``own``, ``push N`` (inches)
    and ``pivot D`` (degrees); the target's bike 3" and no pivot when left out. IllegalPlanError
    for anything else."""
    if not words or words[0].lower() != KICK:
        raise IllegalPlanError("EC-MEL-KICK", f"not a kick: {' '.join(words)!r}")
    own, push, pivot, rest = False, 3.0, 0.0, [w.lower() for w in words[1:]]
    while rest:
        word = rest.pop(0)
        if word == "own":
            own = True
        elif word in ("push", "pivot") and rest:
            try:
                value = float(rest.pop(0).rstrip('"'))
            except ValueError:
                raise IllegalPlanError("EC-MEL-KICK", f"'{word}' takes a number: 'kick push 2 pivot -30'") from None
            if not np.isfinite(value):
                raise IllegalPlanError("EC-MEL-KICK", f"'{word}' takes a finite number")
            push, pivot = (value, pivot) if word == "push" else (push, value)
        else:
            raise IllegalPlanError("EC-MEL-KICK", f"a kick is 'kick [own] [push INCHES] [pivot DEGREES]', not "
                                                  f"{' '.join(words)!r}")
    if push < 0:
        raise IllegalPlanError("EC-MEL-KICK", f"a kick pushes 0 to 3\", not {push:g}")
    return KickPlan(own, push, pivot)


def kick_tn(state: State, attacker_id: str, target_id: str, kick: KickPlan, ruleset: Ruleset) -> int:
    """The rulebook's TN of this kick before the attack's modifiers: 13, +3 kicking an enemy
    cruiser (EC-MEL-KICK, EC-BIKE-CRUISER). IllegalPlanError when it pushes or pivots too far."""
    kick_limits(kick, ruleset)
    kicked = advantage_bike(state.model(target_id))  # a cruiser's +3 is its advantage (EC-TRAIT: L Plates)
    return check_kick(kick.push_in, kick.pivot_deg, kicked, kick.own, ruleset).tn


def kick_limits(kick: KickPlan, ruleset: Ruleset) -> None:
    """IllegalPlanError (EC-MEL-KICK) when ``kick`` pushes more than 3" or pivots more than 45
    degrees (rules data ``melee.kick``), whoever it is aimed at: a script is checked before it plays."""
    found = check_kick(kick.push_in, kick.pivot_deg, "", True, ruleset)  # its own bike: no bike's TN asked
    if not found.allowed:
        raise IllegalPlanError("EC-MEL-KICK", found.reason)


class KickChecks(Protocol):
    """What :func:`kick_destination` asks the table (:class:`~entropy3d.scene.probe.SceneProbe`)."""

    def solid_under_base(self, outline: np.ndarray, level: float) -> tuple[str, float] | None:
        """The solid piece a base of this outline at ``level`` overlaps, and how deep; None when clear."""

    def edge_crossed(self, path: np.ndarray) -> tuple[str, str] | None:
        """The first table edge ``path`` leaves the table over, and its kind."""

    def rest_level(self, xy: np.ndarray, z: float) -> float:
        """Height of the highest static surface under ``xy`` that a bike at height ``z`` rests on."""


@dataclass(frozen=True)
class KickedTo:
    """Where a landed kick leaves the kicked bike: ``model_id``'s ``pose``, slid ``pushed_in`` of
    the inches asked and pivoted ``pivoted_deg``; ``stopped_by``: what ended the slide short
    (a piece, a rider's id, "the table's edge") or None; ``pivot_blocked``: what kept it from
    pivoting, or None."""

    model_id: str
    pose: Pose
    pushed_in: float
    pivoted_deg: float
    stopped_by: str | None = None
    pivot_blocked: str | None = None

    def to_json(self) -> dict:
        pose = self.pose
        return {"model": self.model_id, "pose": [round(v, 4) + 0.0 for v in (pose.x, pose.y, pose.z, pose.facing_deg)],
                "pushed_in": round(self.pushed_in, 4), "pivoted_deg": round(self.pivoted_deg, 4),
                "stopped_by": self.stopped_by, "pivot_blocked": self.pivot_blocked}

    @classmethod
    def from_json(cls, data) -> "KickedTo":
        x, y, z, facing = data["pose"]
        return cls(data["model"], Pose(x, y, facing, z), float(data["pushed_in"]), float(data["pivoted_deg"]),
                   data.get("stopped_by"), data.get("pivot_blocked"))


def kick_destination(state: State, attacker_id: str, target_id: str, kick: KickPlan, ruleset: Ruleset,
                     table: KickChecks | None = None, from_pose: Pose | None = None) -> KickedTo:
    """Where the kicked bike ends if the kick lands: slid straight away from the other bike, heading
    kept, until the push is done or its base would meet a solid piece, another model or the table's
    edge (``table`` None: only the other models stop it), then pivoted if that overlaps nothing.
    ``from_pose``: where along its move the attacker kicked the target's bike from (EC-ACT-ATTACK)."""
    import shapely  # the bases' overlaps; a rulebook importing the attacks reads no geometry engine

    kicked_id, other_id = (attacker_id, target_id) if kick.own else (target_id, attacker_id)
    kicked, other = state.model(kicked_id), state.model(other_id)
    kicker_at = from_pose if (from_pose is not None and not kick.own) else other.pose
    base = ruleset.base_for(kicked.bike_type)
    away = np.asarray(kicked.pose.xy, float) - np.asarray(kicker_at.xy, float)
    length = float(np.hypot(*away))
    # bases centre on centre: away to the kicked bike's right (no direction is nearer "away")
    direction = away / length if length > 1e-9 else np.array([np.sin(np.radians(kicked.pose.facing_deg)),
                                                               -np.cos(np.radians(kicked.pose.facing_deg))])
    level_band = float(ruleset.bike_height_in + ruleset.rider_height_in)  # riders on other levels pass by
    riders = {m.id: shapely.Polygon(ruleset.base_for(m.bike_type).outline(m.pose, samples=24))
              for m in state.models.values()
              if m.in_play and m.id != kicked_id and abs(m.pose.z - kicked.pose.z) < level_band}
    for wreck in state.wrecks:
        if abs(wreck.pose.z - kicked.pose.z) < level_band:
            riders[f"{wreck.model_id}'s wreck"] = shapely.Polygon(
                ruleset.base_for(state.model(wreck.model_id).bike_type).outline(wreck.pose, samples=24))
    step = float(ruleset.data("ride.step_height_in"))
    start = kicked.pose
    start_shape = shapely.Polygon(base.outline(start, samples=24))
    # what the bike already overlaps where it stands (a wall it was put against, another base) is
    # in its way only when the kick pushes it further in
    start_overlap = {who: start_shape.intersection(there).area for who, there in riders.items()}
    start_solid = None if table is None else table.solid_under_base(base.outline(start, samples=24), start.z)

    def in_the_way(pose: Pose) -> str | None:
        outline = base.outline(pose, samples=24)
        if table is not None:
            if table.edge_crossed(np.array([pose.xy])) is not None:
                return "the table's edge"
            solid = table.solid_under_base(outline, pose.z)
            if solid is not None and not (start_solid is not None and solid[0] == start_solid[0]
                                          and solid[1] <= start_solid[1] + 1e-9):
                return solid[0]
        shape = shapely.Polygon(outline)
        return next((who for who, there in riders.items()
                     if shape.intersection(there).area > start_overlap.get(who, 0.0) + BASES_TOUCH_IN2), None)

    pose, pushed, stopped_by = start, 0.0, None
    steps = int(np.ceil(kick.push_in / SLIDE_STEP_IN - 1e-9))
    for k in range(1, steps + 1):
        distance = round(min(kick.push_in, k * SLIDE_STEP_IN), 6)  # 1.65, not 1.6500000000000001
        x, y = start.x + float(direction[0]) * distance, start.y + float(direction[1]) * distance
        level = start.z if table is None else table.rest_level(np.array([x, y]), pose.z)
        if abs(level - pose.z) > step + 1e-9:
            stopped_by = "the edge of a drop" if level < pose.z else "a step up"
            break
        candidate = Pose(x, y, start.facing_deg, level)
        stopped_by = in_the_way(candidate)
        if stopped_by is not None:
            break
        pose, pushed = candidate, distance
    pivoted, pivot_blocked = 0.0, None
    if kick.pivot_deg:
        turned = Pose(pose.x, pose.y, normalize_deg(pose.facing_deg + kick.pivot_deg), pose.z)
        pivot_blocked = in_the_way(turned)
        if pivot_blocked is None:
            pose, pivoted = turned, kick.pivot_deg
    return KickedTo(kicked_id, pose, pushed, pivoted, stopped_by, pivot_blocked)
