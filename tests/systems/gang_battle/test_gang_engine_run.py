"""The gang battle engine's Run for Cover (seed 003) at its edges: the run a Broken fighter may take
is the one it rolled, word for word and clause by clause. Hand-worked cases on a hand-made state,
scripted dice and the fake table of ``test_gang_engine.py``; the rules data is the bundled
``rules/gang_battle.yaml`` (``broken.run_dice: 2``). Written against the survivors of mutmut's
mutants of ``GangEngine._check_run``, ``_roll_run`` and ``_run`` (issue 51)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.transition import Action
from tests.systems.gang_battle.test_gang_engine import Dice, Table, fighter, game

BROKEN, RUN_FOR_COVER = "broken", "run_for_cover"


def refusal(engine, state, action, table) -> tuple[str, str]:
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, action, table)
    return refused.value.clause, refused.value.message


def test_GANG_RUN_only_the_run_rolled_may_be_taken(gang):
    """Clause: GANG-RUN. "Run For Cover Double If Broken ... move 2D6"": the run is the 2D6 rolled
    (3+4 = 7", forced as ``walk: straight 7``); a forced walk of 5" instead, or any forced walk by
    a fighter that rolled no run, is refused under GANG-RUN in the words 'e has no run for cover
    rolled'."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10, conditions=(BROKEN,))]
    engine, state = game(gang, models)
    table = Table()
    rolled, _ = engine.resolve(state, engine.check(state, Action(RUN_FOR_COVER, "e"), table), None, Dice(3, 4))
    assert rolled.model("e").forced_move == "walk: straight 7"
    refused = ("GANG-RUN", "e has no run for cover rolled")
    assert refusal(engine, rolled, Action.forced("e", "walk: straight 5"), table) == refused
    assert refusal(engine, state, Action.forced("e", "walk: straight 7"), table) == refused


@pytest.mark.parametrize("retreating", [False, True])
def test_GANG_RUN_and_GANG_RETREAT_the_walk_away_is_told_to_a_tenth_of_an_inch(gang, retreating):
    """Clauses: GANG-RUN, GANG-RETREAT. A Broken fighter's run for cover (3+4 = 7" rolled) and a
    retreating fighter's walk away (GANG-RETREAT: "moves D6"", 4 rolled; DECISION: the way a Run
    for Cover picks) are the same forced walk, told in their own words: the producer walked 6.46"
    of the 7" (or 3.46" of the 4"), which the event rounds to a tenth: 6.5" (3.5"); found 'walked
    6.5"' by the geometric producer; figures walked, run, retreat (False for the run, True for the
    retreat) and length_in 6.5 (3.5). Afterwards nothing is forced and the fighter is no longer
    marked retreating."""
    inches, condition = (4, "retreating") if retreating else (7, BROKEN)
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10, conditions=(condition,),
                                              forced_move=f"walk: straight {inches}")]
    engine, state = game(gang, models)
    run = engine.check(state, Action.forced("e", f"walk: straight {inches}"), Table())
    end = run.move.end_pose
    walked = inches - 0.54
    facts = Facts("geometric", float(inches), walked, False, np.zeros((0, 5)), end_pose=end)
    after, [event] = engine.resolve(state, run, facts, Dice())
    how, clause, told = ("retreats", "GANG-RETREAT", 3.5) if retreating else ("runs for cover", "GANG-RUN", 6.5)
    assert event == Event("move", "e", f"{how} {told:.1f}\" of its {inches}\"", found=f"walked {told:.1f}\"",
                          producer="geometric", clauses=(clause,),
                          figures={"walked": True, "run": True, "retreat": retreating, "length_in": told})
    runner = after.model("e")
    assert runner.pose == end and runner.forced_move is None
    assert runner.conditions == (() if retreating else (BROKEN,))


def test_GANG_RUN_with_no_way_away_the_event_says_so(gang):
    """Clause: GANG-RUN. "move 2D6" away from enemies": with every way walled in (the fake table's
    walk check meets a crate on each walk) the run rolled (1+1 = 2") has no move, and the event
    says 'runs for cover: no way away from the enemies', a walk of 0.0", nothing forced after."""
    models = [fighter("o", "orlock"), fighter("e", "escher", x=10, conditions=(BROKEN,))]
    engine, state = game(gang, models)
    table = Table(wall=("crate", "wall", 0.5))
    rolled, _ = engine.resolve(state, Action(RUN_FOR_COVER, "e"), None, Dice(1, 1))
    run = engine.check(rolled, Action.forced("e", "walk: straight 2"), table)
    after, [stayed] = engine.resolve(rolled, run, None, Dice())
    assert stayed == Event("move", "e", "runs for cover: no way away from the enemies", clauses=("GANG-RUN",),
                           figures={"walked": True, "run": True, "retreat": False, "length_in": 0.0})
    assert after.model("e").pose == state.model("e").pose and after.model("e").forced_move is None
