"""Every verdict on the bundled scenes stays what it was before the LOS speed work (issue 17).

``data/bundled_verdicts.json`` holds, for each bundled scene, the models' poses in three game
states (the scene's start and two seeded random scatters of every bike, some inside buildings or
on roofs) and both verdicts of every ordered pair in each, as computed by the straightforward
code before the speed-up (commit 5b51c65). Regenerate it only on purpose, after a rules change:

    PYTHONPATH=$PWD python3.11 -m tests.los.test_verdicts_kept --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.geometry import Pose
from entropy3d.los import LosResult, LosWorld
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from tests.los.shooting import shoots

GOLDEN = Path(__file__).parent / "data" / "bundled_verdicts.json"
SCENES = ("crossroads", "lovers_point", "ruined_highway")
RANDOM_STATES = 2


def verdict_record(result: LosResult) -> list:
    """Both verdicts of one pair as plain data (floats exact)."""
    td, tl = result.top_down, result.true_los
    return [td.visible, td.clear_lines, td.lines, list(td.blockers), tl.visible_fraction, tl.bike_fraction,
            tl.bike_seen, tl.cover, shoots(result), tl.rays, list(tl.blockers)]


def scattered_poses(world: LosWorld, rng: np.random.Generator) -> dict[str, Pose]:
    """Every model at a random place and heading on the table, standing on what is under it."""
    ids = [m.id for m in world.table.models]
    xy = np.round(rng.uniform(2.0, [world.table.width - 2.0, world.table.depth - 2.0], size=(len(ids), 2)), 3)
    facing = np.round(rng.uniform(0.0, 360.0, size=len(ids)), 1)
    z = world.geometry.surface_height(xy)
    return {i: Pose(float(p[0]), float(p[1]), float(f), float(h)) for i, p, f, h in zip(ids, xy, facing, z)}


def compared_states(world: LosWorld, seed: int) -> list[dict[str, Pose]]:
    """The states the C modules are held to their numpy in: the scene's start and two scatters."""
    rng = np.random.default_rng(seed)
    return [world.start_poses(), scattered_poses(world, rng), scattered_poses(world, rng)]


def miniatures_and_pairs(world: LosWorld, poses: dict[str, Pose]) -> tuple[list, list[tuple[int, int]]]:
    """The miniatures at ``poses`` in the scene's order, and every ordered (viewer, target) pair of
    them by index, as ``LosWorld.all_pairs`` takes them."""
    minis = list(world.miniatures(poses).values())
    return minis, [(v, t) for v in range(len(minis)) for t in range(len(minis)) if v != t]


def pose_record(pose: Pose) -> list[float]:
    return [pose.x, pose.y, pose.facing_deg, pose.z]


def states_of(scene: str, world: LosWorld) -> list[dict[str, Pose]]:
    rng = np.random.default_rng(SCENES.index(scene) + 17)
    return [world.start_poses()] + [scattered_poses(world, rng) for _ in range(RANDOM_STATES)]


def write_golden() -> None:
    data = {}
    for scene in SCENES:
        world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
        data[scene] = []
        for poses in states_of(scene, world):
            verdicts = world.all_pairs(poses)
            data[scene].append({"poses": {i: pose_record(p) for i, p in poses.items()},
                                "verdicts": {f"{a} {b}": verdict_record(r) for (a, b), r in verdicts.items()}})
    GOLDEN.write_text(json.dumps(data, separators=(",", ":")) + "\n")


@pytest.mark.parametrize("scene", SCENES)
def test_bundled_verdicts_are_unchanged(scene):
    """Clause: EC-LOS-1..4, EC-COVER-1 - top-down, % visible, cover and can-shoot of every pair
    in three game states of each bundled scene equal the recorded ones exactly."""
    recorded = json.loads(GOLDEN.read_text())[scene]
    world = LosWorld(load_scene(bundled_dir("scenes") / f"{scene}.yaml"))
    for state in recorded:
        poses = {i: Pose(*p) for i, p in state["poses"].items()}
        verdicts = world.all_pairs(poses)
        now = {f"{a} {b}": verdict_record(r) for (a, b), r in verdicts.items()}
        changed = sorted(k for k in state["verdicts"] if now.get(k) != state["verdicts"][k])
        assert set(now) == set(state["verdicts"])
        assert not changed, f"{scene}: {len(changed)} pairs changed, e.g. {changed[0]}: " \
                            f"{state['verdicts'][changed[0]]} -> {now[changed[0]]}"


if __name__ == "__main__" and "--write" in sys.argv:
    write_golden()
