"""Whether a game reached its mission's own objective, read from the events its rules decided.

A designer tuning a mission asks "how often does the thing the mission is about happen?", not only
"who won?": a Package Run won by the defenders because every carrier was taken out never saw a
delivery. Each mission's objective is what its rules score it for (rulebook "Mission Types"):

- Package Run (EC-MISSION-PACKAGE): a package delivered over the enemy edge;
- Grab n Go (EC-MISSION-GRAB): a package carried off its holder's own edge;
- VIP Takedown (EC-MISSION-VIP): a VIP taken out by the other VIP;
- Jailbreak (EC-MISSION-JAIL): the prisoner freed and carried out through a road exit;
- Rescue & Survive (EC-MISSION-RESCUE): an NPC delivered to its corner;
- Corners (EC-MISSION-CORNERS): a corner held on a scoring turn;
- Hoon Hour (EC-MISSION-HOON): a rider finished the race;
- Lovers Point Brawl: a rider escaped off an open edge ("two points for every friendly model that
  escapes");
- Turf War: an enemy taken out by an attack ("one point for each character you actively take
  out"; DECISION: an attack's wound or a bust in an attack, as its ``taken_out`` figure says; a
  rider ridden off a cliff or crashed out is not counted, its taker is not in the event).

Any other mission is scored as Turf War (:func:`~entropy3d.systems.entropy_city.missions.scored_as`) and so has
Turf War's objective. The events are the game's (a replay's, in order); the Law's riders
(EC-LAW) reach no gang's objective.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.corners import CORNERS
from entropy3d.systems.entropy_city.grab import GRAB_N_GO
from entropy3d.systems.entropy_city.missions import LOVERS_POINT, PACKAGE_RUN, TURF_WAR, scored_as
from entropy3d.systems.entropy_city.npc import JAILBREAK, RESCUE
from entropy3d.systems.entropy_city.race import HOON_HOUR
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.vip import VIP_TAKEDOWN


def _scored(clause: str, **figures) -> Callable[[State, Sequence[Event]], bool]:
    """A score event of ``clause`` whose figures hold every one of ``figures``."""
    def met(initial: State, events: Sequence[Event]) -> bool:
        return any(e.kind == "score" and clause in e.clauses and all(e.figures.get(k) == v for k, v in figures.items())
                   for e in events)
    return met


def _escaped(initial: State, events: Sequence[Event]) -> bool:
    """A gang's rider left the table off an open edge (the ``left_table`` event; a cliff is a
    ``cliff_edge``)."""
    return any(e.kind == "left_table" and e.model in initial.models and not initial.model(e.model).law
               for e in events)


def _taken_out_by_enemy(initial: State, events: Sequence[Event]) -> bool:
    """An attack (the event's piece: the attacker) took a rider of another gang out."""
    def gang(model_id: str | None) -> str | None:
        model = initial.models.get(model_id or "")
        return None if model is None or model.law else model.gang

    return any(e.kind == "attack" and e.figures.get("taken_out") and gang(e.piece) is not None
               and gang(e.model) not in (None, gang(e.piece)) for e in events)


@dataclass(frozen=True)
class Objective:
    """A mission's own objective: what it is, in words for a report ("a package delivered"), and
    whether a game's events reached it."""

    words: str
    met: Callable[[State, Sequence[Event]], bool]


OBJECTIVES = {
    PACKAGE_RUN: Objective("a package delivered over the enemy edge", _scored("EC-MISSION-PACKAGE", delivered=True)),
    GRAB_N_GO: Objective("a package carried off its own edge", _scored("EC-MISSION-GRAB", escaped=True)),
    VIP_TAKEDOWN: Objective("a VIP taken out by the other VIP", _scored("EC-MISSION-VIP", vip="taken down")),
    JAILBREAK: Objective("the prisoner freed and out through a road exit", _scored("EC-MISSION-JAIL", escaped=True)),
    RESCUE: Objective("an NPC delivered to its corner", _scored("EC-MISSION-RESCUE", delivered=True)),
    CORNERS: Objective("a corner held on a scoring turn", _scored("EC-MISSION-CORNERS")),
    HOON_HOUR: Objective("a rider finished the race", _scored("EC-MISSION-HOON", finished=True)),
    LOVERS_POINT: Objective("a rider escaped off an open edge", _escaped),
    TURF_WAR: Objective("an enemy taken out by an attack", _taken_out_by_enemy),
}


def objective_of(mission: str) -> Objective:
    """The objective of ``mission`` (Turf War's for a mission scored as Turf War)."""
    return OBJECTIVES[scored_as(mission)]


def objective_met(initial: State, events: Iterable[Event]) -> bool:
    """Whether the game that started at ``initial`` (its mission, its models' gangs) reached its
    mission's objective in ``events`` (the game's, in order)."""
    return objective_of(initial.mission).met(initial, tuple(events))
