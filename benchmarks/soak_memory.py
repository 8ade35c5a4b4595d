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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.10


ROLES = ("game", "server", "riders")
"""The tree's parts by depth: the game's process (this one), the physics fork servers it forked
(one per table), the riders they forked."""


def _parents() -> dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return parents


def _rollup_kb(pid: int) -> dict[str, int]:
    """/proc/PID/smaps_rollup's figures, kB (empty when the process is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return {key.rstrip(":"): int(value) for key, value, *_ in (line.split() for line in rollup)
                    if key.endswith(":") and value.isdigit()}
    except OSError:
        return {}


@dataclass
class TreeMemory:
    """One reading of the tree's memory per part (:data:`ROLES`), MB: PSS (proportional set size:
    a page shared by n processes counts 1/n in each, so the tree's sum counts it once), RSS (every
    page it maps, shared or not) and USS (its private pages: what its end would free), and the
    processes of each part. A page a forked process copies on writing it leaves its RSS as it was
    but moves from shared to private: its PSS and USS grow."""

    pss_mb: dict[str, float]
    rss_mb: dict[str, float]
    uss_mb: dict[str, float]
    pids: dict[str, list[int]]

    @property
    def tree_pss_mb(self) -> float:
        return sum(self.pss_mb.values())


def tree_memory(pid: int | None = None) -> TreeMemory:
    """The memory of ``pid`` (this process) and its descendants, by part (:data:`ROLES`)."""
    parents = _parents()
    pids = {role: [] for role in ROLES}
    depth, frontier = 0, {pid or os.getpid()}
    while frontier:
        pids[ROLES[min(depth, len(ROLES) - 1)]] += sorted(frontier)
        frontier = {child for child, parent in parents.items() if parent in frontier}
        depth += 1
    pss, rss, uss = dict.fromkeys(ROLES, 0.0), dict.fromkeys(ROLES, 0.0), dict.fromkeys(ROLES, 0.0)
    for role, members in pids.items():
        for member in members:
            rollup = _rollup_kb(member)
            pss[role] += rollup.get("Pss", 0) / 1024.0
            rss[role] += rollup.get("Rss", 0) / 1024.0
            uss[role] += (rollup.get("Private_Clean", 0) + rollup.get("Private_Dirty", 0)) / 1024.0
    return TreeMemory(pss, rss, uss, pids)


def game_heap_mb() -> tuple[float, float] | None:
    """(in use, free but kept) MB of this process's malloc heap (glibc ``mallinfo2``: arenas
    only, big blocks glibc mapped on their own are returned to the system when freed); None
    where glibc cannot say."""
    try:
        import ctypes

        class MallInfo2(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                "fordblks", "keepcost")]

        mallinfo2 = ctypes.CDLL(None).mallinfo2
        mallinfo2.restype = MallInfo2
        info = mallinfo2()
    except (OSError, AttributeError):
        return None
    return info.uordblks / 2.0 ** 20, info.fordblks / 2.0 ** 20


def soak(activations: int, rides_per_process: int | None, scenes: list[Path], worker_growth_mb: float):
    """Play games back to back on ``scenes`` (each loaded once, as a long session would) with one
    physics producer per table until ``activations`` activations were played; yields
    (activations, seconds, :class:`TreeMemory`, :func:`game_heap_mb`) after every activation."""
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
                    yield played, time.monotonic() - started, tree_memory(), game_heap_mb()
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
    parser.add_argument("--csv", type=Path, default=None,
                        help="also write every reading to this CSV file (MB: PSS of the tree, PSS, RSS and USS of "
                             "each part, the game's malloc heap in use and free)")
    args = parser.parse_args(argv)
    from entropy3d.physics.producer import PhysicsProducer

    rides = (PhysicsProducer.__init__.__defaults__[0] if args.rides_per_process is None
             else args.rides_per_process or None)
    growth = (PhysicsProducer.__init__.__defaults__[1] if args.worker_growth_mb is None
              else args.worker_growth_mb)
    base = worst_reading = None
    worst = 0.0
    since: dict[str, list[float]] = {}  # the lowest and highest PSS of the tree and each part since the last row
    after_base: dict[str, list[float]] = {}  # the same past the first 100 activations
    riders: set[int] = set()
    readings = args.csv.open("w") if args.csv else None
    if readings is not None:
        readings.write(",".join(["activations", "seconds", "tree_pss", *(f"{role}_{figure}" for figure in (
            "pss", "rss", "uss") for role in ROLES), "heap_in_use", "heap_free", "riders_forked"]) + "\n")
    print(f"soak: {args.activations} activations on {', '.join(p.name for p in args.scenes)}, physics rides "
          + (f"in a worker replaced after {rides} rides or {growth:g} MB of growth" if rides
             else "in this process (no recycling)"))
    print("  every row: the last reading; in brackets the lowest..highest since the row before; PSS in MB")
    for played, seconds, memory, heap in soak(args.activations, rides, args.scenes, growth):
        pss = memory.tree_pss_mb
        riders.update(memory.pids["riders"])
        parts = {"tree": pss, **memory.pss_mb}
        if played == 100:
            base = pss
        for name, value in parts.items():
            _widen(since, name, value)
            if base is not None:
                _widen(after_base, name, value)
        if base is not None and abs(pss / base - 1.0) > worst:
            worst, worst_reading = abs(pss / base - 1.0), (played, parts)
        if readings is not None:
            readings.write(",".join(f"{value:.2f}" for value in (
                played, seconds, *parts.values(), *memory.rss_mb.values(), *memory.uss_mb.values(),
                *(heap or (float("nan"),) * 2))) + f",{len(riders)}\n")
        if played % 100 == 0 or played == args.activations:
            versus = f"{pss / base - 1.0:+6.1%} vs after 100" if base else "(before 100)"
            print(f"  {played:5d} activations  {seconds:7.0f} s  tree PSS {pss:7.1f} MB ({versus}; "
                  f"{_span(since, 'tree')})  RSS {sum(memory.rss_mb.values()):7.1f} MB  "
                  f"{sum(map(len, memory.pids.values()))} processes", flush=True)
            print("        " + "  ".join(f"{name} {memory.pss_mb[name]:6.1f} ({_span(since, name)})" for name in ROLES)
                  + f"  riders forked so far {len(riders)}"
                  + (f"  game heap in use {heap[0]:6.1f} free {heap[1]:6.1f}" if heap else ""), flush=True)
            since = {}
    if after_base:
        print("swing from the 100th activation on (highest - lowest PSS, MB): "
              + "  ".join(f"{name} {high - low:5.1f} ({low:.1f}..{high:.1f})"
                          for name, (low, high) in after_base.items()))
    if worst_reading:
        played, parts = worst_reading
        print(f"worst reading: after {played} activations: "
              + "  ".join(f"{name} {value:.1f}" for name, value in parts.items()))
    if readings is not None:
        readings.close()
    met = base is not None and worst <= TARGET
    print(f"figure: worst tree PSS change after any activation past the first 100, against after 100: "
          f"{worst:.1%}; floor 0% (flat); target within {TARGET:.0%}: {'met' if met else 'NOT met'}; "
          f"load average {os.getloadavg()[0]:.2f}")
    return 0 if met else 1


def _widen(spans: dict[str, list[float]], name: str, value: float) -> None:
    low, high = spans.setdefault(name, [value, value])
    spans[name] = [min(low, value), max(high, value)]


def _span(spans: dict[str, list[float]], name: str) -> str:
    low, high = spans[name]
    return f"{low:6.1f}..{high:6.1f}"


if __name__ == "__main__":
    sys.exit(main())
