"""Stopped with a gun (EC-GUN-STOPPED): overwatch and reload, worked by hand from the rulebook.

"Overwatch (Stopped with gun only): This is a complex action, you must travel your minimum
distance before coming to a complete stop. You take up position and shoot at the first enemy that
comes within range, during overwatch you are considered to have view from all angles and cannot be
surprised. After complex action is complete you may choose to remain on overwatch at the price of
one additional activation this may only be done once."

"Reload (Stopped with gun only): Your rider reloads their weapon, they may choose to make a non
focused shot during their skipped activation, the speed of the target is to be added to the TN."

Numbers: a pistol reaches 50 m / 1.42 m per inch = 35.2" (EC-GUN-2); a stopped shooter's gun TN
is 16 (option gun_tn, "Stopped: TN16"); the rulebook's speed 1 band is 4-8".
"""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attacks import melee_setup, shot_tn
from entropy3d.systems.entropy_city.state import AirTime, State
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from entropy3d.table_answers import with_table_answers
from tests.systems.entropy_city.test_attacks import rider, side_by_side
from tests.systems.entropy_city.test_transition import begin, ridden, take

RANGE_IN = 50 / 1.42


class SeeingTable:
    """A flat table whose sight answers ``visible(target_pose)`` and remembers what it was asked."""

    def __init__(self, visible=lambda pose: 1.0):
        self.visible = visible
        self.asked: list[tuple[Pose, Pose]] = []

    def sight(self, state, viewer, target, viewer_pose):
        pose = state.model(target).pose
        self.asked.append((viewer_pose, pose))
        seen = self.visible(pose)
        return Sight(seen, seen > 0, float(np.hypot(pose.x - viewer_pose.x, pose.y - viewer_pose.y)))

    def solid_under_base(self, outline, level):
        return None

    def rest_level(self, xy, z):
        return 0.0

    def edge_crossed(self, path):
        return None

    def off_table(self, points, margin=0.0):
        """A 60" x 60" table: where a wreck may lie (EC-WOUND)."""
        points = np.asarray(points, float)
        return ~np.all((points >= margin) & (points <= 60.0 - margin), axis=1)


def watching(push="never", **changes) -> State:
    """k1 on overwatch with a pistol at (10, 10) facing away from h1 (270), h1 at (50, 10) riding
    west at speed 2."""
    fields = dict(gun="pistol", ammo=10, speed=0, stopped=True, skip_next_activation=True, overwatch_push=push)
    watcher = rider("k1", "komodo", Pose(10, 10, 270), **{**fields, **changes})
    mover = rider("h1", "hades", Pose(50, 10, 180), speed=2)
    return State(2, "turf_war", {"k1": watcher, "h1": mover}, {}, {"komodo": 0, "hades": 0})


def ride(state, plan, rules, dice, table, push="never"):
    """h1's activation starts and it rides ``plan``; resolved with what ``table`` shows of the
    ride given with its facts (:func:`entropy3d.table_answers.with_table_answers`, as the one path gives them)."""
    state = begin(state, "h1", rules)
    checked = check(state, Action.ride("h1", plan, push), rules)
    answered = with_table_answers(table, state, checked, ridden(checked), rules)
    return resolve(state, checked, answered, dice, rules)


def test_EC_GUN_STOPPED_overwatch_is_a_stop_with_a_gun(rules):
    """Minimum distance at speed 1 or 2, then stopped, skipping its next activation without
    recovering; only with a gun that has a shot left."""
    state = State(2, "turf_war", {"k1": rider("k1", "komodo", Pose(10, 10, 0), gun="pistol", ammo=3, speed=1),
                                  "h1": rider("h1", "hades", Pose(40, 40, 0))}, {}, {})
    state = begin(state, "k1", rules)
    with pytest.raises(IllegalPlanError, match="EC-ACT-STOP"):
        check(state, Action.ride("k1", "overwatch s1: straight 6"), rules)  # not the minimum, 4"
    unarmed = state.with_model(state.model("k1").but(gun=None, ammo=0))
    with pytest.raises(IllegalPlanError, match="EC-GUN-STOPPED"):
        check(unarmed, Action.ride("k1", "overwatch s1: straight 4"), rules)
    empty = state.with_model(state.model("k1").but(ammo=0))
    with pytest.raises(IllegalPlanError, match="EC-GUN-STOPPED"):
        check(empty, Action.ride("k1", "overwatch s1: straight 4"), rules)
    after, events = take(state, Action.ride("k1", "overwatch s1: straight 4", "risk-aware"), rules)
    k1 = after.model("k1")
    assert (k1.speed, k1.stopped, k1.skip_next_activation, k1.recovering) == (0, True, True, False)
    assert k1.overwatch_push == "risk-aware" and k1.pose.x == pytest.approx(14.0)
    assert any("EC-GUN-STOPPED" in e.clauses for e in events)


def test_EC_GUN_STOPPED_overwatch_shoots_where_the_enemy_first_rides_into_range(rules, dice):
    """h1 rides 12" west from x = 50; the pistol reaches 35.2", so from x = 45.2 on: the first
    point looked at (every 0.5") is 5.0" into the ride. TN 16 (stopped shooter) + 1 (h1 is only
    moving this activation, EC-MOVE-3) = 17; 9 + 8 = 17
    against a dodge of 7 + 8 + 1 = 16: a hit by 1 (no headshot, which needs 3 over), 1 wound. The
    ride stands: h1 ends at x = 38; the watch is spent; the watcher looked at h1 all round."""
    table = SeeingTable()
    after, events = ride(watching(), "s2: straight 12", rules, dice([9, 8, 7, 8]), table)
    seen = next(e for e in events if e.figures.get("overwatch"))
    assert seen.figures["at_in"] == pytest.approx(5.0)
    shot = next(e for e in events if "tn" in e.figures)
    assert shot.figures["tn"] == 17 and shot.figures["hit"]
    h1, k1 = after.model("h1"), after.model("k1")
    assert h1.wounds == 2 and h1.pose.x == pytest.approx(38.0)
    assert k1.overwatch_push is None and k1.ammo == 9
    looked_from = table.asked[0][0]
    assert looked_from.facing_deg == pytest.approx(0.0)  # it faces 270 but sees all round
    assert all(p.x <= 10 + RANGE_IN for _, p in table.asked)  # asked only in range


def test_EC_GUN_STOPPED_overwatch_waits_for_sight_and_misses_friends_and_the_blind(rules, dice):
    """Behind cover until x = 42 (the table says 0% visible before): the shot comes 8.0" in. A
    friend riding by, a ride out of range, or no table to see with: no shot."""
    table = SeeingTable(lambda pose: 1.0 if pose.x <= 42.0 + 1e-9 else 0.0)
    after, events = ride(watching(), "s2: straight 12", rules, dice([9, 8, 7, 8]), table)
    assert next(e for e in events if e.figures.get("overwatch")).figures["at_in"] == pytest.approx(8.0)
    friend = watching()
    friend = friend.with_model(friend.model("h1").but(gang="komodo"))
    _, events = ride(friend, "s2: straight 12", rules, dice([]), SeeingTable())
    assert not any(e.figures.get("overwatch") for e in events)
    far = watching()
    far = far.with_model(far.model("h1").but(pose=Pose(60, 10, 0)))
    _, events = ride(far, "s2: straight 12", rules, dice([]), SeeingTable())
    assert not any(e.figures.get("overwatch") for e in events)
    _, events = ride(watching(), "s2: straight 12", rules, dice([]), None)
    assert not any(e.figures.get("overwatch") for e in events)


def test_EC_GUN_STOPPED_an_overwatch_headshot_leaves_the_rider_where_it_was_shot(rules, dice):
    """9 + 8 = 17 against 2 + 3 + 1 = 6 beats the dodge by 3 or more: a pistol headshot
    (EC-HEADSHOT); h1 is out at x = 45, 5" into its ride."""
    after, _ = ride(watching(), "s2: straight 12", rules, dice([9, 8, 2, 3]), SeeingTable())
    h1 = after.model("h1")
    assert h1.status == "out" and h1.pose.x == pytest.approx(45.0)
    assert after.score["komodo"] > 0


def test_EC_GUN_STOPPED_remain_on_overwatch_once_for_one_more_activation(rules):
    """Its next free activation may be spent remaining on overwatch, once: the activation after
    that ends the watch, and a move ends it at once."""
    state = watching(skip_next_activation=False)
    state = begin(state, "k1", rules)
    assert state.model("k1").overwatch_push == "never"  # still watching until it acts
    kept, events = resolve(state, check(state, Action.watch("k1"), rules), None, np.random.default_rng(0), rules)
    k1 = kept.model("k1")
    assert k1.overwatch_renewed and k1.stopped and k1.actions_taken == 2
    assert "EC-GUN-STOPPED" in events[0].clauses
    again = begin(kept, "k1", rules)
    assert again.model("k1").overwatch_push is None
    with pytest.raises(IllegalPlanError, match="EC-GUN-STOPPED"):
        check(again, Action.watch("k1"), rules)
    moved, _ = take(state, Action.ride("k1", "s1: straight 6"), rules)
    assert moved.model("k1").overwatch_push is None


def test_EC_GUN_STOPPED_a_rider_on_overwatch_cannot_be_surprised(rules):
    """From behind (EC-MEL-2) a rider is surprised, unless it is on overwatch."""
    state = State(2, "turf_war", {"k1": rider("k1", "komodo", Pose(7.0, 10.0, 0), weapon="chain"),
                                  "h1": rider("h1", "hades", Pose(10, 10, 0))}, {}, {})
    assert melee_setup(state, "k1", "h1", "chain", "dodge", rules).surprise
    watched = state.with_model(state.model("h1").but(overwatch_push="never", stopped=True, gun="pistol", ammo=1))
    assert not melee_setup(watched, "k1", "h1", "chain", "dodge", rules).surprise


def test_EC_GUN_STOPPED_reload_fills_the_gun_and_its_skipped_shot_adds_the_targets_speed(rules):
    """A reload is a stop (minimum distance) that fills the smg to its 30 shots; the shot in the
    skipped activation needs the stopped TN 16 plus the target's speed: 16 + 3 = 19 at a speed 3
    target, where a focussed shot needs 16. Its next free activation ends it. The pistol has "No
    reload" (EC-GUN-2): its reload is refused (it once refilled it)."""
    state = side_by_side(10.0, gun="smg", ammo=0, speed=1)
    state = begin(state.with_model(state.model("h1").but(speed=3)), "k1", rules)
    after, events = take(state, Action.ride("k1", "reload s1: straight 4"), rules)
    k1 = after.model("k1")
    assert (k1.ammo, k1.reloading, k1.stopped, k1.recovering, k1.skip_next_activation) == (30, True, True, False,
                                                                                           True)
    assert shot_tn(after, "k1", "h1", "smg", 0, rules) == 19
    focussed = after.with_model(k1.but(reloading=False))
    assert shot_tn(focussed, "k1", "h1", "smg", 0, rules) == 16
    pistol = state.with_model(state.model("k1").but(gun="pistol", ammo=3))
    with pytest.raises(IllegalPlanError, match="a pistol has no reload") as refused:
        check(pistol, Action.ride("k1", "reload s1: straight 4"), rules)
    assert refused.value.clause == "EC-GUN-2"
    skipped = begin(after, "k1", rules)
    assert skipped.model("k1").reloading and skipped.model("k1").actions_taken == 2
    free = begin(skipped, "k1", rules)
    assert not free.model("k1").reloading and not free.model("k1").stopped
    unarmed = state.with_model(state.model("k1").but(gun=None))
    with pytest.raises(IllegalPlanError, match="EC-GUN-STOPPED"):
        check(unarmed, Action.ride("k1", "reload s1: straight 4"), rules)


def test_EC_GUN_STOPPED_an_overwatch_shot_at_a_rider_still_in_the_air_is_harder(rules, dice):
    """h1 starts its ride 30" from the watcher, 6" of its jump still to fly (EC-JUMP-2): it is in
    range and sight at once, in the air, so the shot needs 16 + 1 (only moving) + 1 (a ranged
    attack on an airborne target, EC-JUMP-3) = 18; 9 + 9 = 18 hits 7 + 8 + 1 = 16."""
    state = watching()
    state = state.with_model(state.model("h1").but(pose=Pose(40, 10, 180), air=AirTime(2, 6.0)))
    after, events = ride(state, "s2: straight 12", rules, dice([9, 9, 7, 8]), SeeingTable())
    assert next(e for e in events if e.figures.get("overwatch")).figures["at_in"] == 0.0
    shot = next(e for e in events if "tn" in e.figures)
    assert shot.figures["tn"] == 18 and shot.figures["hit"]
    assert after.model("h1").air is None and after.model("h1").wounds == 2


def test_EC_ACT_ATTACK_EC_GUN_STOPPED_the_chance_to_attack_after_a_move(rules):
    """Clause: EC-ACT-ATTACK, EC-GUN-STOPPED. One attack an activation, along a move that allows
    one; none after a bust or a crash in the action, none by a rider out of play; a rider that
    stops with a loaded gun has a focussed shot instead, and one with an empty gun or none has no
    attack at all (it stopped, so it attacks along no move)."""
    from entropy3d.core.event import Event
    from entropy3d.systems.entropy_city.attack_chances import ALONG_THE_MOVE, FOCUSSED, attack_chance
    from entropy3d.systems.entropy_city.planner import plan_move

    riding = rider("k1", "komodo", Pose(10, 10, 0), gun="pistol", ammo=2)
    ride = plan_move("s2: straight 10", riding.pose, riding.bike_type, 2, rules)
    assert ride.attacks_allowed == 1
    assert attack_chance(riding, ride, [], attacked=False) == ALONG_THE_MOVE
    assert attack_chance(riding, ride, [], attacked=True) is None
    # a watcher busting on its shot at the rider is the watcher's bust: the rider keeps its attack
    assert attack_chance(riding, ride, [Event("bust", "h9", "bust (EC-DICE-4)")], attacked=False) == ALONG_THE_MOVE
    for kind in ("bust", "crash"):
        assert attack_chance(riding, ride, [Event("test", "k1", ""), Event(kind, "k1", "")], attacked=False) is None
    assert attack_chance(riding.but(status="out"), ride, [], attacked=False) is None
    stop = plan_move("stop s2: straight 8", riding.pose, riding.bike_type, 2, rules)
    stopped = riding.but(stopped=True, speed=0)
    assert attack_chance(stopped, stop, [], attacked=False) == FOCUSSED
    assert attack_chance(stopped.but(ammo=0), stop, [], attacked=False) is None
    assert attack_chance(stopped.but(gun=None, ammo=0), stop, [], attacked=False) is None
    assert attack_chance(stopped, stop, [], attacked=True) is None


def test_EC_GUN_STOPPED_who_may_shoot_while_reloading_or_remain_on_overwatch(rules):
    """Clause: EC-GUN-STOPPED, EC-STOPPED. The shot after a reload belongs to the activation the
    rider skips (its start says EC-STOPPED) and needs a shot in the gun; remaining on overwatch
    is offered once, at the start of an activation."""
    from entropy3d.core.event import Event
    from entropy3d.systems.entropy_city.stopped_guns import may_remain, may_shoot_while_reloading

    skipped = [Event("skip", "k1", "is stopped", clauses=("EC-STOPPED",))]
    reloaded = rider("k1", "komodo", Pose(10, 10, 0), gun="pistol", ammo=2, reloading=True, stopped=True, speed=0)
    assert may_shoot_while_reloading(reloaded, skipped)
    assert not may_shoot_while_reloading(reloaded, [])  # an activation it plays: it rides instead
    assert not may_shoot_while_reloading(reloaded.but(ammo=0), skipped)
    assert not may_shoot_while_reloading(reloaded.but(reloading=False), skipped)
    watching = rider("k1", "komodo", Pose(10, 10, 0), gun="pistol", ammo=2, overwatch_push="sit-at-tn")
    assert may_remain(watching)
    assert not may_remain(watching.but(overwatch_renewed=True))
    assert not may_remain(watching.but(actions_taken=1))
    assert not may_remain(watching.but(overwatch_push=None))
