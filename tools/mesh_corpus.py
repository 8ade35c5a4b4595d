#!/usr/bin/env python3
"""Odd-mesh corpus (issue 18 acceptance): at least 100 odd meshes of our own making through
``validate``, ``los`` and ``activate`` (physics): 0 tracebacks, 0 hangs, peak memory under 2 GB.

The corpus (made here with trimesh and numpy, seeded): flat meshes, single points and lines,
3-point and one-triangle parts, stray slivers beside solid parts, non-watertight and inside-out
shells, huge and tiny scales, many-part glTF with large textures (made per mesh), meshes far off
the table or below it, NaN-free but degenerate (zero-area) faces, very dense spheres. Every mesh
goes into a scene twice: as a scenery mesh and as a destructible. Each command runs in its own
process with a time limit; its peak memory is its maximum resident set (``ru_maxrss``)::

    PYTHONPATH=$PWD python tools/mesh_corpus.py [--meshes 100] [--seed 0] [--keep DIR]
"""

from __future__ import annotations

import argparse
import collections
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HANG_S = 120.0
PEAK_LIMIT_MB = 2048.0
FORMATS = ("stl", "obj", "ply", "off", "glb")


def _box(size=(20.0, 20.0, 20.0), at=(0.0, 0.0, 0.0)):
    import trimesh

    box = trimesh.creation.box(extents=size)
    box.apply_translation(at)
    return box


def odd_mesh(kind: str, rng):
    """One odd mesh of ``kind`` (millimetres) as a trimesh object (Trimesh or Scene)."""
    import trimesh

    if kind == "flat":
        return trimesh.Trimesh([[0, 0, 0], [30, 0, 0], [30, 30, 0], [0, 30, 0]], [[0, 1, 2], [0, 2, 3]])
    if kind == "one_triangle":
        return trimesh.Trimesh(rng.uniform(0, 30, (3, 3)), [[0, 1, 2]])
    if kind == "line":
        return trimesh.Trimesh([[0, 0, 0], [10, 0, 0], [20, 0, 0]], [[0, 1, 2]], process=False)
    if kind == "stray_three_points":
        stray = trimesh.Trimesh([[40, 0, 0], [41, 0, 0], [40, 1, 0]], [[0, 1, 2]])
        return trimesh.util.concatenate([_box(), stray])
    if kind == "slivers":
        parts = [_box()] + [trimesh.Trimesh(rng.uniform(30, 60, (3, 3)), [[0, 1, 2]]) for _ in range(5)]
        return trimesh.util.concatenate(parts)
    if kind == "open_shell":
        box = _box()
        return trimesh.Trimesh(box.vertices, box.faces[:-2])
    if kind == "inside_out":
        box = _box()
        return trimesh.Trimesh(box.vertices, box.faces[:, ::-1])
    if kind == "degenerate_faces":
        box = _box()
        faces = np.vstack([box.faces, [[0, 0, 1], [2, 2, 2]]])
        return trimesh.Trimesh(box.vertices, faces, process=False)
    if kind == "huge":
        return _box(size=(3000.0, 3000.0, 200.0))
    if kind == "tiny":
        return _box(size=(0.01, 0.01, 0.01))
    if kind == "off_table":
        return _box(at=(5000.0, 5000.0, 0.0))
    if kind == "below_table":
        return _box(at=(0.0, 0.0, -500.0))
    if kind == "dense_sphere":
        return trimesh.creation.icosphere(subdivisions=6, radius=15.0)
    if kind == "many_parts":
        parts = [_box(size=tuple(rng.uniform(1, 8, 3)), at=tuple(rng.uniform(-30, 30, 3))) for _ in range(60)]
        return trimesh.util.concatenate(parts)
    if kind == "textured_parts":
        from PIL import Image

        side = int(rng.choice([512, 2048]))
        texture = Image.fromarray(rng.integers(0, 255, (side, side, 3), dtype=np.uint8))
        scene = trimesh.Scene()
        for k in range(12):
            part = _box(size=tuple(rng.uniform(2, 10, 3)), at=tuple(rng.uniform(-30, 30, 3)))
            uv = rng.uniform(0, 1, (len(part.vertices), 2))
            part.visual = trimesh.visual.TextureVisuals(uv=uv, image=texture)
            scene.add_geometry(part, node_name=f"part{k}")
        return scene
    if kind == "concave_l":
        from shapely.geometry import Polygon

        return trimesh.creation.extrude_polygon(Polygon([(0, 0), (40, 0), (40, 10), (10, 10), (10, 40), (0, 40)]),
                                                15.0)
    if kind == "needle":
        return _box(size=(0.001, 0.001, 80.0))
    raise ValueError(kind)


KINDS = ("flat", "one_triangle", "line", "stray_three_points", "slivers", "open_shell", "inside_out",
         "degenerate_faces", "huge", "tiny", "off_table", "below_table", "dense_sphere", "many_parts",
         "textured_parts", "concave_l", "needle")


def write_mesh(kind: str, fmt: str, folder: Path, index: int, rng) -> Path:
    mesh = odd_mesh(kind, rng)
    if kind == "textured_parts":
        fmt = "glb"
    path = folder / f"m{index:03d}_{kind}.{fmt}"
    data = mesh.export(file_type=fmt)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def write_scene(mesh: Path, destructible: bool, folder: Path, rng) -> Path:
    x, y = rng.uniform(14, 34, 2)
    risk = ", destructible_risk: 2" if destructible else ""
    text = (f"name: corpus {mesh.stem}\ntable: {{width: 48, depth: 48}}\n"
            f"meshes:\n  - {{id: odd, file: {mesh.name}, units: mm, position: [{x:.2f}, {y:.2f}, 0]{risk}}}\n"
            "gangs:\n  a: {name: A, colour: '#c0392b'}\n  b: {name: B, colour: '#27ae60'}\n"
            "models:\n  - {id: a1, gang: a, bike: police, position: [4, 4], facing: 45, speed: 3}\n"
            "  - {id: b1, gang: b, bike: police, position: [44, 44], facing: 225, speed: 3}\n")
    path = folder / f"{mesh.stem}{'_dest' if destructible else ''}.yaml"
    path.write_text(text)
    return path


def run_command(arguments: list[str], cwd: Path) -> dict:
    """One ``entropy3d`` command in its own process: exit code, traceback, hang, peak MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "entropy3d", *arguments], capture_output=True, text=True,
                              cwd=cwd, timeout=HANG_S)
        code, err, hung = done.returncode, done.stderr, False
    except subprocess.TimeoutExpired as expired:
        code, err, hung = None, (expired.stderr or b"").decode(errors="replace"), True
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"code": code, "traceback": "Traceback" in err or "unexpected error" in err, "hung": hung,
            "peak_mb": max(before, after) / 1024.0, "new_peak": after > before, "seconds": time.monotonic() - started,
            "stderr": err.strip().splitlines()[-1] if err.strip() else ""}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--meshes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0,
                        help="first mesh index (to run a share of the corpus in another process; use another seed)")
    parser.add_argument("--keep", type=Path, help="keep the corpus here")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="mesh_corpus_"))
    folder.mkdir(parents=True, exist_ok=True)
    counts: collections.Counter = collections.Counter()
    bad: list[str] = []
    started = time.monotonic()
    for index in range(args.start, args.meshes):
        kind = KINDS[index % len(KINDS)]
        mesh = write_mesh(kind, FORMATS[(index // len(KINDS)) % len(FORMATS)], folder, index, rng)
        for destructible in (False, True):
            scene = write_scene(mesh, destructible, folder, rng)
            validated = run_command(["validate", scene.name], folder)
            runs = {"validate": validated}
            if validated["code"] == 0:
                counts["accepted"] += 1
                runs["los"] = run_command(["los", scene.name, "a1", "b1"], folder)
                runs["activate"] = run_command(["activate", scene.name, "-m", "a1", "-p", "s3: straight 16",
                                                "--seed", "1", "--producer", "physics"], folder)
            else:
                counts["refused"] += 1
            for command, run in runs.items():
                counts["commands"] += 1
                counts["tracebacks"] += run["traceback"]
                counts["hangs"] += run["hung"]
                if run["traceback"] or run["hung"]:
                    bad.append(f"{scene.name} {command}: {run['stderr'][:200]}")
        print(f"{index + 1} meshes, {time.monotonic() - started:.0f} s: {dict(counts)}, peak "
              f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0:.0f} MB", flush=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    print(f"{args.meshes - args.start} odd meshes ({len(KINDS)} kinds, {', '.join(FORMATS)}), each as scenery and as a "
          f"destructible: {counts['accepted']} scenes accepted, {counts['refused']} refused; "
          f"{counts['commands']} commands: {counts['tracebacks']} tracebacks, {counts['hangs']} hangs, "
          f"peak memory of any command {peak:.0f} MB (limit {PEAK_LIMIT_MB:.0f} MB)")
    for line in bad[:20]:
        print("  ", line)
    return 1 if counts["tracebacks"] or counts["hangs"] or peak >= PEAK_LIMIT_MB else 0


if __name__ == "__main__":
    sys.exit(main())
