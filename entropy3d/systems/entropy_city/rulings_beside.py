"""Rulings of a rulebook played beside Entropy City, applied to Entropy City's game.

A scene whose own rulebook only judges (``system: reference_cards``) is played with Entropy
City's game; after each ride the judging rulebook rules on it (the cards' collision force and
fall damage, the Move a level climbed costs) and says, in plain terms, what its rulings do to a
model: wounds lost and how much faster or slower its next ride goes
(:meth:`~entropy3d.systems.base.GameSystem.ruling_effects`). This module applies that the Entropy
City way: wounds as EC-WOUND's (a rider at 0 is out of the game, the missions told; its wreck is
placed by the one path once the action is done, :func:`~entropy3d.systems.entropy_city.wrecks.place_wrecks`), a
change of speed as inches on the most its next move may ride, an action's move being ridden in
``scale.seconds_per_activation``.
"""

from __future__ import annotations

from typing import Sequence

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.missions import score_taken_out
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import OUT, State
from entropy3d.systems.entropy_city.transition import aftermath
from entropy3d.units import KPH_PER_M_S

#: the kind of action a ruling is applied in, for the missions told of what it did
RULING = "ruling"


def move_change_in(speed_change_kph: float, ruleset: Ruleset) -> float:
    """Inches an action's move covers at ``speed_change_kph``: the distance in the seconds an
    action's move is ridden in, at the table's metres an inch (10 kph: 4.17 m in 1.5 s, 2.93" at
    1.42 m an inch)."""
    scale = ruleset.scale
    return speed_change_kph / KPH_PER_M_S * scale.seconds_per_activation / scale.metres_per_inch


def apply_ruling(state: State, model_id: str, wounds: int, speed_change_kph: float, why: str,
                 clauses: Sequence[str], rider: str, ruleset: Ruleset
                 ) -> tuple[State, list[Event]]:
    """``model_id`` loses ``wounds`` (at 0 it is out of the game, EC-WOUND) and its next move may
    ride ``speed_change_kph`` of an action's distance further (less when negative), as the rulings
    on ``rider``'s ride say (``why``, ``clauses``: theirs). A model taken out this way is scored as
    the mission scores a model out (:func:`~entropy3d.systems.entropy_city.missions.score_taken_out`), taken out
    by ``rider``'s gang when it is another gang's (DECISION: the rider that hit it took it out, as
    an attack would; its own ride is taken out by nobody). A model already out is left alone."""
    model = state.model(model_id)
    if not model.in_play or (wounds <= 0 and not speed_change_kph):
        return state, []
    lost = min(model.wounds, max(0, wounds))
    change = move_change_in(speed_change_kph, ruleset)
    hit = model.but(wounds=model.wounds - lost, move_change_in=model.move_change_in + change)
    out = lost > 0 and hit.wounds <= 0
    if out:
        hit = hit.but(wounds=0, status=OUT, air=None)
    if lost:
        said = f"{model_id} loses {lost} wound{'s' if lost != 1 else ''} to the rulings ({why})"
        said += ": out of the game" if out else ""
        said += f"; its next move {change:+.1f}\"" if change else ""
    else:
        said = f"{model_id}'s next move {change:+.1f}\" by the rulings ({why})"
    event = Event(RULING, model_id, said,
                  clauses=tuple(clauses) + (("EC-WOUND",) if lost else ()),
                  figures={"judged": "applied", "applied": True, "wounds_lost": lost,
                           "move_change_in": round(change, 4), "taken_out": out})
    after = state.with_model(hit)
    by_gang = state.model(rider).gang
    if out:
        after = score_taken_out(after, hit, by_gang if by_gang != model.gang else None, ruleset)
    return aftermath(state, after, RULING, rider, [event], ruleset)
