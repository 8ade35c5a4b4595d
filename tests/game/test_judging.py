"""The reference cards' rulings count in the game played on their table (game/judging.py
JudgedEngine, issues 44 and 46): a ride's damage costs wounds, a level climbed slows the next move,
through the one path every caller takes; with `counting: null` the cards only advise."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from entropy3d.errors import IllegalPlanError
from entropy3d.game.judging import JudgedEngine, RideJudge
from entropy3d.game.session import make_producer, play_game
from entropy3d.game.step import activation
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.engine import EntropyCityEngine

CARD_YARD = Path(__file__).parents[1] / "data" / "card_yard.yaml"
FALL_SCENE = Path(__file__).parents[2] / "scenes" / "systems" / "rooftop_fall.yaml"


@pytest.fixture(scope="module")
def yard():
    table = load_scene(CARD_YARD)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    rides = make_producer("geometric", table, geometry)
    yield table, geometry, probe, rides
    rides.close()


def engine_of(yard, advise_only: bool = False):
    table, geometry, probe, _ = yard
    judge = RideJudge.of(table, geometry, probe)
    if advise_only:
        judge.system = type(judge.system)(judge.system.rules.model_copy(update={"counting": None}))
    return JudgedEngine(EntropyCityEngine(table.ruleset, probe), judge)


def ride(yard, engine, state, model, plans, seed=1):
    table, geometry, probe, rides = yard
    return activation(engine, state, model, plans, np.random.default_rng(seed), rides, probe)


def start(yard):
    table, geometry, _, _ = yard
    return table.initial_state(geometry.surface_height)


def test_REF_COLL_riding_into_a_parked_bike_damages_both_and_the_parked_rider_loses_two_wounds(yard):
    """Clauses: REF-COLL, EC-WOUND. Brick rides at 34.1 kph into Parked, standing still: the card
    "Collision", 3x2 x 3x1 x 10 (metal) = 9x4, "Apply Damage to BOTH objects": 90,000 is 300
    times each 3x2 body, Damaged 2 each (rules/reference_cards.yaml counting: one per full
    tenfold, a wound each). Parked had 3 wounds (rider_defaults): 1 left, still in play."""
    steps = ride(yard, engine_of(yard), start(yard), "brick", ["s2: straight 10"])
    parked = steps[-1].after.model("parked")
    assert parked.wounds == 1 and parked.in_play
    [applied] = [e for step in steps for e in step.events if e.figures.get("applied") and e.model == "parked"]
    assert applied.figures["wounds_lost"] == 2 and "REF-COLL" in applied.clauses and "EC-WOUND" in applied.clauses


def test_REF_ELEV_a_climb_of_two_levels_holds_the_next_move_to_its_speeds_least(yard):
    """Clause: REF-ELEV. Climber rides up the ramp onto the deck, level 0 to level 2: Move -2,
    20 kph slower, 5.556 m/s x 1.5 s = 8.33 m = 5.869" off the most its next move may ride. A
    trailbike at speed 3 rides 11-16" (rules/entropy_city.yaml speeds): 16 - 5.869 = 10.13", under
    the least, so the most is the least, 11": 12" is refused (EC-SPD-2), 11" rides, and that move
    uses the change up: it rides off the deck's north edge (6" deep) and ends in the air at 2.0",
    its flight coming down on the ground (EC-JUMP-2, EC-JUMP-4: level 0), so its own ruling, Move
    +2 for the two levels come down, is all the next move gets: +5.869" (issue 46: the cards read
    the mid-air 2.0" as level 1 and gave Move +1, and another +1 at the landing)."""
    engine = engine_of(yard)
    steps = ride(yard, engine, start(yard), "climber", ["s3: straight 16"])
    climbed = steps[-1].after
    assert climbed.model("climber").move_change_in == pytest.approx(-5.869, abs=0.001)
    with pytest.raises(IllegalPlanError, match=r"too long: 12\" is over the maximum 11\"") as refused:
        ride(yard, engine, climbed, "climber", ["s3: straight 12"])
    assert refused.value.clause == "EC-SPD-2"
    steps = ride(yard, engine, climbed, "climber", ["s3: straight 11"])
    assert steps[-1].after.model("climber").move_change_in == pytest.approx(5.869, abs=0.001)


def test_with_counting_null_the_cards_only_advise(yard):
    """rules/reference_cards.yaml `counting: null`: the same rulings are given (REF-COLL's 9x4,
    REF-ELEV's Move -2) and nothing changes: Parked keeps its 3 wounds, Climber's next 16" rides."""
    engine = engine_of(yard, advise_only=True)
    steps = ride(yard, engine, start(yard), "brick", ["s2: straight 10"])
    assert steps[-1].after.model("parked").wounds == 3
    assert any(e.kind == "ruling" and e.figures.get("force") == "9x4" for step in steps for e in step.events)
    assert not any(e.figures.get("applied") for step in steps for e in step.events)
    climbed = ride(yard, engine, start(yard), "climber", ["s3: straight 16"])[-1].after
    assert climbed.model("climber").move_change_in == 0.0
    ride(yard, engine, climbed, "climber", ["s3: straight 16"])


def test_a_game_on_the_cards_table_replays_to_the_byte_with_its_rulings_applied(tmp_path):
    """The judged engine is the game's one resolve: `replay-check` plays the same game again,
    rulings and their wounds included."""
    path = tmp_path / "fall.jsonl"
    replay = play_game(FALL_SCENE, seed=1, turns=1, producer="geometric", replay_path=path)
    applied = [e for a in replay.activations for action in a.actions for e in action.rulings
               if e.figures.get("applied")]
    assert applied, "some ride of the game was ruled on with an effect"
    from entropy3d.cli import app

    result = CliRunner().invoke(app, ["replay-check", str(path)])
    assert result.exit_code == 0, result.output


def fall_game():
    """The rooftop fall table (scenes/systems/rooftop_fall.yaml): the table, its geometry, its
    probe, a geometric producer, the cards' judge and Entropy City's engine judged by them."""
    table = load_scene(FALL_SCENE)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    rides = make_producer("geometric", table, geometry)
    judge = RideJudge.of(table, geometry, probe)
    return table, geometry, probe, rides, judge, JudgedEngine(EntropyCityEngine(table.ruleset, probe), judge)


def test_REF_FALL_REF_ELEV_a_ride_that_ends_in_the_air_is_read_where_its_flight_comes_down():
    """Clauses: REF-FALL, REF-ELEV. Issue 46, scenes/systems/rooftop_fall.yaml: the climber rides
    up the ramp (s1) and off its side at speed 2 (s2): Entropy City keeps it in the air at the
    end of the move (EC-JUMP-2, its pose 0.74" up with the geometric producer, 1.30" with the
    physics in the demo of seed 0) and says where it lands, the 0.00" level (EC-JUMP-4). The
    cards read the fall from the flight's top (left the ramp 2.04" up, rose 0.33") down to that
    level: "Falling is a Collision", 2.37" x 1.42 m = 3.37 m, the 3 m row, Speed 3x1: 3x2 x 3x1 x
    3 (soil) = 2x4 (the old reading stopped the fall at the mid-air 0.74": 2.3 m, 1x1, 9x3).
    Its level is the ground's before and after, so no Move change; the old reading made the
    physics' 1.30" a climb of one level (Move -1) and the landing in the next move a descent
    (Move +1)."""
    table, geometry, probe, rides, judge, engine = fall_game()
    steps = activation(engine, table.initial_state(geometry.surface_height), "climber",
                       ["s1: right tight 1, straight 4", "s2: straight 8, right medium 5"],
                       np.random.default_rng(1), rides, probe)
    off = next(step for step in steps if step.ridden and step.facts.flights)
    assert off.after.model("climber").air is not None
    [flight] = off.facts.flights
    [fall] = [e for e in off.events if e.kind == "ruling" and e.figures.get("judged") == "landing"]
    top = flight.launch_z + flight.rise_in
    assert fall.figures["drop_m"] == pytest.approx(top * 1.42, abs=0.01)
    assert (fall.figures["speed"], fall.figures["force"]) == ("3x1", "2x4")
    assert not [e for e in off.events if "REF-ELEV" in e.clauses]
    # the physics' mid-air height in the demo (1.30": round(1.30 / 2.1) = level 1) reads no climb
    high = dataclasses.replace(off, after=off.after.with_model(off.after.model("climber").but(
        pose=dataclasses.replace(off.after.model("climber").pose, z=1.30))))
    assert not [e for e in judge.events("climber", [high], np.random.default_rng(1)) if "REF-ELEV" in e.clauses]
    landed = activation(engine, high.after, "climber", ["s2: straight 2, right medium 5"],
                        np.random.default_rng(1), rides, probe)
    rides.close()
    assert any(e.kind == "landing" for step in landed for e in step.events)
    assert not [e for step in landed for e in step.events if "REF-ELEV" in e.clauses]


def test_REF_ELEV_a_flight_lasting_a_whole_move_reads_no_level_changed():
    """Clause: REF-ELEV (and Entropy City's EC-JUMP-2, EC-JUMP-4). Issue 46, scenes/systems/
    rooftop_fall.yaml: the spotter turns off the bridge (4.2" up) at speed 2, whose air time lands
    13" from take-off (EC-JUMP-4); it left 1.5" into a 7" move, so 7.5" are still to fly, and its
    next move, 7" (the least at speed 2), ends 0.5" short of the landing: in the air at both ends,
    with no jump and no landing in it. Its "still to fly" names the level it comes down on, the
    yard's 0.00", so the cards read that move at the yard's level before and after: no level
    changed, no Move ruling. (The old reading took the physics' mid-air heights, 3.2" when the move
    began and 1.1" when it ended, as levels 2 and 1: "came down 1 level(s): Move +1", a second Move
    bonus for the one fall the jump's move was already given Move +2 for.)"""
    table, geometry, probe, rides, judge, engine = fall_game()
    steps = activation(engine, table.initial_state(geometry.surface_height), "spotter",
                       ["s2: right tight 3, straight 4", "s2: straight 7"], np.random.default_rng(1), rides, probe)
    rides.close()
    off, flying = [step for step in steps if step.ridden]
    assert [e.figures["move"] for e in off.events if e.figures.get("judged") == "move"] == [2]
    assert off.after.model("spotter").air is not None and flying.after.model("spotter").air is not None
    assert not [e for e in flying.events if e.kind == "landing" or e.figures.get("air_time")]

    def mid_air(state, z_in):
        held = state.model("spotter")
        return state.with_model(held.but(pose=dataclasses.replace(held.pose, z=z_in)))

    physics_heights = dataclasses.replace(flying, before=mid_air(flying.before, 3.2), after=mid_air(flying.after, 1.1))
    assert not [e for e in judge.events("spotter", [physics_heights], np.random.default_rng(1))
                if "REF-ELEV" in e.clauses]
    [still] = [e for e in flying.events if e.kind == "jump" and "carry_in" in e.figures]
    assert still.figures["landing_level_in"] == 0.0
