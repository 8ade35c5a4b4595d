#!/usr/bin/env python3
"""Mutated scenes that ``validate`` accepts, through ``activate``, ``render`` and ``los`` (issue 18
acceptance: 1,000 scenes, 0 tracebacks, 0 hangs).

The bulk runs in this process (``entropy3d.cli.main`` with a SIGALRM time limit per command and
stderr captured, :func:`scene_fuzz.run_cli`), so a case costs the command, not a Python start; a
faulthandler watchdog dumps every thread's stack and exits if a command is stuck where a signal
cannot reach it (inside C code). Every ``--sample``-th case is run again as a subprocess
(``python -m entropy3d``) and the two runs must agree on the exit code and on traceback or hang::

    PYTHONPATH=$PWD python tools/command_fuzz.py [--scenes 1000] [--seed 19] [--sample 25]
"""

from __future__ import annotations

import argparse
import collections
import faulthandler
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scene_fuzz import SCENES, forbidden_in, judge, mutate, run_cli  # noqa: E402

COMMANDS = ("activate", "render", "los")
SECONDS = {"validate": 10.0, "activate": 60.0, "render": 60.0, "los": 30.0}


def arguments(command: str, path: Path, folder: Path) -> list[str]:
    """The command line of ``command`` on an accepted scene: its first model rides a plan inside its
    speed's band; render draws a small picture; los looks from the first model at the second."""
    from entropy3d.scene import load_scene
    from entropy3d.systems.entropy_city.speeds import distance_band

    table = load_scene(path)
    ids = [m.id for m in table.models]
    if command == "render":
        return ["render", str(path), "--size", "96x54", "-o", str(folder / "render.png")]
    if command == "los":
        return ["los", str(path), ids[0], ids[1 % len(ids)]]
    model = table.models[0]
    speed = max(1, model.speed)
    band = distance_band(model.bike, speed, table.ruleset)
    return ["activate", str(path), "-m", model.id, "-p", f"s{speed}: straight {(band.min + band.max) / 2:g}",
            "--seed", "1"]


def outcome_of(code, ran: str) -> str:
    return ran if ran != "ran" else ("ok" if code == 0 else "refused" if code == 1 else f"exit {code}")


def in_subprocess(argv: list[str], seconds: float) -> str:
    try:
        done = subprocess.run([sys.executable, "-m", "entropy3d", *argv], capture_output=True, text=True,
                              timeout=seconds)
    except subprocess.TimeoutExpired:
        return "hang"
    if "Traceback" in done.stderr or "unexpected error" in done.stderr:
        return "traceback"
    return outcome_of(done.returncode, "ran")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=1000, help="accepted mutated scenes to run")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--sample", type=int, default=25, help="every N-th case also as a subprocess (0: none)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, with the summary")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    texts = [(scene.name, scene.read_text()) for scene in SCENES]
    counts: collections.Counter = collections.Counter()
    seconds_of: dict[str, float] = collections.defaultdict(float)
    bad: list[str] = []
    agree = disagree = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        tried = 0
        while counts["scenes"] < args.scenes and (args.minutes is None or
                                                  time.monotonic() - started < 60.0 * args.minutes):
            scene_name, text = texts[tried % len(texts)]
            kind, mutated = mutate(text, rng)
            path = folder / f"case{tried % 20}_{scene_name}"
            path.write_text(mutated)
            tried += 1
            verdict, detail = judge(path, SECONDS["validate"])
            counts[f"validate {verdict}"] += 1
            if verdict != "accepted":
                if verdict not in ("clean",):
                    bad.append(f"{scene_name} ({kind}) validate {verdict}: {detail[:200]}")
                    print("  found:", bad[-1], flush=True)
                continue
            forbidden = forbidden_in(path)
            if forbidden is not None:
                counts["accepted forbidden"] += 1
                bad.append(f"{scene_name} ({kind}) accepted: {forbidden}")
                print("  found:", bad[-1], flush=True)
                continue
            counts["scenes"] += 1
            sample = args.sample and counts["scenes"] % args.sample == 0
            for command in COMMANDS:
                line = arguments(command, path, folder)
                faulthandler.dump_traceback_later(SECONDS[command] + 30.0, exit=True, file=sys.__stderr__)
                began = time.monotonic()
                code, err, ran = run_cli(line, SECONDS[command])
                seconds_of[command] += time.monotonic() - began
                faulthandler.cancel_dump_traceback_later()
                result = outcome_of(code, ran)
                counts[f"{command} {result}"] += 1
                if result not in ("ok", "refused"):
                    bad.append(f"{scene_name} ({kind}) {command} {result}: {err.strip()[-300:]}")
                    print("  found:", bad[-1], flush=True)
                if sample:
                    other = in_subprocess(line, SECONDS[command] + 30.0)
                    agree += other == result
                    disagree += other != result
                    if other != result:
                        bad.append(f"{scene_name} ({kind}) {command}: in process {result}, subprocess {other}")
            if counts["scenes"] % 25 == 0:
                print(f"{counts['scenes']} scenes ({tried} mutated), {time.monotonic() - started:.0f} s: "
                      + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "scenes")
                      + f"; subprocess sample agrees {agree}, disagrees {disagree}", flush=True)
    total = time.monotonic() - started
    print(f"{counts['scenes']} accepted mutated scenes (of {tried} mutated) through {', '.join(COMMANDS)} "
          f"in process in {total:.0f} s; per case: "
          + ", ".join(f"{c} {seconds_of[c] / max(1, counts['scenes']):.2f} s" for c in COMMANDS))
    for key, value in sorted(counts.items()):
        print(f"  {key:<22} {value}")
    print(f"subprocess sample: {agree} runs agree with in-process, {disagree} disagree")
    for line in bad[:30]:
        print("  ", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
