"""Where the physics world stands a destructible the rules moved and turned (EC-DEST-4)."""

from pathlib import Path

import numpy as np
import pytest
import trimesh

from entropy3d.core.scenery import ScenerySpot
from entropy3d.physics import build_table_world
from entropy3d.physics import world as world_module
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("turn_deg", [0.0, 30.0, 135.0])
def test_a_turned_destructible_stands_turned_about_its_centre(turn_deg):
    """Clause: EC-DEST-4: a piece the rules moved and turned is built where the rules put it.

    The park bench at Lover's Point is an imported mesh whose principal axes are not the
    table's, so its body frame is turned against the table: the body's corners must be the
    scene's corners turned by the spot's angle about the piece's centre and moved by its offset."""
    import pybullet

    table = load_scene(ROOT / "scenes" / "lovers_point.yaml")
    geometry = build_table_geometry(table)
    piece = geometry.by_id("park_bench")
    spot = ScenerySpot(dx=1.5, dy=-0.5, turn_deg=turn_deg)
    hull = trimesh.util.concatenate(list(piece.parts)).convex_hull  # what the world builds the body from
    corners = np.asarray(hull.vertices)
    pivot = hull.bounds.mean(axis=0)
    turn = np.radians(turn_deg)
    rz = np.array([[np.cos(turn), -np.sin(turn), 0.0], [np.sin(turn), np.cos(turn), 0.0], [0.0, 0.0, 1.0]])
    metres = table.ruleset.scale.metres_per_inch
    expected_m = ((corners - pivot) @ rz.T + pivot + [spot.dx, spot.dy, 0.0]) * metres
    with build_table_world(table, geometry, scenery={"park_bench": spot}) as world:
        body = world.body_of("park_bench")
        position, orientation = pybullet.getBasePositionAndOrientation(body, physicsClientId=world.client)
        (local_m,) = [shape.local_m for shape in world_module._recipe(geometry, metres).debris
                      if shape.info.piece_id == "park_bench"]
    rotation = np.asarray(pybullet.getMatrixFromQuaternion(orientation)).reshape(3, 3)
    assert abs(orientation[3]) < 0.99, "the body frame is turned against the table's (the case under test)"
    placed_m = np.asarray(local_m) @ rotation.T + position
    assert np.allclose(placed_m, expected_m, atol=1e-6)


def test_a_stop_raised_as_disconnect_returns_leaves_a_world_closed(monkeypatch):
    """A SIGTERM is raised in Python just after a C call returns: landing after PyBullet's
    ``disconnect`` in ``close``, it left the world marked open, and the producer's finaliser closed
    it again and printed PyBullet's "Not connected to physics server" traceback (the fault test
    of ``demo``, once in CI). A second close after that does nothing."""
    table = load_scene(Path(__file__).resolve().parents[2] / "tests" / "data" / "small_table.yaml")
    world = build_table_world(table, build_table_geometry(table))
    real_disconnect = world_module.pybullet.disconnect

    def disconnect_then_stopped(**kwargs):
        real_disconnect(**kwargs)
        raise SystemExit(143)

    monkeypatch.setattr(world_module.pybullet, "disconnect", disconnect_then_stopped)
    with pytest.raises(SystemExit):
        world.close()
    monkeypatch.setattr(world_module.pybullet, "disconnect", real_disconnect)
    world.close()  # raised pybullet.error: Not connected to physics server
    assert world.client == -1
