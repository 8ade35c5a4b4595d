"""Picking an item up and passing it (rulebook "Actions", EC-ACT-PICKUP, EC-ACT-PASS), as Grab n
Go plays them (EC-MISSION-GRAB, :mod:`entropy3d.systems.entropy_city.grab`).

"Pickup Item: When driving within 1 inch of an item you attempt to pick it up, you may not attack
this turn. Add 1 stress. Add 1 to TN for each bike within 3 inches."
"Pass an item: In lieu of an attack a rider may pass something to a friendly rider, must be
performed within 1 inch, the remainder of your movement remains the same. Add 1 stress. If this
test fails by bust your opponent rolls a d10, odds and evens determine which bike crashes. If it
fails due to failure to reach the target number the item is dropped."

Both are standard tests (EC-DICE-1, with stress, EC-DICE-6) at the rules data's TN (DECISION,
``actions.pickup`` / ``actions.pass``). The pickup is automatic: :func:`pick_up` runs after a ride
and tries the first item on the table the ridden path came within reach of. The pass is an
attack-like action (``Action.attack(..., weapon="pass")``) on a friendly rider, checked by
:func:`check_pass` and resolved by :func:`resolve_pass`. The distances come from the state's poses
and the ride's trajectory (the producer's facts); the dice from the injected generator only.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city import trait_tests
from entropy3d.systems.entropy_city.attack_chances import ALONG
from entropy3d.systems.entropy_city.attacks import bust_sequence
from entropy3d.systems.entropy_city.combat import base_gap_in, check_pickup
from entropy3d.systems.entropy_city.combat import check_pass as pass_reach
from entropy3d.systems.entropy_city.conditions import after_test, stun_tn_mod
from entropy3d.systems.entropy_city.dice import Outcome, policy_named
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import Item, ModelState, State

#: the weapon name of a pass (EC-ACT-PASS): it is made in lieu of an attack
PASS = "pass"


def disc_reach_in(model: ModelState, range_in: float, ruleset: Ruleset) -> float:
    """How far from ``model``'s base centre a point is within ``range_in`` inches of the base: its
    half width plus that range, inches (DECISION: the base taken as a disc of its half width, as
    traps take it, EC-TRAP; a pickup, a stop by the jail and a delivery measure so)."""
    return 0.5 * ruleset.base_for(model.bike_type).width + range_in


def pickup_reach_in(model: ModelState, ruleset: Ruleset) -> float:
    """How far from a ridden path's centre line an item is within ``actions.pickup.range_in`` of
    the base (:func:`disc_reach_in`)."""
    return disc_reach_in(model, float(ruleset.data("actions.pickup.range_in")), ruleset)


def item_met(state: State, model: ModelState, path_xy: np.ndarray, ruleset: Ruleset
             ) -> tuple[Item, int] | None:
    """The first item on the table that ``model``'s path (``path_xy``: n x 2, inches) comes within
    pickup reach of, with the index of the point where it first does; None when it meets none."""
    if len(path_xy) == 0:
        return None
    reach = pickup_reach_in(model, ruleset)
    best: tuple[int, Item] | None = None
    for item in state.items:
        if not item.on_table:
            continue
        near = np.flatnonzero(np.hypot(path_xy[:, 0] - item.x, path_xy[:, 1] - item.y) <= reach + 1e-9)
        if near.size and (best is None or int(near[0]) < best[0]):
            best = (int(near[0]), item)
    return None if best is None else (best[1], best[0])


def bikes_crowding(state: State, model: ModelState, at: Pose, ruleset: Ruleset) -> list[str]:
    """The other bikes in play whose bases are within ``actions.pickup.crowd_range_in`` of
    ``model``'s base standing at ``at`` (EC-ACT-PICKUP: "Add 1 to TN for each bike within 3
    inches"; a rider on foot is no bike)."""
    crowd = float(ruleset.data("actions.pickup.crowd_range_in"))
    own = ruleset.base_for(model.bike_type)
    return [other.id for other in state.models.values()
            if other.id != model.id and other.in_play and not other.on_foot
            and base_gap_in(at, own, other.pose, ruleset.base_for(other.bike_type)) <= crowd + 1e-9]


def pick_up(state: State, model_id: str, trajectory: np.ndarray | None, push: str, rng: np.random.Generator,
            ruleset: Ruleset) -> tuple[State, list[Event]]:
    """The pickup a ride attempts (EC-ACT-PICKUP; "when driving": a rider, not a model on foot),
    after it is resolved (``trajectory``: the ride's rows, t, x, y, z, heading, as the producer's
    facts give them; None: nothing ridden): a model of a game with items still riding, on the
    ground and holding nothing, whose ride came within reach of an item on the table (a package,
    an NPC standing there: EC-MISSION-RESCUE, EC-MISSION-JAIL), tries for
    the first it met: +1 stress, then a test at ``actions.pickup.tn`` +1
    per bike crowding it there. Passed, it holds the item; failed, the item stays; busted, the
    crash sequence (EC-DICE-4). Either way no attack this action, and it did not only move
    (EC-MOVE-3)."""
    model = state.model(model_id)
    if not state.items or trajectory is None or not model.in_play or model.on_foot or model.air is not None \
            or state.item_held_by(model_id) is not None or model.law:  # the Law picks up nothing (EC-LAW)
        return state, []
    trajectory = np.asarray(trajectory, float)
    met = item_met(state, model, trajectory[:, 1:3], ruleset)
    if met is None:
        return state, []
    item, row = met
    t_s, x, y, z, heading = (float(v) for v in trajectory[row][:5])
    at = Pose(x, y, heading, z)
    crowd = bikes_crowding(state, model, at, ruleset)
    check = check_pickup(0.0, len(crowd), ruleset)  # within reach by item_met: its stress and the crowd's TN
    tn = int(ruleset.data("actions.pickup.tn")) + check.tn_mod + stun_tn_mod(model, ruleset)
    stress = model.stress + check.stress
    roll = trait_tests.rider_test(model, trait_tests.OTHER, tn, stress, rng, ruleset,
                                  policy_named(push, ruleset))  # EC-TRAIT
    after = after_test(model.but(stress=max(0, stress + roll.stress_change), attack_chance=None, only_moved=False),
                       roll.succeeded)
    state = state.with_model(after)
    crowded = f" +{check.tn_mod} for {len(crowd)} bike{'s' if len(crowd) != 1 else ''} within " \
              f"{float(ruleset.data('actions.pickup.crowd_range_in')):g}\"" if crowd else ""
    verdict = {True: f"picks up {item.id}", False: f"misses {item.id}"}[roll.succeeded]
    if roll.outcome is Outcome.BUST:
        verdict = f"busts reaching for {item.id}"
    figures = {"item": item.id, "did": "picked up" if roll.succeeded else "missed", "tn": tn,
               "crowd": crowd, "at": [x, y]}
    events = [Event("item", model.id, f"rides within {float(ruleset.data('actions.pickup.range_in')):g}\" of "
                    f"{item.id}: pickup (+{check.stress} stress, no attack this action), TN {tn}"
                    + (f" ({int(ruleset.data('actions.pickup.tn'))}{crowded})" if crowded else "")
                    + f", {roll_text(roll)}: {verdict}",
                    clauses=("EC-ACT-PICKUP", "EC-DICE-1"), rolls=(roll,), piece=item.id, t_s=t_s,
                    stress_change=after.stress - model.stress, figures=figures)]
    if roll.succeeded:
        state = state.with_item(dataclasses.replace(item, carrier=model.id, held=0, x=float(after.pose.x),
                                                    y=float(after.pose.y)))
    elif roll.outcome is Outcome.BUST:
        state, bust = bust_sequence(state, model.id, push, None, rng, ruleset)
        events.append(dataclasses.replace(bust, t_s=t_s))
    return state, events


def check_pass(state: State, passer_id: str, receiver_id: str, from_pose: Pose | None, ruleset: Ruleset) -> None:
    """Whether ``passer_id`` may pass its item to ``receiver_id`` now, from ``from_pose`` (a point
    of its ridden move; None: where it stands); raises IllegalPlanError naming the clause. It holds
    an item, has its attack to make (the pass is "in lieu of an attack", EC-ACT-ATTACK), and the
    receiver is another friendly rider in play holding nothing, both on the ground, their bases
    within ``actions.pass.range_in``."""
    passer = state.model(passer_id)
    if receiver_id not in state.models:
        raise IllegalPlanError("EC-ACT-PASS", f"no model {receiver_id!r} to pass to; models: "
                                              f"{', '.join(m for m in state.models if m != passer_id)}")
    receiver = state.model(receiver_id)
    held = state.item_held_by(passer_id)
    if held is None:
        raise IllegalPlanError("EC-ACT-PASS", f"{passer_id} holds no item to pass")
    if passer.attack_chance not in ALONG:
        raise IllegalPlanError("EC-ACT-PASS", f"{passer_id} has no attack to make now: a pass is made in lieu of "
                                              "the attack of a move it rode this activation")
    if receiver_id == passer_id or not receiver.in_play:
        raise IllegalPlanError("EC-ACT-PASS", f"{receiver_id} is no rider in play to pass to")
    if state.item_held_by(receiver_id) is not None:
        raise IllegalPlanError("EC-ACT-PASS", f"{receiver_id} already holds {state.item_held_by(receiver_id).id}")
    if passer.air is not None or receiver.air is not None:
        raise IllegalPlanError("EC-JUMP-3", "an item is passed between riders on the ground")
    pose = from_pose or passer.pose
    gap = base_gap_in(pose, ruleset.base_for(passer.bike_type), receiver.pose, ruleset.base_for(receiver.bike_type))
    reach = pass_reach(gap, receiver.gang == passer.gang, ruleset)
    if not reach.allowed:
        raise IllegalPlanError("EC-ACT-PASS", reach.reason)


def pass_test(passer: ModelState, ruleset: Ruleset) -> tuple[int, int]:
    """(TN, stress before the dice) of ``passer``'s pass (EC-ACT-PASS: "Add 1 stress"): the rules
    data's TN with a stunned rider's penalty, and its stress plus the pass's own."""
    spec = ruleset.data("actions.pass")
    return int(spec["tn"]) + stun_tn_mod(passer, ruleset), passer.stress + int(spec["stress"])


def resolve_pass(state: State, passer_id: str, receiver_id: str, from_pose: Pose | None, push: str,
                 receiver_push: str, rng: np.random.Generator, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """A checked pass (EC-ACT-PASS): +1 stress, then the passer's test at ``actions.pass.tn``.
    Passed: the receiver holds the item, its own count of complete actions from 0. Failed: the
    item drops where the pass was tried. Busted: the item drops there too, and the opponent's d10
    picks the bike that crashes (``actions.pass.odd_crashes`` on odd, the other on even), which
    runs the bust's crash sequence (EC-DICE-4); ``push``, ``receiver_push``: how each side's
    player pushes its luck (the remount test of the one that crashes)."""
    spec = ruleset.data("actions.pass")
    passer, receiver = state.model(passer_id), state.model(receiver_id)
    item = state.item_held_by(passer_id)
    pose = from_pose or passer.pose
    tn, stress = pass_test(passer, ruleset)
    policy = policy_named(push, ruleset)
    roll = trait_tests.rider_test(passer, trait_tests.OTHER, tn, stress, rng, ruleset, policy)  # EC-TRAIT
    after = after_test(passer.but(stress=max(0, stress + roll.stress_change)), roll.succeeded)
    state = state.with_model(after)
    figures = {"item": item.id, "to": receiver_id, "tn": tn, "from": [float(pose.x), float(pose.y)]}
    if roll.succeeded:
        state = state.with_item(dataclasses.replace(item, carrier=receiver_id, held=0, x=float(receiver.pose.x),
                                                    y=float(receiver.pose.y)))
        return state, [Event("item", passer_id, f"passes {item.id} to {receiver_id} (+{int(spec['stress'])} stress): "
                             f"TN {tn}, {roll_text(roll)}", clauses=("EC-ACT-PASS", "EC-DICE-1"), rolls=(roll,),
                             piece=receiver_id, stress_change=after.stress - passer.stress,
                             figures={**figures, "did": "passed"})]
    state = state.with_item(dataclasses.replace(item, carrier=None, held=0, x=float(pose.x), y=float(pose.y)))
    if roll.outcome is not Outcome.BUST:
        return state, [Event("item", passer_id, f"fumbles the pass of {item.id} to {receiver_id}: TN {tn}, "
                             f"{roll_text(roll)}; the item drops at ({pose.x:.1f}, {pose.y:.1f})",
                             clauses=("EC-ACT-PASS", "EC-DICE-1"), rolls=(roll,), piece=receiver_id,
                             stress_change=after.stress - passer.stress, figures={**figures, "did": "fumbled"})]
    die = int(rng.integers(1, 11))
    odd = passer_id if spec["odd_crashes"] == "passer" else receiver_id
    crashes = odd if die % 2 else (receiver_id if odd == passer_id else passer_id)
    events = [Event("item", passer_id, f"busts passing {item.id} to {receiver_id}: TN {tn}, {roll_text(roll)}; the "
                    f"item drops at ({pose.x:.1f}, {pose.y:.1f}); the opponent's d10 rolls {die} "
                    f"({'odd' if die % 2 else 'even'}): {crashes}'s bike crashes",
                    clauses=("EC-ACT-PASS", "EC-DICE-4"), rolls=(roll,), piece=receiver_id,
                    stress_change=after.stress - passer.stress,
                    figures={**figures, "did": "busted", "d10": die, "crashes": crashes})]
    state, bust = bust_sequence(state, crashes, push if crashes == passer_id else receiver_push, None, rng, ruleset)
    return state, events + [bust]


__all__ = ["PASS", "bikes_crowding", "check_pass", "disc_reach_in", "item_met", "pick_up", "pickup_reach_in",
           "resolve_pass"]
