"""What Rescue & Survive asks of the rider holding a contact (EC-MISSION-RESCUE, issue 45), beside
:mod:`entropy3d.game.npc_goals` and :mod:`entropy3d.game.holder_goals`.

"NPC on foot needs to be collected from one corner and delivered to the other." A sweep of 50
games saw a contact delivered in 14 (28%). Of the 40 contacts of seeds 0-19 (geometric, 6
turns), 12 were lost by holders busting out in a riding test (a tight turn at speed 1, TN 14, at
5-13 stress; at 10, TN 21), 11 were still held at the end (holders that picked theirs up facing
the park's far side and circled it), 2 were carried off the east edge, 2 lost in crashes and 2
to rivals. So a Rescue & Survive holder:

- measures its way to the destination from :data:`LEAD_IN` ahead of it (:class:`RescueRun`): a
  U-turn towards a destination behind it gains at once;
- keeps out of the sight of the rival guns that could shoot it where it ends
  (:func:`gun_exposure`, :data:`GUN_EXPOSED` a gun) and off destructibles
  (:data:`HOLDER_SCENERY`): :func:`rescue_risk`;
- weighs turns along the templates that need no test at its speed (:func:`holder_plans`: a
  medium or wide template at speed 1, a wide one at speed 2, EC-TMPL-2), and what a test risks of
  the contact (:func:`contact_at_stake`);
- takes no ride off the table that does not deliver (:func:`drops_off_table`): the look-ahead
  finds such a ride clear, and the contact is lost with it.

Nothing here decides a rule (:mod:`entropy3d.systems.entropy_city.npc_actions` does); the weights are the
automatic players' taste, not rules data. Lengths in inches.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np

from entropy3d.game.holder_goals import holds
from entropy3d.game.npc_goals import NpcRun
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.combat import gun_range_in, shot_in_sight
from entropy3d.systems.entropy_city.dice import remount_tn
from entropy3d.systems.entropy_city.npc import RESCUE
from entropy3d.systems.entropy_city.odds import exact_odds
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import distance_band
from entropy3d.systems.entropy_city.state import Item, ModelState, State

#: inches ahead of a holder's pose its way to the destination is measured from
#: (:meth:`RescueRun.lead_progress`): about a speed 1 tight turn's reach, so a U-turn towards a
#: destination behind it counts as gained
LEAD_IN = 4.0
#: points off a holder's move for each rival gun that would see it where it ends (within the
#: gun's range, and :data:`SHOOTER_RIDE_IN` more for a rider)
GUN_EXPOSED = 12.0
#: inches a rider with a gun may ride nearer before it shoots (a speed 2 ride)
SHOOTER_RIDE_IN = 8.0
#: points off a holder's move that rides into a destructible: a test of its risk, or at speed 1 a
#: solid (EC-DEST-2); a bust drops the contact
HOLDER_SCENERY = 20.0
#: what losing the contact costs a holder, in points: as much as delivering it is worth
#: (:data:`~entropy3d.game.mission_goals.PACKAGE_DELIVERED`)
CONTACT_WORTH = 120.0
#: how much of the chance that a template test (EC-TMPL-2) at the stress a holder's move ends with
#: takes it out counts against the move: the holder may ride its next moves without one, and
#: most of the way home needs one (a holder ending a test-free U-turn at 11 stress busts at TN 21)
NEXT_TEST_SHARE = 0.5
#: the grid (inches) a holder's end point is rounded to for the sight of a rival's gun: a player
#: weighs some 80 moves an action, and ends a few tenths apart see alike
SIGHT_CELL_IN = 0.5


@dataclasses.dataclass(frozen=True)
class RescueRun(NpcRun):
    """A Rescue & Survive holder's run (:class:`~entropy3d.game.npc_goals.NpcRun`), its way
    measured from :data:`LEAD_IN` ahead of the bike."""

    def lead_progress(self, start: Pose, end: Pose, routes) -> float:
        """Inches a ride from ``start`` to ``end`` takes the holder nearer its destination,
        measured from a point :data:`LEAD_IN` ahead of each pose (along open ground when
        ``routes`` is given): the way still to ride counts where the bike faces, so a U-turn
        towards a destination behind the holder gains twice :data:`LEAD_IN` at once."""
        return self.lead_gap(start, routes) - self.lead_gap(end, routes)

    def lead_gap(self, pose: Pose, routes) -> float:
        """Inches to the destination from the point :data:`LEAD_IN` ahead of ``pose``."""
        return self.gap(np.asarray(pose.xy, float) + LEAD_IN * pose.forward, routes)


def npc_run(state: State, bike: ModelState, held: Item, probe, ruleset: Ruleset) -> NpcRun:
    """Where ``bike`` holding the NPC ``held`` rides: a :class:`RescueRun` in Rescue & Survive,
    else the mission's :class:`~entropy3d.game.npc_goals.NpcRun`."""
    run = NpcRun.of(state, bike, held, probe, ruleset)
    return RescueRun(run.spots, run.road_exits, run.to, run.reach) if state.mission == RESCUE else run


def rescue_holds(state: State, bike: ModelState) -> bool:
    """Whether ``bike`` holds a contact in Rescue & Survive (:func:`~entropy3d.game.holder_goals.holds`)."""
    return state.mission == RESCUE and holds(state, bike)


def gun_exposure(state: State, bike: ModelState, end: Pose, probe, ruleset: Ruleset, cache: dict) -> float:
    """Points off ``bike`` ending at ``end``: :data:`GUN_EXPOSED` for each rival in play with a
    gun and a shot left, within its gun's range (and :data:`SHOOTER_RIDE_IN` for one riding),
    that sees it there well enough to shoot from where the rival is now (the table's line of
    sight, :func:`~entropy3d.systems.entropy_city.combat.shot_in_sight`, EC-COVER-1). 0 on a table without
    line of sight. ``cache``: sights found this action, by rounded end and rival."""
    if not hasattr(probe, "sight"):
        return 0.0
    there = None
    points = 0.0
    for rival in state.models.values():
        if not rival.in_play or rival.gang == bike.gang or rival.gun is None or rival.ammo <= 0:
            continue
        reach = gun_range_in(rival.gun, ruleset) + (0.0 if rival.on_foot else SHOOTER_RIDE_IN)
        if math.hypot(rival.pose.x - end.x, rival.pose.y - end.y) > reach:
            continue
        key = ("exposed", bike.id, round(end.x / SIGHT_CELL_IN), round(end.y / SIGHT_CELL_IN), rival.id)
        if key not in cache:
            if there is None:
                there = state.with_model(dataclasses.replace(bike, pose=end))
            sight = probe.sight(there, rival.id, bike.id, rival.pose)
            cache[key] = shot_in_sight(sight.visible_fraction, sight.bike_seen, ruleset)
        points += GUN_EXPOSED if cache[key] else 0.0
    return points


def out_odds(tn: int, stress: int, bike: ModelState, ruleset: Ruleset, policy, cache: dict) -> float:
    """The chance that a test at ``tn`` with ``stress`` takes ``bike`` out of the game (EC-DICE-4):
    it busts, and then has no wound left or fails its remount (TN 17 less the wounds left, rolled
    at the same stress, :func:`~entropy3d.systems.entropy_city.dice.remount_tn`), pushing per ``policy``.
    ``cache``: odds found so far, by test."""
    key = ("out", tn, stress, bike.max_stress, bike.wounds)
    if key not in cache:
        bust = float(exact_odds(tn, stress, ruleset, policy, bike.max_stress).bust)
        left = bike.wounds - 1
        remounts = 0.0 if left <= 0 else float(exact_odds(remount_tn(left, ruleset), stress, ruleset, policy,
                                                          bike.max_stress).success)
        cache[key] = bust * (1.0 - remounts)
    return cache[key]


def contact_at_stake(state: State, bike: ModelState, move: PlannedMove, stress_then: int, ruleset: Ruleset,
                     policy, cache: dict) -> float:
    """Points off ``move`` of a Rescue & Survive holder (:func:`rescue_holds`): :data:`CONTACT_WORTH`
    times the chance that one of the move's tests, taken at ``stress_then`` (the stress it ends
    with), takes it out and the contact with it (:func:`out_odds`), or a template test after it
    does (:data:`NEXT_TEST_SHARE` of that chance). A holder whose bust cost only a wound more (three times
    another rider's) took a template test at 10 stress (TN 21 at max stress) for a few inches
    nearer: of 40 contacts in 20 games (seeds 0-19), 12 were lost by holders busting out in tests.
    0 for any other rider."""
    if not rescue_holds(state, bike):
        return 0.0
    next_test = int(ruleset.data("turn_templates.test_tn"))
    kept = 1.0 - NEXT_TEST_SHARE * out_odds(next_test, stress_then, bike, ruleset, policy, cache)
    for test in move.tests:
        kept *= 1.0 - out_odds(test.tn, stress_then, bike, ruleset, policy, cache)
    return CONTACT_WORTH * (1.0 - kept)


def rides_into_scenery(path: np.ndarray, probe) -> bool:
    """Whether the (N, 2) ``path`` (inches) runs over a piece a ride knocks about: a destructible
    (EC-DEST-1) or a mesh with a risk (the park's benches, the cafe's tables and chairs)."""
    return bool(probe.touches(path, "destructible") or probe.touches(path, "mesh") & probe.moving)


def rescue_risk(state: State, bike: ModelState, move: PlannedMove, probe, ruleset: Ruleset, stress_then: int,
                policy, cache: dict) -> float:
    """Points off ``move`` of a Rescue & Survive holder (:func:`rescue_holds`) for what it risks of
    the contact: being taken out in its tests at ``stress_then`` (:func:`contact_at_stake`), its
    end in the sight of rival guns (:func:`gun_exposure`) and a ride into a destructible
    (:func:`rides_into_scenery`, :data:`HOLDER_SCENERY`). 0 for any other rider (the rivals near its end are
    :func:`~entropy3d.game.holder_goals.danger_points`, every holder's). ``cache``: sights and
    odds found this action."""
    if not rescue_holds(state, bike):
        return 0.0
    scenery = HOLDER_SCENERY if rides_into_scenery(move.path, probe) else 0.0
    return (contact_at_stake(state, bike, move, stress_then, ruleset, policy, cache)
            + gun_exposure(state, bike, move.end_pose, probe, ruleset, cache) + scenery)


def holder_plans(state: State, bike: ModelState, speeds: Sequence[int], ruleset: Ruleset) -> list[str]:
    """Plans of a Rescue & Survive holder (:func:`rescue_holds`; none for any other rider) that
    turn along a template needing no test at the speed (EC-TMPL-2's table: ``on_fail: null``, a
    medium or wide template at speed 1, a wide one at speed 2), at each of ``speeds``: the whole
    template or half of it, at the start or the end of the least, middle and most distance, and
    two of them the same way (a chicane, EC-ACT-CHICANE) where they fit. The ordinary candidates
    turn along the speed's own template only (a tight one at speed 1, TN 14): of 40 contacts in 20
    games, 12 were lost by holders busting out in riding tests."""
    if bike.on_foot or not rescue_holds(state, bike):
        return []
    table = ruleset.data("turn_templates.stress")
    plans: list[str] = []
    for speed in speeds:
        band = distance_band(bike.bike_type, speed, ruleset)
        lo, hi = int(math.ceil(band.min - 1e-9)), int(math.floor(band.max + 1e-9))
        totals = sorted({lo, (lo + hi) // 2, hi})
        for template, spec in (table.get(speed) or {}).items():
            if spec.get("on_fail") is not None:
                continue
            arc = int(ruleset.data(f"turn_templates.{template}.arc_length_in"))
            for side in ("left", "right"):
                for along in sorted({arc, max(1, arc // 2)}):
                    for total in totals:
                        rest = total - along
                        if rest == 0:
                            plans.append(f"s{speed}: {side} {template} {along}")
                        elif rest > 0:
                            plans += [f"s{speed}: {side} {template} {along}, straight {rest}",
                                      f"s{speed}: straight {rest}, {side} {template} {along}"]
                if 2 * arc <= hi:
                    plans.append(f"chicane s{speed}: {side} {template} {arc}, {side} {template} {arc}")
    return list(dict.fromkeys(plans))


def drops_off_table(state: State, bike: ModelState, move: PlannedMove, probe, ruleset: Ruleset) -> bool:
    """Whether ``move`` takes a Rescue & Survive holder (:func:`rescue_holds`) off the table
    without coming within reach of its destination on the way: the contact is lost
    (EC-MISSION-RESCUE). The look-ahead finds such a ride clear (it meets nothing), and cornered
    holders took it."""
    if probe is None or not rescue_holds(state, bike) or not probe.off_table(move.path).any():
        return False
    return not NpcRun.of(state, bike, state.item_held_by(bike.id), probe, ruleset).arrives(move, probe)


__all__ = ["CONTACT_WORTH", "GUN_EXPOSED", "HOLDER_SCENERY", "LEAD_IN", "NEXT_TEST_SHARE", "RescueRun",
           "SHOOTER_RIDE_IN", "contact_at_stake", "drops_off_table", "gun_exposure", "holder_plans", "npc_run",
           "out_odds", "rescue_holds", "rescue_risk", "rides_into_scenery"]
