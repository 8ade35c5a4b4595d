"""The demo packages keep the layering: the game loop needs no engine until physics is asked
for, and the video package reaches Panda3D only through entropy3d.render."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import importlib, json, sys
for name in {modules!r}:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('pybullet', 'panda3d', 'direct')
                        or m.startswith('entropy3d.'))))
"""


def loaded(*modules: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules=list(modules))], capture_output=True, text=True,
                         check=True).stdout
    return set(json.loads(out))


def test_game_package_imports_no_engine():
    names = loaded("entropy3d.game", "entropy3d.cli.demo_commands")
    assert not {n for n in names if n.split(".")[0] in ("pybullet", "panda3d", "direct")}
    assert "entropy3d.physics" not in names and "entropy3d.video" not in names


def test_video_package_imports_no_physics():
    names = loaded("entropy3d.video", "entropy3d.game.timeline")
    assert "pybullet" not in names and "entropy3d.physics" not in names
