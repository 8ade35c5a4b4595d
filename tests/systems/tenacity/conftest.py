"""The 10acity tests share the rules data and, for the engine's two test files, a hand-made
skirmish: scripted dice, a fake table, figures, plain sightings and an attack through
``check`` then ``resolve``. The bundled ``rules/tenacity_tactics.yaml``: figures of 2 attack dice
rank 1, 2 Reaction dice rank 1, 1 impact d4, maximum stress 5, 1 wound; pistol +1 damage, 12";
rifle +2, 36"."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.geometry import Pose
from entropy3d.scene.systemrules import load_system
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.transition import ATTACK, Action
from entropy3d.systems.readings import Sighting
from entropy3d.systems.tenacity import FigureStats, TenacityTactics

FIGURE = (1.0, 1.0)  # a 25 mm round base, about 1" across: size step 0 (1x1)


@pytest.fixture(scope="module")
def ten():
    return load_system("tenacity_tactics")


def variant(system: TenacityTactics, **sections) -> TenacityTactics:
    """The system with some of its rules data changed: section name -> {key: value}."""
    data = system.rules.model_dump()
    for section, changes in sections.items():
        data[section] = {**data[section], **changes}
    return TenacityTactics.from_mapping(data)


class Dice:
    """A stand-in for the injected generator: each die asked for is the next scripted face;
    ``sides`` keeps the sides of every die rolled, in order."""

    def __init__(self, *faces: int):
        self.faces = list(faces)
        self.sides: list[int] = []

    def integers(self, low: int, high: int) -> int:
        assert low == 1 and self.faces, "a die nobody scripted was rolled"
        face = self.faces.pop(0)
        assert 1 <= face < high, f"face {face} on a d{high - 1}"
        self.sides.append(high - 1)
        return face


class Table:
    """A fake table: what each figure sees, and a wall or nothing in a walk's way (``off``: every
    point of a walk is off the table)."""

    #: a storey of the table, inches (the bundled rules/los.yaml ``level_height_in``): TEN-ELEV's levels
    storey_in = 2.1

    def __init__(self, sightings=(), wall=None, off=False):
        self._sightings, self.wall, self.off = list(sightings), wall, off

    def sightings(self, state, viewer, viewer_pose=None):
        return [s for s in self._sightings if s.viewer == viewer and state.model(s.target).in_play]

    def figure_walk_met(self, path, level):
        return self.wall

    def off_table(self, points, margin=0.0):
        return np.full(len(np.atleast_2d(points)), self.off, bool)


def figure(model_id: str, gang: str, x: float = 0.0, y: float = 0.0, **changes) -> ModelState:
    return ModelState(model_id, gang, "on_foot", Pose(x, y, 0.0), **{
        "speed": 0, "stress": 0, "wounds": 1, "max_stress": 5, **changes})


def skirmish(system, models, stats=None):
    stats = {m.id: FigureStats() for m in models} | (stats or {})
    engine = system.engine(stats, Table())
    state = State(1, "skirmish", {m.id: m for m in models}, score={"reds": 0, "blues": 0})
    for model in models:  # each figure's turn has begun
        state, _ = engine.resolve(state, Action.activate(model.id), None, Dice())
    return engine, state


def seen(viewer="r", target="b", visible=1.0, distance=8.0, blockers=(), surfaces=(), tops=(), viewer_z=0.0,
         levels=(0, 0), viewer_base=FIGURE, target_base=FIGURE) -> Sighting:
    return Sighting(viewer, target, distance, 0.0, visible, viewer_z, 0.0, levels[0], levels[1], tuple(blockers),
                    tuple(surfaces), tuple(tops), viewer_base, target_base)


def attack(engine, state, table: Table, dice: Dice, target: str | None = "b", attacker: str = "r"):
    checked = engine.check(state, Action(ATTACK, attacker, target=target), table)
    facts = next(s for s in table.sightings(state, attacker) if s.target == checked.target)
    return engine.resolve(state, checked, facts, dice)


def shot_of(events):
    return next(e for e in events if e.kind == "shot")
