"""Tag's engine: the one path's ``check`` and ``resolve`` and the turn's phases, over the one
game state (a runner tagged is ``out``; the score is each side's tags).

Pure: the table is asked through :class:`~entropy3d.systems.skirmish.FigureTable` when a walk is
checked; a walk's facts come from the shared producers (physics or geometric), the dice from
the injected generator. Lengths in inches.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.plan import parse_plan
from entropy3d.systems.entropy_city.state import OUT, State
from entropy3d.systems.entropy_city.transition import ACTIVATE, END, MOVE, Action
from entropy3d.systems.skirmish import (
    FigureTable,
    TurnStart,
    checked_walk,
    game_start,
    most_points,
    others_score,
    roll_die,
    roll_for_first,
    side_without_models,
    sides_of,
    taking_turns,
)
from entropy3d.systems.tag import Tag

#: the action that tags an enemy (its ``target``)
TAG = "tag"


class TagEngine:
    """Tag for one scene's runners (``system``: the :class:`~entropy3d.systems.tag.Tag` with its
    rules data; ``stats``: the scene's, which Tag has none of)."""

    #: the one path hands :meth:`resolve` the producer's bare facts of a walk and nothing for a tag
    reads_sight = False
    reads_rides = False
    condition_words: Mapping[str, str] = {}

    def __init__(self, system: Tag, stats: Mapping):
        self.system, self.rules = system, system.rules

    def initial_state(self, table_state: State) -> State:
        return game_start(table_state, self.rules.mission, table_state.models)

    def gangs(self, state: State) -> list[str]:
        return sides_of(state)

    def start_turn(self, state: State, rng: np.random.Generator, previous: str | None) -> TurnStart:
        """TAG-TURN: each side rolls a die, the higher goes first; a tie is rolled again."""
        sides = self.gangs(state)
        return roll_for_first(sides, lambda: (roll_die(rng, self.rules.die_sides), roll_die(rng, self.rules.die_sides)))

    def action_phase(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
        return state, []

    def ready(self, state: State, gang: str) -> list[str]:
        """The runners of ``gang`` still in the game."""
        return [m.id for m in state.models.values() if m.gang == gang and m.in_play]

    def activation_order(self, state: State, first: str, chosen: Mapping[str, Sequence[str]]) -> list[str]:
        """TAG-TURN: the sides take turns, one runner each, the first side first."""
        return taking_turns(first, chosen)

    def end_turn(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event], list[str]]:
        return state, [], []

    def game_over(self, state: State, bottled: Sequence[str] = ()) -> str:
        """TAG-END: a side with no runner left ends the game."""
        side = side_without_models(state)
        return f"{side} has no runner left" if side else ""

    def winner(self, state: State, bottled: Sequence[str] = ()) -> str:
        """TAG-END: the side with the most points; "" for a draw."""
        return most_points(state)

    def parse_action(self, model_id: str, text: str) -> Action:
        """``walk: pivot left 45, straight 3`` or ``tag TARGET``."""
        words = text.split()
        if words and words[0].lower() == TAG:
            if len(words) != 2:
                raise IllegalPlanError("TAG-TAG", f"say whom to tag: 'tag RUNNER', not {text!r}")
            return Action(TAG, model_id, target=words[1])
        return Action(MOVE, model_id, parse_plan(text.strip()))

    def check(self, state: State, action: Action, table: FigureTable | None = None) -> Action:
        """One action an activation: a walk of at most ``move_in`` clear of walls and drops
        (TAG-MOVE), or a tag of an enemy in the game within ``reach_in`` (TAG-TAG). Returns the
        walk with its checked move. Changes nothing, rolls nothing."""
        model = state.model(action.model_id)
        if not model.in_play:
            raise IllegalPlanError("TAG-END", f"{model.id} is out of the game")
        if action.kind in (ACTIVATE, END):
            return action
        if model.actions_taken:
            raise IllegalPlanError("TAG-TURN", f"{model.id} has taken its one action this activation")
        if action.kind == MOVE:
            rules = self.rules
            move = checked_walk(model, action.plan, rules.move_in, rules.path_spacing_in, table, "TAG-MOVE",
                                figure="runner", noun="walk", who=f"the {rules.move_in:g}\" {model.id} walks",
                                not_played="climbing and jumping")
            return Action(MOVE, model.id, action.plan, move=move)
        if action.kind == TAG:
            if action.target not in state.models or state.model(action.target).gang == model.gang:
                raise IllegalPlanError("TAG-TAG", f"{action.target!r} is not an enemy runner")
            target = state.model(action.target)
            if not target.in_play:
                raise IllegalPlanError("TAG-TAG", f"{target.id} is already out")
            gap = math.hypot(target.pose.x - model.pose.x, target.pose.y - model.pose.y)
            if gap > self.rules.reach_in:
                raise IllegalPlanError("TAG-TAG", f"{target.id} is {gap:.1f}\" away: a tag reaches "
                                                  f"{self.rules.reach_in:g}\"")
            return action
        raise IllegalPlanError("TAG-TURN", f"a runner may walk or tag; not {action.kind!r}")

    def resolve(self, state: State, action: Action, facts: Facts | None,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """A checked action applied: a walk ends where the producer's walk ended (TAG-MOVE); a tag
        rolls a die and takes the target out on ``tag_on`` or more, scoring (TAG-TAG, TAG-END)."""
        model = state.model(action.model_id)
        if action.kind == ACTIVATE:
            return state.with_model(model.but(actions_taken=0)), []
        if action.kind == END:
            return state, []
        model = model.but(actions_taken=model.actions_taken + 1)
        state = state.with_model(model)
        if action.kind == MOVE:
            length = float(facts.progress_in)
            return state.with_model(model.but(pose=facts.end_pose)), [
                Event("move", model.id, f"walks {length:.1f}\" of its {self.rules.move_in:g}\"",
                      found=f"walked {length:.1f}\"", producer=facts.producer, clauses=("TAG-MOVE",),
                      figures={"walked": True, "length_in": round(length, 1)})]
        roll = DiceRoll.against("tag", (roll_die(rng, self.rules.die_sides),), self.rules.tag_on,
                                self.rules.die_sides, words=("tagged", "missed"))
        die, tagged = roll.dice[0], roll.succeeded
        events = [Event("tag", model.id, f"tags {action.target}: rolled {die} needing {self.rules.tag_on}+: "
                        + ("tagged, out" if tagged else "missed"), piece=action.target, clauses=("TAG-TAG",),
                        figures={"target": action.target, "die": die, "needed": self.rules.tag_on,
                                 "taken_out": tagged}, rolls=(roll,))]
        if tagged:
            target = state.model(action.target)
            state, scored = others_score(state.with_model(target.but(status=OUT)), target,
                                         self.rules.points_per_tag, "tagged", "TAG-END")
            events += scored
        return state, events
