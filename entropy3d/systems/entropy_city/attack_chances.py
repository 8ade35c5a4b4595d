"""When a rider may attack (EC-ACT-ATTACK, EC-ACT-GUNGHO, EC-GUN-STOPPED): the chance of an
attack its actions give it (``ModelState.attack_chance``), what it keeps of one, and gung-ho's
cost of the attacks after the first. :func:`entropy3d.systems.entropy_city.transition.resolve` sets the chance
as an action resolves; :func:`entropy3d.systems.entropy_city.transition.check` asks :func:`check_chance` before
any attack (:mod:`entropy3d.systems.entropy_city.attacks` checks and resolves the attack itself).
"""

from __future__ import annotations

from typing import Sequence

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attacks import CHICKEN
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import RIDING, ModelState, State

#: how a rider may attack now (``ModelState.attack_chance``, :func:`attack_chance`): from any point
#: along the move it rode (EC-ACT-ATTACK), a focussed shot where it stopped, or a shot in the
#: activation it skips after a reload (EC-GUN-STOPPED); gung-ho's melee attacks along its move,
#: up to four (EC-ACT-GUNGHO)
ALONG_THE_MOVE, FOCUSSED, WHILE_RELOADING, GUNG_HO = "along the move", "focussed", "while reloading", "gung-ho"
#: the chances whose attacks come from a point of the move just ridden
ALONG = (ALONG_THE_MOVE, GUNG_HO)


def attack_chance(after: ModelState, move: PlannedMove, events: Sequence[Event], attacked: bool) -> str | None:
    """Whether, and how, a rider may attack after an action's move (EC-ACT-ATTACK): one attack an
    activation (``attacked``: it made one already), none by a rider who busted or crashed in the
    action or who is out; a focussed shot (:data:`FOCUSSED`) by one that stopped (the ``stop``
    action) with a shot in its gun (EC-GUN-STOPPED); else an attack along the move
    (:data:`ALONG_THE_MOVE`) when the move allows one (``move.attacks_allowed``) and the rider did
    not stop. None: no attack."""
    if attacked or after.status != RIDING or _troubled(after.id, events):
        return None
    if after.stopped and move.plan.action == "stop" and after.gun is not None and after.ammo > 0:
        return FOCUSSED
    if not after.stopped and move.attacks_allowed > 0:
        return GUNG_HO if move.plan.action == "gungho" else ALONG_THE_MOVE
    return None


def chance_after_attack(before: ModelState, after: ModelState, events: Sequence[Event], ruleset: Ruleset
                        ) -> str | None:
    """The attack a rider has left after one (``before``/``after``: it around the attack): none,
    but for gung-ho's, up to ``actions.gungho.max_attacks`` while it rides on unbusted
    (EC-ACT-GUNGHO: "you have a maximum of 4 attacks")."""
    if before.attack_chance != GUNG_HO or after.status != RIDING:
        return None
    if any(event.kind == "bust" and event.model == after.id for event in events):
        return None
    return GUNG_HO if before.attacks_made + 1 < int(ruleset.data("actions.gungho.max_attacks")) else None


def gungho_cost(state: State, attacker_id: str, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """The stress of a gung-ho attack after the first, taken as it is made, before its dice
    (EC-ACT-GUNGHO: "add 2 stress for every attack after the first"; DECISION: the cost of making
    the attack, so it counts in that attack's own test)."""
    from entropy3d.systems.entropy_city.combat import gungho_attack_stress

    attacker = state.model(attacker_id)
    number = attacker.attacks_made + 1
    extra = gungho_attack_stress(number, ruleset) if attacker.attack_chance == GUNG_HO else 0
    if not extra:
        return state, []
    limit = int(ruleset.data("actions.gungho.max_attacks"))
    return state.with_model(attacker.but(stress=attacker.stress + extra)), [
        Event("attack", attacker.id, f"gung-ho attack {number} of {limit}: +{extra} stress (EC-ACT-GUNGHO)",
              clauses=("EC-ACT-GUNGHO",), stress_change=extra, figures={"attack_number": number})]


def chance_kept(chance: str | None, after: ModelState, events: Sequence[Event]) -> str | None:
    """The attack a rider keeps through a move the rules force on it after its action's move
    (EC-DEST-3): the one that move gave (``chance``), unless it busted, crashed or left the game in
    the forced move, or the forced move changed whether it is stopped."""
    if chance is None or after.status != RIDING or _troubled(after.id, events):
        return None
    return chance if after.stopped == (chance == FOCUSSED) else None


def _troubled(model_id: str, events: Sequence[Event]) -> bool:
    """The model itself busted or crashed in these events (a watcher busting its shot at it does
    not count)."""
    return any(event.kind in ("bust", "crash") and event.model == model_id for event in events)


def check_chance(attacker: ModelState, kind: str, from_pose: Pose | None = None) -> None:
    """Whether the rules give ``attacker`` an attack of ``kind`` (chicken, melee or gun) now
    (``attack_chance``, set as its actions resolve), from ``from_pose`` (a point of its move; None:
    where it stands); raises IllegalPlanError naming the clause."""
    if attacker.attack_chance == GUNG_HO and kind == "gun":
        raise IllegalPlanError("EC-ACT-GUNGHO", f"{attacker.id} rode gung-ho: its attacks are melee attacks")
    moved = from_pose is not None and (abs(from_pose.x - attacker.pose.x) > 1e-6
                                       or abs(from_pose.y - attacker.pose.y) > 1e-6)
    if moved and attacker.attack_chance is not None and attacker.attack_chance not in ALONG:
        raise IllegalPlanError("EC-GUN-STOPPED", f"{attacker.id}'s shot is taken where it stopped, not from a point "
                                                 "of its move")
    if moved and kind == CHICKEN:
        raise IllegalPlanError("EC-MEL-CHICKEN", "chicken is played where the rider stands, not from a point of "
                                                 "its move")
    if attacker.attack_chance is not None:
        return
    if attacker.attacks_made:
        raise IllegalPlanError("EC-ACT-ATTACK", f"{attacker.id} has made its attacks this activation: one an "
                                                "activation (gung-ho: four, EC-ACT-GUNGHO)")
    raise IllegalPlanError("EC-ACT-ATTACK", f"{attacker.id} has no attack to make now: an attack comes after a move "
                                            "it rode this activation, and not after a bust or a crash (a stopped "
                                            "rider with a loaded gun takes a focussed shot, EC-GUN-STOPPED)")
