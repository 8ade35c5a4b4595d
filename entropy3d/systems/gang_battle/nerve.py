"""The gang battle's nerve (seed 003): the Nerve test (GANG-NERVE), what a Broken fighter may do
(GANG-BROKEN), the way its Run for Cover takes (GANG-RUN) and the Rally test (GANG-RALLY).

Decided here for :class:`~entropy3d.systems.gang_battle.engine.GangEngine`, which calls it: pure
like the engine, the dice from the injected ``numpy.random.Generator``, the table asked through
:class:`~entropy3d.systems.skirmish.FigureTable` (walls and edges of a walk, what an enemy's eye
reaches). Lengths are table inches, measured between base centres. The numbers and their seed
passages are in ``rules/gang_battle.yaml`` (``nerve:``, ``broken:``, ``rally:``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping, Protocol

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.skirmish import FigureTable, checked_walk, roll_die


class GangEngine(Protocol):
    """What these rules read of :class:`~entropy3d.systems.gang_battle.engine.GangEngine` (named
    here, not imported: the engine imports this module): its rules data, its fighters' numbers
    (model id -> profile) and its system (sight and cover)."""

    rules: Any
    fighters: Mapping[str, Any]
    system: Any

BROKEN = "broken"
PRONE, SERIOUSLY_INJURED = "prone", "seriously_injured"


def gap_in(a: ModelState, b: ModelState) -> float:
    """Inches between two fighters' base centres, on the table's plan."""
    return math.hypot(a.pose.x - b.pose.x, a.pose.y - b.pose.y)


def standing_unbroken(state: State, model: ModelState) -> bool:
    """In play, Standing (not Prone, so not Seriously Injured either) and not Broken."""
    return model.in_play and PRONE not in model.conditions and BROKEN not in model.conditions \
        and SERIOUSLY_INJURED not in model.conditions


def friends_bonus(state: State, model: ModelState, within_in: float, per_friend: int,
                  leave_out: tuple[str, ...] = ()) -> tuple[int, list[str]]:
    """The +1 of GANG-NERVE and GANG-RALLY: ``per_friend`` for each Standing unbroken friend of
    ``model`` within ``within_in`` inches (``leave_out``: ids not counted); (bonus, their ids)."""
    friends = [m.id for m in state.models.values()
               if m.gang == model.gang and m.id != model.id and m.id not in leave_out
               and standing_unbroken(state, m) and gap_in(m, model) <= within_in + 1e-9]
    return per_friend * len(friends), friends


def cool_check(engine: GangEngine, model: ModelState, bonus: int, rng: np.random.Generator,
               purpose: str = "Cool check") -> DiceRoll:
    """A Cool check (``purpose``: a Nerve test, a Rally test): ``bottle.cool_dice`` D6 plus
    ``bonus`` against the fighter's Cool."""
    return DiceRoll.against(purpose, [roll_die(rng) for _ in range(engine.rules.bottle.cool_dice)],
                            engine.fighters[model.id].cool, added=bonus)


def nerve_tests(engine: GangEngine, state: State, fallen_id: str, worst: str,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
    """GANG-NERVE: ``fallen_id`` has just become ``worst`` (Seriously Injured or Out of Action);
    each friend of it within ``nerve.friend_within_in`` that is in play, not Seriously Injured
    and not already Broken makes a Cool check, +``bonus_per_friend`` for each Standing unbroken
    friend within ``bonus_within_in`` (the fallen one not counted), or becomes Broken."""
    rules = engine.rules.nerve
    fallen = state.model(fallen_id)
    events: list[Event] = []
    for model in list(state.models.values()):
        if model.gang != fallen.gang or model.id == fallen.id or not model.in_play:
            continue
        if BROKEN in model.conditions or SERIOUSLY_INJURED in model.conditions:
            continue
        gap = gap_in(model, fallen)
        if gap > rules.friend_within_in + 1e-9:
            continue
        bonus, friends = friends_bonus(state, model, rules.bonus_within_in, rules.bonus_per_friend, (fallen.id,))
        check = cool_check(engine, model, bonus, rng, "Nerve test")
        dice, needed, passed = list(check.dice), check.needed, check.succeeded
        if not passed:
            state = state.with_model(model.but(conditions=model.conditions + (BROKEN,)))
        rolled = "+".join(map(str, dice)) + (f" +{bonus} for {', '.join(friends)}" if bonus else "")
        events.append(Event("condition", model.id, f"Nerve test: {fallen.id} {gap:.1f}\" away is {worst}; Cool "
                            f"check {rolled} needing {needed}+: " + ("holds" if passed else "Broken: it can only "
                                                                    "Run for Cover"),
                            piece=fallen.id, clauses=("GANG-NERVE",), rolls=(check,),
                            figures={"nerve": True, "fallen": fallen.id, "fallen_as": worst, "dice": dice,
                                     "bonus": bonus, "needed": needed, "broken": not passed,
                                     "distance_in": round(gap, 1)}))
    return state, events


def rally_tests(engine: GangEngine, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
    """GANG-RALLY: each Broken fighter in play makes a Cool check, +``bonus_per_friend`` for each
    Standing unbroken friend within ``rally.bonus_within_in``; a pass clears Broken."""
    rules = engine.rules.rally
    events: list[Event] = []
    for model in list(state.models.values()):
        if not (model.in_play and BROKEN in model.conditions):
            continue
        bonus, friends = friends_bonus(state, model, rules.bonus_within_in, rules.bonus_per_friend)
        check = cool_check(engine, model, bonus, rng, "Rally test")
        dice, needed, passed = list(check.dice), check.needed, check.succeeded
        if passed:
            state = state.with_model(model.but(conditions=tuple(c for c in model.conditions if c != BROKEN)))
        rolled = "+".join(map(str, dice)) + (f" +{bonus} for {', '.join(friends)}" if bonus else "")
        events.append(Event("condition", model.id, f"Rally test: Cool check {rolled} needing {needed}+: "
                            + ("rallies, no longer Broken" if passed else "stays Broken"),
                            clauses=("GANG-RALLY",), rolls=(check,),
                            figures={"rally": True, "dice": dice, "bonus": bonus, "needed": needed,
                                     "rallied": passed}))
    return state, events


def check_run_for_cover(model: ModelState) -> None:
    """GANG-RUN: "If Broken, Standing and Active": IllegalPlanError otherwise."""
    if BROKEN not in model.conditions:
        raise IllegalPlanError("GANG-RUN", f"{model.id} is not Broken: only a Broken fighter runs for cover")
    if PRONE in model.conditions or SERIOUSLY_INJURED in model.conditions:
        raise IllegalPlanError("GANG-RUN", f"{model.id} is not Standing and Active: a Broken fighter lying "
                               "Prone can do nothing until it rallies")


def check_broken(model: ModelState, kind: str, run_kinds: tuple[str, ...]) -> None:
    """GANG-BROKEN: a Broken fighter "can only perform Running for Cover"."""
    if BROKEN in model.conditions and kind not in run_kinds:
        raise IllegalPlanError("GANG-BROKEN", f"{model.id} is Broken: it can only Run for Cover")


def run_plans(model: ModelState, length_in: float, directions: int, shares) -> list[str]:
    """The walks a run of ``length_in`` inches may take: each of ``directions`` evenly round
    (a pivot, then a straight of each share of the length, in whole inches: a plan's straights)."""
    plans, seen = [], set()
    for k in range(directions):
        turn = round(360.0 * k / directions, 1)
        turn = turn - 360.0 if turn > 180.0 else turn
        pivot = "" if turn == 0 else f"pivot {'left' if turn > 0 else 'right'} {abs(turn):g}, "
        for share in shares:
            inches = math.floor(length_in * share)
            if inches > 0 and f"{pivot}{inches}" not in seen:
                seen.add(f"{pivot}{inches}")
                plans.append(f"walk: {pivot}straight {inches:g}")
    return plans


def run_route(engine: GangEngine, state: State, model: ModelState, length_in: float,
              table: FigureTable | None) -> tuple[PlannedMove | None, dict]:
    """GANG-RUN: the way a Broken fighter runs ``length_in`` inches (rules data ``broken:``): of the
    walks the table allows that end farther from the nearest enemy, the one seen by the fewest
    enemies, then in the best cover from those, then farthest; (its checked move, what was found
    at its end), or (None, {}) when there is none."""
    rules = engine.rules.broken
    enemies = [m for m in state.models.values() if m.gang != model.gang and m.in_play]
    if not enemies or table is None:
        return None, {}
    lookers = [m for m in enemies if SERIOUSLY_INJURED not in m.conditions]
    start_gap = min(gap_in(model, e) for e in enemies)
    cover_rank = {"none": 0, "partial": 1, "full": 2}
    best, best_key, found = None, None, {}
    for plan in run_plans(model, length_in, rules.run_directions, rules.run_shares):
        try:
            move = checked_walk(model, plan, length_in, engine.rules.movement.path_spacing_in, table, "GANG-RUN",
                                figure="fighter", noun="run", who=f"the {length_in:g}\" of {model.id}'s run",
                                not_played="climbing and gaps")
        except IllegalPlanError:
            continue
        there = model.but(pose=move.end_pose)
        gap = min(gap_in(there, e) for e in enemies)
        if gap <= start_gap:
            continue
        moved = state.with_model(there)
        seen_by, covers = [], []
        for enemy in lookers:
            sighting = next((s for s in table.sightings(moved, enemy.id) if s.target == model.id), None)
            if sighting is not None and engine.system.in_sight(sighting):
                seen_by.append(enemy.id)
                covers.append(engine.system.cover(sighting.visible_fraction))
        worst_cover = min((cover_rank[c] for c in covers), default=cover_rank["full"])
        key = (-len(seen_by), worst_cover, gap)
        if best_key is None or key > best_key:
            best, best_key = move, key
            found = {"seen_by": seen_by, "cover": min(covers, key=cover_rank.__getitem__, default="none"),
                     "gap_in": round(gap, 1)}
    return best, found


def forced_run(action, move: PlannedMove | None):
    """The forced run's action with the way the engine picked (``move`` None: nowhere to go)."""
    return dataclasses.replace(action, plan=None if move is None else move.plan, move=move)
