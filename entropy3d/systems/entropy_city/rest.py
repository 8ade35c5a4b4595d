"""Where a bike comes to rest after a ride: never inside a solid, never floating (issue 18).

:func:`settle` runs after every ridden move (:func:`entropy3d.systems.entropy_city.transition.resolve`, given
the table) on the pose the rules left the model in, and corrects it with a ``rest`` event:

- A base inside a solid (a wall, a pillar, a deck's side: EC-TER-BUILDING, "a bike cannot enter
  a building"), as a jump's rules landing or a crash's physical stop can leave it, is moved back
  along the path it rode to the nearest point where the base is clear; if none is (a path that
  scraped a wall all along), to the nearest clear spot around it; if none is there either, it
  stays and the event says so. Clear: no solid under the base at its level, and no part of the
  base more than a step (``ride.step_height_in``) above what is under it. A base perched on a low
  piece it overhangs is not clear: a bike that physics rode over a 0.28" print was put "back
  clear" onto the print, its base still over it (issue 49).
- A bike not in the air (EC-JUMP-2 keeps a jump's model in the air legitimately) rests on the
  highest surface under its base centre that is not above it: a crash's physical stop in
  mid-air no longer leaves it floating.

The table answers through :class:`RestChecks` (the scene's probe) before resolve, for each pose
the rules may leave the ridden bike at (:func:`entropy3d.table_answers.rest_answer`, given with the
ride's facts); the rules decide here from those answers. Lengths are table inches.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import State

#: a base this far (inches) into a solid counts as inside it (less is the contact of a crash)
INSIDE_TOLERANCE_IN = 0.05
#: a bike more than this (inches) above or below the surface it rests on is moved onto it
#: (less is the level profile's sampling on a ramp)
REST_TOLERANCE_IN = 0.1


class RestChecks(Protocol):
    """What :func:`settle` asks the table (:class:`entropy3d.scene.probe.SceneProbe`)."""

    def solid_under_base(self, outline: np.ndarray, level: float) -> tuple[str, float] | None:
        """The solid piece a base with this (N, 2) outline, standing at ``level``, overlaps, and how
        deep (inches); None when the base is clear."""

    def rest_level(self, xy: np.ndarray, z: float) -> float:
        """Height of the highest static surface under ``xy`` that a bike at height ``z`` rests on."""

    def rest_levels(self, points: np.ndarray, z: float) -> np.ndarray:
        """:meth:`rest_level` under each of the (N, 2) ``points``."""

    def touches(self, points: np.ndarray, kind: str) -> set[str]:
        """Ids of the pieces of ``kind`` (``ramp``) under any of the points."""


def stays_at(pose: Pose, level: float) -> Pose:
    """``pose`` at the height it rests at over a surface at ``level`` (inches): the surface's,
    unless it is within :data:`REST_TOLERANCE_IN` of it already (the level profile's sampling)."""
    return Pose(pose.x, pose.y, pose.facing_deg, level if abs(pose.z - level) > REST_TOLERANCE_IN else pose.z)


def settle(state: State, model_id: str, facts: Facts, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """The model moved to a legal resting pose after its ride, by what the table said of the pose
    the rules left it at (``facts``, :meth:`~entropy3d.core.facts.Facts.rest_answer`); a ``rest``
    event says what changed (none when its pose was legal)."""
    model = state.model(model_id)
    if not model.in_play or model.air is not None:
        return state, []
    pose = model.pose
    answer = facts.rest_answer(pose)
    rests_at = answer.rests_at
    said: list[str] = []
    figures: dict = {}
    clauses: tuple[str, ...] = ()
    piece = None
    if answer.inside is not None:
        piece, depth = answer.inside
        if answer.clear is None:
            said.append(f"its base is {depth:.2f}\" inside '{piece}' and no clear spot is on its path or within "
                        f"{SEARCH_RADIUS_IN:g}\" of it: it stays where it stopped (EC-TER-BUILDING)")
            figures.update(inside_in=depth, moved_in=0.0, along_path=False, clear=False)
        else:
            rests_at, moved_in, along = answer.clear
            how = "back along its path" if along else "to the nearest clear spot (no point of its path is clear)"
            said.append(f"its base was {depth:.2f}\" inside '{piece}': moved {moved_in:.1f}\" {how} "
                        f"to ({rests_at.x:.1f}, {rests_at.y:.1f}) on the {rests_at.z:.2f}\" level (EC-TER-BUILDING)")
            figures.update(inside_in=depth, moved_in=moved_in, along_path=along)
        clauses = ("EC-TER-BUILDING",)
    elif abs(pose.z - rests_at.z) > REST_TOLERANCE_IN:
        # DECISION: no clause says where a crashed bike lies; it lies on the surface under it.
        drop = pose.z - rests_at.z
        said.append(f"it was {abs(drop):.2f}\" {'above' if drop > 0 else 'below'} the {rests_at.z:.2f}\" level "
                    "under it: it rests there")
        figures["dropped_in"] = drop
    if not said:
        return state, []
    figures["rest_xyz"] = [rests_at.x, rests_at.y, rests_at.z]
    event = Event("rest", model.id, "; ".join(said), clauses=clauses, piece=piece, figures=figures)
    return state.with_model(model.but(pose=rests_at)), [event]


#: how far (inches) and in how fine steps the table is searched around a pose for a clear spot
#: when no point of the path back is clear (:func:`entropy3d.table_answers.clear_pose_around`)
SEARCH_RADIUS_IN, SEARCH_STEP_IN, SEARCH_DIRECTIONS = 4.0, 0.1, 24
