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
