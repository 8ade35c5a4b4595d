"""The game loop: turns, activations, actions, attacks and the mission's end (EC-TURN-1..4).

Each turn both players roll off (EC-TURN-1, :func:`entropy3d.rules.speeds.roll_off`); the winner
activates first; models activate by speed, players alternating (EC-TURN-2,
:func:`~entropy3d.rules.speeds.activation_order`); an activation has two actions (EC-TURN-3).
Every action goes the one path (:mod:`entropy3d.game.step`): the player's plan is checked by
the rules against the table, a producer (physics or geometric) rides it, and the rules resolve
what it found. After the move the player may attack a rival in reach. Nothing here decides a
rule itself; it sequences them and keeps the :class:`~entropy3d.rules.state.State`.

All randomness comes from one injected ``numpy.random.Generator`` (the dice) plus the players'
own generators, so the same seed plays the same game.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator, Mapping

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.players import ActionView, AttackOption, Player
from entropy3d.game.records import ActionRecord, ActivationRecord, EndRecord, TurnRecord
from entropy3d.game.step import Producer, Step, take, take_action
from entropy3d.rules import missions
from entropy3d.rules.speeds import Activator, activation_order, roll_off
from entropy3d.rules.state import RIDING, ModelState, State
from entropy3d.rules.transition import Action, check
from entropy3d.scene.probe import SceneProbe

Record = TurnRecord | ActivationRecord | EndRecord


class Game:
    """One game on a table: ``play()`` yields a record per turn start and activation, then the end.

    table: the static Table. geometry: its TableGeometry. producer: who rides the moves.
    players: a Player per gang id. rng: the dice. turns: the number of turns (the scene's when
    None). initial: the state to start from (the scene's when None).
    """

    def __init__(self, table, geometry, producer: Producer, players: Mapping[str, Player],
                 rng: np.random.Generator, turns: int | None = None, initial: State | None = None):
        self.table = table
        self.ruleset = table.ruleset
        self.probe = SceneProbe.from_table(table, geometry)
        self.producer = producer
        self.players = dict(players)
        self.rng = rng
        self.turns = int(turns if turns is not None else table.spec.turns)
        self.state = initial if initial is not None else table.initial_state(geometry.surface_height)
        missing = sorted({m.gang for m in self.state.models.values()} - set(self.players))
        if missing:
            raise ValueError(f"no player for gang(s) {', '.join(missing)}")

    def play(self) -> Iterator[Record]:
        reason = ""
        turn = 0
        for turn in range(1, self.turns + 1):
            self.state = dataclasses.replace(self.state, turn=turn)
            reason = missions.game_over(self.state)
            if reason:
                turn -= 1
                break
            yield self._start_turn(turn)
            for model_id in self._order:
                yield self._activate(turn, model_id)
                reason = missions.game_over(self.state)
                if reason:
                    break
            if reason:
                break
        if not reason:
            reason = f"{self.turns} turn{'s' if self.turns != 1 else ''} played"
        yield EndRecord(reason, turn, dict(self.state.score), missions.winner(self.state), self.state)

    # -- turns -------------------------------------------------------------------------------

    def _start_turn(self, turn: int) -> TurnRecord:
        gangs = sorted({m.gang for m in self.state.models.values()}, key=list(self.table.spec.gangs).index)
        roll = roll_off(self.rng, self.ruleset)
        first = gangs[roll.winner] if roll.winner < len(gangs) else gangs[0]
        waiting = [Activator(m.id, m.gang, m.speed) for m in self.state.models.values() if m.in_play]
        self._order = activation_order(waiting, first, self.ruleset)
        return TurnRecord(turn, roll.rounds, first, tuple(self._order))

    # -- activations ---------------------------------------------------------------------------

    def _take(self, action: Action) -> Step:
        step = take(self.state, action, self.ruleset, self.rng, self.producer, self.probe)
        self.state = step.after
        return step

    def _activate(self, turn: int, model_id: str) -> ActivationRecord:
        before = self.state
        model = before.model(model_id)
        if not model.in_play:
            return ActivationRecord(turn, model_id, model.gang, (), (), before, before)
        start = self._take(Action.activate(model_id))
        player = self.players[model.gang]
        per_activation = int(self.ruleset.data("turn.actions_per_activation"))
        actions: list[ActionRecord] = []
        attacked = False
        while True:
            model = self.state.model(model_id)
            if not model.in_play or model.actions_taken >= per_activation:
                break
            index = model.actions_taken
            if model.skip_next_action:
                actions.append(_record(index, self._take(Action.skip(model_id))))
                continue
            records, attacked = self._action(ActionView(self.state, model, index, self.probe, self.ruleset),
                                             player, attacked)
            actions += records
        return ActivationRecord(turn, model_id, model.gang, start.events, tuple(actions), before, self.state)

    def _action(self, view: ActionView, player: Player, attacked: bool) -> tuple[list[ActionRecord], bool]:
        model = view.model
        plan = player.choose_plan(view)
        action = Action.ride(model.id, plan, player.push)
        try:
            steps = take_action(self.state, action, self.ruleset, self.rng, self.producer, self.probe)
        except IllegalPlanError:
            if not getattr(player, "may_be_cornered", False):
                raise
            # every path is blocked: the impact cannot be avoided, the ride decides (EC-COL-1)
            steps = take_action(self.state, dataclasses.replace(action, unavoidable=True), self.ruleset, self.rng,
                                self.producer, self.probe)
        self.state = steps[-1].after
        records = [_record(view.action_index, step) for step in steps]
        after = self.state.model(model.id)
        moved = steps[0].action.move
        if not attacked and after.status == RIDING and not after.stopped and moved.attacks_allowed > 0 and not any(
                e.kind in ("bust", "crash") for s in steps for e in s.events):
            attack = self._attack(view, player, after)
            if attack is not None:
                attacked = True
                last = records[-1]
                now = self.state.model(model.id)
                records[-1] = dataclasses.replace(last, attack=attack, stress_after=now.stress, model_after=now)
        return records, attacked

    # -- attacks (a game of chicken; the weapons come with the combat rules) ---------------------

    def attack_options(self, attacker: ModelState) -> list[AttackOption]:
        """Games of chicken the rules allow the attacker now (EC-MEL-CHICKEN, EC-JUMP-3)."""
        options = []
        for target in self.state.models.values():
            if target.gang == attacker.gang:
                continue
            try:
                check(self.state, Action.attack(attacker.id, target.id), self.ruleset)
            except IllegalPlanError:
                continue
            options.append(AttackOption("chicken", target.id, int(self.ruleset.data("chicken.tn"))))
        return options

    def _attack(self, view: ActionView, player: Player, attacker: ModelState) -> dict | None:
        options = self.attack_options(attacker)
        choice = player.choose_attack(dataclasses.replace(view, state=self.state, model=attacker), options)
        if choice is None:
            return None
        defender = self.players[self.state.model(choice.target).gang]
        step = self._take(Action.attack(attacker.id, choice.target, player.push, defender.push))
        return {"kind": choice.kind, "attacker": attacker.id, "target": choice.target,
                "events": [e.to_json() for e in step.events], "text": "; ".join(e.rules for e in step.events),
                "clauses": sorted({c for e in step.events for c in e.clauses})}


def _record(index: int, step: Step) -> ActionRecord:
    move = step.action.move
    return ActionRecord(index, step.action, np.zeros((0, 2)) if move is None else move.path, step.facts, step.events,
                        None, step.before.model(step.action.model_id).stress,
                        step.after.model(step.action.model_id).stress, step.ridden,
                        step.after.model(step.action.model_id))
