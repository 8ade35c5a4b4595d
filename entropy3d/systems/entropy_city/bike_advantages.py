"""Bike specific advantages and the traits that take them away (EC-TRAIT: L Plates, Get a Real Bike).

The rulebook names no list of "bike specific advantages"; the rules data's ``traits.l_plates``
says which count (DECISION): what a rider *uses* its bike for in an action or an attack, as the
rules data's ``bike_rules`` and ``actions.stoppie`` give them: the trailbike's +1 dodge and +1 to
be hit, the cruiser's +1 stress at speed 3 and +3 to be kicked, the sportsbike's turns past a
template's end, the stoppie. A rider that cannot use them is read by the combat rules as riding a
bike with none (:func:`advantage_bike`, the name the combat functions are handed in place of its
bike type) and its rides are refused a stoppie or a turn past the template (:func:`check_ride`).

- L Plates: never (the rider's card).
- Get a Real Bike: a rider with the trait taunts an enemy in lieu of its attack (the weapon word
  :data:`TAUNT`, "attack h1 with get_a_real_bike"): one it sees as a shot would (EC-COVER-1), within
  the rules data's ``range_in``; the target's bike advantages are unusable for the rest of the turn
  (``ModelState.advantages_off_turn``, cleared by the first action of a later turn).
"""

from __future__ import annotations

from typing import Callable

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State

L_PLATES = "l_plates"
#: the weapon word of Get a Real Bike's taunt, made in lieu of an attack
TAUNT = "get_a_real_bike"
#: the bike type the combat rules are handed for a rider that cannot use its bike's advantages: no
#: entry of the rules data's ``bike_rules`` has this name, so it has none
NO_ADVANTAGES = "a bike without its advantages"


def advantages_unusable(model: ModelState) -> str | None:
    """Why ``model`` cannot use its bike's advantages now (the trait's name), or None."""
    if model.trait(L_PLATES)[0]:
        return L_PLATES
    return TAUNT if model.advantages_off_turn else None


def advantage_bike(model: ModelState) -> str:
    """The bike type whose ``bike_rules`` advantages the combat rules give ``model``: its own, or
    :data:`NO_ADVANTAGES` (none) when a trait takes them away."""
    return NO_ADVANTAGES if advantages_unusable(model) else model.bike_type


def check_ride(model: ModelState, move, ruleset: Ruleset) -> None:
    """A checked ride (``move``: its PlannedMove) that uses an advantage the rider cannot use (a
    stoppie, a sportsbike's turn past the template's end, EC-BIKE-SPORT; its other speeds are the
    bike's own): IllegalPlanError naming the trait."""
    why = advantages_unusable(model)
    if why is None:
        return
    if move.plan.action == "stoppie":
        raise IllegalPlanError("EC-TRAIT", f"{model.id} cannot use its bike's advantages ({why}): no stoppie")
    from entropy3d.systems.entropy_city.plan import Turn

    if any(isinstance(seg, Turn) and seg.inches > float(ruleset.data(f"turn_templates.{seg.template}.arc_length_in"))
           for seg in move.plan.segments):
        raise IllegalPlanError("EC-TRAIT", f"{model.id} cannot use its bike's advantages ({why}): no turn past the "
                                           "template's end")


def check_taunt(state: State, attacker_id: str, target_id: str, ruleset: Ruleset, see: Callable | None) -> None:
    """Whether ``attacker_id`` may taunt ``target_id`` (Get a Real Bike): it has the trait, the
    target is an enemy in the game, within ``traits.get_a_real_bike.range_in`` and in sight as a
    shot would need it (``see``: asks the table; None sees nothing). IllegalPlanError naming the
    clause."""
    from entropy3d.systems.entropy_city.combat import shot_in_sight

    attacker, target = state.model(attacker_id), state.model(target_id)
    if not attacker.trait(TAUNT)[0]:
        raise IllegalPlanError("EC-TRAIT", f"{attacker.id} has no get_a_real_bike on its card")
    if target.gang == attacker.gang or not target.in_play:
        raise IllegalPlanError("EC-TRAIT", f"{target.id} is no enemy in the game to taunt")
    reach = float(ruleset.data("traits.get_a_real_bike.range_in"))
    gap = float(((attacker.pose.x - target.pose.x) ** 2 + (attacker.pose.y - target.pose.y) ** 2) ** 0.5)
    if gap > reach:
        raise IllegalPlanError("EC-TRAIT", f"{target.id} is {gap:.1f}\" away; a taunt carries {reach:g}\"")
    sight = see() if see is not None else None
    if sight is None or not shot_in_sight(sight.visible_fraction, sight.bike_seen, ruleset):
        raise IllegalPlanError("EC-COVER-1", f"{attacker.id} does not see {target.id}'s bike to taunt it")


def resolve_taunt(state: State, attacker_id: str, target_id: str) -> tuple[State, list[Event]]:
    """Get a Real Bike: "Target bike & up to one rider specific advantages are unusable for the
    remainder of this turn" (the bike's; DECISION in the rules data)."""
    target = state.model(target_id)
    state = state.with_model(target.but(advantages_off_turn=max(1, state.turn)))
    return state, [Event("trait", attacker_id, f"{attacker_id}: get a real bike! {target_id}'s bike advantages are "
                                               "unusable for the rest of the turn (EC-TRAIT)", clauses=("EC-TRAIT",),
                         piece=target_id, figures={"weapon": TAUNT})]


def turn_over(state: State) -> State:
    """The state with Get a Real Bike's taunts of earlier turns gone (called after every action:
    the first action of a turn clears the last turn's)."""
    stale = [m for m in state.models.values() if m.advantages_off_turn and m.advantages_off_turn < state.turn]
    for model in stale:
        state = state.with_model(model.but(advantages_off_turn=0))
    return state
