"""Playing for the holder (issue 45): the rider carrying its gang's NPC is the mission.

Sweeps of Jailbreak and Rescue & Survive saw the mission's objective reached in about a quarter
of the games: the rider that freed the prisoner or picked up the contact was taken out before it
got away, mostly by a rival that rode or shot at it while its own gang rode elsewhere. So:

- a holder avoids fights and risks: it declines every attack the rules offer but a pass (a fight
  risks a bust, and a bust or a loss of its last wound drops what it carries), a bust in a test
  of its ride costs it :data:`HOLDER_BUST` times more, and it ends its moves away from the rivals
  near it (:func:`danger_points`, beside Grab n Go's :data:`HOLDER_SHY` from its nearest rival);
  a Jailbreak holder rides on for the road exit it gains most on
  (:meth:`~entropy3d.game.npc_goals.NpcRun.progress`);
- its gang escorts it: an attack on a rival threatening a friend's holder is worth
  :data:`ESCORT_HUNT` times more (:func:`escort_weight`), and its hunters ride at those threats
  (:meth:`~entropy3d.game.mission_goals.RiderGoal.quarry`).

A holder here is a rider holding an NPC (:func:`holds`). Nothing here decides a rule; the weights
are the automatic players' taste, not rules data. Lengths in inches.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from entropy3d.systems.entropy_city.npc import NPC_MISSIONS
from entropy3d.systems.entropy_city.state import ModelState, State

#: inches from a holder within which a rival threatens it: a speed 2 ride and a strike (12"), or a
#: pistol's or shotgun's shot
THREAT_IN = 12.0
#: points off a holder's move for each inch a rival is nearer than :data:`THREAT_IN` to where it ends
HOLDER_DANGER = 1.0
#: how much more an attack on a rival threatening a friend's holder is worth
ESCORT_HUNT = 2.0
#: how much more a bust costs a holder (a bust may take it out of the game, and what it carries
#: with it: two of the holders in the first ten Rescue & Survive and Jailbreak games of a sweep
#: dropped their load busting a U-turn or a fast turn)
HOLDER_BUST = 3.0


def holds(state: State, model: ModelState) -> bool:
    """Whether ``model`` is a holder: it holds an NPC (EC-MISSION-JAIL, EC-MISSION-RESCUE). Package
    Run's carriers and Grab n Go's holders keep their own play (:mod:`entropy3d.game.mission_goals`):
    played as holders here, a Package Run carrier minding the defenders it must ride through
    delivered in 2 of 5 games (seeds 0-4) where it had in 4 of 5."""
    return model.in_play and state.mission in NPC_MISSIONS and state.item_held_by(model.id) is not None


def friendly_holders(state: State, model: ModelState) -> list[ModelState]:
    """The holders of ``model``'s gang other than itself."""
    return [m for m in state.models.values() if m.gang == model.gang and m.id != model.id and holds(state, m)]


def danger_points(end_xy: np.ndarray, rivals: Sequence[ModelState]) -> float:
    """Points off a holder's move ending at ``end_xy`` (inches): :data:`HOLDER_DANGER` for each
    inch each rival in play is nearer than :data:`THREAT_IN`."""
    return HOLDER_DANGER * sum(max(0.0, THREAT_IN - float(np.hypot(*(r.pose.xy - end_xy)))) for r in rivals
                               if r.in_play)


def holder_bust_factor(state: State, model: ModelState) -> float:
    """How much more a bust costs ``model`` than another rider: :data:`HOLDER_BUST` for a holder
    (it rides the tests' safer way home), else 1."""
    return HOLDER_BUST if holds(state, model) else 1.0


def escort_weight(state: State, model: ModelState, target: ModelState) -> float:
    """How much more an attack by ``model`` on ``target`` is worth: :data:`ESCORT_HUNT` when
    ``target`` threatens (is within :data:`THREAT_IN` of) a holder of ``model``'s gang, else 1."""
    near = any(float(np.hypot(*(target.pose.xy - h.pose.xy))) <= THREAT_IN
               for h in friendly_holders(state, model))
    return ESCORT_HUNT if near else 1.0


__all__ = ["ESCORT_HUNT", "HOLDER_BUST", "HOLDER_DANGER", "THREAT_IN", "danger_points", "escort_weight",
           "friendly_holders", "holder_bust_factor", "holds"]
