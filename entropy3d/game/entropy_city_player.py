"""An Entropy City gang's player on the one game loop (:class:`~entropy3d.game.loop.Game`).

Entropy City's choosers (:class:`~entropy3d.game.players.AutoPlayer`, the scripted player) answer
three questions: which plan to ride, which of the attacks the rules allow to make, and whether
to remain on overwatch. :class:`EntropyCityPlayer` asks them in the order an activation runs and
hands the loop one action at a time, as every rulebook's player does: the attack the rules give
the rider now (``ModelState.attack_chance``, set by the engine after a move, a stop or a reload),
else the action it must skip, else remaining on overwatch, else a ride; None once its actions are
spent. It decides no rule: the engine refuses what is not allowed, and the attacks it offers are
those the engine's ``check`` accepts.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping, Sequence

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.game.action_view import ActionView
from entropy3d.game.players import AttackOption, Player
from entropy3d.geometry import Pose, poses_along
from entropy3d.systems.base import SystemView
from entropy3d.systems.entropy_city.attack_chances import ALONG
from entropy3d.systems.entropy_city.attack_odds import melee_odds, shot_odds
from entropy3d.systems.entropy_city.attacks import ATTACK_BACK, DODGE, melee_setup, weapon_kind
from entropy3d.systems.entropy_city.bike_advantages import TAUNT
from entropy3d.systems.entropy_city.charisma import INSPIRE, auto_shares
from entropy3d.systems.entropy_city.choice_traits import ATTACK_WORD, auto_declared, auto_free_move, obliged_defence
from entropy3d.systems.entropy_city.items import PASS, pass_test
from entropy3d.systems.entropy_city.kick import KICK
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.stopped_guns import may_remain
from entropy3d.systems.entropy_city.transition import MOVE, Action

#: attacks are only looked for at rivals this close (inches): past every weapon's reach and beyond
#: what the automatic players would shoot at (the rules check each attack exactly)
MAX_ATTACK_IN = 40.0


class EntropyCityPlayer:
    """The player of ``gang``: ``chooser`` chooses its plans and attacks; ``engine`` is the game's
    (:class:`~entropy3d.systems.entropy_city.engine.EntropyCityEngine`); ``pushes``: how each gang's player pushes
    its luck (gang -> policy name), for a target's side of an attack; ``defenders``: each gang's
    chooser, asked how a target of its gang answers a melee attack when the rules leave it the
    choice (``choose_defence``: a person playing in the viewer; the others dodge unless a trait
    obliges, EC-MEL-DEF)."""

    def __init__(self, gang: str, engine, chooser: Player, pushes: Mapping[str, str],
                 defenders: Mapping[str, Player] | None = None):
        self.gang, self.engine, self.chooser, self.pushes = gang, engine, chooser, dict(pushes)
        self.defenders = dict(defenders or {})
        self._declined: tuple[str, int, int] | None = None

    @property
    def push(self) -> str:
        return self.chooser.push

    def order(self, state: State, ready: Sequence[str], table) -> list[str]:
        """Its riders as the scene lists them: the engine orders them by speed (EC-TURN-2)."""
        return list(ready)

    def choose_action(self, view: SystemView) -> Action | None:
        state, model = view.state, view.model
        ruleset = self.engine.ruleset
        offer = (model.id, state.turn, len(view.taken))
        if model.free_move_in and self._declined != offer:  # EC-TRAIT: Nimble (x)'s free move, now or never
            free = self._free_move(ActionView(state, model, model.actions_taken, view.table, ruleset))
            if free is not None:
                return free
        if model.attack_chance is not None and self._declined != offer:
            ride = _last(view.taken, lambda step: step.action.kind == MOVE)  # the action it attacks in
            ridden = _last(view.taken, lambda step: step.action.move is not None)  # a forced move's after it
            index = 0 if ride is None else ride.before.model(model.id).actions_taken
            along = ridden.trajectory if ridden is not None and model.attack_chance in ALONG else None
            inspire = self._inspire(ActionView(state, model, index, view.table, ruleset))
            if inspire is not None:  # in lieu of its attack (EC-TRAIT: Charismatic Energy)
                return inspire
            attack = self._attack(ActionView(state, model, index, view.table, ruleset), along)
            if attack is not None:
                return attack
            self._declined = offer
        if model.actions_taken >= int(ruleset.data("turn.actions_per_activation")):
            return None
        if model.skip_next_action:
            return Action.skip(model.id)
        action_view = ActionView(state, model, model.actions_taken, view.table, ruleset)
        remain = getattr(self.chooser, "remain_on_overwatch", None)
        if remain is not None and may_remain(model) and remain(action_view):
            return Action.watch(model.id)
        ride = Action.ride(model.id, self.chooser.choose_plan(action_view), self.chooser.push)
        return self._declared(ride, action_view, str(model.actions_taken + 1))

    def _free_move(self, view: ActionView) -> Action | None:
        """Nimble's free move (EC-TRAIT): the plan its chooser gives (``free_move``), else the
        automatic default: straight ahead the whole x inches when the engine allows it (no
        building, no table edge), else none."""
        ask = getattr(self.chooser, "free_move", None)
        default = auto_free_move(view.model)
        plan = ask(view) if ask is not None else default
        if plan is None:
            return None
        action = Action.forced(view.model.id, plan, self.chooser.push)
        try:
            self.engine.check(view.state, action, view.probe)
        except IllegalPlanError:
            if plan != default:  # a plan its chooser gave (a script's) that the rules refuse
                raise
            return None
        return action

    def _inspire(self, view: ActionView) -> Action | None:
        """Charismatic Energy (EC-TRAIT) in lieu of the attack: the shares its chooser gives
        (``inspire_shares``: None leaves it to the automatic default,
        :func:`~entropy3d.systems.entropy_city.charisma.auto_shares`), when the rider has the trait."""
        model, table = view.model, view.probe
        if not model.trait(INSPIRE)[0]:
            return None
        ask = getattr(self.chooser, "inspire_shares", None)
        shares = ask(view) if ask is not None else None
        chosen = shares is not None
        if shares is None:
            shares = auto_shares(view.state, model, self.engine.ruleset, lambda friend: table is not None and bool(
                table.sight(view.state, model.id, friend, model.pose).bike_seen))
        if not shares:
            return None
        action = dataclasses.replace(Action.attack(model.id, shares[0][0], INSPIRE), shares=tuple(shares))
        try:
            self.engine.check(view.state, action, table)
        except IllegalPlanError:
            if chosen:  # what its chooser (a script) said, refused: say so
                raise
            return None
        return action

    def _declared(self, action: Action, view: ActionView, what: str) -> Action:
        """``action`` with the traits its chooser uses in it (``what``: the action's number, or
        ``attack``; EC-TRAIT Strategist, All Part of the Plan): a chooser's own ``traits_to_use``,
        else the automatic default (:func:`~entropy3d.systems.entropy_city.choice_traits.auto_declared`)."""
        ask = getattr(self.chooser, "traits_to_use", None)
        used = tuple(ask(view, what)) if ask is not None else auto_declared(view.model, what)
        return dataclasses.replace(action, traits_used=used) if used else action

    def refused(self, view: SystemView, action: Action, refusal: IllegalPlanError) -> Action | None:
        """A ride the table refuses when the chooser found every path blocked: the impact cannot be
        avoided, so the ride decides (EC-COL-1); any other refusal stands."""
        if action.kind == MOVE and getattr(self.chooser, "may_be_cornered", False):
            return dataclasses.replace(action, unavoidable=True)
        return None

    # -- attacks ---------------------------------------------------------------------------------

    def attack_options(self, view: ActionView, ridden: np.ndarray | None = None) -> list[AttackOption]:
        """The attacks the rules allow the rider now, from any point of its last ridden move
        (``ridden``: its trajectory rows; None: where it stands) (EC-ACT-ATTACK): chicken, its melee
        weapon, its gun (EC-MEL-*, EC-GUN-*), and a kick for a chooser that ``considers_kicks``
        (EC-MEL-KICK: the scripted player; the automatic one does not kick yet), each with its exact
        odds against the target's player pushing its own way."""
        state, attacker, table = view.state, view.model, view.probe
        poses = _poses_along(ridden, attacker.pose)
        if state.items and state.item_held_by(attacker.id) is not None:
            return self._pass_options(state, attacker, poses, table)  # a holder makes no attack (EC-MISSION-GRAB)
        weapons = ["chicken", attacker.weapon] + ([attacker.gun] if attacker.gun and attacker.ammo > 0 else [])
        weapons += [KICK] if getattr(self.chooser, "considers_kicks", False) else []
        # Get a Real Bike's taunt (EC-TRAIT), for the same choosers: the automatic player does not taunt yet
        weapons += [TAUNT] if attacker.trait(TAUNT)[0] and getattr(self.chooser, "considers_kicks", False) else []
        options = []
        for target in state.models.values():
            if target.gang == attacker.gang or not target.in_play:
                continue
            nearest = min(poses, key=lambda p: math.hypot(p.x - target.pose.x, p.y - target.pose.y))
            if math.hypot(nearest.x - target.pose.x, nearest.y - target.pose.y) > MAX_ATTACK_IN:
                continue
            for weapon in weapons:
                if weapon in ("chicken", TAUNT):
                    tries = [attacker.pose]
                elif weapon == attacker.gun:
                    tries = [poses[-1], poses[len(poses) // 2], poses[0]]  # each asks the LOS engine
                else:
                    tries = poses
                for pose in tries:
                    try:
                        at = None if weapon in ("chicken", TAUNT) else pose
                        action = Action.attack(attacker.id, target.id, weapon, from_pose=at, defence=DODGE if
                                               weapon == TAUNT else obliged_defence(state, attacker.id, target.id,
                                                                                    weapon, self.engine.ruleset, at))
                        self.engine.check(state, action, table)
                    except IllegalPlanError:
                        continue
                    options.append(self._option(state, action))
                    break
        return options

    def _pass_options(self, state: State, holder, poses: Sequence[Pose], table) -> list[AttackOption]:
        """The passes the rules allow a holder in lieu of its attack: to each friend in play, from
        the first point of its move the engine's ``check`` accepts (EC-ACT-PASS), at the rules
        data's TN."""
        options = []
        for friend in state.models.values():
            if friend.gang != holder.gang or friend.id == holder.id or not friend.in_play:
                continue
            for pose in poses:
                try:
                    action = self.engine.check(state, Action.attack(holder.id, friend.id, PASS, from_pose=pose), table)
                except IllegalPlanError:
                    continue
                options.append(AttackOption(PASS, friend.id, pass_test(holder, self.engine.ruleset)[0],
                                            action.from_pose))
                break
        return options

    def _option(self, state: State, action: Action) -> AttackOption:
        """The option of a legal attack, with its TN and exact odds (the melee target dodging)."""
        ruleset = self.engine.ruleset
        target = state.model(action.target)
        defender_push = self.pushes.get(target.gang, "sit-at-tn")
        if action.weapon == TAUNT:
            return AttackOption(TAUNT, target.id, 0)
        kind = weapon_kind(action.weapon, ruleset)
        if kind == "chicken":
            return AttackOption(action.weapon, target.id, int(ruleset.data("chicken.tn")), action.from_pose)
        if kind == "gun":
            odds = shot_odds(state, action.model_id, target.id, action.weapon, ruleset, push=self.push,
                             defender_push=defender_push)
        else:
            odds = melee_odds(state, action.model_id, target.id, action.weapon, DODGE, ruleset, push=self.push,
                              defender_push=defender_push, from_pose=action.from_pose, kick=action.kick)
        return AttackOption(action.weapon, target.id, odds.tn, action.from_pose, odds, defender_push)

    def _defence(self, view: ActionView, choice: AttackOption) -> str | None:
        """How the target's own player answers ``choice`` (a dodge or an attack back, EC-MEL-DEF)
        when it has a say (``choose_defence``: a person) and the rules leave the choice; None
        otherwise (the automatic choice)."""
        target = view.state.model(choice.target)
        ask = getattr(self.defenders.get(target.gang), "choose_defence", None)
        if ask is None or not _defences_open(self.engine, view.state, view.model.id, choice, view.probe):
            return None
        return ask(ActionView(view.state, target, 0, view.probe, view.ruleset), view.model.id, choice.kind)

    def _attack(self, view: ActionView, ridden: np.ndarray | None) -> Action | None:
        """The attack its chooser picks among the options, or None."""
        choice = self.chooser.choose_attack(view, self.attack_options(view, ridden))
        if choice is None:
            return None
        defender_push = self.pushes.get(view.state.model(choice.target).gang, "sit-at-tn")
        said = getattr(self.chooser, "defence", None)  # the target's answer, where its chooser says it (a script)
        defence = said(view, choice) if said is not None and choice.kind not in (PASS, TAUNT) else None
        if defence is None and choice.kind not in (PASS, TAUNT):
            defence = self._defence(view, choice)
        if defence is None:
            defence = obliged_defence(view.state, view.model.id, choice.target, choice.kind, self.engine.ruleset,
                                      choice.from_pose) if choice.kind not in (PASS, TAUNT) else DODGE  # EC-TRAIT
        return self._declared(Action.attack(view.model.id, choice.target, choice.kind, choice.push or self.push,
                                            defender_push, defence=defence, from_pose=choice.from_pose,
                                            kick=choice.kick, shots=choice.shots), view, ATTACK_WORD)


def _defences_open(engine, state: State, attacker_id: str, choice: AttackOption, table) -> bool:
    """Whether the target of a melee attack may answer it either way (EC-MEL-DEF): the rules let
    it attack back (not surprised, armed, not stopped) and its traits oblige neither (the engine's
    check accepts a dodge and an attack back)."""
    if weapon_kind(choice.kind, engine.ruleset) != "melee" or choice.kind == KICK or not melee_setup(
            state, attacker_id, choice.target, choice.kind, ATTACK_BACK, engine.ruleset, choice.from_pose).back:
        return False
    for defence in (DODGE, ATTACK_BACK):
        try:
            engine.check(state, Action.attack(attacker_id, choice.target, choice.kind, from_pose=choice.from_pose,
                                              defence=defence), table)
        except IllegalPlanError:
            return False
    return True


def _last(taken: Sequence, which):
    """The last step of ``taken`` for which ``which(step)`` holds, or None."""
    return next((step for step in reversed(taken) if which(step)), None)


def _poses_along(ridden: np.ndarray | None, end: Pose) -> list[Pose]:
    """Poses of the attacker along its last ridden move, an inch apart, ending where it stands
    (EC-ACT-ATTACK: an attack at any point along the move)."""
    return poses_along(ridden) + [end]


def entropy_city_players(engine, choosers: Mapping[str, Player]) -> dict[str, EntropyCityPlayer]:
    """Every gang's player on the one loop, from its chooser (gang -> chooser)."""
    pushes = {gang: chooser.push for gang, chooser in choosers.items()}
    return {gang: EntropyCityPlayer(gang, engine, chooser, pushes, choosers) for gang, chooser in choosers.items()}


def seat_players(system, engine, seating) -> dict[str, EntropyCityPlayer]:
    """Entropy City's seating (:attr:`~entropy3d.systems.base.GameSystem.SEATING`): each gang an
    automatic player of its kind (``seating.kinds``, :mod:`entropy3d.game.player_kinds`; ``basic``:
    :func:`~entropy3d.game.players.demo_players`, each gang its own character) that
    rides its best plans through a geometric look-ahead first and, in a physics game, once more
    through the game's producer; where a script plays (``seating.script``), its activations, the
    automatic player filling in what it leaves out; a gang a person plays (``seating.hands``),
    that person's answers (:class:`~entropy3d.game.hand.HandChooser`)."""
    from entropy3d.game.player_kinds import kinds_choosers
    from entropy3d.game.tableview import LOOKAHEAD_MARGIN_IN
    from entropy3d.geometric import GeometricProducer

    table = seating.table
    choosers = kinds_choosers(list(table.spec.gangs), seating.kinds, system.rules, seating.seed,
                              lookahead=GeometricProducer(table, seating.geometry, margin_in=LOOKAHEAD_MARGIN_IN),
                              confirm=seating.riding if seating.producer == "physics" else None)
    if seating.script is not None:
        from entropy3d.game.script import ScriptedPlayer

        choosers = {gang: ScriptedPlayer(seating.script, seating.script_path, system.rules, auto, seating.script_lines)
                    for gang, auto in choosers.items()}
    if seating.hands:
        from entropy3d.game.hand import HandChooser

        choosers = {**choosers, **{gang: HandChooser(seat) for gang, seat in seating.hands.items()}}
    return entropy_city_players(engine, choosers)


__all__ = ["EntropyCityPlayer", "MAX_ATTACK_IN", "entropy_city_players", "seat_players"]
