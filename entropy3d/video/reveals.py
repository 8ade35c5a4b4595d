"""Models an action brings onto the table, shown as it settles (Entropy City's Ambush).

An ambusher waits off the table (EC-TRAIT-AMBUSH) and comes on in an enemy's action: the film
stands it on its true token as that action's ride ends, where the rules put it, rather than at the
start of the next activation, so the reveal is seen with the words that tell it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.state import ModelState, State


def revealed(events: Sequence[Event], state: State) -> list[ModelState]:
    """The models ``events`` reveal (an ambush sprung), as ``state`` (the state after the
    activation: they come on in it and act only later) has them; only those in play there."""
    ids = [e.model for e in events if e.figures.get("ambush") == "revealed"]
    return [state.model(i) for i in dict.fromkeys(ids) if i in state.models and state.model(i).in_play]


def show_revealed(renderer, events: Sequence[Event], state: State) -> list[ModelState]:
    """Stand each model ``events`` reveal where ``state`` has it (``renderer``: the film's); the
    models shown."""
    shown = revealed(events, state)
    for model in shown:
        renderer.show_model(model.id, True)
        renderer.place_model(model.id, model.pose)
    return shown


def reveal_framing(plan, point: np.ndarray, shown: Sequence[ModelState]):
    """The point to look at and the camera plan (a :class:`~entropy3d.video.director.CameraPlan`)
    that keep the rider at ``point`` (x, y, z inches) and the models ``shown`` in one shot: the
    midpoint of them all, from far enough back that the widest of them sits inside the middle
    half of the view (the HUD's panels cover the edges); ``point`` and ``plan`` as they are when
    nothing was shown."""
    if not shown:
        return point, plan
    points = np.vstack([point] + [[m.pose.x, m.pose.y, m.pose.z + 0.5] for m in shown])
    middle = points.mean(axis=0)
    spread = float(np.hypot(*(points[:, :2] - middle[:2]).T).max())
    far = 2.0 * spread / math.tan(math.radians(plan.fov_deg / 2.0))
    return middle, dataclasses.replace(plan, distance_in=max(plan.distance_in, far))
