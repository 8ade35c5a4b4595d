"""The game loop: turns, activations, actions, attacks and the mission's end (EC-TURN-1..4).

Each turn both players roll off (EC-TURN-1, :func:`entropy3d.rules.speeds.roll_off`); the winner
activates first; models activate by speed, players alternating (EC-TURN-2,
:func:`~entropy3d.rules.speeds.activation_order`); an activation has two actions (EC-TURN-3).
Every action goes the one path (:mod:`entropy3d.game.step`): the player's plan is checked by
the rules against the table, a producer (physics or geometric) rides it, and the rules resolve
what it found. After the move the player may attack a rival in reach when the rules give it the
chance (:func:`~entropy3d.rules.attacks.attack_chance`; the shot in a skipped activation after a
reload and remaining on overwatch, :mod:`~entropy3d.rules.stopped_guns`). Nothing here decides a
rule itself; it sequences them and keeps the :class:`~entropy3d.rules.state.State`.

All randomness comes from one injected ``numpy.random.Generator`` (the dice) plus the players'
own generators, so the same seed plays the same game.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterator, Mapping

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.judging import RideJudge
from entropy3d.game.players import ActionView, AttackOption, Player
from entropy3d.game.records import ActionRecord, ActivationRecord, EndRecord, TurnRecord
from entropy3d.game.step import Producer, Step, take, take_action
from entropy3d.game.tableview import TableView
from entropy3d.geometry import Pose
from entropy3d.rules import missions
from entropy3d.rules.attack_odds import melee_odds, shot_odds
from entropy3d.rules.attacks import DODGE, FOCUSSED, attack_chance, weapon_kind
from entropy3d.rules.engine import EntropyCityEngine
from entropy3d.rules.speeds import Activator, activation_order, roll_off
from entropy3d.rules.state import ModelState, State, pose_to_json
from entropy3d.rules.stopped_guns import may_remain, may_shoot_while_reloading
from entropy3d.rules.transition import Action

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
        self.probe = TableView(table, geometry)
        self.engine = EntropyCityEngine(self.ruleset, self.probe)
        self.producer = producer
        self.players = dict(players)
        self.rng = rng
        self.judge = RideJudge.of(table, geometry, self.probe)
        # the other system's own dice (if it rolls) come from a stream of their own: Entropy City's are unchanged
        self.judge_rng = None if self.judge is None else np.random.default_rng(rng.bit_generator.seed_seq.spawn(1)[0])
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
        waiting = [Activator(m.id, m.gang, m.speed, m.on_foot) for m in self.state.models.values() if m.in_play]
        self._order = activation_order(waiting, first, self.ruleset)
        return TurnRecord(turn, roll.rounds, first, tuple(self._order))

    # -- activations ---------------------------------------------------------------------------

    def _take(self, action: Action) -> Step:
        step = take(self.engine, self.state, action, self.rng, self.producer, self.probe)
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
        model = self.state.model(model_id)
        if may_shoot_while_reloading(model, start.events):
            shot = self._attack(ActionView(self.state, model, 0, self.probe, self.ruleset), player, model)
            if shot is not None:
                attacked = True
                actions.append(dataclasses.replace(_record(0, shot[1]), events=(), attack=shot[0]))
        while True:
            model = self.state.model(model_id)
            if not model.in_play or model.actions_taken >= per_activation:
                break
            index = model.actions_taken
            if model.skip_next_action:
                actions.append(_record(index, self._take(Action.skip(model_id))))
                continue
            view = ActionView(self.state, model, index, self.probe, self.ruleset)
            remain = getattr(player, "remain_on_overwatch", None)
            if remain is not None and may_remain(model) and remain(view):
                actions.append(_record(index, self._take(Action.watch(model_id))))
                continue
            records, attacked = self._action(view, player, attacked)
            actions += records
        if self.state.model(model_id).in_play:
            end = self._take(Action.end(model_id))
            events = start.events + end.events
        else:
            events = start.events
        return ActivationRecord(turn, model_id, model.gang, events, tuple(actions), before, self.state)

    def _action(self, view: ActionView, player: Player, attacked: bool) -> tuple[list[ActionRecord], bool]:
        model = view.model
        plan = player.choose_plan(view)
        action = Action.ride(model.id, plan, player.push)
        try:
            steps = take_action(self.engine, self.state, action, self.rng, self.producer, self.probe)
        except IllegalPlanError:
            if not getattr(player, "may_be_cornered", False):
                raise
            # every path is blocked: the impact cannot be avoided, the ride decides (EC-COL-1)
            steps = take_action(self.engine, self.state, dataclasses.replace(action, unavoidable=True), self.rng,
                                self.producer, self.probe)
        self.state = steps[-1].after
        records = [_record(view.action_index, step) for step in steps]
        if self.judge is not None:
            records = [dataclasses.replace(record, rulings=self.judge.rulings(model.id, [step], self.judge_rng))
                       if step.ridden else record for record, step in zip(records, steps)]
        after = self.state.model(model.id)
        chance = attack_chance(after, steps[0].action.move, [e for s in steps for e in s.events], attacked)
        if chance is not None:
            attack = self._attack(view, player, after, None if chance == FOCUSSED else steps[-1].trajectory)
            if attack is not None:
                attacked = True
                last = records[-1]
                now = self.state.model(model.id)
                records[-1] = dataclasses.replace(last, attack=attack[0], stress_after=now.stress, model_after=now)
        return records, attacked

    # -- attacks ---------------------------------------------------------------------------------

    def attack_options(self, attacker: ModelState, ridden=None, push: str = "sit-at-tn") -> list[AttackOption]:
        """The attacks the rules allow the attacker now, from the best point of its last ridden
        move (EC-ACT-ATTACK): chicken, its melee weapon, its gun (EC-MEL-*, EC-GUN-*), each with
        its exact odds against the target's player pushing its own way (``push``: the attacker's)."""
        poses = _poses_along(ridden, attacker.pose)
        weapons = ["chicken", attacker.weapon] + ([attacker.gun] if attacker.gun and attacker.ammo > 0 else [])
        options = []
        for target in self.state.models.values():
            if target.gang == attacker.gang or not target.in_play:
                continue
            nearest = min(poses, key=lambda p: math.hypot(p.x - target.pose.x, p.y - target.pose.y))
            if math.hypot(nearest.x - target.pose.x, nearest.y - target.pose.y) > MAX_ATTACK_IN:
                continue
            for weapon in weapons:
                if weapon == "chicken":
                    tries = [attacker.pose]
                elif weapon == attacker.gun:
                    tries = [poses[-1], poses[len(poses) // 2], poses[0]]  # each asks the LOS engine
                else:
                    tries = poses
                for pose in tries:
                    try:
                        action = Action.attack(attacker.id, target.id, weapon, from_pose=None if weapon == "chicken"
                                               else pose)
                        self.engine.check(self.state, action, self.probe)
                    except IllegalPlanError:
                        continue
                    options.append(self._option(action, push))
                    break
        return options

    def _option(self, action: Action, push: str) -> AttackOption:
        """The option of a legal attack, with its TN and exact odds (the melee target dodging)."""
        target = self.state.model(action.target)
        defender_push = self.players[target.gang].push if target.gang in self.players else "sit-at-tn"
        kind = weapon_kind(action.weapon, self.ruleset)
        if kind == "chicken":
            return AttackOption(action.weapon, target.id, int(self.ruleset.data("chicken.tn")), action.from_pose)
        if kind == "gun":
            odds = shot_odds(self.state, action.model_id, target.id, action.weapon, self.ruleset, push=push,
                             defender_push=defender_push)
        else:
            odds = melee_odds(self.state, action.model_id, target.id, action.weapon, DODGE, self.ruleset, push=push,
                              defender_push=defender_push, from_pose=action.from_pose)
        return AttackOption(action.weapon, target.id, odds.tn, action.from_pose, odds, defender_push)

    def _attack(self, view: ActionView, player: Player, attacker: ModelState, ridden=None
                ) -> tuple[dict, Step] | None:
        """The attack the player chooses among the options, taken: its record and its step."""
        options = self.attack_options(attacker, ridden, player.push)
        choice = player.choose_attack(dataclasses.replace(view, state=self.state, model=attacker), options)
        if choice is None:
            return None
        defender = self.players[self.state.model(choice.target).gang]
        shooter = choice.from_pose or attacker.pose
        # where both stood and, for a shot, what the LOS engine showed the shooter: the video draws it
        seen = {"from_pose": pose_to_json(shooter), "target_pose": pose_to_json(self.state.model(choice.target).pose)}
        if weapon_kind(choice.kind, self.ruleset) == "gun":
            seen["visible"] = round(self.probe.sight(self.state, attacker.id, choice.target, shooter).visible_fraction,
                                    4)
        step = self._take(Action.attack(attacker.id, choice.target, choice.kind, choice.push or player.push,
                                        defender.push, from_pose=choice.from_pose))
        return {"kind": choice.kind, "attacker": attacker.id, "target": choice.target,
                "events": [e.to_json() for e in step.events], "text": "; ".join(e.rules for e in step.events),
                "clauses": sorted({c for e in step.events for c in e.clauses}), **seen}, step


#: attacks are only looked for at rivals this close (inches): past every weapon's reach and beyond
#: what the automatic players would shoot at (the rules check each attack exactly)
MAX_ATTACK_IN = 40.0


def _poses_along(ridden, end: Pose, every_in: float = 1.0) -> list[Pose]:
    """Poses of the attacker along its last ridden move, about ``every_in`` apart, ending where it
    stands (EC-ACT-ATTACK: an attack at any point along the move)."""
    if ridden is None or len(ridden) < 2:
        return [end]
    steps = np.hypot(*np.diff(ridden[:, 1:3], axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(steps)])
    marks = np.arange(0.0, along[-1], every_in)
    picks = np.unique(np.searchsorted(along, marks).clip(0, len(ridden) - 1))
    poses = [Pose(float(r[1]), float(r[2]), float(r[4]) % 360.0, float(r[3])) for r in ridden[picks]]
    return poses + [end]


def _record(index: int, step: Step) -> ActionRecord:
    move = step.action.move
    return ActionRecord(index, step.action, np.zeros((0, 2)) if move is None else move.path, step.facts, step.events,
                        None, step.before.model(step.action.model_id).stress,
                        step.after.model(step.action.model_id).stress, step.ridden,
                        step.after.model(step.action.model_id))
