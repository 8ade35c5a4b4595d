"""Rendering speed and memory, run on demand: ``python benchmarks/bench_render.py [SCENE]``.

Prints, for the software (tiny) backend and for headless GL when it works here:
- set-up time of a TableRenderer (scene graph, bike models, shadows);
- frames per second at three sizes while miniatures move every frame (the video workload);
- resident memory growth over many frames, and over many renderer create/close cycles
  (ShowBase leaks a few MB per cycle; this renderer should not).
No pass/fail: the figures and ratios are for people comparing changes.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from entropy3d.geometry import Pose
from entropy3d.render import TableRenderer
from entropy3d.render.backend import gl_works
from entropy3d.resources import default_scene
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry


def rss_mb() -> float:
    """Current resident set size in MB (Linux /proc), falling back to the peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def frames_per_second(renderer: TableRenderer, frames: int) -> float:
    poses = dict(renderer.model_poses)
    started = time.perf_counter()
    for k in range(frames):
        for model_id, pose in poses.items():
            renderer.place_model(model_id, pose.moved(forward_in=0.05 * k, turn_deg=k))
        renderer.render_to_array()
    return frames / (time.perf_counter() - started)


def main(scene_path: str | None = None) -> None:
    table = load_scene(scene_path or default_scene())
    geometry = build_table_geometry(table)
    backends = ["tiny"] + (["gl"] if gl_works() else [])
    print(f"scene {table.name!r}: {len(geometry.pieces)} pieces, {len(table.models)} miniatures; "
          f"backends: {', '.join(backends)}")
    for backend in backends:
        started = time.perf_counter()
        with TableRenderer(table, (1280, 720), geometry=geometry, backend=backend):
            set_up = time.perf_counter() - started
        print(f"\n[{backend}] renderer set-up (1280x720): {set_up:.2f} s")
        base_fps = None
        for size in ((640, 360), (1280, 720), (1920, 1080)):
            with TableRenderer(table, size, geometry=geometry, backend=backend) as renderer:
                renderer.render_to_array()
                fps = frames_per_second(renderer, 20)
            base_fps = base_fps or fps
            print(f"[{backend}] {size[0]}x{size[1]}: {fps:6.1f} frames/s  ({fps / base_fps:.2f} x the 640x360 rate)")

        with TableRenderer(table, (640, 360), geometry=geometry, backend=backend) as renderer:
            frames_per_second(renderer, 10)
            before = rss_mb()
            frames_per_second(renderer, 200)
            print(f"[{backend}] memory over 200 frames: {rss_mb() - before:+.1f} MB")

        cycles = 20
        with TableRenderer(table, (320, 180), geometry=geometry, backend=backend) as renderer:
            renderer.render_to_array()
        before = rss_mb()
        for _ in range(cycles):
            with TableRenderer(table, (320, 180), geometry=geometry, backend=backend) as renderer:
                renderer.place_model(table.models[0].id, Pose(1, 1, 0, 0)) if table.models else None
                renderer.render_to_array()
        print(f"[{backend}] memory over {cycles} renderer create/close cycles: "
              f"{(rss_mb() - before) / cycles:+.2f} MB per cycle")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
