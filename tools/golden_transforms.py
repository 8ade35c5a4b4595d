#!/usr/bin/env python3
"""Golden transform hashes (issue 18, the Box2D practice): a hash of every body's transform after
each activation of the bundled scripted games, so any change in what physics or the rules compute
shows up bit for bit, even below the replay's rounding.

Per activation the hash covers, as exact float64 bits (little-endian, no rounding):

* every ridden action's facts as the producer gave them: the bike's trajectory (t, x, y, z,
  heading rows), its end pose and end velocity, and how far each destructible hit was pushed
  (the debris);
* the rules' poses after the activation: every model's pose (x, y, z, facing) and air velocity,
  and every moved destructible's spot (dx, dy, turn, removed).

``tests/physics/test_golden_transforms.py`` checks them in CI against
``tests/physics/data/golden_transforms.json``. Regenerate with::

    PYTHONPATH=$PWD python tools/golden_transforms.py --write

and commit the new file on its own, in a commit whose message says why the transforms changed
(a physics fix, a rules change, a new pybullet). ``--check`` (the default) prints the first
activation that differs from the golden file and exits 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "physics" / "data" / "golden_transforms.json"
#: name -> how to play it: the bundled scripts under each producer, and a seeded automatic turn
#: on the other bundled tables (their jumps, cliffs and debris)
GAMES = {
    "crossroads_kicker/physics": dict(script="scenes/scripts/crossroads_kicker.yaml", producer="physics"),
    "crossroads_kicker/geometric": dict(script="scenes/scripts/crossroads_kicker.yaml", producer="geometric"),
    "lovers_point/physics/seed3": dict(scene="scenes/lovers_point.yaml", seed=3, turns=1, producer="physics"),
    "ruined_highway/physics/seed5": dict(scene="scenes/ruined_highway.yaml", seed=5, turns=1, producer="physics"),
}


def _bits(values) -> bytes:
    return np.ascontiguousarray(np.asarray(values, dtype="<f8")).tobytes()


def _pose_bits(pose) -> bytes:
    return _bits([pose.x, pose.y, pose.z, pose.facing_deg])


def activation_digest(record) -> str:
    """SHA-256 of one activation's transforms (see the module docstring), hex."""
    digest = hashlib.sha256()
    digest.update(f"{record.turn}:{record.model_id}".encode())
    for action in record.actions:
        digest.update(f"|action {action.index} {action.action.kind}".encode())
        facts = action.facts
        if facts is None:
            continue
        digest.update(_bits(np.asarray(facts.trajectory, float).reshape(-1, 5)))
        digest.update(_pose_bits(facts.end_pose))
        digest.update(_bits(facts.end_velocity_in_s))
        for hit in facts.scenery:
            digest.update(hit.piece_id.encode() + _bits(hit.pushed) + bytes([hit.broken]))
    state = record.state_after
    for model_id in sorted(state.models):
        model = state.models[model_id]
        digest.update(f"|model {model_id} {model.status}".encode())
        digest.update(_pose_bits(model.pose))
        if model.air is not None:
            digest.update(_bits(model.air.velocity_in_s))
    for piece_id in sorted(state.scenery):
        spot = state.scenery[piece_id]
        digest.update(f"|piece {piece_id} {spot.removed}".encode() + _bits([spot.dx, spot.dy, spot.turn_deg]))
    return digest.hexdigest()


def game_digests(name: str) -> list[dict]:
    """Play one of :data:`GAMES`; one row (turn, model, sha256) per activation."""
    from entropy3d.game.session import play_game

    spec = dict(GAMES[name])
    for key in ("script", "scene"):
        if key in spec:
            spec[key] = ROOT / spec[key]
    replay = play_game(spec.pop("scene", None), **spec)
    return [{"turn": a.turn, "model": a.model_id, "sha256": activation_digest(a)} for a in replay.activations]


def first_difference(expected: list[dict], found: list[dict]) -> str | None:
    """Where two games' rows part, in words; None when they agree."""
    for k, (want, got) in enumerate(zip(expected, found)):
        if want != got:
            return (f"activation {k} (turn {got['turn']}, {got['model']}): golden {want['sha256'][:16]} "
                    f"for turn {want['turn']} {want['model']}, now {got['sha256'][:16]}")
    if len(expected) != len(found):
        return f"{len(found)} activations played, the golden file has {len(expected)}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="play every game and rewrite the golden file")
    parser.add_argument("games", nargs="*", default=list(GAMES), help="games to play (default: all)")
    args = parser.parse_args(argv)
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    failed = 0
    for name in args.games:
        found = game_digests(name)
        if args.write:
            golden[name] = found
            print(f"{name}: {len(found)} activations written")
            continue
        problem = first_difference(golden.get(name, []), found)
        failed += problem is not None
        print(f"{name}: {'differs: ' + problem if problem else f'{len(found)} activations match'}")
    if args.write:
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
