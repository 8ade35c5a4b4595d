"""A simple automatic player of the gang battle rules (seed 003).

Each action it asks the engine what is legal (:meth:`GangEngine.check`) and picks: stand up when
pinned, reload when out of ammo, shoot when the rules give it a target (GANG-ARC picks whom),
else move (straights and pivots up to its MVMT, ending faced at the nearest enemy) to where the
LOS engine shows it a target, the easiest to hit first; a Seriously Injured fighter crawls
away from the nearest enemy. It decides no rule: every number it weighs comes from the engine
and the table. Deterministic: ties go to the plan listed first.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.game.side_player import SidePlayer
from entropy3d.game.system_game import SystemView
from entropy3d.rules.transition import ATTACK, MOVE, Action
from entropy3d.systems.gang_engine import CRAWL, OUT_OF_AMMO, PRONE, RELOAD, SERIOUSLY_INJURED, STAND_UP

#: directions (degrees, left positive) a move sets off in, and the shares of MVMT it tries
PIVOTS_DEG = (0, 45, -45, 90, -90, 135, -135, 180)
SHARES = (1.0, 0.5)


def _pivot(degrees: float) -> str:
    degrees = round(degrees)
    return f"pivot {'left' if degrees > 0 else 'right'} {abs(degrees)}" if degrees else ""


def _bearing_to(pose, xy) -> float:
    """Degrees (left positive, -180..180) the figure at ``pose`` turns to face ``xy``."""
    heading = math.degrees(math.atan2(xy[1] - pose.y, xy[0] - pose.x))
    return (heading - pose.facing_deg + 180.0) % 360.0 - 180.0


class GangPlayer(SidePlayer):
    """The automatic player of one gang (``gang``: its id) of the game's ``engine``. It rolls
    nothing: the game's dice are its only randomness."""

    def choose_action(self, view: SystemView) -> Action | None:
        model = view.model
        if SERIOUSLY_INJURED in model.conditions:
            return self._crawl_away(view)
        for simple in (Action(STAND_UP, model.id), Action(RELOAD, model.id), Action(ATTACK, model.id)):
            if (simple.kind != STAND_UP or PRONE in model.conditions) and \
                    (simple.kind != RELOAD or OUT_OF_AMMO in model.conditions) and self._legal(view, simple):
                return simple
        if ATTACK in model.basic_taken:
            return None  # it has shot: it holds where it stands
        return self._move_to_shoot(view)

    def _plans(self, view: SystemView, most_in: float, face_nearest: bool) -> list[str]:
        """Moves worth trying: set off every way for each share of ``most_in``, then (when
        ``face_nearest``) turn to face the nearest enemy from where it ends."""
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

    def _move_to_shoot(self, view: SystemView) -> Action | None:
        """A move from which the engine would give it a target, the lowest to-hit roll first, then
        the closest to an enemy; with none, a move that closes on the nearest enemy."""
        engine, model = self.engine, view.model
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        if not enemies:
            return None
        turn_only = _pivot(_bearing_to(model.pose, min(enemies, key=lambda e: float(
            np.hypot(*(e.pose.xy - model.pose.xy)))).pose.xy))
        plans = ([f"walk: {turn_only}"] if turn_only else []) + self._plans(
            view, engine.fighters[model.id].move_in, True)
        best, best_score = None, -math.inf
        can_shoot_after = engine.rules.priority.actions_per_activation - model.actions_taken >= 2
        weapon = engine.rules.weapons[engine.fighters[model.id].weapon]
        for plan in plans:
            checked = self._legal(view, Action.ride(model.id, plan))
            if checked is None:
                continue
            end = checked.move.end_pose
            gap = min(float(np.hypot(*(e.pose.xy - end.xy))) for e in enemies)
            score = -0.1 * gap
            if can_shoot_after:
                target = engine.target(view.state, view.table.sightings(view.state, model.id, end))
                if target is not None and target.distance_in <= weapon.range_in:
                    needed, *_ = engine.to_hit(model.id, target.visible_fraction)
                    score += 10.0 + (7 - needed)
            if score > best_score:
                best, best_score = checked, score
        return None if best is None else Action(MOVE, model.id, best.plan)

    def _crawl_away(self, view: SystemView) -> Action | None:
        """A Seriously Injured fighter crawls as far from the nearest enemy as it may."""
        model = view.model
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        most = self.engine.fighters[model.id].move_in * self.engine.rules.movement.crawl_fraction
        best, best_gap = None, -math.inf
        for plan in self._plans(view, most, False):
            checked = self._legal(view, Action(CRAWL, model.id, Action.ride(model.id, plan).plan))
            if checked is None:
                continue
            gap = min((float(np.hypot(*(e.pose.xy - checked.move.end_pose.xy))) for e in enemies), default=0.0)
            if gap > best_gap:
                best, best_gap = checked, gap
        return None if best is None else Action(CRAWL, model.id, best.plan)
