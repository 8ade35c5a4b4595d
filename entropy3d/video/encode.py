"""Frames to a file: H.264 MP4 through imageio-ffmpeg's bundled ffmpeg, or an animated GIF.

Shared by the replay film (:mod:`entropy3d.video.movie`) and the highlights reel
(:mod:`entropy3d.video.reel`); the caller owns the atomic output file.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from entropy3d.video.hud import HeldFrames, LaidFrame

if TYPE_CHECKING:
    from entropy3d.video.movie import VideoOptions


#: superfast at crf 32 matches veryfast at crf 28 (SSIM 0.962 vs 0.961 on the frames of a 17 s demo
#: clip; veryfast at 28 matched medium at 32) for about 2/3 of the encoder's instructions, and the
#: encoder shares two cores with the renderer. Files are ~1.6x as large where the picture moves
#: (1.5 MB for that clip); the default demo, mostly held shots, stays at ~4.5 MB a minute
X264_PRESET = "superfast"
#: frames drawn ahead of the encoder (each 2.7 MB at 720p): enough to keep both cores busy
FRAMES_IN_FLIGHT = 8
#: x264 on one thread: the same pictures as on its default thread pool (every decoded frame of a
#: 240-frame demo clip equal, the files as large), and on two cores shared with the renderer a 17 s
#: clip takes 10.4 s instead of 12.1 (x264's threads, ~3 on two cores, competed with the drawing;
#: 9% less encoder CPU too). One thread encodes a 720p frame in ~8.5 ms, ahead of the ~20 ms drawing
#: one takes
X264_THREADS = 1


def write_mp4(frames: Iterable[np.ndarray | LaidFrame], path: Path, options: VideoOptions, total: int,
              progress: Callable[[int, int], None] | None) -> None:
    """Encode ``frames`` ((H, W, 3) uint8 at ``options.size``, or a HUD still to be laid on) as
    H.264 into ``path``; drawing and encoding overlap, so both cores work: a feeder thread lays
    each frame's HUD on and hands it to ffmpeg. progress: (frames done, total)."""
    import imageio_ffmpeg

    width, height = options.size
    writer = imageio_ffmpeg.write_frames(str(path), (width, height), fps=options.fps, codec="libx264",
                                         pix_fmt_out="yuv420p", quality=None, macro_block_size=1,
                                         ffmpeg_log_level="error",
                                         output_params=["-crf", str(options.crf), "-preset", X264_PRESET, "-tune",
                                                        "animation", "-threads", str(X264_THREADS),
                                                        *_rate_cap(options), "-movflags", "+faststart"])
    writer.send(None)
    pending: queue.Queue = queue.Queue(maxsize=FRAMES_IN_FLIGHT)
    failures: list[BaseException] = []

    def feed_encoder() -> None:
        """Lay each frame's HUD on and hand it to ffmpeg on this thread, so that drawing the next
        frame never waits on either; after a failure, keep taking frames so the drawing side is
        never stuck."""
        finish = HeldFrames()
        while (frame := pending.get()) is not None:
            if failures:
                continue
            try:
                writer.send(np.ascontiguousarray(finish(frame)))
            except BaseException as error:  # re-raised on the drawing thread
                failures.append(error)

    feeder = threading.Thread(target=feed_encoder, name="mp4-encoder-feed", daemon=True)
    feeder.start()
    try:
        for k, frame in enumerate(frames, start=1):
            if failures:
                break
            pending.put(frame)
            if progress is not None:
                progress(k, total)
    finally:
        pending.put(None)
        feeder.join()
        writer.close()
    if failures:
        raise failures[0]


def _rate_cap(options: VideoOptions) -> list[str]:
    """x264's rate cap (VBV) when the options set one: the picture keeps crf's quality wherever
    that fits under ``max_kbps``, and only the busiest seconds are coarser, so a film's size has a
    bound (seconds x max_kbps) whatever moves in it. The buffer holds two seconds."""
    if options.max_kbps is None:
        return []
    return ["-maxrate", f"{options.max_kbps}k", "-bufsize", f"{2 * options.max_kbps}k"]


def write_gif(frames: Iterable[np.ndarray | LaidFrame], path: Path, options: VideoOptions, total: int,
              progress: Callable[[int, int], None] | None) -> None:
    """Write every ``options.fps / options.gif_fps``-th of ``frames`` as a looping GIF (128 colours)."""
    from PIL import Image

    step = max(1, round(options.fps / options.gif_fps))
    finish, images = HeldFrames(), []
    for k, frame in enumerate(frames, start=1):
        if (k - 1) % step == 0:
            images.append(Image.fromarray(finish(frame)).quantize(colors=128, method=Image.Quantize.MEDIANCUT))
        if progress is not None:
            progress(k, total)
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], loop=0,
                   duration=round(1000 * step / options.fps), disposal=1)
