"""The low jump the jump picture's tests look at, played once per test module that asks."""

from __future__ import annotations

import dataclasses

import numpy as np

from entropy3d.activation.story import RideStory
from entropy3d.game.step import activation
from entropy3d.geometric import GeometricProducer
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.engine import EntropyCityEngine


def kicker_jump():
    """(table, geometry, story) of komodo_2's "jump s2: straight 12" off the crossroads' street
    kicker on turn 2, ridden by the geometric producer (a flight rising under half an inch)."""
    table = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    steps = activation(EntropyCityEngine(table.ruleset, probe), state, "komodo_2",
                       ["s1: straight 3", "jump s2: straight 12"], np.random.default_rng(11),
                       GeometricProducer(table, geometry, probe), probe)
    story = RideStory.from_steps(steps, "komodo_2", table.ruleset)
    assert story.flight is not None and story.flight.rise_in < 0.5, "not the low flight these tests are about"
    return table, geometry, story
