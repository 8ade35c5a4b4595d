"""The one path from a plan to a rules outcome: :func:`check`, then facts, then :func:`resolve`.

::

    plan text --parse--> Action --check(state, action, ruleset, table)--> refused with a clause
                                   | legal: the action with its checked move
                                   v
                 producer.ride(state, action) --> Facts          (what happened on the table)
                                   |
                 with_table_answers(table, ...) --> Facts + the table's answers (sight, rest)
                                   v
                 resolve(state, action, facts, rng, ruleset) --> (State, [Event])
                                   |
                 wreck_answers(table, ...) --> the spots around each rider it took out
                                   v
                 wrecks.place_wrecks(before, after, ruleset, answers) --> (State, [Event])

:func:`check` says whether an action is legal and describes it; it changes nothing and rolls no
dice (as python-chess keeps ``is_legal`` apart from ``push``). :func:`resolve` applies a checked
action and what a producer found riding it; it is the only function that makes a new
:class:`~entropy3d.systems.entropy_city.state.State` but for the opponent's placing of the wrecks it left
(:func:`~entropy3d.systems.entropy_city.wrecks.place_wrecks`, EC-WOUND). Every caller (the ``activate`` command, the
automatic
and scripted players, the viewer, sweeps) goes this way, whichever producer rides the move.
Where a rule is decided: :mod:`entropy3d.systems.entropy_city.riding` walks the facts and calls the
clause-named deciders in :mod:`entropy3d.systems.entropy_city.events` (``resolve_crash`` EC-COL-*,
``resolve_destructible`` EC-DEST-*, ``takes_off`` and ``resolve_jump`` EC-JUMP-*,
``resolve_cliff_edge`` EC-COL-EDGE) and :mod:`entropy3d.systems.entropy_city.dice` (tests, busts); attacks are
checked and resolved in :mod:`entropy3d.systems.entropy_city.attacks`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping, Protocol

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts, Sight, StartSights
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city import (
    ambush,
    bike_advantages,
    charisma,
    choice_traits,
    conditions,
    grab,
    items,
    law,
    missions,
    npc,
    npc_actions,
    race,
    reach_advantage,
    stopped_guns,
    stress_traits,
    traps,
)
from entropy3d.systems.entropy_city.attack_chances import (
    WHILE_RELOADING,
    attack_chance,
    chance_after_attack,
    chance_kept,
    check_chance,
    gungho_cost,
)
from entropy3d.systems.entropy_city.attacks import (
    ATTACK_BACK,
    CHICKEN,
    DODGE,
    check_attack,
    resolve_chicken,
    resolve_melee,
    resolve_shot,
    weapon_kind,
)
from entropy3d.systems.entropy_city.kick import KICK, KickChecks, KickedTo, KickPlan, kick_destination
from entropy3d.systems.entropy_city.plan import STOPS, Plan, Turn, parse_plan
from entropy3d.systems.entropy_city.planner import PlannedMove, TableProbe, plan_forced_move, plan_move
from entropy3d.systems.entropy_city.rest import settle
from entropy3d.systems.entropy_city.riding import resolve_move, resolve_skip
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import OUT, WAITING, ModelState, State
from entropy3d.systems.entropy_city.vip import take_down_vips
from entropy3d.systems.entropy_city.walking import WalkProbe, plan_walk

ACTIVATE, MOVE, SKIP, FORCED, ATTACK, END, WATCH = "activate", "move", "skip", "forced", "attack", "end", "watch"
KINDS = (ACTIVATE, MOVE, SKIP, FORCED, ATTACK, END, WATCH)


class TableChecks(TableProbe, WalkProbe, KickChecks, Protocol):
    """What :func:`check` asks the table beyond the planner's questions (what :func:`resolve`
    reads of it comes with the facts, :mod:`entropy3d.table_answers`)."""

    def edge_crossed(self, path: np.ndarray) -> tuple[str, str] | None:
        """The first table edge the path leaves the table over, and its kind (open or cliff)."""

    def sight(self, state: State, viewer: str, target: str, viewer_pose: Pose) -> Sight:
        """What ``viewer`` standing at ``viewer_pose`` sees of ``target`` (for a shot)."""


@dataclass(frozen=True, eq=False)
class Action:
    """One thing asked of a model.

    kind: ``activate`` (its activation starts), ``end`` (it ends: conditions act), ``move`` (an
    action's move, from ``plan``),
    ``skip`` (an action it must pass: remounting, EC-DICE-4), ``forced`` (a move the rules
    force on it, ``ModelState.forced_move``) or ``attack`` (``target`` with ``weapon``: chicken,
    a melee weapon or a gun; from ``from_pose``, a point of its ridden move, EC-ACT-ATTACK;
    ``defence``: dodge or attack back, EC-MEL-DEF; ``shots``: EC-GUN-SPLIT; ``kick``: which bike a
    kick pushes how far, EC-MEL-KICK, and ``kicked_to``, filled in by :func:`check`: where the
    table lets it go; ``weapon`` is None until named: :meth:`attack` names chicken unless told,
    another rulebook's check names its fighter's own) or ``watch`` (it spends
    the activation remaining on overwatch, EC-GUN-STOPPED). model_id: the model.
    plan: the move's plan. push: the push-your-luck policy its player tests with (EC-DICE-5);
    defender_push: the target's player's, for an attack.
    unavoidable: every path was blocked, so the table does not refuse it and an impact is a
    crash (EC-COL-1). move: the checked move, filled in by :func:`check`. sighting: what the
    attacker saw of its target when a shot was checked (the LOS engine's, with its
    ``visible_fraction``), filled in by :func:`check` for the record; not part of the JSON form.
    """

    kind: str
    model_id: str
    plan: Plan | None = None
    push: str = "sit-at-tn"
    unavoidable: bool = False
    move: PlannedMove | None = None
    target: str | None = None
    defender_push: str = "sit-at-tn"
    weapon: str | None = None  # an attack names its own (Action.attack's default is chicken)
    defence: str = DODGE
    shots: int = 1
    from_pose: Pose | None = None
    sighting: Any = None
    kick: KickPlan | None = None
    kicked_to: KickedTo | None = None
    traits_used: tuple[str, ...] = ()  # traits its player declared for it (EC-TRAIT: Strategist, ...)
    shares: tuple[tuple[str, int], ...] = ()  # Charismatic Energy's: (follower, stress) taken (EC-TRAIT)

    def __repr__(self) -> str:
        return f"Action({self.kind} {self.model_id}{' ' + str(self.plan) if self.plan else ''})"

    @classmethod
    def activate(cls, model_id: str) -> "Action":
        return cls(ACTIVATE, model_id)

    @classmethod
    def skip(cls, model_id: str) -> "Action":
        return cls(SKIP, model_id)

    @classmethod
    def end(cls, model_id: str) -> "Action":
        return cls(END, model_id)

    @classmethod
    def watch(cls, model_id: str) -> "Action":
        """Remain on overwatch for one more activation (EC-GUN-STOPPED)."""
        return cls(WATCH, model_id)

    @classmethod
    def ride(cls, model_id: str, plan: Plan | str, push: str = "sit-at-tn", unavoidable: bool = False) -> "Action":
        return cls(MOVE, model_id, parse_plan(plan) if isinstance(plan, str) else plan, push, unavoidable)

    @classmethod
    def attack(cls, model_id: str, target: str, weapon: str = CHICKEN, push: str = "sit-at-tn",
               defender_push: str = "sit-at-tn", *, defence: str = DODGE, shots: int = 1,
               from_pose: Pose | None = None, kick: KickPlan | None = None) -> "Action":
        """An attack on ``target`` with ``weapon`` (chicken, kick, a melee weapon or a gun); a kick
        pushes the target's bike 3" unless ``kick`` says otherwise (EC-MEL-KICK)."""
        if weapon == KICK and kick is None:
            kick = KickPlan()
        return cls(ATTACK, model_id, None, push, target=target, defender_push=defender_push, weapon=weapon,
                   defence=defence, shots=shots, from_pose=from_pose, kick=kick)

    @classmethod
    def forced(cls, model_id: str, plan: str, push: str = "sit-at-tn") -> "Action":
        return cls(FORCED, model_id, parse_plan(plan), push, True)

    def to_json(self) -> dict:
        data = {"kind": self.kind, "model": self.model_id, "plan": "" if self.plan is None else str(self.plan),
                "push": self.push, "unavoidable": self.unavoidable}
        if self.traits_used:  # only then: other replays keep their bytes
            data["traits_used"] = list(self.traits_used)
        if self.shares:
            data["shares"] = [list(share) for share in self.shares]
        if self.kind == ATTACK:
            pose = self.from_pose
            data.update(target=self.target, defender_push=self.defender_push, weapon=self.weapon,
                        defence=self.defence, shots=self.shots,
                        from_pose=None if pose is None else [round(v, 4) + 0.0 for v in (pose.x, pose.y, pose.z,
                                                                                         pose.facing_deg)])
            if self.kick is not None:  # only a kick's record has these keys: other replays keep their bytes
                data.update(kick=self.kick.to_json(),
                            kicked_to=None if self.kicked_to is None else self.kicked_to.to_json())
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> "Action":
        plan = parse_plan(data["plan"]) if data.get("plan") else None
        pose = data.get("from_pose")
        return cls(data["kind"], data["model"], plan, data.get("push", "sit-at-tn"), bool(data.get("unavoidable")),
                   target=data.get("target"), defender_push=data.get("defender_push", "sit-at-tn"),
                   weapon=data.get("weapon"), defence=data.get("defence", DODGE),
                   shots=int(data.get("shots", 1)),
                   from_pose=None if pose is None else Pose(pose[0], pose[1], pose[3], pose[2]),
                   kick=KickPlan.from_json(data["kick"]) if data.get("kick") else None,
                   kicked_to=KickedTo.from_json(data["kicked_to"]) if data.get("kicked_to") else None,
                   traits_used=tuple(data.get("traits_used", ())),
                   shares=tuple((str(who), int(n)) for who, n in data.get("shares", ())))


def check(state: State, action: Action, ruleset: Ruleset, table: TableChecks | None = None) -> Action:
    """Whether ``action`` is legal now; returns it with its checked move. Changes nothing.

    table: asked about curbs (EC-TER-CURB), buildings (EC-TER-BUILDING), terrain and table edges
    (EC-COL-EDGE) before anything is ridden; None checks the plan alone.
    Raises IllegalPlanError naming the clause.
    """
    if action.kind not in KINDS:
        raise ValueError(f"unknown action kind {action.kind!r}; use one of {', '.join(KINDS)}")
    model = state.model(action.model_id)
    if not model.in_play:  # a rider out of the game (EC-DICE-4), or the Law not yet ridden in (EC-LAW)
        if ambush.lying_in_wait(model):  # EC-TRAIT-AMBUSH: off the table until an enemy comes near
            raise IllegalPlanError("EC-TRAIT-AMBUSH", f"{model.id} lies in ambush off the table: it comes on when "
                                                      "revealed, as an enemy's ride ends near its true token")
        raise IllegalPlanError("EC-LAW" if model.law and model.status == WAITING else "EC-DICE-4",
                               f"{model.id} is {model.status}, not in the game")
    if action.kind in (ACTIVATE, END):
        return action
    choice_traits.check_declared(model, action.traits_used)  # EC-TRAIT: Strategist (x), All Part of the Plan (x)
    if action.kind == ATTACK:
        seen: list[Sight] = []

        def see() -> Sight:
            seen.append(table.sight(state, model.id, action.target, action.from_pose or model.pose))
            return seen[-1]

        if action.weapon == items.PASS:  # in lieu of an attack (EC-ACT-PASS)
            items.check_pass(state, model.id, action.target, action.from_pose, ruleset)
            return action
        if action.target not in state.models:
            raise IllegalPlanError("EC-ACT-ATTACK", f"no model {action.target!r} to attack; models: "
                                                    f"{', '.join(m for m in state.models if m != model.id)}")
        if action.weapon == charisma.INSPIRE:  # in lieu of an attack (EC-TRAIT: Charismatic Energy)
            check_chance(model, CHICKEN)
            charisma.check_shares(state, model.id, action.shares, ruleset, None if table is None else (
                lambda friend: table.sight(state, model.id, friend, model.pose)))
            return action
        if action.weapon == bike_advantages.TAUNT:  # in lieu of an attack (EC-TRAIT: Get a Real Bike)
            check_chance(model, CHICKEN)
            bike_advantages.check_taunt(state, model.id, action.target, ruleset, see if table is not None else None)
            return dataclasses.replace(action, sighting=seen[-1]) if seen else action
        if state.items and action.defence == ATTACK_BACK:  # nor attacks back (EC-MISSION-GRAB; check_attack
            # refuses the holder's own attack)
            grab.check_holder_attack(state, model.id, action.target, attacks_back=True)
        try:
            kind = weapon_kind(action.weapon, ruleset)
        except ValueError as unknown:
            raise IllegalPlanError("EC-WPN", str(unknown)) from None
        check_chance(model, kind, action.from_pose)
        check_attack(state, model.id, action.target, action.weapon, ruleset, action.from_pose,
                     see if table is not None else None, action.shots, action.kick)
        choice_traits.check_attack_traits(state, model.id, action.target, action.weapon, action.defence, ruleset,
                                          action.from_pose)  # EC-STEALTH, EC-TRAIT: Timid, Aggressive, ...
        if action.weapon == KICK:
            action = dataclasses.replace(action, kicked_to=kick_destination(
                state, model.id, action.target, action.kick or KickPlan(), ruleset, table, action.from_pose))
        return dataclasses.replace(action, sighting=seen[-1]) if seen else action
    if action.kind == WATCH:
        stopped_guns.check_remain(model)
        return action
    if action.kind == SKIP:
        if not model.skip_next_action:
            raise IllegalPlanError("EC-DICE-4", f"{model.id} has no action to skip")
        return action
    if action.kind == FORCED:
        if model.forced_move is None and model.free_move_in:  # EC-TRAIT: Nimble (x)'s free move
            return dataclasses.replace(action, move=choice_traits.nimble_move(model, action.plan, ruleset, table))
        if model.forced_move is None or str(action.plan) != model.forced_move:
            raise IllegalPlanError("EC-DEST-3", f"{model.id} has no forced move {action.plan}")
        move = plan_forced_move(action.plan, model.pose, model.bike_type, model.speed, ruleset)
        return dataclasses.replace(action, move=move)

    per_activation = int(ruleset.data("turn.actions_per_activation"))
    plan = action.plan
    if model.forced_move is not None:
        raise IllegalPlanError("EC-DEST-3", f"{model.id} must first ride the opponent's turn: {model.forced_move}")
    if model.actions_taken >= per_activation:
        raise IllegalPlanError("EC-TURN-3", f"an activation has {per_activation} actions; {model.id} has none left")
    if model.skip_next_action:
        raise IllegalPlanError("EC-DICE-4", f"{model.id} remounted after a bust and skips this action")
    if model.complex_action == "laytrap" and plan.action != "laytrap":
        raise IllegalPlanError("EC-ACT-LAYTRAP", "laying a trap takes both actions at the minimum distance")
    if model.forced_speed is not None and plan.speed != model.forced_speed:
        raise IllegalPlanError("EC-ACT-STOPPIE", f"after a stoppie the next action is at speed {model.forced_speed}")
    if model.air is not None and plan.speed != model.air.speed:
        raise IllegalPlanError("EC-JUMP-4", f"{model.id} is in the air: it lands at its launch speed "
                               f"{model.air.speed}")
    stopped_guns.check_stopped_action(model, plan.action, ruleset)
    stress_traits.check_action(model, plan.action, ruleset)  # EC-TRAIT: Inebriated, Cracks Under Pressure
    stunned = "stunned" in model.conditions
    if stunned and (plan.action not in ("move",) + STOPS or any(isinstance(seg, Turn) for seg in plan.segments)):
        raise IllegalPlanError("EC-COND-STUN", f"{model.id} is stunned: its minimum distance, no turns")
    if model.speed_cap is not None and plan.speed > model.speed_cap:
        raise IllegalPlanError("EC-COL-SIDE", f"after a side-on crash {model.id} rides at speed "
                               f"{model.speed_cap} for the rest of its activation")
    probe = None if action.unavoidable else table
    if model.on_foot or plan.walking:
        move = plan_walk(plan, model.pose, model.on_foot, ruleset, table=probe)  # EC-FOOT-MOVE
    else:
        move = plan_move(plan, model.pose, model.bike_type, model.speed, ruleset, table=probe,
                         action_index=model.actions_taken,
                         first_action_of_game=state.turn == 1 and model.actions_taken == 0,
                         sand_free_available=model.sand_free_available, move_change_in=model.move_change_in)
    if stunned and abs(move.length_in - move.band.min) > 1e-6:
        raise IllegalPlanError("EC-COND-STUN", f"{model.id} is stunned: it rides its minimum distance, "
                               f"{move.band.min:g}\"")
    bike_advantages.check_ride(model, move, ruleset)  # EC-TRAIT: L Plates, Get a Real Bike
    if probe is not None:
        crossed = probe.edge_crossed(move.path)
        if crossed is not None and crossed[1] == "cliff":
            raise IllegalPlanError("EC-COL-EDGE", f"the path rides over the {crossed[0]} cliff edge")
    return dataclasses.replace(action, move=move)


def resolve(state: State, action: Action, facts: Facts | StartSights | None, rng: np.random.Generator,
            ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Apply a checked ``action`` and what a producer found riding it; returns the new state and
    the events, in order. Dice come from ``rng`` only. ``facts`` is None for actions that ride
    nothing but an activation's start (skip, stop, focus); what an enemy on overwatch saw of the ride is in them
    (``facts.watched``, :func:`~entropy3d.systems.entropy_city.stopped_guns.react`), and what the table says of
    where the ridden bike may rest (``facts.rests``, :func:`settle`: never inside a solid, never
    floating); facts without them see nothing and leave the pose the ride gave. An activation's
    start reads what the table showed then instead (:class:`~entropy3d.core.facts.StartSights`,
    EC-STEALTH; None: nothing seen). The riders it takes out are left for the opponent to place
    their wrecks (:func:`~entropy3d.systems.entropy_city.wrecks.place_wrecks`, EC-WOUND).
    """
    action = stress_traits.with_trait_pushes(action, state, ruleset)  # EC-TRAIT: Rage Filled
    action = law.with_npc_pushes(action, state)  # EC-LAW: a police rider tests as an NPC
    # EC-TRAIT: every test of the rider's in this action (the pickup's too) rolls with the dice
    # choices of the traits its player declared, while their uses last
    push = choice_traits.tested_with(state.model(action.model_id), action.push, action.traits_used,
                                     action.plan.action if action.plan else None, ruleset)
    tested = action if push is action.push else dataclasses.replace(action, push=push)
    after, events = _resolve(state, tested, facts, rng, ruleset)
    if action.kind in (MOVE, FORCED) and after.items:  # EC-ACT-PICKUP: a ride near an item tries for it
        after, picked = items.pick_up(after, action.model_id, None if facts is None else facts.trajectory,
                                       push, rng, ruleset)
        events = events + picked
    after = choice_traits.count_uses(after, action.model_id, push)
    if after.items and after.mission in npc.NPC_MISSIONS:  # EC-MISSION-JAIL: a stop by the jail frees its NPC
        plan_action = action.plan.action if action.kind == MOVE and action.plan is not None else None
        after, freed = npc_actions.free_the_npc(state, after, action.model_id, plan_action, rng, ruleset)
        events = events + freed
    after, events = aftermath(state, after, action.kind, action.model_id, events, ruleset,
                              facts.trajectory if isinstance(facts, Facts) else None)
    after, raced = race.pass_checkpoints(after, action.model_id, facts, events, ruleset)  # EC-MISSION-HOON
    events = events + raced
    after, marked = stress_traits.after_action(after, action.kind, action.model_id,  # EC-TRAIT
                                               action.plan.action if action.plan else None, events, ruleset)
    after = ambush.after_own_action(after, action.model_id, action.kind)  # EC-TRAIT-AMBUSH
    if action.kind in (MOVE, FORCED):  # EC-TRAIT-AMBUSH: a ride that ends near an ambush's true token
        after, sprung = ambush.spring(after, action.model_id, push, rng, ruleset)  # the traits' dice too
        marked = marked + sprung
    return after, events + marked


def aftermath(before: State, after: State, kind: str, actor: str, events: list[Event], ruleset: Ruleset,
              trajectory: np.ndarray | None = None) -> tuple[State, list[Event]]:
    """What follows ``events`` of an action of ``kind`` by ``actor`` that took ``before`` to
    ``after`` (``trajectory``: its ride's rows, None when nothing was ridden): the missions'
    packages, VIPs, items and NPCs (EC-MISSION-*), and what each rider has done, which the Law
    reads (EC-LAW). ``events`` with those that followed."""
    after, scored = missions.carry_packages(after, events)  # EC-MISSION-PACKAGE
    after, taken = take_down_vips(before, after, actor, events, ruleset)  # EC-MISSION-VIP
    after, carried = grab.carry_items(before, after, kind, actor, events, ruleset)  # EC-MISSION-GRAB
    # EC-MISSION-JAIL, EC-MISSION-RESCUE: a holder escapes, delivers, loses or drops its NPC
    after, npcs = npc_actions.carry_npcs(after, actor, kind, events, trajectory, ruleset)
    after = law.tally_impact(before, after, actor, events)  # EC-LAW: what each rider has done
    return after, events + scored + taken + carried + npcs


def _resolve(state: State, action: Action, facts: Facts | StartSights | None, rng: np.random.Generator,
             ruleset: Ruleset) -> tuple[State, list[Event]]:
    """:func:`resolve` before the missions' aftermath, the actor's attack allowance kept
    (:func:`_attack_allowance`); ``action.push`` carries the declared traits' dice choices."""
    after, events = _apply(state, action, facts, rng, ruleset)
    after, said = choice_traits.after_action(after, action.kind, action.model_id, events, ruleset)  # EC-TRAIT
    events = events + said
    before = state.model(action.model_id)
    after = _only_moved(before, action, after, events)
    return _attack_allowance(before, action, after, events, ruleset), events


def _only_moved(before: ModelState, action: Action, state: State, events: list[Event]) -> State:
    """EC-MOVE-3: "If a character only moves during their action without further complication
    their TN when attacked increases by one until the beginning of the next activation." The
    activation starts with it (unless it is one the model skips: a stopped model did not move); a
    ride keeps it only as a plain move (DECISION: a complication is any other action, focus, a
    stunt, a stop, a jump, gung-ho, or a bust or crash in the ride; the tests of riding a template
    are part of moving); a skip, a watch, a forced move and an attack end it."""
    model = state.model(before.id)
    if action.kind == ACTIVATE:
        keep = not any("EC-STOPPED" in e.clauses for e in events)  # the activation it skips, stopped
    elif action.kind == MOVE:
        troubled = any(e.kind in ("bust", "crash") and e.model == before.id for e in events)
        keep = model.only_moved and action.move.plan.action == "move" and not troubled
    elif action.kind == END:
        keep = model.only_moved
    else:
        keep = False
    return state if keep == model.only_moved else state.with_model(model.but(only_moved=keep))


def _attack_allowance(before: ModelState, action: Action, state: State, events: list[Event], ruleset: Ruleset
                      ) -> State:
    """The attack the rules give the model after ``action`` (EC-ACT-ATTACK, EC-GUN-STOPPED): one an
    activation, after a move it rode (an attack along it, or a focussed shot after a stop), kept
    through a move forced on it, and a shot at the start of the activation it skips after a
    reload; none after anything else, nor once it has attacked."""
    model = state.model(before.id)
    if action.kind == ACTIVATE:
        reload_shot = stopped_guns.may_shoot_while_reloading(model, events)
        model = model.but(attack_chance=WHILE_RELOADING if reload_shot else None, attacks_made=0)
    elif action.kind == END:
        model = model.but(attack_chance=None, attacks_made=0)
    elif action.kind == ATTACK:
        model = model.but(attack_chance=chance_after_attack(before, model, events, ruleset),
                          attacks_made=before.attacks_made + 1)
    elif action.kind == MOVE:
        model = model.but(attack_chance=attack_chance(model, action.move, events, model.attacks_made > 0))
    elif action.kind == FORCED:
        model = model.but(attack_chance=chance_kept(before.attack_chance, model, events))
    else:
        model = model.but(attack_chance=None)
    return state.with_model(model)


def _apply(state: State, action: Action, facts: Facts | StartSights | None, rng: np.random.Generator,
           ruleset: Ruleset) -> tuple[State, list[Event]]:
    """What ``action`` does to the state, before the attack allowance and the missions' aftermath."""
    model = state.model(action.model_id)
    if action.kind == ACTIVATE:
        state, events = begin_activation(state, model.id, ruleset)
        seen = facts if isinstance(facts, StartSights) else None  # what the table showed as it began
        state = choice_traits.at_activation_start(state, model.id, ruleset,  # EC-STEALTH
                                                  None if seen is None else seen.sees)
        return stopped_guns.watchers_at_start(state, model.id, ruleset, None if seen is None else seen.seen_by), events
    if action.kind == END:
        return end_activation(state, model.id, rng, ruleset)
    if action.kind == SKIP:
        return resolve_skip(state, model, ruleset)
    if action.kind == WATCH:
        return stopped_guns.remain(state, model.id, ruleset)
    if action.kind == ATTACK and action.weapon == charisma.INSPIRE:
        return charisma.resolve_shares(state, model.id, action.shares)
    if action.kind == ATTACK and action.weapon == bike_advantages.TAUNT:
        return bike_advantages.resolve_taunt(state, model.id, action.target)
    if action.kind == ATTACK and action.weapon == items.PASS:
        return items.resolve_pass(state, model.id, action.target, action.from_pose, action.push,
                                  action.defender_push, rng, ruleset)
    if action.kind == ATTACK:
        state, cost = gungho_cost(state, model.id, ruleset)
        kind = weapon_kind(action.weapon, ruleset)
        if kind == CHICKEN:
            state, events = resolve_chicken(state, model.id, action.target, action.push, action.defender_push, rng,
                                            ruleset)
        elif kind == "melee" and reach_advantage.strikes_first(state, model.id, action.target, action.weapon,
                                                               action.defence, ruleset, action.from_pose):
            state, events = reach_advantage.resolve_in_turn(state, model.id, action.target, action.weapon, action.push,
                                                            action.defender_push, rng, ruleset, action.from_pose)
        elif kind == "melee":
            state, events = resolve_melee(state, model.id, action.target, action.weapon, action.defence,
                                          action.push, action.defender_push, rng, ruleset, action.from_pose,
                                          action.kick, action.kicked_to)
        else:
            state, events = resolve_shot(state, model.id, action.target, action.weapon, action.shots, action.push,
                                         action.defender_push, rng, ruleset)
        return state, cost + events
    if action.move is None:
        raise ValueError(f"{action!r} was not checked: call check() first")
    state, events = resolve_move(state, model, action.move, action.push, facts, rng, ruleset,
                                 counts_as_action=action.kind == MOVE)
    if action.kind == MOVE and model.move_change_in:  # its next move used the change a ruling gave it
        state = state.with_model(state.model(model.id).but(move_change_in=0.0))
    if facts is not None and facts.rests is not None:  # the table's answers: where it may rest (issue 18)
        state, rested = settle(state, model.id, facts, ruleset)
        events += rested
    if action.kind == MOVE:
        after, more = conditions.after_action(state.model(model.id), ruleset)
        state, events = state.with_model(after), events + more
    if facts is not None:
        # enemies on overwatch shoot at the first point of the ride in range and sight (EC-GUN-STOPPED)
        state, shots = stopped_guns.react(state, model.id, facts, action.push, rng, ruleset,
                                          stopped_guns.airborne_stretches(model, events))
        events += shots
    return state, events


def begin_activation(state: State, model_id: str, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """A model's activation starts: its actions and per-activation allowances are fresh; a model
    that must skip it does so, recovering if it stopped to recover (EC-STOPPED, EC-STOP-RECOVER)."""
    model = state.model(model_id)
    fresh = model.but(actions_taken=0, sand_free_available=True, complex_action=None, speed_cap=None,
                      only_moved=True)
    events: list[Event] = []
    if model.skip_next_activation:
        per_activation = int(ruleset.data("turn.actions_per_activation"))
        stress = model.stress
        if model.recovering:
            # DECISION: with no condition to remove (conditions come with the combat rules), the
            # recovering rider takes the better choice: all stress to 0 (the 2 off is included).
            stress = conditions.floor_stress(model.but(stress=stress_traits.recovered_stress(model, ruleset)),
                                             ruleset).stress
            events.append(Event("skip", model.id, f"recovers: stress {model.stress} -> {stress} (EC-STOP-RECOVER)",
                                clauses=("EC-STOP-RECOVER",), stress_change=stress - model.stress))
        events.append(Event("skip", model.id, "stopped: skips this activation (EC-STOPPED)", clauses=("EC-STOPPED",)))
        fresh = fresh.but(skip_next_activation=False, recovering=False, stress=stress, actions_taken=per_activation)
    else:
        fresh = fresh.but(stopped=False, reloading=False)
        if model.overwatch_renewed:  # it remained on overwatch once; the watch is over (EC-GUN-STOPPED)
            fresh = fresh.but(overwatch_push=None, overwatch_renewed=False)
    state, dedicated = stress_traits.at_activation_start(state.with_model(fresh), model_id, ruleset)  # EC-TRAIT
    return state, events + dedicated



def end_activation(state: State, model_id: str, rng: np.random.Generator, ruleset: Ruleset
                   ) -> tuple[State, list[Event]]:
    """A model's activation ends: its conditions act (EC-COND-BLEED, EC-COND-BURN,
    :func:`entropy3d.systems.entropy_city.conditions.at_activation_end`); a rider that attacked back in defence
    may attack again (EC-MEL-DEF)."""
    from entropy3d.systems.entropy_city import missions

    before = state.model(model_id)
    model, events = conditions.at_activation_end(before.but(no_attack_next_activation=False), rng, ruleset)
    state, blast = traps.burn_fuses(state.with_model(model), model_id, ruleset)
    state, cracking = stress_traits.at_activation_end(state, model_id, ruleset)  # EC-TRAIT: Cracks Under Pressure
    events += blast + cracking
    model = state.model(model_id)
    if model.status == OUT and before.status != OUT:
        state = missions.score_taken_out(state, model, None, ruleset)
    return state, events
