"""Entropy City behind the one engine protocol every rulebook keeps (issue 44).

The other rulebooks' engines (:class:`~entropy3d.systems.gang_battle.engine.GangEngine` and its
siblings) are objects with the turn's phases (``start_turn``, ``activation_order``,
``action_phase``, ``end_turn``), ``check(state, action, table)``, ``resolve(state, action,
facts, rng)`` and the mission's end (``game_over``, ``winner``); :class:`entropy3d.game.loop.Game`
plays any of them and :func:`entropy3d.game.step.take` walks each action along the one path
(check, then the table's facts, then resolve). This is Entropy City's: the roll-off and the
activation order by speed (EC-TURN-1, EC-TURN-2), the one :func:`~entropy3d.systems.entropy_city.transition.check`
and :func:`~entropy3d.systems.entropy_city.transition.resolve` with its validated ruleset bound once, and the
missions' scoring (:mod:`~entropy3d.systems.entropy_city.missions`).

Facts complete before resolve, as the protocol wants them: the one path asks the table it was
made with what resolve reads and hands the answers over with the facts
(:func:`entropy3d.table_answers.with_table_answers`): what a rider on overwatch sees of a ride
(:func:`~entropy3d.systems.entropy_city.stopped_guns.react`), where a ridden bike may rest
(:func:`~entropy3d.systems.entropy_city.rest.settle`) and, as an activation begins, who sees whom of the Stealth
riders (EC-STEALTH). Once it has resolved, the opponent places the wreck of each rider it
took out (:meth:`EntropyCityEngine.place_wrecks`, EC-WOUND) from what the table says of the spots
around it, asked by the one path after resolve (:func:`entropy3d.table_answers.wreck_answers`).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts, StartSights, WreckSpots
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.ambush import interrupting
from entropy3d.systems.entropy_city.attacks import weapon_and_shots
from entropy3d.systems.entropy_city.corners import score_corners
from entropy3d.systems.entropy_city.kick import KICK, parse_kick
from entropy3d.systems.entropy_city.law import law_enters
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.rulings_beside import apply_ruling
from entropy3d.systems.entropy_city.speeds import Activator, activation_order, roll_off
from entropy3d.systems.entropy_city.state import State, TurnStart
from entropy3d.systems.entropy_city.transition import ACTIVATE, Action, TableChecks, check, resolve
from entropy3d.systems.entropy_city.wrecks import place_wrecks


class EntropyCityEngine:
    """Entropy City's rules (``ruleset``) on one table (``table``: the one path asks it before
    :meth:`resolve` what a watcher sees, where a bike rests and who sees a Stealth rider, and
    after it where a wreck may lie; None: no table, so nothing settles, no watcher sees and every
    spot within 3" is clear for a wreck). ``gangs``: the
    scene's gangs in its order (the roll-off's first die is the first gang's); empty: the order
    their models come in."""

    #: no LOS sighting nor table reading of a ride in place of the facts: its attacks are checked
    #: against what the attacker sees (the table's ``sight``, EC-COVER-1) and resolved from the
    #: dice; its rides from the producer's facts ...
    reads_sight = False
    reads_rides = False
    #: ... with the table's answers its resolve reads (overwatch sight, rest, Stealth), asked by
    #: the one path first (:func:`entropy3d.table_answers.with_table_answers`); then the wrecks of
    #: the riders it took out are placed (:meth:`place_wrecks`) from the table's answers of the
    #: spots around them (:func:`entropy3d.table_answers.wreck_answers`)
    reads_table_answers = True
    places_wrecks = True
    #: its conditions are named in the rulebook's own words already (``bleeding``, ``stunned``)
    condition_words: Mapping[str, str] = {}

    def __init__(self, ruleset: Ruleset, table: TableChecks | None = None, gangs: Sequence[str] = ()):
        self.ruleset, self.table, self.gang_order = ruleset, table, tuple(gangs)

    # -- the turn ------------------------------------------------------------------------------

    def initial_state(self, table_state: State) -> State:
        """The game's first state: the table's, as the scene sets the riders up."""
        return table_state

    def gangs(self, state: State) -> list[str]:
        """The gangs with a model in the game's state, in the scene's order."""
        present = dict.fromkeys(m.gang for m in state.models.values())
        rank = {gang: k for k, gang in enumerate(self.gang_order)}
        return sorted(present, key=lambda gang: rank.get(gang, len(rank)))

    def start_turn(self, state: State, rng: np.random.Generator, previous: str | None = None) -> TurnStart:
        """EC-TURN-1: both players roll off, ties rolled again; the winner goes first."""
        gangs = self.gangs(state)
        roll = roll_off(rng, self.ruleset)
        return TurnStart(roll.rounds, gangs[roll.winner] if roll.winner < len(gangs) else gangs[0])

    def action_phase(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Before the activations: the Law enters from its turn (EC-LAW,
        :func:`~entropy3d.systems.entropy_city.law.law_enters`);
        else the state as it is, no events."""
        return law_enters(state, rng, self.ruleset)

    def ready(self, state: State, gang: str) -> list[str]:
        """The models of ``gang`` in the game, in the scene's order."""
        return [m.id for m in state.models.values() if m.gang == gang and m.in_play]

    def activation_order(self, state: State, first: str, chosen: Mapping[str, Sequence[str]]) -> list[str]:
        """EC-TURN-2: speed 3, then 2, then 1, then on foot; the gangs alternate, ``first``
        first; within a gang's band, in the order its player chose (``chosen``: gang -> ids)."""
        waiting = [Activator(m.id, m.gang, m.speed, m.on_foot)
                   for ids in chosen.values() for m in (state.model(i) for i in ids)]
        return activation_order(waiting, first, self.ruleset)

    def interrupting(self, state: State) -> list[str]:
        """The models that take an activation at once, before the turn's next: an ambusher whose
        ambush took control of the turn (EC-TRAIT-AMBUSH,
        :func:`~entropy3d.systems.entropy_city.ambush.interrupting`)."""
        return interrupting(state)

    def end_turn(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event], list[str]]:
        """The end of a turn: Corners scores its zones every ``score_every`` turns
        (EC-MISSION-CORNERS, :func:`~entropy3d.systems.entropy_city.corners.score_corners`); no gang gives up."""
        state, events = score_corners(state, self.ruleset)
        return state, events, []

    def game_over(self, state: State, bottled: Sequence[str] = ()) -> str:
        """Why the mission is over now ("" while it goes on)."""
        return missions.game_over(state, self.ruleset)

    def winner(self, state: State, bottled: Sequence[str] = ()) -> str:
        """The gang with the most points, "" on a tie."""
        return missions.winner(state)

    # -- the one path --------------------------------------------------------------------------

    def parse_action(self, model_id: str, text: str, push: str = "sit-at-tn") -> Action:
        """An action from its text: a plan, ``"s3: straight 16"``, ``"stop s1: straight 3"``
        (ridden with the push-your-luck policy ``push``), or ``"attack TARGET with WEAPON"``
        (chicken, the rider's melee weapon or its gun; EC-ACT-ATTACK), a kick saying which bike
        goes how far (``"attack vex with kick push 2 pivot -30"``, ``"... with kick own"``;
        EC-MEL-KICK). PlanError for a plan that
        does not parse; IllegalPlanError for an attack not said in full."""
        words = text.split()
        if words and words[0].lower() == "attack":
            target, _, weapon = " ".join(words[1:]).partition(" with ")
            if not target.strip() or not weapon.strip():
                raise IllegalPlanError("EC-ACT-ATTACK", f"say whom and with what: 'attack TARGET with WEAPON' "
                                                        f"(chicken, kick, the rider's melee weapon or its gun), "
                                                        f"not {text!r}")
            how = weapon.split()
            if how[0].lower() == KICK:  # "kick [own] [push INCHES] [pivot DEGREES]" (EC-MEL-KICK)
                return Action.attack(model_id, target.strip(), KICK, push, kick=parse_kick(how))
            try:  # a gun's split shots: "attack h1 with pistol x2" (EC-GUN-SPLIT)
                named, shots = weapon_and_shots(weapon)
            except ValueError as error:
                raise IllegalPlanError("EC-GUN-SPLIT", str(error)) from None
            return Action.attack(model_id, target.strip(), named, push, shots=shots)
        return Action.ride(model_id, text, push)

    def check(self, state: State, action: Action, table: TableChecks | None = None) -> Action:
        """Whether ``action`` is legal now, asked of ``table``; returns it with its checked move.
        Changes nothing, rolls nothing; raises IllegalPlanError naming the clause."""
        return check(state, action, self.ruleset, table)

    def resolve(self, state: State, action: Action, facts: Facts | StartSights | None,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Apply a checked ``action`` with what the producer found riding it and the table's answers
        (``facts``; for an activation's start what the table showed then; None for an action that
        rides nothing) and the dice of ``rng``: the next state and its events. The wrecks of the
        riders it took out are not yet placed (:meth:`place_wrecks`)."""
        if self.table is not None and (isinstance(facts, Facts) and facts.rests is None
                                       or action.kind == ACTIVATE and not isinstance(facts, StartSights)):
            # a table but not its answers: resolve would play on as if it saw nothing (no overwatch
            # shot, no rest, every Stealth rider unseen) where the one path's game would not
            raise ValueError(f"resolve of {action.kind} by {action.model_id} was given the bare facts of a game "
                             "on a table, not the table's answers it reads: ask them first with "
                             "entropy3d.table_answers.with_table_answers (game.step.take does)")
        return resolve(state, action, facts, rng, self.ruleset)

    def place_wrecks(self, before: State, after: State, answers: Mapping[str, WreckSpots] | None
                     ) -> tuple[State, list[Event]]:
        """``after`` (resolved from ``before``) with the wreck of each rider it took out placed by
        the opponent (EC-WOUND), from what the table says of the spots around each (``answers``:
        model id -> :class:`~entropy3d.core.facts.WreckSpots`; None: no table), and the events."""
        return place_wrecks(before, after, self.ruleset, answers)

    def test_odds(self, tn: int, stress: int):
        """The exact :class:`~entropy3d.systems.entropy_city.odds.Odds` of a test at ``tn`` taken at ``stress``,
        pushed as the rules push it (EC-DICE-*): what a checked move's ``tests`` cost, for a
        preview (`entropy3d plan`, the viewer's typed plan)."""
        from entropy3d.systems.entropy_city.odds import exact_odds

        return exact_odds(tn, stress, self.ruleset)

    def apply_ruling(self, state: State, model_id: str, wounds: int, speed_change_kph: float, why: str,
                     clauses: Sequence[str], rider: str) -> tuple[State, list[Event]]:
        """A ruling of the rulebook played beside this one on ``rider``'s ride, applied to
        ``model_id`` the Entropy City way (:func:`~entropy3d.systems.entropy_city.rulings_beside.apply_ruling`)."""
        return apply_ruling(state, model_id, wounds, speed_change_kph, why, clauses, rider, self.ruleset)
