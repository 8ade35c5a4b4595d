"""Lovers Point Brawl's way out (issue 45): "the police have every exit blocked ... A police line
blocks your exit". The bundled table's park sides are the headland's cliffs (EC-COL-EDGE), the one
way off the table is the road north through the police line: two police sawhorses across the
road a rider may smash through at full movement (EC-DEST-2, EC-DEST-3), police bikes in front."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.errors import IllegalPlanError
from entropy3d.game.step import take
from entropy3d.game.tableview import TableView
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems import words
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.state import ESCAPED, OUT
from entropy3d.systems.entropy_city.transition import Action, check


@pytest.fixture(scope="module")
def lovers_point():
    """The bundled Lovers Point table, its table view, a geometric producer and its turn-2 state."""
    table = load_scene(bundled_dir("scenes") / "lovers_point.yaml")
    geometry = build_table_geometry(table)
    view = TableView(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    return table, view, GeometricProducer(table, geometry, view), state


def _ride(lovers_point, state, model_id, plan, seed=0, unavoidable=False):
    """``plan`` ridden through the one path (check, the producer's facts, resolve): the state after, the events."""
    table, view, producer, _ = lovers_point
    step = take(EntropyCityEngine(table.ruleset, view), state, Action.ride(model_id, plan, unavoidable=unavoidable),
                np.random.default_rng(seed), producer, view)
    return step.after, list(step.events)


@pytest.mark.parametrize("side, x, facing", [("west", 2.5, 180.0), ("east", 45.5, 0.0)])
def test_EC_COL_EDGE_a_ride_off_the_parks_side_busts_over_the_cliff_and_scores_no_escape(lovers_point, side, x,
                                                                                         facing):
    """Clause: EC-COL-EDGE (Lovers Point Brawl). Brakes (hades_1, a cruiser at speed 1) on the park's
    grass 2.5" from a side edge, facing it. The sides are the point's cliffs: a player may not plan
    the ride over (IllegalPlanError, EC-COL-EDGE), and a ride sent over anyway (unavoidable) busts
    out of the game: its gang scores nothing, each enemy gang a take-out point. On d1a25cd the
    sides were open grass and the same ride escaped for two points."""
    table, _, _, state = lovers_point
    state = state.with_model(state.model("hades_1").but(pose=Pose(x, 18.0, facing), speed=1))
    with pytest.raises(IllegalPlanError, match=f"{side} cliff edge"):
        check(state, Action.ride("hades_1", "s1: straight 5"), table.ruleset, lovers_point[1])
    after, events = _ride(lovers_point, state, "hades_1", "s1: straight 5", unavoidable=True)
    over = [e for e in events if e.kind == "cliff_edge"]
    assert len(over) == 1 and over[0].figures["edge"] == side and "EC-COL-EDGE" in over[0].clauses
    assert not any(e.kind == "left_table" for e in events)
    assert after.model("hades_1").status == OUT
    assert after.score["hades"] == 0 and after.score["komodo"] == state.score.get("komodo", 0) + 1


def test_EC_COL_EDGE_EC_DEST_3_through_the_police_sawhorse_and_off_the_north_edge_is_an_escape(lovers_point):
    """Clause: EC-COL-EDGE, EC-DEST-2, EC-DEST-3. The way left open: Rat (hades_4, a trailbike at
    speed 2) on the road out of town 6.5" south of the police line, riding 13" north (its full
    movement, EC-DEST-2) into the east one of the two sawhorses across the road: 2 stress and a
    TN 13 test (EC-DEST-3), passed, the sawhorse knocked aside, and on over the open north edge:
    it escapes, +2 VP to Hades MC ("two points for every friendly model that escapes"), the words
    say so (police_2, which starts in front of it, has ridden off after a rival). At speed 1 the
    sawhorse is a solid obstacle (EC-DEST-2): the ride crashes into it and stays on the table."""
    table, _, _, state = lovers_point
    rat = state.model("hades_4").but(pose=Pose(25.05, 36.0, 90.0), speed=2)
    gone = state.with_model(state.model("police_2").but(pose=Pose(30.0, 40.0, 270.0))).with_model(rat)
    after, events = _ride(lovers_point, gone, "hades_4", "s2: straight 13")
    smashed = next(e for e in events if e.kind == "destructible")
    assert smashed.piece == "police_sawhorse_east" and smashed.figures["tn"] == 13 and smashed.rolls[0].succeeded
    left = next(e for e in events if e.kind == "left_table")
    assert left.figures["edge"] == "north" and left.figures["points"] == 2 and left.figures["gangs"] == ["hades"]
    assert after.model("hades_4").status == ESCAPED and after.score["hades"] == state.score.get("hades", 0) + 2
    names = words.Names.of_table(table)
    assert words.sentence(left, names) == "Rat rides off the table and escapes: +2 VP to Hades MC"

    slow = gone.with_model(rat.but(speed=1))
    held, events = _ride(lovers_point, slow, "hades_4", "s1: straight 8")
    assert [e.piece for e in events if e.kind == "crash"] == ["police_sawhorse_east"]
    assert "EC-DEST-2" in next(e for e in events if e.kind == "destructible").clauses
    assert held.model("hades_4").status != ESCAPED and not any(e.kind == "left_table" for e in events)
