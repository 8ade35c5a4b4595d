"""Viewer responsiveness (issue 16): from a drag event to the updated LOS labels, and idle CPU.

Run on demand (never in the test suite); needs Xvfb and xdotool (tools/system_deps):

    python benchmarks/bench_viewer.py [--moves 40] [--idle 10]

It opens `entropy3d view` on the default table in a real X window (Xvfb, Mesa GL) with
``komodo_1`` selected, presses on it and drags it in ``--moves`` steps along main street. For each
step it times, from the synthetic mouse motion (xdotool) until the window's state file shows the
moved pose with the LOS labels of that pose (written only after the changed frame is drawn): the
figure. The floor is the same round trip for a change that asks nothing (h, the help toggle),
measured in the same run; the ratio is figure / floor. The window's own time from seeing the
motion to the drawn frame (``response_ms``) is printed beside.

Then it releases, waits 1 s, and measures the viewer process's CPU over ``--idle`` seconds (user
+ system, /proc), beside the X server's over the same seconds (the floor: what a window costs).

Launch (issue 47): from starting `entropy3d view` on the default table until its state file says
a frame is drawn, ``--launches`` times; the floor is a bare Panda3D window (ShowBase, one frame
drawn, a file written) started the same way on the same X server, in the same run.

Targets (issues 16, 47): drag to labels <= 100 ms median; launch to the first frame <= 3 s
median; idle CPU <= 5%.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.viewer.xwindow, the window harness

from tests.viewer.xwindow import ViewerWindow, Xvfb  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def round_trip(window: ViewerWindow, xdotool_args: tuple[str, ...], changed) -> float:
    """Milliseconds from an xdotool call until the state file shows ``changed``."""
    started = time.perf_counter()
    window.xdotool(*xdotool_args)
    window.wait(changed, timeout=30.0, poll=0.001)
    return 1000.0 * (time.perf_counter() - started)


#: the floor of a launch: a Panda3D window that draws one frame and says so, nothing of ours imported
BARE_WINDOW = """
import sys
from direct.showbase.ShowBase import ShowBase
base = ShowBase()
base.graphicsEngine.renderFrame()
base.graphicsEngine.renderFrame()
open(sys.argv[1], "w").write("drawn")
"""


def launch_seconds(server: Xvfb, folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """(the viewer's, the bare window's) seconds from start to the first drawn frame, ``runs`` each."""
    import subprocess

    viewer, bare = [], []
    for k in range(runs):
        started = time.perf_counter()
        window = ViewerWindow(server, folder / f"launch-{k}.json")
        viewer.append(time.perf_counter() - started)
        window.close()
        flag = folder / f"bare-{k}.txt"
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", BARE_WINDOW, str(flag)], env={**os.environ,
                                                                                       "DISPLAY": server.display})
        while not flag.exists() and process.poll() is None:
            time.sleep(0.005)
        bare.append(time.perf_counter() - started)
        process.kill()
        process.wait()
    return viewer, bare


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--launches", type=int, default=5)
    args = parser.parse_args(argv)
    server = Xvfb()
    window = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            launches, bare = launch_seconds(server, Path(folder), args.launches)
            window = ViewerWindow(server, Path(folder) / "shown.json", extra=("--select", "komodo_1"))
            floor = []
            for _ in range(args.moves // 2):
                shown = window.state["help_shown"]
                floor.append(round_trip(window, ("key", "--window", window.window, "h"),
                                        lambda s, shown=shown: s["help_shown"] != shown))
            start = window.pixel_of_model("komodo_1")
            window.xdotool("mousemove", "--window", window.window, *map(str, start))
            time.sleep(0.2)
            window.xdotool("mousedown", "1")
            time.sleep(0.2)
            drags, inside = [], []
            for k in range(1, args.moves + 1):
                x, y = window.pixel_of((39.0 - 0.4 * k, 22.7, 0.0))
                before = window.state["poses"]["komodo_1"]
                drags.append(round_trip(window, ("mousemove", "--window", window.window, str(x), str(y)),
                                        lambda s, before=before: s["poses"]["komodo_1"] != before and s["labels"]))
                inside.append(window.state["response_ms"])
            window.xdotool("mouseup", "1")
            time.sleep(1.0)
            viewer_cpu, server_cpu = cpu_seconds(window.process.pid), cpu_seconds(server.process.pid)
            time.sleep(args.idle)
            viewer_cpu = cpu_seconds(window.process.pid) - viewer_cpu
            server_cpu = cpu_seconds(server.process.pid) - server_cpu
    finally:
        if window is not None:
            window.close()
        server.close()
    figure, base = statistics.median(drags), statistics.median(floor)
    print(f"drag event -> updated LOS labels (median of {len(drags)}): {figure:.1f} ms "
          f"(p90 {sorted(drags)[int(0.9 * len(drags))]:.1f} ms; inside the window {statistics.median(inside):.1f} ms)")
    print(f"floor, a key that asks nothing (median of {len(floor)}): {base:.1f} ms;  ratio {figure / base:.2f}")
    print(f"target <= 100 ms: {'met' if figure <= 100 else 'MISSED'}")
    launch, launch_floor = statistics.median(launches), statistics.median(bare)
    print(f"launch -> first frame drawn (median of {len(launches)}): {launch:.2f} s;  floor, a bare Panda3D "
          f"window: {launch_floor:.2f} s;  ratio {launch / launch_floor:.2f};  target <= 3 s: "
          f"{'met' if launch <= 3.0 else 'MISSED'}")
    print(f"idle CPU over {args.idle:.0f} s: viewer {100 * viewer_cpu / args.idle:.1f}%  "
          f"(floor, the X server: {100 * server_cpu / args.idle:.1f}%);  target <= 5%: "
          f"{'met' if viewer_cpu / args.idle <= 0.05 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
