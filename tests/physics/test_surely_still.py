"""The quick check that lets :func:`_scenery_moves` skip measuring a destructible that only
settled by a hair: whatever it passes, the exact measure reports as not moved (0.01", 0.5 degrees)."""

from __future__ import annotations

import numpy as np

from entropy3d.physics.engine import pybullet
from entropy3d.physics.ride import _surely_still

TO_IN = 1.0 / 0.0254  # inches per metre (any scale would do: the check takes it as given)


def exact_move(position, orientation, position0, orientation0) -> tuple[float, float]:
    """(inches in x and y, turn degrees) as :func:`_scenery_moves` measures a move."""
    rotation0 = np.asarray(pybullet.getMatrixFromQuaternion(orientation0)).reshape(3, 3)
    rotation = np.asarray(pybullet.getMatrixFromQuaternion(orientation)).reshape(3, 3)
    relative = rotation @ rotation0.T
    turn = float(np.degrees(np.arctan2(relative[1, 0], relative[0, 0])))
    d = (np.asarray(position) - np.asarray(position0)) * TO_IN
    return float(np.hypot(d[0], d[1])), turn


def test_what_passes_as_still_is_never_reported_as_moved():
    rng = np.random.default_rng(5)
    passed = failed = 0
    for _ in range(4000):
        position0 = tuple(rng.uniform(-0.3, 0.3, 3))
        orientation0 = pybullet.getQuaternionFromEuler(tuple(rng.uniform(-np.pi, np.pi, 3)))
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        angle = np.radians(rng.uniform(0.0, 0.6))
        step = pybullet.getQuaternionFromAxisAngle(axis.tolist(), float(angle))
        _, orientation = pybullet.multiplyTransforms([0, 0, 0], step, [0, 0, 0], orientation0)
        position = tuple(np.asarray(position0) + rng.uniform(-0.012, 0.012, 3) / TO_IN)
        if _surely_still(position, orientation, position0, orientation0, TO_IN):
            passed += 1
            distance, turn = exact_move(position, orientation, position0, orientation0)
            assert distance <= 0.01 and abs(turn) <= 0.5, (distance, turn)
        else:
            failed += 1
    assert passed > 300 and failed > 300  # both sides of the check were tried
