#!/usr/bin/env python3
"""Memory soak (issue 18, part 8): 1,000 activations played by the automatic players with one
physics producer (its worker process recycled as in a real game), printing the whole process
tree's memory as it goes.

Why the worker is recycled: PyBullet keeps memory of every world it connected even after
``disconnect`` (bullet3 issues #2898, #3319) and about 1.2 kB of every body it created, removed or
not. The producer's world lives for the game, so a worker grows by the bodies placed per ride
(measured here with ``--rides-per-process 0``: one process, no recycling). The producer bounds it
by replacing its rider after ``rides_per_process`` rides or once it grew by ``worker_growth_mb``;
the riders are forked by a fork server forked once from the game's process, because a process
forked from the game's own holds again every page the game writes after the fork
(:class:`entropy3d.physics.producer.PhysicsProducer`).

The figure: the tree's memory (PSS, proportional set size, so pages a forked worker shares with
its parent count once; RSS beside it) after every activation, against its size after the first
100 (the target: within 10%); a row every 100 activations gives the last reading and the lowest
and highest since the row before (with a worker replaced every 20 rides, readings every 100
activations saw wherever its sawtooth happened to be)::

    PYTHONPATH=$PWD python benchmarks/soak_memory.py [--activations 1000] [--rides-per-process N]
        [--worker-growth-mb MB]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.10


def _tree(pid: int) -> list[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = {pid}, {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return sorted(found)


def tree_memory_mb(pid: int | None = None) -> tuple[float, float, int]:
    """(PSS, RSS) in MB summed over ``pid`` (this process) and all its descendants, and how many."""
    pss = rss = 0
    pids = _tree(pid or os.getpid())
    for member in pids:
        try:
            with open(f"/proc/{member}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                    elif line.startswith("Rss:"):
                        rss += int(line.split()[1])
        except OSError:
            continue
    return pss / 1024.0, rss / 1024.0, len(pids)


def soak(activations: int, rides_per_process: int | None, scenes: list[Path], worker_growth_mb: float):
    """Play games back to back on ``scenes`` (each loaded once, as a long session would) with one
    physics producer per table until ``activations`` activations were played; yields
    (activations, seconds, PSS, RSS, processes) after every activation."""
    import numpy as np

    from entropy3d.game.loop import Game
    from entropy3d.game.players import demo_players
    from entropy3d.game.records import ActivationRecord
    from entropy3d.game.session import LOOKAHEAD_MARGIN_IN
    from entropy3d.geometric import GeometricProducer
    from entropy3d.physics.producer import PhysicsProducer
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    tables = []
    for scene in scenes:
        table = load_scene(scene)
        geometry = build_table_geometry(table)
        tables.append((table, geometry, PhysicsProducer(table, geometry, rides_per_process=rides_per_process,
                                                       worker_growth_mb=worker_growth_mb),
                       GeometricProducer(table, geometry, margin_in=LOOKAHEAD_MARGIN_IN)))
    played, game_index, started = 0, 0, time.monotonic()
    try:
        while played < activations:
            table, geometry, physics, lookahead = tables[game_index % len(tables)]
            dice, choices = np.random.SeedSequence(game_index).spawn(2)
            players = demo_players(list(table.spec.gangs), table.ruleset, choices, lookahead=lookahead)
            game = Game(table, geometry, physics, players, np.random.default_rng(dice), turns=6)
            for record in game.play():
                if isinstance(record, ActivationRecord):
                    played += 1
                    yield (played, time.monotonic() - started, *tree_memory_mb())
                    if played >= activations:
                        break
            game_index += 1
    finally:
        for _, _, physics, _ in tables:
            physics.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--activations", type=int, default=1000)
    parser.add_argument("--rides-per-process", type=int, default=None,
                        help="the producer's worker recycling (default: the producer's own; 0: ride in this "
                             "process, no recycling)")
    parser.add_argument("--worker-growth-mb", type=float, default=None,
                        help="replace the worker when its own memory grew by this much (default: the producer's)")
    parser.add_argument("scenes", nargs="*", type=Path, default=[ROOT / "scenes" / "crossroads.yaml"],
                        help="tables to play on, each with its own producer (default: the bundled default table)")
    args = parser.parse_args(argv)
    from entropy3d.physics.producer import PhysicsProducer

    rides = (PhysicsProducer.__init__.__defaults__[0] if args.rides_per_process is None
             else args.rides_per_process or None)
    growth = (PhysicsProducer.__init__.__defaults__[1] if args.worker_growth_mb is None
              else args.worker_growth_mb)
    base = None
    worst = 0.0
    low = high = None
    print(f"soak: {args.activations} activations on {', '.join(p.name for p in args.scenes)}, physics rides "
          + (f"in a worker replaced after {rides} rides or {growth:g} MB of growth" if rides
             else "in this process (no recycling)"))
    for played, seconds, pss, rss, processes in soak(args.activations, rides, args.scenes, growth):
        low, high = min(low or pss, pss), max(high or pss, pss)
        if played == 100:
            base = pss
        elif base is not None:
            worst = max(worst, abs(pss / base - 1.0))
        if played % 100 == 0 or played == args.activations:
            versus = f"{pss / base - 1.0:+6.1%} vs after 100" if base else "(before 100)"
            print(f"  {played:5d} activations  {seconds:7.0f} s  tree PSS {pss:7.1f} MB ({versus}; "
                  f"{low:6.1f}..{high:6.1f} since the last row)  RSS {rss:7.1f} MB  {processes} processes",
                  flush=True)
            low = high = None
    met = base is not None and worst <= TARGET
    print(f"figure: worst tree PSS change after any activation past the first 100, against after 100: "
          f"{worst:.1%}; floor 0% (flat); target within {TARGET:.0%}: {'met' if met else 'NOT met'}; "
          f"load average {os.getloadavg()[0]:.2f}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
