"""The film's tags of a mission's NPCs (EC-MISSION-JAIL, EC-MISSION-RESCUE): an NPC has no
miniature, so each frame tags it by name where :func:`~entropy3d.look.npc_marks.npc_marks` says it
is: over the jail while locked in, standing where it waits (a dot on the table under its tag), or
over its holder as it rides, above the holder's own name plate when that is shown."""

from __future__ import annotations

import numpy as np

from entropy3d.look import labels
from entropy3d.look.npc_marks import npc_marks, shown_state

#: how far above a model's base its name plate stands (inches): over a rider's head
PLATE_HEIGHT_IN = 2.2
#: how far above where it stands an NPC's tag stands (inches): a figure's height
STANDING_TAG_IN = 1.6
#: an NPC standing this near a model whose name plate is shown (inches) has its tag over the plate
#: (the prisoner dropped by Brakes, taken out, covered Brakes's plate in jailbreak's film, seed 1)
NEAR_IN = 2.5


def draw_npc_tags(film, frame: np.ndarray, activation, index: int, at: np.ndarray, after: bool,
                  named: frozenset[str] = frozenset()) -> np.ndarray:
    """``frame`` of ``film`` (a :class:`~entropy3d.video.movie.ReplayFilm`) with the tags of the
    NPCs in play as the ``index``-th action of ``activation`` is shown (``after``: its ride is
    over, :func:`shown_state`); the acting model stands at ``at`` (inches), the others where the
    renderer placed them; ``named``: the models whose name plates this frame draws."""
    state = shown_state(activation, index, after) if activation.actions else activation.state_before
    marks = npc_marks(state, film.table.spec, film.words, film.geometry)
    if not marks:
        return frame
    height, width = frame.shape[:2]
    rise = labels.plate_rise(width, height)
    tags = []
    for mark in marks:
        if mark.holder is not None:
            pose = film.renderer.model_poses.get(mark.holder)
            base = at if mark.holder == activation.model_id else (
                np.array([pose.x, pose.y, pose.z]) if pose is not None else np.array(mark.at))
            (column, row), = film.renderer.project([np.asarray(base, float) + [0.0, 0.0, PLATE_HEIGHT_IN]])
            lift = rise if mark.holder in named else 0
            foot = None
        else:
            (column, row), foot = film.renderer.project([np.asarray(mark.at) + [0.0, 0.0, STANDING_TAG_IN],
                                                         mark.at])
            # dropped where a named model stands (its holder taken out): over that model's plate
            lift = rise if any(np.hypot(pose.x - mark.at[0], pose.y - mark.at[1]) < NEAR_IN
                               for model, pose in film.renderer.model_poses.items() if model in named) else 0
        if np.isfinite([column, row]).all() and 0 <= column < width and 0 <= row < height:
            # only on the frame: a name plate kept at the frame's edge names the acting model, but
            # an NPC out of the shot piled its tag in a corner (the film of rescue_survive, seed 1)
            tags.append(labels.NpcTag(mark.label, mark.colour, (float(column), float(row) - lift),
                                      None if foot is None or not np.isfinite(foot).all() else tuple(map(float, foot))))
    return labels.draw_npc_tags(frame, tags)
