"""VIP Takedown (rulebook "Mission Types", clause EC-MISSION-VIP).

"Each player publicly declares a VIP. Your mission is to have your VIP take out the other either
by attacking them or FORCING them to bust. If a VIP is lost as a result not directly linked to
the other the closest friendly character replaces them immediately."

A VIP that goes out of the game is taken down when the other gang's VIP is directly linked to it
(DECISION, rules data ``missions.vip_takedown``): the VIP went out in an action of the other VIP
(its attack, the bust an attack of it forced, its ride into it), or to an attack the other VIP
made in the VIP's own action (a shot from overwatch, a defender's blow). The taker's gang scores
``takedown`` and the game is over. A VIP lost any other way passes the part to the friendly
model in play nearest to where it went out (base centres, table inches; the first by id on a tie).
Pure: no dice, no table.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.gang_set_up import per_gang_problems
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State

VIP_TAKEDOWN = "vip_takedown"


def vip_set_up_problems(vips: Mapping[str, str], gang_of: Mapping[str, str], gangs: Sequence[str]
                        ) -> list[tuple[str, str]]:
    """What the rulebook refuses in a VIP Takedown set-up, as (scene key path, message): a VIP
    declared for a gang the scene does not have, or riding for another gang; a gang with no VIP
    ("Each player publicly declares a VIP"); fewer than two gangs. ``vips``: gang id -> model id;
    ``gang_of``: the scene's models' gangs (a VIP the scene lacks is the scene layer's to say)."""
    problems = []
    for gang, model_id in vips.items():
        if gang in gangs and model_id in gang_of and gang_of[model_id] != gang:
            problems.append((f"vip_takedown.vips.{gang}", f"{model_id} rides for {gang_of[model_id]}, not {gang}: "
                                                          "a gang declares one of its own (EC-MISSION-VIP)"))
    problems += per_gang_problems(
        vips, gangs, "vip_takedown.vips", "VIP Takedown", "EC-MISSION-VIP",
        lambda gang: f"{gang} declares no VIP: add `{gang}: MODEL` (\"Each player publicly declares a VIP\", "
                     "EC-MISSION-VIP)")
    return problems


def taken_by(vip_id: str, actor: str, events: Sequence[Event]) -> str | None:
    """The model an action's ``events`` link to ``vip_id`` going out: the attacker of an attack
    that took it out, else the action's ``actor`` when that is another model (its attack forced
    the bust, its ride hit it); None when the VIP went out in its own action, to no one's attack."""
    for event in events:
        if event.kind == "attack" and event.model == vip_id and event.figures.get("taken_out") and event.piece:
            return event.piece
    return actor if actor != vip_id else None


def take_down_vips(before: State, after: State, actor: str, events: Sequence[Event], ruleset: Ruleset
                   ) -> tuple[State, list[Event]]:
    """VIP Takedown after ``actor``'s action (EC-MISSION-VIP): each VIP in play ``before`` and out
    ``after`` is taken down by the other VIP (``takedown`` VP to its gang, the VIP marked
    ``vip_taken_by``) or replaced by the nearest friendly model in play; a score event says each."""
    if after.mission != VIP_TAKEDOWN:
        return after, []
    said = []
    for vip in [m for m in before.models.values() if m.vip and m.in_play]:
        now = after.model(vip.id)
        if now.in_play:
            continue
        by = taken_by(vip.id, actor, events)
        taker = before.models.get(by) if by is not None else None
        if taker is not None and taker.vip and taker.gang != vip.gang:
            points = int(ruleset.data("missions.vip_takedown.takedown"))
            after = after.add_score(taker.gang, points).with_model(now.but(vip_taken_by=taker.id))
            said.append(Event("score", vip.id, f"the {vip.gang} VIP is taken out by the {taker.gang} VIP {taker.id}: "
                              f"{taker.gang} +{points} VP, the mission is done", clauses=("EC-MISSION-VIP",),
                              piece=taker.id, figures={"vip": "taken down", "by": taker.id, "gangs": [taker.gang],
                                                           "points": points}))
            continue
        heir = nearest_friend(after, now)
        if heir is None:
            continue  # its gang has no one left on the table: the game is over for it
        after = after.with_model(heir.but(vip=True))
        why = f"not to the other VIP ({by})" if by is not None else "not to the other VIP"
        said.append(Event("score", heir.id, f"takes over as the {vip.gang} VIP: {vip.id} is out, {why}",
                          clauses=("EC-MISSION-VIP",), piece=vip.id,
                          figures={"vip": "takes over", "from": vip.id, "gangs": []}))
    return after, said


def nearest_friend(state: State, model: ModelState) -> ModelState | None:
    """The model of ``model``'s gang in play nearest to it (base centres; the first by id on a
    tie), None when none is left."""
    friends = sorted((m for m in state.models.values() if m.gang == model.gang and m.in_play and m.id != model.id),
                     key=lambda m: (float(np.hypot(*(m.pose.xy - model.pose.xy))), m.id))
    return friends[0] if friends else None


def last_vips_standing(state: State, gangs: Sequence[str]) -> list[str]:
    """Of ``gangs`` (level on points), those with a VIP in play. DECISION (rules data
    ``missions.vip_takedown``): a gang that lost its VIP with no rider left to take over has lost
    it for good, so when no VIP took the other out, the gang whose VIP is still in play wins."""
    standing = [g for g in gangs if any(m.vip and m.in_play and m.gang == g for m in state.models.values())]
    return standing or list(gangs)


def taken_down(state: State) -> ModelState | None:
    """The VIP the other VIP took out (the mission done), None while none is."""
    return next((m for m in state.models.values() if m.vip_taken_by is not None), None)


def vip_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                    mission_title: str, gang_name: Callable[[str], str], rider_name: Callable[[str], str] = str
                    ) -> list[tuple[str, str]]:
    """VIP Takedown's card: the mission, then per gang its points and its VIPs in turn (the
    declared one, then each who took over), then, with no takedown (the game's end says a
    takedown), that none happened and how a tie was broken (EC-MISSION-VIP); models by
    ``rider_name``, gangs by ``gang_name``."""
    points = int(ruleset.data("missions.vip_takedown.takedown"))
    rows = [("", f"{mission_title}: {points:+d} VP for the VIP that takes the other out")]
    took_over: dict[str, list[str]] = {}
    first: dict[str, str] = {}
    for event in events:
        if event.kind == "score" and event.figures.get("vip") == "takes over":
            gang = gang_of.get(event.model, "")
            first.setdefault(gang, str(event.figures["from"]))
            took_over.setdefault(gang, []).append(event.model)
    for gang in sorted(set(gang_of.values())):
        vips = [m.id for m in sorted(state.models.values(), key=lambda m: m.id) if m.gang == gang and m.vip]
        chain = [first[gang], *took_over[gang]] if gang in first else vips
        score = int(state.score.get(gang, 0))
        said = " then ".join(rider_name(m) for m in chain) if chain else "none"
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP: VIP {said}"))
    if taken_down(state) is not None:
        return rows  # the game's end says who took whom out
    rows.append(("", "no VIP took the other out"))
    standing = last_vips_standing(state, sorted(set(gang_of.values())))
    if len(standing) < len(set(gang_of.values())):
        rows.append(("", "tie broken: " + " and ".join(gang_name(g) for g in standing)
                     + f" still {'has a VIP' if len(standing) == 1 else 'have VIPs'} in play"))
    return rows
