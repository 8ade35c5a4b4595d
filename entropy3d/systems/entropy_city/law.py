"""The Law as a neutral NPC side (rulebook "The Law: As NPC's", clause EC-LAW).

"the initial plan with the Law is for them to be a game controlled element, working in a
similar manner to how monsters can appear in games like Frostgrave ... they should be neutral and
attack both all parties involved in the game. Rolling on a table to determine their aggression
level was one idea. Another plan was to have them initially target named characters and then
later target whichever models have done the most damage or had the most impact on the game.
If an NPC is involved in a test, it must have a minimum to roll before giving up. At this time
it's 15."

The readings played are the rules data's ``law:`` (with their DECISIONs): the police wait off the
table (status ``waiting``) and enter at the start of turn ``from_turn`` at one of the scene's
entry points (:func:`law_enters`, the engine's roll choosing among several); whom they go for is
:func:`law_targets` (the ``aggression`` option); what a rider has done is its ``impact``
(:func:`tally_impact`); the NPC minimum is the push policy ``npc``
(:class:`~entropy3d.systems.entropy_city.dice.NpcMinimum`), which the engine gives every test of a police rider
whatever its player asked (:func:`with_npc_pushes`). The
Law scores nothing and wins nothing (:func:`scoring_gangs`). Pure: the dice are injected.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.dice import NPC_PUSH
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import RIDING, WAITING, ModelState, State
from entropy3d.systems.entropy_city.table_marks import Entry
from entropy3d.systems.entropy_city.vip import taken_by


def is_law(model: ModelState) -> bool:
    """The model rides for the Law (EC-LAW)."""
    return model.law


def with_npc_pushes(action, state: State):
    """``action`` (a :class:`~entropy3d.systems.entropy_city.transition.Action`) with the NPC's push policy
    (:data:`~entropy3d.systems.entropy_city.dice.NPC_PUSH`) for its rider when it rides for the Law and, for an
    attack, for its target when that does: "If an NPC is involved in a test, it must have a minimum
    to roll before giving up. At this time it's 15." (EC-LAW; the rules data's ``npc:``). The
    rulebook's rule, not a player's choice: a script, the viewer or an automatic player asking
    another push for a police rider gets this one."""
    def npc_push(model_id: str | None, asked):
        model = state.models.get(model_id) if model_id is not None else None
        return NPC_PUSH if model is not None and model.law else asked

    push = npc_push(action.model_id, action.push)
    defender_push = npc_push(action.target if action.kind == "attack" else None, action.defender_push)
    if (push, defender_push) == (action.push, action.defender_push):
        return action
    return dataclasses.replace(action, push=push, defender_push=defender_push)


def scoring_gangs(gangs: Sequence[str], state: State) -> list[str]:
    """``gangs`` without the Law's: the Law takes part in no mission (EC-LAW)."""
    law = {m.gang for m in state.models.values() if m.law}
    return [g for g in gangs if g not in law]


def entry_poses(entry: Entry, riders: int, gap_in: float) -> list[tuple[float, float, float]]:
    """Where ``riders`` police stand on entering at ``entry``, in file along the entry's heading,
    ``gap_in`` inches apart: the last on the point (near the edge they come in by), the first
    furthest ahead, so each rides off (they activate in order) clear of the one behind (x, y,
    facing: inches and degrees)."""
    heading = math.radians(entry.facing_deg)
    ahead = (math.cos(heading), math.sin(heading))
    return [(round(entry.x + k * gap_in * ahead[0], 6), round(entry.y + k * gap_in * ahead[1], 6), entry.facing_deg)
            for k in reversed(range(riders))]  # to a millionth of an inch: 12, not 12.000000000000002


def law_enters(state: State, rng: np.random.Generator, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """At the start of a turn (EC-LAW): from turn ``from_turn`` the police still waiting enter,
    all at one of the game's entry points, a die with as many faces as there are points choosing
    which ("appearing in one of 3 locations"; DECISION: among the points with no model in play
    within ``file_gap_in`` of where a police rider would stand, all when none is), in file ahead
    of it, at the rules data's ``law.enter_speed``; an event says where. The state as it is
    before then, or without the Law."""
    plan = state.law
    waiting = [m for m in state.models.values() if m.law and m.status == WAITING]
    if plan is None or not waiting or state.turn < plan.from_turn:
        return state, []
    gap = float(ruleset.data("law.file_gap_in"))
    clear = [k for k, entry in enumerate(plan.entries) if _clear(state, entry_poses(entry, len(waiting), gap), gap)]
    choices = clear or list(range(len(plan.entries)))
    roll = int(rng.integers(1, len(choices) + 1)) if len(choices) > 1 else 1
    entry = plan.entries[choices[roll - 1]]
    speed = int(ruleset.data("law.enter_speed"))
    for model, (x, y, facing) in zip(waiting, entry_poses(entry, len(waiting), gap)):
        pose = Pose(x, y, facing, model.pose.z)
        state = state.with_model(model.but(status=RIDING, pose=pose, speed=speed, stopped=False))
    rolled = f", d{len(choices)} rolled {roll} of the clear points" if len(choices) > 1 else ""
    riders = ", ".join(m.id for m in waiting)
    number = choices[roll - 1] + 1
    text = f"{waiting[0].gang} enters at ({entry.x:g}, {entry.y:g}), entry {number} of {len(plan.entries)}{rolled}: " \
        f"{riders}"
    return state, [Event("score", waiting[0].id, text, clauses=("EC-LAW",),
                         figures={"law": "enters", "entry": number, "roll": roll, "at": [entry.x, entry.y],
                                  "riders": [m.id for m in waiting], "gangs": []})]


def _clear(state: State, poses, gap_in: float) -> bool:
    """No model in play within ``gap_in`` inches (base centres) of any of ``poses``."""
    return all(math.hypot(m.pose.x - x, m.pose.y - y) >= gap_in
               for m in state.models.values() if m.in_play for x, y, _ in poses)


def named_riders(state: State) -> list[ModelState]:
    """The mission's named characters in play (EC-LAW: "initially target named characters"): a VIP
    (EC-MISSION-VIP), a package carrier (EC-MISSION-PACKAGE) or holder (EC-MISSION-GRAB), and the
    race leader, the rider furthest round the circuit (EC-MISSION-HOON)."""
    riders = [m for m in state.models.values() if m.in_play and not m.law]
    named = [m for m in riders if m.vip or m.carries_package or (state.items and state.item_held_by(m.id))]
    if state.checkpoints and state.progress:
        best = max(state.progress.get(m.id, 0) for m in riders) if riders else 0
        named += [m for m in riders if best > 0 and state.progress.get(m.id, 0) == best and m not in named]
    return named


def law_targets(state: State, ruleset: Ruleset) -> list[ModelState]:
    """The riders the Law goes for now, by the rules data's ``law.aggression`` (EC-LAW):
    ``named_then_impact``: the named characters up to turn ``named_until_turn``, then (or with
    none) those of most impact; ``impact``: those of most impact; ``nearest``: every rider (the
    nearest is the player's to find). With no impact yet, every rider in play."""
    riders = [m for m in state.models.values() if m.in_play and not m.law]
    reading = str(ruleset.data("law.aggression"))
    if reading == "nearest" or not riders:
        return riders
    if reading == "named_then_impact" and state.turn <= int(ruleset.data("law.named_until_turn")):
        named = named_riders(state)
        if named:
            return named
    most = max(m.impact for m in riders)
    return [m for m in riders if m.impact == most] if most > 0 else riders


def tally_impact(before: State, after: State, actor: str, events: Sequence[Event]) -> State:
    """Each rider's impact after ``actor``'s action in a game the Law plays (EC-LAW: "whichever
    models have done the most damage or had the most impact"): the wounds its attacks took off
    others (the hit events of ``events``), and one more for each rider it took out, as VIP
    Takedown credits a takedown (:func:`~entropy3d.systems.entropy_city.vip.taken_by`: the attack that took it
    out, else the action's actor when another model), which is marked ``out_by`` on the rider.
    The state as it is without the Law."""
    if after.law is None:
        return after
    for event in events:
        wounds = int(event.figures.get("wounds_lost", 0) or 0) if event.kind == "attack" else 0
        if wounds and event.piece in after.models:
            attacker = after.model(event.piece)
            after = after.with_model(attacker.but(impact=attacker.impact + wounds))
    for model in before.models.values():
        now = after.models.get(model.id)
        if not model.in_play or now is None or now.in_play:
            continue
        by = taken_by(model.id, actor, events)
        if by is not None and by in after.models:
            credited = after.model(by)
            after = after.with_model(credited.but(impact=credited.impact + 1)).with_model(now.but(out_by=by))
    return after
