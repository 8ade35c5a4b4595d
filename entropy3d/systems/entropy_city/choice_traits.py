"""The traits a player chooses to use, and the traits that oblige a rider (EC-TRAIT, EC-STEALTH).

- Strategist (x) and All Part of the Plan (x): a rider's player declares them for an action or an
  attack (:attr:`~entropy3d.systems.entropy_city.transition.Action.traits_used`); every test the rider then rolls
  in it rolls a third die and sets the worst aside (Strategist), or rolls each pushed die as two
  and keeps the better (All Part of the Plan), while the card's X uses last. The dice choice is
  :class:`TraitDice`, a push policy the dice functions ask (:func:`entropy3d.systems.entropy_city.dice.first_dice`,
  :func:`~entropy3d.systems.entropy_city.dice.pushed_die`); the uses are counted in ``ModelState.trait_uses``.
- Stealth: what the activating rider sees of each Stealth enemy is recorded when its activation
  begins (:func:`at_activation_start`); an attack of the kind the Stealth covers is refused on a
  rider it did not see then (:func:`check_attack_traits`); so is the shot of an enemy on overwatch
  that did not see it as its own activation began
  (:func:`entropy3d.systems.entropy_city.stopped_guns.watchers_at_start`).
- Timid (x), Aggressive (x): once stress reaches x (``ModelState.traits_latched``, kept "even if
  stress is dropped later") a melee attack on the rider must be met by a dodge (Timid) or, where
  the rules allow one, by an attack back (Aggressive): the check refuses the other defence.
- Matter of Pride: a rider shot at must make its attacks melee attacks on the shooter until one
  of them hits (``ModelState.pride_target``).
- Nimble (x): an attack that hits with no attack in return offers a free move of up to x inches
  (``ModelState.free_move_in``), a straight or a turn, taken at once as a ``forced`` action of
  the player's plan (:func:`nimble_move`) or let go by the next action.

Every number and reading lives in the rules data's ``traits:`` with the rulebook's words.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from entropy3d.core.event import Event
from entropy3d.core.facts import Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.dice import DiceRules, Outcome, Policy, judge, policy_named
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State

STRATEGIST, ALL_PART_OF_THE_PLAN = "strategist", "all_part_of_the_plan"
#: the traits a player declares for an action or an attack (each X uses a game)
DECLARED = (STRATEGIST, ALL_PART_OF_THE_PLAN)
#: what a script writes for the attack of an activation among the numbers of its actions
ATTACK_WORD = "attack"
TIMID, AGGRESSIVE, MATTER_OF_PRIDE, NIMBLE = "timid", "aggressive", "matter_of_pride", "nimble"
#: the traits whose stress threshold, once reached, holds for the rest of the game
LATCHING = (TIMID, AGGRESSIVE)
#: the plans a declared trait is not carried into: a watch or a reload keeps its push policy by
#: name for the shots it takes later (EC-GUN-STOPPED)
NOT_CARRIED = ("overwatch", "reload")


# -- Strategist (x), All Part of the Plan (x) ----------------------------------------------------


def uses_left(model: ModelState, name: str) -> int:
    """How many of its card's X uses of trait ``name`` the rider has left this game (0 without it)."""
    has, x = model.trait(name)
    if not has or x is None:
        return 0
    return max(0, int(x) - dict(model.trait_uses).get(name, 0))


def check_declared(model: ModelState, declared: Sequence[str]) -> None:
    """Whether the rider may use the traits declared for an action; IllegalPlanError (EC-TRAIT)
    naming the trait: one a player does not declare, one the card lacks, or X uses spent."""
    for name in declared:
        if name not in DECLARED:
            raise IllegalPlanError("EC-TRAIT", f"{name!r} is not a trait a player uses when it chooses; "
                                               f"declare one of {', '.join(DECLARED)}")
        if not model.trait(name)[0]:
            raise IllegalPlanError("EC-TRAIT", f"{model.id} has no {name} on its card")
        if uses_left(model, name) <= 0:
            raise IllegalPlanError("EC-TRAIT", f"{model.id} has used its {name} all {model.trait(name)[1]} times "
                                               "this game")


def _serves(roll) -> tuple:
    """How well a roll serves its test: a natural 21, then not busting, then passing, then the
    higher total (which an opposed test needs)."""
    bust = roll.outcome is Outcome.BUST
    return roll.outcome is Outcome.CRIT, not bust, roll.succeeded, -roll.total if bust else roll.total


@dataclass(eq=False)
class TraitDice:
    """A push policy (``base``, which decides every push) with the dice choices of the traits its
    rider declared, ``strategist`` and ``plan`` uses left in this action; ``used`` counts what the
    action's tests spent. The choice is the one that best serves the test (DECISION, rules data
    ``traits.strategist``): the pair of the three dice with a natural 21, else one that does not
    bust, else one that passes, else the higher total; of two pushed dice the one that keeps the
    total at 21 or under, the higher of those."""

    base: Policy
    strategist: int = 0
    plan: int = 0
    used: dict[str, int] = field(default_factory=dict)

    def __call__(self, state) -> bool:
        return self.base(state)

    def first_dice(self, dice: list[int], draw, stress: int, tn: int, rules: DiceRules,
                   max_stress: int | None) -> tuple[list[int], list[int]]:
        """Strategist (x): "rolls 3D10 instead of 2D10 and then discards one D10 of choice"."""
        if self.strategist <= 0:
            return dice, []
        self.strategist -= 1
        self.used[STRATEGIST] = self.used.get(STRATEGIST, 0) + 1
        three = dice + [draw()]
        kept = max(itertools.combinations(range(3), 2),
                   key=lambda pair: _serves(judge([three[k] for k in pair], stress, tn, rules, max_stress)))
        return [three[k] for k in kept], [three[k] for k in range(3) if k not in kept]

    def push_die(self, die: int, draw, total: int, need: int, rules: DiceRules) -> tuple[int, list[int]]:
        """All Part of the Plan (x): "when pushing your luck ... may roll 2D10 and then discard one"."""
        if self.plan <= 0:
            return die, []
        self.plan -= 1
        self.used[ALL_PART_OF_THE_PLAN] = self.used.get(ALL_PART_OF_THE_PLAN, 0) + 1
        other = draw()

        def serves(d: int) -> tuple:
            after = total + d
            return after <= rules.bust_over, after >= need, after if after <= rules.bust_over else -after

        return (other, [die]) if serves(other) > serves(die) else (die, [other])


def tested_with(model: ModelState, push: str, declared: Sequence[str], plan_action: str | None,
                ruleset: Ruleset) -> str | TraitDice:
    """The push policy the rider's tests in an action roll with: its player's (``push``), carrying
    the dice choices of the traits ``declared`` for the action while their uses last."""
    if not declared or plan_action in NOT_CARRIED:
        return push
    return TraitDice(policy_named(push, ruleset), uses_left(model, STRATEGIST) if STRATEGIST in declared else 0,
                     uses_left(model, ALL_PART_OF_THE_PLAN) if ALL_PART_OF_THE_PLAN in declared else 0)


def count_uses(state: State, model_id: str, push) -> State:
    """The state with the uses the action's tests spent (``push``: what :func:`tested_with` gave)
    added to the rider's ``trait_uses``."""
    if not isinstance(push, TraitDice) or not push.used:
        return state
    model = state.model(model_id)
    uses = dict(model.trait_uses)
    for name, spent in push.used.items():
        uses[name] = uses.get(name, 0) + spent
    return state.with_model(model.but(trait_uses=tuple(sorted(uses.items()))))


def auto_declared(model: ModelState, what: str) -> tuple[str, ...]:
    """What the automatic player declares (``what``: an action's number "1", "2", or
    :data:`ATTACK_WORD`): its dice traits on its attacks while uses last (DECISION: a test of an
    attack decides harm and is worth a use more than a ride's template test)."""
    if what != ATTACK_WORD:
        return ()
    return tuple(name for name in DECLARED if uses_left(model, name) > 0)


# -- Stealth ---------------------------------------------------------------------------------------


def stealth_covers(model: ModelState, kind: str, ruleset: Ruleset) -> str | None:
    """The Stealth trait of ``model`` that hides it from an attack of ``kind`` (chicken, melee or
    gun, :func:`~entropy3d.systems.entropy_city.attacks.weapon_kind`), or None."""
    traits = ruleset.data("traits")
    for name, _ in model.traits:
        if kind in (traits.get(name) or {}).get("hides_from", ()):
            return name
    return None


def stealthy_enemies(state: State, model_id: str, ruleset: Ruleset) -> list[str]:
    """The enemies of ``model_id`` in play with a trait that hides them from something (EC-STEALTH),
    in scene order: those whose sight the table is asked for as its activation begins."""
    model = state.model(model_id)
    traits = ruleset.data("traits")
    return [enemy.id for enemy in state.models.values()
            if enemy.gang != model.gang and enemy.in_play
            and any((traits.get(n) or {}).get("hides_from") for n, _ in enemy.traits)]


def at_activation_start(state: State, model_id: str, ruleset: Ruleset, sees: Mapping[str, Sight] | None) -> State:
    """EC-STEALTH: the Stealth enemies the activating rider does not see as its activation begins
    (the bike itself not seen, EC-LOS-4, as a shot needs; DECISION in the rules data). ``sees``:
    what the table showed it of each of them (:class:`~entropy3d.core.facts.StartSights`); None
    (no table asked) sees nothing."""
    model = state.model(model_id)
    hidden = [enemy for enemy in stealthy_enemies(state, model_id, ruleset)
              if sees is None or not sees[enemy].bike_seen]
    return state if tuple(hidden) == model.unseen_at_start else state.with_model(
        model.but(unseen_at_start=tuple(hidden)))


# -- obligations: Timid (x), Aggressive (x), Matter of Pride ---------------------------------------


def latched(model: ModelState, name: str) -> bool:
    """The rider reached trait ``name``'s stress x this game (Timid, Aggressive)."""
    return name in model.traits_latched


def must_attack_back(state: State, attacker_id: str, target_id: str, weapon: str, ruleset: Ruleset,
                     from_pose=None) -> bool:
    """Aggressive (x): "any future melee defences must be responded to with an attack if
    possible": the target reached x and the rules would let it attack back now (not surprised,
    armed, not stopped, not a Grab n Go holder)."""
    from entropy3d.systems.entropy_city.attacks import ATTACK_BACK, melee_setup, weapon_kind
    from entropy3d.systems.entropy_city.grab import check_holder_attack

    target = state.model(target_id)
    if not latched(target, AGGRESSIVE) or weapon_kind(weapon, ruleset) != "melee":
        return False
    if state.items:
        try:
            check_holder_attack(state, attacker_id, target_id, attacks_back=True)
        except IllegalPlanError:
            return False
    return melee_setup(state, attacker_id, target_id, weapon, ATTACK_BACK, ruleset, from_pose).back


def obliged_defence(state: State, attacker_id: str, target_id: str, weapon: str, ruleset: Ruleset,
                    from_pose=None) -> str:
    """The defence a target's traits leave it: an attack back for an Aggressive one that can, else
    a dodge (what every automatic and scripted player's attack asks of its target)."""
    from entropy3d.systems.entropy_city.attacks import ATTACK_BACK, DODGE

    return ATTACK_BACK if must_attack_back(state, attacker_id, target_id, weapon, ruleset, from_pose) else DODGE


def check_attack_traits(state: State, attacker_id: str, target_id: str, weapon: str, defence: str,
                        ruleset: Ruleset, from_pose=None) -> None:
    """The traits that refuse an attack otherwise legal; IllegalPlanError naming the clause: a
    Stealth target not seen when the activation began (EC-STEALTH), an attack other than a melee
    strike at the rider that shot a Matter of Pride attacker, a Timid target attacking back, an
    Aggressive one dodging when it could attack back (EC-TRAIT)."""
    from entropy3d.systems.entropy_city.attacks import ATTACK_BACK, DODGE, weapon_kind

    attacker, target = state.model(attacker_id), state.model(target_id)
    kind = weapon_kind(weapon, ruleset)
    hiding = stealth_covers(target, kind, ruleset)
    if hiding is not None and target.id in attacker.unseen_at_start:
        raise IllegalPlanError("EC-STEALTH", f"{target.id} has {hiding} and {attacker.id} did not see it when its "
                                             "activation began: it cannot be the target of this attack")
    shooter = attacker.pride_target
    if shooter is not None and state.model(shooter).in_play and (kind != "melee" or target.id != shooter):
        raise IllegalPlanError("EC-TRAIT", f"{attacker.id} has matter_of_pride: {shooter} shot at it, so its "
                                           f"attacks are melee attacks on {shooter} until one hits")
    if kind != "melee":
        return
    if defence == ATTACK_BACK and latched(target, TIMID):
        raise IllegalPlanError("EC-TRAIT", f"{target.id} is timid (stress reached {target.trait(TIMID)[1]}): "
                                           "it must dodge every incoming attack")
    if defence == DODGE and must_attack_back(state, attacker_id, target_id, weapon, ruleset, from_pose):
        raise IllegalPlanError("EC-TRAIT", f"{target.id} is aggressive (stress reached "
                                           f"{target.trait(AGGRESSIVE)[1]}): it must attack back")


def after_action(state: State, kind: str, model_id: str, events: Sequence[Event], ruleset: Ruleset
                 ) -> tuple[State, list[Event]]:
    """The traits' records after any action (``kind``, of ``model_id``): Timid and Aggressive latch
    once stress reaches x; a Matter of Pride rider shot at (hit or missed, any shot in the events)
    owes the shooter a melee attack, paid by one that hits; a Nimble attacker's hit with no attack
    in return offers its free move, which any other action of its lets go; returns the state and
    the events saying so."""
    from entropy3d.systems.entropy_city.bike_advantages import turn_over

    state, said = _nimble(turn_over(state), kind, model_id, events)
    guns, weapons = ruleset.data("guns"), ruleset.data("weapons")
    for event in events:
        weapon = event.figures.get("weapon") if event.kind == "attack" else None
        if weapon is None or event.piece is None:
            continue
        attacker, target = state.model(event.model), state.model(event.piece)
        if weapon in guns and target.trait(MATTER_OF_PRIDE)[0] and target.pride_target is None and target.in_play:
            state = state.with_model(target.but(pride_target=attacker.id))
            said.append(Event("trait", target.id, f"matter of pride: {target.id} must strike {attacker.id} in melee "
                              "until it hits (EC-TRAIT)", clauses=("EC-TRAIT",), piece=attacker.id))
        elif weapon in weapons and event.figures.get("hit") and attacker.pride_target == target.id:
            state = state.with_model(attacker.but(pride_target=None))
            said.append(Event("trait", attacker.id, f"matter of pride: {attacker.id} has struck {target.id} "
                              "(EC-TRAIT)", clauses=("EC-TRAIT",), piece=target.id))
    for model in list(state.models.values()):
        reached = tuple(name for name in LATCHING if model.trait(name)[0] and name not in model.traits_latched
                        and model.stress >= int(model.trait(name)[1]))
        if reached:
            state = state.with_model(model.but(traits_latched=model.traits_latched + reached))
            said += [Event("trait", model.id, f"{name}: stress {model.stress} reached {model.trait(name)[1]}, "
                           "for the rest of the game (EC-TRAIT)", clauses=("EC-TRAIT",)) for name in reached]
    return state, said


# -- Nimble (x) ------------------------------------------------------------------------------------


def _nimble(state: State, kind: str, model_id: str, events: Sequence[Event]) -> tuple[State, list[Event]]:
    """Nimble (x): "Upon successfully completing an attack without having received one in return
    this character may move X for free": after an attack of ``model_id`` that hit and was met by
    a dodge (or a surprise), its free move is offered; after any other action it is gone."""
    model = state.model(model_id)
    has, inches = model.trait(NIMBLE)
    swing = next((e for e in events if e.kind == "attack" and e.model == model_id and "hit" in e.figures), None)
    earned = (kind == "attack" and has and swing is not None and swing.figures["hit"]
              and swing.figures.get("defence") != "attacks back" and model.in_play)
    if earned:
        return state.with_model(model.but(free_move_in=float(inches))), [
            Event("trait", model_id, f"nimble: a hit with no attack in return, a free move of up to {inches}\" "
                                     "(a straight or a turn) now (EC-TRAIT)", clauses=("EC-TRAIT",))]
    if model.free_move_in and kind != "attack":
        return state.with_model(model.but(free_move_in=0.0)), []
    return state, []


def auto_free_move(model: ModelState) -> str | None:
    """The free move the automatic player takes when Nimble offers one: straight ahead the whole x
    inches at its speed (DECISION: away past the rider it struck, as a hit-and-run), or None on foot
    or stopped; the engine refuses it into a building or off the table, and then it is not taken."""
    if not model.speed or model.free_move_in < 1:
        return None
    return f"s{model.speed}: straight {int(model.free_move_in)}"


def nimble_move(model: ModelState, plan, ruleset: Ruleset, table=None):
    """The checked free move of a Nimble rider (``plan``: one straight or one turn on a template, at
    its speed, at most the x inches it was offered; EC-TRAIT): ridden as a move the rules give it,
    no action, no stress, no test, nor a change of speed; a path into a building or over the
    table's edge is refused (``table``: asked when given). IllegalPlanError otherwise."""
    from entropy3d.systems.entropy_city.plan import Straight, Turn
    from entropy3d.systems.entropy_city.planner import plan_forced_move

    if not model.free_move_in:
        raise IllegalPlanError("EC-TRAIT", f"{model.id} has no free move: Nimble gives one after a hit with no "
                                           "attack in return")
    if len(plan.segments) != 1 or not isinstance(plan.segments[0], (Straight, Turn)) or plan.action != "move":
        raise IllegalPlanError("EC-TRAIT", "Nimble's free move is one straight or one turn: 's2: straight 3'")
    if plan.speed != model.speed:
        raise IllegalPlanError("EC-TRAIT", f"Nimble's free move changes nothing of the turn: at speed {model.speed}")
    move = plan_forced_move(plan, model.pose, model.bike_type, model.speed, ruleset)
    if move.length_in > model.free_move_in + 1e-6:
        raise IllegalPlanError("EC-TRAIT", f"Nimble gives {model.free_move_in:g}\", not {move.length_in:g}\"")
    if table is not None:
        entered = table.building_entered(move.path, model.pose.z)
        if entered is not None:
            raise IllegalPlanError("EC-TER-BUILDING", f"the free move enters '{entered[0]}'")
        if table.edge_crossed(move.path) is not None:
            raise IllegalPlanError("EC-COL-EDGE", "the free move leaves the table")
    return dataclasses.replace(move, clauses=("EC-TRAIT",))
