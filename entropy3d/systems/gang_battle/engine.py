"""The gang battle game (seed 003) on the one game state: ``check`` apart from ``resolve``.

The one path of :mod:`entropy3d.systems.entropy_city.transition`, for this system::

    Action --check(state, action, table)--> IllegalPlanError(GANG-*)
                 | legal: the action with its checked move, or its target (GANG-ARC)
                 v
           facts: a producer's ride (Facts) for a move, the LOS engine's Sighting for a shot
                 |
                 v
           resolve(state, action, facts, rng) --> (State, [Event])

Pure like the rules engine: the table is asked through :class:`FigureTable` (the game layer's
:class:`~entropy3d.game.tableview.TableView` answers it), dice come from the injected
``numpy.random.Generator``. What the engine keeps in the one :class:`~entropy3d.systems.entropy_city.state.State`:
``wounds`` (GANG-INJURY), ``status`` ``out`` for Out of Action, ``conditions`` ``prone`` (Prone &
Pinned), ``seriously_injured``, ``flesh_wound`` (one per wound, -1 TOUGH each), ``out_of_ammo``
``bottled`` (its gang failed a bottle check, GANG-BOTTLE) and ``broken`` (a failed Nerve test,
GANG-NERVE, :mod:`~entropy3d.systems.gang_battle.nerve`), ``forced_move`` (the length of a Broken
fighter's Run for Cover rolled, as ``walk: straight N``, until it runs: GANG-RUN; a charge's
walk, GANG-CHARGE; a Retreat's, GANG-RETREAT), the close-combat marks ``engaged:<id>``,
``charging:<id>`` and ``retreating`` (:mod:`~entropy3d.systems.gang_battle.melee`), and
``actions_taken`` and ``basic_taken`` of the activation (GANG-TURN). Lengths are table inches.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.plan import Straight, parse_plan
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.state import OUT, ModelState, State
from entropy3d.systems.entropy_city.transition import ACTIVATE, ATTACK, END, FORCED, MOVE, Action
from entropy3d.systems.gang_battle import FighterProfile, GangBattle, melee, wound_and_save_rolls
from entropy3d.systems.gang_battle.melee import CHARGE, COUP_DE_GRACE, FIGHT, RETREAT, RETREATING, is_engaged, part_all
from entropy3d.systems.gang_battle.nerve import (
    BROKEN,
    check_broken,
    check_run_for_cover,
    forced_run,
    nerve_tests,
    rally_tests,
    run_route,
)
from entropy3d.systems.readings import Sighting
from entropy3d.systems.skirmish import (
    FigureTable,
    TurnStart,
    checked_walk,
    game_start,
    others_score,
    roll_die,
    roll_for_first,
    sides_of,
    taking_turns,
)

CRAWL, STAND_UP, RELOAD, RUN_FOR_COVER = "crawl", "stand_up", "reload", "run_for_cover"
SHOOT = ATTACK  #: a shot is the one state's attack action, its target found by the rules (GANG-ARC)
PRONE, SERIOUSLY_INJURED, FLESH_WOUND, OUT_OF_AMMO = "prone", "seriously_injured", "flesh_wound", "out_of_ammo"
#: the condition every fighter of a gang that failed a bottle check carries (GANG-BOTTLE)
BOTTLED = "bottled"
#: the conditions in the rulebook's words (003 "Status & Conditions"), for people
CONDITION_WORDS = {PRONE: "Prone & Pinned", SERIOUSLY_INJURED: "Seriously Injured", FLESH_WOUND: "flesh wound",
                   OUT_OF_AMMO: "Out of Ammo", BOTTLED: "bottled out", BROKEN: "Broken",
                   RETREATING: "retreating"}

#: action kind -> (action points, Basic: not repeated in an activation); 003 "Actions"
COSTS = {MOVE: (1, False), CRAWL: (2, False), SHOOT: (1, True), STAND_UP: (1, True), RELOAD: (1, False),
         RUN_FOR_COVER: (2, False), CHARGE: (2, False), FIGHT: (1, True), COUP_DE_GRACE: (1, False),
         RETREAT: (1, True)}
#: what a fighter lying Prone & Pinned, or Seriously Injured, may still do (003 "Status & Conditions")
PRONE_MAY = (STAND_UP, CRAWL, RELOAD)
INJURED_MAY = (CRAWL,)


class GangEngine:
    """The gang battle game for one scene's fighters.

    system: the :class:`~entropy3d.systems.gang_battle.GangBattle` with its rules data.
    fighters: model id -> its characteristics. prone_at_start: ids of those that start Prone.
    """

    #: the one path hands :meth:`resolve` the LOS engine's sighting of a shot's target, and the bare
    #: facts of a walk (:func:`entropy3d.game.step.take`)
    reads_sight = True
    reads_rides = False

    condition_words = CONDITION_WORDS

    def __init__(self, system: GangBattle, fighters: Mapping[str, FighterProfile], prone_at_start=frozenset()):
        self.system, self.rules = system, system.rules
        self.fighters = dict(fighters)
        self.prone_at_start = frozenset(prone_at_start)

    # -- the game's start and turns --------------------------------------------------------------

    def initial_state(self, table_state: State) -> State:
        """The table's starting state as a gang fight: each fighter's wounds, those that start
        Prone & Pinned, the mission's name and no score."""
        models = {model_id: model.but(wounds=self.fighters[model_id].wounds, stress=0,
                                      conditions=(PRONE,) if model_id in self.prone_at_start else ())
                  for model_id, model in table_state.models.items()}
        return game_start(table_state, self.rules.mission.name, models)

    def gangs(self, state: State) -> list[str]:
        return sides_of(state)

    def start_turn(self, state: State, rng: np.random.Generator, previous: str | None) -> TurnStart:
        """GANG-TURN, Priority Phase: each player rolls a die; the higher has priority; on a tie
        the player who had it passes it (``previous``; a first-round tie is rolled again)."""
        gangs = self.gangs(state)
        die = self.rules.priority.die_sides
        passed = None if previous is None else (gangs[1] if previous == gangs[0] else gangs[0])
        return roll_for_first(gangs, lambda: (roll_die(rng, die), roll_die(rng, die)), passed)

    def ready(self, state: State, gang: str) -> list[str]:
        """GANG-TURN: the fighters of ``gang`` given a Ready marker (every one in play)."""
        return [m.id for m in state.models.values() if m.gang == gang and m.in_play]

    def activation_order(self, state: State, first: str, chosen: Mapping[str, Sequence[str]]) -> list[str]:
        """GANG-TURN, Activation: "Taking turns each player activates one ready fighter", the
        player with priority first; ``chosen``: each gang's ready fighters in its player's order.
        A gang with none left lets the other go on."""
        return taking_turns(first, chosen)

    def end_turn(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event], list[str]]:
        """GANG-BOTTLE, GANG-RECOVERY then GANG-RALLY, the End Phase in the seed's order ("Bottle
        Check", "Recovery Test", "Rally Test": a fighter Seriously Injured this turn counts towards
        the bottle check before its recovery roll can make it a flesh wound): (state, events, gangs that bottled
        out and withdraw, ending the fight). A gang that bottles out under ``bottled_gang:
        cool_checks`` stays on the table, its fighters marked ``bottled``: :meth:`cool_checks`
        from the next turn."""
        events: list[Event] = []
        withdrawn = []
        withdraw = self.rules.bottle.bottled_gang == "withdraw"
        for gang in self.gangs(state):
            crew = [m for m in state.models.values() if m.gang == gang]
            down = sum(1 for m in crew if not m.in_play or SERIOUSLY_INJURED in m.conditions)
            if not down or self.bottled(state, gang):
                continue
            sides = self.rules.bottle.die_sides  # a die + those down over the starting crew bottles out
            check = DiceRoll.against("bottle check", (roll_die(rng, sides),), len(crew) + 1, sides, down,
                                     words=("bottles out", "holds"))
            die, out = check.dice[0], check.succeeded
            then = "withdraws" if withdraw else "Cool checks from the next turn"
            events.append(Event("condition", crew[0].id, f"{gang} bottle check: {die} + {down} down "
                                f"{'>' if out else '<='} {len(crew)} in the starting crew: "
                                + (f"bottles out: {then}" if out else "holds"),
                                clauses=("GANG-BOTTLE",), rolls=(check,),
                                figures={"gang": gang, "die": die, "down": down, "crew": len(crew), "bottled": out}))
            if out and withdraw:
                withdrawn.append(gang)
            elif out:
                for model in crew:
                    state = state.with_model(model.but(conditions=model.conditions + (BOTTLED,)))
        if self.rules.recovery.enabled:
            for model in list(state.models.values()):
                if model.in_play and SERIOUSLY_INJURED in model.conditions:
                    state, found = self._recover(state, model, rng)
                    events += found
        state, rallied = rally_tests(self, state, rng)
        return state, events + rallied, withdrawn

    def action_phase(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """What the Action Phase does before the first activation: the Cool checks (GANG-BOTTLE)."""
        return self.cool_checks(state, rng)

    def bottled(self, state: State, gang: str) -> bool:
        """GANG-BOTTLE: the gang failed a bottle check (and stays bottled)."""
        return any(BOTTLED in m.conditions for m in state.models.values() if m.gang == gang)

    def cool_checks(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """GANG-BOTTLE, the Action Phase's Cool checks: each fighter on the battlefield of a gang
        that failed a bottle check rolls ``cool_dice`` D6 needing its Cool; one that fails flees,
        Out of Action (the other gangs score as for any fighter taken Out of Action)."""
        events: list[Event] = []
        for model in list(state.models.values()):
            if not (model.in_play and BOTTLED in model.conditions):
                continue
            check = DiceRoll.against("Cool check", [roll_die(rng) for _ in range(self.rules.bottle.cool_dice)],
                                     self.fighters[model.id].cool, words=("holds", "flees"))
            dice, needed, passed = list(check.dice), check.needed, check.succeeded
            events.append(Event("condition", model.id, f"Cool check {'+'.join(map(str, dice))} needing {needed}+: "
                                + ("holds its nerve" if passed else "fails and flees the battlefield: Out of Action"),
                                clauses=("GANG-BOTTLE",), rolls=(check,),
                                figures={"dice": dice, "needed": needed, "fled": not passed,
                                         "out_of_action": not passed}))
            if not passed:
                state = state.with_model(model.but(status=OUT))
                state, scored = self.out_of_action(state, model)
                events += scored
        return state, events

    def _recover(self, state: State, model: ModelState, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """GANG-RECOVERY: an injury die for a Seriously Injured fighter: a flesh wound stands it
        Prone & Pinned, a serious injury keeps it down, Out of Action takes it off."""
        die = roll_die(rng)
        result = self.rules.injury.dice[die - 1]
        if result == "serious_injury":
            return state, [Event("condition", model.id, f"recovery roll {die}: remains Seriously Injured",
                                 clauses=("GANG-RECOVERY",), figures={"die": die, "result": result},
                                 rolls=(DiceRoll.amount("recovery", (die,), outcome=result.replace("_", " ")),))]
        if result == "flesh_wound":
            model = model.but(conditions=_without(model.conditions, SERIOUSLY_INJURED))
        state, events = self._injure(state.with_model(model), model.id, (die,), "", ("GANG-RECOVERY",), rng)
        return state, events

    def game_over(self, state: State, bottled: Sequence[str] = ()) -> str:
        """Why the fight is over ("" while it goes on): a gang bottled out (GANG-BOTTLE) or has
        no fighter standing (every one Out of Action or Seriously Injured)."""
        if bottled:
            return f"{', '.join(bottled)} bottled out"
        for gang in self.gangs(state):
            if not any(m.in_play and SERIOUSLY_INJURED not in m.conditions
                       for m in state.models.values() if m.gang == gang):
                return f"{gang} has no fighter standing"
        return ""

    def winner(self, state: State, bottled: Sequence[str] = ()) -> str:
        """The gang with the most points; on equal points the one that did not bottle out; "" for a draw."""
        bottled = list(bottled) + [g for g in self.gangs(state) if self.bottled(state, g) and g not in bottled]
        ranked = sorted(self.gangs(state), key=lambda g: (-state.score.get(g, 0), g in bottled))
        if len(ranked) < 2:
            return ranked[0] if ranked else ""
        a, b = ranked[:2]
        if state.score.get(a, 0) != state.score.get(b, 0) or ((a in bottled) != (b in bottled)):
            return a
        return ""

    # -- check ---------------------------------------------------------------------------------

    def parse_action(self, model_id: str, text: str) -> Action:
        """An action from its text: ``walk: pivot left 45, straight 3`` (a Move), ``crawl walk:
        straight 2`` (a Crawl), ``shoot``, ``stand up``, ``reload`` or ``run for cover``. PlanError for a
        bad walk, IllegalPlanError (GANG-TURN) for anything else."""
        words = " ".join(text.lower().replace("_", " ").split())
        if words.startswith("walk:"):
            return Action(MOVE, model_id, parse_plan(text.strip()))
        if words.startswith("crawl "):
            return Action(CRAWL, model_id, parse_plan(text.strip()[len("crawl"):].strip()))
        simple = {"shoot": SHOOT, "stand up": STAND_UP, "reload": RELOAD, "run for cover": RUN_FOR_COVER,
                  "retreat": RETREAT}
        for said, kind in (("charge", CHARGE), ("fight", FIGHT), ("coup de grace", COUP_DE_GRACE)):
            if words == said or words.startswith(said + " "):  # GANG-CHARGE, GANG-CC, GANG-COUP: "charge escher_2"
                target = text.strip()[len(said):].strip() or None
                return Action(kind, model_id, target=target)
        if words not in simple:
            raise IllegalPlanError("GANG-TURN", f"unknown action {text!r}: use 'walk: straight 3', "
                                   "'crawl walk: straight 2', 'shoot', 'stand up', 'reload', 'run for cover', "
                                   "'charge [target]', 'fight [target]', 'coup de grace [target]' or 'retreat'")
        return Action(simple[words], model_id)

    def check(self, state: State, action: Action, table: FigureTable | None = None) -> Action:
        """Whether ``action`` is legal now; returns it with its checked move (a move or a crawl) or
        its target (a shot, GANG-ARC). Changes nothing, rolls nothing. Raises IllegalPlanError
        naming the clause."""
        model = state.model(action.model_id)
        if not model.in_play:
            raise IllegalPlanError("GANG-INJURY", f"{model.id} is Out of Action")
        if action.kind in (ACTIVATE, END):
            return action
        if action.kind == FORCED:
            if melee.charging_at(model) is not None:
                return melee.check_charge_walk(self, model, action, table)
            return self._check_run(state, model, action, table)
        check_broken(model, action.kind, (RUN_FOR_COVER,))
        if action.kind not in COSTS:
            raise IllegalPlanError("GANG-TURN", f"a fighter may {', '.join(COSTS)}; not {action.kind!r}")
        cost, basic = COSTS[action.kind]
        left = self.rules.priority.actions_per_activation - model.actions_taken
        if cost > left:
            raise IllegalPlanError("GANG-TURN", f"{action.kind} takes {cost} action(s); {model.id} has {left} left")
        if basic and action.kind in model.basic_taken:
            raise IllegalPlanError("GANG-TURN", f"{action.kind} is a Basic action: not twice in an activation")
        if action.kind == RUN_FOR_COVER:
            check_run_for_cover(model)
            return action
        melee.check_engaged(state, model, action.kind)
        if SERIOUSLY_INJURED in model.conditions and action.kind not in INJURED_MAY:
            raise IllegalPlanError("GANG-INJURY", f"{model.id} is Prone & Seriously Injured: it may only crawl")
        if PRONE in model.conditions and action.kind not in PRONE_MAY:
            raise IllegalPlanError("GANG-PIN", f"{model.id} is Prone & Pinned: it may "
                                   f"{', '.join(PRONE_MAY).replace('_', ' ')} (Blind Fire is not played here)")
        if action.kind == STAND_UP and PRONE not in model.conditions:
            raise IllegalPlanError("GANG-PIN", f"{model.id} is already standing")
        if action.kind == RELOAD and OUT_OF_AMMO not in model.conditions:
            raise IllegalPlanError("GANG-AMMO", f"{model.id}'s weapon is not out of ammo")
        if action.kind in (MOVE, CRAWL):
            return dataclasses.replace(action, move=self.check_move(model, action, table))
        if action.kind == SHOOT:
            return self._check_shot(state, model, action, table)
        if action.kind == CHARGE:
            return melee.check_charge(self, state, model, action, table)
        if action.kind == FIGHT:
            return melee.check_fight(state, model, action)
        if action.kind == COUP_DE_GRACE:
            return melee.check_coup(state, model, action)
        return action

    def check_move(self, model: ModelState, action: Action, table: FigureTable | None) -> PlannedMove:
        """GANG-MOVE: straights and pivots up to MVMT (a Crawl: ``crawl_fraction`` of it), on the
        fighter's level, clear of walls and drops and on the table."""
        most = self.fighters[model.id].move_in * (self.rules.movement.crawl_fraction if action.kind == CRAWL else 1)
        how = "crawl" if action.kind == CRAWL else "move"
        return checked_walk(model, action.plan, most, self.rules.movement.path_spacing_in, table, "GANG-MOVE",
                            figure="fighter", noun="move", who=f"the {most:g}\" a {how} takes {model.id}",
                            not_played="climbing and gaps")

    def _check_run(self, state: State, model: ModelState, action: Action, table: FigureTable | None) -> Action:
        """GANG-RUN: the run a Broken fighter rolled (``forced_move``: ``walk: straight N``, N its
        2D6 inches), the way the engine picks for it (:func:`~.nerve.run_route`); no move when the
        table leaves it none."""
        if model.forced_move is None or action.plan is None or str(action.plan) != model.forced_move:
            raise IllegalPlanError("GANG-RUN", f"{model.id} has no run for cover rolled")
        length = sum(s.inches for s in action.plan.segments if isinstance(s, Straight))
        move, _ = run_route(self, state, model, length, table)
        return forced_run(action, move)

    def _check_shot(self, state: State, model: ModelState, action: Action, table: FigureTable | None) -> Action:
        if OUT_OF_AMMO in model.conditions:
            raise IllegalPlanError("GANG-AMMO", f"{model.id}'s weapon is Out of Ammo: reload first")
        if table is None:
            raise IllegalPlanError("GANG-ARC", "a shot needs the table's line of sight")
        target = self.target(state, table.sightings(state, model.id))
        if target is None:
            raise IllegalPlanError("GANG-ARC", f"{model.id} has no target in its front vision arc and line of sight")
        weapon = self.rules.weapons[self.fighters[model.id].weapon]
        if target.distance_in > weapon.range_in:
            raise IllegalPlanError("GANG-ARC", f"the closest target, {target.target}, is {target.distance_in:.1f}\" "
                                   f"away: past the {weapon.range_in:g}\" of the {self.fighters[model.id].weapon}")
        return dataclasses.replace(action, target=target.target, weapon=self.fighters[model.id].weapon,
                                   from_pose=model.pose)

    def target(self, state: State, sightings: Sequence[Sighting]) -> Sighting | None:
        """GANG-ARC: the priority target among the enemies in play (prone ones in cover passed over)."""
        prone = {m.id for m in state.models.values() if PRONE in m.conditions}
        return self.system.priority_target([s for s in sightings if state.model(s.target).in_play], prone)

    # -- resolve --------------------------------------------------------------------------------

    def resolve(self, state: State, action: Action, facts: Facts | Sighting | None,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Apply a checked ``action`` with what the table showed (``facts``: the producer's
        ride of a move, the LOS engine's sighting of a shot's target) and the dice of ``rng``.
        The only function that makes the fight's next state."""
        model = state.model(action.model_id)
        if action.kind == ACTIVATE:
            return state.with_model(model.but(actions_taken=0, basic_taken=())), []
        if action.kind == END:
            return state, []
        if action.kind == FORCED:
            if melee.charging_at(model) is not None:
                return melee.charge_home(self, state, model, action, facts, rng)
            return self._run(state, model, action, facts)
        cost, basic = COSTS[action.kind]
        spent = model.but(actions_taken=model.actions_taken + cost,
                          basic_taken=model.basic_taken + ((action.kind,) if basic else ()))
        state = state.with_model(spent)
        if action.kind in (MOVE, CRAWL):
            return self._move(state, spent, action, facts)
        if action.kind == STAND_UP:
            return state.with_model(spent.but(conditions=_without(spent.conditions, PRONE))), [
                Event("condition", model.id, "stands up: no longer Prone & Pinned", clauses=("GANG-PIN",))]
        if action.kind == RELOAD:
            return self._reload(state, spent, rng)
        if action.kind == RUN_FOR_COVER:
            return self._roll_run(state, spent, rng)
        if action.kind == CHARGE:
            return melee.roll_charge(self, state, spent, action, rng)
        if action.kind == FIGHT:
            return melee.fight(self, state, spent.id, action.target, rng)
        if action.kind == COUP_DE_GRACE:
            return melee.coup_de_grace(self, state, spent.id, action.target, rng)
        if action.kind == RETREAT:
            return melee.roll_retreat(self, state, spent, rng)
        return self._shoot(state, spent, action, facts, rng)

    def _move(self, state: State, model: ModelState, action: Action, facts: Facts) -> tuple[State, list[Event]]:
        """GANG-MOVE: the fighter stands where the producer's walk ended."""
        end = facts.end_pose
        length = float(facts.progress_in)
        moved = part_all(state, model.id)  # only a fighter next to Seriously Injured enemies alone may move (GANG-CC)
        moved = moved.with_model(moved.model(model.id).but(pose=end))
        crawled = action.kind == CRAWL
        return moved, [Event("move", model.id, f"{'crawls' if crawled else 'moves'} {length:.1f}\" of its "
                             f"{action.move.band.max:g}\"", found=f"walked {length:.1f}\"", producer=facts.producer,
                             clauses=("GANG-MOVE",), figures={"walked": True, "length_in": round(length, 1)}
                             | ({"crawled": True} if crawled else {}))]

    def _roll_run(self, state: State, model: ModelState, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """GANG-RUN: the Double action's 2D6 inches rolled; the run itself is the move the rules then
        force on it (``forced_move``), the way the engine picks with the table (:meth:`_check_run`).
        Engaged, it first makes an INIT test ("IF Engaged, perform INIT to move away else no action
        if failed", GANG-CC's :func:`~.melee.break_away`)."""
        left, events = True, []
        if is_engaged(state, model):
            state, events, left = melee.break_away(self, state, model, rng, "GANG-RUN")
            model = state.model(model.id)
        if not left:
            return state, events
        dice = [roll_die(rng) for _ in range(self.rules.broken.run_dice)]
        return state.with_model(model.but(forced_move=f"walk: straight {sum(dice)}")), events + [
            Event("condition", model.id, f"Broken: runs for cover {'+'.join(map(str, dice))} = {sum(dice)}\"",
                  clauses=("GANG-BROKEN", "GANG-RUN"), figures={"run_dice": dice, "run_in": sum(dice)},
                  rolls=(DiceRoll.amount("inches to run", dice),))]

    def _run(self, state: State, model: ModelState, action: Action, facts: Facts | None) -> tuple[State, list[Event]]:
        """GANG-RUN: the Broken fighter stands where its run ended (the producer's walk of the way
        :meth:`_check_run` picked), or stays when there was none; a retreating fighter's walk
        (GANG-RETREAT) the same way."""
        retreat = RETREATING in model.conditions
        how, clause = ("retreats", "GANG-RETREAT") if retreat else ("runs for cover", "GANG-RUN")
        state = part_all(state, model.id)
        model = state.model(model.id)
        model = model.but(forced_move=None, conditions=_without(model.conditions, RETREATING))
        figures = {"walked": True, "run": True, "retreat": retreat}
        if action.move is None or facts is None:
            return state.with_model(model), [Event("move", model.id, f"{how}: no way away from the enemies",
                                                   clauses=(clause,), figures={**figures, "length_in": 0.0})]
        length = float(facts.progress_in)
        return state.with_model(model.but(pose=facts.end_pose)), [
            Event("move", model.id, f"{how} {length:.1f}\" of its {action.move.band.max:g}\"",
                  found=f"walked {length:.1f}\"", producer=facts.producer, clauses=(clause,),
                  figures={**figures, "length_in": round(length, 1)})]

    def _reload(self, state: State, model: ModelState, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """GANG-AMMO: "Reload Simple: make an Ammo check. If passed, weapon is reloaded."""
        weapon = self.fighters[model.id].weapon
        needed = self.rules.weapons[weapon].ammo
        check = DiceRoll.against("Ammo check", (roll_die(rng),), needed)
        die = check.dice[0]
        if check.succeeded:
            state = state.with_model(model.but(conditions=_without(model.conditions, OUT_OF_AMMO)))
        return state, [Event("condition", model.id, f"reloads the {weapon}: Ammo check {die} needing {needed}+: "
                             + ("reloaded" if check.succeeded else "still Out of Ammo"), clauses=("GANG-AMMO",),
                             figures={"die": die, "needed": needed}, rolls=(check,))]

    def to_hit(self, model_id: str, visible_fraction: float, engaged: bool = False) -> tuple[int, bool, str, int]:
        """GANG-SHOOT with GANG-COVER: (roll needed, improbable, cover, modifier) of the fighter's
        shot at a target with that share visible, ``engaged`` or not (:meth:`GangBattle.to_hit`)."""
        return self.system.to_hit(self.fighters[model_id], visible_fraction, engaged)

    def wound_roll_needed(self, strength: int, toughness: int) -> int:
        """GANG-WOUND: "2+ = STR >= TOUGHx2, 3+ STR > TOUGH, 4+ STR = TOUGH, 5+ STR < TOUGH,
        6+ STRx2 <= TOUGH"."""
        table = self.rules.wounding
        if strength >= 2 * toughness:
            return table.double_or_more
        if 2 * strength <= toughness:
            return table.half_or_less
        if strength > toughness:
            return table.greater
        return table.equal if strength == toughness else table.lower

    def toughness(self, model: ModelState) -> int:
        """TOUGH less one for each flesh wound (GANG-INJURY)."""
        return self.fighters[model.id].toughness - model.conditions.count(FLESH_WOUND)

    def _shoot(self, state: State, shooter: ModelState, action: Action, sighting: Sighting,
               rng: np.random.Generator) -> tuple[State, list[Event]]:
        """The shooting process of 003: to-hit (GANG-SHOOT, GANG-COVER), pin (GANG-PIN), the
        Firepower die and the Ammo check (GANG-AMMO), wound and save rolls (GANG-WOUND), the
        injury dice (GANG-INJURY)."""
        weapon_name = self.fighters[shooter.id].weapon
        weapon, shooting = self.rules.weapons[weapon_name], self.rules.shooting
        engaged = is_engaged(state, state.model(action.target))  # GANG-CC: "Target is engaged = -1"
        needed, improbable, cover, modifier = self.to_hit(shooter.id, sighting.visible_fraction, engaged)
        rolls = self.system.to_hit_rolls(rng, needed, improbable, self.fighters[shooter.id].ballistic_skill)
        dice, hit = [r.dice[0] for r in rolls], rolls[-1].succeeded
        firepower = roll_die(rng)
        hits = (shooting.firepower_hits[firepower - 1] if weapon.rapid_fire else 1) if hit else 0
        rolls += (DiceRoll.amount("Firepower", (firepower,), outcome=f"{hits} hit{'s' if hits != 1 else ''}"),)
        target = state.model(action.target)
        cover_text = ("in the open" if cover == "none" else f"in {cover} cover") + (", Engaged" if engaged else "")
        events = [Event("shot", shooter.id, (
            f"shoots {target.id} with the {weapon_name} ({cover_text}, {modifier:+d} to hit): rolled "
            f"{'+'.join(map(str, dice))} needing {needed}+{' then BS' if improbable else ''}: "
            + (f"{hits} hit{'s' if hits != 1 else ''} (Firepower {firepower})" if hit else "missed")),
            found=f"{target.id} {100 * sighting.visible_fraction:.0f}% visible, {sighting.distance_in:.1f}\" away",
            producer="line of sight", piece=target.id, rolls=rolls,
            clauses=("GANG-ARC", "GANG-COVER", "GANG-SHOOT") + (("GANG-CC",) if engaged else ()),
            figures={"target": target.id, "weapon": weapon_name, "cover": cover, "to_hit_modifier": modifier,
                     "roll_needed": needed, "dice": dice, "hit": hit, "firepower": firepower, "hits": hits,
                     "visible_fraction": sighting.visible_fraction} | ({"engaged": True} if engaged else {}))]
        state, checked = self.ammo_check(state, shooter.id, firepower, rng)
        events += checked
        if not hit:
            return state, events
        if PRONE not in target.conditions and not engaged:  # "Standing & Engaged fighters cannot be pinned"
            target = target.but(conditions=target.conditions + (PRONE,))
            state = state.with_model(target)
            events.append(Event("condition", target.id, "is hit: drops Prone & Pinned", clauses=("GANG-PIN",)))
        damage, rolls = self.wound_rolls(target, weapon.strength, weapon.armour_piercing, weapon.damage, hits, rng)
        state, found = self.take_damage(state, target.id, damage, rng, shooter.id, rolls)
        return state, events + found

    def ammo_check(self, state: State, model_id: str, firepower: int,
                   rng: np.random.Generator) -> tuple[State, list[Event]]:
        """GANG-AMMO: a Firepower die of ``ammo_check_on`` calls an Ammo check of the fighter's gun;
        failed, the gun is Out of Ammo."""
        if firepower != self.rules.shooting.ammo_check_on:
            return state, []
        weapon_name = self.fighters[model_id].weapon
        weapon = self.rules.weapons[weapon_name]
        check = DiceRoll.against("Ammo check", (roll_die(rng),), weapon.ammo)
        ammo = check.dice[0]
        if not check.succeeded:
            state = state.with_model(state.model(model_id).but(
                conditions=state.model(model_id).conditions + (OUT_OF_AMMO,)))
        return state, [Event("condition", model_id, f"Firepower 1: Ammo check {ammo} needing {weapon.ammo}+: "
                             + ("the weapon holds" if check.succeeded else f"the {weapon_name} is Out of Ammo"),
                             clauses=("GANG-AMMO",), figures={"die": ammo, "needed": weapon.ammo}, rolls=(check,))]

    def wound_rolls(self, target: ModelState, strength: int, armour_piercing: int, damage: int, hits: int,
                    rng: np.random.Generator) -> tuple[int, list[dict]]:
        """GANG-WOUND: each hit's wound roll (STR against TOUGH) and, wounded, armour save (its
        ``armour_piercing`` added to the save needed); (damage of the unsaved hits, the rolls)."""
        total, rolls = 0, []
        for _ in range(hits):
            wound_needed = self.wound_roll_needed(strength, self.toughness(target))
            wound = roll_die(rng)
            save_needed = self.fighters[target.id].save - armour_piercing
            save = roll_die(rng) if wound >= wound_needed and save_needed <= 6 else None
            unsaved = wound >= wound_needed and (save is None or save < save_needed)
            total += damage if unsaved else 0
            rolls.append({"wound": wound, "wound_needed": wound_needed, "save": save, "save_needed": save_needed,
                          "unsaved": unsaved})
        return total, rolls

    def take_damage(self, state: State, target_id: str, damage: int, rng: np.random.Generator, by: str,
                    rolls: list[dict]) -> tuple[State, list[Event]]:
        """GANG-WOUND, GANG-INJURY: unsaved damage takes wounds; a fighter reduced to 0 rolls an
        injury die, and another for each further point of damage (a flesh wound does not pin a
        fighter Engaged, GANG-CC)."""
        target = state.model(target_id)
        pin = not is_engaged(state, target)
        text = "; ".join(f"wound {r['wound']} needing {r['wound_needed']}+"
                         + ("" if r["wound"] < r["wound_needed"] else
                            " no save" if r["save"] is None else f", save {r['save']} needing {r['save_needed']}+")
                         + (": unsaved" if r["unsaved"] else "") for r in rolls)
        left = max(0, target.wounds - damage)
        injury_dice = (damage - target.wounds + 1 if target.wounds > 0 else damage) if damage >= target.wounds else 0
        state = state.with_model(target.but(wounds=left))
        events = [Event("attack", target_id, f"takes {damage} wound{'s' if damage != 1 else ''} ({text})",
                        piece=by, clauses=("GANG-WOUND",), rolls=wound_and_save_rolls(rolls),
                        figures={"wounds_lost": target.wounds - left, "rolls": rolls, "taken_out": False})]
        if injury_dice:
            state, found = self._injure(state, target_id, tuple(roll_die(rng) for _ in range(injury_dice)), by,
                                        ("GANG-INJURY",), rng, pin)
            events[0] = dataclasses.replace(events[0], figures={**events[0].figures,
                                                                "taken_out": not state.model(target_id).in_play})
            events += found
        return state, events

    def _injure(self, state: State, target_id: str, dice: tuple[int, ...], by: str,
                clauses: tuple[str, ...], rng: np.random.Generator, pin: bool = True) -> tuple[State, list[Event]]:
        """GANG-INJURY: each die's result applied: a flesh wound (-1 TOUGH; Out of Action at
        ``out_at_toughness``; Prone & Pinned unless not ``pin``), a serious injury (Prone &
        Seriously Injured), Out of Action (off the table; the other gangs score, the mission); a
        fighter that became Seriously Injured or Out of Action calls its friends' Nerve tests
        (GANG-NERVE)."""
        target = state.model(target_id)
        was_injured = SERIOUSLY_INJURED in target.conditions
        results = [self.rules.injury.dice[d - 1] for d in dice]
        conditions = target.conditions + (FLESH_WOUND,) * results.count("flesh_wound")
        if PRONE not in conditions and (pin or "serious_injury" in results):
            conditions += (PRONE,)
        if "serious_injury" in results and SERIOUSLY_INJURED not in conditions:
            conditions += (SERIOUSLY_INJURED,)
        target = target.but(conditions=conditions)
        out = "out_of_action" in results or self.toughness(target) <= self.rules.injury.out_at_toughness
        worst = "Out of Action" if out else ("Seriously Injured" if SERIOUSLY_INJURED in conditions
                                             else "Prone & Pinned with a flesh wound" if PRONE in conditions
                                             else "a flesh wound, Engaged: not pinned")
        if out:
            target = target.but(status=OUT)
        state = state.with_model(target)
        events = [Event("condition", target_id, f"injury dice {'+'.join(map(str, dice))} "
                        f"({', '.join(r.replace('_', ' ') for r in results)}): {worst}", piece=by or None,
                        clauses=clauses, figures={"dice": list(dice), "results": results, "out_of_action": out},
                        rolls=tuple(DiceRoll.amount("injury", (d,), outcome=r.replace("_", " "))
                                    for d, r in zip(dice, results)))]
        if out:
            state, scored = self.out_of_action(state, target)
            events += scored
        if out or not was_injured and SERIOUSLY_INJURED in conditions:
            state, tested = nerve_tests(self, state, target_id, worst, rng)
            events += tested
        return state, events

    def out_of_action(self, state: State, fighter: ModelState) -> tuple[State, list[Event]]:
        """A fighter gone Out of Action: no one is Engaged with it any more (GANG-CC), and the
        mission: every other gang scores ``out_of_action_points`` for it."""
        state = part_all(state, fighter.id)
        return others_score(state, fighter, self.rules.mission.out_of_action_points, "Out of Action", "GANG-INJURY")


def _without(conditions: tuple[str, ...], name: str) -> tuple[str, ...]:
    return tuple(c for c in conditions if c != name)


def engine_for(system: GangBattle, stats: Mapping) -> GangEngine:
    """The game's engine for fighters with these scene ``stats:`` (model id -> validated stats):
    each one's profile (its stats over the rules data's default), those that start prone.
    :attr:`GangBattle.ENGINE <entropy3d.systems.base.GameSystem.ENGINE>` names it."""
    return GangEngine(system, {model: system.profile(given) for model, given in stats.items()},
                      frozenset(model for model, given in stats.items() if given.prone))
