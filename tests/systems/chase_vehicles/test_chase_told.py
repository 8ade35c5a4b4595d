"""What the chase tells a player, word for word, and the state it leaves (seed 001): a vehicle over
a cliff edge, the refusal of an action that is no drive, the vehicles a side may still activate,
and the initiative die the rules data names. Issue 51: the mutation tool's survivors in
entropy3d/systems/chase_vehicles/engine.py (a changed clause id, message or figure that no test
read). The figures are worked by hand from rules/chase_vehicles.yaml (the comments)."""

from __future__ import annotations

import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.scene.systemrules import load_system
from entropy3d.systems.chase_vehicles import VehicleStats
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, Wreck
from entropy3d.systems.entropy_city.transition import MOVE, Action
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


def test_SW_CHASE_off_an_open_edge_a_pursuer_leaves_the_chase_and_a_fleeing_vehicle_gets_away(chase):
    """Clause: SW-CHASE. Off the open east edge: the law's car (a pursuer) "off the table: it leaves
    the chase", nobody scores; the van (flees) "off the table: it gets away" and its side scores
    the rules data's escape_points, 1: "runners scores 1 for van getting away"."""
    law, van = vehicle("law", "law", 40.0, 10.0), vehicle("van", "runners", 40.0, 20.0)
    engine, state = game(chase, [law, van], {"law": VehicleStats(), "van": VehicleStats(flees=True)})
    for model, told_then, score in (
            (law, [("move", "law", "off the table: it leaves the chase", "drove over the east table edge",
                    ("SW-CHASE",), {})], {"law": 0, "runners": 0}),
            (van, [("move", "van", "off the table: it gets away", "drove over the east table edge", ("SW-CHASE",), {}),
                   ("score", "van", "runners scores 1 for van getting away", "", ("SW-CHASE",),
                    {"gang": "runners", "points": 1})], {"law": 0, "runners": 1})):
        off = straight_ride(model, 10.0, edge="east", edge_kind="open")
        after, events = drive(engine, state, model.id, "drive: straight 10", lambda _, r=off, m=model: reading(m.id, r),
                              ScriptedDice())
        assert [(e.kind, e.model, e.rules, e.found, e.clauses, dict(e.figures)) for e in events[1:]] == told_then
        assert after.model(model.id).status == ESCAPED and after.score == score


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


def refusal(engine, state, action) -> tuple[str, str]:
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, action)
    return refused.value.clause, refused.value.message


def test_SW_TURN_SW_DMG_SW_CHASE_check_refuses_in_words_and_names_the_clause(chase):
    """Clauses: SW-DMG ("A wrecked land vehicle can't move"), SW-CHASE (a vehicle that got away
    is out of the chase), SW-TURN (a vehicle drives, once an activation), SW-VEH-1 (a drive is
    straights and turns). What the player reads when check refuses, word for word."""
    engine, state = game(chase, [vehicle("car", "law"), vehicle("wreck", "law", status=OUT),
                                 vehicle("van", "runners", status=ESCAPED)],
                         {"car": VehicleStats(), "wreck": VehicleStats(), "van": VehicleStats()})
    assert refusal(engine, state, Action.activate("wreck")) == (
        "SW-DMG", "wreck is Wrecked: a wrecked land vehicle can't move")
    assert refusal(engine, state, Action.ride("van", "drive: straight 3")) == ("SW-CHASE", "van got away")
    assert refusal(engine, state, Action.attack("car", "van")) == ("SW-TURN", "a vehicle drives; not 'attack'")
    assert refusal(engine, state, Action.ride("car", "s1: straight 3")) == (
        "SW-VEH-1", "a vehicle drives straights and turns: 'drive: straight 10, left tight 3'")
    driven, _ = drive(engine, state, "car", "drive: straight 3",
                      lambda _: reading("car", straight_ride(state.model("car"), 3.0)), ScriptedDice())
    assert refusal(engine, driven, Action.ride("car", "drive: straight 2")) == (
        "SW-TURN", "car has driven this activation: one drive an activation")


def test_SW_DMG_a_chase_starts_each_vehicle_with_the_wounds_of_its_scale_and_nothing_else(chase):
    """Clause: SW-DMG. The rules data's wounds by Scale (normal 3, large 4, huge 5): the chase's
    first state gives each vehicle those, no stress and no conditions, whatever the table's
    state carried; its mission is the rules data's (getaway) and no side has a point."""
    engine, state = game(chase, [vehicle("car", "law", stress=2, wounds=1, conditions=("prone",)),
                                 vehicle("truck", "runners", stress=5, wounds=0)],
                         {"car": VehicleStats(), "truck": VehicleStats(scale="huge")})
    start = engine.initial_state(state)
    assert [(m.id, m.wounds, m.stress, m.conditions) for m in start.models.values()] == [
        ("car", 3, 0, ()), ("truck", 5, 0, ())]
    assert start.mission == "getaway" and not any(start.score.values())


def test_SW_VEH_1_a_checked_drive_is_its_path_end_and_length_and_nothing_of_a_bike(chase):
    """Clause: SW-VEH-1. 'drive: straight 4, left wide 3' from (10, 10) facing +x: 4" to (14, 10),
    then 3" of arc on the wide radius (rules data: 4.46"), turning 3 / 4.46 rad = 38.540 deg to the
    left: it ends at (14 + 4.46 sin 38.54 deg, 10 + 4.46 (1 - cos 38.54 deg)) = (16.779, 10.971)
    facing 38.54 deg, 7" driven. The checked move is that and nothing of a bike's: speed 0, no
    stress, no tests, no attack, its band 0 to 7" and its clause SW-VEH-1. A plan given as text
    is read the same. 24" is the most a drive may be; 25" is refused, word for word."""
    # on a level 2" up: the drive ends on it too (z is the level's, the ride finds any other)
    engine, state = game(chase, [vehicle("car", "law").but(pose=Pose(10.0, 10.0, 0.0, 2.0))], {"car": VehicleStats()})
    plan = "drive: straight 4, left wide 3"
    for action in (Action.ride("car", plan), Action(MOVE, "car", plan)):
        move = engine.check(state, action).move
        assert (move.end_pose.x, move.end_pose.y, move.end_pose.facing_deg) == (
            pytest.approx(16.779, abs=1e-3), pytest.approx(10.971, abs=1e-3), pytest.approx(38.540, abs=1e-3))
        assert move.end_pose.z == 2.0 and move.start_pose == state.model("car").pose
        assert (move.length_in, move.speed, move.stress, move.tests, move.attacks_allowed, move.clauses) == (
            pytest.approx(7.0), 0, 0, (), 0, ("SW-VEH-1",))
        assert (move.band.min, move.band.max, move.band.clauses) == (0.0, pytest.approx(7.0), ("SW-VEH-1",))
    assert engine.check(state, Action.ride("car", "drive: straight 24")).move.length_in == pytest.approx(24.0)
    assert refusal(engine, state, Action.ride("car", "drive: straight 25")) == (
        "SW-VEH-1", 'too far: 25" is over the 24" it drives')


def test_SW_VEH_1_an_unchecked_drive_is_resolved_on_its_ride(chase):
    """Clause: SW-VEH-1. resolve takes a drive with no checked move (nothing declared) on its
    ride alone: 10" is within 12", no roll, and the car stands where the ride ended, x = 20."""
    engine, state = game(chase, [vehicle("car", "law")], {"car": VehicleStats()})
    ride = straight_ride(state.model("car"), 10.0)
    unchecked = Action.ride("car", "drive: straight 10")
    after, events = engine.resolve(state, unchecked, reading("car", ride), ScriptedDice())
    assert after.model("car").pose.x == pytest.approx(20.0) and "no maneuvering roll" in events[0].rules
