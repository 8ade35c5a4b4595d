"""Players: who chooses each action's plan and each attack.

A player answers :meth:`Player.choose_plan` with plan text (the rules engine's notation, e.g.
``"s2: straight 6, left medium 5"``) and :meth:`Player.choose_attack` with one of the offered
attacks or None. :class:`AutoPlayer` makes sensible, varied, cinematic choices for demos: it
rides at rivals, takes ramps at speed, smashes through scenery, attacks in reach, avoids walls
and table edges, and sometimes takes a risk; its randomness is an injected, seeded
``numpy.random.Generator``. Every plan it considers is checked by the rules engine
(:func:`~entropy3d.systems.entropy_city.transition.check`); it never decides legality itself. What a mission
asks of a rider (a package to carry or grab, a VIP to hunt) is :mod:`entropy3d.game.mission_goals`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.action_view import ActionView
from entropy3d.game.ambush_goals import ambush_quarry
from entropy3d.game.candidates import candidate_plans, candidate_speeds, check_plans, escape_plans
from entropy3d.game.holder_goals import danger_points, escort_weight, holder_bust_factor, holds
from entropy3d.game.jail_goals import freeing_stops, off_road_points
from entropy3d.game.mission_goals import MissionGoals, RiderGoal, hunt_weight, pass_worth
from entropy3d.game.npc_goals import stop_plans
from entropy3d.game.rescue_goals import drops_off_table, holder_plans, rescue_risk
from entropy3d.game.vip_goals import wasted_takedown
from entropy3d.game.walkers import walk_score
from entropy3d.geometry import BaseShape, Pose
from entropy3d.systems.entropy_city.attack_odds import AttackOdds, melee_odds, shot_odds
from entropy3d.systems.entropy_city.attacks import DODGE
from entropy3d.systems.entropy_city.combat import MeleeCheck, check_melee, gun_range_in
from entropy3d.systems.entropy_city.dice import NPC_PUSH, Policy, policy_named
from entropy3d.systems.entropy_city.events import destructible_eligible
from entropy3d.systems.entropy_city.items import PASS
from entropy3d.systems.entropy_city.kick import KickPlan
from entropy3d.systems.entropy_city.odds import exact_odds
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.riding import full_distance_in
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import distance_band
from entropy3d.systems.entropy_city.state import ModelState
from entropy3d.systems.entropy_city.transition import Action
from entropy3d.systems.entropy_city.wrecks import wreck_base

#: the push policies an automatic player weighs each attack with beside its own: never pushing
#: (never busting on a push) and pushing only while the next die is unlikely to bust (EC-DICE-5)
CAREFUL = ("never", "risk-aware")
#: points for a move that passes a rival within its melee weapon's reach, half its base beside
#: (before the odds): worth more than a gun in range (6), since such a pass is rare among the plans
#: it weighs and melee is what a weapon-carrying rider is for
MELEE_PASS_POINTS = 14.0


@dataclass(frozen=True)
class AttackOption:
    """An attack the rules allow now: ``kind`` (chicken, a melee weapon or a gun) on ``target``;
    ``tn`` the attacker's TN; ``from_pose`` the point of its ridden move it attacks from (None:
    where it stands); ``odds`` its exact odds against a dodging target (None for chicken), the
    target pushing per ``defender_push``; ``push``: how the attacker pushes in it (None: the
    player's own way); ``kick``: for a kick, which bike it pushes how far (EC-MEL-KICK; None: the
    target's, 3"); ``shots``: a gun's shots at the target, split where the gun allows (EC-GUN-SPLIT)."""

    kind: str
    target: str
    tn: int
    from_pose: Pose | None = None
    odds: AttackOdds | None = None
    defender_push: str = "sit-at-tn"
    push: str | None = None
    kick: KickPlan | None = None
    shots: int = 1


class Player(Protocol):
    """Chooses plans and attacks for one gang. ``push`` names how it pushes its luck in tests
    (EC-DICE-5) and ``policy`` is that policy."""

    push: str
    policy: Policy

    def choose_plan(self, view: ActionView) -> str:
        """Plan text for this action."""

    def choose_attack(self, view: ActionView, options: Sequence[AttackOption]) -> AttackOption | None:
        """One of ``options`` or None."""


@dataclass(frozen=True)
class _Look:
    """What :meth:`AutoPlayer._first_clear` found: the plan, whether its ride is clear, how far
    it gets (inches; -1 when no plan was ridden) and the plans the game's producer has not
    ridden, best first (checked action, planned move): the action None for a plan not yet checked
    against the table (:meth:`AutoPlayer._rescue` checks it when it gets that far)."""

    plan: str
    clear: bool
    met_in: float
    unconfirmed: list = field(default_factory=list)


def ride_meets(view: ActionView, action: Action, move: PlannedMove, producer) -> float | None:
    """Where (inches along the path) riding the checked ``action`` (of ``move``) through
    ``producer`` from ``view``'s state meets something the rider cannot ride through (a contact,
    or a destructible it is too slow or too short to go through, EC-DEST-2), or None when the
    ride is clear; at once for a ride losing a contact (:func:`~entropy3d.game.rescue_goals.drops_off_table`)."""
    if drops_off_table(view.state, view.model, move, view.probe, view.ruleset):
        return 0.0
    facts = producer.ride(view.state, action)
    full = abs(move.length_in - full_distance_in(move, view.ruleset)) < 1e-6
    through = destructible_eligible(move.speed, full, view.ruleset)  # else a solid (EC-DEST-2)
    if not facts.contacts and not (facts.scenery and not through):
        return None
    return facts.contacts[0].progress_in if facts.contacts else facts.path_length_in


@dataclass
class AutoPlayer:
    """A demo player. aggression: how much it wants to close on rivals (0-2).
    daring: how much it likes speed, ramps and smashing scenery and how readily it pushes its luck
    (0-2). temperature: random variety added to every plan's score (points)."""

    rng: np.random.Generator
    ruleset: Ruleset
    may_be_cornered = True  # with no legal path left it rides its best plan into the obstacle (EC-COL-1)
    aggression: float = 1.0
    daring: float = 1.0
    temperature: float = 2.0
    lookahead: object | None = None
    """A fact producer (the geometric one) the player rides its best plans through before choosing,
    so that it does not ride into what it could have avoided; None: no look-ahead."""
    looks: int = 24
    """How many of its best plans it rides ahead."""
    confirm: object | None = None
    """The game's own producer (physics), which rides a plan the look-ahead found clear once more
    before it is chosen: the geometric look-ahead misses what the physical hull meets."""
    confirms: int = 6
    """How many plans per action it confirms with ``confirm``."""
    rescues: int = 24
    """When none of the plans it looked at is clear: how many more legal plans, best first, it
    rides through ``confirm`` before it rides one into what it meets."""
    push: str = field(init=False)
    policy: Policy = field(init=False)
    sights: dict = field(init=False, default_factory=dict, repr=False)
    """What a shooter on foot would see from the spots it weighs this action (:func:`walk_score`)."""

    def __post_init__(self):
        # pushing to the TN whatever the risk busts a TN 16 test 1 time in 6: only the most daring do
        self.push = "sit-at-tn" if self.daring >= 1.5 else "risk-aware"
        self.policy = policy_named(self.push, self.ruleset)
        self._busts: dict = {}
        self._melee: dict = {}
        self._reach: dict = {}
        self._goals = MissionGoals(self.ruleset)

    def _goal(self, view: ActionView) -> RiderGoal:
        """What the mission asks of the rider now (:mod:`entropy3d.game.mission_goals`)."""
        return self._goals.of(view.state, view.model, view.probe)

    def choose_plan(self, view: ActionView) -> str:
        self.sights = {}
        moves = check_plans(view, candidate_plans(view))
        if view.state.items and self._goal(view).carrying:  # a Grab n Go holder may turn for home (EC-MISSION-GRAB)
            moves += check_plans(view, escape_plans(view))
        moves += check_plans(view, holder_plans(view.state, view.model, candidate_speeds(view), self.ruleset))
        jail = self._goal(view).jail
        if jail is not None:  # a stop by the jail's door or window (EC-MISSION-JAIL), only where it frees
            stops = check_plans(view, stop_plans(view.model, candidate_speeds(view), self.ruleset))
            moves += freeing_stops(jail, view.model, stops, self.ruleset)
        if not moves:
            raise IllegalPlanError("EC-MOVE-1", f"no legal plan found for {view.model.id}")
        look = self._first_clear(view, moves, self.looks)
        if look.clear or self.lookahead is None:
            return look.plan
        # every plan it looked at meets something: try the escapes (a U-turn, a stoppie's pivot)
        escapes = check_plans(view, escape_plans(view))
        escape = self._first_clear(view, escapes, self.looks // 2) if escapes else None
        if escape is not None and escape.clear:
            return escape.plan
        rescued = self._rescue(view, look.unconfirmed + (escape.unconfirmed if escape is not None else []))
        if rescued is not None:
            return rescued
        if escape is not None and escape.met_in > look.met_in:
            return escape.plan
        return look.plan

    def _first_clear(self, view: ActionView, moves: Sequence[PlannedMove], looks: int) -> _Look:
        """The best-scored of ``moves`` that the look-ahead finds clear (and ``confirm``, within
        ``confirms`` rides, confirms) within ``looks`` rides; else the one that gets furthest (not
        clear), with the legal plans the game's producer has not ridden for :meth:`_rescue`: those
        the look-ahead found clear first, each part best first."""
        scores = np.array([self.score(view, m) for m in moves])
        scores = scores + self.rng.normal(0.0, self.temperature, len(scores))
        fallback, fallback_in = None, -1.0
        hopeful: list[tuple[Action, PlannedMove]] = []  # clear to the look-ahead, not confirmed
        unconfirmed: list[tuple[Action | None, PlannedMove]] = []
        looked = confirmed = 0
        for k in np.argsort(-scores, kind="stable"):
            if looked >= looks and self.lookahead is not None:  # checked when it is rescued, if ever
                unconfirmed.append((None, moves[k]))
                continue
            try:
                action = view.checked(moves[k].plan)
            except IllegalPlanError:
                continue
            if self.lookahead is None:
                return _Look(str(moves[k].plan), True, float(moves[k].length_in))
            looked += 1
            met_in = ride_meets(view, action, moves[k], self.lookahead)
            if met_in is None and self.confirm is not None:
                if confirmed >= self.confirms:
                    hopeful.append((action, moves[k]))
                    continue
                confirmed += 1
                met_in = ride_meets(view, action, moves[k], self.confirm)
            elif met_in is not None:
                unconfirmed.append((action, moves[k]))
            if met_in is None:
                return _Look(str(moves[k].plan), True, float(moves[k].length_in))
            if met_in > fallback_in:
                fallback, fallback_in = str(moves[k].plan), met_in
        if fallback is not None:  # every plan it looked at meets something: the furthest
            return _Look(fallback, False, fallback_in, hopeful + unconfirmed)
        return _Look(str(moves[int(np.argmax(scores))].plan), False, -1.0, hopeful + unconfirmed)  # cornered

    def _rescue(self, view: ActionView, unconfirmed: Sequence[tuple[Action | None, PlannedMove]]) -> str | None:
        """The first of ``unconfirmed`` (plans best first; those the table refuses left out) that
        the game's producer rides clear, within ``rescues`` rides; None when none does (or there is
        no such producer). The geometric look-ahead keeps a margin from walls, so beside a wall
        (where a crash leaves a rider) it finds every plan meeting something where the physical
        ride is clear."""
        if self.confirm is None:
            return None
        ridden = 0
        for action, move in unconfirmed:
            if ridden >= self.rescues:
                break
            if action is None:  # not checked against the table yet (:class:`_Look`)
                try:
                    action = view.checked(move.plan)
                except IllegalPlanError:
                    continue
            ridden += 1
            if ride_meets(view, action, move, self.confirm) is None:
                return str(move.plan)
        return None

    def score(self, view: ActionView, move: PlannedMove) -> float:
        """How much this player likes a move (higher is better); no rules are decided here."""
        if view.model.on_foot:
            return walk_score(view, move, self.aggression, self.sights)
        bike, probe = view.model, view.probe
        path = move.path[:: max(1, len(move.path) // 40)]
        path = np.vstack([path, move.path[-1:]])
        score = 0.0
        rivals = [b for b in view.state.models.values() if b.in_play and b.gang != bike.gang]
        friends = [b for b in view.state.models.values() if b.in_play and b.gang == bike.gang and b.id != bike.id]
        end = move.end_pose
        goal = self._goal(view)  # what the mission asks of it (game.mission_goals)
        score += goal.seek_points(view.state, bike, move, self.ruleset)
        if rivals:
            # a defender of Package Run rides at the packages (EC-MISSION-PACKAGE); a carrier rides
            # for its edge, not at the rivals; a VIP hunts the enemy VIP (EC-MISSION-VIP)
            quarry = ambush_quarry(view.state, bike, goal.quarry(view.state, bike, rivals))  # EC-TRAIT-AMBUSH
            nearest = min(quarry, key=lambda r: float(np.hypot(*(r.pose.xy - bike.pose.xy))))
            gap = float(np.hypot(*(nearest.pose.xy - end.xy)))
            if goal.hunts:  # a carrier takes an attack on its way (choose_attack), it does not hunt
                # one; a rider going for a package on the table does not either
                score -= self.aggression * 0.8 * gap
                if gap < 3.0:
                    score += 6.0 * self.aggression
                if move.attacks_allowed > 0:
                    score += self.aggression * self._attack_chances(view, rivals, move)
                score += self.aggression * _set_up_chances(bike, rivals, move, view.action_index, self.ruleset)
        clearance = 0.5 * self.ruleset.base_for(bike.bike_type).width + 0.45
        along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
        later = along >= min(1.5, 0.5 * along[-1])  # a bike leaving a wall it touches starts next to it
        blocked = probe.blocked(path, bike.pose.z, kinds_ignored=("destructible",), clearance=clearance)
        blocked = (blocked | probe.ramp_sides_hit(path)) & later
        if blocked.any():
            first = int(np.argmax(blocked))
            score -= 30.0 + 2.0 * (len(path) - first)
        if goal.carrying:  # every inch nearer its edge, and most of all riding off it
            for points in goal.home_points(bike, move, probe):
                score += points
        off = probe.off_table(path, margin=0.6)
        if off.any() and not goal.delivers(move, probe):  # a carrier off another edge drops its package
            score -= 60.0 + goal.off_edge_cost()
        if not goal.carrying:
            score -= 3.0 * float(probe.off_table(end.xy[None, :], margin=3.0)[0])
        score -= goal.shy_points(move, rivals)
        if holds(view.state, bike):  # the mission rides with it: it keeps out of the rivals' reach (issue 45)
            score -= danger_points(end.xy, rivals) + off_road_points(view.state, bike, move, probe)
        if not goal.near_home(move, probe):  # a carrier this near its edge rides off it next, whatever is beside it
            score -= _boxed_in(end, move.speed, bike, probe, self.ruleset)
        own = self.ruleset.base_for(bike.bike_type)
        ahead = path[min(len(path) - 1, max(1, len(path) // 6)):]
        ahead = np.vstack([ahead, end.xy + 0.5 * own.length * end.forward])  # the nose where it stops
        for other in rivals + friends:
            if _runs_into(ahead, own, other, self.ruleset):
                score -= (28.0 - 8.0 * self.daring) if other in rivals else 30.0
        for wreck in view.state.wrecks:  # scenery now (EC-WOUND): riding into it is a crash
            touching = 0.5 * (own.length + wreck_base(view.state, wreck, self.ruleset).length)
            if float(np.hypot(*(ahead - wreck.pose.xy).T).min()) < touching:
                score -= 30.0
        if move.speed in self.ruleset.data("jump.air_time_speeds"):
            ramps = probe.ramps_taken(path)
            if ramps:
                score += 10.0 * self.daring + (4.0 if move.plan.action == "jump" else 0.0)
            elif move.plan.action == "jump":
                score -= 5.0
            if probe.touches(path, "destructible"):
                score += 6.0 * self.daring
        score += 1.2 * self.daring * move.speed + 0.1 * move.length_in
        stress_room = bike.max_stress - bike.stress
        score -= 1.5 * max(0, move.stress) + 1.0 * len(move.tests)
        stress_then = max(0, bike.stress + move.stress)
        bust_cost = self._bust_cost(bike) * holder_bust_factor(view.state, bike)  # a holder's bust risks the mission
        for test in move.tests:  # the exact odds of busting each test the move needs (EC-DICE-4)
            score -= bust_cost * self._test_bust(test.tn, stress_then, bike.max_stress)
        # a Rescue & Survive holder's contact: out in a test, shot, busted on scenery (game.rescue_goals)
        score -= rescue_risk(view.state, bike, move, probe, self.ruleset, stress_then, self.policy, self.sights)
        if move.plan.action == "focus":
            score += (3.0 if stress_room <= 4 else -2.0) + max(0, -move.stress)
        return score

    def remain_on_overwatch(self, view: ActionView) -> bool:
        """Stay on overwatch one more activation (EC-GUN-STOPPED) while a rival is within the gun's
        range and the gun has a shot left."""
        model = view.model
        if model.gun is None or model.ammo <= 0:
            return False
        return any(float(np.hypot(*(r.pose.xy - model.pose.xy))) <= gun_range_in(model.gun, self.ruleset)
                   for r in view.state.models.values() if r.in_play and r.gang != model.gang)

    def choose_attack(self, view: ActionView, options: Sequence[AttackOption]) -> AttackOption | None:
        """The attack with the best expected harm: its exact odds (the opposed test against the
        target's dodge, EC-DICE-2) of a hit times what a hit deals (a wound counts as 4 stress, a
        headshot every wound left), less what busting would cost it (EC-DICE-4); each weighed
        pushing its own way and not pushing at all, taking the better; none when nothing is worth
        it. Chicken, which only trades stress, is weighed by the odds of making its TN."""
        if not options:
            return None
        model, ruleset = view.model, self.ruleset
        if model.stress >= model.max_stress - 2 and self.daring < 1.5 and not model.law:
            return None
        if holds(view.state, model):  # a holder avoids fights: it only hands its load on (game.holder_goals)
            options = [o for o in options if o.kind == PASS]
            if not options:
                return None
        wanted = self._goal(view).wanted if model.law else None  # the Law's targets (EC-LAW)
        bust_cost = self._bust_cost(model)

        def worth(option: AttackOption) -> float:
            if option.kind == PASS:  # EC-ACT-PASS: hand the package on only when holding it is a bust waiting
                return pass_worth(model, view.state.model(option.target), option.tn, self.policy, bust_cost, ruleset)
            harm = _harm(option.kind, ruleset)
            if option.odds is None:
                odds = exact_odds(option.tn, model.stress, ruleset, self.policy, model.max_stress)
                return float(odds.success) * harm - float(odds.bust) * bust_cost
            target = view.state.model(option.target)
            # the takedown is a VIP's mission; the Law's targets; a rival threatening its holder
            hunt = hunt_weight(model, target, wanted) * escort_weight(view.state, model, target)
            return (hunt * (float(option.odds.hit) * harm + float(option.odds.headshot) * 4.0 * target.wounds)
                    - float(option.odds.attacker_bust) * bust_cost
                    - wasted_takedown(view.state, model, target, option.kind, option.odds, ruleset))  # EC-MISSION-VIP

        weighed = [(worth(o), -o.tn, o.target, k, o) for k, o in enumerate(options)]
        for _, tn, target, k, option in list(weighed):
            for push in (p for p in CAREFUL if p != self.push and option.odds is not None and not model.law):
                calm = dataclasses.replace(option, push=push, odds=self._odds(view, option, push))
                weighed.append((worth(calm), tn, target, k, calm))
        best = max(weighed, key=lambda row: row[:4])
        # the Law attacks whenever the rules give it an attack, pushing to its NPC minimum (EC-LAW:
        # "neutral and attack both all parties"); a gang's rider only when it is worth it
        return best[4] if best[0] > 0 or model.law else None

    def _odds(self, view: ActionView, option: AttackOption, push: str) -> AttackOdds:
        """The exact odds of ``option`` when the attacker pushes per ``push``."""
        model = view.model
        if option.kind in self.ruleset.data("guns"):
            return shot_odds(view.state, model.id, option.target, option.kind, self.ruleset, push=push,
                             defender_push=option.defender_push)
        return melee_odds(view.state, model.id, option.target, option.kind, DODGE, self.ruleset, push=push,
                          defender_push=option.defender_push, from_pose=option.from_pose)

    def _bust_cost(self, model: ModelState) -> float:
        """What a bust costs this rider, in stress: a wound and a skipped action, everything when it
        is its last wound (EC-DICE-4); the daring mind it less."""
        return (10.0 + (20.0 if model.wounds <= 1 else 0.0)) / self.daring

    def _test_bust(self, tn: int, stress: int, max_stress: int) -> float:
        """The exact chance of busting a test at ``tn`` with ``stress`` pushing its way (cached)."""
        key = (tn, stress, max_stress)
        if key not in self._busts:
            self._busts[key] = float(exact_odds(tn, stress, self.ruleset, self.policy, max_stress).bust)
        return self._busts[key]

    def _attack_chances(self, view: ActionView, rivals, move: PlannedMove) -> float:
        """Points for a move from which an attack will be there (EC-ACT-ATTACK): a melee strike at a
        rival it passes within its weapon's reach with half its base beside (the rules' own check,
        EC-MEL-1), weighed by the exact odds of hitting; a rival within its gun's range at its end.
        The rules check the attack exactly later."""
        model, ruleset = view.model, self.ruleset
        base = ruleset.base_for(model.bike_type)
        reach = float(ruleset.data(f"weapons.{model.weapon}.reach_in"))
        points = 0.0
        for rival in rivals:
            if rival.air is not None:
                continue
            near = np.flatnonzero(np.hypot(*(move.path - rival.pose.xy).T) <= reach + base.length + 0.3)
            for k in near[:: max(1, len(near) // 5)]:
                pose = Pose(float(move.path[k, 0]), float(move.path[k, 1]), float(move.headings_deg[k]) % 360.0)
                found = self._melee_check(pose, base, rival, model.weapon)
                if found.allowed:
                    odds = self._melee_odds(view, model, rival, pose, found.surprise)
                    gain = (float(odds.hit) * _harm(model.weapon, ruleset) + float(odds.headshot) * 4.0 * rival.wounds
                            - float(odds.attacker_bust) * self._bust_cost(model))
                    points = max(points, MELEE_PASS_POINTS + 4.0 * gain)
                    break
            if model.gun and model.ammo > 0:
                if float(np.hypot(*(move.end_pose.xy - rival.pose.xy))) <= 0.5 * gun_range_in(model.gun, ruleset):
                    points = max(points, 6.0)
        return points

    def _melee_check(self, pose: Pose, base: BaseShape, rival: ModelState, weapon: str) -> MeleeCheck:
        """The rules' check of a strike with ``weapon`` from ``pose`` at ``rival`` (EC-MEL-1), kept by
        all it depends on (both poses, both bases, the weapon): the plans a player weighs pass the same
        points, and half the checks a game asks were asked before."""
        key = (pose, base, rival.pose, rival.bike_type, weapon)
        if key not in self._reach:
            if len(self._reach) >= 4096:
                self._reach.clear()
            self._reach[key] = check_melee(pose, base, rival.pose, self.ruleset.base_for(rival.bike_type), weapon,
                                           self.ruleset)
        return self._reach[key]

    def _melee_odds(self, view: ActionView, model: ModelState, rival: ModelState, pose: Pose, surprise: bool
                    ) -> AttackOdds:
        """Exact odds of the rider's melee attack on ``rival`` (cached per rival, stress and surprise)."""
        key = (model.id, model.stress, model.weapon, model.shocking, model.conditions, rival.id, rival.stress,
               rival.only_moved, rival.stopped, surprise, rival.ambushed_by)
        if key not in self._melee:
            self._melee[key] = melee_odds(view.state, model.id, rival.id, model.weapon, DODGE, self.ruleset,
                                          push=self.push, from_pose=pose)
        return self._melee[key]


def _boxed_in(end: Pose, speed: int, model: ModelState, probe, ruleset: Ruleset) -> float:
    """Points off for ending where the next move has no room: something solid within the next
    action's minimum distance straight ahead, to both sides of it, and (less) where a tight turn
    would take it (a look one action ahead: a rider nose to a wall at speed 1 has no way out)."""
    reach = distance_band(model.bike_type, max(1, speed - 1), ruleset).min + 1.0
    clearance = 0.5 * ruleset.base_for(model.bike_type).width
    looks = ((-70.0, 5.0), (-35.0, 10.0), (0.0, 10.0), (35.0, 10.0), (70.0, 5.0))
    steps = np.linspace(1.0, reach, 6)
    ahead = np.vstack([end.xy + np.outer(steps, [math.cos(math.radians(end.facing_deg + turn)),
                                                 math.sin(math.radians(end.facing_deg + turn))]) for turn, _ in looks])
    # the probe answers point by point: all five looks in one call each (a player asks this per plan)
    shut = probe.blocked(ahead, end.z, clearance=clearance) | probe.off_table(ahead, margin=0.5)
    points = 0.0
    for (_, cost), closed in zip(looks, shut.reshape(len(looks), -1).any(axis=1)):
        if closed:
            points += cost
    return points


def _runs_into(points: np.ndarray, own: BaseShape, other: ModelState, ruleset: Ruleset, margin_in: float = 0.3
               ) -> bool:
    """Whether a base of shape ``own`` centred on any of ``points`` would touch ``other``'s base:
    an ellipse around the other's oval, its half length and half width grown by the own half
    width and ``margin_in``, so a pass beside it (a melee strike) is no collision."""
    theirs = ruleset.base_for(other.bike_type)
    grow = 0.5 * own.width + margin_in
    along, across = 0.5 * theirs.length + grow, 0.5 * theirs.width + grow
    # the ellipse lies within its longer half axis of its centre: points whose box is further
    # off in x or y touch nothing (most models are, for most plans a player scores)
    reach, (low_x, low_y), (high_x, high_y) = max(along, across) * (1 + 1e-9) + 1e-9, points.min(0), points.max(0)
    x, y = other.pose.x, other.pose.y
    if x + reach < low_x or x - reach > high_x or y + reach < low_y or y - reach > high_y:
        return False
    local = other.pose.to_local(points)
    return bool(((local[:, 0] / along) ** 2 + (local[:, 1] / across) ** 2 < 1.0).any())


def _set_up_chances(model: ModelState, rivals, move: PlannedMove, action_index: int, ruleset: Ruleset) -> float:
    """Points (or costs) of the actions that set up harm instead of attacking now: a stunt before
    an attack in the same activation (EC-ACT-STUNT), a trap laid ahead of rivals following it
    (EC-TRAP), a stop to take a focussed shot at a rival in range, to watch over it or to reload an
    empty gun (EC-GUN-STOPPED); each costs the attack it gives up, and the stops and the trap a
    skipped activation."""
    action, end = move.plan.action, move.end_pose
    gaps = [float(np.hypot(*(r.pose.xy - end.xy))) for r in rivals]
    if action == "stunt":
        return 5.0 if action_index == 0 and min(gaps) < 8.0 else -6.0
    if action == "laytrap":
        behind = [r for r in rivals if float(move.start_pose.to_local(r.pose.xy)[0, 0]) < 0.0]
        close = [r for r in behind if float(np.hypot(*(r.pose.xy - move.start_pose.xy))) < 14.0]
        return 6.0 if close else -12.0
    if action == "stop" and model.gun:
        return 8.0 if min(gaps) <= 0.5 * gun_range_in(model.gun, ruleset) else -10.0
    if action == "overwatch":  # a shot at whoever rides into range over the next two activations
        return 5.0 if min(gaps) <= gun_range_in(model.gun, ruleset) else -10.0
    if action == "reload":
        return 10.0 if model.ammo == 0 else -15.0
    return 0.0


def _harm(weapon: str, ruleset: Ruleset) -> float:
    """What a hit with ``weapon`` deals, in stress (a wound counts as 4)."""
    if weapon == "chicken":
        return 3.0
    if weapon in ruleset.data("guns"):
        return 4.0 * float(ruleset.data(f"guns.{weapon}.wounds"))
    spec = ruleset.data(f"weapons.{weapon}")
    return float(spec["stress"]) + 4.0 * float(spec["wounds"]) + (2.0 if spec["bleed"] else 0.0)


def demo_players(gangs: Sequence[str], ruleset: Ruleset, seed_sequence: np.random.SeedSequence,
                 lookahead=None, confirm=None) -> dict:
    """Automatic players for every gang, each with its own character and its own rng stream;
    ``lookahead``: the producer they ride their best plans through before choosing; ``confirm``:
    the game's producer that rides a plan the look-ahead found clear once more."""
    styles = [(1.2, 1.3), (1.0, 0.8), (1.4, 1.0), (0.8, 1.5)]
    players = {}
    for k, (gang, child) in enumerate(zip(gangs, seed_sequence.spawn(len(gangs)))):
        aggression, daring = styles[k % len(styles)]
        players[gang] = AutoPlayer(np.random.default_rng(child), ruleset, aggression, daring, lookahead=lookahead,
                                   confirm=confirm)
        if gang == ruleset.data("law.gang"):  # the Law's tests: an NPC's minimum to roll (EC-LAW)
            players[gang].push, players[gang].policy = NPC_PUSH, policy_named(NPC_PUSH, ruleset)
    return players
