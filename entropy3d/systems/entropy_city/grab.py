"""Grab n Go (rulebook "Mission Types", clause EC-MISSION-GRAB): the packages on the table, who
holds them and for how long, and what scores.

"3 packages at the centre of the board, terrain setup to prevent a straight line possible from
deployment to the packages. Once you have obtained a package you must hold onto it for two
complete actions then attempt to exit via your own deployment. Characters holding a package
cannot perform attacks. One point for each successful escape."

The packages are :class:`~entropy3d.systems.entropy_city.state.Item` values of the state (``State.items``); each
gang's deployment edge is ``State.exits``. Picking one up and passing it are actions
(:mod:`entropy3d.systems.entropy_city.items`, EC-ACT-PICKUP, EC-ACT-PASS). After every action
:func:`carry_items` counts the holders' complete actions, lets a holder that has held long enough
escape over its own edge (rules data ``missions.grab_n_go``), loses a package carried off the
table any other way, and drops the package of a holder taken out where it went out (DECISIONs in
the rules data). Pure: no dice, no table.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.gang_set_up import per_gang_problems
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ESCAPED, Item, ModelState, State

GRAB_N_GO = "grab_n_go"
EDGES = ("north", "south", "east", "west")


def grab_set_up_problems(items: Sequence[tuple[str, float, float]], exits: Mapping[str, str], gangs: Sequence[str],
                         edge_kinds: Mapping[str, str], width: float, depth: float, ruleset: Ruleset
                         ) -> list[tuple[str, str]]:
    """What the rulebook refuses in a Grab n Go set-up, as (scene key path, message): other than
    the rules data's number of packages ("3 packages"), two packages of one id, a package off the
    table, a gang with no deployment edge or an edge given to a gang the scene lacks, an exit that
    is not an open edge, fewer than two gangs. ``items``: (id, x, y) of each, inches; ``exits``:
    gang -> edge; ``edge_kinds``: what the table makes of each edge; ``width``, ``depth``: inches."""
    problems = []
    wanted = int(ruleset.data("missions.grab_n_go.packages"))
    if len(items) != wanted:
        problems.append(("grab_n_go.items", f"{len(items)} packages; the rules data's are {wanted} "
                                            "(missions.grab_n_go.packages): \"3 packages at the centre of the "
                                            "board\" (EC-MISSION-GRAB)"))
    seen: set[str] = set()
    for k, (item_id, x, y) in enumerate(items):
        if item_id in seen:
            problems.append((f"grab_n_go.items[{k}].id", f"a second package {item_id!r}: give each its own id"))
        seen.add(item_id)
        if not (0 <= x <= width and 0 <= y <= depth):
            problems.append((f"grab_n_go.items[{k}].at", f"({x:g}, {y:g}) is off the {width:g}x{depth:g} inch "
                                                         "table"))
    for gang, edge in exits.items():
        if gang in gangs and edge_kinds.get(edge, "open") != "open":
            problems.append((f"grab_n_go.exits.{gang}", f"the {edge} edge is a {edge_kinds[edge]}: a package "
                                                        "escapes over an open edge (EC-MISSION-GRAB)"))
    problems += per_gang_problems(
        exits, gangs, "grab_n_go.exits", "Grab n Go", "EC-MISSION-GRAB",
        lambda gang: f"{gang} has no deployment edge: add `{gang}: EDGE` (its holders \"exit via your own "
                     "deployment\", EC-MISSION-GRAB)")
    return problems


def check_holder_attack(state: State, attacker_id: str, target_id: str | None, attacks_back: bool) -> None:
    """"Characters holding a package cannot perform attacks" (EC-MISSION-GRAB): neither the
    attacker holding one, nor a target holding one attacking back (EC-MEL-DEF); raises
    IllegalPlanError."""
    if state.mission != GRAB_N_GO:  # an NPC's holder may fight (only Grab n Go forbids it)
        return
    held = state.item_held_by(attacker_id)
    if held is not None:
        raise IllegalPlanError("EC-MISSION-GRAB", f"{attacker_id} holds {held.id}: a rider holding a package cannot "
                                                  "attack (it may pass it to a friend within 1\", EC-ACT-PASS)")
    if attacks_back and target_id is not None and state.item_held_by(target_id) is not None:
        raise IllegalPlanError("EC-MISSION-GRAB", f"{target_id} holds {state.item_held_by(target_id).id}: a rider "
                                                  "holding a package cannot attack back; it dodges")


def held_long_enough(held: int, ruleset: Ruleset) -> bool:
    """Whether a package held ``held`` complete actions may escape with its holder over its own
    edge (EC-MISSION-GRAB: "hold onto it for two complete actions then attempt to exit")."""
    return held >= int(ruleset.data("missions.grab_n_go.hold_actions"))


def carry_items(before: State, after: State, action_kind: str, actor: str, events: Sequence[Event],
                ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Grab n Go after ``actor``'s action of ``action_kind`` (EC-MISSION-GRAB): a holder that held
    its package before a move it rode and still holds it has held it one complete action more; a
    holder off the table escapes with it over its own edge once it has held it
    ``hold_actions`` complete actions (``escape`` VP to its gang), else the package is lost with
    it; a holder out of the game drops it where it went out. An event says each."""
    if after.mission != GRAB_N_GO or not after.items:
        return after, []
    spec = ruleset.data("missions.grab_n_go")
    need, points = int(spec["hold_actions"]), int(spec["escape"])
    said: list[Event] = []
    for item in after.items:
        if item.carrier is None or item.fate is not None:
            continue
        holder = after.model(item.carrier)
        if holder.status == ESCAPED:
            left = next((e for e in events if e.kind == "left_table" and e.model == holder.id), None)
            edge = left.figures.get("edge") if left is not None else None
            home = after.exits.get(holder.gang)
            if edge == home and held_long_enough(item.held, ruleset):
                after = after.add_score(holder.gang, points).with_item(_moved(item, holder, fate="escaped"))
                said.append(Event("score", holder.id, f"escapes over its own {home} edge with {item.id}, held "
                                  f"{item.held} complete actions: {holder.gang} +{points} VP",
                                  clauses=("EC-MISSION-GRAB",), piece=item.id,
                                  figures={"item": item.id, "escaped": True, "gangs": [holder.gang]}))
            else:
                why = (f"held {item.held} of the {need} complete actions" if edge == home
                       else f"over the {edge or 'table'} edge, not its own {home} edge")
                after = after.with_item(_moved(item, holder, fate="lost"))
                said.append(Event("item", holder.id, f"carries {item.id} off the table ({why}): the package is "
                                  "lost, scoring nobody", clauses=("EC-MISSION-GRAB",), piece=item.id,
                                  figures={"item": item.id, "did": "lost", "too_soon": edge == home}))
        elif not holder.in_play:
            after, gone = holder_gone(after, item, holder, events, "EC-MISSION-GRAB")
            said.append(gone)
        elif action_kind == "move" and holder.id == actor and before.item_held_by(actor) is not None \
                and before.item_held_by(actor).id == item.id:
            held = _moved(item, holder, held=item.held + 1)
            after = after.with_item(held)
            said.append(Event("item", holder.id, f"has held {item.id} {held.held} complete action"
                              f"{'s' if held.held != 1 else ''}" + (": it may escape over its own edge"
                                                                   if held.held == need else ""),
                              clauses=("EC-MISSION-GRAB",), piece=item.id,
                              figures={"item": item.id, "did": "held", "held": held.held, "need": need}))
    return after, said


def holder_gone(after: State, item: Item, holder: ModelState, events: Sequence[Event], clause: str
                ) -> tuple[State, Event]:
    """What becomes of ``item`` when its holder is out of the game (``clause``: the mission's):
    over the cliff (EC-COL-EDGE, a ``cliff_edge`` event in ``events``) it goes too, lost, for it
    would lie off the table out of reach; else it drops where the holder went out."""
    if any(e.kind == "cliff_edge" and e.model == holder.id for e in events):
        return after.with_item(_moved(item, holder, fate="lost")), Event(
            "item", holder.id, f"goes over the cliff edge with {item.id}: it is lost, scoring nobody",
            clauses=(clause, "EC-COL-EDGE"), piece=item.id,
            figures={"item": item.id, "did": "lost", "too_soon": False, "cliff": True})
    return after.with_item(_moved(item, holder, carrier=None, held=0)), Event(
        "item", holder.id, f"is out of the game: drops {item.id} at ({holder.pose.x:.1f}, {holder.pose.y:.1f})",
        clauses=(clause,), piece=item.id, figures={"item": item.id, "did": "dropped",
                                                   "at": [holder.pose.x, holder.pose.y]})


def _moved(item: Item, holder: ModelState, **changes) -> Item:
    """``item`` where its holder is now, with ``changes`` (a carried package goes where its holder goes)."""
    import dataclasses

    return dataclasses.replace(item, x=float(holder.pose.x), y=float(holder.pose.y), **changes)


def items_in_play(state: State) -> list[Item]:
    """The packages (or NPCs) still to be taken: on the table, held or locked in (not escaped,
    delivered nor lost)."""
    return [i for i in state.items if i.fate is None]


def grab_game_over(state: State) -> str:
    """Why Grab n Go is over now: no package left in play ("" while one is)."""
    return "" if items_in_play(state) else "no package left in play"


def grab_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                     mission_title: str, gang_name: Callable[[str], str], rider_name: Callable[[str], str] = str
                     ) -> list[tuple[str, str]]:
    """Grab n Go's card: the mission's rule, then per gang its points and who escaped with a
    package, then the packages still in play (EC-MISSION-GRAB)."""
    spec = ruleset.data("missions.grab_n_go")
    rows = [("", f"{mission_title}: {int(spec['packages'])} packages; {int(spec['escape']):+d} VP for each carried "
                 f"off its own deployment edge"), ("", f"after {int(spec['hold_actions'])} complete actions held")]
    escaped: dict[str, list[str]] = {}
    for event in events:
        if event.kind == "score" and event.figures.get("escaped") and "item" in event.figures:
            escaped.setdefault(gang_of.get(event.model, ""), []).append(rider_name(event.model))
    for gang in sorted(set(gang_of.values())):
        score = int(state.score.get(gang, 0))
        who = escaped.get(gang, [])
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP" + (f": {len(who)} escaped ({', '.join(who)})"
                                                                   if who else "")))
    left = items_in_play(state)
    if left:
        held = sum(1 for i in left if i.carrier is not None)
        rows.append(("", f"{len(left)} package{'s' if len(left) != 1 else ''} still in play"
                         + (f" ({held} held)" if held else "")))
    return rows
