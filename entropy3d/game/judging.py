"""Another rulebook's rulings on an Entropy City ride.

A scene whose game system decides from the table but plays no game of its own (``system:
reference_cards``: collision force, falls, elevation) is played with Entropy City's game; after
every ridden action its system reads the same ride the Entropy City rules resolved (the impacts
and falls the producer measured, the levels climbed or come down, the move itself) and gives its
rulings. :class:`JudgedEngine` is the played game's engine with those rulings after each ride,
and what they do to the models (:meth:`~entropy3d.systems.base.GameSystem.ruling_effects`: the
cards' damage and Move, unless their rules data says they only advise) applied by the played
engine its own way (Entropy City's ``apply_ruling``). ``entropy3d activate`` prints the rulings
under the ride; a game keeps them on the action's record
(:attr:`~entropy3d.game.records.ActionRecord.rulings`) for the replay and the video. Nothing here
decides a rule: the two rulebooks do (:mod:`entropy3d.systems`, :mod:`entropy3d.systems.entropy_city`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.game.step import Step


def _told_landing(event: Event, when: str) -> bool:
    """Whether ``event`` tells the level a flight in the air ``when`` ("before" or "after") the
    step comes down on (Entropy City's air time, EC-JUMP-2, EC-JUMP-4): after it, the jump that
    left it flying or the "still to fly" at the move's end; before it, the landing of the flight
    carried over, or, when the flight lasts the whole move (no landing in it), that same "still
    to fly" (one flight, one level it comes down on)."""
    if "landing_level_in" not in event.figures:
        return False
    return event.kind == "landing" or (event.kind == "jump" and (when == "after" or "carry_in" in event.figures))


def stands_at_in(step: Step, model: str, when: str) -> float:
    """The height (inches) of the surface ``model`` stands on ``when`` ("before" or "after") the
    step: its pose's, or, while the game holds it in the air (Entropy City's air time: its pose
    is its height in mid-flight), the level its flight comes down on (``landing_level_in`` of the
    step's jump, landing or "still to fly" event). Issue 46: on rooftop_fall (demo --seed 0,
    physics) the climber jumped off the ramp and was still flying 1.30" up when its move ended;
    the cards read that height as a climb of one level (Move -1) and the fall as 1.7 m instead of
    the 3.6 m down to the yard, then the landing as a descent (Move +1). A flight lasting a whole
    move (in the air at both ends) has neither jump nor landing in it: its "still to fly" names
    the level, so its mid-air heights read as no level changed."""
    held = getattr(step, when).model(model)
    if held.air is None:
        return float(held.pose.z)
    told = [e for e in step.events if e.model == model and _told_landing(e, when)]
    if when == "before":  # the carried flight's landing, else (it flew the whole move) its "still to fly"
        told = [e for e in told if e.kind == "landing"] or told
    return float(told[-1].figures["landing_level_in"]) if told else float(held.pose.z)


class RideJudge:
    """The scene's game system reading ridden steps (:meth:`of` gives None for a system that
    decides nothing from a ride, and for one that plays its own game, Entropy City among them,
    whose engine decides its rides)."""

    def __init__(self, table, geometry, system, probe=None):
        from entropy3d.los.losrules import load_los_rules
        from entropy3d.scene.probe import SceneProbe
        from entropy3d.scene.systemrules import model_stats

        self.table, self.geometry, self.system = table, geometry, system
        self.stats = model_stats(table, system)
        self.storey_in = load_los_rules().level_height_in
        self.probe = probe if probe is not None else SceneProbe.from_table(table, geometry)

    @classmethod
    def of(cls, table, geometry, probe=None) -> "RideJudge | None":
        from entropy3d.scene.systemrules import system_of

        system = system_of(table)
        # a rulebook that plays its own game decides its rides in its engine; one that only decides
        # (the reference cards) judges the rides of the game played on its table
        return cls(table, geometry, system, probe) if system.reads_rides and not system.plays() else None

    def events(self, model: str, steps: Sequence, rng: np.random.Generator) -> list[Event]:
        """What the system makes of ``model``'s ridden ``steps``: their impacts and falls
        (:meth:`~entropy3d.systems.base.GameSystem.judge_impacts`), the levels each climbed or came
        down (:meth:`~entropy3d.systems.base.GameSystem.judge_level_changes`) and the moves
        themselves (:meth:`~entropy3d.systems.base.GameSystem.judge_moves`, rolling with ``rng``)."""
        from entropy3d.table_readings import impacts, level_change, ridden_move

        ridden = [step for step in steps if step.ridden]
        found = [impact for step in ridden
                 for impact in impacts(model, step.facts, self.table.ruleset.scale, self.geometry,
                                       stood_z_in=stands_at_in(step, model, "after"))]
        changes = [level_change(model, stands_at_in(step, model, "before"), stands_at_in(step, model, "after"),
                                self.storey_in) for step in ridden]
        moves = [ridden_move(model, step.facts, self.probe) for step in ridden]
        return (self.system.judge_moves(moves, self.stats, rng) + self.system.judge_impacts(found, self.stats)
                + self.system.judge_level_changes(changes, self.stats))

    def rulings(self, model: str, steps: Sequence, rng: np.random.Generator) -> tuple[Event, ...]:
        """:meth:`events` as rulings beside Entropy City's own events: kind ``ruling``, the
        system's title in ``figures["system"]`` and its own kind in ``figures["judged"]``, so no
        reader of the game's events (scores, summaries, the video's crash lines) takes a second
        rulebook's crash for another Entropy City crash."""
        return tuple(dataclasses.replace(event, kind="ruling",
                                         figures={**event.figures, "system": self.system.title,
                                                  "judged": event.kind})
                     for event in self.events(model, steps, rng))


class JudgedEngine:
    """The engine of the game played on a judging rulebook's table (``engine``, Entropy City's),
    with that rulebook's rulings after each ridden action (``judge``) and their effects applied
    by ``engine`` (its ``apply_ruling``): one ``resolve``, so every caller of the one path (the
    game loop, ``activate``, a replay's check) plays the same game. Everything else is the played
    engine's."""

    def __init__(self, engine, judge: RideJudge):
        self.engine, self.judge = engine, judge

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def resolve(self, state, action, facts, rng: np.random.Generator):
        """The played engine's resolve, then (for a ridden action) the judge's rulings (kind
        ``ruling``) and what they do to each model touched (events of kind ``ruling`` with
        ``figures["applied"]``). The judge rolls, if it ever does, with the same ``rng`` after
        the played engine, so the same seed plays the same game."""
        after, events = self.engine.resolve(state, action, facts, rng)
        ride = facts if isinstance(facts, Facts) else None  # an activation's start reads sights, rides nothing
        step = Step(action, ride, tuple(events), state, after)
        if not step.ridden:
            return after, events
        rulings = self.judge.rulings(action.model_id, [step], rng)
        applied: list[Event] = []
        for effect in self.judge.system.ruling_effects(rulings):
            after, more = self.engine.apply_ruling(after, effect.model, effect.wounds, effect.speed_change_kph,
                                                   effect.why, effect.clauses, action.model_id)
            applied += more
        return after, list(events) + list(rulings) + applied


def judged(engine, table, geometry, view=None):
    """``engine`` with the rulings of the table's rulebook when that rulebook judges the rides of
    the game played on it (:class:`JudgedEngine`), else ``engine`` itself."""
    judge = RideJudge.of(table, geometry, view)
    return engine if judge is None else JudgedEngine(engine, judge)
