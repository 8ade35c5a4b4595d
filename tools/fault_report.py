#!/usr/bin/env python3
"""SIGTERM at random moments (issue 18, part 4): ``demo``, ``activate --gif`` and ``render`` on the
small test table, each killed at a random moment of its run, then checked for

* temp files: any hidden file left in the output directory (the atomic writer's ``.name.XXXX``);
* orphaned processes: any process the command started (its whole tree, watched while it ran)
  still alive after the command ended;
* partial outputs: an output file that exists and is not whole: a PNG or GIF that does not decode
  to its last frame, JSON that does not parse, a replay without its end record. (An interrupted
  ``demo`` may leave its whole replay: it is written, atomically, before the video starts.)
* tracebacks on stderr and hangs (the command not gone 60 s after the signal).

The suite runs a few (tests/game/test_faults.py); this script runs as many as asked::

    PYTHONPATH=$PWD python tools/fault_report.py --runs 50 [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SMALL_TABLE = ROOT / "tests" / "data" / "small_table.yaml"
#: name -> (arguments after ``entropy3d``, with {out} for the output directory; output files and
#: their kinds)
COMMANDS = {
    "demo": (["demo", str(SMALL_TABLE), "--turns", "1", "--seed", "3", "--producer", "physics", "--out",
              "{out}/d.gif", "--replay", "{out}/d.jsonl", "--size", "128x72", "--fps", "5"],
             {"d.gif": "image", "d.jsonl": "replay"}),
    "activate --gif": (["activate", str(SMALL_TABLE), "-m", "h1", "-p", "s2: straight 10", "--seed", "1",
                        "--gif", "{out}/a.gif", "--json", "{out}/a.json"], {"a.gif": "image", "a.json": "json"}),
    "render": (["render", str(SMALL_TABLE), "-o", "{out}/r.png", "--size", "320x180"], {"r.png": "image"}),
}
HANG_S = 60.0


def parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants(pid: int) -> set[int]:
    """Every live process under ``pid`` (children, grandchildren...)."""
    parents = {int(e): parent_of(int(e)) for e in os.listdir("/proc") if e.isdigit()}
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Running and not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def whole(path: Path, kind: str) -> bool:
    """Whether an output file is complete: an image decodes to its last frame, JSON parses, a
    replay reads to its end record."""
    try:
        if kind == "image":
            from PIL import Image, ImageSequence

            with Image.open(path) as image:
                for frame in ImageSequence.Iterator(image):
                    frame.load()
            return True
        if kind == "json":
            import json

            json.loads(path.read_text(encoding="utf-8"))
            return True
        from entropy3d.game.replay import read_replay

        return read_replay(path).end is not None
    except Exception:  # anything that does not read back whole is partial
        return False


def interrupt_once(name: str, delay_s: float, out: Path, signum: int = signal.SIGTERM) -> dict:
    """Run command ``name`` into directory ``out``, send ``signum`` after ``delay_s`` seconds, and
    report what it left: temp files, orphans, partial outputs, a traceback, a hang."""
    arguments, outputs = COMMANDS[name]
    argv = [sys.executable, "-m", "entropy3d", *[a.format(out=out) for a in arguments]]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=out)
    seen: set[int] = set()
    started = time.monotonic()
    while time.monotonic() - started < delay_s and process.poll() is None:
        seen |= descendants(process.pid)
        time.sleep(0.02)
    signalled = process.poll() is None
    if signalled:
        seen |= descendants(process.pid)
        process.send_signal(signum)
    try:
        _, err = process.communicate(timeout=HANG_S)  # returns once no process holds the pipes
        hung = False
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        hung = True
    time.sleep(0.3)
    orphans = sorted(pid for pid in seen if alive(pid))
    for pid in orphans:  # never leave them behind us either
        os.kill(pid, signal.SIGKILL)
    temp = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
    partial = []
    for file_name, kind in outputs.items():
        path = out / file_name
        if path.exists() and not whole(path, kind):
            partial.append(file_name)
    return {"signalled": signalled, "returncode": process.returncode, "temp_files": temp, "orphans": orphans,
            "partial_outputs": partial, "traceback": b"Traceback" in err, "hung": hung,
            "workers_seen": len(seen), "stderr": err.decode(errors="replace")[-1500:] if b"Traceback" in err else ""}


def clean_run_seconds(name: str) -> float:
    """How long one uninterrupted run takes (the range the random moments are drawn from)."""
    with tempfile.TemporaryDirectory() as out:
        started = time.monotonic()
        interrupt_once(name, 1e9, Path(out))
        return time.monotonic() - started


def report(name: str, runs: int, seed: int = 0) -> dict:
    """``runs`` SIGTERMs at random moments of one command; the counts of what went wrong."""
    rng = np.random.default_rng(seed)
    duration = clean_run_seconds(name)
    totals = {"runs": 0, "signalled": 0, "temp_files": 0, "orphans": 0, "partial_outputs": 0, "tracebacks": 0,
              "hangs": 0, "with_workers": 0, "seconds": duration, "examples": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            found = interrupt_once(name, float(rng.uniform(0.1, duration)), Path(out))
        totals["runs"] += 1
        totals["signalled"] += found["signalled"]
        totals["with_workers"] += found["workers_seen"] > 0
        for key, count in (("temp_files", len(found["temp_files"])), ("orphans", len(found["orphans"])),
                           ("partial_outputs", len(found["partial_outputs"])), ("tracebacks", found["traceback"]),
                           ("hangs", found["hung"])):
            totals[key] += int(count)
            if count and len(totals["examples"]) < 5:
                totals["examples"].append(found)
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="SIGTERMs per command")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("commands", nargs="*", default=list(COMMANDS))
    args = parser.parse_args(argv)
    bad = 0
    for name in args.commands:
        totals = report(name, args.runs, args.seed)
        bad += totals["temp_files"] + totals["orphans"] + totals["partial_outputs"] + totals["tracebacks"] \
            + totals["hangs"]
        print(f"{name}: {totals['runs']} runs ({totals['signalled']} signalled while running, "
              f"{totals['with_workers']} with child processes; a clean run takes {totals['seconds']:.1f} s): "
              f"{totals['temp_files']} temp files, {totals['orphans']} orphaned processes, "
              f"{totals['partial_outputs']} partial outputs, {totals['tracebacks']} tracebacks, "
              f"{totals['hangs']} hangs", flush=True)
        for example in totals["examples"]:
            print("   ", example)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
