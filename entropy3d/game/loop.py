"""The one game loop, for every rulebook: turns, activations, actions and the mission's end.

A rulebook's *engine* (:class:`~entropy3d.systems.entropy_city.engine.EntropyCityEngine`,
:class:`~entropy3d.systems.gang_battle.engine.GangEngine`, ...) says how a turn goes
(``start_turn``: who goes first; ``action_phase``; ``activation_order``; ``end_turn``), what is
legal (``check``), what happens (``resolve``) and when the game is over (``game_over``,
``winner``); its players (:class:`~entropy3d.systems.base.SystemPlayer`) choose the order of
their models and each action, seeing the actions their model took so far this activation. Every
action goes the one path, :func:`~entropy3d.game.step.take_action`: the engine checks it against
the table (:class:`~entropy3d.game.tableview.TableView`), a producer rides a move or the LOS
engine shows a shot's target, and the engine resolves it; a move the rules force afterwards is
ridden the same way. Nothing here decides a rule: it sequences the engine's phases, keeps the
:class:`~entropy3d.systems.entropy_city.state.State` and writes the records (replay file, film, share page).

Randomness: the injected dice ``rng`` and the players' own generators, so the same seed plays
the same game.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator, Mapping

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.records import ActionRecord, ActivationRecord, AttackRecord, EndRecord, TurnRecord
from entropy3d.game.step import Producer, Step, take, take_action
from entropy3d.game.tableview import TableView
from entropy3d.systems.base import SystemPlayer, SystemView
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import ATTACK, Action

Record = TurnRecord | ActivationRecord | EndRecord


class Game:
    """One game on a table: ``play()`` yields a record per turn start and activation, then the end.

    table: the static Table; geometry: its TableGeometry; producer: who rides the moves; engine:
    the rulebook's; players: a player per gang id; rng: the dice; turns: how many (the scene's
    when None); initial: the state to start from (the engine's start of the scene's when None);
    view: the table as the engine and the players ask it (one is made when None: an engine whose
    table the one path asks its answers of is made with the same one).

    The turn's opening events (the gang battle's Cool checks of a bottled gang) are the turn's
    first activation's events; an End Phase that did something is a last ``end`` action of the
    turn's last activation; so the film and the replay show them where they happen.
    """

    def __init__(self, table, geometry, producer: Producer, engine, players: Mapping[str, SystemPlayer],
                 rng: np.random.Generator, turns: int | None = None, initial: State | None = None,
                 view: TableView | None = None):
        self.table, self.producer, self.engine, self.rng = table, producer, engine, rng
        self.probe = view if view is not None else TableView(table, geometry)
        self.players = dict(players)
        self.turns = int(turns if turns is not None else table.spec.turns)
        self.state = initial if initial is not None else engine.initial_state(
            table.initial_state(geometry.surface_height))
        missing = sorted(set(engine.gangs(self.state)) - set(self.players))
        if missing:
            raise ValueError(f"no player for gang(s) {', '.join(missing)}")

    def play(self) -> Iterator[Record]:
        engine, previous, bottled, reason, turn = self.engine, None, [], "", 0
        for turn in range(1, self.turns + 1):
            self.state = dataclasses.replace(self.state, turn=turn)
            reason = engine.game_over(self.state)
            if reason:
                turn -= 1
                break
            start = engine.start_turn(self.state, self.rng, previous)
            previous = start.first
            self.state, opening = engine.action_phase(self.state, self.rng)
            chosen = {gang: self.players[gang].order(self.state, engine.ready(self.state, gang), self.probe)
                      for gang in engine.gangs(self.state)}
            order = engine.activation_order(self.state, start.first, chosen)
            yield TurnRecord(turn, start.rolls, start.first, tuple(order))
            for k, model_id in enumerate(order):
                record = self._activate(turn, model_id, tuple(opening) if k == 0 else ())
                reason = engine.game_over(self.state)
                for extra in self._interrupting(reason):  # it took control of the turn (Entropy City's Ambush)
                    yield record
                    record = self._activate(turn, extra)
                    reason = engine.game_over(self.state)
                if k == len(order) - 1 and not reason:
                    record, bottled = self._end_phase(record)
                    reason = engine.game_over(self.state, bottled)
                yield record
                if reason:
                    break
            if reason:
                break
        if not reason:
            reason = f"{self.turns} turn{'s' if self.turns != 1 else ''} played"
        yield EndRecord(reason, turn, dict(self.state.score), engine.winner(self.state, bottled), self.state)

    def _interrupting(self, reason: str) -> Iterator[str]:
        """The models the engine gives an activation at once, before the turn's next (its
        ``interrupting``, asked after each activation: an Entropy City ambusher whose ambush took
        control of the turn, EC-TRAIT-AMBUSH); none once the game is over or for an engine without it."""
        ask = getattr(self.engine, "interrupting", None)
        while ask is not None and not reason:
            now = ask(self.state)
            if not now:
                return
            yield now[0]
            reason = self.engine.game_over(self.state)

    def _end_phase(self, record: ActivationRecord) -> tuple[ActivationRecord, list[str]]:
        """The engine's End Phase after the turn's last activation: an ``end`` action of that model
        when it did something (events, or a changed state); ``bottled``: gangs that gave up."""
        before = self.state
        self.state, events, bottled = self.engine.end_turn(self.state, self.rng)
        if not events and self.state is before:
            return record, bottled
        model_id = record.model_id
        end = ActionRecord(len(record.actions), Action.end(model_id), np.zeros((0, 2)), None, tuple(events),
                           stress_before=before.model(model_id).stress, stress_after=self.state.model(model_id).stress,
                           model_after=self.state.model(model_id))
        return dataclasses.replace(record, actions=record.actions + (end,), state_after=self.state), bottled

    def _activate(self, turn: int, model_id: str, opening: tuple = ()) -> ActivationRecord:
        """One model's activation: it starts, its player chooses actions until it has none (or
        declines the rest), it ends. ``opening``: the turn's opening events it carries."""
        before = self.state
        model = before.model(model_id)
        if not model.in_play:
            return ActivationRecord(turn, model_id, model.gang, opening, (), before, before)
        start = self._take(Action.activate(model_id))
        player = self.players[model.gang]
        taken: list[Step] = [start]
        records: list[ActionRecord] = []
        while self.state.model(model_id).in_play:
            view = SystemView(self.state, self.state.model(model_id), self.engine, self.probe, tuple(taken))
            action = player.choose_action(view)
            if action is None:
                break
            steps = self._take_action(player, view, action)
            taken += steps
            records = self._recorded(records, steps)
        events = start.events
        if self.state.model(model_id).in_play:
            events += self._take(Action.end(model_id)).events
        return ActivationRecord(turn, model_id, model.gang, opening + events, tuple(records), before, self.state)

    def _take(self, action: Action) -> Step:
        step = take(self.engine, self.state, action, self.rng, self.producer, self.probe)
        self.state = step.after
        return step

    def _take_action(self, player: SystemPlayer, view: SystemView, action: Action) -> list[Step]:
        """The player's action taken, with every move the rules force after it; when the rules
        refuse it, the player may give another (``refused``: an Entropy City rider boxed in rides
        into what it cannot avoid, EC-COL-1), else the refusal stands."""
        try:
            steps = take_action(self.engine, self.state, action, self.rng, self.producer, self.probe)
        except IllegalPlanError as refusal:
            instead = getattr(player, "refused", None)
            action = instead(view, action, refusal) if instead is not None else None
            if action is None:
                raise
            steps = take_action(self.engine, self.state, action, self.rng, self.producer, self.probe)
        self.state = steps[-1].after
        return steps

    def _recorded(self, records: list[ActionRecord], steps: list[Step]) -> list[ActionRecord]:
        """``records`` with the records of one action's ``steps``: each keeps the action's index
        (the model's actions taken before it), a ridden step the judging rulebook's rulings (its engine's
        events of kind ``ruling``, :class:`~entropy3d.game.judging.JudgedEngine`); an
        attack that spends no action of its own (Entropy City's attack along its move,
        EC-ACT-ATTACK) belongs to the action before it: the first is that action's ``attack``,
        more (gung-ho's, EC-ACT-GUNGHO) are records of their own with its index."""
        records = list(records)
        first = steps[0]
        index = first.before.model(first.action.model_id).actions_taken
        if first.action.kind == ATTACK and _spends_no_action(first):
            # an attack of the action before it; the shot of an activation skipped after a reload
            # (which begins with its actions spent) is its first
            index = records[-1].index if records else 0
        for step in steps:
            record = action_record(index, step)
            if record.attack is not None and _spends_no_action(step) and records and records[-1].attack is None:
                now = step.after.model(step.action.model_id)
                record = dataclasses.replace(records.pop(), attack=record.attack, stress_after=now.stress,
                                             model_after=now)
            records.append(record)
        return records


def _spends_no_action(step: Step) -> bool:
    """The step left its model's count of actions as it was (an Entropy City attack)."""
    model_id = step.action.model_id
    return step.after.model(model_id).actions_taken == step.before.model(model_id).actions_taken


def action_record(index: int, step: Step) -> ActionRecord:
    """The replay's record of one action taken (:func:`~entropy3d.game.step.take`): an attack keeps
    its events in an ``attack`` entry with where both stood and, for a shot, what the LOS engine
    showed the attacker; any other action its events and the facts of its ride."""
    checked, before, after = step.action, step.before, step.after
    model_id = checked.model_id
    # the rulings of the rulebook that judges the ride (and what they did) are kept apart from the
    # played rulebook's events, as the replay has always kept them
    rulings = tuple(e for e in step.events if e.kind == "ruling")
    events = tuple(e for e in step.events if e.kind != "ruling")
    record = ActionRecord(index, checked, np.zeros((0, 2)) if checked.move is None else checked.move.path,
                          step.facts, events, None, before.model(model_id).stress, after.model(model_id).stress,
                          step.ridden, after.model(model_id), rulings=rulings)
    if checked.kind != ATTACK:
        return record
    seen = checked.sighting if checked.sighting is not None else step.reading  # what the LOS engine showed
    attack = AttackRecord(checked.weapon, model_id, checked.target, tuple(step.events),
                          checked.from_pose or before.model(model_id).pose, before.model(checked.target).pose,
                          None if seen is None else round(float(seen.visible_fraction), 4))
    return dataclasses.replace(record, events=(), attack=attack)


def record_events(record: ActionRecord) -> list:
    """Every event of an action's record: its own, then its attack's."""
    return list(record.events) + list(record.attack.events if record.attack is not None else ())
