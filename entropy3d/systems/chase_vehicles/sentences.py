"""The chase's words for its events (SW-*): a score said as what earned it ("Runner gets away:
Runners score 1", "Highway Patrol score 1 for Van Wrecked"); every other event is its rules' own
words after the driver's name, every id in them named ("Interceptor: ram at a Top Speed of 140
MPH: Interceptor deals 6d6, Van deals 4d6")."""

from __future__ import annotations

from typing import Sequence

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.sentences import Names

#: the end of a getaway's score in the engine's words (SW-CHASE: "for runner getting away")
GETTING_AWAY = "getting away"


def sentence(event: Event, names: Names) -> str:
    """The event in plain words, vehicles and sides by name."""
    who = names.rider(event.model)
    if event.kind == "score":
        side, points = names.gang(str(event.figures.get("gang", ""))), int(event.figures.get("points", 0))
        if event.rules.endswith(GETTING_AWAY):
            return f"{who} gets away: {side} score {points}"
        why = event.rules.split(f" for {event.model} ", 1)[-1]
        return f"{side} score {points} for {who} {names.named_all(why)}"
    return f"{who}: {names.named_all(event.rules)}"


def film_ranks_as(event: Event) -> str | None:
    """A drive past 12" (SW-VEH-1): its maneuvering roll is the drive's news, ranked as a move."""
    return "move" if event.kind == "test" and "SW-VEH-1" in event.clauses else None


def film_caption(event: Event, events: Sequence[Event], names: Names) -> tuple[str, bool, bool] | None:
    """The film's line for a maneuvering roll (SW-VEH-1: its roll and what came of it in the
    rules' words, "it moves only 12\"", shown as the drive begins) and for a ram (SW-RAM: what came
    of it, not the speed the table measured: the dice go by Top Speed); None for the rest."""
    who = names.rider_of_gang(event.model)
    if event.kind == "test" and "SW-VEH-1" in event.clauses:
        made = event.figures.get("outcome") == "success"
        return (f"{who} {'makes' if made else 'fails'} its maneuvering roll: {event.rules.rsplit(': ', 1)[-1]}",
                not made, True)
    if event.kind == "crash" and "SW-RAM" in event.clauses:
        wrecked = [names.rider(e.model) for e in events if e.figures.get("wrecked")]
        return f"{who} rams {names.thing(event.piece)}" + "".join(f": {w} Wrecked" for w in wrecked), True, False
    return None
