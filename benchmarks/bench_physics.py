"""Physics activation speed, run on demand: ``python benchmarks/bench_physics.py [SCENE ...]``.

For every model of every bundled scene (or the scenes given), one action straight ahead at the
model's speed and full distance is ridden three ways, in the same process:

- the whole activation along the one path (check, fresh world, ride, resolve): ``activation``;
- the ride alone (``ride`` on a freshly built world: controller, contacts, recording);
- bare ``stepSimulation`` of the same freshly built world for the same number of steps;
- the same bare steps with the bike pushed along at the ride's speed (one resetBaseVelocity per
  step and nothing else), which separates the engine's own cost of a moving bike (contacts, CCD)
  from the controller's Python overhead.

Prints the median milliseconds of each per activation and the overhead ratios of the ride and
of the whole activation against the bare steps, and of the ride against the driven bare steps.
No pass/fail: figures for people comparing changes.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pybullet

from entropy3d.game.step import activation
from entropy3d.physics import BikeBody, build_table_world, ride
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.resources import bundled_dir
from entropy3d.rules.speeds import distance_band
from entropy3d.rules.transition import Action, check
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry

REPEATS = 3


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
            activation(state, bike.id, [plan], table.ruleset, np.random.default_rng(0), producer)
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
                for _ in range(facts.steps):
                    bare.step()
                t_bare = time.perf_counter() - t0
            with build_table_world(table, geometry, rider=rider, others=others) as driven:
                body = driven.bike_ids[bike.id]
                velocity = (speed * table.ruleset.scale.metres_per_inch * bike.pose.forward).tolist() + [0.0]
                t0 = time.perf_counter()
                for _ in range(facts.steps):
                    pybullet.resetBaseVelocity(body, velocity, [0.0, 0.0, 0.0], physicsClientId=driven.client)
                    driven.step()
                t_driven = time.perf_counter() - t0
            rows.append((t_activation * 1e3, t_build * 1e3, t_ride * 1e3, t_bare * 1e3, t_driven * 1e3))
    return rows


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
