"""The golden files of the plug-in rulebooks (issue 46): each case a table (a yard in tests/data/),
a state (what the case changes of the yard's first state), the actions (the rulebook's plan text,
parsed by the engine's ``parse_action``) and the dice the rulebook's procedure must roll, in
order; expected: the events (kind, model, clauses, the figures and the words the rulebook gives)
and the state after. The figures are worked by hand from the rulebook in the golden files'
comments, never copied from the engine's output.

Every action goes the one path (:func:`entropy3d.game.step.take_action`: ``check`` against the
table's view, the table's facts, ``resolve``) with the geometric producer; the dice are
:class:`ScriptedDice`: a case that rolls a die it did not state, a die of other sides than it
stated, or leaves one of its dice unrolled fails.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Mapping

import pytest
import yaml

from entropy3d.errors import IllegalPlanError
from entropy3d.game.step import take, take_action
from entropy3d.game.tableview import TableView
from entropy3d.geometric import GeometricProducer
from entropy3d.geometry import Pose
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.systemrules import model_stats, system_of
from entropy3d.systems.entropy_city.transition import Action

DATA = Path(__file__).parent / "data"
DIE = re.compile(r"^d(\d+):(\d+)$")


class ScriptedDice:
    """The dice a case states, as the injected generator: ``d6:4`` is a six-sided die showing 4.
    Each die the engine rolls must be the next stated one, with the stated sides."""

    def __init__(self, dice: list[str]):
        self.script = []
        for die in dice:
            match = DIE.match(str(die))
            assert match, f"a golden die is 'dN:FACE' (d6:4), not {die!r}"
            self.script.append((int(match[1]), int(match[2])))
        self.rolled: list[str] = []

    def integers(self, low: int, high: int) -> int:
        sides = high - 1
        assert low == 1, f"a die from {low}: the engines roll from 1"
        assert self.script, f"a d{sides} rolled after the case's dice ran out; rolled {self.rolled}"
        stated, face = self.script.pop(0)
        assert stated == sides, f"die {len(self.rolled) + 1} is a d{sides}, the case states d{stated}:{face}; " \
                                f"rolled {self.rolled}"
        self.rolled.append(f"d{sides}:{face}")
        return face


TESTS = Path(__file__).parents[1]


def load_cases(name: str) -> list[dict]:
    """The cases of ``tests/systems/data/golden_NAME.yaml``."""
    return yaml.safe_load((DATA / f"golden_{name}.yaml").read_text())


def case_id(case: Mapping) -> str:
    """A case's test id: its clauses, then its name."""
    return f"{'+'.join(case['clauses'])} {case['name']}"


class Yard:
    """A yard scene's table, its engine and view, the producer, and the game's first state."""

    def __init__(self, scene: Path):
        self.table = load_scene(scene)
        self.geometry = build_table_geometry(self.table)
        system = system_of(self.table, played=True)
        self.view = TableView(self.table, self.geometry)
        self.engine = system.engine(model_stats(self.table, system), table=self.view,
                                    gangs=list(self.table.spec.gangs))
        self.producer = GeometricProducer(self.table, self.geometry)
        self.first = self.engine.initial_state(self.table.initial_state(self.geometry.surface_height))

    @classmethod
    def of(cls, case: Mapping, default: Path, built: dict) -> "Yard":
        """The yard a case is played on: its ``table:`` (a path under tests/), else ``default``;
        each built once into ``built`` (path -> Yard)."""
        path = TESTS / case["table"] if "table" in case else default
        if path not in built:
            built[path] = cls(path)
        return built[path]

    def state_of(self, case: Mapping):
        """The first state with the case's ``state:`` changes (model id -> fields; ``pose``:
        [x, y, facing] on the level the model stands on, or [x, y, facing, z]; ``score``: gang ->
        points)."""
        state = self.first
        for model_id, changes in (case.get("state") or {}).items():
            if model_id == "score":
                state = dataclasses.replace(state, score={**state.score, **changes})
                continue
            model = state.model(model_id)
            fields = dict(changes)
            if "pose" in fields:
                x, y, facing, *z = fields["pose"]
                fields["pose"] = Pose(float(x), float(y), float(facing), float(z[0]) if z else model.pose.z)
            if "conditions" in fields:
                fields["conditions"] = tuple(fields["conditions"])
            state = state.with_model(model.but(**fields))
        return state

    def play(self, case: Mapping):
        """(the state after, the events, the refusal or None, the dice) of the case's actions:
        ``actor`` activates and takes ``plans`` in order; or ``end_turn`` runs the End Phase, or
        ``action_phase`` what comes before a turn's first activation; or
        ``turn`` starts a turn (the Action Phase, then the roll for who goes first: ``rolls``, the
        pairs rolled, ``first``, the side that goes first, ``ready``, gang -> the models it may
        activate; ``previous``, who went first last)."""
        dice = ScriptedDice(case.get("dice", []))
        state, events, refused = self.state_of(case), [], None
        if case.get("end_turn"):
            state, events, _ = self.engine.end_turn(state, dice)
            return state, list(events), None, dice
        if case.get("action_phase"):  # what happens before the turn's first activation
            state, events = self.engine.action_phase(state, dice)
            return state, list(events), None, dice
        if "turn" in case:  # the turn's start: the Action Phase's events, then who goes first
            state, events = self.engine.action_phase(state, dice)
            start = self.engine.start_turn(state, dice, case["turn"].get("previous"))
            assert [list(pair) for pair in start.rolls] == case["turn"]["rolls"], start.rolls
            assert start.first == case["turn"]["first"], start
            for gang, ready in case["turn"].get("ready", {}).items():
                assert self.engine.ready(state, gang) == ready, (gang, self.engine.ready(state, gang))
            return state, list(events), None, dice
        actor = case["actor"]
        try:  # its activation, then each plan; the first refusal ends the case
            step = take(self.engine, state, Action.activate(actor), dice, self.producer, self.view)
            state, events = step.after, list(step.events)
            for plan in case["plans"]:
                steps = take_action(self.engine, state, self.engine.parse_action(actor, plan), dice,
                                    self.producer, self.view)
                for step in steps:
                    events += step.events
                state = steps[-1].after
        except IllegalPlanError as refusal:
            refused = refusal
        return state, events, refused, dice


def check_case(yard: Yard, case: Mapping[str, Any]) -> None:
    """Play ``case`` on ``yard`` and compare what the engine decided with the hand-worked
    expectation: every stated die rolled, the events in order (kind, model, clauses; the stated
    figures, words, what was found, by whom and the piece), the refusal (its clause and words), the state after."""
    state, events, refused, dice = yard.play(case)
    texts = [f"{e.kind} {e.model} {list(e.clauses)}: {e.rules} {dict(e.figures)}" for e in events]
    if "refused" in case:
        assert refused is not None, f"not refused; events: {texts}"
        assert refused.clause == case["refused"]["clause"], refused.message
        assert case["refused"]["says"] in refused.message, refused.message
    else:
        assert refused is None, f"refused {refused.clause}: {refused.message}"
    assert not dice.script, f"dice stated and not rolled: {dice.script}; rolled {dice.rolled}"
    expected = case.get("events", [])
    got = [(e.kind, e.model, list(e.clauses)) for e in events]
    wanted_events = [(x["kind"], x["model"], x["clauses"]) for x in expected]
    assert got == wanted_events, f"events {got}, hand-worked {wanted_events}: {texts}"
    for event, wanted in zip(events, expected):
        for key, value in (wanted.get("figures") or {}).items():
            assert key in event.figures, (key, event.rules, dict(event.figures))
            got = event.figures[key]
            if isinstance(value, float):
                assert got == pytest.approx(value, abs=0.05), (key, got, value, event.rules)
            else:
                assert _plain(got) == value, (key, event.rules, dict(event.figures))
        if "says" in wanted:
            assert event.rules == wanted["says"], f"said {event.rules!r}, hand-worked {wanted['says']!r}"
        if "found" in wanted:  # what the table showed, as the event says it
            assert event.found == wanted["found"], (event.found, event.rules)
        if "producer" in wanted:
            assert event.producer == wanted["producer"], (event.producer, event.rules)
        if "piece" in wanted:
            assert event.piece == wanted["piece"], (event.piece, event.rules)
    for model_id, fields in (case.get("after") or {}).items():
        if model_id == "score":
            assert dict(state.score) == fields, (dict(state.score), fields)
            continue
        if model_id == "wrecks":  # [wreck id, the model it was, x, y] of each wreck on the table
            assert [[w.id, w.model_id] for w in state.wrecks] == [wreck[:2] for wreck in fields], state.wrecks
            for wreck, wanted in zip(state.wrecks, fields):
                assert [wreck.pose.x, wreck.pose.y] == pytest.approx(wanted[2:], abs=0.05), wreck
            continue
        model = state.model(model_id)
        for key, value in fields.items():
            got = getattr(model, key)
            if key == "pose":  # [x, y] or [x, y, facing], inches and degrees, to 0.05
                assert [got.x, got.y, got.facing_deg][:len(value)] == pytest.approx(value, abs=0.05), (model_id, got)
                continue
            assert (list(got) if isinstance(got, tuple) else got) == value, (model_id, key, got)


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
