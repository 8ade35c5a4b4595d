"""The reference cards' rulings count in the game played on their table (game/judging.py
JudgedEngine, issues 44 and 46): a ride's damage costs wounds, a level climbed slows the next move,
through the one path every caller takes; with `counting: null` the cards only advise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from entropy3d.errors import IllegalPlanError
from entropy3d.game.judging import JudgedEngine, RideJudge
from entropy3d.game.session import make_producer, play_game
from entropy3d.game.step import activation
from entropy3d.rules.engine import EntropyCityEngine
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe

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
    level 1, so its own ruling, Move +1 for the level come down, is all the next move gets:
    +2.934"."""
    engine = engine_of(yard)
    steps = ride(yard, engine, start(yard), "climber", ["s3: straight 16"])
    climbed = steps[-1].after
    assert climbed.model("climber").move_change_in == pytest.approx(-5.869, abs=0.001)
    with pytest.raises(IllegalPlanError, match=r"too long: 12\" is over the maximum 11\"") as refused:
        ride(yard, engine, climbed, "climber", ["s3: straight 12"])
    assert refused.value.clause == "EC-SPD-2"
    steps = ride(yard, engine, climbed, "climber", ["s3: straight 11"])
    assert steps[-1].after.model("climber").move_change_in == pytest.approx(2.934, abs=0.001)


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
