"""Pure geometry (entropy3d/geometry.py): where the points along a ridden move are."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.geometry import BaseShape, Pose, pose_at, poses_along


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


def test_a_vehicle_footprint_is_a_rounded_rectangle_in_every_measure():
    """A car's footprint (issue 46: its plan, 3.17" x 1.27", a superellipse of power 4): its
    reach towards any direction is the farthest outline point that way, it holds the points it
    should (near its corners) and not past its bumpers, its edge normal is square to the edge,
    its radius reaches its farthest point, and a round base is round only at power 2."""
    base, pose = BaseShape(3.17, 1.27, 4.0), Pose(4.0, -2.0, 70.0)
    edge = base.outline(pose, 2000)
    for angle in np.linspace(0.0, 2.0 * np.pi, 13):
        direction = np.array([np.cos(angle), np.sin(angle)])
        assert base.reach(pose, direction) == pytest.approx(float(((edge - pose.xy) @ direction).max()), abs=1e-4)
    corners = pose.to_table(np.array([[1.3, 0.5], [-1.3, -0.5], [1.3, -0.5]]))
    assert base.contains(pose, corners).all(), "an ellipse of the same axes leaves these corners out"
    assert not base.contains(pose, pose.to_table(np.array([[1.6, 0.0], [0.0, 0.64]]))).any()
    for k in (0, 150, 333, 600, 1200):
        tangent, normal = edge[k + 1] - edge[k - 1], base.edge_normal(pose, edge[k])
        assert abs(tangent @ normal) / np.linalg.norm(tangent) / np.linalg.norm(normal) < 1e-2
        assert (edge[k] - pose.xy) @ normal > 0, "it points out"
    assert base.radius == pytest.approx(float(np.hypot(*(edge - pose.xy).T).max()), abs=1e-3)
    length, width = base.enclosing_axes
    assert BaseShape(length + 1e-9, width + 1e-9).contains(pose, edge).all()
    assert not BaseShape(3.0, 3.0, 4.0).is_round and BaseShape(3.0, 3.0).is_round


def test_a_vehicles_radius_holds_its_whole_plan():
    """A superellipse's radius is the circle beyond which two bases cannot touch (the producers'
    and sight lines' cut-off): it must reach the plan's farthest corner. The farthest point,
    worked independently on the edge's parametric form x = a cos(t)^(2/p), y = b sin(t)^(2/p)
    over two million angles of a quarter: 2.61712" for a 5.2 x 2.1 car at power 4; 96 points of
    the outline gave 2.61650", 0.0006" short."""
    for length, width in ((5.2, 2.1), (6.0, 2.4)):
        base = BaseShape(length, width, 4.0)
        t = np.linspace(0.0, np.pi / 2, 2_000_001)
        farthest = np.hypot(length / 2 * np.cos(t) ** 0.5, width / 2 * np.sin(t) ** 0.5).max()
        assert farthest <= base.radius <= farthest + 2e-5, (length, width)
