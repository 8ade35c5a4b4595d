"""A simple automatic player of the gang battle rules (seed 003).

Each action it asks the engine what is legal (:meth:`GangEngine.check`) and picks: a Broken
fighter runs for cover, its only action (GANG-BROKEN; the engine picks the way, GANG-RUN), or
does nothing when the rules refuse it even that; a fighter next to a Seriously Injured enemy
finishes it (Coup de Grace, GANG-COUP); an Engaged one stands up if it must and fights (GANG-CC);
one that can charge a Seriously Injured enemy, or likely reach an enemy armed with a melee
weapon or out of ammo, charges (GANG-CHARGE), and one with a melee weapon closes in before it
shoots; otherwise stand up when
pinned, reload when out of ammo, shoot when the rules give it a target (GANG-ARC picks whom),
else move (straights and pivots up to its MVMT, ending faced at the nearest enemy) to where the
LOS engine shows it a target, the easiest to hit first; a Seriously Injured fighter crawls
away from the nearest enemy. It decides no rule: every number it weighs comes from the engine
and the table. Deterministic: ties go to the plan listed first.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.transition import ATTACK, MOVE, Action
from entropy3d.systems.gang_battle.engine import (
    BROKEN,
    CHARGE,
    COUP_DE_GRACE,
    CRAWL,
    FIGHT,
    OUT_OF_AMMO,
    PRONE,
    RELOAD,
    RUN_FOR_COVER,
    SERIOUSLY_INJURED,
    STAND_UP,
)
from entropy3d.systems.gang_battle.melee import UNARMED, charge_walk, contact_in, is_engaged
from entropy3d.systems.side_player import SidePlayer


class GangPlayer(SidePlayer):
    """The automatic player of one gang (``gang``: its id) of the game's ``engine``. It rolls
    nothing: the game's dice are its only randomness."""

    def choose_action(self, view: SystemView) -> Action | None:
        model = view.model
        if BROKEN in model.conditions:
            run = Action(RUN_FOR_COVER, model.id)
            return run if self._legal(view, run) is not None else None
        if SERIOUSLY_INJURED in model.conditions:
            return self._crawl_away(view)
        finish = self._legal(view, Action(COUP_DE_GRACE, model.id))
        if finish is not None:
            return finish
        if is_engaged(view.state, model):
            if PRONE in model.conditions:
                return self._legal(view, Action(STAND_UP, model.id))
            return self._legal(view, Action(FIGHT, model.id))  # the engine names the foe it fights
        charge = self._charge(view)
        if charge is not None:
            return charge
        if self.engine.fighters[model.id].melee_weapon != UNARMED and model.actions_taken == 0 \
                and PRONE not in model.conditions:
            closing = self._move_to_shoot(view)  # a fighter with a melee weapon closes in first, then shoots
            if closing is not None:
                return closing
        for simple in (Action(STAND_UP, model.id), Action(RELOAD, model.id), Action(ATTACK, model.id)):
            if (simple.kind != STAND_UP or PRONE in model.conditions) and \
                    (simple.kind != RELOAD or OUT_OF_AMMO in model.conditions) and self._legal(view, simple):
                return simple
        if ATTACK in model.basic_taken:
            return None  # it has shot: it holds where it stands
        return self._move_to_shoot(view)

    def _charge(self, view: SystemView) -> Action | None:
        """A charge worth making (GANG-CHARGE), the nearest first: at a Seriously Injured enemy (the
        free Coup de Grace), or, armed with a melee weapon or out of ammo, at one it reaches on a D3
        of 2 or more (the gap's whole inches at most MVMT + 2)."""
        engine, model = self.engine, view.model
        profile = engine.fighters[model.id]
        eager = profile.melee_weapon != UNARMED or OUT_OF_AMMO in model.conditions
        enemies = sorted((m for m in view.state.models.values() if m.gang != model.gang and m.in_play),
                         key=lambda m: math.hypot(m.pose.x - model.pose.x, m.pose.y - model.pose.y))
        for enemy in enemies:
            injured = SERIOUSLY_INJURED in enemy.conditions
            if not (injured or eager):
                continue
            checked = self._legal(view, Action(CHARGE, model.id, target=enemy.id))
            if checked is None:
                continue
            _, need, likely = charge_walk(model.pose, enemy.pose, contact_in(checked.sighting), profile.move_in + 2)
            if injured or likely:
                return Action(CHARGE, model.id, target=enemy.id)
        return None

    def _move_to_shoot(self, view: SystemView) -> Action | None:
        """A move from which the engine would give it a target, the lowest to-hit roll first, then
        the closest to an enemy (a fighter with a melee weapon weighs closing in above the roll);
        with none, a move that closes on the nearest enemy."""
        engine, model = self.engine, view.model
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        plans = self.walks_to_face(view, engine.fighters[model.id].move_in)
        if not plans:
            return None
        best, best_score = None, -math.inf
        can_shoot_after = engine.rules.priority.actions_per_activation - model.actions_taken >= 2
        weapon = engine.rules.weapons[engine.fighters[model.id].weapon]
        eager = engine.fighters[model.id].melee_weapon != UNARMED
        for plan in plans:
            checked = self._legal(view, Action.ride(model.id, plan))
            if checked is None:
                continue
            end = checked.move.end_pose
            gap = min(float(np.hypot(*(e.pose.xy - end.xy))) for e in enemies)
            score = -(1.0 if eager else 0.1) * gap  # a fighter with a melee weapon closes in to charge
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
        for plan in self.walk_plans(view, most, False):
            checked = self._legal(view, Action(CRAWL, model.id, Action.ride(model.id, plan).plan))
            if checked is None:
                continue
            gap = min((float(np.hypot(*(e.pose.xy - checked.move.end_pose.xy))) for e in enemies), default=0.0)
            if gap > best_gap:
                best, best_gap = checked, gap
        return None if best is None else Action(CRAWL, model.id, best.plan)
