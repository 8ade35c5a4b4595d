"""What every benchmark row shares: timing medians, the row's keys, and the test meshes of issue 17.

A row is a dict with ``row``, ``value``, ``floor``, ``ratio`` (value / floor), ``target``, ``unit``
and ``met``; the floor is always measured in the same run as the value, because the machine is
shared and absolute times are noisy.
"""

from __future__ import annotations

import compileall
import functools
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

#: every timing is the median of at least this many runs
MIN_REPEAT = 5


def medians_ms(run, repeat: int, at_least: int = MIN_REPEAT) -> tuple[float, float]:
    """Median CPU and wall milliseconds of ``repeat`` calls of ``run`` (at least ``at_least``: one
    call of a row that takes turns with its floor medians the turns itself)."""
    cpu, wall = [], []
    for _ in range(max(repeat, at_least)):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started_wall)
    return 1000.0 * statistics.median(cpu), 1000.0 * statistics.median(wall)


def medians_in_turn_ms(run, floor, repeat: int) -> tuple[float, float, float]:
    """Median CPU and wall milliseconds of ``run`` and median CPU milliseconds of ``floor``, their
    calls taken in turn, ``repeat`` of each (at least MIN_REPEAT): this machine's speed drifts by
    up to a third within a minute, and a figure and its floor taken in turn see the same drift,
    where two blocks of calls one after the other may not."""
    cpu, wall, floors = [], [], []
    for _ in range(max(repeat, MIN_REPEAT)):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started_wall)
        started_cpu = time.process_time()
        floor()
        floors.append(time.process_time() - started_cpu)
    return tuple(1000.0 * statistics.median(times) for times in (cpu, wall, floors))


def row(name: str, value: float, floor: float, target: str, unit: str, met: bool) -> dict:
    """One row with the keys bench_all.py prints; ratio is value / floor."""
    return {"row": name, "value": round(value, 3), "floor": round(floor, 3), "ratio": round(value / floor, 2),
            "target": target, "unit": unit, "met": bool(met)}


@functools.cache
def compiled_package() -> None:
    """Write the package's bytecode, as a user's copy has it after its first run. Where
    PYTHONDONTWRITEBYTECODE is set (this workplace sets it) nothing else writes it, and every
    command timed would compile the package's ~165 modules again (0.1-0.2 s a command here)."""
    import entropy3d

    compileall.compile_dir(Path(entropy3d.__file__).parent, quiet=1)


def command_wall_s(args: list[str], repeat: int) -> float:
    """Median wall seconds of the ``entropy3d`` command with ``args`` (a fresh interpreter each run,
    as a user types it, with the package's bytecode written; the output is discarded, a failure
    raises)."""
    compiled_package()
    times = []
    for _ in range(max(repeat, MIN_REPEAT)):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "entropy3d", *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def relief_tile_stl(path: Path, size_mm: tuple[float, float, float], grid: int, seed: int = 17) -> Path:
    """Write a closed STL like a 3D-printed terrain tile: ``size_mm`` (x, y, height) with a
    cobbled top surface (relief up to 0.4 mm) sampled on ``grid`` x ``grid`` vertices, a flat
    bottom on the same grid and stitched sides: ``4 * (grid - 1) ** 2 + 8 * (grid - 1)`` faces.
    Seeded, so every run rides the same surface."""
    import trimesh

    length, width, height = size_mm
    u = np.linspace(0.0, length, grid)
    v = np.linspace(0.0, width, grid)
    x, y = np.meshgrid(u, v, indexing="ij")
    rng = np.random.default_rng(seed)
    phases = rng.uniform(0, 2 * np.pi, 2)
    cobbles = 0.2 * (np.sin(x * 1.9 + phases[0]) * np.sin(y * 2.3 + phases[1]) + 1.0)
    top = np.column_stack([x.ravel(), y.ravel(), (height - 0.4 + cobbles).ravel()])
    bottom = np.column_stack([x.ravel(), y.ravel(), np.zeros(grid * grid)])
    vertices = np.vstack([top, bottom])
    index = np.arange(grid * grid).reshape(grid, grid)
    a, b = index[:-1, :-1].ravel(), index[1:, :-1].ravel()
    c, d = index[1:, 1:].ravel(), index[:-1, 1:].ravel()
    offset = grid * grid
    faces = [np.column_stack([a, b, c]), np.column_stack([a, c, d]),  # top, facing up
             np.column_stack([a, c, b]) + offset, np.column_stack([a, d, c]) + offset]  # bottom, down
    ring = np.concatenate([index[:, 0], index[-1, 1:], index[-2::-1, -1], index[0, -2:0:-1]])
    ring_next = np.roll(ring, -1)
    faces += [np.column_stack([ring, ring_next + offset, ring_next]),
              np.column_stack([ring, ring + offset, ring_next + offset])]
    mesh = trimesh.Trimesh(vertices, np.vstack(faces), process=False)
    mesh.fix_normals()
    mesh.export(path)
    return path


def box_stl(path: Path, size_mm: tuple[float, float, float]) -> Path:
    """Write a closed box STL of ``size_mm`` with its corner at the origin (the relief tile's outline)."""
    import trimesh

    box = trimesh.creation.box(extents=size_mm)
    box.apply_translation(np.asarray(size_mm) / 2.0)
    box.export(path)
    return path
