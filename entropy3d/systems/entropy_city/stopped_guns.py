"""Stopped with a gun (EC-GUN-STOPPED): overwatch and reload. (The third stopped action, the
focussed shot, is a TN in :func:`entropy3d.systems.entropy_city.attacks.shot_tn`.)

Overwatch: "you must travel your minimum distance before coming to a complete stop. You take up
position and shoot at the first enemy that comes within range, during overwatch you are
considered to have view from all angles and cannot be surprised. After complex action is
complete you may choose to remain on overwatch at the price of one additional activation this
may only be done once."

- The watch starts with the ``overwatch`` plan (a stop, EC-ACT-STOP) and lasts through the
  skipped activation (EC-STOPPED) until the rider's next activation; there it may remain once
  (the ``watch`` action spends that activation), else its first move ends the watch.
- DECISION: "the first enemy that comes within range" is met in the transition of that enemy's
  ride (:func:`react`): the first point of its ridden trajectory, in time order, that is within
  the gun's range of the watcher and that the watcher sees well enough to shoot (EC-COVER-1, read
  from what the table showed it of each point, given with the ride's facts before resolve,
  :func:`entropy3d.table_answers.watched_ride`; the watcher faces each point, having view from all
  angles). An enemy already in range when its ride starts is shot at its first point in sight.
- DECISION: one shot (no split shot) at the TN of a stopped shooter (option ``gun_tn``, speed 0),
  the shot's usual target modifiers added; the watch is then spent. A hit that takes the rider
  out leaves it where it was shot; otherwise its ride stands as ridden.

Reload: "Your rider reloads their weapon, they may choose to make a non focused shot during their
skipped activation, the speed of the target is to be added to the TN."

- DECISION: the rulebook gives no spare ammunition: a reload fills the gun to its load (rules
  data ``guns.<gun>.ammo``).
- The shot in the skipped activation (:func:`may_shoot_while_reloading`) is offered like any
  attack; its TN is a stopped shooter's (``gun_tn`` at speed 0) plus the target's speed (``shot_tn``).
"""

from __future__ import annotations

import math
from typing import Mapping, Protocol, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts, Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attacks import check_attack, resolve_shot
from entropy3d.systems.entropy_city.choice_traits import check_attack_traits, stealth_covers
from entropy3d.systems.entropy_city.combat import gun_range_in
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import AirTime, ModelState, State

OVERWATCH, RELOAD = "overwatch", "reload"
#: spacing (inches) of the points of a ride at which a watcher looks for a shot
WATCH_EVERY_IN = 0.5


class Sights(Protocol):
    """What the rules ask the table for a shot: how much of ``target`` the ``viewer`` standing at
    ``viewer_pose`` sees, everyone else where ``state`` has them (the LOS engine answers)."""

    def sight(self, state: State, viewer: str, target: str, viewer_pose: Pose) -> Sight:
        ...


def check_stopped_action(model: ModelState, action: str, ruleset: Ruleset) -> None:
    """Overwatch and reload are for a rider with a gun; overwatch needs a shot left, and a gun with
    no reload (the pistol, EC-GUN-2) cannot be reloaded (EC-GUN-STOPPED)."""
    if action not in (OVERWATCH, RELOAD):
        return
    if model.gun is None:
        raise IllegalPlanError("EC-GUN-STOPPED", f"{action} is a stopped action with a gun; {model.id} carries none")
    if action == OVERWATCH and model.ammo <= 0:
        raise IllegalPlanError("EC-GUN-STOPPED", f"{model.id}'s {model.gun} is empty: reload before overwatch")
    if action == RELOAD and not ruleset.data(f"guns.{model.gun}.reloads"):
        raise IllegalPlanError("EC-GUN-2", f"a {model.gun} has no reload: its {model.ammo} shots left are all "
                                           f"{model.id} has")


def stopped(model: ModelState, action: str, push: str, ruleset: Ruleset) -> tuple[ModelState, Event]:
    """The rider after a stop with a gun: on overwatch shooting with ``push``, or reloaded."""
    if action == OVERWATCH:
        return model.but(overwatch_push=push, overwatch_renewed=False), Event(
            "skip", model.id, f"on overwatch with its {model.gun} (EC-GUN-STOPPED): it shoots at the first enemy "
            "that rides into range, sees all round and cannot be surprised; skips its next activation (EC-STOPPED)",
            clauses=("EC-GUN-STOPPED", "EC-STOPPED"))
    load = int(ruleset.data(f"guns.{model.gun}.ammo"))
    return model.but(ammo=load, reloading=True), Event(
        "skip", model.id, f"reloads its {model.gun} ({model.ammo} -> {load} shots, EC-GUN-STOPPED); it may take a "
        "shot in its skipped activation, the target's speed added to the TN (EC-STOPPED)",
        clauses=("EC-GUN-STOPPED", "EC-STOPPED"), figures={"ammo": load})


def check_remain(model: ModelState) -> None:
    """Remaining on overwatch: once, at the start of an activation (EC-GUN-STOPPED)."""
    if model.overwatch_push is None:
        raise IllegalPlanError("EC-GUN-STOPPED", f"{model.id} is not on overwatch")
    if model.overwatch_renewed:
        raise IllegalPlanError("EC-GUN-STOPPED", f"{model.id} has remained on overwatch once already")
    if model.actions_taken:
        raise IllegalPlanError("EC-GUN-STOPPED", "remaining on overwatch costs the whole activation")


def may_remain(model: ModelState) -> bool:
    """Whether the rider may spend this activation remaining on overwatch (:func:`check_remain`
    allows it): the game offers its player the choice only then."""
    try:
        check_remain(model)
    except IllegalPlanError:
        return False
    return True


def may_shoot_while_reloading(model: ModelState, start_events: Sequence[Event]) -> bool:
    """Whether the rider may take a shot now: this is the activation it skips after a reload (its
    start skipped it, EC-STOPPED) and its gun holds a shot (EC-GUN-STOPPED: "they may choose to
    make a non focused shot during their skipped activation")."""
    return model.reloading and model.ammo > 0 and any("EC-STOPPED" in event.clauses for event in start_events)


def remain(state: State, model_id: str, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """The rider spends this activation to remain on overwatch until its next one (EC-GUN-STOPPED)."""
    model = state.model(model_id)
    after = model.but(overwatch_renewed=True, stopped=True, speed=0,
                      actions_taken=int(ruleset.data("turn.actions_per_activation")))
    return state.with_model(after), [Event("skip", model.id, "remains on overwatch for one more activation "
                                           "(EC-GUN-STOPPED)", clauses=("EC-GUN-STOPPED",))]


def airborne_stretches(before: ModelState, events: Sequence[Event]) -> list[tuple[float, float]]:
    """The stretches of a ride (inches along) the rules had the rider in the air: the rest of a
    jump it started in the air (EC-JUMP-2) and each jump the ride's events made (EC-JUMP-4)."""
    stretches = [(0.0, float(before.air.carry_in))] if before.air is not None else []
    return stretches + [(float(e.figures["launch_in"]), float(e.figures["landing_in"])) for e in events
                        if e.kind == "jump" and e.figures.get("air_time") and "landing_in" in e.figures]


def watchers(state: State, mover_id: str) -> list[ModelState]:
    """The mover's enemies on overwatch with a shot left, in scene order."""
    mover = state.model(mover_id)
    return [m for m in state.models.values() if m.in_play and m.gang != mover.gang and m.overwatch_push is not None
            and m.gun is not None and m.ammo > 0]


def facing(viewer: Pose, xy) -> Pose:
    """``viewer`` turned to look at ``xy`` (a watcher has view from all angles)."""
    heading = math.degrees(math.atan2(float(xy[1]) - viewer.y, float(xy[0]) - viewer.x)) % 360.0
    return Pose(viewer.x, viewer.y, heading, viewer.z)


def ride_points(trajectory: np.ndarray, every_in: float = WATCH_EVERY_IN) -> list[tuple[float, float, Pose]]:
    """(inches along the ride, seconds, pose) about ``every_in`` apart along a ridden trajectory
    ((K, 5) rows of t, x, y, z, heading), in time order, its last row included."""
    rows = np.asarray(trajectory, float)
    if len(rows) == 0:
        return []
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(rows[:, 1:3], axis=0).T))])
    picks = np.unique(np.append(np.searchsorted(along, np.arange(0.0, along[-1], every_in)), len(rows) - 1))
    return [(float(along[k]), float(rows[k, 0]), Pose(float(rows[k, 1]), float(rows[k, 2]), float(rows[k, 4]) % 360.0,
                                                      float(rows[k, 3]))) for k in picks]


def first_shot(state: State, watcher: ModelState, mover_id: str, trajectory: np.ndarray,
               sights: Sequence[Sight | None], ruleset: Ruleset, airborne: Sequence[tuple[float, float]] = ()
               ) -> tuple[float, float, Pose, State] | None:
    """Where along the mover's ride the watcher first may shoot it (in range, in sight, the shot
    legal, EC-GUN-2, EC-COVER-1): (inches along, seconds, the mover's pose there, the state with
    the mover there), or None. sights: what the table showed the watcher of the mover at each
    point of :func:`ride_points` (the facts' ``watched``; None beyond its reach). airborne:
    stretches of the ride (inches along) the rules had it in the air, where a shot at it is
    harder (EC-JUMP-3)."""
    reach = gun_range_in(watcher.gun, ruleset)
    mover = state.model(mover_id)
    for (progress, t_s, pose), sight in zip(ride_points(trajectory), sights):
        if math.hypot(pose.x - watcher.pose.x, pose.y - watcher.pose.y) > reach:
            continue
        if sight is None:
            raise ValueError(f"the facts hold no sight of {mover_id} {progress:.1f}\" into its ride for "
                             f"{watcher.id}, which is in range there: give them with "
                             "entropy3d.table_answers.with_table_answers")
        flying = any(a <= progress < b for a, b in airborne)
        there = state.with_model(mover.but(pose=pose, air=AirTime(mover.speed, 0.0) if flying else None))
        looking = facing(watcher.pose, pose.xy)
        try:
            check_attack(there, watcher.id, mover_id, watcher.gun, ruleset, from_pose=looking,
                         see=lambda sight=sight: sight)
            check_attack_traits(there, watcher.id, mover_id, watcher.gun, "dodge", ruleset)  # EC-STEALTH, EC-TRAIT
        except IllegalPlanError:
            continue
        return progress, t_s, pose, there
    return None


def watchers_at_start(state: State, model_id: str, ruleset: Ruleset, seen_by: Mapping[str, Sight] | None) -> State:
    """EC-STEALTH for the shots of enemies on overwatch (EC-GUN-STOPPED) at an activating rider
    whose Stealth covers guns: a watcher that does not see it as its activation begins (looking
    its way: a watcher sees all round) may not shoot it in this activation (its
    ``unseen_at_start``, read by the check of the watcher's shot). ``seen_by``: what the table
    showed each watcher of it (:class:`~entropy3d.core.facts.StartSights`); None (no table
    asked) sees nothing."""
    model = state.model(model_id)
    if stealth_covers(model, "gun", ruleset) is None:
        return state
    for watcher in watchers(state, model_id):
        hidden = seen_by is None or not seen_by[watcher.id].bike_seen
        state = state.with_model(watcher.but(unseen_at_start=(model_id,) if hidden else ()))
    return state


def react(state: State, mover_id: str, facts: Facts, push: str, rng: np.random.Generator, ruleset: Ruleset,
          airborne: Sequence[tuple[float, float]] = ()) -> tuple[State, list[Event]]:
    """Every enemy on overwatch shoots at the ridden mover where it first may (see the module's
    DECISIONs), by what the facts say it saw of the ride (``facts.watched``); ``push`` is the
    mover's policy for its dodge; ``airborne``: the stretches (inches along) the rules had it in
    the air. Facts with no table's answers (``watched`` None): nothing is seen."""
    events: list[Event] = []
    if facts.watched is None:
        return state, events
    for watcher in watchers(state, mover_id):
        mover = state.model(mover_id)
        if not mover.in_play:
            break
        if watcher.id not in facts.watched:
            raise ValueError(f"the facts hold no sight of {mover_id}'s ride for {watcher.id} on overwatch: "
                             "give them with entropy3d.table_answers.with_table_answers")
        found = first_shot(state, watcher, mover_id, facts.trajectory, facts.watched[watcher.id], ruleset, airborne)
        if found is None:
            continue
        progress, t_s, pose, there = found
        events.append(Event("attack", watcher.id, f"{watcher.id} on overwatch: {mover_id} rides into range and sight "
                            f"{progress:.1f}\" into its move (EC-GUN-STOPPED)", clauses=("EC-GUN-STOPPED",),
                            piece=mover_id, t_s=t_s, figures={"overwatch": True, "at_in": round(progress, 3)}))
        shot, more = resolve_shot(there, watcher.id, mover_id, watcher.gun, 1, watcher.overwatch_push, push, rng,
                                  ruleset)
        events += more
        hit = shot.model(mover_id)
        state = shot.with_model(hit.but(pose=mover.pose, air=mover.air) if hit.in_play else hit.but(air=None))
        state = state.with_model(state.model(watcher.id).but(overwatch_push=None, overwatch_renewed=False))
    return state, events
