"""Where a bike comes to rest after a ride: never inside a solid, never floating (issue 18).

:func:`settle` runs after every ridden move (:func:`entropy3d.rules.transition.resolve`, given
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

The table answers through :class:`RestChecks` (the scene's probe); the rules decide here. Lengths
are table inches.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from entropy3d.geometry import Pose, normalize_deg
from entropy3d.rules.event import Event
from entropy3d.rules.facts import Facts
from entropy3d.rules.planner import PlannedMove
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import State

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


def settle(state: State, model_id: str, move: PlannedMove, facts: Facts, table: RestChecks, ruleset: Ruleset
           ) -> tuple[State, list[Event]]:
    """The model moved to a legal resting pose after riding ``move`` (``facts``: what the producer
    found, whose level profile says at what height it rode each point of the path); a ``rest``
    event says what changed (none when its pose was legal)."""
    model = state.model(model_id)
    if not model.in_play or model.air is not None:
        return state, []
    base = ruleset.base_for(model.bike_type)
    pose = model.pose
    level = table.rest_level(pose.xy, pose.z)
    # the height it stays at: the surface's, unless it is within the tolerance of it already
    stays_z = level if abs(pose.z - level) > REST_TOLERANCE_IN else pose.z
    rests_at = Pose(pose.x, pose.y, pose.facing_deg, stays_z)
    said: list[str] = []
    figures: dict = {}
    clauses: tuple[str, ...] = ()
    inside = table.solid_under_base(base.outline(rests_at, samples=48), stays_z)
    piece = None
    if inside is not None:
        piece, depth = inside
        step = float(ruleset.data("ride.step_height_in"))
        found = _clear_pose_along(move, facts, rests_at, base, table, step)
        if found is None:
            said.append(f"its base is {depth:.2f}\" inside '{piece}' and no clear spot is on its path or within "
                        f"{SEARCH_RADIUS_IN:g}\" of it: it stays where it stopped (EC-TER-BUILDING)")
            figures.update(inside_in=depth, moved_in=0.0, along_path=False, clear=False)
        else:
            rests_at, moved_in, along = found
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


def _clear_pose_along(move: PlannedMove, facts: Facts, pose: Pose, base, table: RestChecks, step: float
                      ) -> tuple[Pose, float, bool] | None:
    """The nearest pose back along the move's path from ``pose`` whose base is clear
    (:func:`is_clear`) at the level it rode there (on a roof it rode off, the roof), how far back
    (inches) and True; when no point of the path is clear (a path that scraped a wall all along),
    the nearest clear spot around ``pose`` (:func:`_clear_pose_around`), how far and False; None
    when there is none either."""
    path = np.asarray(move.path, float)
    steps = np.hypot(*np.diff(path, axis=0).T) if len(path) > 1 else np.zeros(0)
    lengths = np.concatenate([[0.0], np.cumsum(steps)])
    nearest = int(np.argmin(np.hypot(*(path - pose.xy).T)))
    for k in range(nearest, -1, -1):
        ridden = facts.level_at(float(lengths[k]))[1] if len(facts.ground) else pose.z
        level = table.rest_level(path[k], ridden)
        candidate = Pose(float(path[k, 0]), float(path[k, 1]), normalize_deg(float(move.headings_deg[k])), level)
        if is_clear(candidate, base, table, step):
            return candidate, float(lengths[nearest] - lengths[k]), True
    around = _clear_pose_around(pose, base, table, step)
    if around is None:
        return None
    return around, float(np.hypot(around.x - pose.x, around.y - pose.y)), False


def is_clear(pose: Pose, base, table: RestChecks, step: float) -> bool:
    """Whether a base at ``pose`` (its z the level it rests on) may rest there: no solid under it
    at that level, and no point of its outline more than ``step`` (inches) above the surface under
    that point (a base perched on a narrow piece, or half over a roof's edge, is not). On a ramp
    the base lies along the slope, its ends above and below its centre's level by more than a step
    (a 1:3 ramp under a 2.95" base: 0.49"), so there only solids count."""
    outline = base.outline(pose, samples=48)
    if table.solid_under_base(outline, pose.z) is not None:
        return False
    if table.touches(np.array([pose.xy]), "ramp"):
        return True
    return bool(np.all(pose.z - table.rest_levels(outline[::3], pose.z) <= step))


#: how far (inches) and in how fine steps the last resort looks around a pose for a clear spot
SEARCH_RADIUS_IN, SEARCH_STEP_IN, SEARCH_DIRECTIONS = 4.0, 0.1, 24


def _clear_pose_around(pose: Pose, base, table: RestChecks, step: float) -> Pose | None:
    """The nearest spot around ``pose`` (same heading, rings :data:`SEARCH_STEP_IN` apart) where the
    base is clear (:func:`is_clear`); None if none is within :data:`SEARCH_RADIUS_IN`."""
    angles = np.linspace(0.0, 2.0 * np.pi, SEARCH_DIRECTIONS, endpoint=False)
    for radius in np.arange(SEARCH_STEP_IN, SEARCH_RADIUS_IN + 1e-9, SEARCH_STEP_IN):
        for angle in angles:
            xy = pose.xy + radius * np.array([np.cos(angle), np.sin(angle)])
            level = table.rest_level(xy, pose.z)
            candidate = Pose(float(xy[0]), float(xy[1]), pose.facing_deg, level)
            if is_clear(candidate, base, table, step):
                return candidate
    return None
