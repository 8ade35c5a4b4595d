"""A jump in the video: a fixed camera from the side, slow motion through the flight, and the
ride's profile (height against distance along the path) as an inset with the bike's dot moving
along it (laid on each frame by :class:`~entropy3d.video.hud.LaidFrame`).

Everything is read from the replay's action record (its facts' flight and trajectory), never
re-simulated. Times are depicted seconds of the ride, lengths table inches.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.systems.words import Names

#: the inset's share of the frame's width and height, and its top edge as a share of the height
INSET_SHARE = (0.38, 0.22)
INSET_TOP_SHARE = 0.13


def flight_window(action, ride_s: float) -> tuple[float, float] | None:
    """(take-off, touchdown or the ride's end) seconds of the action's first flight that starts
    within the shown ride, or None when the bike never left the ground."""
    if action.facts is None or not action.facts.flights:
        return None
    flight = action.facts.flights[0]
    if flight.launch_t_s >= ride_s:
        return None
    end = flight.land_t_s if flight.landed else ride_s
    return float(flight.launch_t_s), float(min(end, ride_s))


def ride_clock(ride_s: float, rate: float, window: tuple[float, float] | None, flight_rate: float,
               fps: int) -> np.ndarray:
    """The ride time (seconds) shown at each frame: played at ``rate`` times speed, and at
    ``flight_rate`` inside ``window`` (take-off to touchdown), ending on ``ride_s``."""
    if ride_s <= 0:
        return np.zeros(0)
    start, end = window if window is not None else (ride_s, ride_s)
    start, end = min(max(start, 0.0), ride_s), min(max(end, 0.0), ride_s)
    # wall-clock seconds at the window's edges and at the end
    wall = np.array([0.0, start / rate, start / rate + (end - start) / flight_rate,
                     start / rate + (end - start) / flight_rate + (ride_s - end) / rate])
    ride = np.array([0.0, start, end, ride_s])
    frames = max(1, math.ceil(wall[-1] * fps))
    return np.minimum(np.interp(np.arange(frames) / fps, wall, ride), ride_s)


class ProfileInset:
    """The action's profile drawn once (:func:`~entropy3d.activation.profile.draw_profile`) at
    ``size`` pixels; :meth:`at` gives it with a dot where the bike is at a ride time."""

    def __init__(self, table, geometry, activation, index: int, size: tuple[int, int]):
        from entropy3d.activation.key import ColourKey
        from entropy3d.activation.profile import draw_profile
        from entropy3d.activation.story import RideStory

        self.story = RideStory.from_record(activation, index, table.ruleset)
        base = Image.new("RGB", size, (30, 32, 38))
        self.axes = draw_profile(ImageDraw.Draw(base), geometry, self.story, ColourKey(self.story.facts.producer),
                                 (0, 0, size[0] - 1, size[1] - 1), Names.of_table(table))
        self.base = base
        trajectory = self.story.trajectory
        self.times, self.distances, self.heights = trajectory[:, 0], self.story.distances, trajectory[:, 3]

    def at(self, t: float) -> Image.Image:
        image = self.base.copy()
        s = float(np.interp(t, self.times, self.distances))
        z = float(np.interp(t, self.times, self.heights))
        x, y = self.axes.px(s, z)
        ImageDraw.Draw(image).ellipse([x - 7, y - 7, x + 7, y + 7], fill=(255, 255, 255), outline=(0, 0, 0),
                                      width=2)
        return image


def inset_box(frame_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """(left, top, width, height) of the inset in a frame of ``frame_size``: on the right, under
    the score panel, clear of the heading and the bike's panel."""
    width, height = frame_size
    w, h = int(width * INSET_SHARE[0]), int(height * INSET_SHARE[1])
    pad = max(4, int(14 * height / 720))
    return width - w - pad, int(height * INSET_TOP_SHARE), w, h
