"""Golden transform hashes (issue 18, the Box2D practice): every body's transform after each
activation of the bundled scripted games, bit for bit, against tests/physics/data/golden_transforms.json.
A change of golden values goes in a commit of its own that says why (``tools/golden_transforms.py --write``)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from tests.tools_module import load_tool

golden = load_tool("golden_transforms")


@pytest.mark.parametrize("name", sorted(golden.GAMES))
def test_transforms_match_the_golden_hashes(name):
    expected = json.loads(golden.GOLDEN.read_text())[name]
    found = golden.game_digests(name)
    problem = golden.first_difference(expected, found)
    assert problem is None, (f"{name}: {problem}. If the change is meant, regenerate with "
                             "`python tools/golden_transforms.py --write` in a commit that says why.")


def test_the_hash_sees_one_bit_of_one_pose():
    """A pose one float64 step away, a debris push of one ulp, a model's air velocity: each changes
    the activation's hash (so the golden test can fail)."""
    from entropy3d.game.session import play_game

    replay = play_game(golden.ROOT / "scenes" / "crossroads.yaml", seed=1, turns=1, producer="geometric")
    record = replay.activations[0]
    base = golden.activation_digest(record)
    model = record.state_after.models[record.model_id]
    nudged = dataclasses.replace(model.pose, y=float(np.nextafter(model.pose.y, np.inf)))
    state = record.state_after.with_model(model.but(pose=nudged))
    assert golden.activation_digest(dataclasses.replace(record, state_after=state)) != base
    from entropy3d.core.scenery import ScenerySpot

    moved = record.state_after.with_scenery({"some_piece": ScenerySpot(dx=5e-324)})
    assert golden.activation_digest(dataclasses.replace(record, state_after=moved)) != base
    assert golden.first_difference([{"turn": 1, "model": "a", "sha256": base}],
                                   [{"turn": 1, "model": "a", "sha256": base[::-1]}]) is not None
