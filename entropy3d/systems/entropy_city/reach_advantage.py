"""Reach Advantage (EC-TRAIT): in a melee attack met by an attack back, the side with the trait
strikes first, and the other side tests with the stress that strike gave it.

The rulebook: "Providing it is not within attack range of a second enemy attacker, this model will
gain advantage in any attack that has an attack in response, their attack will be completed prior
to the others. [So if x attacks y, y chooses to attack first, this rule would allow x to complete
their attack BEFORE y gets to do theirs. Any changes in stress during this will therefore be
applies to y's test.]" Without it both sides of an attack back roll at once
(:func:`~entropy3d.systems.entropy_city.attacks.resolve_melee`); this is the attack resolved in turn, called by
:func:`entropy3d.systems.entropy_city.transition.resolve` when :func:`strikes_first` names a side.
"""

from __future__ import annotations

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.systems.entropy_city import trait_tests
from entropy3d.systems.entropy_city.attacks import (
    ATTACK_BACK,
    _hit,
    _tested,
    bust_sequence,
    melee_setup,
    melee_spec,
)
from entropy3d.systems.entropy_city.bike_advantages import advantage_bike
from entropy3d.systems.entropy_city.combat import KICK, attack_stress, base_gap_in
from entropy3d.systems.entropy_city.dice import Outcome, policy_named
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State

REACH_ADVANTAGE = "reach_advantage"


def _crowded(state: State, model: ModelState, opponent: ModelState, ruleset: Ruleset) -> bool:
    """Another enemy of ``model`` than ``opponent`` has it within its melee weapon's reach (base
    edge to edge; DECISION in the rules data: "attack range" is a melee weapon's reach)."""
    base = ruleset.base_for(model.bike_type)
    for other in state.models.values():
        if other.gang == model.gang or other.id == opponent.id or not other.in_play:
            continue
        reach = float(ruleset.data(f"weapons.{other.weapon}.reach_in"))
        if base_gap_in(other.pose, ruleset.base_for(other.bike_type), model.pose, base) <= reach + 1e-6:
            return True
    return False


def strikes_first(state: State, attacker_id: str, target_id: str, weapon: str, defence: str, ruleset: Ruleset,
                  from_pose=None) -> str | None:
    """The model whose attack comes first in this melee attack (Reach Advantage), or None: the
    target attacks back (the rules allow it), exactly one side has the trait, and no second enemy
    has that side within reach. A kick is no weapon's strike: none."""
    if defence != ATTACK_BACK or weapon == KICK:
        return None
    if not melee_setup(state, attacker_id, target_id, weapon, defence, ruleset, from_pose).back:
        return None
    attacker, target = state.model(attacker_id), state.model(target_id)
    ahead = [m for m, other in ((attacker, target), (target, attacker))
             if m.trait(REACH_ADVANTAGE)[0] and not _crowded(state, m, other, ruleset)]
    return ahead[0].id if len(ahead) == 1 else None


def resolve_in_turn(state: State, attacker_id: str, target_id: str, weapon: str, push: str, defender_push: str,
                    rng: np.random.Generator, ruleset: Ruleset, from_pose=None) -> tuple[State, list[Event]]:
    """A melee attack met by an attack back, resolved in turn (:func:`strikes_first` names who goes
    first): the first side's test, its hit (stress, wounds, a headshot for the attacker's weapon),
    its bust; then the other's test with its stress now, if both are still in the game. Each side
    hits on its own TN, as in an attack back (EC-MEL-DEF), and tests as it would there, with the stats
    its traits add (:func:`~entropy3d.systems.entropy_city.trait_tests.rider_test`, the kinds :func:`duel
    <entropy3d.systems.entropy_city.trait_tests.duel>` gives the two sides)."""
    first = strikes_first(state, attacker_id, target_id, weapon, ATTACK_BACK, ruleset, from_pose)
    setup = melee_setup(state, attacker_id, target_id, weapon, ATTACK_BACK, ruleset, from_pose)
    attacker, target = state.model(attacker_id), state.model(target_id)
    sides = [(attacker, target, weapon, setup.tn, push), (target, attacker, target.weapon, setup.defender_tn,
                                                          defender_push)]
    if first == target_id:
        sides.reverse()
    events = [Event("trait", first, f"{first} strikes first (reach advantage, EC-TRAIT)", clauses=("EC-TRAIT",))]
    state = state.with_model(attacker.but(only_moved=False))
    state = state.with_model(state.model(target_id).but(no_attack_next_activation=True))
    rolls: dict[str, object] = {}
    for striker, struck, arm, tn, how in sides:
        striker, struck = state.model(striker.id), state.model(struck.id)
        if not (striker.in_play and struck.in_play):
            break
        kind = trait_tests.MELEE if striker.id == attacker_id else trait_tests.ATTACK_BACK
        roll = trait_tests.rider_test(striker, kind, tn, striker.stress, rng, ruleset, policy_named(how, ruleset),
                                      tn_has_mods=True)  # EC-TRAIT: True Power, Do You Even Lift Bro?
        rolls[striker.id] = roll
        spec = melee_spec(arm, ruleset)
        kill = roll.succeeded and striker.id == attacker_id and bool(
            (spec["headshot_total"] and roll.total >= spec["headshot_total"])
            or (roll.outcome is Outcome.CRIT and spec["headshot_on_crit"]))
        state = state.with_model(_tested(striker, roll))  # as resolve_melee: a stunned rider's pass clears it
        if striker.id == attacker_id:
            events.append(Event("attack", attacker_id, f"{attacker_id} attacks {target_id} with a {weapon}: TN {tn}, "
                                f"{roll_text(roll)} -> {'hit' if roll.succeeded else 'missed'}",
                                clauses=("EC-MEL-1", "EC-WPN", "EC-MEL-DEF", "EC-TRAIT"), rolls=(roll,),
                                piece=target_id, figures={"weapon": weapon, "tn": tn, "hit": roll.succeeded,
                                                          "defence": "attacks back"}))
        else:
            events.append(Event("attack", striker.id, f"{striker.id} attacks back with its {arm}: TN {tn}, "
                                f"{roll_text(roll)} -> {'hit' if roll.succeeded else 'missed'}",
                                clauses=("EC-MEL-DEF", "EC-TRAIT"), rolls=(roll,), piece=struck.id))
        if roll.succeeded:
            stress = int(spec["stress"]) if striker.id != attacker_id else attack_stress(
                int(spec["stress"]), advantage_bike(striker), striker.speed, ruleset)
            state, more = _hit(state, state.model(striker.id), struck.id, stress=stress, wounds=int(spec["wounds"]),
                               kill=kill, bleed=bool(spec["bleed"]),
                               stun=bool(spec["stun_on_crit"]) and roll.outcome is Outcome.CRIT and
                               striker.id == attacker_id, ruleset=ruleset,
                               label=f"the {arm}" if striker.id == attacker_id else f"{striker.id}'s {arm}")
            events += more
        if roll.outcome is Outcome.BUST and state.model(striker.id).in_play:
            state, bust = bust_sequence(state, striker.id, how, None if striker.id == attacker_id else attacker.gang,
                                        rng, ruleset)
            events.append(bust)
    return state, events
