"""Wrecks (EC-WOUND): a rider taken out leaves a wreck, placed by the opponent within 3" of
where it was, and the wreck is scenery from then on.

:func:`place_wrecks` runs after every action (:func:`entropy3d.rules.transition.resolve`): each
rider that went out in it (no wounds left, a failed remount) and is still over the table gets a
:class:`~entropy3d.rules.state.Wreck` in the state and a ``wreck`` event. How the opponent
chooses is the rules data's option ``wreck_placement`` (``obstruct``: where it gets most in the
way of the taken-out rider's gang; ``where_it_was``). From then on the producers put the wreck in
the way of rides (:func:`entropy3d.scene.probe.models_in_the_way`; a ride into it is a crash,
EC-COL-1, like any solid scenery) and line of sight sees it (:mod:`entropy3d.game.tableview`).
The table answers through :class:`WreckChecks`; lengths are table inches.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Protocol

import numpy as np

from entropy3d.geometry import BaseShape, Pose
from entropy3d.rules.event import Event
from entropy3d.rules.rest import INSIDE_TOLERANCE_IN, RestChecks
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import OUT, ModelState, State, Wreck

OBSTRUCT, WHERE_IT_WAS = "obstruct", "where_it_was"
#: outline points of a base when testing whether two bases overlap
BASE_SAMPLES = 48


class WreckChecks(RestChecks, Protocol):
    """What :func:`place_wrecks` asks the table (:class:`entropy3d.scene.probe.SceneProbe`)."""

    def off_table(self, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Mask of (N, 2) points less than ``margin`` inches inside the table's outline."""


def wreck_id(model_id: str) -> str:
    """The id of the wreck a rider leaves: ``wreck_<model id>``."""
    return f"wreck_{model_id}"


def wreck_base(state: State, wreck: Wreck, ruleset: Ruleset) -> BaseShape:
    """A wreck's base: its rider's ("Wreck tokens are yet to be designed", DECISION in the rules
    data under ``wreck:``)."""
    return ruleset.base_for(state.model(wreck.model_id).bike_type)


def place_wrecks(before: State, after: State, ruleset: Ruleset, table: WreckChecks | None = None
                 ) -> tuple[State, list[Event]]:
    """``after`` with a wreck for every rider that went out between ``before`` and it (EC-WOUND),
    and the ``wreck`` events. A rider whose base centre is off the table (over the cliff edge,
    EC-COL-EDGE) leaves none on it. table: None places without asking about solids and edges."""
    events: list[Event] = []
    wrecked = {w.model_id for w in after.wrecks}
    for model in after.models.values():
        if model.status != OUT:  # most models, every action: asked first
            continue
        was = before.models.get(model.id)
        if was is None or not was.in_play or model.id in wrecked:
            continue
        if model.on_foot:  # DECISION: a figure on foot has no bike to leave as a wreck
            events.append(Event("wreck", model.id, "taken out on foot: no bike, no wreck (EC-WOUND)",
                                clauses=("EC-WOUND",), figures={"no_wreck": "on_foot"}))
            continue
        if table is not None and bool(table.off_table(model.pose.xy[None, :])[0]):
            events.append(Event("wreck", model.id, "out over the table's edge: no wreck on the table (EC-WOUND)",
                                clauses=("EC-WOUND",), figures={"no_wreck": "off_table"}))
            continue
        pose, why = choose_wreck_pose(after, model, ruleset, table)
        wreck = Wreck(wreck_id(model.id), model.id, pose)
        after = dataclasses.replace(after, wrecks=after.wrecks + (wreck,))
        moved = math.hypot(pose.x - model.pose.x, pose.y - model.pose.y)
        events.append(Event(
            "wreck", model.id, f"taken out: its wreck is placed {moved:.1f}\" from where it was, {why} "
            f"(EC-WOUND); scenery from now on", clauses=("EC-WOUND",), piece=wreck.id,
            figures={"wreck": wreck.id, "x": pose.x, "y": pose.y, "z": pose.z, "facing_deg": pose.facing_deg,
                     "moved_in": moved, "placement": str(ruleset.option("wreck_placement"))}))
    return after, events


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
               table: WreckChecks | None) -> Pose | None:
    """``spot`` standing on the level under it when a wreck's base there is clear: on the table,
    out of every solid, off every riding model's base and every wreck; else None."""
    for other in state.models.values():
        if other.id != model_id and other.in_play and _overlaps(spot, base, other.pose,
                                                                ruleset.base_for(other.bike_type)):
            return None
    for wreck in state.wrecks:
        if _overlaps(spot, base, wreck.pose, wreck_base(state, wreck, ruleset)):
            return None
    if table is None:
        return spot
    outline = base.outline(spot, BASE_SAMPLES)
    if bool(table.off_table(outline).any()):
        return None
    level = table.rest_level(spot.xy, spot.z)
    if table.solid_under_base(outline, level) is not None:
        return None
    return Pose(spot.x, spot.y, spot.facing_deg, level) if abs(level - spot.z) > INSIDE_TOLERANCE_IN else spot


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


def choose_wreck_pose(state: State, model: ModelState, ruleset: Ruleset, table: WreckChecks | None
                      ) -> tuple[Pose, str]:
    """Where the opponent places ``model``'s wreck, and why, in words (option ``wreck_placement``).

    ``obstruct``: of the clear spots (:func:`wreck_spots`, :func:`clear_spot`), the one nearest a
    riding gang-mate's next line (:func:`obstruction_in`), the nearer to where it was on a tie;
    with no gang-mate riding, the clear spot nearest where it was. ``where_it_was``: where it was
    if clear, else the nearest clear spot. With no clear spot at all it lies where it was.
    """
    base = ruleset.base_for(model.bike_type)
    choice = ruleset.option("wreck_placement")
    placed = [(k, clear_spot(spot, base, state, model.id, ruleset, table))
              for k, spot in enumerate(wreck_spots(model.pose, ruleset))]
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
