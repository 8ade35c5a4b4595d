"""A command's heavy imports leave the garbage collector on, with the imported modules frozen out
of its collections (issue 17: the collections during start-up took ~10% of validate's wall time).
Run in a fresh interpreter, so the test process's own objects are not frozen."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import gc, json, sys
from entropy3d.cli.app import SCENE_GEOMETRY_MODULES, import_for_command
import_for_command(*SCENE_GEOMETRY_MODULES)
first = gc.get_freeze_count()
import_for_command(*SCENE_GEOMETRY_MODULES)
print(json.dumps({"enabled": gc.isenabled(), "trimesh": "trimesh" in sys.modules,
                  "frozen": first, "frozen_again": gc.get_freeze_count()}))
"""


def test_import_for_command_freezes_the_imports_once_and_leaves_collection_on():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    found = json.loads(out)
    assert found["enabled"] and found["trimesh"]
    assert found["frozen"] > 50_000  # the scene layer, trimesh and scipy: ~100,000 objects
    assert found["frozen_again"] == found["frozen"]  # all imported already: nothing more is frozen
