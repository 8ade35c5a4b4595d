"""The film's synthesised sound track (entropy3d.video.sound, issue 43): heard where the picture
shows it, the same bytes for the same replay, muxed as AAC as long as the picture, and left out
with --no-sound."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from entropy3d.game.records import action_events
from entropy3d.video.cut import ShortFilm
from entropy3d.video.jumpshot import ride_clock
from entropy3d.video.movie import VideoOptions
from entropy3d.video.sound import RATE, film_track


def short_film(replay) -> ShortFilm:
    return ShortFilm(replay, VideoOptions(size=(96, 54), cut="short"))


def rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(samples ** 2)))


def test_the_track_is_the_same_bytes_for_the_same_film(default_demo):
    tracks = []
    for _ in range(2):
        film = short_film(default_demo)
        try:
            tracks.append(film_track(film))
        finally:
            film.close()
    assert len(tracks[0]) == sum(s.frames for s in film.segments) * RATE // film.options.fps
    assert tracks[0].tobytes() == tracks[1].tobytes()


def test_a_crash_is_heard_as_the_picture_reaches_it(default_demo):
    """Each crash of the cut, at the frame its ride reaches it, is far louder than the quiet
    title under it and than the second before it."""
    film = short_film(default_demo)
    try:
        track = film_track(film)
        fps, options = film.options.fps, film.options
        per_frame = RATE // fps
        quiet = rms(track[:film.segments[0].frames * per_frame])
        start, heard = 0, 0
        for segment in film.segments:
            if segment.kind == "action":
                activation = default_demo.activations[segment.activation]
                action = activation.actions[segment.action]
                ride_s = (min(float(action.trajectory[-1, 0]), options.max_action_s) if len(action.trajectory)
                          else 0.0)
                clock = ride_clock(ride_s, segment.rate, segment.flight, options.flight_rate, fps)
                for event in action_events(activation, segment.action):
                    if event.kind != "crash":
                        continue
                    at = (start + int(np.searchsorted(clock, event.t_s))) * per_frame
                    after, before = track[at:at + RATE // 4], track[max(0, at - RATE):at - RATE // 20]
                    assert rms(after) > 8 * quiet and rms(after) > 2 * rms(before), (segment, rms(after), quiet)
                    heard += 1
            start += segment.frames
    finally:
        film.close()
    assert heard >= 2  # the default demo's cut has a side-on and a head-on crash


def streams(path) -> tuple[list[str], float]:
    """(the stream lines, the duration in seconds) ffmpeg reads in a file."""
    import imageio_ffmpeg

    said = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-i", str(path)],
                          capture_output=True, text=True).stderr
    hours, minutes, seconds = re.search(r"Duration: (\d+):(\d+):([\d.]+)", said).groups()
    return re.findall(r"Stream #\S+: (\w+: \w+)", said), int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def test_the_film_has_an_aac_track_as_long_as_its_picture_and_no_sound_leaves_it_out(default_demo_path, tmp_path):
    """The default demo's film carries its sound track, as long as the picture (60-90 s); with
    --no-sound a film has a picture only (shown on a one-turn game of the small table: the flag
    leaves the track out whatever the game)."""
    from entropy3d.game.session import play_game

    short = tmp_path / "short.jsonl"
    play_game(Path(__file__).parents[1] / "data" / "small_table.yaml", seed=3, turns=1, producer="geometric",
              replay_path=short)
    for replay, flags, expected, length in ((default_demo_path, [], ["Video: h264", "Audio: aac"], (60, 90)),
                                            (short, ["--no-sound"], ["Video: h264"], (5, 90))):
        out = tmp_path / f"film{len(flags)}.mp4"
        result = subprocess.run([sys.executable, "-m", "entropy3d", "replay-render", str(replay),
                                 "-o", str(out), "--size", "96x54", *flags], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        found, seconds = streams(out)
        assert found == expected and length[0] <= seconds <= length[1], (found, seconds)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["film0.mp4", "film1.mp4", "short.jsonl"]  # no part files
