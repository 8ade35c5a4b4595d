"""The game loop of a game system other than Entropy City (``system:`` of a scene), on the
shared table and into the same records, replay file and video as :class:`~entropy3d.game.loop.Game`.

A playing system gives an *engine* (:meth:`GameSystem.engine`, e.g.
:class:`~entropy3d.systems.gang_battle.engine.GangEngine`) with ``initial_state``, ``start_turn``,
``ready``, ``activation_order``, ``action_phase``, ``check``, ``resolve``, ``end_turn``, ``game_over`` and
``winner``; its players choose the order of their fighters and each action. Every action goes
the one path, :func:`~entropy3d.game.step.take` as for Entropy City: the engine checks it against
the table (:class:`~entropy3d.game.tableview.TableView`), a producer rides a move (its facts) or
the LOS engine shows a shot's target (its sighting), and the engine resolves it. Nothing here
decides a rule: it sequences the engine's phases and keeps the
:class:`~entropy3d.rules.state.State`. Randomness: the injected dice ``rng`` and the players'.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator, Mapping

import numpy as np

from entropy3d.game.records import ActionRecord, ActivationRecord, EndRecord, TurnRecord
from entropy3d.game.step import Producer, Step, take
from entropy3d.game.tableview import TableView
from entropy3d.rules.state import State, pose_to_json
from entropy3d.rules.transition import ATTACK, Action
from entropy3d.systems.base import SystemPlayer, SystemView


class SystemGame:
    """One game of a playing system: ``play()`` yields a record per turn start and activation,
    then the end. The Action Phase's opening events (a bottled gang's Cool checks) are the turn's
first activation's start events; the End Phase's events are the last activation's last action (an ``end``
    action of that fighter), so the video and the replay show them where they happen."""

    def __init__(self, table, geometry, producer: Producer, engine, players: Mapping[str, SystemPlayer],
                 rng: np.random.Generator, turns: int | None = None, initial: State | None = None):
        self.table, self.producer, self.engine, self.rng = table, producer, engine, rng
        self.probe = TableView(table, geometry)
        self.players = dict(players)
        self.turns = int(turns if turns is not None else table.spec.turns)
        self.state = initial if initial is not None else engine.initial_state(
            table.initial_state(geometry.surface_height))
        missing = sorted(set(engine.gangs(self.state)) - set(self.players))
        if missing:
            raise ValueError(f"no player for gang(s) {', '.join(missing)}")

    def play(self) -> Iterator[TurnRecord | ActivationRecord | EndRecord]:
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
            order = engine.activation_order(start.first, chosen)
            yield TurnRecord(turn, start.rolls, start.first, tuple(order))
            for k, model_id in enumerate(order):
                record = self._activate(turn, model_id, tuple(opening) if k == 0 else ())
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

    def _end_phase(self, record: ActivationRecord) -> tuple[ActivationRecord, list[str]]:
        self.state, events, bottled = self.engine.end_turn(self.state, self.rng)
        end = ActionRecord(len(record.actions), Action.end(record.model_id), np.zeros((0, 2)), None, tuple(events),
                           model_after=self.state.model(record.model_id))
        return dataclasses.replace(record, actions=record.actions + (end,), state_after=self.state), bottled

    def _activate(self, turn: int, model_id: str, opening: tuple = ()) -> ActivationRecord:
        """One fighter's activation; ``opening``: the Action Phase's own events (the turn's first
        activation carries them, so the replay and the video show them as the phase starts)."""
        before = self.state
        model = before.model(model_id)
        if not model.in_play:
            return ActivationRecord(turn, model_id, model.gang, opening, (), before, before)
        self.state, _ = self.engine.resolve(self.state, self.engine.check(self.state, Action.activate(model_id)),
                                            None, self.rng)
        player = self.players[model.gang]
        actions: list[ActionRecord] = []
        while self.state.model(model_id).in_play:
            view = SystemView(self.state, self.state.model(model_id), self.engine, self.probe)
            action = player.choose_action(view)
            if action is None:
                break
            actions.append(self._take(len(actions), action))
        if self.state.model(model_id).in_play:
            self.state, _ = self.engine.resolve(self.state, Action.end(model_id), None, self.rng)
        return ActivationRecord(turn, model_id, model.gang, opening, tuple(actions), before, self.state)

    def _take(self, index: int, action: Action) -> ActionRecord:
        step = take(self.engine, self.state, action, self.rng, self.producer, self.probe)
        self.state = step.after
        return action_record(index, step)


def action_record(index: int, step: Step) -> ActionRecord:
    """The replay's record of one action a playing system took (:func:`~entropy3d.game.step.take`):
    a shot keeps its events in an ``attack`` entry with where both stood and what the LOS engine
    showed the shooter; any other action its events and the facts of its ride."""
    checked, state, after = step.action, step.before, step.after
    if checked.kind == ATTACK:
        events = step.events
        attack = {"kind": checked.weapon, "attacker": checked.model_id, "target": checked.target,
                  "events": [e.to_json() for e in events], "text": "; ".join(e.rules for e in events),
                  "clauses": sorted({c for e in events for c in e.clauses}),
                  "from_pose": pose_to_json(state.model(checked.model_id).pose),
                  "target_pose": pose_to_json(state.model(checked.target).pose)}
        if step.reading is not None:  # the LOS engine's sighting of the target (an engine that reads_sight)
            attack["visible"] = round(float(step.reading.visible_fraction), 4)
        return ActionRecord(index, checked, np.zeros((0, 2)), None, (), attack,
                            model_after=after.model(checked.model_id))
    return ActionRecord(index, checked, np.zeros((0, 2)) if checked.move is None else checked.move.path,
                        step.facts, step.events, ridden=step.facts is not None,
                        model_after=after.model(checked.model_id))


def record_events(record: ActionRecord) -> list:
    """Every event of an action's record: its own, then its shot's."""
    from entropy3d.rules.event import Event

    return list(record.events) + [Event.from_json(e) for e in (record.attack or {}).get("events", ())]
