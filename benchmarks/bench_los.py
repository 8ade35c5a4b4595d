"""Line-of-sight speed: all-pairs LOS on the bundled scenes, and the raw ray engines beside it.

Run on demand (never in the test suite):

    python benchmarks/bench_los.py [--repeat 15] [--rays 200000]

For every bundled scene it prints the median time of ``LosWorld.all_pairs()`` for the first 8
bikes (the issue's target: well under a second) and for every bike in the scene, the sight
rays and lines that took, and rays per second. It then times the raw engines on random segments
over the same table: Embree (embreex, the engine entropy3d.los uses), trimesh's exact triangle
intersector, and PyBullet's ``rayTestBatch`` (the alternative the issue names), and prints the
ratio of LOS rays per CPU second to the raw Embree rate (how much the LOS bookkeeping costs).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from entropy3d.los import LosWorld
from entropy3d.los.rays import EmbreeCaster, ExactCaster
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene

PYBULLET_BATCH = 16383  # rayTestBatch refuses more rays per call


def median_ms(run, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        started = clock()
        run()
        times.append(clock() - started)
    return 1000.0 * statistics.median(times)


def all_pairs_figures(world: LosWorld, ids: list[str], repeat: int) -> tuple[float, float, int, int]:
    """Median wall and CPU ms of all ordered pairs among ``ids`` from a fresh game state, and the
    rays and top-down lines one run casts. CPU time is what the run costs on an idle machine
    (numpy runs single-threaded here); wall time also counts other processes' load."""
    pairs = [(a, b) for a in ids for b in ids if a != b]

    def run():
        world._miniature_cache.clear()  # a new game state: the miniatures are rebuilt too
        return world.all_pairs(pairs=pairs)

    results = run()
    rays = sum(r.true_los.rays for r in results.values())
    lines = sum(r.top_down.lines for r in results.values())
    return median_ms(run, repeat), median_ms(run, repeat, time.process_time), rays, lines


def engine_rate(caster, starts: np.ndarray, ends: np.ndarray, repeat: int) -> tuple[float, np.ndarray]:
    """Segments per CPU second of one engine, and its hit fractions."""
    t, _ = caster.first_hits(starts, ends)
    ms = median_ms(lambda: caster.first_hits(starts, ends), repeat, time.process_time)
    return len(starts) / (ms / 1000.0), t


def random_segments(world: LosWorld, count: int, rng: np.random.Generator):
    low, high = world.geometry.bounds()
    low = np.maximum(low, [0, 0, 0.05])
    high = np.minimum(high, [world.table.width, world.table.depth, 8.0])
    return rng.uniform(low, high, size=(count, 3)), rng.uniform(low, high, size=(count, 3))


def pybullet_rays(world: LosWorld, starts: np.ndarray, ends: np.ndarray):
    """Time rayTestBatch over the static pieces; None when pybullet is missing."""
    try:
        import pybullet
    except ImportError:
        return None
    client = pybullet.connect(pybullet.DIRECT)
    try:
        for piece in world.static_pieces:
            shape = pybullet.createCollisionShape(
                pybullet.GEOM_MESH, vertices=np.asarray(piece.mesh.vertices, float).tolist(),
                indices=np.asarray(piece.mesh.faces, int).ravel().tolist(),
                flags=pybullet.GEOM_FORCE_CONCAVE_TRIMESH, physicsClientId=client)
            pybullet.createMultiBody(0, shape, physicsClientId=client)
        # the trap the issue names: some builds return nothing for numpy arrays; lists always work
        from_lists, to_lists = starts.tolist(), ends.tolist()
        with_arrays = pybullet.rayTestBatch(starts[:1000], ends[:1000], physicsClientId=client)
        with_lists = pybullet.rayTestBatch(from_lists[:1000], to_lists[:1000], physicsClientId=client)
        trap = "numpy input ok" if with_arrays == with_lists else \
            f"numpy input: {len(with_arrays)} results, {sum(h[0] >= 0 for h in with_arrays)} hits vs " \
            f"{sum(h[0] >= 0 for h in with_lists)} with lists"

        def run():
            fractions = []
            for k in range(0, len(from_lists), PYBULLET_BATCH):
                hits = pybullet.rayTestBatch(from_lists[k:k + PYBULLET_BATCH], to_lists[k:k + PYBULLET_BATCH],
                                             physicsClientId=client)
                fractions.extend(h[2] if h[0] >= 0 else np.inf for h in hits)
            return np.array(fractions)

        fractions = run()
        seconds = median_ms(run, 3, time.process_time) / 1000.0
        return seconds, fractions, trap
    finally:
        pybullet.disconnect(client)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per timing (median reported)")
    parser.add_argument("--rays", type=int, default=200_000, help="random segments for the raw engines")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)

    print("all-pairs line of sight (top-down + true LOS), median of", args.repeat, "runs from a fresh state")
    print(f"{'scene':<16}{'bikes':>6}{'pairs':>7}{'build ms':>10}{'median ms':>11}{'cpu ms':>8}{'rays':>8}"
          f"{'lines':>7}{'rays/cpu s':>11}{'ms/pair':>9}")
    worlds: dict[str, LosWorld] = {}
    los_rates: dict[str, float] = {}  # sight rays per CPU second, 8 bikes
    for path in sorted(bundled_dir("scenes").glob("*.yaml")):
        table = load_scene(path)
        started = time.perf_counter()
        world = LosWorld(table)
        build_ms = 1000.0 * (time.perf_counter() - started)
        worlds[path.stem] = world
        ids = [m.id for m in table.models]
        for chosen in ([ids[:8]] + ([ids] if len(ids) > 8 else [])):
            ms, cpu_ms, rays, lines = all_pairs_figures(world, chosen, args.repeat)
            pairs = len(chosen) * (len(chosen) - 1)
            print(f"{path.stem:<16}{len(chosen):>6}{pairs:>7}{build_ms:>10.0f}{ms:>11.1f}{cpu_ms:>8.1f}{rays:>8}"
                  f"{lines:>7}{rays / (cpu_ms / 1000.0):>11,.0f}{ms / pairs:>9.2f}")
            if len(chosen) == 8:
                los_rates[path.stem] = rays / (cpu_ms / 1000.0)

    print()
    print(f"raw ray engines: {args.rays:,} random segments over each table's static pieces; rates per CPU "
          "second (the machine may be shared), 'agree' = same hit/miss as Embree")
    print(f"{'scene':<16}{'engine':<22}{'rays/s':>14}{'agree':>9}")
    for name in worlds:
        world = worlds[name]
        starts, ends = random_segments(world, args.rays, rng)
        assert isinstance(world.static_caster, EmbreeCaster)
        embree_rate, t_embree = engine_rate(world.static_caster, starts, ends, 5)
        print(f"{name:<16}{'embree (embreex)':<22}{embree_rate:>14,.0f}{'-':>9}")

        few = min(args.rays, 300)  # the exact intersector is pure numpy and slow
        exact_rate, t_exact = engine_rate(ExactCaster([p.mesh for p in world.static_pieces]),
                                          starts[:few], ends[:few], 1)
        agree = np.mean(np.isfinite(t_exact) == np.isfinite(t_embree[:few]))
        print(f"{name:<16}{'trimesh exact':<22}{exact_rate:>14,.0f}{agree:>9.4f}")

        bullet = pybullet_rays(world, starts, ends)
        if bullet is None:
            print(f"{name:<16}{'pybullet':<22}{'not installed':>14}")
        else:
            seconds, fractions, trap = bullet
            agree = np.mean(np.isfinite(fractions) == np.isfinite(t_embree))
            print(f"{name:<16}{'pybullet rayTestBatch':<22}{args.rays / seconds:>14,.0f}{agree:>9.4f}   ({trap})")
        print(f"{name:<16}{'LOS rays / raw embree':<22}{los_rates[name] / embree_rate:>14.3f}")


if __name__ == "__main__":
    main()
