"""Chase & vehicle rules (seed 001): vehicles on the tabletop (SW-VEH-1), Out of Control into the
nearest obstacle (SW-VEH-2) and ram damage (SW-RAM), hand-worked on plain ride facts with
scripted dice, then on the bundled car chase (scenes/systems/car_chase.yaml) through ``act``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.scene.systemrules import load_system
from entropy3d.systems.chase_vehicles import VehicleStats
from entropy3d.systems.readings import Impact, RiddenMove

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "car_chase.yaml"


class ScriptedDice:
    """A generator stand-in that deals the given die faces in order (``integers(1, sides + 1)``)."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def integers(self, low: int, high: int) -> int:
        face = self.faces.pop(0)
        assert low <= face < high, f"scripted face {face} is not on a d{high - 1}"
        return face


@pytest.fixture(scope="module")
def chase():
    return load_system("chase_vehicles")


STRAIGHT = tuple((float(d), 0.0) for d in range(0, 17))
CAR = VehicleStats(driving=8)


def test_SW_VEH_1_twelve_inches_move_freely(chase):
    """Clause: SW-VEH-1. "Vehicles can move up to 12" on the tabletop ... without having to make
    maneuvering rolls": no die is rolled (the scripted dice are empty)."""
    [event] = chase.judge_moves([RiddenMove("car", 12.0, headings=STRAIGHT)], {"car": CAR}, ScriptedDice())
    assert "no maneuvering roll" in event.rules and event.clauses == ("SW-VEH-1",)


def test_SW_VEH_1_a_free_move_is_filmed_as_the_drive_it_was():
    """Clause: SW-VEH-1. The car chase's film said "Rammer (Highway Patrol) turns on the spot" over
    a 12" straight drive (its move event carried no length); the move's event says how far it
    drove, and the film's caption says "drives 12"" (a vehicle drives, a bike rides)."""
    from entropy3d.systems.words import Names
    from entropy3d.video.cut import caption

    chase = load_system("chase_vehicles")
    [event] = chase.judge_moves([RiddenMove("rammer", 12.0, headings=STRAIGHT)], {"rammer": CAR}, ScriptedDice())
    assert event.figures == {"length_in": 12.0, "driven": True}
    names = Names(riders={"rammer": "Rammer"}, gangs={"police": "Highway Patrol"}, gang_of={"rammer": "police"})
    assert caption([event], names).text == 'Rammer (Highway Patrol) drives 12"'


def test_SW_VEH_1_penalty_for_difficult_ground_tight_turns_and_hazards(chase):
    """Clause: SW-VEH-1. "The GM should assign a penalty (-1 to -4) if the move takes the vehicle
    through Difficult Ground, tight turns, or hazards." 3" of gravel: -1; 60° within 2": -1 more;
    through a crate: -1 more (-3); 7" of gravel (past 6"): -2 for the ground, -4 in all, never past."""
    turning = ((0.0, 0.0), (1.0, 0.0), (3.0, 60.0), (5.0, 60.0))
    assert chase.penalty(RiddenMove("car", 16.0, (("gravel", 3.0), ("asphalt", 13.0)), STRAIGHT))[0] == -1
    assert chase.penalty(RiddenMove("car", 16.0, (("gravel", 3.0),), turning))[0] == -2
    assert chase.penalty(RiddenMove("car", 16.0, (("gravel", 3.0),), turning, scenery=("crate",)))[0] == -3
    assert chase.penalty(RiddenMove("car", 16.0, (("gravel", 7.0),), turning, scenery=("crate",)))[0] == -4
    assert chase.penalty(RiddenMove("car", 16.0, (("asphalt", 16.0),), STRAIGHT))[0] == 0


def test_SW_VEH_1_a_roll_past_twelve_inches(chase):
    """Clause: SW-VEH-1. "If a driver wants to go faster, up to 24" per turn ... he can do so but
    must make a maneuvering roll ... If the roll is successful, the vehicle ends its move wherever
    the driver wants. Failure means the vehicle moves only 12"." A d8 ace (8, then 3: 11) at -1
    passes TN 4; a 2 and a 3 at -1 (2) fails."""
    move = RiddenMove("car", 16.0, (("gravel", 3.0),), STRAIGHT)
    [passed] = chase.judge_moves([move], {"car": CAR}, ScriptedDice(8, 3, 2))
    assert passed.figures == {"penalty": -1, "total": 10, "outcome": "success"} and "move stands" in passed.rules
    [failed] = chase.judge_moves([move], {"car": CAR}, ScriptedDice(2, 3))
    assert failed.figures["outcome"] == "failure" and 'moves only 12"' in failed.rules


def test_SW_VEH_2_critical_failure_out_of_control_into_the_nearest_obstacle(chase):
    """Clause: SW-VEH-2. "A Critical Failure means the vehicle goes Out of Control (page 119). If
    that indicates a collision, the GM can move it into the nearest obstacle". Both dice 1: Out of
    Control; 2d6 1+2 = 3, "Minor Collision": into the table's nearest obstacle, the lamp 2.5" away.
    2d6 3+4 = 7, "Distracted": no collision, no obstacle."""
    move = RiddenMove("car", 16.0, headings=STRAIGHT, nearest_obstacle="lamp", nearest_obstacle_in=2.5)
    roll, crash = chase.judge_moves([move], {"car": CAR}, ScriptedDice(1, 1, 1, 2))
    assert roll.figures["outcome"] == "critical failure"
    assert crash.clauses == ("SW-VEH-2",) and crash.piece == "lamp"
    assert "Minor Collision" in crash.rules and 'nearest obstacle, lamp (2.5" away)' in crash.rules
    _, skid = chase.judge_moves([move], {"car": CAR}, ScriptedDice(1, 1, 3, 4))
    assert skid.piece is None and skid.rules.startswith("Out of Control, 2d6 3+4 = 7: Distracted")


@pytest.mark.parametrize("total,effect", [(2, "Major Collision"), (3, "Minor Collision"), (4, "Minor Collision"),
                                          (5, "Distracted"), (9, "Distracted"), (10, "Vulnerable"),
                                          (11, "Vulnerable"), (12, "Glitch")])
def test_SW_VEH_2_the_out_of_control_table(chase, total, effect):
    """Clause: SW-VEH-2. "2 Major Collision / 3-4 Minor Collision / 5-9 Distracted / 10-11
    Vulnerable / 12 Glitch"; only the collisions move the vehicle into an obstacle."""
    row = chase.out_of_control(total)
    assert row.effect.startswith(effect) and row.collision == (total <= 4)


def test_SW_RAM_scale_toughness_and_speed(chase):
    """Clause: SW-RAM. "Scale: Small (d6), Normal (2d6), Large (3d6), Huge (4d6), and Gargantuan
    (5d6) ... Toughness: +d6 if the vehicle's Toughness is higher than his foe's; +2d6 if Toughness
    is twice as high. Speed: +d6 to both sides if the attacker's Top Speed is between 60 and 120 MPH;
    +2d6 if it's over 120 MPH." A Large, Toughness 12 truck rams a Normal, Toughness 5 car: 3+2
    and 2; at 70 MPH one more to both; at 130 MPH two more; the car's Toughness 7 gives +1 only."""
    truck, car = VehicleStats(scale="large", toughness=12), VehicleStats(scale="normal", toughness=5)
    assert chase.ram_dice(truck, car, 30.0) == (5, 2)
    assert chase.ram_dice(truck, car, 70.0) == (6, 3)
    assert chase.ram_dice(truck, car, 130.0) == (7, 4)
    assert chase.ram_dice(truck, VehicleStats(scale="normal", toughness=7), 30.0) == (4, 2)
    assert chase.ram_dice(car, truck, 30.0) == (2, 5)


def test_SW_RAM_speed_dice_from_the_top_speed_the_impact_speed_a_fact(chase):
    """Clause: SW-RAM. "+d6 to both sides if the attacker's Top Speed is between 60 and 120 MPH;
    +2d6 if it's over 120 MPH": the attacker's Top Speed (stats ``top_speed_mph``; none given: the
    rules data's default_top_speed_mph, 100) sets the dice, not the 31.3 m/s (70 MPH) the ride hit
    at, which the event keeps as a fact. 60 and 120 are in the first band, 120.1 is over 120; a
    ride into scenery is no ram. Small v small: 1d6 each before the speed dice."""
    stats = {"a": VehicleStats(scale="small", toughness=6, top_speed_mph=130),
             "b": VehicleStats(scale="small", toughness=6)}
    [ram] = chase.judge_impacts([Impact("a", "contact", "b", "miniature", 70 / 2.2369362920544),
                                 Impact("a", "contact", "wall", "concrete", 20.0)], stats)
    assert (ram.figures["attacker_d6"], ram.figures["defender_d6"]) == (3, 3)
    assert ram.figures["mph"] == pytest.approx(70.0) and ram.figures["top_speed_mph"] == 130
    [by_b] = chase.judge_impacts([Impact("b", "contact", "a", "miniature", 5.0)], stats)
    assert chase.top_speed_mph(stats["b"]) == chase.rules.ram.default_top_speed_mph == 100
    assert (by_b.figures["attacker_d6"], by_b.figures["defender_d6"]) == (2, 2)
    small = VehicleStats(scale="small", toughness=6)
    assert [chase.ram_dice(small, small, mph)[0] for mph in (59.9, 60.0, 120.0, 120.1)] == [1, 2, 2, 3]


def test_ridden_move_turn_within_a_stretch():
    """How sharply a ride turned: the largest heading change over any 3" of it."""
    move = RiddenMove("m", 10.0, headings=((0.0, 0.0), (2.0, 30.0), (4.0, 80.0), (9.0, 90.0)))
    assert move.turned_deg(3.0) == pytest.approx(50.0)
    assert move.turned_deg(4.0) == pytest.approx(80.0)


def test_ride_cut_reads_a_ride_as_far_as_a_rule_stops_it():
    """Clause: SW-VEH-1 ("Failure means the vehicle moves only 12""). A 16" ride along +x, a row an
    inch, read as far as 12.5": it ends 12.5" along (between two rows), ran into nothing and is
    not completed; a 10" ride is never cut at 12.5"."""
    import numpy as np

    from entropy3d.core.facts import Contact, Facts
    from entropy3d.geometry import Pose
    from entropy3d.table_readings import ride_cut

    xs = np.arange(0.0, 16.5, 1.0)
    rows = np.column_stack([xs / 16.0, 3.0 + xs, np.full_like(xs, 4.0), np.zeros_like(xs), np.zeros_like(xs)])
    wall = Contact("shops", "building", 16.0, 1.0, 0.0, 0.0, (19.0, 4.0, 0.0))
    facts = Facts("geometric", 16.0, 16.0, True, rows, contacts=(wall,), end_pose=Pose(19.0, 4.0, 0.0))
    cut = ride_cut(facts, 12.5)
    assert cut.end_pose.xy == pytest.approx([15.5, 4.0]) and cut.trajectory[-1, 1] == pytest.approx(15.5)
    assert len(cut.trajectory) == 14 and cut.progress_in == 12.5 and not cut.completed and cut.contacts == ()
    assert ride_cut(facts, 16.0) is None
    assert ride_cut(Facts("geometric", 10.0, 10.0, True, rows[:11], end_pose=Pose(13.0, 4.0, 0.0)), 12.5) is None


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_SW_VEH_1_and_2_through_act_on_the_car_chase():
    """Clauses: SW-VEH-1, SW-VEH-2. The interceptor drives 16" down main street (the geometric
    producer rides it): seed 1 passes the roll, seed 11 fails it (it stands 12" along), seed 688
    rolls both 1s, a Critical Failure, so it too stands 12" along (x=15), and 1+3 on the Out of
    Control table: a Minor Collision into the obstacle nearest to there, the street car wreck
    1.5" away (named as a player reads it), not the corner flats nearest the 16" ride's end; a
    Wound."""
    plan = ["act", str(SCENE), "-m", "interceptor", "-a", "drive: straight 16", "--producer", "geometric", "--seed"]
    assert "maneuvering roll at +0" in run(*plan, "1") and "the move stands" in run(*plan, "1")
    failed = run(*plan, "11")
    assert 'it moves only 12"' in failed and "at (15.00, 23.00)" in failed
    crashed = run(*plan, "688")
    assert "critical failure" in crashed and "Minor Collision" in crashed
    # SW-DMG: one Wound taken of three: "2 wounds left" (a chase player reads "wounds 2" as two taken)
    assert 'it moves only 12" and goes Out of Control' in crashed
    assert 'Moved into the nearest obstacle, the street car wreck (1.5" away)' in crashed and "2 wounds left" in crashed


def test_SW_VEH_1_ruins_and_a_tight_turn_through_act():
    """Clause: SW-VEH-1. The runner turns tight off dock street and drives 8" of the collapsed
    corner's ruins (physics): difficult ground (long), a tight turn and a hazard: -4."""
    out = run("act", str(SCENE), "-m", "runner", "-a", "drive: left tight 3, straight 10", "--seed", "2")
    assert "maneuvering roll at -4" in out and "hazards (ruins)" in out


def test_SW_RAM_through_act():
    """Clauses: SW-RAM, SW-DMG. The rammer (Normal, Toughness 12, Top Speed 110 MPH) drives into
    the van (Normal, Toughness 5); the physics measures the impact (slower than 60 MPH at this
    table's scale, told as a fact): 2d6 + 2d6 (twice as tough) + d6 (Top Speed 60-120 MPH) = 5d6
    against 2d6 + d6 = 3d6, then each side's damage against the other's Toughness."""
    out = run("act", str(SCENE), "-m", "rammer", "-a", "drive: straight 14", "--seed", "1")
    assert "ram at a Top Speed of 110 MPH: Rammer deals 5d6, Van deals 3d6" in out and "against Toughness 5" in out
    assert "ran into Van at 30 MPH" in out


def test_SW_VEH_1_activate_and_act_are_one_command_in_the_chase():
    """Clause: SW-VEH-1. One command for any rulebook (issue 44): `activate -p` drives a chase's
    vehicle in the chase's words exactly as `act -a` does; Entropy City's plan is refused by the
    chase's own engine, and Entropy City's riding options are refused by name."""
    runner = CliRunner()
    drive = ["-m", "runner", "--seed", "3", "--producer", "geometric"]
    by_activate = runner.invoke(app, ["activate", str(SCENE), "-p", "drive: straight 12", *drive])
    by_act = runner.invoke(app, ["act", str(SCENE), "-a", "drive: straight 12", *drive])
    assert by_activate.exit_code == by_act.exit_code == 0, by_activate.output
    assert by_activate.output == by_act.output and "drive: straight 12" in by_act.output
    bike_plan = runner.invoke(app, ["activate", str(SCENE), "-m", "rammer", "-p", "s3: straight 14"])
    assert bike_plan.exit_code == 1 and "drive:" in bike_plan.output and "Traceback" not in bike_plan.output
    riding = runner.invoke(app, ["activate", str(SCENE), "-m", "rammer", "-p", "drive: straight 14", "--png", "a.png"])
    assert riding.exit_code == 1 and "--png: Entropy City's riding only" in riding.output


def test_SW_CHASE_act_says_a_runner_off_the_table_got_away(tmp_path):
    """Clause: SW-CHASE. The runner on main street drives 12" east off the open edge: it gets
    away (its side scores), and act's last line says it is off the table, not Out of Action; its
    heading reads 0°, never 360°."""
    models = Path(__file__).parents[3] / "models"
    text = SCENE.read_text(encoding="utf-8").replace("../../models/", f"{models.as_posix()}/")
    text = text.replace("position: [37, 11.25], facing: 0, speed: 2", "position: [40, 24], facing: 0, speed: 2")
    scene = tmp_path / "getaway.yaml"
    scene.write_text(text, encoding="utf-8")
    out = run("act", str(scene), "-m", "runner", "-a", "drive: straight 12", "--seed", "3")  # physics: 359.99...°
    assert "it gets away" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("Runner: off the table,") and "Out of Action" not in last, last
    assert last.endswith("facing 0°"), last


def test_los_all_on_a_chase_says_its_marks_are_entropy_citys():
    """Clause: SW-VEH-1 (the chase decides nothing from sight). `los --all` on the car chase
    draws Entropy City's sight marks (a rider's front half, '*' can shoot at 25%); a chase player
    is told they are Entropy City's and that the chase rules decide nothing from them."""
    out = run("los", str(SCENE), "--all")
    assert ("The marks above are Entropy City's sight rules (EC-LOS, EC-COVER-1); this scene plays Chase & vehicle "
            "rules (system: chase_vehicles): it decides nothing from sight.") in out
    crossroads = run("los", str(SCENE.parents[1] / "crossroads.yaml"), "--all")
    assert "The marks above" not in crossroads


def test_SW_VEH_1_act_says_what_stopped_a_drive_short():
    """Clause: SW-VEH-1 ("without having to ... worry about crashing into obstacles": no rule
    and so no event). The runner's 12" drive east along dock street ends 5.5" along, against the
    jersey barrier; act said only 'rode 5.5"'. The table's fact is told: what it ran into, where."""
    out = run("act", str(SCENE), "-m", "runner", "-a", "drive: straight 12", "--seed", "3", "--producer", "geometric")
    assert 'Runner runs into the dock barrier 5.5" along and stops short of it' in out, out
