"""The 10acity Tactics skirmish (seed 002) on the one game state: ``check`` apart from ``resolve``.

The one path of :mod:`entropy3d.systems.entropy_city.transition`, for this system::

    Action --check(state, action, table)--> IllegalPlanError(TEN-*)
                 | legal: the action with its checked walk, or its target and weapon
                 v
           facts: a producer's walk (Facts) for a move, the LOS engine's Sighting for an attack
                 |
                 v
           resolve(state, action, facts, rng) --> (State, [Event])

An attack is the seed's "Dealing damage": the attacker's hero dice (d10, the highest kept, plus
the skill rank) against the defender's Reaction, ties to the defender; a success deals the impact
dice (d4, summed) plus the weapon's bonus as stress. What the table does to it is decided once, in
:class:`~entropy3d.systems.tenacity.TenacityTactics`: :meth:`~TenacityTactics.attack` (TEN-COVER:
no attack through complete hard cover, a blind attack into complete soft cover, partial hard cover
one size smaller; TEN-SIZE: the size steps' modifier, dice and damage factor; TEN-ELEV: cover
behind low obstacles denied) and :meth:`~TenacityTactics.perception_dice` (TEN-ELEV, the blind
attack's find roll); the initiative Perception of a figure above an enemy rolls TEN-ELEV's
advantage die (:meth:`~TenacityTactics.initiative_perception_dice`). Pure like the
rules engine: the table is asked through :class:`FigureTable`, dice come from the injected
``numpy.random.Generator``. What the engine keeps in the one :class:`~entropy3d.systems.entropy_city.state.State`:
``stress`` and ``wounds`` (TEN-STRESS), status ``out`` for an unconscious figure, ``conditions``
``prone`` (TEN-PRONE) and ``defending`` (TEN-DEFEND), and in ``basic_taken`` the parts of its turn a
figure has used (``movement``, ``action``, ``interaction``; TEN-TURN), ``activated`` once it has had
its turn this round and ``second_side`` when its side goes second. Lengths are table inches.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import storey_of
from entropy3d.systems.entropy_city.plan import parse_plan
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.state import OUT, ModelState, State
from entropy3d.systems.entropy_city.transition import ACTIVATE, ATTACK, END, MOVE, Action
from entropy3d.systems.readings import Sighting
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
)
from entropy3d.systems.tenacity import Attack, FigureProfile, TenacityTactics, past_words

DEFEND, GO_PRONE, STAND_UP = "defend", "go_prone", "stand_up"
PRONE, DEFENDING = "prone", "defending"
#: the conditions in people's words
CONDITION_WORDS = {PRONE: "prone", DEFENDING: "on full defensive"}
MOVEMENT, ACTION, INTERACTION = "movement", "action", "interaction"
#: markers in ``basic_taken``: it has had its turn this round; its side goes second (TEN-TURN)
ACTIVATED, SECOND_SIDE = "activated", "second_side"
#: action kind -> the part of a figure's turn it uses (002 "Action Economy")
PART_OF_TURN = {MOVE: MOVEMENT, ATTACK: ACTION, DEFEND: ACTION, GO_PRONE: INTERACTION, STAND_UP: INTERACTION}


@dataclasses.dataclass(frozen=True)
class PoolRoll:
    """One skill check: ``faces`` of the hero dice rolled, ``kept`` the face that counts (the
    highest, after the disadvantage dice set the highest aside), ``rank`` and ``modifier`` added,
    ``extra`` a critical's extra hero die (0 without)."""

    faces: tuple[int, ...]
    kept: int
    rank: int
    modifier: int = 0
    extra: int = 0

    @property
    def result(self) -> int:
        return self.kept + self.rank + self.modifier + self.extra

    def as_roll(self, purpose: str, sides: int, needed: int | None = None,
                words: tuple[str, str] = ("hits", "misses")) -> DiceRoll:
        """This check as the event's roll: the pool's faces then a critical's extra die, the kept
        face counting, its result the total; ``needed``: what it had to reach (None: it set the
        number the other side had to beat)."""
        dice = self.faces + ((self.extra,) if self.extra else ())
        outcome = "" if needed is None else words[0] if self.result >= needed else words[1]
        return DiceRoll(purpose, dice, self.result, needed, outcome, sides, self.kept)

    def text(self) -> str:
        dice = ",".join(map(str, self.faces))
        parts = [f"{self.kept} (of {dice})" if len(self.faces) > 1 else str(self.kept), f"{self.rank:+d}"]
        parts += [f"{self.modifier:+d}"] if self.modifier else []
        parts += [f"+{self.extra} (critical)"] if self.extra else []
        return " ".join(parts) + f" = {self.result}"


def roll_pool(rng: np.random.Generator, dice: int, advantage: int, sides: int) -> tuple[tuple[int, ...], int]:
    """A hero-dice pool: ``dice`` attribute dice and one more per advantage or disadvantage die
    (``advantage`` negative); the highest face kept, less one highest face set aside per
    disadvantage die (rules data ``dice``: advantage and disadvantage cancel one for one)."""
    extra = abs(advantage)
    faces = tuple(roll_die(rng, sides) for _ in range(dice + extra))
    ranked = sorted(faces, reverse=True)
    return faces, ranked[extra] if advantage < 0 else ranked[0]


def _without(conditions: tuple[str, ...], name: str) -> tuple[str, ...]:
    return tuple(c for c in conditions if c != name)


def _dice_words(count: int) -> str:
    kind = "advantage" if count > 0 else "disadvantage"
    return f"{abs(count)} {kind} {'die' if abs(count) == 1 else 'dice'}"


class TenacityEngine:
    """The 10acity skirmish for one scene's figures.

    system: the :class:`~entropy3d.systems.tenacity.TenacityTactics` with its rules data.
    figures: model id -> its numbers. prone_at_start: ids of those that start prone. storey_in:
    the height of a storey of the table, inches (the table's view says it: ``level_height_in`` of
    rules/los.yaml, the storeys of the table's sightings): a figure's level is the height it
    stands at in storeys. An engine built without it (one activation, no turn) rolls no
    initiative.
    """

    #: the one path hands :meth:`resolve` the LOS engine's sighting of a shot's target, and the bare
    #: facts of a walk (:func:`entropy3d.game.step.take`)
    reads_sight = True
    reads_rides = False

    condition_words = CONDITION_WORDS

    def __init__(self, system: TenacityTactics, figures: Mapping[str, FigureProfile], prone_at_start=frozenset(),
                 storey_in: float | None = None):
        self.system, self.rules = system, system.rules
        self.figures = dict(figures)
        self.prone_at_start = frozenset(prone_at_start)
        self.storey_in = storey_in

    # -- the game's start and turns --------------------------------------------------------------

    def initial_state(self, table_state: State) -> State:
        """The table's starting state as a skirmish: each figure's wounds and maximum stress, no
        stress, those that start prone, the mission's name and no score."""
        models = {model_id: model.but(wounds=self.figures[model_id].wounds, stress=0,
                                      max_stress=self.figures[model_id].max_stress,
                                      conditions=(PRONE,) if model_id in self.prone_at_start else ())
                  for model_id, model in table_state.models.items()}
        return game_start(table_state, self.rules.mission.name, models)

    def gangs(self, state: State) -> list[str]:
        return sides_of(state)

    def level(self, model: ModelState) -> int:
        """The storey a figure stands on (its height in storeys, rounded, as the sightings')."""
        if self.storey_in is None:
            raise ValueError("this 10acity engine was built without the table's storey height: it plays no turn")
        return storey_of(model.pose.z, self.storey_in)

    def initiative_advantage(self, state: State, model: ModelState) -> tuple[int, list[str]]:
        """TEN-ELEV on TEN-TURN's initiative Perception: (advantage dice, the enemy figures in play
        it stands in an elevated position over) (:meth:`TenacityTactics.initiative_perception_dice`)."""
        enemies = [m for m in state.models.values() if m.gang != model.gang and m.in_play]
        dice = self.system.initiative_perception_dice(self.level(model), [self.level(m) for m in enemies])
        below = [m.id for m in enemies if self.system.above(self.level(model), self.level(m))] if dice else []
        return dice, below

    def start_turn(self, state: State, rng: np.random.Generator, previous: str | None) -> TurnStart:
        """TEN-TURN, group initiative: every figure in play rolls its Perception (hero dice, the
        highest kept, plus its rank), with TEN-ELEV's advantage die when it stands in an elevated
        position over an enemy (:meth:`initiative_advantage`); the side with the highest result
        goes first; a tie between the sides' best is rolled again. ``previous`` (who went first
        last turn) plays no part."""
        gangs = self.gangs(state)
        advantage = {m.id: self.initiative_advantage(state, m)[0] for m in state.models.values() if m.in_play}

        def best(gang: str) -> int:
            return max((roll_pool(rng, self.figures[m.id].perception_dice, advantage[m.id], self.rules.dice.hero_die)[1]
                        + self.figures[m.id].perception_rank
                        for m in state.models.values() if m.gang == gang and m.in_play), default=0)

        return roll_for_first(gangs, lambda: (best(gangs[0]), best(gangs[1])))

    def ready(self, state: State, gang: str) -> list[str]:
        """TEN-TURN: the figures of ``gang`` that take a turn this round (every one conscious)."""
        return [m.id for m in state.models.values() if m.gang == gang and m.in_play]

    def activation_order(self, state: State, first: str, chosen: Mapping[str, Sequence[str]]) -> list[str]:
        """TEN-TURN, group initiative: the side that goes first, every figure in its player's
        order, then the other side's."""
        return list(chosen.get(first, ())) + [m for gang, ids in chosen.items() if gang != first for m in ids]

    def action_phase(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Nothing happens before the first figure's turn; the turn opens by saying which figures
        rolled their initiative Perception (:meth:`start_turn`, on this same state) with TEN-ELEV's
        advantage die, and over whom. Rolls nothing."""
        events = []
        for model in state.models.values():
            dice, below = self.initiative_advantage(state, model) if model.in_play else (0, [])
            if dice:
                events.append(Event("condition", model.id, (
                    f"stands higher than {', '.join(below)} (storey {self.level(model)}): its initiative "
                    f"Perception rolled with {_dice_words(dice)}"), clauses=("TEN-TURN", "TEN-ELEV"),
                    figures={"initiative_advantage": dice, "level": self.level(model), "above": below}))
        return state, events

    def end_turn(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event], list[str]]:
        """The round is over: every figure's turn is to come again (its used parts cleared). No
        events and no side withdraws."""
        models = {m.id: m.but(basic_taken=(), actions_taken=0) for m in state.models.values()}
        return dataclasses.replace(state, models=models), [], []

    def game_over(self, state: State, withdrawn: Sequence[str] = ()) -> str:
        """Why the skirmish is over ("" while it goes on): a side has no figure conscious."""
        out = side_without_models(state)
        return "" if out is None else f"{out} has no figure conscious"

    def winner(self, state: State, withdrawn: Sequence[str] = ()) -> str:
        """The side with the most points; "" for a draw."""
        return most_points(state)

    # -- check ---------------------------------------------------------------------------------

    def parse_action(self, model_id: str, text: str) -> Action:
        """An action from its text: ``walk: pivot left 45, straight 3`` (its movement), ``attack``
        or ``attack TARGET`` (its action; without a target, the closest it may attack),
        ``defend`` (Full defensive), ``go prone`` or ``stand up`` (its interaction). PlanError for
        a bad walk, IllegalPlanError (TEN-TURN) for anything else."""
        words = " ".join(text.lower().replace("_", " ").split())
        if words.startswith("walk:"):
            return Action(MOVE, model_id, parse_plan(text.strip()))
        if words == "attack" or words.startswith("attack "):
            target = text.strip()[len("attack"):].strip() or None
            return Action(ATTACK, model_id, target=target)
        simple = {"defend": DEFEND, "go prone": GO_PRONE, "stand up": STAND_UP}
        if words not in simple:
            raise IllegalPlanError("TEN-TURN", f"unknown action {text!r}: use 'walk: straight 3', 'attack', "
                                   "'attack MODEL', 'defend', 'go prone' or 'stand up'")
        return Action(simple[words], model_id)

    def check(self, state: State, action: Action, table: FigureTable | None = None) -> Action:
        """Whether ``action`` is legal now; returns it with its checked walk, or its target and
        weapon (an attack). Changes nothing, rolls nothing. Raises IllegalPlanError naming the
        clause."""
        model = state.model(action.model_id)
        if not model.in_play:
            raise IllegalPlanError("TEN-STRESS", f"{model.id} is unconscious")
        if action.kind in (ACTIVATE, END):
            return action
        if action.kind not in PART_OF_TURN:
            raise IllegalPlanError("TEN-TURN", f"a figure may {', '.join(PART_OF_TURN)}; not {action.kind!r}")
        part = PART_OF_TURN[action.kind]
        if part in model.basic_taken:
            raise IllegalPlanError("TEN-TURN", f"{model.id} has taken its {part} this turn: one action, one "
                                   "interaction and one movement a turn")
        prone = PRONE in model.conditions
        if action.kind == MOVE and prone:
            raise IllegalPlanError("TEN-PRONE", f"{model.id} lies prone: it stands up (its interaction) to walk")
        if action.kind == GO_PRONE and prone:
            raise IllegalPlanError("TEN-PRONE", f"{model.id} is already prone")
        if action.kind == STAND_UP and not prone:
            raise IllegalPlanError("TEN-PRONE", f"{model.id} is already standing")
        if action.kind == MOVE:
            return dataclasses.replace(action, move=self.check_move(model, action, table))
        if action.kind == ATTACK:
            return self._check_attack(state, model, action, table)
        return action

    def check_move(self, model: ModelState, action: Action, table: FigureTable | None) -> PlannedMove:
        """TEN-MOVE: straights and pivots up to its movement speed (spaces of ``sizes.space_in``),
        on the figure's level, clear of walls and drops and on the table."""
        most = self.figures[model.id].move_spaces * self.rules.sizes.space_in
        return checked_walk(model, action.plan, most, self.rules.movement.path_spacing_in, table, "TEN-MOVE",
                            figure="figure", noun="walk", who=f"the {most:g}\" of {model.id}'s movement speed",
                            not_played="climbing and jumping")

    def may_attack(self, state: State, sighting: Sighting, weapon: str) -> tuple[bool, str]:
        """Whether the viewer may attack the sighting's target with ``weapon``, and why not:
        a conscious enemy within the weapon's range, seen at least in part, or completely behind
        soft cover (a blind attack); never through complete hard cover (TEN-COVER)."""
        if not state.model(sighting.target).in_play:
            return False, f"{sighting.target} is unconscious"
        reach = self.rules.weapons[weapon].range_in
        if sighting.distance_in > reach:
            return False, (f"{sighting.target} is {sighting.distance_in:.1f}\" away: past the {reach:g}\" "
                           f"of the {weapon}")
        attack = self.system.attack(sighting)
        if not attack.allowed:
            if self.system.cover(sighting).at_viewer:  # the attacker's own cover (the roof it stands on)
                return False, (f"{sighting.target} is completely hidden from {sighting.viewer} by the hard cover "
                               f"in front of it{past_words(sighting)}: it cannot be directly attacked")
            return False, f"{sighting.target} is completely behind hard cover: it cannot be directly attacked"
        if attack.blind_on is None and sighting.visible_fraction <= 0:
            return False, f"{sighting.target} is out of sight: turn to face it (a walk's pivot)"
        return True, ""

    def targets(self, state: State, attacker: str, sightings: Sequence[Sighting]) -> list[tuple[Sighting, Attack]]:
        """The targets ``attacker`` may attack among ``sightings`` with what the rules make of
        each (:meth:`TenacityTactics.attack`), closest first."""
        weapon = self.figures[attacker].weapon
        found = [(s, self.system.attack(s)) for s in sightings
                 if s.viewer == attacker and self.may_attack(state, s, weapon)[0]]
        return sorted(found, key=lambda pair: pair[0].distance_in)

    def _check_attack(self, state: State, model: ModelState, action: Action, table: FigureTable | None) -> Action:
        if table is None:
            raise IllegalPlanError("TEN-COVER", "an attack needs the table's line of sight")
        sightings = [s for s in table.sightings(state, model.id) if s.viewer == model.id]
        weapon = self.figures[model.id].weapon
        if action.target is None:
            allowed = self.targets(state, model.id, sightings)
            if not allowed:
                raise IllegalPlanError("TEN-COVER", f"{model.id} has no enemy it may attack: none in sight and "
                                       f"range of its {weapon} but behind complete hard cover")
            target = allowed[0][0].target
        else:
            target = action.target
            if target not in state.models or state.model(target).gang == model.gang:
                raise IllegalPlanError("TEN-ATTACK", f"{target!r} is not an enemy figure")
            seen = next((s for s in sightings if s.target == target), None)
            if seen is None:
                raise IllegalPlanError("TEN-STRESS", f"{target} is unconscious")
            allowed, why = self.may_attack(state, seen, weapon)
            if not allowed:
                raise IllegalPlanError("TEN-COVER" if "cover" in why or "sight" in why else "TEN-ATTACK", why)
        return dataclasses.replace(action, target=target, weapon=weapon, from_pose=model.pose)

    # -- resolve --------------------------------------------------------------------------------

    def resolve(self, state: State, action: Action, facts: Facts | Sighting | None,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Apply a checked ``action`` with what the table showed (``facts``: the producer's walk
        of a move, the LOS engine's sighting of an attack's target) and the dice of ``rng``. The
        only function that makes the skirmish's next state."""
        model = state.model(action.model_id)
        if action.kind == ACTIVATE:
            return state.with_model(self._turn_begins(state, model)), []
        if action.kind == END:
            return state, []
        spent = model.but(actions_taken=model.actions_taken + 1,
                          basic_taken=model.basic_taken + (PART_OF_TURN[action.kind],))
        state = state.with_model(spent)
        if action.kind == MOVE:
            return self._move(state, spent, action, facts)
        if action.kind == GO_PRONE:
            return state.with_model(spent.but(conditions=spent.conditions + (PRONE,))), [
                Event("condition", model.id, "goes prone: an advantage die defending against attacks from a "
                      "distance", clauses=("TEN-PRONE",))]
        if action.kind == STAND_UP:
            return state.with_model(spent.but(conditions=_without(spent.conditions, PRONE))), [
                Event("condition", model.id, "stands up", clauses=("TEN-PRONE",))]
        if action.kind == DEFEND:
            return state.with_model(spent.but(conditions=spent.conditions + (DEFENDING,))), [
                Event("condition", model.id, "takes the full defensive: an advantage die to its defence until "
                      "its next turn", clauses=("TEN-DEFEND",))]
        return self._attack(state, spent, action, facts, rng)

    def _turn_begins(self, state: State, model: ModelState) -> ModelState:
        """TEN-TURN: its turn's parts are fresh; its side goes second when an enemy has had its turn
        this round; TEN-DEFEND: a full defensive lasts "until your next turn"."""
        second = any(ACTIVATED in m.basic_taken for m in state.models.values() if m.gang != model.gang)
        return model.but(actions_taken=0, basic_taken=(ACTIVATED,) + ((SECOND_SIDE,) if second else ()),
                         conditions=_without(model.conditions, DEFENDING))

    def _move(self, state: State, model: ModelState, action: Action, facts: Facts) -> tuple[State, list[Event]]:
        """TEN-MOVE: the figure stands where the producer's walk ended."""
        length = float(facts.progress_in)
        moved = state.with_model(model.but(pose=facts.end_pose))
        return moved, [Event("move", model.id, f"walks {length:.1f}\" of its {action.move.band.max:g}\"",
                             found=f"walked {length:.1f}\"", producer=facts.producer, clauses=("TEN-MOVE",),
                             figures={"walked": True, "length_in": round(length, 1)})]

    def advantage_dice(self, state: State, attacker: ModelState, sighting: Sighting,
                    attack: Attack) -> tuple[int, int, list[str]]:
        """(attacker's net advantage dice, defender's, the reasons) of an attack: TEN-SIZE's dice
        (:meth:`TenacityTactics.attack`), the second side's die (TEN-TURN), a prone target's
        (TEN-PRONE: the defender's from a distance, the attacker's directly next to it) and a
        full defensive (TEN-DEFEND)."""
        rules, target = self.rules.attack, state.model(sighting.target)
        mine, theirs, why = attack.advantage_dice, 0, []
        if attack.advantage_dice:
            why.append(f"size {attack.size_steps:+d}: {_dice_words(attack.advantage_dice)}")
        if SECOND_SIDE in attacker.basic_taken and self.rules.turn.second_side_advantage_dice:
            mine += self.rules.turn.second_side_advantage_dice
            why.append("its side goes second: an advantage die")
        if PRONE in target.conditions and rules.prone_advantage_dice:
            if sighting.distance_in <= rules.adjacent_in:
                mine += rules.prone_advantage_dice
                why.append("target prone next to it: an advantage die")
            else:
                theirs += rules.prone_advantage_dice
                why.append("target prone at a distance: its advantage die")
        if DEFENDING in target.conditions and rules.defend_advantage_dice:
            theirs += rules.defend_advantage_dice
            why.append("target on full defensive: its advantage die")
        return mine, theirs, why

    def _attack(self, state: State, attacker: ModelState, action: Action, sighting: Sighting,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """TEN-ATTACK, "Dealing damage", with TEN-COVER, TEN-SIZE, TEN-ELEV (the blind attack's
        find roll is a perception check), TEN-TURN's, TEN-PRONE's and TEN-DEFEND's dice; then
        TEN-STRESS."""
        me, target = self.figures[attacker.id], state.model(action.target)
        them, sides = self.figures[target.id], self.rules.dice.hero_die
        attack, cover = self.system.attack(sighting), self.system.cover(sighting)
        elevated = self.system.elevated(sighting)
        clauses = ("TEN-ATTACK", "TEN-COVER", "TEN-SIZE") + (("TEN-ELEV",) if elevated else ())
        found = (f"{target.id} {100 * sighting.visible_fraction:.0f}% visible, {sighting.distance_in:.1f}\" away"
                 + past_words(sighting))
        cover_name = "none" if cover.extent == "none" else f"{cover.extent} {'hard' if cover.hard else 'soft'}"
        figures = {"target": target.id, "weapon": action.weapon, "cover": cover_name,
                   "to_hit_modifier": attack.attack_modifier, "size_steps": attack.size_steps,
                   "damage_factor": attack.damage_factor, "visible_fraction": sighting.visible_fraction,
                   "denied_cover": list(cover.denied)}
        # whose cover it is (TEN-COVER), said when it is the attacker's own (a crate it crouches
        # behind hides the target from it), not the target's
        own = {"cover_at": "attacker"} if cover.at_viewer else {}
        figures.update(own)
        events = []
        if attack.blind_on is not None:
            perception = self.system.perception_dice(sighting)
            faces, kept = roll_pool(rng, 1, perception, self.rules.cover.blind_attack_die)
            finds = kept >= attack.blind_on
            events.append(Event("attack", attacker.id, (
                (f"attacks {target.id} blindly through the soft cover in front of it: " if cover.at_viewer
                 else f"attacks blindly into the soft cover around {target.id}: ")
                + f"1d{self.rules.cover.blind_attack_die} "
                + (f"with {_dice_words(perception)} (higher) " if perception else "")
                + f"{','.join(map(str, faces))} needing {attack.blind_on}+: "
                + ("finds it" if finds else "does not find it")), found=found, producer="line of sight",
                piece=target.id, clauses=("TEN-COVER",) + (("TEN-ELEV",) if perception else ()),
                figures={"dice": list(faces), "needed": attack.blind_on, "found": finds, **own},
                rolls=(PoolRoll(faces, kept, 0).as_roll("find", self.rules.cover.blind_attack_die, attack.blind_on,
                                                         ("finds it", "does not find it")),)))
            if not finds:
                return state, events + [Event("shot", attacker.id, f"attacks {target.id} with the {action.weapon}: "
                                              "no target found", piece=target.id, clauses=clauses,
                                              figures={**figures, "hit": False, "found": False})]
        mine, theirs, why = self.advantage_dice(state, attacker, sighting, attack)
        faces, kept = roll_pool(rng, me.attack_dice, mine, sides)
        rolled = PoolRoll(faces, kept, me.attack_rank, attack.attack_modifier)
        faces, kept = roll_pool(rng, them.reaction_dice, theirs, sides)
        defence = PoolRoll(faces, kept, them.reaction_rank)
        critical = self.rules.dice.critical_face
        if defence.kept == critical:
            defence = dataclasses.replace(defence, extra=roll_die(rng, sides))
        extra_impact = 0
        if rolled.kept == critical:
            if rolled.result > defence.result:
                extra_impact = roll_die(rng, self.rules.dice.impact_die)
            else:
                rolled = dataclasses.replace(rolled, extra=roll_die(rng, sides))
        hit = rolled.result > defence.result
        cover_text = "no cover" if cover.extent == "none" else (
            f"{cover_name} cover" + (f" {cover.where(attacker.id, target.id)}" if cover.at_viewer else "")
            + (": one size smaller" if cover_name == "partial hard" else ""))
        if cover.denied:
            cover_text += f" (none behind {', '.join(cover.denied)}: looked over from above)"
        events.append(Event("shot", attacker.id, (
            f"attacks {target.id} with the {action.weapon} ({cover_text}"
            + (f"; {'; '.join(why)}" if why else "") + f"): attack {rolled.text()} v defence {defence.text()}: "
            + ("hits" if hit else "misses, a tie goes to the defender" if rolled.result == defence.result
               else "misses")), found=found, producer="line of sight", piece=target.id, clauses=clauses
            + (("TEN-TURN",) if SECOND_SIDE in attacker.basic_taken else ())
            + (("TEN-PRONE",) if PRONE in target.conditions else ())
            + (("TEN-DEFEND",) if DEFENDING in target.conditions else ()),
            rolls=(rolled.as_roll("attack", sides, defence.result + 1), defence.as_roll("defence", sides)),
            figures={**figures, "attack_dice": list(rolled.faces), "attack": rolled.result,
                     "defence_dice": list(defence.faces), "defence": defence.result, "attacker_advantage": mine,
                     "defender_advantage": theirs, "hit": hit}))
        if not hit:
            return state, events
        impact = [roll_die(rng, self.rules.dice.impact_die) for _ in range(me.impact_dice)] + (
            [extra_impact] if extra_impact else [])
        bonus = self.rules.weapons[action.weapon].damage
        damage = max(self.rules.attack.min_damage, math.floor((sum(impact) + bonus) * attack.damage_factor))
        state, taken = self._take_stress(state, target.id, damage, attacker.id, impact, bonus, attack.damage_factor)
        return state, events + taken

    def _take_stress(self, state: State, target_id: str, damage: int, by: str, impact: list[int], bonus: int,
                     factor: float) -> tuple[State, list[Event]]:
        """TEN-ATTACK's damage as stress; TEN-STRESS: stress over the maximum marks a wound (stress
        back to 0) while one is left, else the figure falls unconscious (out of the skirmish; the
        other sides score)."""
        target = state.model(target_id)
        stress = target.stress + damage
        over = stress > target.max_stress
        how = f"{'+'.join(map(str, impact))} impact{f' +{bonus} weapon' if bonus else ''}" + (
            f", x{factor:g} for size" if factor != 1 else "")
        out = over and target.wounds == 0
        figures = {"damage": damage, "impact": impact, "stress": 0 if over else stress, "hit": True,
                   "taken_out": out}
        events = [Event("attack", target_id, f"takes {damage} stress ({how}): {stress} of {target.max_stress}",
                        piece=by, clauses=("TEN-ATTACK", "TEN-STRESS"), figures=figures,
                        rolls=(DiceRoll.amount("impact", impact, self.rules.dice.impact_die, bonus,
                                               f"{damage} stress"),))]
        if not over:
            return state.with_model(target.but(stress=stress)), events
        if not out:
            state = state.with_model(target.but(stress=0, wounds=target.wounds - 1))
            events.append(Event("condition", target_id, f"is over its {target.max_stress} stress: marks a wound to "
                                f"stay conscious ({target.wounds - 1} left), stress back to 0", clauses=("TEN-STRESS",),
                                figures={"wounds_left": target.wounds - 1, "out_of_action": False}))
            return state, events
        state = state.with_model(target.but(stress=0, status=OUT))
        events.append(Event("condition", target_id, f"is over its {target.max_stress} stress with no wound left: "
                            "falls unconscious, out of the skirmish", clauses=("TEN-STRESS",),
                            figures={"wounds_left": 0, "out_of_action": True}))
        state, scored = others_score(state, target, self.rules.mission.unconscious_points, "unconscious", "TEN-STRESS")
        return state, events + scored


def engine_for(system: TenacityTactics, stats: Mapping, storey_in: float | None = None) -> TenacityEngine:
    """The game's engine for figures with these scene ``stats:`` (model id -> validated stats):
    each one's profile (its stats over the rules data's default), those that start prone, the
    table's storey height (inches; None: no turn is played).
    :attr:`TenacityTactics.ENGINE <entropy3d.systems.base.GameSystem.ENGINE>` names it."""
    return TenacityEngine(system, {model: system.profile(given) for model, given in stats.items()},
                          frozenset(model for model, given in stats.items() if given.prone), storey_in)
