"""Wrecks (EC-WOUND): a rider taken out leaves a wreck, placed by the opponent within 3" of
where it was, and the wreck is scenery from then on.

The opponent places the wrecks once an action has been resolved, as at the table: the one path
(:func:`entropy3d.game.step.take`) asks the engine which riders went out (:func:`wrecks_wanted`),
asks the table what it says of the spots around each (:class:`~entropy3d.core.facts.WreckSpots`,
:func:`entropy3d.table_answers.wreck_answers`) and then :func:`place_wrecks` gives each a
:class:`~entropy3d.systems.entropy_city.state.Wreck` in the state and a ``wreck`` event, from those answers
alone. How the opponent chooses is the rules data's option ``wreck_placement`` (``obstruct``:
where it gets most in the way of the taken-out rider's gang; ``where_it_was``). From then on the
producers put the wreck in the way of rides (:func:`entropy3d.scene.probe.models_in_the_way`; a
ride into it is a crash, EC-COL-1, like any solid scenery) and line of sight sees it
(:mod:`entropy3d.game.tableview`). Lengths are table inches.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import WreckSpots
from entropy3d.geometry import BaseShape, Pose
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import OUT, ModelState, State, Wreck

OBSTRUCT, WHERE_IT_WAS = "obstruct", "where_it_was"
#: outline points of a base when testing whether two bases overlap
BASE_SAMPLES = 48


def wreck_id(model_id: str) -> str:
    """The id of the wreck a rider leaves: ``wreck_<model id>``."""
    return f"wreck_{model_id}"


def wreck_base(state: State, wreck: Wreck, ruleset: Ruleset) -> BaseShape:
    """A wreck's base: its rider's ("Wreck tokens are yet to be designed", DECISION in the rules
    data under ``wreck:``)."""
    return ruleset.base_for(state.model(wreck.model_id).bike_type)


def _gone(before: State, after: State) -> list[ModelState]:
    """The models in play in ``before`` that are out in ``after`` and have no wreck yet."""
    wrecked = {w.model_id for w in after.wrecks}
    return [model for model in after.models.values()
            if model.status == OUT and model.id not in wrecked  # most models, every action: asked first
            and (was := before.models.get(model.id)) is not None and was.in_play]


def wrecks_wanted(before: State, after: State) -> list[ModelState]:
    """The riders (on a bike) that went out between ``before`` and ``after`` and have no wreck
    yet, in ``after``'s order: the spots around each are what the table is asked before
    :func:`place_wrecks`."""
    return [model for model in _gone(before, after) if not model.on_foot]


def place_wrecks(before: State, after: State, ruleset: Ruleset, answers: Mapping[str, WreckSpots] | None = None
                 ) -> tuple[State, list[Event]]:
    """``after`` with a wreck for every rider that went out between ``before`` and it (EC-WOUND),
    and the ``wreck`` events. ``answers``: what the table says of the spots around each of
    :func:`wrecks_wanted` (model id -> :class:`~entropy3d.core.facts.WreckSpots`); a rider whose
    base centre is off the table (over the cliff edge, EC-COL-EDGE) leaves none on it. None: no
    table, every spot on the table and clear of it."""
    events: list[Event] = []
    for model in _gone(before, after):
        if model.on_foot:  # DECISION: a figure on foot has no bike to leave as a wreck
            events.append(Event("wreck", model.id, "taken out on foot: no bike, no wreck (EC-WOUND)",
                                clauses=("EC-WOUND",), figures={"no_wreck": "on_foot"}))
            continue
        around = untabled(model.pose, ruleset) if answers is None else _answer(answers, model)
        if around.off_table:
            events.append(Event("wreck", model.id, "out over the table's edge: no wreck on the table (EC-WOUND)",
                                clauses=("EC-WOUND",), figures={"no_wreck": "off_table"}))
            continue
        pose, why = choose_wreck_pose(after, model, ruleset, around)
        wreck = Wreck(wreck_id(model.id), model.id, pose)
        after = dataclasses.replace(after, wrecks=after.wrecks + (wreck,))
        moved = math.hypot(pose.x - model.pose.x, pose.y - model.pose.y)
        events.append(Event(
            "wreck", model.id, f"taken out: its wreck is placed {moved:.1f}\" from where it was, {why} "
            f"(EC-WOUND); scenery from now on", clauses=("EC-WOUND",), piece=wreck.id,
            figures={"wreck": wreck.id, "x": pose.x, "y": pose.y, "z": pose.z, "facing_deg": pose.facing_deg,
                     "moved_in": moved, "placement": str(ruleset.option("wreck_placement"))}))
    return after, events


def _answer(answers: Mapping[str, WreckSpots], model: ModelState) -> WreckSpots:
    """The table's answer for ``model``'s spots, asked where it went out."""
    around = answers.get(model.id)
    if around is None or around.pose != model.pose:
        raise ValueError(f"the table's answers hold no wreck spots around {model.id} at {model.pose}: ask them "
                         "with entropy3d.table_answers.wreck_answers after resolve (game.step.take does)")
    return around


def untabled(pose: Pose, ruleset: Ruleset) -> WreckSpots:
    """The spots around ``pose`` with no table asked: all on the table and clear of it, as given."""
    return WreckSpots(pose, False, tuple(wreck_spots(pose, ruleset)))


def wreck_spots(pose: Pose, ruleset: Ruleset) -> list[Pose]:
    """The spots the opponent chooses among, in order: where it was, then rings every
    ``wreck.ring_step_in`` out to ``wreck.within_in``, ``wreck.directions`` to a ring, all facing
    as the rider did."""
    spec = ruleset.spec.wreck
    spots = [pose]
    rings = int(math.floor(spec.within_in / spec.ring_step_in + 1e-9))
    for ring in range(1, rings + 1):
        radius = ring * spec.ring_step_in
        for k in range(spec.directions):
            angle = 2.0 * math.pi * k / spec.directions
            spots.append(Pose(pose.x + radius * math.cos(angle), pose.y + radius * math.sin(angle),
                              pose.facing_deg, pose.z))
    return spots


def _overlaps(pose: Pose, base: BaseShape, other: Pose, other_base: BaseShape) -> bool:
    return bool(base.contains(pose, other_base.outline(other, BASE_SAMPLES)).any()
                or other_base.contains(other, base.outline(pose, BASE_SAMPLES)).any())


def clear_spot(spot: Pose, base: BaseShape, state: State, model_id: str, ruleset: Ruleset,
               on_table: Pose | None) -> Pose | None:
    """``spot`` as the table left it (``on_table``: on the level under it, None when the base is
    off the table or in a solid there) when a wreck's base there is also off every riding
    model's base and every wreck, and leaves every item lying on the table (a package, an NPC)
    more than the pickup's reach from its edge; else None. DECISION (rules data ``wreck:``): a
    wreck is a token put down by the opponent, and a token is not put down on a miniature or an
    item already there; within the pickup's reach of it (EC-ACT-PICKUP: "within 1 inch of an item")
    it would hide the item from every rider (Jailbreak: the freer's wreck placed over the
    prisoner it dropped, which nobody could pick up again)."""
    reach = float(ruleset.data("actions.pickup.range_in"))
    outline = None
    for item in state.items:
        if item.on_table:
            outline = base.outline(spot, BASE_SAMPLES) if outline is None else outline
            point = np.array([[item.x, item.y]])
            if bool(base.contains(spot, point).any()) or float(np.min(np.hypot(*(outline - point[0]).T))) <= reach:
                return None
    for other in state.models.values():
        if other.id != model_id and other.in_play and _overlaps(spot, base, other.pose,
                                                                ruleset.base_for(other.bike_type)):
            return None
    for wreck in state.wrecks:
        if _overlaps(spot, base, wreck.pose, wreck_base(state, wreck, ruleset)):
            return None
    return on_table


def obstruction_in(xy: np.ndarray, state: State, gang: str, ruleset: Ruleset) -> float:
    """How far (inches) ``xy`` lies from the nearest line a riding model of ``gang`` rides next
    (``wreck.look_ahead_in`` straight ahead of it); inf when none of the gang rides."""
    look = float(ruleset.spec.wreck.look_ahead_in)
    best = math.inf
    for other in state.models.values():
        if other.gang != gang or not other.in_play:
            continue
        start = other.pose.xy
        ahead = look * other.pose.forward
        t = float(np.clip(np.dot(xy - start, ahead) / (look * look), 0.0, 1.0))
        best = min(best, float(np.hypot(*(xy - (start + t * ahead)))))
    return best


def choose_wreck_pose(state: State, model: ModelState, ruleset: Ruleset, around: WreckSpots
                      ) -> tuple[Pose, str]:
    """Where the opponent places ``model``'s wreck, and why, in words (option ``wreck_placement``),
    from what the table says of the spots ``around`` it.

    ``obstruct``: of the clear spots (:func:`wreck_spots`, :func:`clear_spot`), the one nearest a
    riding gang-mate's next line (:func:`obstruction_in`), the nearer to where it was on a tie;
    with no gang-mate riding, the clear spot nearest where it was. ``where_it_was``: where it was
    if clear, else the nearest clear spot. With no clear spot at all it lies where it was.
    """
    base = ruleset.base_for(model.bike_type)
    choice = ruleset.option("wreck_placement")
    placed = [(k, clear_spot(spot, base, state, model.id, ruleset, on_table))
              for k, (spot, on_table) in enumerate(zip(wreck_spots(model.pose, ruleset), around.spots))]
    clear = [(k, spot) for k, spot in placed if spot is not None]
    if not clear:
        return model.pose, "where it was: no clear spot within reach"
    if choice == WHERE_IT_WAS:
        return clear[0][1], "where it was" if clear[0][0] == 0 else "the nearest clear spot to where it was"
    scored = [(round(obstruction_in(spot.xy, state, model.gang, ruleset), 6), k, spot) for k, spot in clear]
    score, _, spot = min(scored, key=lambda row: row[:2])
    if math.isinf(score):
        return spot, "where it was (none of its gang rides on)" if clear[0][0] == 0 else "the nearest clear spot"
    return spot, f"where it is most in the way ({score:.1f}\" from a gang-mate's line ahead; the opponent's choice)"
