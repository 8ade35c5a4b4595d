"""Mission scoring and end conditions (rulebook "Mission Types").

Turf War: "one point for each character you actively take out, lose a point for every bust."
Lovers Point Brawl: "one point for every enemy taken out, two points for every friendly model
that escapes"; the deployment edge is a cliff (EC-COL-EDGE, handled by the ride). A model
escapes by riding off an open table edge.
DECISION: the other missions of the scene schema are not written missions in the rulebook
("more vague ideas"); they are scored as Turf War.
Every game also ends when fewer than two gangs have a model on the table.
"""

from __future__ import annotations

from entropy3d.game.state import BikeState, MatchState

TURF_WAR = "turf_war"
LOVERS_POINT = "lovers_point_brawl"


def score_bust(state: MatchState, bike: BikeState, mission: str) -> MatchState:
    """A bust (EC-DICE-4): Turf War takes a point from the busting gang."""
    if mission != LOVERS_POINT:
        return state.add_score(bike.gang, -1)
    return state


def score_taken_out(state: MatchState, victim: BikeState, by_gang: str | None, mission: str) -> MatchState:
    """A model out of the game. Turf War: a point to the gang that actively took it out.
    Lovers Point Brawl: a point to every enemy gang."""
    if mission == LOVERS_POINT:
        for gang in sorted({b.gang for b in state.bikes.values()} - {victim.gang}):
            state = state.add_score(gang, 1)
        return state
    if by_gang is not None and by_gang != victim.gang:
        return state.add_score(by_gang, 1)
    return state


def score_escaped(state: MatchState, bike: BikeState, mission: str) -> MatchState:
    """A model that rode off an open edge: two points in Lovers Point Brawl."""
    return state.add_score(bike.gang, 2) if mission == LOVERS_POINT else state


def game_over(state: MatchState) -> str:
    """Why the game is over now ("" while it goes on)."""
    gangs = state.gangs_in_play()
    if len(gangs) < 2:
        return "only one gang left on the table" if gangs else "no model left on the table"
    return ""


def winner(state: MatchState) -> str:
    """The gang with the most points, "" on a tie."""
    if not state.score:
        return ""
    best = max(state.score.values())
    leaders = [g for g, s in state.score.items() if s == best]
    return leaders[0] if len(leaders) == 1 else ""
