"""What the chase tells a player, word for word, and the state it leaves (seed 001): a vehicle over
a cliff edge, the refusal of an action that is no drive, the vehicles a side may still activate,
and the initiative die the rules data names. Issue 51: the mutation tool's survivors in
entropy3d/systems/chase_vehicles/engine.py (a changed clause id, message or figure that no test
read). The figures are worked by hand from rules/chase_vehicles.yaml (the comments)."""

from __future__ import annotations

import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.rules.state import OUT, Wreck
from entropy3d.scene.systemrules import load_system
from entropy3d.systems.chase_vehicles import VehicleStats
from tests.systems.chase_vehicles.test_chase_engine import ScriptedDice, drive, game, reading, straight_ride, vehicle


@pytest.fixture(scope="module")
def chase():
    return load_system("chase_vehicles")


def test_SW_CHASE_over_a_cliff_edge_the_player_reads_the_crash_the_wreck_and_the_score(chase):
    """Clauses: SW-CHASE, SW-DMG. The van (runners, 3 Wounds left) drives 10" east from (40, 10)
    (free: no roll) and goes over the east edge, a cliff: "over the cliff edge"; one Wound past the
    three it has, 4 Wounds: Wrecked (left 0); a wreck ``wreck_van`` where it went over, (50, 10);
    each other side scores the rules data's wreck_points, 1: "law scores 1 for van Wrecked"."""
    law, van = vehicle("law", "law"), vehicle("van", "runners", 40.0, 10.0)
    engine, state = game(chase, [law, van], {"law": VehicleStats(), "van": VehicleStats(flees=True)})
    over = straight_ride(van, 10.0, edge="east", edge_kind="cliff")
    after, events = drive(engine, state, "van", "drive: straight 10", lambda _: reading("van", over), ScriptedDice())
    told = [(e.kind, e.model, e.rules, e.found, e.clauses, dict(e.figures)) for e in events[1:]]
    assert told == [
        ("crash", "van", "over the cliff edge", "drove over the east table edge", ("SW-CHASE",), {}),
        ("condition", "van", "4 Wounds: Wrecked, it can't move", "", ("SW-CHASE", "SW-DMG"),
         {"wounds": 4, "left": 0, "wrecked": True}),
        ("score", "van", "law scores 1 for van Wrecked", "", ("SW-CHASE",), {"gang": "law", "points": 1})]
    assert after.model("van").status == OUT and after.model("van").wounds == 0
    assert after.wrecks == (Wreck("wreck_van", "van", Pose(50.0, 10.0, 0.0)),)
    assert after.score == {"law": 1, "runners": 0}


def test_SW_TURN_an_action_that_is_no_drive_is_refused_in_words(chase):
    """Clause: SW-TURN. A vehicle only drives: 'shoot: law' is refused naming SW-TURN, with the
    drives it could make. A drive's text may have any spacing and case ('  Drive:  straight 3')."""
    engine, _ = game(chase, [vehicle("van", "runners")], {"van": VehicleStats()})
    with pytest.raises(IllegalPlanError) as refused:
        engine.parse_action("van", "shoot: law")
    assert (refused.value.clause, refused.value.message) == (
        "SW-TURN", "unknown action 'shoot: law': a vehicle drives, e.g. 'drive: straight 16' or "
                   "'drive: left tight 3, straight 10'")
    assert engine.parse_action("van", "  Drive:  straight 3").model_id == "van"


def test_SW_TURN_a_side_activates_only_its_own_vehicles_still_in_the_chase(chase):
    """Clause: SW-TURN. The law's two cars, one of them Wrecked (out), and the runners' van: the law
    may activate only 'a'; the runners only 'van'."""
    engine, state = game(chase, [vehicle("a", "law"), vehicle("c", "law", status=OUT), vehicle("van", "runners")],
                         {"a": VehicleStats(), "c": VehicleStats(), "van": VehicleStats()})
    assert engine.ready(state, "law") == ["a"]
    assert engine.ready(state, "runners") == ["van"]


def test_SW_TURN_each_side_rolls_the_initiative_die_the_rules_data_names(chase):
    """Clause: SW-TURN. The rules data's ``turn.initiative_die`` (6 in the bundled data) is the die
    each side rolls: with a d10 in its place, faces 8 and 9 are rolled (a d6 has none such) and
    the second side, 9 > 8, activates first."""
    engine, state = game(chase, [vehicle("a", "law"), vehicle("van", "runners")],
                         {"a": VehicleStats(), "van": VehicleStats()})
    rules = engine.rules
    engine.rules = rules.model_copy(update={"turn": rules.turn.model_copy(update={"initiative_die": 10})})
    start = engine.start_turn(state, ScriptedDice(8, 9), None)
    assert start.rolls == ((8, 9),) and start.first == "runners"
