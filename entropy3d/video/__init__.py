"""Replays rendered headless into videos (MP4 H.264, GIF) with a HUD and title cards.

:func:`render_video` (replay, output, options, progress) -> path; :class:`VideoOptions`.
Rendering reads only the replay: it never runs physics. Frames come from
:mod:`entropy3d.render` (this package never imports panda3d itself).
"""

from entropy3d.video.cut import count_frames, video_duration_s
from entropy3d.video.movie import FORMATS, ReplayFilm, VideoOptions
from entropy3d.video.writing import render_video

__all__ = ["FORMATS", "ReplayFilm", "VideoOptions", "count_frames", "render_video", "video_duration_s"]
