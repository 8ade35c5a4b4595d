"""Attacks, checked and resolved like every other action
(:func:`entropy3d.systems.entropy_city.transition.check` / :func:`~entropy3d.systems.entropy_city.transition.resolve`).

- The game of chicken (EC-MEL-CHICKEN): a deliberate near miss from the target's front.
- Melee with a weapon (EC-MEL-1, EC-MEL-2, EC-MEL-DEF, EC-WPN, EC-PIERCE, EC-HEADSHOT,
  EC-WOUND): from any point of the attacker's ridden move (EC-ACT-ATTACK), with half its base
  beside the target and the target in the weapon's reach; the defender dodges or attacks back.
- Shots with a gun (EC-GUN-1, EC-GUN-2, EC-GUN-SPLIT, EC-COVER-1): the table says how much of the
  target the shooter sees (:class:`~entropy3d.core.facts.Sight`, from the LOS engine); the rules
  need 25% and the gun's range.
Every attack is an opposed test (EC-DICE-2). A rider's dodge stat is added to its dodge total
when that does not bust it (DECISION: "Rider Stats": a stat "is chosen after the dice roll is
made and stress is applied"; a player never adds it to bust), never in a surprise (EC-MEL-2).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.core.facts import Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city import ambush, missions, stress_traits, trait_tests
from entropy3d.systems.entropy_city.bike_advantages import advantage_bike
from entropy3d.systems.entropy_city.combat import (
    KICK,
    attack_stress,
    attack_tn,
    attack_tn_modifiers,
    base_gap_in,
    check_melee,
    chicken_allowed,
    chicken_stress,
    gun_range_in,
    gun_tn,
    shot_in_sight,
)
from entropy3d.systems.entropy_city.conditions import BLEEDING, STUNNED, after_test, become, stun_tn_mod
from entropy3d.systems.entropy_city.dice import Outcome, TestRoll, policy_named, resolve_bust
from entropy3d.systems.entropy_city.grab import check_holder_attack
from entropy3d.systems.entropy_city.kick import KickedTo, KickPlan, kick_tn
from entropy3d.systems.entropy_city.opposed import decide
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import OUT, ModelState, State

CHICKEN = "chicken"
DODGE, ATTACK_BACK = "dodge", "attack"


def check_chicken(state: State, attacker_id: str, target_id: str, ruleset: Ruleset) -> None:
    """Whether ``attacker_id`` may play chicken with ``target_id`` now; raises IllegalPlanError.

    Enemies both riding and on the ground (EC-JUMP-3), not stopped (EC-STOPPED: a stopped rider
    makes no melee attack), bases at most ``chicken.near_miss_in`` apart, approaching the target
    from its front (EC-MEL-CHICKEN).
    """
    attacker, target = state.model(attacker_id), state.model(target_id)
    if target.gang == attacker.gang:
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{target.id} rides for the same gang")
    if not (attacker.in_play and target.in_play):
        raise IllegalPlanError("EC-MEL-CHICKEN", "both riders must be in the game")
    if attacker.air is not None or target.air is not None:
        raise IllegalPlanError("EC-JUMP-3", "an airborne rider can only be met by another launched rider")
    if attacker.stopped:
        raise IllegalPlanError("EC-STOPPED", f"{attacker.id} is stopped and makes no melee attack")
    walker = next((m for m in (attacker, target) if m.on_foot), None)
    if walker is not None:
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{walker.id} is on foot: chicken is a near miss between bikes")
    gap = base_gap_in(attacker.pose, ruleset.base_for(attacker.bike_type), target.pose,
                      ruleset.base_for(target.bike_type))
    near_miss = float(ruleset.data("chicken.near_miss_in"))
    if gap > near_miss:
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{gap:.1f}\" apart; a near miss is {near_miss:g}\" at most")
    if not chicken_allowed(attacker.pose, target.pose):
        raise IllegalPlanError("EC-MEL-CHICKEN", f"{attacker.id} is not coming at {target.id} from its front")


def resolve_chicken(state: State, attacker_id: str, target_id: str, push: str, defender_push: str,
                    rng: np.random.Generator, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """A game of chicken (EC-MEL-CHICKEN): opposed TN 15 tests (EC-DICE-2, EC-DICE-5); the winner's
    total gives the loser total - 14 stress (at most 7) and the winner half of that (at least 1,
    none after a natural 21); a bust on either side runs the crash sequence (EC-DICE-4)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    tn = int(ruleset.data("chicken.tn"))
    duel = trait_tests.duel("melee", attacker, target, trait_tests.CHICKEN, trait_tests.CHICKEN_DEFENCE,
                            tn + trait_tests.tn_mod(attacker, ruleset), rng, ruleset,
                            policy_named(push, ruleset), policy_named(defender_push, ruleset),
                            defender_tn=tn + trait_tests.tn_mod(target, ruleset))
    clauses = ("EC-MEL-CHICKEN", "EC-DICE-2", "EC-DICE-5")
    events = [Event("attack", attacker.id, f"{attacker.id} plays chicken with {target.id}: "
                    f"{roll_text(duel.attacker)} vs {roll_text(duel.defender)}", clauses=clauses,
                    rolls=(duel.attacker, duel.defender), piece=target.id)]
    state = state.with_model(attacker.but(only_moved=False))
    winner = loser = None
    if duel.attacker_wins:
        winner, loser, roll = attacker, target, duel.attacker
    elif duel.defender.succeeded:
        winner, loser, roll = target, attacker, duel.defender
    if winner is not None:
        result = chicken_stress(roll.total, ruleset, roll.outcome is Outcome.CRIT)
        for who, extra in ((loser, result.loser), (winner, result.winner)):
            now = state.model(who.id)
            state = state.with_model(now.but(stress=now.stress + extra))
            events.append(Event("attack", who.id, f"{who.id} +{extra} stress ({'loses' if who is loser else 'wins'})",
                                clauses=("EC-MEL-CHICKEN",), stress_change=extra,
                                figures={"winner": winner.id}))
    else:
        events.append(Event("attack", attacker.id, "nobody flinches", clauses=("EC-MEL-CHICKEN",)))
    state, busts = _busts(state, duel, attacker, target, push, defender_push, rng, ruleset)
    return state, events + busts


def _busts(state: State, duel, attacker: ModelState, target: ModelState, push: str, defender_push: str,
           rng: np.random.Generator, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """The crash sequence of either side that busted in an opposed attack (EC-DICE-4); a defender
    taken out by it counts as taken out by the attacker's gang."""
    events = []
    for roll, who, push_name, by_gang in ((duel.attacker, attacker, push, None),
                                          (duel.defender, target, defender_push, attacker.gang)):
        if roll.outcome is Outcome.BUST and state.model(who.id).in_play:
            state, bust = bust_sequence(state, who.id, push_name, by_gang, rng, ruleset)
            events.append(bust)
    return state, events


def bust_sequence(state: State, model_id: str, push: str, by_gang: str | None, rng: np.random.Generator,
          ruleset: Ruleset) -> tuple[State, Event]:
    """The crash sequence of a bust in an attack (EC-DICE-4), and the mission's points."""
    current: ModelState = state.model(model_id)
    mods = trait_tests.test_mods(current, trait_tests.REMOUNT, ruleset)
    bust = resolve_bust(current.wounds, current.stress, rng, ruleset, policy_named(push, ruleset),
                        current.max_stress, mods.bonus, mods.optional, mods.tn)
    after = current.but(wounds=bust.wounds_after, status=OUT if bust.out_of_game else current.status,
                        skip_next_action=bust.skip_next_action)
    state = missions.score_bust(state.with_model(after), after, ruleset)
    if after.status == OUT and current.status != OUT:
        state = missions.score_taken_out(state, after, by_gang, ruleset)
    verdict = ("out of the game" if bust.out_of_game else
               f"loses a wound ({bust.wounds_after} left), back on, skips its next action")
    return state, Event("bust", model_id, f"bust (EC-DICE-4): {verdict}", clauses=bust.clauses,
                        rolls=(bust.remount,) if bust.remount else ())


# -- melee and guns --------------------------------------------------------------------------------


def weapon_and_shots(said: str) -> tuple[str, int]:
    """A weapon as a player names it, with a gun's split shots (EC-GUN-SPLIT: "pistol x2" is two
    shots of the pistol at the one target): (weapon, shots); one shot when no ``xN`` follows.
    ValueError for an ``x`` count that is no whole number of 1 or more."""
    words = said.split()
    if len(words) >= 2 and words[-1].lower().startswith("x"):
        count = words[-1][1:]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"{words[-1]!r}: say a gun's shots as x2 (EC-GUN-SPLIT), e.g. 'pistol x2'")
        return " ".join(words[:-1]), int(count)
    return said.strip(), 1


def weapon_kind(weapon: str | None, ruleset: Ruleset) -> str:
    """``chicken``, ``melee`` or ``gun`` for an attack's weapon name; ValueError for others and none."""
    if weapon is None:
        raise ValueError(f"the attack names no weapon; name chicken, kick, a melee weapon "
                         f"({', '.join(ruleset.data('weapons'))}) or a gun ({', '.join(ruleset.data('guns'))})")
    if weapon == CHICKEN:
        return CHICKEN
    if weapon in ruleset.data("weapons") or weapon == KICK:
        return "melee"
    if weapon in ruleset.data("guns"):
        return "gun"
    raise ValueError(f"unknown weapon {weapon!r}; use chicken, kick, a melee weapon "
                     f"({', '.join(ruleset.data('weapons'))}) or a gun ({', '.join(ruleset.data('guns'))})")


def target_tn(base_tn: int, attacker: ModelState, target: ModelState, ruleset: Ruleset, *, ranged: bool,
              at_the_bike: bool = False) -> int:
    """The attacker's TN against ``target``: the weapon's TN with the target's protection (melee),
    +1 if it only moved (EC-MOVE-3), +1 on a trailbike (EC-BIKE-TRAIL), +1 airborne for a shot
    (EC-JUMP-3), -2 when it is stopped (EC-STOPPED), +3 when the attacker is stunned (EC-COND-STUN),
    -2 after the attacker's passed stunt (EC-ACT-STUNT), and what traits do (EC-TRAIT: Squid, Thrives
    Under Pressure, Subtle as a Sledgehammer). ``at_the_bike``: a kick (EC-MEL-KICK), which the
    rider's protection and dodginess do not change."""
    protection = target.protection
    if not ranged and not at_the_bike:
        base_tn, protection = stress_traits.melee_base(base_tn, target, ruleset)
    tn = attack_tn(base_tn, ruleset, protection=protection, target_only_moved=target.only_moved,
                   target_bike=advantage_bike(target), target_airborne=target.air is not None, ranged=ranged,
                   at_the_bike=at_the_bike)
    if target.stopped:
        tn += int(ruleset.data("shooting.stopped_target_tn_mod"))
    tn += stun_tn_mod(attacker, ruleset)
    if attacker.shocking:
        tn += int(ruleset.data("actions.stunt.attack_tn_mod"))
    return tn + stress_traits.attack_tn_mod(attacker, target, ruleset)


def _target_modifiers(target: ModelState, ruleset: Ruleset, ranged: bool, at_the_bike: bool) -> list[tuple[str, int]]:
    """The changes :func:`~entropy3d.systems.entropy_city.combat.attack_tn` makes to an attack's TN for ``target``."""
    return attack_tn_modifiers(ruleset, protection=target.protection, target_only_moved=target.only_moved,
                               target_bike=advantage_bike(target), target_airborne=target.air is not None,
                               ranged=ranged, at_the_bike=at_the_bike)


def target_clauses(target: ModelState, ruleset: Ruleset, *, ranged: bool, at_the_bike: bool = False
                   ) -> tuple[str, ...]:
    """The clauses of what ``target`` changes of an attack's TN (:func:`target_tn`): EC-MOVE-3
    when it only moved, EC-BIKE-TRAIL on a trailbike, EC-JUMP-3 airborne under a shot."""
    return tuple(clause for clause, _ in _target_modifiers(target, ruleset, ranged, at_the_bike) if clause)


def check_attack(state: State, attacker_id: str, target_id: str, weapon: str, ruleset: Ruleset,
                 from_pose: Pose | None = None, see: Callable[[], Sight] | None = None, shots: int = 1,
                 kick: KickPlan | None = None) -> None:
    """Whether the attack is legal; raises IllegalPlanError naming the clause.

    from_pose: where along its ridden move the attacker strikes or shoots (EC-ACT-ATTACK; None:
    where it stands). see: asks the table what the shooter sees of the target (for a gun; asked
    only once everything cheaper allows the shot).
    """
    kind = weapon_kind(weapon, ruleset)
    attacker, target = state.model(attacker_id), state.model(target_id)
    if state.items:  # every attack, the overwatch reaction's too: a holder makes none (EC-MISSION-GRAB)
        check_holder_attack(state, attacker_id, target_id, attacks_back=False)
    if attacker.no_attack_next_activation and attacker.in_play:
        raise IllegalPlanError("EC-MEL-DEF", f"{attacker.id} attacked back in defence and may not attack now")
    if kind == CHICKEN:
        return check_chicken(state, attacker_id, target_id, ruleset)
    if target.gang == attacker.gang:
        raise IllegalPlanError("EC-ACT-ATTACK", f"{target.id} rides for the same gang")
    if not (attacker.in_play and target.in_play):
        raise IllegalPlanError("EC-ACT-ATTACK", "both riders must be in the game")
    pose = from_pose or attacker.pose
    if kind == "melee":
        if attacker.stopped:
            raise IllegalPlanError("EC-STOPPED", f"{attacker.id} is stopped and makes no melee attack")
        if weapon not in (attacker.weapon, "punch", KICK):
            raise IllegalPlanError("EC-WPN", f"{attacker.id} carries {attacker.weapon}, not {weapon}")
        if weapon == KICK:
            kick_tn(state, attacker_id, target_id, kick or KickPlan(), ruleset)  # how far it may push and pivot
        found = check_melee(pose, ruleset.base_for(attacker.bike_type), target.pose,
                            ruleset.base_for(target.bike_type), weapon, ruleset,
                            attacker_airborne=attacker.air is not None, target_airborne=target.air is not None,
                            target_on_foot=target.on_foot)
        if not found.allowed:
            raise IllegalPlanError(found.refused_by, found.reason)
        return
    if weapon != attacker.gun:
        raise IllegalPlanError("EC-GUN-2", f"{attacker.id} carries no {weapon}")
    if attacker.ammo <= 0:
        raise IllegalPlanError("EC-GUN-2", f"{attacker.id}'s {weapon} has no shots left")
    split = int(ruleset.data(f"guns.{weapon}.split_shot"))
    if not 1 <= shots <= min(split, attacker.ammo):
        raise IllegalPlanError("EC-GUN-SPLIT", f"{attacker.id} may fire 1-{min(split, attacker.ammo)} shots "
                               f"({attacker.ammo} left, split shot {split})")
    if ruleset.data(f"guns.{weapon}.on_foot_only") and not attacker.on_foot:
        raise IllegalPlanError("EC-GUN-2", f"a {weapon} is for models on foot only; {attacker.id} rides a "
                               f"{attacker.bike_type}")
    reach = gun_range_in(weapon, ruleset)
    distance = float(((pose.x - target.pose.x) ** 2 + (pose.y - target.pose.y) ** 2) ** 0.5)
    if distance > reach:
        raise IllegalPlanError("EC-GUN-2", f"{target.id} is {distance:.1f}\" away; a {weapon} reaches {reach:.1f}\" "
                               f"({ruleset.data(f'guns.{weapon}.range_m'):g} m)")
    need = float(ruleset.data("shooting.min_visible_fraction"))
    sight = see() if see is not None else None
    if sight is None or not shot_in_sight(sight.visible_fraction, sight.bike_seen, ruleset):
        seen = 0.0 if sight is None else sight.visible_fraction
        raise IllegalPlanError("EC-COVER-1", f"{seen:.0%} of {target.id} is visible; a shot needs {need:.0%} "
                               "and the bike itself in sight")


def _dodged(roll: TestRoll, dodge: int, ruleset: Ruleset) -> TestRoll:
    """The defender adds its dodge stat when that does not bust it (see the module's DECISION)."""
    if dodge <= 0 or roll.outcome in (Outcome.BUST, Outcome.CRIT):
        return roll
    total = roll.total + dodge
    # the dice rules' bust_over read alone: the exact odds of a shot ask this of each of its ~440 ends
    if total > int(ruleset.data("dice.bust_over")):
        return roll
    return dataclasses.replace(roll, total=total)


def _tested(model: ModelState, roll: TestRoll) -> ModelState:
    """A stunned rider's first successful test clears the stun (EC-COND-STUN)."""
    return after_test(model, roll.succeeded)


def _hit(state: State, attacker: ModelState, target_id: str, *, stress: int, wounds: int, kill: bool,
         bleed: bool, stun: bool, ruleset: Ruleset, label: str) -> tuple[State, list[Event]]:
    """What a successful attack does to the target (EC-WOUND, EC-HEADSHOT, EC-COND-*)."""
    target = state.model(target_id)
    events: list[Event] = []
    if stress > 0 and target.trait("hard_headed")[0]:  # EC-TRAIT: melee stress -1, at least 1
        spec = ruleset.data("traits.hard_headed")
        stress = max(int(spec["min_stress"]), stress - int(spec["melee_stress_less"]))
    before = target.stress
    for condition, given in ((BLEEDING, bleed), (STUNNED, stun)):
        if given:
            target, _ = become(target, condition, ruleset)
    extra = stress + target.stress - before
    lost = target.wounds if kill else min(target.wounds, wounds)
    after = target.but(stress=target.stress + stress, wounds=target.wounds - lost)
    words = [f"+{extra} stress"] if extra else []
    words += [f"-{lost} wound{'s' if lost != 1 else ''}"] if lost else []
    words += ["bleeding (EC-COND-BLEED)"] if bleed else []
    words += ["stunned (EC-COND-STUN)"] if stun else []
    clauses = ("EC-WOUND",) + (("EC-HEADSHOT",) if kill else ()) + (("EC-COND-BLEED",) if bleed else ()) + (
        ("EC-COND-STUN",) if stun else ())
    if after.wounds <= 0:
        after = after.but(wounds=0, status=OUT, air=None)
        words.append("taken out" + (" by a headshot" if kill else ""))
    events.append(Event("attack", target.id, f"{label} hits {target.id}: {', '.join(words) or 'no harm'}",
                        clauses=clauses, piece=attacker.id, stress_change=extra,
                        figures={"wounds_lost": lost, "headshot": kill, "taken_out": after.status == OUT}))
    state = state.with_model(after)
    if after.status == OUT:
        state = missions.score_taken_out(state, after, attacker.gang, ruleset)
    return state, events


@dataclasses.dataclass(frozen=True)
class MeleeSetup:
    """What a melee attack is rolled with, before any die (EC-MEL-1, EC-MEL-2, EC-MEL-DEF, EC-PIERCE).

    tn: the attacker's TN. surprise: struck from behind (the target gets ``surprise_stress`` first
    and may only dodge). back: the target attacks back, needing ``defender_tn`` (0: it dodges).
    dodge: the stat the target adds to a dodge total.
    """

    tn: int
    surprise: bool
    surprise_stress: int
    back: bool
    defender_tn: int
    dodge: int


def melee_spec(weapon: str, ruleset: Ruleset) -> dict:
    """A melee weapon's row of the rules data (EC-WPN); a kick's: no stress, no wound, no headshot
    ("Kick Bike: TN 13, 0 stress/wounds", EC-MEL-KICK; its TN is
    :func:`~entropy3d.systems.entropy_city.kick.kick_tn`)."""
    if weapon == KICK:
        return {"reach_in": 0.0, "tn": int(ruleset.data("melee.kick.tn")), "stress": 0, "wounds": 0, "pierce": 0,
                "bleed": False, "stun_on_crit": False, "headshot_total": None, "headshot_on_crit": False}
    return ruleset.data(f"weapons.{weapon}")


def melee_setup(state: State, attacker_id: str, target_id: str, weapon: str, defence: str, ruleset: Ruleset,
                from_pose: Pose | None = None, kick: KickPlan | None = None) -> MeleeSetup:
    """The TNs, surprise and defence of a melee attack from ``from_pose`` (None: where it stands),
    with the traits that change them (EC-TRAIT: Psychotic (x), Pillion (x)); ``kick``: what a kick
    pushes (its TN is the kicked bike's, EC-MEL-KICK)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    spec = melee_spec(weapon, ruleset)
    if weapon == KICK:
        tn = target_tn(kick_tn(state, attacker_id, target_id, kick or KickPlan(), ruleset), attacker, target, ruleset,
                       ranged=False, at_the_bike=True)
    else:
        tn = target_tn(int(spec["tn"]), attacker, target, ruleset, ranged=False) - int(spec["pierce"])
    psychotic, at_stress = attacker.trait("psychotic")
    if psychotic and attacker.stress >= int(at_stress):
        tn += int(ruleset.data("traits.psychotic.melee_tn_mod"))
    surprise = float(target.pose.to_local((from_pose or attacker.pose).xy)[0, 0]) < 0.0
    surprise = surprise or ambush.surprises(attacker, target)  # a failed test against its ambush (EC-TRAIT-AMBUSH)
    pillion, until = target.trait("pillion")
    surprise = surprise and not (pillion and target.stress < int(until))
    surprise = surprise and target.overwatch_push is None  # on overwatch it cannot be surprised (EC-GUN-STOPPED)
    back = not surprise and defence == ATTACK_BACK and target.weapon in ruleset.data("weapons") and not target.stopped
    defender_tn = 0
    if back:
        back_spec = ruleset.data(f"weapons.{target.weapon}")
        defender_tn = (target_tn(int(back_spec["tn"]), target, attacker, ruleset, ranged=False)
                       - int(back_spec["pierce"]))
    return MeleeSetup(tn, surprise, int(ruleset.data("melee.surprise_stress")) if surprise else 0, back, defender_tn,
                      trait_tests.dodge_stat(target, trait_tests.DODGE, ruleset))


def melee_outcome(setup: MeleeSetup, attacker_roll: TestRoll, defender_roll: TestRoll, weapon: str,
                  ruleset: Ruleset) -> tuple[TestRoll, bool, bool, bool]:
    """(the defender's final roll, attacker hits, defender hits back, headshot) of a melee attack's
    rolls: a dodge adds the stat and must be beaten (EC-MEL-DEF, EC-DICE-2); attacking back, each
    side hits on its own TN; a headshot on the weapon's total or a natural 21 (EC-HEADSHOT)."""
    spec = melee_spec(weapon, ruleset)
    if setup.back:
        hits, hits_back = attacker_roll.succeeded, defender_roll.succeeded
    else:
        if not setup.surprise:
            defender_roll = _dodged(defender_roll, setup.dodge, ruleset)
        hits, hits_back = decide("melee", attacker_roll, defender_roll, ruleset).attacker_wins, False
    crit = attacker_roll.outcome is Outcome.CRIT
    kill = hits and bool((spec["headshot_total"] and attacker_roll.total >= spec["headshot_total"])
                         or (crit and spec["headshot_on_crit"]))
    return defender_roll, hits, hits_back, kill


def resolve_melee(state: State, attacker_id: str, target_id: str, weapon: str, defence: str, push: str,
                  defender_push: str, rng: np.random.Generator, ruleset: Ruleset, from_pose: Pose | None = None,
                  kick: KickPlan | None = None, kicked_to: KickedTo | None = None) -> tuple[State, list[Event]]:
    """A melee attack (EC-MEL-1, EC-MEL-2, EC-MEL-DEF, EC-WPN, EC-PIERCE, EC-HEADSHOT, EC-WOUND), or a
    kick (EC-MEL-KICK: ``kick`` as declared, ``kicked_to`` where the table lets the bike go)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    spec = melee_spec(weapon, ruleset)
    setup = melee_setup(state, attacker_id, target_id, weapon, defence, ruleset, from_pose, kick)
    tn, back, surprise = setup.tn, setup.back, setup.surprise
    events: list[Event] = []
    if surprise:
        target = target.but(stress=target.stress + setup.surprise_stress)
        state = state.with_model(target)
        ambushed = ambush.surprises(attacker, target)  # EC-TRAIT-AMBUSH: surprised by the ambush, not from behind
        events.append(Event("attack", target.id, f"surprised {'by the ambush' if ambushed else 'from behind'}: "
                            f"+{setup.surprise_stress} stress, dodge only (EC-MEL-2)",
                            clauses=("EC-MEL-2", "EC-TRAIT-AMBUSH") if ambushed else ("EC-MEL-2",),
                            stress_change=setup.surprise_stress, piece=attacker.id))
    duel = trait_tests.duel("melee", attacker, target, trait_tests.MELEE,
                            trait_tests.ATTACK_BACK if back else trait_tests.DODGE, tn, rng, ruleset,
                            policy_named(push, ruleset), policy_named(defender_push, ruleset),
                            defender_tn=setup.defender_tn)
    defender_roll, attacker_hits, target_hits, kill = melee_outcome(setup, duel.attacker, duel.defender, weapon,
                                                                    ruleset)
    hits = attacker_hits
    clauses = ("EC-MEL-1", "EC-MEL-KICK" if weapon == KICK else "EC-WPN", "EC-MEL-DEF", "EC-DICE-2") + (
        ("EC-PIERCE",) if spec["pierce"] else ()) + target_clauses(target, ruleset, ranged=False,
                                                                   at_the_bike=weapon == KICK)
    how = "attacks back" if back else "dodges"
    if back:
        state = state.with_model(state.model(target.id).but(no_attack_next_activation=True))
    events.append(Event("attack", attacker.id,
                        f"{attacker.id} attacks {target.id} with a {weapon}: TN {tn}, {roll_text(duel.attacker)}; "
                        f"{target.id} {how}: {roll_text(defender_roll)} -> "
                        + ("hit" if hits else "missed"), clauses=clauses, rolls=(duel.attacker, defender_roll),
                        piece=target.id, figures={"weapon": weapon, "tn": tn, "hit": hits, "defence": how}))
    state = state.with_model(_tested(state.model(attacker.id).but(only_moved=False), duel.attacker))
    if attacker_hits and weapon == KICK:
        state, kicked = _kicked(state, attacker, target, kick or KickPlan(), kicked_to)
        events.append(kicked)
    elif attacker_hits:
        crit = duel.attacker.outcome is Outcome.CRIT
        stress = attack_stress(int(spec["stress"]), advantage_bike(attacker), attacker.speed, ruleset)
        state, more = _hit(state, attacker, target.id, stress=stress,
                           wounds=int(spec["wounds"]), kill=kill, bleed=bool(spec["bleed"]),
                           stun=bool(spec["stun_on_crit"]) and crit, ruleset=ruleset, label=f"the {weapon}")
        events += more
    if target_hits:
        back_spec = ruleset.data(f"weapons.{target.weapon}")
        state, more = _hit(state, target, attacker.id, stress=int(back_spec["stress"]), wounds=int(back_spec["wounds"]),
                           kill=False, bleed=bool(back_spec["bleed"]), stun=False, ruleset=ruleset,
                           label=f"{target.id}'s {target.weapon}")
        events += more
    state, busts = _busts(state, duel, attacker, target, push, defender_push, rng, ruleset)
    return state, events + busts


def _pose_list(pose: Pose) -> list[float]:
    """[x, y, z, facing] rounded as a replay keeps a pose (inches, degrees)."""
    return [round(v, 4) + 0.0 for v in (pose.x, pose.y, pose.z, pose.facing_deg)]


def _kicked(state: State, attacker: ModelState, target: ModelState, kick: KickPlan, kicked_to: KickedTo | None
            ) -> tuple[State, Event]:
    """A landed kick moves the bike to where the table let it go (EC-MEL-KICK); no stress, no wound."""
    if kicked_to is None:
        raise ValueError("a kick was not checked: call check() first (it finds where the bike may go)")
    moved = state.model(kicked_to.model_id)
    whose = "its own bike" if kick.own else f"{target.id}'s bike"
    said = [f"{attacker.id} kicks {whose} {kicked_to.pushed_in:.1f}\" away"]
    if kicked_to.stopped_by is not None:
        said.append(f"(of {kick.push_in:g}\": stopped by {kicked_to.stopped_by})")
    if kicked_to.pivoted_deg:
        said.append(f"and turns it {kicked_to.pivoted_deg:+.0f} degrees")
    elif kicked_to.pivot_blocked is not None:
        said.append(f"(no room to turn it: {kicked_to.pivot_blocked})")
    event = Event("kick", moved.id, " ".join(said) + " (EC-MEL-KICK)", clauses=("EC-MEL-KICK",), piece=attacker.id,
                  figures={"pushed_in": kicked_to.pushed_in, "asked_in": kick.push_in,
                           "pivoted_deg": kicked_to.pivoted_deg, "own": kick.own, "stopped_by": kicked_to.stopped_by,
                           "from_pose": _pose_list(moved.pose), "to_pose": _pose_list(kicked_to.pose)})
    return state.with_model(moved.but(pose=kicked_to.pose)), event


def shot_tn(state: State, attacker_id: str, target_id: str, gun: str, shot: int, ruleset: Ruleset) -> int:
    """The TN of a shooter's ``shot``-th shot (0: the first) at ``target_id``: the TN of its speed
    (EC-GUN-1); stopped (EC-GUN-STOPPED): on overwatch a stopped shooter's TN (speed 0, DECISION in
    :mod:`entropy3d.systems.entropy_city.stopped_guns`), after a reload that TN plus the target's speed ("the speed
    of the target is to be added"), else a focussed shot's TN 16 with no speed modification; with
    the target's modifiers, +1 per extra shot (EC-GUN-SPLIT)."""
    attacker, target = state.model(attacker_id), state.model(target_id)
    if attacker.overwatch_push is not None:
        base = gun_tn(0, ruleset)
    elif attacker.reloading:
        base = gun_tn(0, ruleset) + target.speed
    elif attacker.stopped:
        base = int(ruleset.data("shooting.focussed_shot_tn"))
    else:
        base = gun_tn(attacker.speed, ruleset)
    return target_tn(base, attacker, target, ruleset, ranged=True) + shot * int(ruleset.data("shooting.split_shot_tn"))


def shot_outcome(attacker_roll: TestRoll, defender_roll: TestRoll, dodge: int, gun: str, ruleset: Ruleset
                 ) -> tuple[TestRoll, bool, bool]:
    """(the dodge's final roll, hit, headshot) of a shot's rolls: the target dodges with its stat
    (EC-GUN-2, EC-DICE-2); a headshot beats the dodge by the gun's margin or reaches its total."""
    spec = ruleset.data(f"guns.{gun}")
    dodged = _dodged(defender_roll, dodge, ruleset)
    hit = decide("gun", attacker_roll, dodged, ruleset).attacker_wins
    over = spec["headshot_over_dodge"]
    kill = hit and bool((over is not None and attacker_roll.total - dodged.total >= over)
                        or (spec["headshot_total"] and attacker_roll.total >= spec["headshot_total"]))
    return dodged, hit, kill


def resolve_shot(state: State, attacker_id: str, target_id: str, gun: str, shots: int, push: str,
                 defender_push: str, rng: np.random.Generator, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Shots with a gun (EC-GUN-1, EC-GUN-2, EC-GUN-SPLIT): each shot an opposed gun/dodge test at
    the shooter's speed's TN, +1 per extra shot; a hit deals the gun's wounds, a headshot kills."""
    spec = ruleset.data(f"guns.{gun}")
    events: list[Event] = []
    for shot in range(shots):
        attacker, target = state.model(attacker_id), state.model(target_id)
        if not (attacker.in_play and target.in_play) or attacker.ammo <= 0:
            break
        tn = shot_tn(state, attacker_id, target_id, gun, shot, ruleset)
        duel = trait_tests.duel("gun", attacker, target, trait_tests.SHOT, trait_tests.DODGE, tn, rng, ruleset,
                                policy_named(push, ruleset), policy_named(defender_push, ruleset))
        dodge, hit, kill = shot_outcome(duel.attacker, duel.defender,
                                        trait_tests.dodge_stat(target, trait_tests.DODGE, ruleset), gun, ruleset)
        # a stopped rider that shoots takes a focussed shot instead of recovering (EC-GUN-STOPPED)
        state = state.with_model(_tested(attacker.but(ammo=attacker.ammo - 1, only_moved=False, recovering=False),
                                         duel.attacker))
        # the shot was in sight as check found it: true LOS from the front half of the base
        # (EC-LOS-2) to the bike itself (EC-LOS-4), enough of it visible (EC-COVER-1)
        clauses = ("EC-GUN-1", "EC-GUN-2", "EC-COVER-1", "EC-LOS-2", "EC-LOS-4", "EC-DICE-2") + (
            ("EC-GUN-SPLIT",) if shot else ()) \
            + target_clauses(target, ruleset, ranged=True)
        events.append(Event("attack", attacker.id,
                            f"{attacker.id} shoots {target.id} with a {gun}" + (f" (shot {shot + 1})" if shot else "")
                            + f": TN {tn}, {roll_text(duel.attacker)}; {target.id} dodges: {roll_text(dodge)} -> "
                            + ("hit" if hit else "missed"), clauses=clauses, rolls=(duel.attacker, dodge),
                            piece=target.id,
                            figures={"weapon": gun, "tn": tn, "hit": hit, "ammo_left": attacker.ammo - 1}))
        if hit:
            state, more = _hit(state, state.model(attacker_id), target_id, stress=0, wounds=int(spec["wounds"]),
                               kill=kill, bleed=False, stun=False, ruleset=ruleset, label=f"the {gun}")
            events += more
        state, busts = _busts(state, duel, attacker, target, push, defender_push, rng, ruleset)
        events += busts
        if duel.attacker.outcome is Outcome.BUST:
            break  # DECISION: the shooter crashed (EC-DICE-4); its split shot's next shot is not fired
    return state, events
