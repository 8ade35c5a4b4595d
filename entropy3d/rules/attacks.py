"""Attacks after a move, checked and resolved like every other action
(:func:`entropy3d.rules.transition.check` / :func:`~entropy3d.rules.transition.resolve`).

Only the game of chicken is played so far (EC-MEL-CHICKEN): a deliberate near miss from the
target's front, both riders test TN 15, the winner's total sets the loser's stress. Its geometry
is the models' poses and bases in the state, so it needs no producer's facts.
"""

from __future__ import annotations

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.rules import missions
from entropy3d.rules.combat import base_gap_in, chicken_allowed, chicken_stress
from entropy3d.rules.dice import Outcome, policy_named, resolve_bust
from entropy3d.rules.event import Event, roll_text
from entropy3d.rules.opposed import opposed_test
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import OUT, ModelState, State

ATTACK_KINDS = ("chicken",)


def check_chicken(state: State, attacker_id: str, target_id: str, ruleset: Ruleset) -> None:
    """Whether ``attacker_id`` may play chicken with ``target_id`` now; raises IllegalPlanError.

    Enemies both riding and on the ground (EC-JUMP-3), not stopped (EC-STOPPED: a stopped rider
    makes no melee attack), bases at most ``chicken.near_miss_in`` apart, approaching the target
    from its front (EC-MEL-CHICKEN).
    """
    attacker, target = state.model(attacker_id), state.model(target_id)
    if target.gang == attacker.gang:
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{target.id} rides for the same gang")
    if not (attacker.in_play and target.in_play):
        raise IllegalPlanError("EC-MEL-CHICKEN", "both riders must be in the game")
    if attacker.air is not None or target.air is not None:
        raise IllegalPlanError("EC-JUMP-3", "an airborne rider can only be met by another launched rider")
    if attacker.stopped:
        raise IllegalPlanError("EC-STOPPED", f"{attacker.id} is stopped and makes no melee attack")
    gap = base_gap_in(attacker.pose, ruleset.base_for(attacker.bike_type), target.pose,
                      ruleset.base_for(target.bike_type))
    near_miss = float(ruleset.data("chicken.near_miss_in"))
    if gap > near_miss:
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{gap:.1f}\" apart; a near miss is {near_miss:g}\" at most")
    if not chicken_allowed(attacker.pose, target.pose):
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{attacker.id} is not coming at {target.id} from its front")


def resolve_chicken(state: State, attacker_id: str, target_id: str, push: str, defender_push: str,
                    rng: np.random.Generator, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """A game of chicken (EC-MEL-CHICKEN): opposed TN 15 tests (EC-DICE-2, EC-DICE-5); the winner's
    total gives the loser total - 14 stress (at most 7) and the winner half of that (at least 1,
    none after a natural 21); a bust on either side runs the crash sequence (EC-DICE-4)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    tn = int(ruleset.data("chicken.tn"))
    duel = opposed_test("melee", tn, attacker.stress, target.stress, rng, ruleset,
                        attacker_policy=policy_named(push, ruleset),
                        defender_policy=policy_named(defender_push, ruleset), defender_tn=tn,
                        attacker_max_stress=attacker.max_stress, defender_max_stress=target.max_stress)
    clauses = ("EC-MEL-CHICKEN", "EC-DICE-2", "EC-DICE-5")
    events = [Event("attack", attacker.id, f"{attacker.id} plays chicken with {target.id}: "
                    f"{roll_text(duel.attacker)} vs {roll_text(duel.defender)}", clauses=clauses,
                    rolls=(duel.attacker, duel.defender), piece=target.id)]
    state = state.with_model(attacker.but(only_moved=False))
    winner = loser = None
    if duel.attacker_wins:
        winner, loser, roll = attacker, target, duel.attacker
    elif duel.defender.succeeded:
        winner, loser, roll = target, attacker, duel.defender
    if winner is not None:
        result = chicken_stress(roll.total, ruleset, roll.outcome is Outcome.CRIT)
        for who, extra in ((loser, result.loser), (winner, result.winner)):
            now = state.model(who.id)
            state = state.with_model(now.but(stress=now.stress + extra))
            events.append(Event("attack", who.id, f"{who.id} +{extra} stress ({'loses' if who is loser else 'wins'})",
                                clauses=("EC-MEL-CHICKEN",), stress_change=extra,
                                figures={"winner": winner.id}))
    else:
        events.append(Event("attack", attacker.id, "nobody flinches", clauses=("EC-MEL-CHICKEN",)))
    for roll, who, push_name, by_gang in ((duel.attacker, attacker, push, None),
                                          (duel.defender, target, defender_push, attacker.gang)):
        if roll.outcome is Outcome.BUST:
            state, bust = _bust(state, who.id, push_name, by_gang, rng, ruleset)
            events.append(bust)
    return state, events


def _bust(state: State, model_id: str, push: str, by_gang: str | None, rng: np.random.Generator,
          ruleset: Ruleset) -> tuple[State, Event]:
    """The crash sequence of a bust in an attack (EC-DICE-4), and the mission's points."""
    current: ModelState = state.model(model_id)
    bust = resolve_bust(current.wounds, current.stress, rng, ruleset, policy_named(push, ruleset),
                        current.max_stress)
    after = current.but(wounds=bust.wounds_after, status=OUT if bust.out_of_game else current.status,
                        skip_next_action=bust.skip_next_action)
    state = missions.score_bust(state.with_model(after), after, ruleset)
    if after.status == OUT and current.status != OUT:
        state = missions.score_taken_out(state, after, by_gang, ruleset)
    verdict = ("out of the game" if bust.out_of_game else
               f"loses a wound ({bust.wounds_after} left), back on, skips its next action")
    return state, Event("bust", model_id, f"bust (EC-DICE-4): {verdict}", clauses=bust.clauses,
                        rolls=(bust.remount,) if bust.remount else ())
