"""Riding off the table when the mission pays for it (issue 45): Lovers Point Brawl's escapes.

Lovers Point Brawl: "You gain one point for every enemy taken out, two points for every friendly
model that escapes" (a model escapes by riding off an open table edge, :mod:`entropy3d.systems.entropy_city.missions`).
A sweep of 50 games saw a rider escape in one: every rider hunted its rivals and the automatic
player took 60 points off any move that left the table. Weighed as the mission scores them, an
escape is worth two take-outs, and it is sure once made, where a fight may hand the enemy the
point instead; a rider that escapes can no longer be taken out either. So, where the mission's
rules data pay more for an escape than for a take-out (:func:`escape_pays`), a rider rides for the
open edge it gains most on along open ground (:class:`~entropy3d.game.routes.RouteMap`) and off it,
as a carrier rides for its edge (:class:`~entropy3d.game.mission_goals.RiderGoal`); it still takes
an attack on its way (the player's :meth:`~entropy3d.game.players.AutoPlayer.choose_attack`).
A police bike holds the line ("A police line blocks your exit"): it does not ride for the edges.

Nothing here decides a rule: the rules engine decides what a ride off an edge is (a cliff edge
busts, EC-COL-EDGE; an open one is an escape). Lengths in inches.
"""

from __future__ import annotations

from dataclasses import dataclass

from entropy3d.systems.entropy_city.missions import scored_as
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State

#: the bike type of the police line, which blocks the way out instead of taking it
POLICE_BIKE = "police"


def escape_pays(state: State, ruleset: Ruleset) -> bool:
    """Whether the mission's rules data (``missions:``) pay more for a rider riding off an open
    edge than for an enemy taken out (Lovers Point Brawl: 2 against 1)."""
    points = ruleset.data(f"missions.{scored_as(state.mission)}")
    return float(points.get("escaped", 0)) > float(points.get("taken_out", 0))


def open_edges(probe) -> tuple[str, ...]:
    """The table edges of ``probe``'s table a ride leaves by without busting (not a cliff, EC-COL-EDGE)."""
    return tuple(edge for edge in ("west", "east", "south", "north") if probe.edges.get(edge, "open") == "open")


@dataclass(frozen=True)
class EscapeRun:
    """Where a rider that escapes rides: off any of ``edges`` (the open ones). It answers as
    :class:`~entropy3d.game.npc_goals.NpcRun` does (:meth:`gap`, :meth:`progress`, :meth:`arrives`),
    so a :class:`~entropy3d.game.mission_goals.RiderGoal` weighs it as a run for the edge."""

    edges: tuple[str, ...]

    @classmethod
    def of(cls, state: State, bike: ModelState, probe, ruleset: Ruleset) -> EscapeRun | None:
        """The run of ``bike`` on ``probe``'s table, or None: the mission does not pay for it, the
        table has no open edge, or the bike is the police line's."""
        if bike.on_foot or bike.bike_type == POLICE_BIKE or not escape_pays(state, ruleset):
            return None
        edges = open_edges(probe)
        return cls(edges) if edges else None

    def _gaps(self, xy, routes) -> list[float]:
        return [float(routes.to_edge(edge, xy)) for edge in self.edges]

    def gap(self, xy, routes) -> float:
        """Inches along open ground from ``xy`` to the nearest open edge."""
        return min(self._gaps(xy, routes))

    def progress(self, start_xy, end_xy, routes) -> float:
        """Inches a ride from ``start_xy`` to ``end_xy`` takes the rider nearer the open edge it
        gains most on (as an NPC's holder rides for the road exit it gains most on: a rider
        facing away from the nearest edge rides on for the one ahead)."""
        return max(before - after for before, after in zip(self._gaps(start_xy, routes), self._gaps(end_xy, routes)))

    def arrives(self, move: PlannedMove, probe) -> bool:
        """Whether ``move`` rides off the table over an open edge (an escape)."""
        crossed = probe.edge_crossed(move.path)
        return crossed is not None and crossed[0] in self.edges


__all__ = ["EscapeRun", "POLICE_BIKE", "escape_pays", "open_edges"]
