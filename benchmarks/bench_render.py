"""Rendering speed and memory, run on demand: ``python benchmarks/bench_render.py [SCENE]``.

Prints, for the software (tiny) backend and for headless GL when it works here:
- set-up time of a TableRenderer (scene graph, bike models, shadows);
- frames per second at three sizes while miniatures move every frame (the video workload);
- resident memory growth over many frames, and over many renderer create/close cycles
  (ShowBase leaks a few MB per cycle; this renderer should not).
No pass/fail: the figures and ratios are for people comparing changes.

``setup_rows`` is issue 17's set-up row for ``bench_all.py``: loading a scene with a 200k-triangle
STL and setting up its renderer (1280x720), against loading it alone, in the same run.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared rows.py
from rows import MIN_REPEAT, relief_tile_stl, row  # noqa: E402

from entropy3d.geometry import Pose  # noqa: E402
from entropy3d.render import TableRenderer  # noqa: E402
from entropy3d.render.backend import gl_works  # noqa: E402
from entropy3d.resources import default_scene  # noqa: E402
from entropy3d.scene import load_scene  # noqa: E402
from entropy3d.scene.build import build_table_geometry  # noqa: E402


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


#: the issue's big print: about 200k triangles (a 150 x 150 x 20 mm terrain tile)
BIG_PRINT_MM, BIG_PRINT_GRID = (150.0, 150.0, 20.0), 225


def setup_rows(repeat: int = 5) -> list[dict]:
    """Load + renderer set-up of crossroads with a 200k-triangle STL on it, against load alone
    (scene file, mesh and table geometry), wall ms medians from the same run."""
    import statistics
    import tempfile

    import yaml

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        stl = relief_tile_stl(folder / "big_print.stl", BIG_PRINT_MM, BIG_PRINT_GRID)
        spec = yaml.safe_load(Path(default_scene()).read_text())
        for mesh in spec.get("meshes", []):
            mesh["file"] = str((Path(default_scene()).parent / mesh["file"]).resolve())
        spec.setdefault("meshes", []).append({"id": "big_print", "file": str(stl), "units": "mm",
                                              "position": [30.0, 38.0, 0.0], "surface": "concrete"})
        scene = folder / "big_print.yaml"
        scene.write_text(yaml.safe_dump(spec))
        loads, totals = [], []
        for _ in range(max(repeat, MIN_REPEAT)):
            started = time.perf_counter()
            table = load_scene(scene)
            geometry = build_table_geometry(table)
            loads.append(time.perf_counter() - started)
            with TableRenderer(table, (1280, 720), geometry=geometry):
                totals.append(time.perf_counter() - started)
    value, floor = 1000.0 * statistics.median(totals), 1000.0 * statistics.median(loads)
    return [row("scene + renderer set-up, 200k-triangle STL (floor: load)", value, floor, "<= 1000 ms in all",
                "wall ms", value <= 1000.0)]


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
