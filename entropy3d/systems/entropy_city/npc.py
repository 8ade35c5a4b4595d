"""The two missions with an NPC to carry (rulebook "Mission Types"): Jailbreak (EC-MISSION-JAIL)
and Rescue & Survive (EC-MISSION-RESCUE): their set-up checks, when the game ends, the NPC's own
test and the end card. Pure: no dice but the ones handed in, no table.

"Jailbreak: An NPC locked inside a building at the centre of the board, rider must perform a
successful stop within 4 inches of the door or window. Perform a test it for the NPC with TN 16.
If successful escape the table from any board edge through a road exit, with the NPC on friendly
bike."
"Rescue & Survive: NPC on foot needs to be collected from one corner and delivered to the other.
Same mission for both players, extra points if they can take it your npc."
"If an NPC is involved in a test, it must have a minimum to roll before giving up. At this time
it's 15." ("The Law: As NPC's")

An NPC is an :class:`~entropy3d.systems.entropy_city.state.Item` of the state, carried pillion as Grab n Go's
packages are carried (picked up, passed, dropped: :mod:`entropy3d.systems.entropy_city.items`); what frees,
delivers and scores it after each action is :mod:`entropy3d.systems.entropy_city.npc_actions`. The numbers and
the DECISIONs are the rules data's ``missions.jailbreak`` and ``missions.rescue_survive``.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.dice import NPC_PUSH, Policy, policy_named
from entropy3d.systems.entropy_city.gang_set_up import per_gang_problems
from entropy3d.systems.entropy_city.grab import items_in_play
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import State

JAILBREAK = "jailbreak"
RESCUE = "rescue_survive"
#: the missions whose items are NPCs
NPC_MISSIONS = (JAILBREAK, RESCUE)
EDGES = ("north", "south", "east", "west")


def npc_policy(ruleset: Ruleset) -> Policy:
    """The NPC's push-your-luck: every NPC's, from the rules data's ``npc:`` (:func:`policy_named`
    ``npc``, :class:`~entropy3d.systems.entropy_city.dice.NpcMinimum`)."""
    return policy_named(NPC_PUSH, ruleset)


def along_edge(edge: str, x: float, y: float) -> float:
    """Inches along table edge ``edge`` from its west or south end to the point (x, y) beside it."""
    return y if edge in ("west", "east") else x


def through_road_exit(edge: str | None, x: float, y: float, road_exits: Sequence[tuple[str, float, float]]) -> bool:
    """Whether a ride leaving over ``edge`` at (x, y) (inches) leaves through a road exit
    (EC-MISSION-JAIL; ``road_exits``: (edge, from, to) inches along the edge)."""
    where = along_edge(edge or "", x, y)
    return any(e == edge and lo - 1e-9 <= where <= hi + 1e-9 for e, lo, hi in road_exits)


def jail_set_up_problems(npc_at: tuple[float, float], openings: Sequence[tuple[float, float]],
                         road_exits: Sequence[tuple[str, float, float]], edge_kinds: Mapping[str, str],
                         gangs: Sequence[str], width: float, depth: float) -> list[tuple[str, str]]:
    """What the rulebook refuses in a Jailbreak set-up, as (scene key path, message): an NPC or
    an opening off the table, no road exit over an open edge ("escape the table from any board
    edge through a road exit"), fewer than two gangs. ``npc_at``: where the NPC waits (the jail's
    centre), inches; ``road_exits``: (edge, from, to) inches; ``edge_kinds``: what the table makes
    of each edge; ``width``, ``depth``: inches. The jail being a building of the scene and the
    openings on its walls are the scene's checks (:mod:`entropy3d.scene.npc_set_up`)."""
    problems = []
    for k, (x, y) in enumerate(openings):
        if not (0 <= x <= width and 0 <= y <= depth):
            problems.append((f"jailbreak.openings[{k}]", f"({x:g}, {y:g}) is off the {width:g}x{depth:g} inch table"))
    if not (0 <= npc_at[0] <= width and 0 <= npc_at[1] <= depth):
        problems.append(("jailbreak.jail", f"the jail's centre ({npc_at[0]:g}, {npc_at[1]:g}) is off the table"))
    if not any(edge_kinds.get(edge, "open") == "open" for edge, _, _ in road_exits):
        problems.append(("roads", "no road leaves the table over an open edge: the NPC escapes \"from any board "
                                  "edge through a road exit\" (EC-MISSION-JAIL); run a road to an open table edge"))
    if len(gangs) < 2:
        problems.append(("gangs", f"Jailbreak is played by two gangs or more; this scene has {len(gangs)} "
                                  "(EC-MISSION-JAIL)"))
    return problems


def corner_of(x: float, y: float, width: float, depth: float) -> tuple[str, float]:
    """The table corner nearest (x, y) ('south-west', ...) and how far it is, inches."""
    corners = {"south-west": (0.0, 0.0), "south-east": (width, 0.0), "north-west": (0.0, depth),
               "north-east": (width, depth)}
    name = min(corners, key=lambda c: (corners[c][0] - x) ** 2 + (corners[c][1] - y) ** 2)
    cx, cy = corners[name]
    return name, ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5


def rescue_set_up_problems(npcs: Sequence[tuple[str, str, tuple[float, float], tuple[float, float]]],
                           gangs: Sequence[str], width: float, depth: float, ruleset: Ruleset
                           ) -> list[tuple[str, str]]:
    """What the rulebook refuses in a Rescue & Survive set-up, as (scene key path, message): an
    NPC's start or destination off the table or further than ``corner_in`` from a table corner
    ("collected from one corner and delivered to the other"), both at one corner, two NPCs of one
    id, a gang with other than ``npcs_per_gang`` NPCs or one the scene lacks ("same mission for
    both players"), fewer than two gangs. ``npcs``: (id, gang, at, to), inches."""
    spec = ruleset.data("missions.rescue_survive")
    near, per_gang = float(spec["corner_in"]), int(spec["npcs_per_gang"])
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    for k, (npc_id, _gang, at, to) in enumerate(npcs):
        if npc_id in seen:
            problems.append((f"rescue_survive.npcs[{k}].id", f"a second NPC {npc_id!r}: give each its own id"))
        seen.add(npc_id)
        corners = []
        for key, (x, y) in (("at", at), ("to", to)):
            where = f"rescue_survive.npcs[{k}].{key}"
            if not (0 <= x <= width and 0 <= y <= depth):
                problems.append((where, f"({x:g}, {y:g}) is off the {width:g}x{depth:g} inch table"))
                continue
            corner, gap = corner_of(x, y, width, depth)
            corners.append(corner)
            if gap > near + 1e-9:
                problems.append((where, f"({x:g}, {y:g}) is {gap:.1f}\" from the {corner} corner; an NPC is "
                                        f"\"collected from one corner and delivered to the other\": put it within "
                                        f"{near:g}\" of a corner (missions.rescue_survive.corner_in, "
                                        "EC-MISSION-RESCUE)"))
        if len(corners) == 2 and corners[0] == corners[1]:
            problems.append((f"rescue_survive.npcs[{k}].to", f"{npc_id} starts and is delivered at the "
                                                             f"{corners[0]} corner: deliver it to another corner "
                                                             "(EC-MISSION-RESCUE)"))
    counts: dict[str, int] = {}
    for k, (_, gang, _, _) in enumerate(npcs):
        if gang not in gangs:
            problems.append((f"rescue_survive.npcs[{k}].gang", f"no gang {gang!r} in the scene; its gangs: "
                                                               f"{', '.join(gangs) or '(none)'} (EC-MISSION-RESCUE)"))
            continue
        counts[gang] = counts.get(gang, 0) + 1
    for gang, count in counts.items():
        if count != per_gang:
            problems.append(("rescue_survive.npcs", f"{gang} has {count} NPCs; each gang rescues {per_gang} "
                                                    "(missions.rescue_survive.npcs_per_gang, EC-MISSION-RESCUE)"))
    problems += per_gang_problems(
        {gang: gang for gang in counts}, gangs, "rescue_survive.npcs", "Rescue & Survive", "EC-MISSION-RESCUE",
        lambda gang: f"{gang} has no NPC: add `{{id: ID, gang: {gang}, at: [X, Y], to: [X, Y]}}` (\"same mission "
                     "for both players\", EC-MISSION-RESCUE)")
    return problems


def npc_game_over(state: State) -> str:
    """Why a Jailbreak or Rescue & Survive game is over now ("" while it goes on): the jail's NPC
    escaped or lost; no NPC left to rescue."""
    if state.mission == JAILBREAK:
        gone = next((i for i in state.items if i.fate is not None), None)
        return "" if gone is None else f"the NPC {'escaped' if gone.fate == 'escaped' else 'is lost'}"
    if state.mission == RESCUE:
        return "" if items_in_play(state) else "no NPC left to rescue"
    return ""


def npc_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                    mission_title: str, gang_name: Callable[[str], str], rider_name: Callable[[str], str] = str
                    ) -> list[tuple[str, str]]:
    """The end card of Jailbreak or Rescue & Survive: the mission's rule, then per gang its points
    and the NPCs it got out, then where the NPCs still in play are (EC-MISSION-JAIL,
    EC-MISSION-RESCUE)."""
    done: dict[str, list[str]] = {}
    for event in events:
        if event.kind == "score" and "npc" in event.figures:
            what = "escaped with the NPC" if event.figures.get("escaped") else \
                ("delivered the rival's NPC" if event.figures.get("rival") else "delivered its own NPC")
            done.setdefault(gang_of.get(event.model, ""), []).append(f"{rider_name(event.model)} {what}")
    if state.mission == JAILBREAK:
        spec = ruleset.data("missions.jailbreak")
        rows = [("", f"{mission_title}: stop within {float(spec['stop_within_in']):g}\" of the jail's door or "
                     f"window, the NPC's test TN {int(spec['npc_tn'])}"),
                ("", f"{int(spec['escape']):+d} VP to carry it off the table through a road exit")]
    else:
        spec = ruleset.data("missions.rescue_survive")
        rows = [("", f"{mission_title}: each gang's NPC from its corner to the other"),
                ("", f"{int(spec['deliver']):+d} VP for your own delivered, {int(spec['deliver_rival']):+d} VP for "
                     "the rival's")]
    for gang in sorted(set(gang_of.values())):
        who = done.get(gang, [])
        rows.append((gang, f"{gang_name(gang)}  {int(state.score.get(gang, 0)):+d} VP"
                           + (f": {', '.join(who)}" if who else "")))
    left = items_in_play(state)
    if state.mission == JAILBREAK and left:
        npc = left[0]
        rows.append(("", "the NPC is still locked in" if npc.locked else
                     f"the NPC rides with {rider_name(npc.carrier)}" if npc.carrier else "the NPC is on the loose"))
    elif left:
        rows.append(("", f"{len(left)} NPC{'s' if len(left) != 1 else ''} still to rescue"))
    return rows


__all__ = ["EDGES", "JAILBREAK", "NPC_MISSIONS", "RESCUE", "along_edge", "corner_of",
           "jail_set_up_problems", "npc_explanation", "npc_game_over", "npc_policy",
           "rescue_set_up_problems", "through_road_exit"]
