"""Entropy City's missions on the end card: the score explained by what earned it (rules/missions.py)."""

from __future__ import annotations

from entropy3d.rules.event import Event
from entropy3d.rules.state import State
from entropy3d.systems import find_system
from entropy3d.systems.words import Names

NAMES = Names(riders={"viper": "Viper", "rat": "Rat"}, gangs={"hades": "Hades MC", "komodo": "Komodo"})
GANG_OF = {"viper": "komodo", "scale": "komodo", "rat": "hades", "ash": "hades"}


def test_EC_DICE_4_turf_war_explains_busts_and_riders_taken_out(rules):
    """Clause: EC-DICE-4. Turf War's card: the mission's scoring rule from the rules data, then per
    gang its points split into busts (counted from the game's bust events) and riders taken out
    (what the busts leave, in whole take-outs); a gang with nothing scored says only its points."""
    events = [Event("bust", "rat", "busts"), Event("bust", "rat", "busts again"), Event("bust", "ash", "busts"),
              Event("crash", "viper", "crashes")]
    state = State(turn=3, mission="turf_war", models={}, score={"hades": -1, "komodo": 0})
    rows = find_system("entropy_city").score_lines(state, events, GANG_OF, NAMES, rules)
    assert rows == [("", "Turf War: -1 VP per bust, +1 VP per rider taken out"),
                    ("hades", "Hades MC  -1 VP: 3 busts x -1, 2 riders taken out x +1"),
                    ("komodo", "Komodo  +0 VP")]


def test_EC_COL_EDGE_lovers_point_explains_escapes_and_what_no_event_explains(rules):
    """Clause: EC-COL-EDGE. Lovers Point Brawl scores escapes (a model riding off an open edge:
    its ``left_table`` event), not busts; points that neither escapes nor whole take-outs explain
    are said as "other" rather than hidden."""
    events = [Event("left_table", "viper", "rides off"), Event("bust", "rat", "busts")]
    state = State(turn=2, mission="lovers_point_brawl", models={}, score={"hades": 1, "komodo": 3})
    rows = find_system("entropy_city").score_lines(state, events, GANG_OF, NAMES, rules)
    assert rows[0] == ("", "Lovers Point Brawl: +1 VP per rider taken out, +2 VP per escape")
    assert rows[1] == ("hades", "Hades MC  +1 VP: 1 rider taken out x +1")
    assert rows[2] == ("komodo", "Komodo  +3 VP: 1 escape x +2, 1 rider taken out x +1")
    odd = State(turn=2, mission="lovers_point_brawl", models={}, score={"hades": 0, "komodo": 0})
    assert find_system("entropy_city").score_lines(odd, events, GANG_OF, NAMES, rules)[2] == (
        "komodo", "Komodo  +0 VP: 1 escape x +2, other -2")


def test_EC_DICE_4_a_mission_the_rulebook_does_not_write_is_scored_and_named_as_turf_war(rules):
    """Clause: EC-DICE-4. The scene schema's vaguer missions (package_run, ...) score as Turf War,
    and the card says so rather than naming a scoring rule that does not exist."""
    state = State(turn=1, mission="package_run", models={}, score={"hades": -1})
    rows = find_system("entropy_city").score_lines(state, [Event("bust", "ash", "busts")], GANG_OF, NAMES, rules)
    assert rows[0][1].startswith("Turf War: ") and rows[1] == ("hades", "Hades MC  -1 VP: 1 bust x -1")
