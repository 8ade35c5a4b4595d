"""The game loop: turns, activations, actions, attacks and the mission's end (EC-TURN-1..4).

Each turn both players roll off (EC-TURN-1, :func:`entropy3d.rules.speeds.roll_off`); the winner
activates first; models activate by speed, players alternating (EC-TURN-2,
:func:`~entropy3d.rules.speeds.activation_order`); an activation has two actions (EC-TURN-3).
Every action is checked and applied by the rules engine
(:func:`entropy3d.rules.activation.apply_action`: stress, template tests, busts), then ridden by
a :class:`~entropy3d.game.ride.Rider` (physics or the tabletop path), whose crash, destructible,
jump and cliff-edge results come back already resolved by the rules engine. After the move the
player may attack a rival in reach. Nothing here decides a rule itself; it sequences them and
keeps the :class:`~entropy3d.game.state.MatchState`.

All randomness comes from one injected ``numpy.random.Generator`` (the dice) plus the players'
own generators, so the same seed plays the same game.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator, Mapping

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game import missions
from entropy3d.game.players import ActionView, AttackOption, Player
from entropy3d.game.records import ActionRecord, ActivationRecord, EndRecord, TurnRecord
from entropy3d.game.ride import Rider, roll_to_json
from entropy3d.game.state import AIR_TIME, ESCAPED, OUT, RIDING, BikeState, MatchState
from entropy3d.game.tablemap import TableMap
from entropy3d.rules import activation as core
from entropy3d.rules.combat import base_gap_in, chicken_allowed, chicken_stress
from entropy3d.rules.dice import Outcome, resolve_bust
from entropy3d.rules.opposed import opposed_test
from entropy3d.rules.speeds import Activator, activation_order, roll_off

#: DECISION: a game of chicken is a deliberate *near miss*; we take "near" as bases at most this
#: many inches apart (the rulebook gives no distance). Inches.
NEAR_MISS_IN = 1.0

Record = TurnRecord | ActivationRecord | EndRecord


def to_core(bike: BikeState, turn: int) -> core.BikeState:
    """The rules engine's view of a bike at the start of its activation."""
    return core.start_activation(core.BikeState(
        id=bike.id, bike_type=bike.bike, pose=bike.pose, speed=bike.speed, stress=bike.stress,
        wounds=bike.wounds, max_stress=bike.max_stress, turn_number=turn, forced_speed=bike.forced_speed,
        skip_next_action=bike.skip_next_action))


class Game:
    """One game on a table: ``play()`` yields a record per turn start and activation, then the end.

    table: the static Table. geometry: its TableGeometry. rider: how actions are ridden.
    players: a Player per gang id. rng: the dice. turns: the number of turns (the scene's when
    None).
    """

    def __init__(self, table, geometry, rider: Rider, players: Mapping[str, Player],
                 rng: np.random.Generator, turns: int | None = None, initial: MatchState | None = None):
        from entropy3d.game.state import initial_state

        self.table = table
        self.ruleset = table.ruleset
        self.table_map = TableMap(geometry, {r.id: r.heading for r in table.spec.ramps})
        self.rider = rider
        self.players = dict(players)
        self.rng = rng
        self.turns = int(turns if turns is not None else table.spec.turns)
        self.mission = table.spec.mission
        self.state = initial if initial is not None else initial_state(table, geometry.surface_height)
        missing = sorted({b.gang for b in self.state.bikes.values()} - set(self.players))
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
                record = self._activate(turn, model_id)
                yield record
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
        gangs = sorted({b.gang for b in self.state.bikes.values()}, key=list(self.table.spec.gangs).index)
        roll = roll_off(self.rng, self.ruleset)
        first = gangs[roll.winner] if roll.winner < len(gangs) else gangs[0]
        waiting = [Activator(b.id, b.gang, b.speed) for b in self.state.bikes.values() if b.in_play]
        self._order = activation_order(waiting, first, self.ruleset)
        return TurnRecord(turn, roll.rounds, first, tuple(self._order))

    # -- activations ---------------------------------------------------------------------------

    def _activate(self, turn: int, model_id: str) -> ActivationRecord:
        before = self.state
        bike = before.bike(model_id)
        if not bike.in_play:
            return ActivationRecord(turn, model_id, bike.gang, (), f"{bike.status}", before, before)
        if bike.skip_next_activation:
            self.state = before.with_bike(bike.but(skip_next_activation=False))
            return ActivationRecord(turn, model_id, bike.gang, (),
                                    "skips this activation (stopped, or survived a head-on crash)",
                                    before, self.state)
        player = self.players[bike.gang]
        rules_bike = to_core(bike, turn)
        actions: list[ActionRecord] = []
        attacked = False
        per_activation = int(self.ruleset.data("turn.actions_per_activation"))
        for index in range(per_activation):
            bike = self.state.bike(model_id)
            if not bike.in_play or rules_bike.actions_taken >= per_activation:
                break
            if rules_bike.skip_next_action:
                rules_bike = dataclasses.replace(rules_bike, skip_next_action=False,
                                                 actions_taken=rules_bike.actions_taken + 1)
                self.state = self.state.with_bike(bike.but(skip_next_action=False))
                actions.append(ActionRecord(index, "", "remounting after a bust (EC-DICE-4)", bike.speed,
                                            np.zeros((0, 2)), np.zeros((0, 5)), bike.stress, bike.stress))
                continue
            view = ActionView(self.state, bike.but(speed=rules_bike.speed, stress=rules_bike.stress), index,
                              turn == 1 and index == 0, rules_bike.forced_speed, self.table_map, self.ruleset)
            record, rules_bike, attacked = self._action(view, player, rules_bike, attacked)
            actions.append(record)
        return ActivationRecord(turn, model_id, before.bike(model_id).gang, tuple(actions), "", before, self.state)

    def _action(self, view: ActionView, player: Player, rules_bike: core.BikeState,
                attacked: bool) -> tuple[ActionRecord, core.BikeState, bool]:
        bike = view.bike
        plan_text = player.choose_plan(view)
        cornered = False
        try:
            outcome = self.rider.ride_action(self.state, rules_bike, plan_text, self.rng, player.policy)
        except IllegalPlanError:
            if not getattr(player, "may_be_cornered", False):
                raise
            # every path is blocked: the impact cannot be avoided, the ride decides (EC-COL-1)
            outcome = self.rider.ride_action(self.state, rules_bike, plan_text, self.rng, player.policy,
                                             table_checks=False)
            cornered = True
        move, after = outcome.move, outcome.bike
        if len(outcome.trajectory) == 0:
            # busted before riding: the bike crashes where it stands, not at the plan's unridden end
            after = dataclasses.replace(after, pose=rules_bike.pose)
        notes = [f"{bike.id}: {move.plan}" + (" (cornered: no clear path, EC-COL-1)" if cornered else "")]
        clauses = list(move.clauses)
        tests = []
        for event in outcome.events:
            notes.append(event.text)
            clauses += [c for c in event.clauses if c not in clauses]
            tests += [dict(r) for r in event.rolls]
        status = OUT if after.out_of_game else ESCAPED if outcome.escaped else AIR_TIME if outcome.airborne else RIDING
        if after.out_of_game or outcome.escaped:
            after = dataclasses.replace(after, out_of_game=True)
        updated = bike.but(pose=after.pose, speed=after.speed, stress=after.stress, wounds=after.wounds,
                           status=status, skip_next_activation=after.skip_next_activation,
                           skip_next_action=after.skip_next_action, forced_speed=after.forced_speed,
                           air_carry_in=outcome.air_carry_in, air_speed=outcome.air_speed,
                           air_velocity_in_s=outcome.air_velocity_in_s,
                           only_moved=not outcome.events)
        state = self.state.with_bike(updated)
        for piece_id, spot in outcome.scenery.items():
            state = state.with_scenery(piece_id, spot)
        self.state = self._score(state, bike, updated, outcome.busts, by_gang=None, escaped=outcome.escaped)
        if outcome.busts or status != RIDING or any(e.kind == "crash" for e in outcome.events):
            after = dataclasses.replace(after, actions_taken=max(after.actions_taken, 2))
        attack = None
        if not attacked and not outcome.busts and status == RIDING and move.attacks_allowed > 0:
            attack = self._attack(view, player, updated)
            attacked = attack is not None
            if attack is not None:
                notes.append(attack["text"])
                clauses += [c for c in attack["clauses"] if c not in clauses]
                now = self.state.bike(bike.id)
                after = dataclasses.replace(after, stress=now.stress, wounds=now.wounds,
                                            out_of_game=now.status == OUT, skip_next_action=now.skip_next_action)
        record = ActionRecord(view.action_index, str(move.plan), "", move.speed, move.path, outcome.trajectory,
                              bike.stress, self.state.bike(bike.id).stress, tuple(tests), outcome.events, attack,
                              tuple(clauses), tuple(notes))
        return record, after, attacked

    def _score(self, state: MatchState, before: BikeState, after: BikeState, busts: int,
               by_gang: str | None, escaped: bool = False) -> MatchState:
        for _ in range(busts):
            state = missions.score_bust(state, after, self.mission)
        if after.status == OUT and before.status != OUT:
            state = missions.score_taken_out(state, after, by_gang, self.mission)
        if escaped:
            state = missions.score_escaped(state, after, self.mission)
        return state

    # -- attacks -------------------------------------------------------------------------------

    def attack_options(self, attacker: BikeState) -> list[AttackOption]:
        """Games of chicken the attacker may start now (EC-MEL-CHICKEN, EC-JUMP-3)."""
        options = []
        base = self.ruleset.base_for(attacker.bike)
        for target in self.state.bikes.values():
            if target.gang == attacker.gang or target.status != RIDING or attacker.status != RIDING:
                continue
            gap = base_gap_in(attacker.pose, base, target.pose, self.ruleset.base_for(target.bike))
            if gap <= NEAR_MISS_IN and chicken_allowed(attacker.pose, target.pose):
                options.append(AttackOption("chicken", target.id, int(self.ruleset.data("chicken.tn"))))
        return options

    def _attack(self, view: ActionView, player: Player, attacker: BikeState) -> dict | None:
        options = self.attack_options(attacker)
        choice = player.choose_attack(dataclasses.replace(view, state=self.state, bike=attacker), options)
        if choice is None:
            return None
        target = self.state.bike(choice.target)
        defender_player = self.players[target.gang]
        duel = opposed_test("melee", choice.tn, attacker.stress, target.stress, self.rng, self.ruleset,
                            attacker_policy=player.policy, defender_policy=defender_player.policy,
                            defender_tn=choice.tn, attacker_max_stress=attacker.max_stress,
                            defender_max_stress=target.max_stress)
        rolls = [roll_to_json(duel.attacker, f"{attacker.id} chicken"), roll_to_json(duel.defender,
                                                                                    f"{target.id} chicken")]
        clauses = ["EC-MEL-CHICKEN", "EC-DICE-2", "EC-DICE-5"]
        winner = loser = None
        if duel.attacker_wins:
            winner, loser, roll = attacker, target, duel.attacker
        elif duel.defender.succeeded:
            winner, loser, roll = target, attacker, duel.defender
        text = (f"{attacker.id} plays chicken with {target.id}: {_dice(duel.attacker)} vs "
                f"{_dice(duel.defender)}")
        if winner is not None:
            result = chicken_stress(roll.total, self.ruleset, roll.outcome is Outcome.CRIT)
            self.state = self.state.with_bike(self.state.bike(loser.id).but(
                stress=self.state.bike(loser.id).stress + result.loser))
            self.state = self.state.with_bike(self.state.bike(winner.id).but(
                stress=self.state.bike(winner.id).stress + result.winner))
            text += f" -> {winner.id} wins: {loser.id} +{result.loser} stress, {winner.id} +{result.winner}"
        else:
            text += " -> nobody flinches"
        for side, roll_, who in (("attacker", duel.attacker, attacker), ("defender", duel.defender, target)):
            if roll_.outcome is Outcome.BUST:
                self._attack_bust(who, roll_, attacker.gang if side == "defender" else None, rolls)
                text += f"; {who.id} busts"
                clauses.append("EC-DICE-4")
        return {"kind": choice.kind, "attacker": attacker.id, "target": target.id, "rolls": rolls,
                "winner": None if winner is None else winner.id, "text": text, "clauses": clauses}

    def _attack_bust(self, who: BikeState, roll, by_gang: str | None, rolls: list) -> None:
        current = self.state.bike(who.id)
        policy = self.players[who.gang].policy
        bust = resolve_bust(current.wounds, current.stress, self.rng, self.ruleset, policy, current.max_stress)
        if bust.remount is not None:
            rolls.append(roll_to_json(bust.remount, f"{who.id} remount (EC-DICE-4)"))
        after = current.but(wounds=bust.wounds_after, status=OUT if bust.out_of_game else current.status,
                            skip_next_action=bust.skip_next_action)
        self.state = self._score(self.state.with_bike(after), current, after, 1, by_gang)


def _dice(roll) -> str:
    return f"{'+'.join(map(str, roll.dice))}+{roll.stress} = {roll.total} ({roll.outcome.value})"


