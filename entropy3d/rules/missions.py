"""Mission scoring and end conditions (rulebook "Mission Types"); the points are rules data
(``missions:`` in ``rules/entropy_city.yaml``).

Turf War: "one point for each character you actively take out, lose a point for every bust."
Lovers Point Brawl: "one point for every enemy taken out, two points for every friendly model
that escapes"; the deployment edge is a cliff (EC-COL-EDGE). A model escapes by riding off an
open table edge.
DECISION: the other missions of the scene schema are not written missions in the rulebook
("more vague ideas"); they are scored as Turf War.
Every game also ends when fewer than two gangs have a model on the table.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from entropy3d.rules.event import Event
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import ModelState, State

TURF_WAR = "turf_war"
LOVERS_POINT = "lovers_point_brawl"


def _points(state: State, ruleset: Ruleset) -> dict:
    scored = LOVERS_POINT if state.mission == LOVERS_POINT else TURF_WAR
    return ruleset.data(f"missions.{scored}")


def score_bust(state: State, model: ModelState, ruleset: Ruleset) -> State:
    """A bust (EC-DICE-4): Turf War takes a point from the busting gang."""
    points = int(_points(state, ruleset).get("bust", 0))
    return state.add_score(model.gang, points) if points else state


def score_taken_out(state: State, victim: ModelState, by_gang: str | None, ruleset: Ruleset) -> State:
    """A model out of the game. Turf War: a point to the gang that actively took it out.
    Lovers Point Brawl: a point to every enemy gang, however it went."""
    points = int(_points(state, ruleset)["taken_out"])
    if state.mission == LOVERS_POINT:
        for gang in sorted({m.gang for m in state.models.values()} - {victim.gang}):
            state = state.add_score(gang, points)
        return state
    if by_gang is not None and by_gang != victim.gang:
        return state.add_score(by_gang, points)
    return state


def score_escaped(state: State, model: ModelState, ruleset: Ruleset) -> State:
    """A model that rode off an open edge: two points in Lovers Point Brawl."""
    points = int(_points(state, ruleset).get("escaped", 0))
    return state.add_score(model.gang, points) if points else state


def game_over(state: State) -> str:
    """Why the game is over now ("" while it goes on)."""
    gangs = state.gangs_in_play()
    if len(gangs) < 2:
        return "only one gang left on the table" if gangs else "no model left on the table"
    return ""


def winner(state: State) -> str:
    """The gang with the most points, "" on a tie."""
    if not state.score:
        return ""
    best = max(state.score.values())
    leaders = [g for g, s in state.score.items() if s == best]
    return leaders[0] if len(leaders) == 1 else ""


#: what each scoring key of ``missions:`` counts, for people
SCORED = {"bust": "bust", "taken_out": "rider taken out", "escaped": "escape"}


def score_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                      mission_title: str, gang_name: Callable[[str], str]) -> list[tuple[str, str]]:
    """The score ``state`` holds explained, as (gang id or "", text) rows: the mission's scoring
    line ("Turf War: +1 VP per rider taken out, -1 VP per bust"), then per gang (in id order) its
    points and what earned them ("Hades MC  -3 VP: 3 busts x -1"), counted from the game's
    ``events`` (``gang_of``: model id -> gang); points no counted event explains are said as
    "other". ``mission_title``: the scored mission's name; ``gang_name``: a gang's name by id."""
    points = dict(_points(state, ruleset))
    rule = ", ".join(f"{p:+d} VP per {SCORED.get(k, k)}" for k, p in points.items())
    rows = [("", f"{mission_title}: {rule}")]
    counted = {"bust": {}, "escaped": {}}
    for event in events:
        key = "bust" if event.kind == "bust" else "escaped" if event.kind == "left_table" else None
        if key is not None and event.model in gang_of:
            counted[key][gang_of[event.model]] = counted[key].get(gang_of[event.model], 0) + 1
    for gang in sorted(set(gang_of.values())):
        score = int(state.score.get(gang, 0))
        parts, rest = [], score
        for key in ("bust", "escaped"):
            count = counted[key].get(gang, 0)
            if points.get(key) and count:
                parts.append(f"{count} {SCORED[key]}{'s' if count != 1 else ''} x {points[key]:+d}")
                rest -= count * points[key]
        if rest and points.get("taken_out") and rest % points["taken_out"] == 0 and rest // points["taken_out"] > 0:
            taken = rest // points["taken_out"]
            parts.append(f"{taken} rider{'s' if taken != 1 else ''} taken out x {points['taken_out']:+d}")
        elif rest:
            parts.append(f"other {rest:+d}")
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP" + (f": {', '.join(parts)}" if parts else "")))
    return rows
