"""Shared fixtures of the export tests: a short physics replay in which a bike smashes a bench
aside (EC-DEST-4) and crashes into another bike, and the Khronos glTF validator (npm)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMALL_TABLE = ROOT / "tests" / "data" / "small_table.yaml"
VALIDATOR = ROOT / "tools" / "npm" / "gltf-validate.cjs"

#: h1 rides full speed (EC-DEST-2) through bench1, which is moved 4" (EC-DEST-4), then hits k1
SCRIPT = """scene: {scene}
seed: 3
turns: 1
fallback: auto
activations:
  - {{turn: 1, model: h1, plans: ["s1: straight 7", "s2: weave left, straight 12"]}}
"""


@pytest.fixture(scope="session")
def bench_replay(tmp_path_factory) -> Path:
    from entropy3d.game import play_game

    folder = tmp_path_factory.mktemp("bench")
    script = folder / "bench.yaml"
    script.write_text(SCRIPT.format(scene=SMALL_TABLE), encoding="utf-8")
    path = folder / "bench.jsonl"
    play_game(script=script, producer="physics", replay_path=path)
    return path


def validate_gltf(*files: Path) -> list[dict]:
    """The Khronos glTF validator's report of each file (npm package gltf-validator, installed
    into tools/npm by tools/system_deps)."""
    if not (ROOT / "tools" / "npm" / "node_modules" / "gltf-validator").is_dir():
        pytest.fail("the glTF validator is not installed: run tools/system_deps")
    done = subprocess.run(["node", str(VALIDATOR), *map(str, files)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
