"""The chase's words for its events (SW-*): a score said as what earned it ("Runner gets away:
Runners score 1", "Highway Patrol score 1 for Van Wrecked"); every other event is its rules' own
words after the driver's name, every id in them named ("Interceptor: ram at a Top Speed of 140
MPH: Interceptor deals 6d6, Van deals 4d6")."""

from __future__ import annotations

from entropy3d.rules.event import Event
from entropy3d.rules.sentences import Names

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
