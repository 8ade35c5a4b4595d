"""A crashed bike's fall as the film shows it: physics' tumble from the crash contact
(:mod:`entropy3d.physics.tumble`, stored as ``Facts.tumble``), played after the ride when the rules
did not let the rider ride the crash out, before the film stands the bike where the rules put it.
It decides nothing: whether the rider rode it out is the crash event's ``survived``."""

from __future__ import annotations

import math

import numpy as np

#: the slowest a crashed bike's fall is played (a key moment's half speed would hold it 3.2 s)
FALL_RATE = 0.6
#: how much narrower the view grows as a fall starts (a third of its frames): the ride's camera
#: frames the whole move, where a bike going down is a few pixels
FALL_ZOOM = 0.45
#: seconds the fallen bike and a ghost at the rules' pose stand side by side before the film
#: stands the bike where the rules put it
SNAP_S = 0.7


def fall_of(action, events) -> np.ndarray | None:
    """The fall the film shows after a ride: physics' tumble from the crash contact
    (``Facts.tumble``) when the rules did not let the rider ride the crash out (a crash, a bust);
    None for a survived crash (it "rides it out": the picture must not say otherwise), for a
    producer with no dynamics, or for no crash at all."""
    tumble = action.facts.tumble if action.facts is not None else None
    if tumble is None or not any(e.kind in ("crash", "bust") for e in events):
        return None
    if any(e.kind == "crash" and e.figures.get("survived") for e in events):
        return None
    return tumble


def playback_frames(tumble: np.ndarray, rate: float, fps: int) -> int:
    """Frames a fall plays over, at ``rate`` but no slower than :data:`FALL_RATE`."""
    return math.ceil(float(tumble[-1, 0]) / max(rate, FALL_RATE) * fps)


def falling_frames(action, events, rate: float, fps: int) -> int:
    """Frames the fall (:func:`fall_of`) takes after the ride: its playback, then
    :data:`SNAP_S` with the fallen bike and the rules' pose side by side; 0 when there is none."""
    tumble = fall_of(action, events)
    return 0 if tumble is None else playback_frames(tumble, rate, fps) + round(SNAP_S * fps)


def tumble_matrix(tumble: np.ndarray, t_s: float) -> np.ndarray:
    """The miniature's 4x4 transform (inches) ``t_s`` seconds into its tumble: the nearest
    recorded row (60 a second)."""
    row = tumble[int(np.clip(np.searchsorted(tumble[:, 0], t_s), 0, len(tumble) - 1))]
    x, y, z, w = row[4:8]
    matrix = np.eye(4)
    matrix[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    matrix[:3, 3] = row[1:4]
    return matrix
