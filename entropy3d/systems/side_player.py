"""What the automatic players of the systems that play their own game share: one side's player
activates its models nearest an enemy first and asks the engine whether an action is legal."""

from __future__ import annotations

import math

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.transition import Action

#: directions (degrees, left positive) a move sets off in, and the shares of its move it tries
PIVOTS_DEG = (0, 45, -45, 90, -90, 135, -135, 180)
SHARES = (1.0, 0.5)


def _pivot(degrees: float) -> str:
    degrees = round(degrees)
    return f"pivot {'left' if degrees > 0 else 'right'} {abs(degrees)}" if degrees else ""


def _bearing_to(pose, xy) -> float:
    """Degrees (left positive, -180..180) the figure at ``pose`` turns to face ``xy``."""
    heading = math.degrees(math.atan2(xy[1] - pose.y, xy[0] - pose.x))
    return (heading - pose.facing_deg + 180.0) % 360.0 - 180.0


class SidePlayer:
    """The automatic player of one side (``gang``: its id) of a game system's ``engine``. It
    rolls nothing: the game's dice are its only randomness."""

    def __init__(self, gang: str, engine):
        self.gang, self.engine = gang, engine

    def order(self, state, ready, table) -> list[str]:
        """Its ready models nearest an enemy first (ties in scene order)."""
        enemies = [m for m in state.models.values() if m.gang != self.gang and m.in_play]

        def gap(model_id: str) -> float:
            here = state.model(model_id).pose.xy
            return min((float(np.hypot(*(e.pose.xy - here))) for e in enemies), default=0.0)

        return sorted(ready, key=gap)

    def _legal(self, view: SystemView, action: Action) -> Action | None:
        """``action`` as the engine checked it, or None when the rules refuse it."""
        try:
            return self.engine.check(view.state, action, view.table)
        except IllegalPlanError:
            return None

    def walk_plans(self, view: SystemView, most_in: float, face_nearest: bool) -> list[str]:
        """Walks worth trying (plan texts): set off every way for each share of ``most_in``
        inches, then (when ``face_nearest``) turn to face the nearest enemy from where it ends."""
        model = view.model
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        plans = []
        for pivot in PIVOTS_DEG:
            for share in SHARES:
                inches = math.floor(most_in * share)  # a plan's straights are whole inches
                if inches <= 0:
                    continue
                heading = math.radians(model.pose.facing_deg + pivot)
                end = model.pose.xy + inches * np.array([math.cos(heading), math.sin(heading)])
                parts = [_pivot(pivot), f"straight {inches:g}"]
                if face_nearest and enemies:
                    nearest = min(enemies, key=lambda e: float(np.hypot(*(e.pose.xy - end))))
                    offset = math.degrees(math.atan2(nearest.pose.y - end[1], nearest.pose.x - end[0]))
                    parts.append(_pivot((offset - (model.pose.facing_deg + pivot) + 180.0) % 360.0 - 180.0))
                plans.append("walk: " + ", ".join(p for p in parts if p))
        return plans

    def walks_to_face(self, view: SystemView, most_in: float) -> list[str]:
        """Turning on the spot to face the nearest enemy, then :meth:`walk_plans` facing the
        nearest enemy from where each ends; none when no enemy is left."""
        model = view.model
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        if not enemies:
            return []
        nearest = min(enemies, key=lambda e: float(np.hypot(*(e.pose.xy - model.pose.xy))))
        turn_only = _pivot(_bearing_to(model.pose, nearest.pose.xy))
        return ([f"walk: {turn_only}"] if turn_only else []) + self.walk_plans(view, most_in, True)
