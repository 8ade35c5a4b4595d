"""The plans an automatic player weighs for an action, before it scores them.

:func:`candidate_plans` lists plan texts worth considering at the speeds the rider may declare
(straights of a few lengths, one template at the start or the end, jumps, focus, stunts, traps,
stops to shoot, walks for a model on foot); :func:`escape_plans` the chicanes and stoppies of a
rider every ordinary plan runs into something; :func:`check_plans` keeps those the rules engine
accepts without the table. Lengths are inches. The engine decides legality; these only propose.
"""

from __future__ import annotations

import math
from typing import Sequence

from entropy3d.errors import IllegalPlanError
from entropy3d.game.action_view import ActionView
from entropy3d.game.walkers import walk_plans
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.speeds import distance_band


def candidate_speeds(view: ActionView) -> list[int]:
    """Speeds an action may be declared at (EC-SPD-1, EC-TURN-4, a forced speed)."""
    if view.first_action_of_game:
        return [int(view.ruleset.data("turn.first_action_speed"))]
    if view.forced_speed is not None:
        return [view.forced_speed]
    step = int(view.ruleset.data("turn.max_speed_change"))
    now = max(view.model.speed, 1)
    return [s for s in range(now - step, now + step + 1) if s in view.ruleset.speeds]


def candidate_plans(view: ActionView) -> list[str]:
    """Plan texts worth considering: straights of several lengths, one template at the start or
    the end, jumps, focus and stunt actions, laying a carried trap and stopping to shoot; the rules
    engine later refuses the illegal ones."""
    ruleset, bike = view.ruleset, view.model
    if bike.on_foot:
        return walk_plans(bike, ruleset)  # EC-FOOT-MOVE
    defaults = ruleset.data("turn_templates.default_for_speed")
    plans: list[str] = []
    for speed in candidate_speeds(view):
        band = distance_band(bike.bike_type, speed, ruleset)
        lo, hi = int(math.ceil(band.min - 1e-9)), int(math.floor(band.max + 1e-9))
        totals = sorted({hi, lo, (lo + hi) // 2})
        for total in totals:
            plans.append(f"s{speed}: straight {total}")
        template = defaults[speed]
        arc = int(ruleset.data(f"turn_templates.{template}.arc_length_in"))
        for side in ("left", "right"):
            for along in sorted({arc, max(1, arc // 2)}):
                for total in totals:
                    rest = total - along
                    if rest <= 0:
                        if rest == 0:
                            plans.append(f"s{speed}: {side} {template} {along}")
                        continue
                    plans.append(f"s{speed}: {side} {template} {along}, straight {rest}")
                    plans.append(f"s{speed}: straight {rest}, {side} {template} {along}")
        if speed in ruleset.data("jump.air_time_speeds"):
            plans.append(f"jump s{speed}: straight {hi}")
        plans.append(f"focus s{speed}: straight {hi}")
        plans.append(f"stunt s{speed}: straight {hi}")
        if bike.traps_carried and speed in ruleset.data("actions.laytrap.speeds"):
            plans.append(f"laytrap s{speed}: straight {lo}")
        if bike.gun and speed in ruleset.data("actions.stop.speeds"):
            if bike.ammo > 0:
                plans.append(f"stop s{speed}: straight {lo}")  # then a focussed shot (EC-GUN-STOPPED)
                plans.append(f"overwatch s{speed}: straight {lo}")
            if bike.ammo < int(ruleset.data(f"guns.{bike.gun}.ammo")):
                plans.append(f"reload s{speed}: straight {lo}")
    return plans


def escape_plans(view: ActionView) -> list[str]:
    """Plans for a rider every ordinary plan runs into something: U-turns of two templates the
    same way (a chicane, EC-ACT-CHICANE) and, on bikes that can, a stoppie's pivot at the minimum
    distance (EC-ACT-STOPPIE); the rules refuse the illegal ones."""
    ruleset, bike = view.ruleset, view.model
    defaults = ruleset.data("turn_templates.default_for_speed")
    plans: list[str] = []
    for speed in candidate_speeds(view):
        band = distance_band(bike.bike_type, speed, ruleset)
        lo, hi = int(math.ceil(band.min - 1e-9)), int(math.floor(band.max + 1e-9))
        for template in ("tight", defaults[speed]):
            arc = int(ruleset.data(f"turn_templates.{template}.arc_length_in"))
            for side in ("left", "right"):
                for total in range(max(lo, 2 * arc), hi + 1):
                    rest = total - 2 * arc
                    middle = f", straight {rest}" if rest else ""
                    plans.append(f"chicane s{speed}: {side} {template} {arc}{middle}, {side} {template} {arc}")
        for side in ("left", "right"):
            for degrees in (90, 135, 180):
                plans.append(f"stoppie s{speed}: straight {lo}, pivot {side} {degrees}")
    return list(dict.fromkeys(plans))


def check_plans(view: ActionView, plans: Sequence[str]) -> list[PlannedMove]:
    """The plans the rules engine accepts (without table checks), as planned moves."""
    moves = []
    for text in plans:
        try:
            moves.append(view.check(text, table=False))
        except IllegalPlanError:
            continue
    return moves
