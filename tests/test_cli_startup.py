"""A command's heavy imports leave the garbage collector on, with the imported modules frozen out
of its collections (issue 17: the collections during start-up took ~10% of validate's wall time).
Run in a fresh interpreter, so the test process's own objects are not frozen."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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


#: runs `entropy3d validate FILE...` as typed, then prints which of the named modules it imported
VALIDATE_PROBE = """
import json, runpy, sys
files, watched = sys.argv[1].split(","), sys.argv[2].split(",")
sys.argv = ["entropy3d", "validate", *files]
try:
    runpy.run_module("entropy3d", run_name="__main__")
    code = 0
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "imported": [name for name in watched if name in sys.modules]}))
"""

#: the engines validate never needs: the other game systems, the move engine, odds tables
OTHER_SYSTEMS = ("entropy3d.systems.chase_vehicles", "entropy3d.systems.tenacity", "entropy3d.systems.gang_battle",
                 "entropy3d.systems.reference_cards")
MOVE_ENGINE = ("entropy3d.systems.entropy_city.transition", "entropy3d.systems.entropy_city.riding",
               "entropy3d.systems.entropy_city.planner",
               "entropy3d.systems.entropy_city.odds")


def _validate_imports(files: list[str], watched: tuple[str, ...]) -> dict:
    out = subprocess.run([sys.executable, "-c", VALIDATE_PROBE, ",".join(files), ",".join(watched)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_validate_of_a_scene_imports_its_own_system_only_and_not_the_move_engine():
    """A scene's validate reads its game system (Entropy City) and the ruleset, never the other
    systems nor the engine that plays moves (issue 17: ~50 ms of validate's and los's start-up)."""
    from entropy3d.resources import bundled_dir

    found = _validate_imports([str(bundled_dir("scenes") / "crossroads.yaml")],
                              ("entropy3d.systems.entropy_city.system", "entropy3d.systems.entropy_city.ruleset",
                               *OTHER_SYSTEMS,
                               *MOVE_ENGINE))
    assert found == {"code": 0, "imported": ["entropy3d.systems.entropy_city.system",
                                             "entropy3d.systems.entropy_city.ruleset"]}


def test_validate_of_rules_data_imports_no_mesh_or_geometry_library():
    """Rules data files are checked without trimesh, scipy or shapely: they hold no geometry."""
    from entropy3d.resources import bundled_dir

    rules = bundled_dir("rules")
    found = _validate_imports([str(rules / "entropy_city.yaml"), str(rules / "los.yaml")],
                              ("entropy3d.systems.entropy_city.ruleset", "trimesh", "scipy", "shapely", *MOVE_ENGINE))
    assert found == {"code": 0, "imported": ["entropy3d.systems.entropy_city.ruleset"]}


def test_the_rules_package_gives_each_public_name_from_its_own_module():
    """``from entropy3d.systems.entropy_city import X`` still works though the package imports its modules lazily."""
    import importlib

    import entropy3d.systems.entropy_city as rules

    for name in rules.__all__:
        home = importlib.import_module(f"entropy3d.systems.entropy_city.{rules._HOMES[name]}")
        assert getattr(rules, name) is getattr(home, name)
    assert set(rules._HOMES) == set(rules.__all__) and set(rules.__all__) <= set(dir(rules))
    with pytest.raises(AttributeError, match="no_such_name"):
        rules.no_such_name  # noqa: B018  (the read is what is tested)
