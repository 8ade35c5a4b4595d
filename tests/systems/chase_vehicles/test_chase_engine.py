"""The chase played on the table (seed 001, :class:`~entropy3d.systems.chase_vehicles.engine.ChaseEngine`),
hand-worked on plain ride readings with scripted dice: the drive and its maneuvering roll
(SW-VEH-1), Out of Control (SW-VEH-2), rams (SW-RAM), vehicle damage and wrecks (SW-DMG), the
turn (SW-TURN) and the getaway (SW-CHASE)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.scene.systemrules import load_system
from entropy3d.systems.chase_vehicles import VehicleStats
from entropy3d.systems.chase_vehicles.engine import LOCOMOTION_HIT, TRACTION_HIT, pose_along, trace_drive
from entropy3d.systems.entropy_city.plan import parse_plan
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, RIDING, ModelState, State
from entropy3d.systems.entropy_city.transition import ACTIVATE, MOVE, Action
from entropy3d.systems.readings import Impact, RiddenMove, RideReading


class ScriptedDice:
    """A generator stand-in that deals the given die faces in order (``integers(1, sides + 1)``)
    and fails the test when the rules roll a die it was not given."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def integers(self, low: int, high: int) -> int:
        assert self.faces, "the rules rolled a die the hand-worked case did not expect"
        face = self.faces.pop(0)
        assert low <= face < high, f"scripted face {face} is not on a d{high - 1}"
        return face


@pytest.fixture(scope="module")
def chase():
    return load_system("chase_vehicles")


def vehicle(model_id: str, gang: str, x: float = 10.0, y: float = 10.0, facing: float = 0.0, **changes) -> ModelState:
    return ModelState(model_id, gang, "cruiser", Pose(x, y, facing), **{
        "speed": 0, "stress": 0, "wounds": 3, "max_stress": 10, **changes})


def game(chase, models, stats):
    engine = chase.engine(stats)
    state = State(1, "getaway", {m.id: m for m in models}, score={m.gang: 0 for m in models})
    return engine, state


def straight_ride(model: ModelState, inches: float, **facts) -> Facts:
    """A ride straight ahead along +x, a row an inch, 1.5 s in all."""
    xs = np.arange(0.0, inches + 1e-9, 1.0)
    rows = np.column_stack([xs / inches * 1.5, model.pose.x + xs, np.full_like(xs, model.pose.y),
                            np.zeros_like(xs), np.zeros_like(xs)])
    end = Pose(float(rows[-1, 1]), model.pose.y, 0.0)
    return Facts("geometric", inches, inches, True, rows, end_pose=end, **facts)


def drive(engine, state, model_id: str, plan: str, reading_of, dice):
    """One activation's drive along the one path: activate, check, read the ride, resolve."""
    state, _ = engine.resolve(state, engine.check(state, Action.activate(model_id)), None, dice)
    checked = engine.check(state, Action.ride(model_id, plan))
    return engine.resolve(state, checked, reading_of(checked), dice)


def reading(model_id: str, facts: Facts, **move) -> RideReading:
    return RideReading(facts, RiddenMove(model_id, facts.progress_in, **move))


# -- SW-VEH-1 ----------------------------------------------------------------------------------

def test_SW_VEH_1_a_drive_past_12_inches_rolls_and_a_failure_moves_only_12(chase):
    """Clause: SW-VEH-1. "If a driver wants to go faster, up to 24" per turn ... he can do so but
    must make a maneuvering roll ... If the roll is successful, the vehicle ends its move wherever
    the driver wants. Failure means the vehicle moves only 12"." A 16" drive from x=10: d8 5 and
    wild die 2 pass TN 4 (it ends at x=26, where the ride ended); 2 and 3 fail: it stands 12"
    along its ride, at x=22."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats(driving=8)})
    ride = straight_ride(car, 16.0)
    passed, events = drive(engine, state, "car", "drive: straight 16", lambda _: reading("car", ride),
                           ScriptedDice(5, 2))
    assert passed.model("car").pose.x == pytest.approx(26.0)
    assert events[0].figures["outcome"] == "success" and events[0].clauses == ("SW-VEH-1",)
    failed, events = drive(engine, state, "car", "drive: straight 16", lambda _: reading("car", ride),
                           ScriptedDice(2, 3))
    assert events[0].figures["outcome"] == "failure" and 'moves only 12"' in events[0].rules
    assert failed.model("car").pose.x == pytest.approx(22.0)


def test_SW_VEH_1_within_12_inches_no_roll_and_never_past_24(chase):
    """Clause: SW-VEH-1. "Vehicles can move up to 12" on the tabletop ... without having to make
    maneuvering rolls"; "up to 24" per turn". 12" rolls no die (the scripted dice are empty); a
    25" drive is refused before anything is ridden; one drive an activation."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats()})
    after, [event] = drive(engine, state, "car", "drive: straight 12",
                           lambda _: reading("car", straight_ride(car, 12.0)), ScriptedDice())
    assert "no maneuvering roll" in event.rules and after.model("car").pose.x == pytest.approx(22.0)
    with pytest.raises(IllegalPlanError, match=r"over the 24.*SW-VEH-1"):
        engine.check(state, Action.ride("car", "drive: straight 20, left wide 5"))
    with pytest.raises(IllegalPlanError, match="one drive an activation.*SW-TURN"):
        engine.check(after, Action.ride("car", "drive: straight 2"))


def test_SW_VEH_1_handling_from_wounds_joins_the_ride_penalty(chase):
    """Clauses: SW-VEH-1, SW-DMG. "Each Wound reduces a vehicle's Handling by 1 (to a maximum of
    -4)". A car with 2 of its 3 Wounds taken rolls a 16" drive through 3" of gravel at -1 - 2 = -3:
    d6 5 and wild 2 make 5 - 3 = 2, a failure."""
    car = vehicle("car", "law", wounds=1)
    engine, state = game(chase, [car], {"car": VehicleStats()})
    _, events = drive(engine, state, "car", "drive: straight 16",
                      lambda _: reading("car", straight_ride(car, 16.0), terrain_in=(("gravel", 3.0),)),
                      ScriptedDice(5, 2))
    assert events[0].figures == {"penalty": -3, "total": 2, "outcome": "failure"}
    assert "Handling -2 from its Wounds" in events[0].rules
    big = vehicle("ship", "law", wounds=0)
    gargantuan, _ = game(chase, [big], {"ship": VehicleStats(scale="gargantuan")})
    assert gargantuan.handling(big) == -4  # six Wounds taken, never past -4


def test_SW_VEH_1_a_drive_is_straights_and_turns_traced_on_the_turn_radii(chase):
    """Clause: SW-VEH-1. "At that speed they can move as desired": straights and turns of the
    rules data's radii; a tight turn's 3" turns the heading 90°; no pivots on the spot."""
    plan = parse_plan("drive: straight 4, left tight 3")
    path, headings, length = trace_drive(plan.segments, Pose(0, 0, 0), chase.rules.driving.turn_radius_in, 0.25)
    assert length == 7.0 and headings[-1] == pytest.approx(90.0, abs=0.5)
    assert path[-1] == pytest.approx([4 + 1.91, 1.91], abs=0.01)
    assert str(plan) == "drive: straight 4, left tight 3" and plan.driven and not plan.walking
    engine, state = game(chase, [vehicle("car", "law")], {"car": VehicleStats()})
    with pytest.raises(IllegalPlanError, match="SW-VEH-1"):
        engine.check(state, Action.ride("car", "walk: pivot left 90"))
    with pytest.raises(IllegalPlanError, match="SW-TURN"):
        engine.parse_action("car", "shoot")


# -- SW-VEH-2 ----------------------------------------------------------------------------------

def test_SW_VEH_2_a_critical_failure_minor_collision_into_the_nearest_obstacle(chase):
    """Clauses: SW-VEH-2, SW-DMG, SW-CRIT. "A Critical Failure means the vehicle goes Out of
    Control ... If that indicates a collision, the GM can move it into the nearest obstacle";
    "3-4 Minor Collision: The vehicle takes a Wound and a Critical Hit." Both dice 1, then 2d6
    1+2 = 3: a Wound, into the lamp the table found 2.5" away; the Critical Hit's 2d6 2+1 = 3,
    "Guidance/Traction ... Reduce Handling by one each time this occurs (to a maximum penalty of
    -4)": Handling -1 for the Wound and -1 for the wheels, -2."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats()})
    into = Pose(27.0, 12.0, 0.0)  # where the table says the car stands moved into the lamp
    after, events = drive(engine, state, "car", "drive: straight 16",
                          lambda _: reading("car", straight_ride(car, 16.0), nearest_obstacle="lamp",
                                            nearest_obstacle_in=2.5, nearest_obstacle_pose=into),
                          ScriptedDice(1, 1, 1, 2, 2, 1))
    crash = next(e for e in events if e.kind == "crash")
    assert crash.clauses == ("SW-VEH-2",) and crash.piece == "lamp" and "Minor Collision" in crash.rules
    assert 'nearest obstacle, lamp (2.5" away)' in crash.rules
    assert after.model("car").pose == into  # it said moved into the lamp, and the car stayed where it was
    assert after.model("car").wounds == 2 and after.model("car").status == RIDING
    [critical] = [e for e in events if "SW-CRIT" in e.clauses]
    assert critical.rules.startswith("Critical Hit, 2d6 2+1 = 3: Guidance/Traction") and "Handling -2" in critical.rules
    assert after.model("car").conditions == (TRACTION_HIT,) and engine.handling(after.model("car")) == -2


def test_SW_CRIT_locomotion_hits_take_top_speed_to_60_percent_and_handling_stops_at_minus_4(chase):
    """Clause: SW-CRIT. "Locomotion: ... Top Speed is reduced by 10% each time this occurs (to a
    minimum of 60% Top Speed)"; "Guidance/Traction: ... Reduce Handling by one each time this
    occurs (to a maximum penalty of -4)". A vehicle's Top Speed on the table is its 24" drive:
    one hit 21.6", two 19.2", five or more 14.4"; a drive past it is refused."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats()})
    model = state.model("car")
    assert [engine.top_speed_in(model.but(conditions=(LOCOMOTION_HIT,) * n)) for n in (0, 1, 2, 5, 9)] == \
        [24.0, 21.6, 19.2, 14.4, 14.4]
    slowed = state.with_model(model.but(conditions=(LOCOMOTION_HIT,)))
    with pytest.raises(IllegalPlanError, match=r'22" is over the 21.6" it drives.*SW-CRIT'):
        engine.check(slowed, Action.ride("car", "drive: straight 22"))
    engine.check(slowed, Action.ride("car", "drive: straight 21"))
    assert engine.handling(model.but(wounds=1, conditions=(TRACTION_HIT,) * 3)) == -4


def test_SW_CRIT_SW_RAM_a_slowed_top_speed_is_rounded_down_to_a_tenth_of_an_mph(chase):
    """Clauses: SW-CRIT, SW-RAM. A Locomotion hit takes 10% off the Top Speed the ram dice go by,
    rounded down to 0.1 MPH (docs/mutation.md: the rounding's mutants survived). Worked by hand:
    97.5 MPH with one hit is 97.5 x 0.9 = 87.75 -> 87.7 (not 87.8, a rounding to the nearest);
    111 MPH with three hits is 111 x 0.7 = 77.7 exactly, though 1 - 3 x 0.1 is 0.6999999999999999
    in floating point (111 x it x 10 = 776.9999999999999, which a plain floor takes to 77.6)."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats(top_speed_mph=97.5),
                                        "van": VehicleStats(top_speed_mph=111)})
    assert engine.top_speed_mph(state.model("car").but(conditions=(LOCOMOTION_HIT,))) == 87.7
    van = vehicle("van", "law")
    assert engine.top_speed_mph(van.but(conditions=(LOCOMOTION_HIT,) * 3)) == 77.7
    assert engine.top_speed_mph(van) == 111.0


def test_SW_CRIT_a_glitch_rolls_a_critical_hit_and_a_weapon_hit_without_a_weapon_leaves_nothing(chase):
    """Clause: SW-CRIT. "6-8 Chassis: The vehicle suffers a hit in the body with no special
    effects"; these vehicles carry no weapon ("If there is no weapon, this is a Chassis hit
    instead", 11). A Glitch (Out of Control 12) "suffers a Critical Hit": 2d6 5+6 = 11, nothing kept."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats()})
    after, events = drive(engine, state, "car", "drive: straight 16",
                          lambda _: reading("car", straight_ride(car, 16.0)), ScriptedDice(1, 1, 6, 6, 5, 6))
    [critical] = [e for e in events if "SW-CRIT" in e.clauses]
    assert "Glitch" in next(e for e in events if "SW-VEH-2" in e.clauses).rules
    assert critical.rules.startswith("Critical Hit, 2d6 5+6 = 11: Weapon") and after.model("car").conditions == ()


def test_SW_VEH_2_a_major_collision_d4_wounds_wreck_the_car(chase):
    """Clauses: SW-VEH-2, SW-DMG, SW-CHASE, SW-CRIT. "2 Major Collision: ... It takes d4 Wounds";
    "Vehicles take three Wounds before they're Wrecked"; "A wrecked land vehicle can't move". 2d6
    1+1, d4 4: four Wounds on a Normal car: Wrecked, left on the table as a wreck, the runners
    score; the wreck rolls no Critical Hit (the dice run out if it did)."""
    car, van = vehicle("car", "law"), vehicle("van", "runners", 30.0, 30.0)
    engine, state = game(chase, [car, van], {"car": VehicleStats(), "van": VehicleStats(flees=True)})
    after, events = drive(engine, state, "car", "drive: straight 16",
                          lambda _: reading("car", straight_ride(car, 16.0)), ScriptedDice(1, 1, 1, 1, 4))
    assert after.model("car").status == OUT and [w.model_id for w in after.wrecks] == ["car"]
    assert after.score == {"law": 0, "runners": 1}
    assert any("Wrecked" in e.rules and "SW-DMG" in e.clauses for e in events)
    assert not any("SW-CRIT" in e.clauses for e in events)
    with pytest.raises(IllegalPlanError, match="can.t move.*SW-DMG"):
        engine.check(after, Action.ride("car", "drive: straight 2"))


# -- SW-RAM and SW-DMG -------------------------------------------------------------------------

def test_SW_RAM_and_SW_DMG_a_ram_damages_both_by_scale_toughness_and_top_speed(chase):
    """Clauses: SW-RAM, SW-DMG. RAM: "*both* participants cause the following damage to the other:
    Scale ... Normal (2d6) ... Toughness: +d6 if the vehicle's Toughness is higher than his foe's;
    +2d6 if Toughness is twice as high." DAMAGE: "if damage equals or exceeds their Toughness ...
    the driver must make a maneuvering roll or go Out of Control"; "Each raise ... causes a Wound".
    The Toughness 12 cruiser, Top Speed 55 MPH (under 60: no speed dice), drives 10" and runs into
    the Toughness 5 van at 13 m/s (29 MPH measured, a fact only): 4d6
    3+3+2+1 = 9 against 5: one raise, a Wound; the van's roll 1 and wild 3 at Handling -1 fails:
    Out of Control, 2d6 2+1 = 3, a Minor Collision into the cruiser: a second Wound. The van's
    2d6 6+6 = 12 equal the cruiser's Toughness: no Wound, a roll (4 and 2) it keeps control with.
    SW-CRIT: "Each raise ... causes a Wound and one roll on the Vehicle Critical Hits table": 4+1 =
    5, Locomotion (Top Speed 21.6"); the Minor Collision's "Critical Hit": 3+3 = 6, Chassis."""
    law, van = vehicle("law", "law"), vehicle("van", "runners", 19.0, 10.0)
    stats = {"law": VehicleStats(toughness=12, top_speed_mph=55), "van": VehicleStats(toughness=5, flees=True)}
    engine, state = game(chase, [law, van], stats)
    ride = straight_ride(law, 8.0)
    ram = Impact("law", "contact", "van", "miniature", 13.0, t_s=1.5)
    after, events = drive(engine, state, "law", "drive: straight 10",
                          lambda _: RideReading(ride, RiddenMove("law", 8.0), (ram,)),
                          ScriptedDice(3, 3, 2, 1, 6, 6, 4, 1, 1, 3, 2, 1, 3, 3, 4, 2))
    [rammed] = [e for e in events if "SW-RAM" in e.clauses]
    assert (rammed.figures["attacker_d6"], rammed.figures["defender_d6"]) == (4, 2)
    assert after.model("van").wounds == 1 and after.model("law").wounds == 3
    crash = next(e for e in events if "SW-VEH-2" in e.clauses)
    assert crash.piece == "law" and crash.clauses == ("SW-DMG", "SW-VEH-2")
    kept = [e for e in events if e.model == "law" and e.figures.get("outcome") == "success"]
    assert kept and "keeps control" in kept[0].rules
    assert [e.figures["hit"] for e in events if "SW-CRIT" in e.clauses] == ["locomotion", "none"]
    assert after.model("van").conditions == (LOCOMOTION_HIT,) and engine.top_speed_in(after.model("van")) == 21.6


def test_SW_RAM_a_drive_into_a_vehicle_of_its_own_side_is_no_ram(chase):
    """Clause: SW-RAM. "RAM (Action): An attacker can Ram a defender": a rival. Issue 46: on the
    car chase (demo --seed 0) the patrol cruiser's 12" drive ran into the back of its own
    interceptor, and both rolled ram damage on each other (4d6 and 3d6). A drive that meets a
    vehicle of its own side stops against it: no die is rolled (ScriptedDice() fails on any), no
    damage, and the event says why."""
    law, mate = vehicle("law", "law"), vehicle("mate", "law", 19.0, 10.0)
    engine, state = game(chase, [law, mate], {"law": VehicleStats(toughness=12, top_speed_mph=110),
                                              "mate": VehicleStats(toughness=10, top_speed_mph=140)})
    bump = Impact("law", "contact", "mate", "miniature", 11.0, t_s=1.5)
    after, events = drive(engine, state, "law", "drive: straight 12",
                          lambda _: RideReading(straight_ride(law, 6.0), RiddenMove("law", 6.0), (bump,)),
                          ScriptedDice())
    assert not [e for e in events if e.kind in ("crash", "attack")]
    [stopped] = [e for e in events if "SW-RAM" in e.clauses]
    assert stopped.rules == "stops against mate, a vehicle of its own side: no ram" and stopped.piece == "mate"
    assert after.model("law").wounds == after.model("mate").wounds == 3
    assert after.model("law").pose.x == pytest.approx(16.0)  # where the ride stood it, touching its mate


def test_SW_DMG_damage_under_the_toughness_does_nothing(chase):
    """Clause: SW-DMG. Damage below the Toughness: no Wound and no roll (no die is left to roll).
    The rammer's Top Speed, 50 MPH, adds no speed dice (SW-RAM): 2d6 each."""
    law, van = vehicle("law", "law"), vehicle("van", "runners", 19.0, 10.0)
    engine, state = game(chase, [law, van], {"law": VehicleStats(toughness=8, top_speed_mph=50),
                                             "van": VehicleStats(toughness=8)})
    ram = Impact("law", "contact", "van", "miniature", 10.0, t_s=1.0)
    after, events = drive(engine, state, "law", "drive: straight 10",
                          lambda _: RideReading(straight_ride(law, 8.0), RiddenMove("law", 8.0), (ram,)),
                          ScriptedDice(1, 2, 3, 4))
    assert [e.figures.get("damage") for e in events if e.kind == "attack"] == [3, 7]
    assert after.model("van").wounds == 3 and after.model("law").wounds == 3


# -- SW-TURN and SW-CHASE ----------------------------------------------------------------------

def test_SW_TURN_the_higher_die_activates_first_ties_rolled_again_then_sides_alternate(chase):
    """Clause: SW-TURN. Law 4, runners 4: rolled again; 2 v 5: the runners first; then one vehicle
    each, a side with none left letting the other go on."""
    engine, state = game(chase, [vehicle("a", "law"), vehicle("b", "runners")], {"a": VehicleStats(),
                                                                                 "b": VehicleStats()})
    start = engine.start_turn(state, ScriptedDice(4, 4, 2, 5), None)
    assert start.rolls == ((4, 4), (2, 5)) and start.first == "runners"
    assert engine.activation_order(state, "runners", {"law": ["a", "c", "d"], "runners": ["b"]}) == ["b", "a", "c", "d"]


def test_SW_CHASE_off_an_open_edge_a_runner_gets_away_and_the_chase_ends(chase):
    """Clause: SW-CHASE. "A chase ends when one side gets away ... or is forced to stop." The van
    (flees) drives off the open east edge: it got away, the runners score 1 and, no fleeing
    vehicle left, the game is over; the runners win. A pursuer off the table leaves the chase."""
    law, van = vehicle("law", "law"), vehicle("van", "runners", 40.0, 10.0)
    engine, state = game(chase, [law, van], {"law": VehicleStats(), "van": VehicleStats(flees=True)})
    assert engine.game_over(state) == ""
    off = straight_ride(van, 10.0, edge="east", edge_kind="open")
    after, events = drive(engine, state, "van", "drive: straight 10", lambda _: reading("van", off), ScriptedDice())
    assert after.model("van").status == ESCAPED and after.score == {"law": 0, "runners": 1}
    assert any("gets away" in e.rules and e.clauses == ("SW-CHASE",) for e in events)
    assert engine.game_over(after) == "no fleeing vehicle is left on the table" and engine.winner(after) == "runners"
    left, _ = drive(engine, state, "law", "drive: straight 10",
                    lambda _: reading("law", straight_ride(law, 10.0, edge="east", edge_kind="open")),
                    ScriptedDice())
    assert left.model("law").status == ESCAPED and left.score == {"law": 0, "runners": 0}
    assert engine.game_over(left) == "law has no vehicle in play" and engine.winner(left) == ""


def test_the_chase_keeps_the_one_state(chase):
    """The engine's state is the one game state: activation resets the drive, JSON round-trips."""
    engine, state = game(chase, [vehicle("a", "law")], {"a": VehicleStats()})
    initial = engine.initial_state(state)
    assert initial.mission == "getaway" and initial.model("a").wounds == 3
    assert State.from_json(initial.to_json()) == initial
    checked = engine.check(initial, Action(ACTIVATE, "a"))
    assert checked.kind == ACTIVATE and engine.parse_action("a", "drive: straight 3").kind == MOVE


def test_pose_along_a_ride():
    """Where a ride had come 12" over the ground (a failed roll leaves the vehicle there)."""
    rows = np.array([[0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 10.0, 0.0, 0.0, 0.0], [2.0, 20.0, 0.0, 0.0, 0.0]])
    pose, t = pose_along(rows, 12.0)
    assert (pose.x, t) == (pytest.approx(12.0), pytest.approx(1.2))
    assert pose_along(rows, 50.0)[0].x == 20.0


def test_SW_VEH_1_a_vehicle_that_runs_into_a_wall_stands_back_from_it(chase):
    """Clause: SW-VEH-1. "Vehicles can move up to 12" ... without having to ... worry about crashing
    into obstacles": a drive a wall stops costs nothing, and (rules data driving.back_from_wall_in)
    the vehicle stands 1" back along the way it came, so its next drive can turn away."""
    from entropy3d.core.facts import Contact

    car = vehicle("car", "law")
    wall = Contact("shops", "building", 8.0, 1.5, 0.0, 0.0, (18.0, 10.0, 0.0))
    after, [event] = drive(engine := chase.engine({"car": VehicleStats()}),
                           State(1, "getaway", {"car": car}, score={"law": 0}), "car", "drive: straight 10",
                           lambda _: reading("car", straight_ride(car, 8.0, contacts=(wall,))), ScriptedDice())
    assert engine.rules.driving.back_from_wall_in == 1.0
    assert "no maneuvering roll" in event.rules and after.model("car").pose.x == pytest.approx(17.0)


def test_an_entropy_city_bike_does_not_take_a_drive_plan():
    """Clause: EC-MOVE-1. A `drive:` plan is the chase's; Entropy City's planner refuses it and
    names a bike's plan (a speed) instead of riding it at speed 0."""
    from entropy3d.scene.rulesfile import load_ruleset
    from entropy3d.systems.entropy_city.planner import plan_move

    with pytest.raises(IllegalPlanError, match="s2: straight 6.*EC-MOVE-1"):
        plan_move("drive: straight 4", Pose(10, 10, 0), "cruiser", 1, load_ruleset())


def test_SW_VEH_2_a_critical_failure_is_a_failure_it_moves_only_12_inches(chase):
    """Clauses: SW-VEH-1, SW-VEH-2, SW-CHASE. "Failure means the vehicle moves only 12". A
    Critical Failure means the vehicle goes Out of Control": a Critical Failure is a failure, so
    the car stands 12" along its 16" ride (x=22, not x=26 where the ride ended), then the table:
    2d6 3+4 = 7, "Distracted", no collision, so it is not moved into the nearest obstacle. A
    fleeing van whose 16" ride crossed the open east edge does not get away on a Critical
    Failure (it stood 12" along, on the table), as on a plain failure."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats()})
    after, events = drive(engine, state, "car", "drive: straight 16",
                          lambda _: reading("car", straight_ride(car, 16.0), nearest_obstacle="lamp",
                                            nearest_obstacle_in=2.5, nearest_obstacle_pose=Pose(27.0, 12.0, 0.0)),
                          ScriptedDice(1, 1, 3, 4))
    assert events[0].figures["outcome"] == "critical failure"
    assert events[0].rules.endswith('critical failure: it moves only 12" and goes Out of Control')
    assert any("Distracted" in e.rules for e in events)
    assert after.model("car").pose.x == pytest.approx(10.0 + engine.rules.tabletop.free_move_in)
    assert after.model("car").pose.y == car.pose.y
    van = vehicle("van", "runners")
    engine, state = game(chase, [van], {"van": VehicleStats(flees=True)})
    over_the_edge = straight_ride(van, 16.0, edge="east", edge_kind="open")
    after, events = drive(engine, state, "van", "drive: straight 16", lambda _: reading("van", over_the_edge),
                          ScriptedDice(1, 1, 3, 4))
    assert after.model("van").in_play and after.model("van").pose.x == pytest.approx(22.0)
    assert after.score == {"runners": 0} and not any("SW-CHASE" in e.clauses for e in events)


def test_SW_VEH_1_the_roll_is_owed_for_the_distance_declared_when_a_wall_stops_the_ride_sooner(chase):
    """Clause: SW-VEH-1. "If a driver wants to go faster, up to 24" per turn ... he ... must make a
    maneuvering roll": a 16" drive that shops' wall stops 8" along still rolls for the 16" the
    driver declared. d6 5 and wild 2 pass TN 4; 2 and 3 fail ("moves only 12"): it stopped
    sooner, so either way it stands 1" back from the wall (x=17, driving.back_from_wall_in)."""
    from entropy3d.core.facts import Contact

    car = vehicle("car", "law")
    wall = Contact("shops", "building", 8.0, 1.5, 0.0, 0.0, (18.0, 10.0, 0.0))
    engine, state = game(chase, [car], {"car": VehicleStats()})
    stopped = straight_ride(car, 8.0, contacts=(wall,))
    for dice, outcome in (((5, 2), "success"), ((2, 3), "failure")):
        after, events = drive(engine, state, "car", "drive: straight 16", lambda _: reading("car", stopped),
                              ScriptedDice(*dice))
        assert events[0].clauses == ("SW-VEH-1",) and events[0].figures.get("outcome") == outcome
        assert events[0].found == 'rode 8.0" of the 16" declared'
        assert after.model("car").pose.x == pytest.approx(18.0 - engine.rules.driving.back_from_wall_in)


def test_SW_RAM_speed_dice_from_the_attackers_top_speed_not_the_impact_speed(chase):
    """Clauses: SW-RAM, SW-CRIT. "Speed: +d6 to both sides if the attacker's Top Speed is between
    60 and 120 MPH; +2d6 if it's over 120 MPH"; "Locomotion: ... Top Speed is reduced by 10% each
    time". An interceptor of Top Speed 130 MPH rams a car at 13 m/s (29 MPH measured, kept in the
    event as a fact): 2d6 + 2d6 to each side, 4d6 each (all 1s: 4 damage, under Toughness 8). With
    one Locomotion hit its Top Speed is 117 MPH: +d6, 3d6 each."""
    law, car = vehicle("law", "law"), vehicle("car", "runners", 19.0, 10.0)
    stats = {"law": VehicleStats(toughness=8, top_speed_mph=130), "car": VehicleStats(toughness=8)}
    ram = Impact("law", "contact", "car", "miniature", 13.0, t_s=1.0)
    for conditions, top, dice in (((), 130.0, 4), ((LOCOMOTION_HIT,), 117.0, 3)):
        engine, state = game(chase, [law.but(conditions=conditions), car], stats)
        after, events = drive(engine, state, "law", "drive: straight 10",
                              lambda _: RideReading(straight_ride(law, 8.0), RiddenMove("law", 8.0), (ram,)),
                              ScriptedDice(*[1] * (2 * dice)))
        [rammed] = [e for e in events if "SW-RAM" in e.clauses]
        assert (rammed.figures["attacker_d6"], rammed.figures["defender_d6"]) == (dice, dice)
        assert rammed.figures["top_speed_mph"] == top and rammed.figures["mph"] == pytest.approx(29.08, abs=0.01)
        assert f"Top Speed of {top:g} MPH" in rammed.rules and "at 29 MPH" in rammed.found


def test_SW_VEH_2_a_critical_failure_collides_with_the_obstacle_nearest_where_it_stopped(chase):
    """Clauses: SW-VEH-1, SW-VEH-2. "Failure means the vehicle moves only 12"" and "If that
    indicates a collision, the GM can move it into the nearest obstacle": the car stands 12" along
    its 16" ride (x=22), so the obstacle is the one nearest to there, the hydrant 1.5" away (the
    table's reading of the ride as far as the engine's ride_stop_in), not the lamp nearest the
    ride's end. Both dice 1, then 2d6 1+2 = 3, a Minor Collision; its Critical Hit 2d6 3+3 = 6."""
    car = vehicle("car", "law")
    engine, state = game(chase, [car], {"car": VehicleStats()})
    assert engine.ride_stop_in == engine.rules.tabletop.free_move_in
    hydrant = Pose(22.5, 11.5, 0.0)  # where the table says the car stands moved into the hydrant
    ride = straight_ride(car, 16.0)

    def read(_):
        return RideReading(ride, RiddenMove("car", 16.0, nearest_obstacle="lamp", nearest_obstacle_in=2.5,
                                            nearest_obstacle_pose=Pose(27.0, 12.0, 0.0)),
                           stopped=RiddenMove("car", 12.0, nearest_obstacle="hydrant", nearest_obstacle_in=1.5,
                                              nearest_obstacle_pose=hydrant))

    after, events = drive(engine, state, "car", "drive: straight 16", read, ScriptedDice(1, 1, 1, 2, 3, 3))
    crash = next(e for e in events if e.kind == "crash")
    assert crash.piece == "hydrant" and 'nearest obstacle, hydrant (1.5" away)' in crash.rules
    assert after.model("car").pose == hydrant and after.model("car").wounds == 2

