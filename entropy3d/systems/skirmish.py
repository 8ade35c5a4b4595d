"""What the engines of systems that play their own game share, each decided once: a die, the
turn's outcome of who goes first, sides taking turns one model at a time, and a figure's walk
checked against the table.

Pure like the rules engine: the table is asked through :class:`FigureTable` (the game layer's
:class:`~entropy3d.game.tableview.TableView` answers it), dice come from the injected
``numpy.random.Generator``. Lengths in inches.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Mapping, Protocol, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, normalize_deg
from entropy3d.systems.entropy_city.plan import Pivot, Straight, parse_plan
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.speeds import DistanceBand
from entropy3d.systems.entropy_city.state import ModelState, State, TurnStart
from entropy3d.systems.entropy_city.walking import trace_walk
from entropy3d.systems.readings import Sighting


class FigureTable(Protocol):
    """What an engine asks the table (tests fake it)."""

    def figure_walk_met(self, path: np.ndarray, level: float) -> tuple[str, str, float] | None:
        """What a figure walking ``path`` (N, 2 inches) at ``level`` meets first: (piece id, ``wall``
        or ``drop``, inches along), or None when the way is clear."""

    def off_table(self, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Mask of the points outside the table."""

    def sightings(self, state: State, viewer: str, viewer_pose: Pose | None = None) -> list[Sighting]:
        """What ``viewer`` sees of every enemy model in play (the LOS engine)."""


def game_start(table_state: State, mission: str, models: Mapping[str, ModelState]) -> State:
    """The table's starting state as a system's game: its ``models`` (as the system sets them
    up), its mission's name and every side on no points."""
    return dataclasses.replace(table_state, mission=mission, models=dict(models),
                               score={side: 0 for side in dict.fromkeys(m.gang for m in models.values())})


def roll_die(rng: np.random.Generator, sides: int = 6) -> int:
    """One die of ``sides`` faces."""
    return int(rng.integers(1, sides + 1))


def roll_for_first(sides: Sequence[str], roll: Callable[[], tuple[int, int]],
                   tie_winner: str | None = None) -> TurnStart:
    """Who goes first: the first two ``sides`` roll (``roll`` gives both results) until one is
    higher, and that side goes first; ``tie_winner``, when given, takes a first-round tie instead
    of a second roll."""
    rolls = []
    while True:
        pair = roll()
        rolls.append(pair)
        if pair[0] != pair[1]:
            return TurnStart(tuple(rolls), sides[0] if pair[0] > pair[1] else sides[1])
        if tie_winner is not None:
            return TurnStart(tuple(rolls), tie_winner)


def sides_of(state: State) -> list[str]:
    """The sides (gang ids) in the order the scene gives their models."""
    return list(dict.fromkeys(m.gang for m in state.models.values()))


def others_score(state: State, model: ModelState, points: int, why: str, clause: str) -> tuple[State, list[Event]]:
    """Every side but ``model``'s scores ``points`` for it (``why``: what befell it, "Wrecked",
    "unconscious"): the missions that reward taking an enemy out."""
    events = []
    for side in sides_of(state):
        if side != model.gang and points:
            state = state.add_score(side, points)
            events.append(Event("score", model.id, f"{side} scores {points} for {model.id} {why}", clauses=(clause,),
                                figures={"gang": side, "points": points}))
    return state, events


def most_points(state: State) -> str:
    """The side with the most points, "" for a draw (a system's mission may break ties first)."""
    ranked = sorted(sides_of(state), key=lambda side: -state.score.get(side, 0))
    if len(ranked) < 2:
        return ranked[0] if ranked else ""
    return ranked[0] if state.score.get(ranked[0], 0) != state.score.get(ranked[1], 0) else ""


def side_without_models(state: State) -> str | None:
    """The first side with no model in play, or None."""
    return next((side for side in sides_of(state)
                 if not any(m.in_play for m in state.models.values() if m.gang == side)), None)


def taking_turns(first: str, chosen: Mapping[str, Sequence[str]]) -> list[str]:
    """The sides take turns, one model each, ``first`` first; a side with none left lets the
    others go on. ``chosen``: each side's models in its player's order."""
    queues = {side: list(ids) for side, ids in chosen.items()}
    turn = [first] + [side for side in queues if side != first]
    order = []
    while any(queues.values()):
        for side in turn:
            if queues[side]:
                order.append(queues[side].pop(0))
    return order


def checked_walk(model: ModelState, plan, most_in: float, spacing_in: float, table: FigureTable | None,
                 clause: str, *, figure: str, noun: str, who: str, not_played: str) -> PlannedMove:
    """A figure's walk checked: straights and pivots (``plan``, text or parsed) of at most
    ``most_in`` inches, traced every ``spacing_in``, on the table and on the figure's level,
    clear of walls and drops; else :class:`IllegalPlanError` naming ``clause``. Words of the
    refusals: ``figure`` ("fighter"), ``noun`` ("move", "walk"), ``who`` (the figure's allowance: "the 4\\" a move takes
    Dreg") and ``not_played`` (what the system leaves out: "climbing and gaps")."""
    plan = parse_plan(plan) if isinstance(plan, str) else plan
    if plan is None or not plan.walking or any(not isinstance(s, (Straight, Pivot)) for s in plan.segments):
        raise IllegalPlanError(clause, f"a {figure} {'moves' if noun == 'move' else 'walks'} in straights and "
                                       "pivots: 'walk: pivot left 45, straight 3'")
    path, headings, length = trace_walk(plan, model.pose, spacing_in)
    if length > most_in + 1e-6:
        raise IllegalPlanError(clause, f"too far: {length:g}\" is over {who}")
    if table is not None:
        if table.off_table(path).any():
            raise IllegalPlanError(clause, f"the {noun} leaves the table")
        met = table.figure_walk_met(path, model.pose.z)
        if met is not None:
            piece, kind, at_in = met
            what = "meets" if kind == "wall" else "steps off the edge of"
            raise IllegalPlanError(clause, f"the {noun} {what} '{piece}' {at_in:.1f}\" along it; "
                                           f"{not_played} are not played")
    end = Pose(float(path[-1, 0]), float(path[-1, 1]), normalize_deg(float(headings[-1])), model.pose.z)
    return PlannedMove(plan=plan, speed=0, start_pose=model.pose, end_pose=end, path=path, headings_deg=headings,
                       length_in=length, band=DistanceBand(0.0, most_in, (clause,)), stress=0, tests=(),
                       clauses=(clause,), attacks_allowed=0)
