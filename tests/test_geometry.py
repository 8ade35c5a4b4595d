"""Pure geometry (entropy3d/geometry.py): where the points along a ridden move are."""

from __future__ import annotations

import numpy as np

from entropy3d.geometry import pose_at, poses_along


def test_EC_ACT_ATTACK_the_points_along_a_move_are_an_inch_apart_from_its_start():
    """An attack may be made at any point along the move (EC-ACT-ATTACK): the players and the
    `act` command try the points of the ridden trajectory an inch apart. A 5.5" ride along x,
    sampled every 0.25", gives x = 0, 1, ..., 5 (the rows nearest each inch), its heading kept;
    no trajectory, or one row, gives none."""
    xs = np.arange(0.0, 5.51, 0.25)
    ride = np.column_stack([xs / 5.5, xs, np.full_like(xs, 2.0), np.zeros_like(xs), np.full_like(xs, 370.0)])
    poses = poses_along(ride)
    assert [p.x for p in poses] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert all(p.y == 2.0 and p.facing_deg == 10.0 for p in poses)
    assert poses_along(None) == [] and poses_along(ride[:1]) == []
    assert list(pose_at(ride, 0.5)[:2]) == [2.75, 2.0]
