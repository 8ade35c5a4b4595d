"""Physics activation speed, run on demand: ``python benchmarks/bench_physics.py [SCENE ...]``.

For every model of every bundled scene (or the scenes given), one action straight ahead at the
model's speed and full distance is ridden three ways, in the same process:

- the whole activation along the one path (check, fresh world, ride, resolve): ``activation``;
- the ride alone (``ride`` on a freshly built world: controller, contacts, recording);
- bare ``stepSimulation`` of the same freshly built world for the same number of steps (with
  the steps a ride holds the bike while the debris it knocked settles);
- the same bare steps with the bike pushed along at the ride's speed (one resetBaseVelocity per
  step and nothing else), which separates the engine's own cost of a moving bike (contacts, CCD)
  from the controller's Python overhead.

Prints the median milliseconds of each per activation and the overhead ratios of the ride and
of the whole activation against the bare steps, and of the ride against the driven bare steps.
No pass/fail: figures for people comparing changes.

``activation_rows`` and ``imported_mesh_rows`` are issue 17's rows for ``bench_all.py``: one
activation on crossroads with 0, 24 and 48 debris pieces against bare stepping of the same world,
and one activation across an 83k-face 3D-print tile against the same ride over a box of its
outline and height.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pybullet
import shapely

from entropy3d.game.step import activation
from entropy3d.physics import BikeBody, build_table_world, ride
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.schema import Destructible
from entropy3d.scene.table import Table
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.speeds import distance_band
from entropy3d.systems.entropy_city.transition import Action, check

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared rows.py
from rows import MIN_REPEAT, box_stl, command_wall_s, medians_ms, relief_tile_stl, row  # noqa: E402

REPEATS = 3
#: debris pieces on the table for the activation rows (issue 17)
DEBRIS_COUNTS = (0, 24, 48)
#: inches: generated debris stands this far from blocking pieces, bikes and other debris
DEBRIS_CLEARANCE_IN = 1.5
#: the rider and plan of the activation rows: a cruiser along main street at speed 2
ACTIVATION_RIDER, ACTIVATION_PLAN = "hades_1", "s2: straight 10"


def bench_scene(path: Path) -> list[tuple[float, ...]]:
    """(activation, world build, ride, bare steps, driven bare steps) in ms per model activation; the one-time
    preparation of collision shapes per table is printed apart."""
    table = load_scene(path)
    geometry = build_table_geometry(table)
    t0 = time.perf_counter()
    build_table_world(table, geometry).close()
    print(f"  {path.stem}: collision shapes prepared once in {(time.perf_counter() - t0) * 1e3:.0f} ms")
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    producer = PhysicsProducer(table, geometry, rides_per_process=None)
    rows = []
    for bike in state.models.values():
        if bike.speed == 0:
            continue
        plan = f"s{bike.speed}: straight {int(distance_band(bike.bike_type, bike.speed, table.ruleset).max)}"
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            activation(EntropyCityEngine(table.ruleset), state, bike.id, [plan], np.random.default_rng(0), producer)
            t_activation = time.perf_counter() - t0

            move = check(state, Action.ride(bike.id, plan), table.ruleset).move
            rider = BikeBody(bike.id, table.base_of(table.model(bike.id)), bike.pose)
            others = [BikeBody(o.id, table.ruleset.base_for(o.bike_type), o.pose)
                      for o in state.models.values() if o.id != bike.id]
            speed = move.band.max / table.ruleset.scale.seconds_per_activation
            t0 = time.perf_counter()
            world = build_table_world(table, geometry, rider=rider, others=others)
            t_build = time.perf_counter() - t0
            with world:
                t0 = time.perf_counter()
                facts = ride(world, bike.id, move.path, speed)
                t_ride = time.perf_counter() - t0
            with build_table_world(table, geometry, rider=rider, others=others) as bare:
                t0 = time.perf_counter()
                for _ in range(facts.steps + facts.settle_steps):
                    bare.step()
                t_bare = time.perf_counter() - t0
            with build_table_world(table, geometry, rider=rider, others=others) as driven:
                body = driven.bike_ids[bike.id]
                velocity = (speed * table.ruleset.scale.metres_per_inch * bike.pose.forward).tolist() + [0.0]
                t0 = time.perf_counter()
                for _ in range(facts.steps + facts.settle_steps):
                    pybullet.resetBaseVelocity(body, velocity, [0.0, 0.0, 0.0], physicsClientId=driven.client)
                    driven.step()
                t_driven = time.perf_counter() - t0
            rows.append((t_activation * 1e3, t_build * 1e3, t_ride * 1e3, t_bare * 1e3, t_driven * 1e3))
    return rows


def with_debris(table: Table, count: int, rng: np.random.Generator) -> Table:
    """The table with exactly ``count`` debris pieces: its own destructibles (mesh ones made
    static) replaced by crates scattered on free ground, clear of blocking pieces and miniatures."""
    from entropy3d.los import LosWorld
    from entropy3d.los.world import piece_footprint

    world = LosWorld(table)
    blocking = shapely.union_all([piece_footprint(p) for p in world.pieces
                                  if p.size_class > 0 and not p.dynamic])
    taken = [m.position[:2] for m in table.models]
    crates = []
    while len(crates) < count:
        x, y = rng.uniform(2.0, [table.width - 2.0, table.depth - 2.0])
        if blocking.distance(shapely.Point(x, y)) < DEBRIS_CLEARANCE_IN or any(
                np.hypot(x - p[0], y - p[1]) < DEBRIS_CLEARANCE_IN for p in taken):
            continue
        taken.append([x, y])
        crates.append({"id": f"crate_{len(crates)}", "kind": "crate", "risk": 1,
                       "position": [round(float(x), 3), round(float(y), 3)],
                       "facing": round(float(rng.uniform(0, 90)), 1)})
    spec = table.spec.model_copy(update={
        "destructibles": [Destructible(**crate) for crate in crates],
        "meshes": [m.model_copy(update={"destructible_risk": None}) for m in table.spec.meshes]})
    return dataclasses.replace(table, spec=spec)


def activation_row(table: Table, debris: int, repeat: int) -> dict:
    """One activation (check, world, ride, resolve) against bare ``stepSimulation`` of the same
    world for the same steps (the ride's and those it holds the bike while knocked debris
    settles), both in CPU ms, medians from the same run."""
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    producer = PhysicsProducer(table, geometry, rides_per_process=None)

    def run():
        activation(EntropyCityEngine(table.ruleset), state, ACTIVATION_RIDER, [ACTIVATION_PLAN],
                   np.random.default_rng(0), producer)

    run()  # collision shapes are prepared once per table, as in a game
    # every step the ride took, with the steps held while the debris it knocked settled
    steps = producer.last_ride.steps + producer.last_ride.settle_steps
    rider, others = producer.bodies(state, check(state, Action.ride(ACTIVATION_RIDER, ACTIVATION_PLAN),
                                                 table.ruleset))
    # one activation, then one floor, repeat after repeat: this machine's speed drifts by up to
    # half within a minute, and figures taken in turn see the same drift. The floors' fresh worlds
    # are built first, so that no world's building (~70 ms of other memory) comes between two
    # timings; each is stepped once, as a fresh world
    count = max(repeat, MIN_REPEAT)
    worlds = [build_table_world(table, geometry, rider=rider, others=others, scenery=state.scenery)
              for _ in range(count)]
    values, floors = [], []
    for world in worlds:
        values.append(medians_ms(run, 1, at_least=1)[0])
        with world:
            started = time.process_time()
            for _ in range(steps):
                world.step()
            floors.append(1000.0 * (time.process_time() - started))
    value, floor = statistics.median(values), statistics.median(floors)
    return row(f"activation, crossroads, {debris} debris", value, floor,
               "<= 20 ms and ratio <= 1.5", "cpu ms", value <= 20.0 and value / floor <= 1.5)


def activation_rows(repeat: int = 5, seed: int = 2026) -> list[dict]:
    """Issue 17's activation rows: crossroads with 0, 24 and 48 debris pieces."""
    table = load_scene(bundled_dir("scenes") / "crossroads.yaml")
    rng = np.random.default_rng(seed)
    return [activation_row(with_debris(table, count, rng), count, repeat) for count in DEBRIS_COUNTS]


#: the issue's imported print: a 50 x 50 x 5 mm base of about 83k faces
PRINT_TILE_MM, PRINT_TILE_GRID = (50.0, 50.0, 5.0), 145


def imported_mesh_scene(folder: Path, stl: Path) -> Path:
    """A small table with one cruiser that rides straight across the mesh in ``stl`` (mm, flat)."""
    scene = folder / f"{stl.stem}.yaml"
    scene.write_text(f"""name: ride across {stl.stem}
mission: free_ride
table: {{width: 24, depth: 12, ground: asphalt}}
meshes:
  - {{id: print_tile, file: {stl.name}, units: mm, position: [7, 5, 0], surface: concrete}}
gangs:
  hades: {{name: Hades MC, colour: "#c0392b"}}
models:
  - {{id: rider, gang: hades, bike: cruiser, position: [4, 6], facing: 0, speed: 1}}
""")
    return scene


def imported_mesh_rows(repeat: int = 5) -> list[dict]:
    """The whole ``entropy3d activate`` command across an 83k-face print tile against the same
    command over a box of the tile's outline and height (wall seconds, medians, same run)."""
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        tile = imported_mesh_scene(folder, relief_tile_stl(folder / "print_tile.stl", PRINT_TILE_MM, PRINT_TILE_GRID))
        box = imported_mesh_scene(folder, box_stl(folder / "print_box.stl", PRINT_TILE_MM))
        command = ["activate", "--model", "rider", "--plan", "s1: straight 6", "--seed", "1"]
        value = command_wall_s([command[0], str(tile), *command[1:]], repeat)
        floor = command_wall_s([command[0], str(box), *command[1:]], repeat)
    return [row("activation across an 83k-face STL tile (whole command)", value, floor,
                "ratio <= 2 (vs a box of the same outline and height)", "wall s", value / floor <= 2.0)]


def main(argv: list[str]) -> None:
    scenes = [Path(a) for a in argv] or sorted(bundled_dir("scenes").glob("*.yaml"))
    everything = []
    header = (f"{'scene':<16}{'n':>4}{'activation ms':>15}{'build ms':>10}{'ride ms':>9}{'bare ms':>9}"
              f"{'driven ms':>11}{'ride/bare':>11}{'activation/bare':>17}{'ride/driven':>13}")

    def line(name: str, rows) -> str:
        act, build, rid, bare, driven = (statistics.median(c) for c in zip(*rows))
        return (f"{name:<16}{len(rows):>4}{act:>15.1f}{build:>10.1f}{rid:>9.1f}{bare:>9.1f}{driven:>11.1f}"
                f"{rid / bare:>11.2f}{act / bare:>17.2f}{rid / driven:>13.2f}")

    results = []
    for path in scenes:
        rows = bench_scene(path)
        everything += rows
        results.append(line(path.stem, rows))
    print(header)
    print("\n".join(results))
    print(line("all", everything))


if __name__ == "__main__":
    main(sys.argv[1:])
