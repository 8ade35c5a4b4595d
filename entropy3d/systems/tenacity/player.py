"""A simple automatic player of the 10acity skirmish (seed 002).

Each part of a figure's turn it asks the engine what is legal (:meth:`TenacityEngine.check`) and
picks: attack when the rules let it attack someone from where it stands (the target with the best
modifiers and dice from :meth:`TenacityTactics.attack`, a blind attack last); else stand up if
prone and walk (straights and pivots up to its movement speed, ending faced at the nearest enemy)
to where the LOS engine shows it a target, then attack; with no target, take the full defensive;
after attacking in the open at a distance, go prone. It decides no rule: every number it weighs
comes from the engine and the table. Deterministic: ties go to the plan listed first.
"""

from __future__ import annotations

import math

import numpy as np

from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.transition import ATTACK, MOVE, Action
from entropy3d.systems.side_player import SidePlayer
from entropy3d.systems.tenacity.engine import ACTION, DEFEND, GO_PRONE, INTERACTION, MOVEMENT, PRONE, STAND_UP


def attack_edge(attack) -> float:
    """How good an attack the rules allow looks: its modifier and net dice; a blind one far less."""
    return attack.attack_modifier + attack.advantage_dice - (5.0 if attack.blind_on is not None else 0.0)


class TenacityPlayer(SidePlayer):
    """The automatic player of one side (``gang``: its id) of the skirmish's ``engine``. It rolls
    nothing: the game's dice are its only randomness."""

    def _best_target(self, view: SystemView, sightings) -> tuple[str, float] | None:
        allowed = self.engine.targets(view.state, view.model.id, sightings)
        if not allowed:
            return None
        sighting, attack = max(allowed, key=lambda pair: (attack_edge(pair[1]), -pair[0].distance_in))
        return sighting.target, attack_edge(attack)

    def choose_action(self, view: SystemView) -> Action | None:
        model, used = view.model, view.model.basic_taken
        if ACTION not in used:
            best = self._best_target(view, view.table.sightings(view.state, model.id))
            if best is not None:
                return Action(ATTACK, model.id, target=best[0])
            if MOVEMENT not in used:
                if PRONE in model.conditions:
                    if INTERACTION not in used:
                        return Action(STAND_UP, model.id)
                else:
                    walk = self._walk_to_attack(view)
                    if walk is not None:
                        return walk
            return Action(DEFEND, model.id)
        if INTERACTION not in used and PRONE not in model.conditions and self._exposed_at_a_distance(view):
            return Action(GO_PRONE, model.id)
        return None

    def _exposed_at_a_distance(self, view: SystemView) -> bool:
        """An enemy sees some of it, none of them next to it (prone helps only at a distance)."""
        state, model = view.state, view.model
        enemies = [m for m in state.models.values() if m.gang != model.gang and m.in_play]
        near = self.engine.rules.attack.adjacent_in
        if any(float(np.hypot(*(e.pose.xy - model.pose.xy))) <= near for e in enemies):
            return False
        return any(s.target == model.id and s.visible_fraction > 0
                   for e in enemies for s in view.table.sightings(state, e.id))

    def _walk_to_attack(self, view: SystemView) -> Action | None:
        """A walk from which the engine would let it attack, the best attack first, then the
        closest to an enemy; with none, a walk that closes on the nearest enemy."""
        engine, model = self.engine, view.model
        enemies = [m for m in view.state.models.values() if m.gang != model.gang and m.in_play]
        most = engine.figures[model.id].move_spaces * engine.rules.sizes.space_in
        best, best_score = None, -math.inf
        for plan in self.walks_to_face(view, most):
            checked = self._legal(view, Action.ride(model.id, plan))
            if checked is None:
                continue
            end = checked.move.end_pose
            score = -0.1 * min(float(np.hypot(*(e.pose.xy - end.xy))) for e in enemies)
            target = self._best_target(view, view.table.sightings(view.state, model.id, end))
            if target is not None:
                score += 10.0 + target[1]
            if score > best_score:
                best, best_score = checked, score
        return None if best is None else Action(MOVE, model.id, best.plan)
