"""What becomes of the NPCs after each action (EC-MISSION-JAIL, EC-MISSION-RESCUE): a stop beside
the jail's door or window and the NPC's test to get out; a holder escaping through a road exit,
delivering an NPC to its corner, carrying one off the table, taken out. Called by
:func:`entropy3d.systems.entropy_city.transition.resolve` after every action; the rules are quoted in
:mod:`entropy3d.systems.entropy_city.npc` and the numbers are the rules data's ``missions.jailbreak`` and
``missions.rescue_survive``. The NPC is picked up, passed and dropped as an item is
(:mod:`entropy3d.systems.entropy_city.items`, :func:`entropy3d.systems.entropy_city.grab.holder_gone`). Dice from the
injected
generator only.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.systems.entropy_city.dice import roll_test
from entropy3d.systems.entropy_city.grab import holder_gone
from entropy3d.systems.entropy_city.items import disc_reach_in
from entropy3d.systems.entropy_city.npc import JAILBREAK, NPC_MISSIONS, RESCUE, npc_policy, through_road_exit
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ESCAPED, Item, ModelState, State

#: the action that frees the jail's NPC (EC-ACT-STOP; DECISION in the rules data)
STOP = "stop"


def opening_reached(model: ModelState, npc: Item, ruleset: Ruleset) -> tuple[float, float] | None:
    """The jail's door or window within ``missions.jailbreak.stop_within_in`` of ``model``'s base
    where it stands (the base a disc of its half width), nearest first; None when none is."""
    reach = disc_reach_in(model, float(ruleset.data("missions.jailbreak.stop_within_in")), ruleset)
    near = [(float(np.hypot(x - model.pose.x, y - model.pose.y)), (x, y)) for x, y in npc.openings]
    near = [pair for pair in near if pair[0] <= reach + 1e-9]
    return min(near)[1] if near else None


def free_the_npc(before: State, after: State, actor: str, plan_action: str | None, rng: np.random.Generator,
                 ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Jailbreak after ``actor``'s move (EC-MISSION-JAIL): a Stop action (``plan_action``) that
    left the rider stopped, in play, on the ground and holding nothing, its base within
    ``stop_within_in`` of a door or window of the jail still holding the NPC, calls the NPC's test:
    TN ``npc_tn``, no stress, the NPC pushing its luck as every NPC does (rules data ``npc:``). Passed: the NPC rides
    pillion on the rider. Failed (or bust): it stays locked in."""
    if after.mission != JAILBREAK or plan_action != STOP:
        return after, []
    model = after.model(actor)
    npc = next((i for i in after.items if i.locked and i.fate is None), None)
    if npc is None or not model.in_play or not model.stopped or model.air is not None or model.on_foot \
            or after.item_held_by(actor) is not None or before.model(actor).stopped:
        return after, []
    opening = opening_reached(model, npc, ruleset)
    if opening is None:
        return after, []
    spec = ruleset.data("missions.jailbreak")
    tn = int(spec["npc_tn"])
    roll = roll_test(tn, 0, rng, ruleset, npc_policy(ruleset))
    figures = {"item": npc.id, "did": "freed" if roll.succeeded else "stays locked", "tn": tn,
               "opening": [opening[0], opening[1]]}
    text = (f"stops within {float(spec['stop_within_in']):g}\" of the jail's opening at ({opening[0]:g}, "
            f"{opening[1]:g}): {npc.id}'s test TN {tn} (it sits at {int(ruleset.data('npc.min_roll'))}), "
            f"{roll_text(roll)}: " + (f"{npc.id} climbs on" if roll.succeeded else f"{npc.id} stays locked in"))
    if roll.succeeded:
        after = after.with_item(dataclasses.replace(npc, carrier=actor, held=0, locked=False, x=float(model.pose.x),
                                                    y=float(model.pose.y)))
    return after, [Event("item", actor, text, clauses=("EC-MISSION-JAIL", "EC-DICE-1"), rolls=(roll,),
                         piece=npc.id, figures=figures)]


def carry_npcs(after: State, actor: str, action_kind: str, events: Sequence[Event], trajectory: np.ndarray | None,
               ruleset: Ruleset) -> tuple[State, list[Event]]:
    """The NPCs after ``actor``'s action of ``action_kind`` (``trajectory``: the ride's rows t, x,
    y, z, heading; None: nothing ridden). A holder off the table: through a road exit in
    Jailbreak it escapes with the NPC (``escape`` VP to its gang; the trajectory's last point is
    where it left), else the NPC is lost. A holder out of the game: the NPC is lost over a cliff,
    else left standing where it went out. Rescue & Survive: a holder whose ride came within
    ``deliver_in`` of the NPC's destination delivers it (``deliver`` VP, ``deliver_rival`` for the
    other gang's NPC)."""
    if after.mission not in NPC_MISSIONS or not after.items:
        return after, []
    clause = "EC-MISSION-JAIL" if after.mission == JAILBREAK else "EC-MISSION-RESCUE"
    said: list[Event] = []
    for npc in after.items:
        if npc.carrier is None or npc.fate is not None:
            continue
        holder = after.model(npc.carrier)
        # Rescue & Survive: the NPC is set down as its holder's ride passes its destination, even
        # when the ride goes on over an edge or into a crash (DECISION, as Hoon Hour counts the
        # checkpoints a ride passes on its way off the table)
        delivered = after.mission == RESCUE and holder.id == actor and trajectory is not None \
            and npc.to is not None and _reaches(trajectory, npc.to, disc_reach_in(holder, float(
                ruleset.data("missions.rescue_survive.deliver_in")), ruleset))
        if delivered:
            spec = ruleset.data("missions.rescue_survive")
            rival = npc.owner is not None and npc.owner != holder.gang
            points = int(spec["deliver_rival" if rival else "deliver"])
            after = after.add_score(holder.gang, points).with_item(
                dataclasses.replace(npc, x=npc.to[0], y=npc.to[1], fate="delivered"))
            whose = f"{npc.owner}'s NPC, the rival's" if rival else "its own gang's NPC"
            said.append(Event("score", holder.id, f"delivers {npc.id} ({whose}) to ({npc.to[0]:g}, {npc.to[1]:g}): "
                              f"{holder.gang} +{points} VP", clauses=(clause,), piece=npc.id,
                              figures={"npc": npc.id, "delivered": True, "rival": rival, "gangs": [holder.gang],
                                       "points": points}))
        elif holder.status == ESCAPED:
            left = next((e for e in events if e.kind == "left_table" and e.model == holder.id), None)
            edge = left.figures.get("edge") if left is not None else None
            x, y = (float(trajectory[-1][1]), float(trajectory[-1][2])) if trajectory is not None and \
                len(trajectory) else (float(holder.pose.x), float(holder.pose.y))
            if after.mission == JAILBREAK and through_road_exit(edge, x, y, after.road_exits):
                points = int(ruleset.data("missions.jailbreak.escape"))
                after = after.add_score(holder.gang, points).with_item(
                    dataclasses.replace(npc, x=x, y=y, fate="escaped"))
                said.append(Event("score", holder.id, f"escapes through the {edge} road exit with {npc.id}: "
                                  f"{holder.gang} +{points} VP", clauses=(clause,), piece=npc.id,
                                  figures={"npc": npc.id, "escaped": True, "gangs": [holder.gang], "points": points}))
            else:
                why = "not through a road exit" if after.mission == JAILBREAK else "not to its corner"
                after = after.with_item(dataclasses.replace(npc, x=x, y=y, fate="lost"))
                said.append(Event("item", holder.id, f"carries {npc.id} off the {edge or 'table'} edge ({why}): "
                                  "the NPC is lost, scoring nobody", clauses=(clause,), piece=npc.id,
                                  figures={"item": npc.id, "did": "lost", "npc": True, "edge": edge}))
        elif not holder.in_play:
            after, gone = holder_gone(after, npc, holder, events, clause)
            said.append(gone)
    return after, said


def _reaches(trajectory: np.ndarray, point: tuple[float, float], reach: float) -> bool:
    """Whether a ridden trajectory (rows t, x, y, ...) comes within ``reach`` inches of ``point``."""
    rows = np.asarray(trajectory, float)
    return bool(len(rows)) and float(np.hypot(rows[:, 1] - point[0], rows[:, 2] - point[1]).min()) <= reach + 1e-9


__all__ = ["STOP", "carry_npcs", "free_the_npc", "opening_reached"]
