"""A model on foot: its walk checked and described, and what it may not do (rules data ``on_foot:``).

"On Foot": "A miniature that is not riding a motorcycle"; "On foot: ... Moving slow". A walk is
written ``walk: pivot left 90, straight 3`` (:mod:`entropy3d.systems.entropy_city.plan`): straights of whole
inches and pivots where it stands, at most ``options.on_foot_move_in`` inches in one action
(EC-FOOT-MOVE); no speed, no templates, no weaving, no stress and no tests from riding. It stays
on the level it stands on: it does not walk into a wall or a building (EC-TER-BUILDING) nor off a
roof's or a deck's edge (no jumping or climbing rules exist for it, EC-FOOT-MOVE).
:func:`plan_walk` only checks and describes, like :func:`entropy3d.systems.entropy_city.planner.plan_move`.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, densify, normalize_deg
from entropy3d.systems.entropy_city.plan import Pivot, Plan, Straight, parse_plan
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import DistanceBand

#: the walker's actions that allow an attack after them, like a rider's move (EC-ACT-ATTACK)
_ATTACKS = {"move": 1, "laytrap": 0}


class WalkProbe(Protocol):
    """What a walk asks the table (the scene's probe answers; tests fake it)."""

    def walk_met(self, path: np.ndarray, level: float, clearance: float) -> tuple[str, str, float] | None:
        """What a figure walking ``path`` (N, 2 inches) at height ``level`` meets first: the piece
        id, ``wall`` (a solid rising more than a step within ``clearance`` of the path) or ``drop``
        (the level falls away more than a step), and the inches along the path; None when clear."""


def plan_walk(plan: Plan | str, pose: Pose, on_foot: bool, ruleset: Ruleset, table: WalkProbe | None = None
              ) -> PlannedMove:
    """Check a walk of a model standing at ``pose`` and describe it; raise IllegalPlanError
    naming the clause. on_foot: whether the model is on foot (a bike never walks, a model on foot
    never rides). table: asked what the walk meets; None checks the plan alone."""
    if isinstance(plan, str):
        plan = parse_plan(plan)
    if not on_foot:
        raise IllegalPlanError("EC-FOOT-MOVE", "only a model on foot walks; a bike's plan names its speed (s1-s3)")
    if not plan.walking:
        raise IllegalPlanError("EC-FOOT-MOVE", f"a model on foot has no speed: write `walk:` in place of "
                               f"s{plan.speed}, e.g. 'walk: pivot left 45, straight 3'")
    allowed = ruleset.spec.on_foot.actions
    if plan.action not in allowed:
        raise IllegalPlanError("EC-FOOT-ACT", f"a model on foot cannot {plan.action}; it may: "
                               f"{', '.join('walk' if a == 'move' else a for a in allowed)}")
    for segment in plan.segments:
        if not isinstance(segment, (Straight, Pivot)):
            raise IllegalPlanError("EC-FOOT-MOVE", f"a model on foot walks straight and pivots where it "
                                   f"stands; no templates or weaves ({segment})")
    path, headings, length = trace_walk(plan, pose, float(ruleset.data("turn_templates.path_spacing_in")))
    walk_in = ruleset.walk_in
    if length > walk_in + 1e-6:
        raise IllegalPlanError("EC-FOOT-MOVE", f"too far: {length:g}\" is over the {walk_in:g}\" a model on foot "
                               "walks in one action (options.on_foot_move_in)")
    if table is not None:
        met = table.walk_met(path, pose.z, 0.5 * ruleset.base_for("on_foot").width)
        if met is not None:
            piece, kind, at_in = met
            if kind == "wall":
                raise IllegalPlanError("EC-TER-BUILDING", f"the walk meets '{piece}' {at_in:.1f}\" along it; "
                                       "a model on foot walks around it")
            raise IllegalPlanError("EC-FOOT-MOVE", f"the walk steps off the edge of '{piece}' {at_in:.1f}\" along "
                                   "it; a model on foot neither jumps nor climbs")
    end = Pose(float(path[-1, 0]), float(path[-1, 1]), normalize_deg(float(headings[-1])), pose.z)
    return PlannedMove(plan=plan, speed=0, start_pose=pose, end_pose=end, path=path, headings_deg=headings,
                       length_in=length, band=DistanceBand(0.0, walk_in, ("EC-FOOT-MOVE",)), stress=0, tests=(),
                       clauses=("EC-FOOT-MOVE",), attacks_allowed=_ATTACKS.get(plan.action, 0))


def trace_walk(plan: Plan, pose: Pose, spacing: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The walk's path: (points, headings unfolded, inches walked). A pivot turns the figure
    where it stands (its round base turns about its centre)."""
    points = [pose.xy[None, :]]
    headings = [np.array([pose.facing_deg])]
    here, heading, length = pose.xy, pose.facing_deg, 0.0
    for segment in plan.segments:
        if isinstance(segment, Straight):
            rad = math.radians(heading)
            pts = densify(here, here + segment.inches * np.array([math.cos(rad), math.sin(rad)]), spacing)
            hdg = np.full(len(pts), heading)
            length += segment.inches
        else:
            sign = 1.0 if segment.side == "left" else -1.0
            steps = max(1, int(math.ceil(segment.degrees / 15.0)))
            hdg = heading + sign * np.linspace(0.0, segment.degrees, steps + 1)
            pts = np.repeat(here[None, :], len(hdg), axis=0)
        points.append(pts[1:])
        headings.append(hdg[1:])
        here, heading = pts[-1], float(hdg[-1])
    return np.concatenate(points), np.concatenate(headings), float(length)
