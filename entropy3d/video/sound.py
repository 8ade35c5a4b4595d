"""The film's sound track, synthesised from the replay (no samples, nothing of anyone else's).

Every sound is numpy arithmetic on what the film shows, frame by frame, in the film's own
timing (its segments and :func:`~entropy3d.video.jumpshot.ride_clock`, as the pictures are
drawn), so it is the same bytes for the same replay and options:

- a low city hum under everything (brown noise), so the film never drops to digital silence;
- the riding bike's engine: a pulse of harmonics whose pitch follows its speed along the
  trajectory (inches a second), lower in slow motion as the picture is slower;
- a crash or a bust: a thump and a burst of noise as the picture reaches it; a shot or an
  attack: a sharp crack when the film stages it (the ride over); a takedown: a deeper boom;
  a jump's touchdown: a thud.

The track is muxed as AAC (:data:`AAC_KBPS`) beside the H.264 picture by the same ffmpeg.
"""

from __future__ import annotations

import math
import wave
from pathlib import Path

import numpy as np

from entropy3d.game.records import action_events
from entropy3d.systems.words import rolled_an_attack
from entropy3d.video.jumpshot import ride_clock

#: samples a second of the synthesised track, and the AAC bit rate it is muxed at (kbit/s)
RATE = 48_000
AAC_KBPS = 64
#: the engine's pitch: Hz at a standstill and per inch a second of the bike's speed
ENGINE_HZ = 42.0
ENGINE_HZ_PER_IN_S = 0.9
#: loudness (peak share of full scale) of each sound
HUM, ENGINE, IMPACT, CRACK, BOOM, THUD = 0.04, 0.16, 0.7, 0.5, 0.8, 0.35
#: the seed of the noise the sounds are made of: fixed, so a film's track is the same every time
NOISE_SEED = 43


def _decay(count: int, seconds: float) -> np.ndarray:
    return np.exp(-np.arange(count) / (seconds * RATE))


def _lowpass(signal: np.ndarray, hz: float) -> np.ndarray:
    """A one-pole low-pass (an RC filter) at ``hz``: y[k] = y[k-1] + alpha (x[k] - y[k-1])."""
    from scipy.signal import lfilter

    alpha = 1.0 - math.exp(-2.0 * math.pi * hz / RATE)
    return lfilter([alpha], [1.0, alpha - 1.0], signal)


def _burst(kind: str, rng: np.random.Generator) -> np.ndarray:
    """One sound of ``kind`` (crash, crack, boom, thud), as samples."""
    if kind == "crash":
        count = int(0.7 * RATE)
        t = np.arange(count) / RATE
        thump = np.sin(2 * math.pi * 55.0 * t) * _decay(count, 0.12)
        grind = _lowpass(rng.standard_normal(count), 2500.0) * _decay(count, 0.25) * 3.0
        return IMPACT * np.clip(thump + grind, -1, 1)
    if kind == "crack":
        count = int(0.35 * RATE)
        snap = rng.standard_normal(count) * _decay(count, 0.03)
        body = _lowpass(rng.standard_normal(count), 400.0) * _decay(count, 0.12) * 4.0
        return CRACK * np.clip(snap + body, -1, 1)
    if kind == "boom":
        count = int(1.2 * RATE)
        t = np.arange(count) / RATE
        body = np.sin(2 * math.pi * (38.0 - 10.0 * t) * t) * _decay(count, 0.35)
        return BOOM * np.clip(body + _lowpass(rng.standard_normal(count), 300.0) * _decay(count, 0.4) * 4.0, -1, 1)
    count = int(0.3 * RATE)  # thud
    t = np.arange(count) / RATE
    return THUD * np.sin(2 * math.pi * 70.0 * t) * _decay(count, 0.07)


def _rumble(count: int, rng: np.random.Generator) -> np.ndarray:
    """Brown noise (a random walk) less its own tenth-of-a-second mean, which takes its drift
    out and leaves a low rumble, scaled to a peak of 1."""
    walk = np.cumsum(rng.standard_normal(count))
    window = RATE // 10
    sums = np.concatenate([[0.0], np.cumsum(walk)])
    low = np.clip(np.arange(count) - window // 2, 0, count)
    high = np.clip(np.arange(count) + window // 2, 0, count)
    rumble = walk - (sums[high] - sums[low]) / np.maximum(high - low, 1)
    return rumble / max(1e-9, float(np.abs(rumble).max()))


def _engine(speeds_in_s: np.ndarray, rate: float, fps: int, phase: float) -> tuple[np.ndarray, float]:
    """The engine under ``speeds_in_s`` (one a frame), pitched by ``rate`` (slow motion lower);
    returns the samples and the phase it ends on (the next frame's engine goes on from it)."""
    per_frame = RATE // fps
    hz = np.repeat((ENGINE_HZ + ENGINE_HZ_PER_IN_S * speeds_in_s) * max(rate, 0.25), per_frame)
    phases = phase + np.cumsum(2 * math.pi * hz / RATE)
    tone = (np.sin(phases) + 0.5 * np.sin(2 * phases + 0.3) + 0.33 * np.sin(3 * phases + 0.7)
            + 0.2 * np.sign(np.sin(phases / 2)))
    return ENGINE * tone / 2.0, float(phases[-1]) if len(phases) else phase


def _speeds(trajectory: np.ndarray, clock: np.ndarray) -> np.ndarray:
    """The bike's speed (inches a second) at each ride time of ``clock``."""
    if len(trajectory) < 2:
        return np.zeros(len(clock))
    t = trajectory[:, 0]
    steps = np.linalg.norm(np.diff(trajectory[:, 1:4], axis=0), axis=1) / np.maximum(np.diff(t), 1e-6)
    return np.interp(clock, 0.5 * (t[1:] + t[:-1]), steps)


def film_track(film) -> np.ndarray:
    """The sound track of ``film`` (a :class:`~entropy3d.video.movie.ReplayFilm` whose segments
    are planned), float samples in -1..1 at :data:`RATE`, as long as the film."""
    options = film.options
    fps = options.fps
    per_frame = RATE // fps
    total = sum(s.frames for s in film.segments)
    rng = np.random.default_rng(NOISE_SEED)
    track = np.zeros(total * per_frame)
    track += HUM * _rumble(len(track), rng)
    start = 0
    phase = 0.0
    for segment in film.segments:
        if segment.kind == "action":
            cues = _action_cues(film, segment, rng)
            engine, phase = _engine(cues[0], segment.rate, fps, phase)
            track[start * per_frame:start * per_frame + len(engine)] += engine[:len(track) - start * per_frame]
            for frame, kind in cues[1]:
                sound = _burst(kind, rng)
                at = (start + frame) * per_frame
                end = min(len(track), at + len(sound))
                if at < end:
                    track[at:end] += sound[:end - at]
        start += segment.frames
    return np.clip(track, -1.0, 1.0)


def _action_cues(film, segment, rng) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """(the engine's speed a frame over the ride, (frame, sound) of each event) of one action."""
    options = film.options
    activation = film.replay.activations[segment.activation]
    action = activation.actions[segment.action]
    trajectory = action.trajectory
    ride_s = min(float(trajectory[-1, 0]), options.max_action_s) if len(trajectory) else 0.0
    clock = ride_clock(ride_s, segment.rate, segment.flight, options.flight_rate, options.fps)
    speeds = _speeds(trajectory, clock)
    cues: list[tuple[int, str]] = []
    events = action_events(activation, segment.action)
    at_frame = (lambda t: int(np.searchsorted(clock, t))) if len(clock) else (lambda t: 0)
    for event in events:
        if event.kind == "crash" or event.kind == "bust":
            cues.append((at_frame(event.t_s), "crash"))
        elif event.kind == "landing" or (event.kind == "jump" and event.figures.get("air_time")):
            if segment.flight is not None:
                cues.append((at_frame(segment.flight[1]), "thud"))
        elif event.kind in ("attack", "shot") and (rolled_an_attack(event) or "hit" in event.figures):
            cues.append((segment.ride_frames, "crack"))
        elif event.kind == "wreck" or event.figures.get("taken_out"):
            cues.append((segment.ride_frames + options.fps // 2, "boom"))
    return speeds, sorted(set(cues))


def write_wav(samples: np.ndarray, path: Path) -> None:
    """``samples`` (-1..1) as 16-bit mono PCM at :data:`RATE`."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(np.round(samples * 32767).astype("<i2").tobytes())


def mux(picture: Path, sound: Path, output: Path) -> None:
    """The H.264 ``picture`` and the WAV ``sound`` into ``output``: the picture copied as it is,
    the sound encoded as AAC at :data:`AAC_KBPS`."""
    import subprocess

    import imageio_ffmpeg

    result = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error", "-i", str(picture),
                             "-i", str(sound), "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac",
                             "-b:a", f"{AAC_KBPS}k", "-shortest", "-movflags", "+faststart", "-f", "mp4",
                             str(output)], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"ffmpeg could not add the sound track: {result.stderr.strip()}")
