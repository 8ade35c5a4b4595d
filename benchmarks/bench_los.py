"""Line-of-sight speed (issue 17): all-pairs LOS against raw Embree on the same segments.

Run on demand (never in the test suite):

    python benchmarks/bench_los.py [--scene crossroads] [--bikes 8 16 32] [--repeat 7] [--engines]

For 8, 16 and 32 bikes on a bundled scene (its own models first, more bikes scattered on free
ground with a seeded generator when it has fewer), it times ``LosWorld.all_pairs()`` over every
ordered pair from a fresh game state (the miniatures are rebuilt too): the figure. The floor is
raw Embree, the engines of the table's pieces, casting exactly the segments that run cast (eye
to each silhouette ray's end), measured in the same run, a query and a raw cast in turn. Both
are medians of ``--repeat`` runs in CPU milliseconds (the machine is shared: wall time counts
other processes' load, so it is printed beside). The ratio is figure / floor: the LOS ray rate
is raw Embree's divided by it.

Targets (issue 17): 8 bikes <= 20 ms and ratio <= 2 (at least 50% of raw Embree's ray rate);
16 and 32 bikes ratio <= 3.

``--engines`` also times the raw engines on random segments over the table: Embree, trimesh's
exact triangle intersector and PyBullet's ``rayTestBatch`` (the alternative the issue names).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared rows.py
from rows import medians_in_turn_ms, medians_ms  # noqa: E402

from entropy3d.los import LosWorld  # noqa: E402
from entropy3d.los.rays import EmbreeCaster, ExactCaster  # noqa: E402
from entropy3d.los.world import piece_footprint  # noqa: E402
from entropy3d.resources import bundled_dir  # noqa: E402
from entropy3d.scene import load_scene  # noqa: E402
from entropy3d.scene.table import Table  # noqa: E402

PYBULLET_BATCH = 16383  # rayTestBatch refuses more rays per call
BIKE_SIZES = (8, 16, 32)
#: inches: extra bikes stand at least this far from each other and from blocking pieces
CLEARANCE_IN = 1.2


@dataclasses.dataclass(frozen=True)
class LosRow:
    """One benchmark row: all-pairs LOS of ``bikes`` bikes on ``scene``; times in CPU ms."""

    scene: str
    bikes: int
    pairs: int
    rays: int
    lines: int
    value: float
    """Median CPU ms of all_pairs from a fresh game state."""
    wall: float
    """Median wall ms of the same runs."""
    floor: float
    """Median CPU ms of raw Embree on the same segments, same run."""

    @property
    def ratio(self) -> float:
        return self.value / self.floor

    @property
    def target(self) -> str:
        return "<= 20 ms and ratio <= 2" if self.bikes <= 8 else "ratio <= 3"

    @property
    def met(self) -> bool:
        return self.value <= 20.0 and self.ratio <= 2.0 if self.bikes <= 8 else self.ratio <= 3.0

    def as_json_row(self) -> dict:
        return {"row": f"los all-pairs, {self.bikes} bikes ({self.scene})", "value": round(self.value, 2),
                "floor": round(self.floor, 2), "ratio": round(self.ratio, 2), "target": self.target,
                "unit": "cpu ms", "met": self.met}


def with_bikes(table: Table, count: int, rng: np.random.Generator) -> Table:
    """The table with its first ``count`` models, more cruisers scattered on free ground when it
    has fewer: clear of blocking pieces and of each other, random headings."""
    models = list(table.models[:count])
    if len(models) < count:
        world = LosWorld(table)
        blocking = shapely.union_all([piece_footprint(p) for p in world.pieces if p.size_class > 0])
        taken = [m.position[:2] for m in models]
        template = table.models[0]
        while len(models) < count:
            x, y = rng.uniform(2.0, [table.width - 2.0, table.depth - 2.0])
            if blocking.distance(shapely.Point(x, y)) < CLEARANCE_IN or any(
                    np.hypot(x - p[0], y - p[1]) < 2 * CLEARANCE_IN for p in taken):
                continue
            taken.append([x, y])
            models.append(template.model_copy(update={
                "id": f"extra_{len(models)}", "bike": "cruiser", "position": [round(float(x), 3), round(float(y), 3)],
                "facing": round(float(rng.uniform(0, 360)), 1)}))
    return dataclasses.replace(table, spec=table.spec.model_copy(update={"models": models}))


def los_row(scene: str, bikes: int, repeat: int, rng: np.random.Generator) -> LosRow:
    """Time all-pairs LOS of ``bikes`` bikes on a bundled scene and raw Embree on its segments."""
    world = LosWorld(with_bikes(load_scene(bundled_dir("scenes") / f"{scene}.yaml"), bikes, rng))

    def run():
        world._miniature_cache.clear()  # a new game state: the miniatures are rebuilt too
        return world.all_pairs()

    results = run()
    # C order, as an engine wants its rays (the ray ends are kept column-major)
    starts = np.ascontiguousarray(np.concatenate([np.broadcast_to(r.geometry.eye, r.geometry.ray_ends.shape)
                                                  for r in results.values()]))
    ends = np.ascontiguousarray(np.concatenate([r.geometry.ray_ends for r in results.values()]))

    def raw():
        world.static_caster.first_hits(starts, ends)
        world.dynamic_caster.first_hits(starts, ends)

    value, wall, floor = medians_in_turn_ms(run, raw, repeat)
    return LosRow(scene, bikes, len(results), len(starts), sum(r.top_down.lines for r in results.values()),
                  value, wall, floor)


def los_rows(scenes=("crossroads",), sizes=BIKE_SIZES, repeat: int = 7, seed: int = 2026) -> list[LosRow]:
    rng = np.random.default_rng(seed)
    return [los_row(scene, bikes, repeat, rng) for scene in scenes for bikes in sizes]


def engine_rate(caster, starts: np.ndarray, ends: np.ndarray, repeat: int) -> tuple[float, np.ndarray]:
    """Segments per CPU second of one engine, and its hit fractions."""
    t, _ = caster.first_hits(starts, ends)
    cpu_ms, _ = medians_ms(lambda: caster.first_hits(starts, ends), repeat)
    return len(starts) / (cpu_ms / 1000.0), t


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
        cpu_ms, _ = medians_ms(run, 3)
        return cpu_ms / 1000.0, fractions, trap
    finally:
        pybullet.disconnect(client)


def print_engines(scene: str, count: int, rng: np.random.Generator) -> None:
    world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    starts, ends = random_segments(world, count, rng)
    print(f"\nraw ray engines: {count:,} random segments over {scene}'s static pieces; rates per CPU second, "
          "'agree' = same hit/miss as Embree")
    print(f"{'engine':<22}{'rays/s':>14}{'agree':>9}")
    assert isinstance(world.static_caster, EmbreeCaster)
    embree_rate, t_embree = engine_rate(world.static_caster, starts, ends, 5)
    print(f"{'embree (embreex)':<22}{embree_rate:>14,.0f}{'-':>9}")
    few = min(count, 300)  # the exact intersector is pure numpy and slow
    exact_rate, t_exact = engine_rate(ExactCaster([p.mesh for p in world.static_pieces]), starts[:few], ends[:few], 1)
    agree = np.mean(np.isfinite(t_exact) == np.isfinite(t_embree[:few]))
    print(f"{'trimesh exact':<22}{exact_rate:>14,.0f}{agree:>9.4f}")
    bullet = pybullet_rays(world, starts, ends)
    if bullet is None:
        print(f"{'pybullet':<22}{'not installed':>14}")
    else:
        seconds, fractions, trap = bullet
        agree = np.mean(np.isfinite(fractions) == np.isfinite(t_embree))
        print(f"{'pybullet rayTestBatch':<22}{count / seconds:>14,.0f}{agree:>9.4f}   ({trap})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", nargs="+", default=["crossroads"], help="bundled scene names")
    parser.add_argument("--bikes", nargs="+", type=int, default=list(BIKE_SIZES), help="bikes on the table")
    parser.add_argument("--repeat", type=int, default=7, help="runs per timing (median reported, at least 5)")
    parser.add_argument("--engines", action="store_true", help="also compare the raw engines on random segments")
    parser.add_argument("--rays", type=int, default=200_000, help="random segments for --engines")
    args = parser.parse_args()

    print(f"all-pairs line of sight (top-down + true LOS) from a fresh state, median of {args.repeat} runs; "
          "floor: raw Embree on the same segments, same run")
    print(f"{'scene':<16}{'bikes':>6}{'pairs':>7}{'rays':>9}{'lines':>9}{'cpu ms':>9}{'wall ms':>9}"
          f"{'floor ms':>10}{'ratio':>7}  target")
    for row in los_rows(args.scene, args.bikes, args.repeat):
        print(f"{row.scene:<16}{row.bikes:>6}{row.pairs:>7}{row.rays:>9}{row.lines:>9}{row.value:>9.1f}"
              f"{row.wall:>9.1f}{row.floor:>10.2f}{row.ratio:>7.2f}  {row.target}: {'met' if row.met else 'NOT met'}")
    if args.engines:
        rng = np.random.default_rng(2026)
        for scene in args.scene:
            print_engines(scene, args.rays, rng)


if __name__ == "__main__":
    main()
