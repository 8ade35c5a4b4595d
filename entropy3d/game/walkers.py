"""How the automatic players walk a model on foot: the walks worth considering and how much they
like each. The rules engine checks every walk (:func:`~entropy3d.systems.entropy_city.walking.plan_walk`);
nothing here decides a rule.

A shooter looks for a spot from which the line of sight engine sees a rival well enough to
shoot (it asks the table's ``sight`` for the few spots it may walk to) and holds it; a model on
foot without a gun walks at the nearest rival to strike.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.systems.entropy_city.combat import gun_range_in
from entropy3d.systems.entropy_city.planner import PlannedMove

#: pivots (degrees, left positive) and whole inches a walk is tried with
PIVOTS_DEG = (0, 45, -45, 90, -90, 135, -135, 180)


def walk_plans(model, ruleset) -> list[str]:
    """Plan texts of walks worth considering: a turn where it stands towards every side, and a
    walk of 1, half and all its move that way (the rules refuse those that meet a wall or an
    edge)."""
    most = int(math.floor(ruleset.walk_in + 1e-9))
    distances = sorted({1, max(1, most // 2), most})
    plans = []
    for pivot in PIVOTS_DEG:
        turn = f"pivot {'left' if pivot > 0 else 'right'} {abs(pivot)}" if pivot else ""
        if turn:
            plans.append(f"walk: {turn}")
        for inches in distances:
            plans.append(f"walk: {turn + ', ' if turn else ''}straight {inches}")
    return plans


def walk_score(view, move: PlannedMove, aggression: float, sight_cache: dict) -> float:
    """How much an automatic player likes a walk (higher is better). A shooter scores the rivals
    its gun would see from where the walk ends (``view.probe.sight``, cached per spot in
    ``sight_cache``); others close on the nearest rival. Walking to a table edge costs."""
    model, ruleset = view.model, view.ruleset
    rivals = [m for m in view.state.models.values() if m.in_play and m.gang != model.gang]
    end = move.end_pose
    score = -0.1 * move.length_in
    if view.probe.off_table(end.xy[None, :], margin=1.0)[0]:
        score -= 20.0
    if not rivals:
        return score
    gaps = {r.id: float(np.hypot(*(r.pose.xy - end.xy))) for r in rivals}
    nearest = min(rivals, key=lambda r: gaps[r.id])
    if model.gun and model.ammo > 0 and hasattr(view.probe, "sight"):
        reach = gun_range_in(model.gun, ruleset)
        need = float(ruleset.data("shooting.min_visible_fraction"))
        seen = []
        for rival in sorted(rivals, key=lambda r: gaps[r.id])[:3]:
            if gaps[rival.id] > reach:
                continue
            key = (round(end.x, 3), round(end.y, 3), rival.id)
            if key not in sight_cache:
                sight_cache[key] = view.probe.sight(view.state, model.id, rival.id, end)
            sight = sight_cache[key]
            if sight.bike_seen and sight.visible_fraction >= need:
                seen.append(sight.visible_fraction)
        if seen:
            return score + 12.0 + 2.0 * max(seen) + len(seen)
        return score - 0.3 * aggression * gaps[nearest.id]
    score -= 0.8 * aggression * gaps[nearest.id]
    reach = float(ruleset.data(f"weapons.{model.weapon}.reach_in")) + ruleset.base_for(model.bike_type).width
    closest = float(np.hypot(*(move.path - nearest.pose.xy).T).min())
    if closest <= reach + 0.5 * ruleset.base_for(nearest.bike_type).width:
        score += 8.0 * aggression
    return score
