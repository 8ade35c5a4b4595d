"""Riding off the table when the mission pays for it (entropy3d.game.escape_goals, issue 45):
Lovers Point Brawl's riders escape off an open edge; the cliff and the police line stay as they are."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.game.action_view import ActionView
from entropy3d.game.escape_goals import EscapeRun, escape_pays, open_edges
from entropy3d.game.players import AutoPlayer
from entropy3d.geometry import Pose
from entropy3d.resources import bundled_dir
from entropy3d.systems.entropy_city.transition import Action, check


@pytest.fixture(scope="module")
def lovers_point():
    """The bundled Lovers Point table, its probe and its state at turn 2 (no speed forced)."""
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe

    table = load_scene(bundled_dir("scenes") / "lovers_point.yaml")
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    return table, probe, dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)


def _ridden(state, model_id, probe, ruleset, seed):
    """The table edge (and its kind) the automatic player's plan for ``model_id`` rides over, or None."""
    player = AutoPlayer(np.random.default_rng(seed), ruleset)
    plan = player.choose_plan(ActionView(state, state.model(model_id), 0, probe, ruleset))
    return probe.edge_crossed(check(state, Action.ride(model_id, plan), ruleset, probe).move.path)


def test_an_escape_pays_more_than_a_take_out_in_lovers_point_only(lovers_point):
    """Mission Types: Lovers Point Brawl pays "one point for every enemy taken out, two points for
    every friendly model that escapes" (rules data 1 and 2); Turf War pays nothing for an escape.
    The south edge is the cliff (EC-COL-EDGE), and the point's west and east sides are cliffs too
    ("the police have every exit blocked", scenes/lovers_point.yaml): the north edge, through the
    police line, is the one way out."""
    table, probe, state = lovers_point
    assert escape_pays(state, table.ruleset)
    assert not escape_pays(dataclasses.replace(state, mission="turf_war"), table.ruleset)
    assert open_edges(probe) == ("north",)


def test_a_rider_in_front_of_the_police_line_smashes_through_it_and_rides_off(lovers_point):
    """Rat (hades_4, a trailbike at speed 2) on the road out of town 6" south of the police line,
    facing north, the police bike in front of it (police_2) gone after a rival. Its full movement
    (EC-DEST-2) takes it through a police sawhorse and 5" on off the north edge: an escape,
    two points. Before the player knew the mission it took 60 points off any move leaving the
    table and never rode off (1 game in 50)."""
    table, probe, state = lovers_point
    state = state.with_model(state.model("police_2").but(pose=Pose(30.0, 40.0, 270.0)))
    state = state.with_model(state.model("hades_4").but(pose=Pose(25.05, 36.0, 90.0), speed=2))
    assert EscapeRun.of(state, state.model("hades_4"), probe, table.ruleset) is not None
    for seed in range(3):
        assert _ridden(state, "hades_4", probe, table.ruleset, seed) == ("north", "open"), seed


def test_a_rider_by_the_cliff_does_not_ride_over_it_and_the_police_hold_the_line(lovers_point):
    """Tombstone (hades_2) 2" from the cliff, facing it at speed 1: the cliff busts (EC-COL-EDGE),
    no escape; it keeps on the table. Sgt Kane (police_1) at the police line, 8.4" from the open
    north edge: the police line blocks the way out, it does not take it."""
    table, probe, state = lovers_point
    near_cliff = state.with_model(state.model("hades_2").but(pose=Pose(20.0, 3.5, 270.0), speed=1))
    assert EscapeRun.of(state, state.model("police_1"), probe, table.ruleset) is None
    for seed in range(3):
        assert _ridden(near_cliff, "hades_2", probe, table.ruleset, seed) != ("south", "cliff"), seed
        assert _ridden(state, "police_1", probe, table.ruleset, seed) is None, seed
