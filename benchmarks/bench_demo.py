"""Demo benchmarks (run on demand, not a test): long automatic games and video rendering.

    python benchmarks/bench_demo.py [--turns 100] [--seed 1] [--video-turns 3] [--size 1280x720]

1. Long automatic games with the physics producer on the default scene, until ``--turns`` turns
   have been played (a game ends early when one gang is wiped out; the next seed goes on).
   Every activation is checked: no NaN, every bike in play on the table and outside every solid
   piece, and the process's memory is printed after each game (it must not grow without bound).
2. The demo video: a ``--video-turns`` game rendered to MP4; prints wall seconds per second
   of video for playing and for rendering.

``video_rows`` is issue 17's video row for ``bench_all.py``: wall seconds to render and encode a
short replay (one activation of a seeded game) per second of video at 720p, against the floor of
the same run: a bare 720p frame of the table renderer plus an x264 encode of it at the video's preset, per
second of video.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared rows.py
from rows import MIN_REPEAT, row  # noqa: E402


def rss_mb() -> float:
    """Resident memory of this process now, MB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def check_activation(activation, probe) -> list[str]:
    problems = []
    for bike in activation.state_after.models.values():
        pose = np.array([bike.pose.x, bike.pose.y, bike.pose.z, bike.pose.facing_deg])
        if not np.isfinite(pose).all():
            problems.append(f"{bike.id}: pose {pose}")
        if not bike.in_play:
            continue
        if probe.off_table(bike.pose.xy[None, :], margin=-0.5)[0] and bike.air is None:
            problems.append(f"{bike.id}: off the table at {bike.pose!r}")
        if probe.blocked(bike.pose.xy[None, :], bike.pose.z + 0.05)[0]:
            problems.append(f"{bike.id}: inside a solid piece at {bike.pose!r}")
    for action in activation.actions:
        if len(action.trajectory) and not np.isfinite(action.trajectory).all():
            problems.append(f"{activation.model_id}: NaN in trajectory")
    return problems


def long_games(turns: int, seed: int) -> None:
    from entropy3d.game import play_game
    from entropy3d.resources import default_scene
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe

    table = load_scene(default_scene())
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    played, activations, problems, start = 0, 0, [], time.perf_counter()
    print(f"long games on {table.name}: physics producer, until {turns} turns are played")
    while played < turns:
        game_start = time.perf_counter()
        replay = play_game(None, seed=seed, turns=turns - played, producer="physics")
        for activation in replay.activations:
            problems += [f"seed {seed}, turn {activation.turn}: {p}" for p in check_activation(activation, probe)]
        played += replay.end.turns_played
        activations += len(replay.activations)
        gc.collect()
        print(f"  seed {seed}: {replay.end.turns_played} turns, {len(replay.activations)} activations, "
              f"{replay.end.reason}, {time.perf_counter() - game_start:.1f} s, RSS {rss_mb():.0f} MB")
        seed += 1
        if replay.end.turns_played == 0:
            break
    elapsed = time.perf_counter() - start
    print(f"  total: {played} turns, {activations} activations in {elapsed:.1f} s "
          f"({elapsed / max(1, activations):.2f} s per activation); problems: {len(problems)}")
    for problem in problems[:20]:
        print(f"    {problem}")


def video(turns: int, seed: int, size: tuple[int, int]) -> None:
    from entropy3d.game import play_game
    from entropy3d.video import VideoOptions, render_video, video_duration_s

    start = time.perf_counter()
    replay = play_game(None, seed=seed, turns=turns, producer="physics")
    played = time.perf_counter() - start
    options = VideoOptions(size=size)
    seconds = video_duration_s(replay, options)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        render_video(replay, Path(folder) / "demo.mp4", options)
        rendered = time.perf_counter() - start
    print(f"demo video: {turns} turns, {len(replay.activations)} activations, {seconds:.1f} s of video at "
          f"{size[0]}x{size[1]} {options.fps} fps")
    print(f"  playing (physics): {played:.1f} s; rendering + encoding: {rendered:.1f} s")
    print(f"  wall seconds per second of video: rendering {rendered / seconds:.2f}, "
          f"all (play + render) {(played + rendered) / seconds:.2f}")


def frame_floor_s(options, frames: int = 30, previous_look: bool = False) -> float:
    """Wall seconds per video second of the bare work: ``frames`` table frames with the bikes
    moving (TableRenderer.render_to_array, the video's size, supersampling and backend) plus
    encoding them with x264 at the video's preset, times the video's frames per second.
    ``previous_look``: the table in flat colours, not anti-aliased (issue 43's floor: the same
    frames as drawn before the table was painted)."""
    import imageio_ffmpeg

    from entropy3d.render import TableRenderer
    from entropy3d.resources import default_scene
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.video.encode import X264_PRESET

    table = load_scene(default_scene())
    rendered = []
    size = options.size
    with TableRenderer(table, size, geometry=build_table_geometry(table), title="",
                       supersample=1 if previous_look else options.supersample, backend=options.backend,
                       painted=not previous_look) as renderer:
        poses = dict(renderer.model_poses)
        renderer.render_to_array()
        started = time.perf_counter()
        for k in range(frames):
            for model_id, pose in poses.items():
                renderer.place_model(model_id, pose.moved(forward_in=0.05 * k, turn_deg=k))
            rendered.append(renderer.render_to_array())
        render_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        writer = imageio_ffmpeg.write_frames(str(Path(folder) / "floor.mp4"), size, fps=options.fps, codec="libx264",
                                             pix_fmt_out="yuv420p", quality=None, macro_block_size=1,
                                             ffmpeg_log_level="error", output_params=["-preset", X264_PRESET])
        writer.send(None)
        started = time.perf_counter()
        for frame in rendered:
            writer.send(np.ascontiguousarray(frame))
        writer.close()
        encode_s = time.perf_counter() - started
    return (render_s + encode_s) / frames * options.fps


def _timed(replay, options, seconds: float, repeat: int, previous_look: bool = False) -> tuple[float, float]:
    """(median wall seconds per video second of ``repeat`` renders of ``replay``, median of
    :func:`frame_floor_s` (``previous_look`` passed on) measured after each render: the same
    spells of the machine)."""
    import statistics

    from entropy3d.video import render_video

    values, floors = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            render_video(replay, Path(folder) / "film.mp4", options)
            values.append((time.perf_counter() - started) / seconds)
        floors.append(frame_floor_s(options, previous_look=previous_look))
    return statistics.median(values), statistics.median(floors)


def video_rows(repeat: int = 5, size: tuple[int, int] = (1280, 720), seed: int = 7) -> list[dict]:
    """Issue 17's video row: render + encode wall seconds per video second, median of ``repeat``
    renders of the first activation of a seeded game, against :func:`frame_floor_s` measured
    between the renders (same run)."""
    import dataclasses

    from entropy3d.game import play_game
    from entropy3d.video import VideoOptions, video_duration_s

    replay = play_game(None, seed=seed, turns=1, producer="geometric")
    replay = dataclasses.replace(replay, activations=replay.activations[:1])
    options = VideoOptions(size=size)
    seconds = video_duration_s(replay, options)
    value, floor = _timed(replay, options, seconds, max(repeat, MIN_REPEAT))
    return [row(f"demo video {size[0]}x{size[1]} ({seconds:.0f} s clip)", value, floor,
                "<= 0.7 wall s per video second", "wall s/s", value <= 0.7)]


def film_rows(repeat: int = 3, size: tuple[int, int] = (1280, 720), seed: int = 7) -> list[dict]:
    """Issue 43's film row: wall seconds to render and encode the short cut (``entropy3d demo``'s
    default: the painted table, 1.5x supersampled, every held shot drawn again as the camera
    drifts, no frame reused) per film second, of a seeded one-turn game, median of ``repeat``,
    against :func:`frame_floor_s` with the previous look (flat colours, no anti-aliasing)
    measured between the renders (same run). Target: 1.5."""

    from entropy3d.cli.demo_commands import SUPERSAMPLE
    from entropy3d.game import play_game
    from entropy3d.video import VideoOptions, video_duration_s
    from entropy3d.video.cut import short_kbps

    replay = play_game(None, seed=seed, turns=1, producer="geometric")
    options = VideoOptions(size=size, cut="short", max_kbps=short_kbps(size), supersample=SUPERSAMPLE)
    seconds = video_duration_s(replay, options)
    value, floor = _timed(replay, options, seconds, max(repeat, 1), previous_look=True)
    return [row(f"short film {size[0]}x{size[1]} ({seconds:.0f} s, 1 turn)", value, floor,
                "<= 1.5 wall s per film second", "wall s/s", value <= 1.5)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--video-turns", type=int, default=3)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--skip-long", action="store_true")
    parser.add_argument("--skip-video", action="store_true")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    if not args.skip_video:
        video(args.video_turns, 7, (width, height))
    if not args.skip_long:
        long_games(args.turns, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
