"""The chase's words (entropy3d/systems/chase_vehicles/sentences.py): a score said as what earned it.
Issue 46: the car chase's film (demo --seed 0) captioned the getaway "Runner: Runners scores 1 for
Runner getting away"."""

from __future__ import annotations

from entropy3d.core.event import Event
from entropy3d.scene.systemrules import load_system
from entropy3d.systems.words import Names

NAMES = Names(riders={"runner": "Runner", "van": "Van", "interceptor": "Interceptor"},
              gangs={"runners": "Runners", "law": "Highway Patrol"},
              gang_of={"runner": "runners", "van": "runners", "interceptor": "law"})


def test_SW_CHASE_a_getaway_and_a_wreck_score_in_plain_words():
    """Clause: SW-CHASE. "A chase ends when one side gets away": the runner drives off the table
    and its side scores; a Wrecked vehicle scores for the other side (SW-DMG); any other event is
    the rules' words after the driver's name."""
    chase = load_system("chase_vehicles")
    away = Event("score", "runner", "runners scores 1 for runner getting away", clauses=("SW-CHASE",),
                 figures={"gang": "runners", "points": 1})
    assert chase.sentence(away, NAMES) == "Runner gets away: Runners score 1"
    wrecked = Event("score", "van", "law scores 1 for van Wrecked", clauses=("SW-CHASE",),
                    figures={"gang": "law", "points": 1})
    assert chase.sentence(wrecked, NAMES) == "Highway Patrol score 1 for Van Wrecked"
    ram = Event("crash", "interceptor", "ram at a Top Speed of 140 MPH: interceptor deals 6d6, van deals 4d6",
                clauses=("SW-RAM",), piece="van")
    assert chase.sentence(ram, NAMES) == "Interceptor: ram at a Top Speed of 140 MPH: Interceptor deals 6d6, " \
        "Van deals 4d6"
