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

The figure: the tree's own memory after every activation, against its size after the first 100 (the
target: within 10%): its anonymous pages (heaps, pages copied on write; a page a forked worker
shares with its parent counts once) and every file page it maps (shared libraries), each counted
once (:class:`TreeMemory`). Beside it the tree's PSS (proportional set size), which divides a
library page by every process on the machine mapping it: the game's process maps ~60 MB of library
pages, most of them alone in the tree (a forked process maps a library's pages only as it touches
them, and the fork server touches none), whose PSS falls while other Python processes (tests, other
programs importing numpy or PyBullet) run and rises when they end: the tree's PSS moved 262..304 MB
with no change of its own. A row every 100 activations gives the last reading and the lowest and
highest since the row before, and every part's PSS (the game's process, the fork server, the rider)
split into anonymous and file pages; ``--csv`` writes every reading with each part's RSS and USS
too::

    PYTHONPATH=$PWD python benchmarks/soak_memory.py [--activations 1000] [--rides-per-process N]
        [--worker-growth-mb MB] [--csv PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.10
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


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


def _file_pages(pid: int) -> np.ndarray | None:
    """The physical page numbers of the file pages (shared libraries, mapped files) ``pid`` maps
    and has resident, from /proc/PID/pagemap; None where they cannot be read (page numbers read
    as 0 without CAP_SYS_ADMIN). Pages a private file mapping copied on write are anonymous, not
    file pages: pagemap says which (bit 61)."""
    present, file_page, frame = 1 << 63, 1 << 61, (1 << 55) - 1
    found = []
    try:
        with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pagemap:
            for line in maps:
                fields = line.split()
                if len(fields) < 6 or not fields[5].startswith("/"):
                    continue
                start, end = (int(address, 16) for address in fields[0].split("-"))
                pagemap.seek(start // PAGE_BYTES * 8)
                entries = np.frombuffer(pagemap.read((end - start) // PAGE_BYTES * 8), "<u8")
                found.append(entries[(entries & np.uint64(present | file_page)) == np.uint64(present | file_page)]
                             & np.uint64(frame))
    except OSError:
        return None
    frames = np.concatenate(found) if found else np.zeros(0, np.uint64)
    return None if len(frames) and not frames.any() else frames


@dataclass
class TreeMemory:
    """One reading of the tree's memory per part (:data:`ROLES`), MB, and the processes of each.

    PSS (proportional set size) counts a page mapped by n processes 1/n in each, wherever they
    are: a page the game's process shares with its fork server and rider counts once in the tree,
    but a shared library page counts less while other processes on the machine (tests, other
    programs importing numpy or PyBullet) map it too, so the tree's PSS moves with its
    neighbours. Anonymous pages (heaps, copies on write) are shared only within the tree, so
    their PSS (``anon_mb``) is the tree's own; ``file_mb`` is the rest of the PSS. ``own_mb`` is
    the tree's memory whoever else runs: its anonymous pages plus every file page it maps,
    counted once (None where pagemap cannot say). RSS counts every page each process maps; USS
    its private pages (what its end would free). A page a forked process copies on writing it
    leaves its RSS as it was but moves from shared to private: its PSS and USS grow."""

    pss_mb: dict[str, float]
    anon_mb: dict[str, float]
    file_mb: dict[str, float]
    rss_mb: dict[str, float]
    uss_mb: dict[str, float]
    own_mb: float | None
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
    figures = {figure: dict.fromkeys(ROLES, 0.0) for figure in ("pss", "anon", "file", "rss", "uss")}
    frames = []
    for role, members in pids.items():
        for member in members:
            rollup = _rollup_kb(member)
            for figure, keys in (("pss", ("Pss",)), ("anon", ("Pss_Anon",)), ("file", ("Pss_File", "Pss_Shmem")),
                                 ("rss", ("Rss",)), ("uss", ("Private_Clean", "Private_Dirty"))):
                figures[figure][role] += sum(rollup.get(key, 0) for key in keys) / 1024.0
            frames.append(_file_pages(member))
    own = None
    if frames and all(found is not None for found in frames):
        distinct_file_mb = len(np.unique(np.concatenate(frames))) * PAGE_BYTES / 2.0 ** 20
        own = sum(figures["anon"].values()) + distinct_file_mb
    return TreeMemory(figures["pss"], figures["anon"], figures["file"], figures["rss"], figures["uss"], own, pids)


def game_heap_mb() -> tuple[float, float] | None:
    """(in use, free but kept) MB of this process's malloc heap (glibc ``mallinfo2``: its arenas
    only; blocks glibc mapped on their own return to the system when freed, and Python's small
    objects live in Python's own arenas); None where glibc cannot say."""
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
    from entropy3d.game.entropy_city_player import entropy_city_players
    from entropy3d.game.loop import Game
    from entropy3d.game.players import demo_players
    from entropy3d.game.records import ActivationRecord
    from entropy3d.game.tableview import LOOKAHEAD_MARGIN_IN, TableView
    from entropy3d.geometric import GeometricProducer
    from entropy3d.physics.producer import PhysicsProducer
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.systemrules import system_of

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
            # the demo's players without its confirming ride: the look-ahead alone, as the soak always played
            choosers = demo_players(list(table.spec.gangs), table.ruleset, choices, lookahead=lookahead)
            view = TableView(table, geometry)
            engine = system_of(table, played=True).engine({}, table=view, gangs=list(table.spec.gangs))
            game = Game(table, geometry, physics, engine, entropy_city_players(engine, choosers),
                        np.random.default_rng(dice), turns=6, view=view)
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
                        help="also write every reading to this CSV file (MB: the tree's PSS and own memory, each "
                             "part's PSS, anonymous and file PSS, RSS and USS, the game's malloc heap in use "
                             "and free)")
    args = parser.parse_args(argv)
    from entropy3d.physics.producer import PhysicsProducer

    rides = (PhysicsProducer.__init__.__defaults__[0] if args.rides_per_process is None
             else args.rides_per_process or None)
    growth = (PhysicsProducer.__init__.__defaults__[1] if args.worker_growth_mb is None
              else args.worker_growth_mb)
    figures = ("tree PSS", "tree own")
    base: dict[str, float] = {}
    worst = dict.fromkeys(figures, 0.0)
    worst_reading: dict[str, tuple[int, dict[str, float]]] = {}
    since: dict[str, list[float]] = {}  # the lowest and highest of each figure and part since the last row
    after_base: dict[str, list[float]] = {}  # the same from the 100th activation on
    riders: set[int] = set()
    columns = ["activations", "seconds", "tree_pss", "tree_own",
               *(f"{role}_{figure}" for figure in ("pss", "anon", "file", "rss", "uss") for role in ROLES),
               "heap_in_use", "heap_free", "riders_forked"]
    readings = args.csv.open("w", buffering=1) if args.csv else None  # a line at a time: readable as it goes
    if readings is not None:
        readings.write(",".join(columns) + "\n")
    print(f"soak: {args.activations} activations on {', '.join(p.name for p in args.scenes)}, physics rides "
          + (f"in a worker replaced after {rides} rides or {growth:g} MB of growth" if rides
             else "in this process (no recycling)"))
    print("  every row: the last reading, MB; in brackets the lowest..highest since the row before")
    for played, seconds, memory, heap in soak(args.activations, rides, args.scenes, growth):
        riders.update(memory.pids["riders"])
        parts = {"tree PSS": memory.tree_pss_mb, "tree own": memory.own_mb,
                 **{f"{role} PSS": memory.pss_mb[role] for role in ROLES}}
        parts = {name: value for name, value in parts.items() if value is not None}
        if played == 100:
            base = {name: parts[name] for name in figures if name in parts}
        for name, value in parts.items():
            _widen(since, name, value)
            if base:
                _widen(after_base, name, value)
        for name in base:
            if abs(parts[name] / base[name] - 1.0) > worst[name]:
                worst[name], worst_reading[name] = abs(parts[name] / base[name] - 1.0), (played, parts)
        if readings is not None:
            readings.write(",".join(f"{value:.2f}" for value in (
                played, seconds, memory.tree_pss_mb, memory.own_mb or float("nan"),
                *(getattr(memory, f"{figure}_mb")[role] for figure in ("pss", "anon", "file", "rss", "uss")
                  for role in ROLES),
                *(heap or (float("nan"),) * 2))) + f",{len(riders)}\n")
        if played % 100 == 0 or played == args.activations:
            versus = {name: f"{parts[name] / base[name] - 1.0:+6.1%} vs after 100" if base else "before 100"
                      for name in figures if name in parts}
            print(f"  {played:5d} activations  {seconds:7.0f} s  "
                  + "  ".join(f"{name} {parts[name]:6.1f} ({versus[name]}; {_span(since, name)})" for name in versus)
                  + f"  RSS {sum(memory.rss_mb.values()):6.1f}  {sum(map(len, memory.pids.values()))} processes",
                  flush=True)
            print("        PSS anonymous + file: "
                  + "  ".join(f"{role} {memory.anon_mb[role]:5.1f} + {memory.file_mb[role]:4.1f} "
                              f"({_span(since, role + ' PSS')})" for role in ROLES)
                  + f"  riders forked so far {len(riders)}"
                  + (f"  game heap in use {heap[0]:5.1f} free {heap[1]:4.1f}" if heap else ""), flush=True)
            since = {}
    if readings is not None:
        readings.close()
    if after_base:
        print("swing from the 100th activation on (highest - lowest, MB): "
              + "  ".join(f"{name} {high - low:5.1f} ({low:.1f}..{high:.1f})"
                          for name, (low, high) in after_base.items()))
    for name, (played, parts) in worst_reading.items():
        print(f"worst {name} reading: after {played} activations: "
              + "  ".join(f"{part} {value:.1f}" for part, value in parts.items()))
    met = {name: name in base and worst[name] <= TARGET for name in figures}
    print("figure: the tree's own memory (its anonymous pages and every file page it maps, once), worst change "
          "after any activation past the first 100 against after 100: "
          + (f"{worst['tree own']:.1%}" if "tree own" in base else "n/a (no pagemap)")
          + f"; floor 0% (flat); target within {TARGET:.0%}: {'met' if met['tree own'] else 'NOT met'}")
    print(f"beside it: the tree's PSS (its library pages shared with other processes on the machine count "
          f"less while they run), worst change {worst['tree PSS']:.1%}: "
          f"{'met' if met['tree PSS'] else 'NOT met'}; load average {os.getloadavg()[0]:.2f}")
    return 0 if met["tree own"] else 1


def _widen(spans: dict[str, list[float]], name: str, value: float) -> None:
    low, high = spans.setdefault(name, [value, value])
    spans[name] = [min(low, value), max(high, value)]


def _span(spans: dict[str, list[float]], name: str) -> str:
    low, high = spans[name]
    return f"{low:6.1f}..{high:6.1f}"


if __name__ == "__main__":
    sys.exit(main())
