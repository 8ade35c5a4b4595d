"""The package layering: light layers never pull in the heavy engines.

The brief's rule: pybullet only in ``entropy3d.physics``, panda3d only in ``entropy3d.render``
and ``entropy3d.viewer``; the rules engine imports no engine, no trimesh, no YAML. Checked in a
fresh interpreter so that other tests' imports don't leak in.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.test_import_graph import module_files

PROBE = """
import importlib, json, sys
for name in {modules!r}:
    importlib.import_module(name)
print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))
"""


def imported_top_level(*modules: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules=list(modules))],
                         capture_output=True, text=True, check=True).stdout
    return set(json.loads(out))


def modules_of(package: str) -> list[str]:
    """Every module of ``package`` by dotted name."""
    return [module for module in module_files() if module == package or module.startswith(package + ".")]


def test_import_entropy3d_and_cli_pull_in_no_engine():
    loaded = imported_top_level("entropy3d", "entropy3d.cli")
    assert not loaded & {"pybullet", "panda3d", "direct", "trimesh"}


def test_rules_engine_is_pure():
    # pydantic is allowed: the rules-data schema (entropy3d.systems.entropy_city.rulesdata) validates
    # mappings in memory, so Ruleset.from_mapping checks every key without the engine reading YAML or
    # files; every module, not the package's lazy face (which loads nothing until asked)
    loaded = imported_top_level(*modules_of("entropy3d.core"), *modules_of("entropy3d.systems.entropy_city"))
    assert not loaded & {"pybullet", "panda3d", "direct", "trimesh", "yaml"}


def test_game_systems_are_pure_rules():
    # layer 2 like entropy3d.systems.entropy_city: a system decides from plain facts and validated rules data;
    # the scene layer reads its YAML (entropy3d.scene.systemrules)
    loaded = imported_top_level(*modules_of("entropy3d.systems"))
    assert not loaded & {"pybullet", "panda3d", "direct", "trimesh", "yaml", "shapely"}


@pytest.mark.parametrize("module", ["entropy3d.scene", "entropy3d.scene.build", "entropy3d.scene.miniature"])
def test_scene_layer_needs_no_physics_or_renderer(module):
    loaded = imported_top_level(module)
    assert not loaded & {"pybullet", "panda3d", "direct"}


def test_atomic_output_files_need_only_the_standard_library():
    loaded = imported_top_level("entropy3d.outputs")
    assert not loaded & {"numpy", "pybullet", "panda3d", "direct", "trimesh", "yaml", "pydantic", "PIL"}


def test_shared_pages_need_no_renderer_or_physics():
    # entropy3d share: the browser draws (three.js from trimesh), so no panda3d, no pybullet
    loaded = imported_top_level("entropy3d.share", "entropy3d.share.steps", "entropy3d.cli.share_commands")
    assert not loaded & {"pybullet", "panda3d", "direct"}


@pytest.mark.parametrize("module", ["entropy3d.export.gltf", "entropy3d.export.sheet", "entropy3d.export.plan_marks"])
def test_export_reads_scenes_and_replays_without_renderer_or_physics(module):
    loaded = imported_top_level(module)
    assert not loaded & {"pybullet", "panda3d", "direct"}


def test_sweep_results_are_read_without_a_cluster_or_an_engine():
    # the summary and the results folder (read by highlights and report) need neither Dask nor an engine;
    # the command line starts no cluster until a sweep runs
    loaded = imported_top_level("entropy3d.sweep.summary", "entropy3d.sweep.store", "entropy3d.cli.sweep_commands")
    assert not loaded & {"distributed", "dask", "pybullet", "panda3d", "direct"}


def test_scene_loading_and_rules_data_need_no_mesh_library():
    # issue 17: commands that read no mesh (validate of a rules file, odds, systems, schema) start
    # without trimesh, scipy and networkx; entropy3d.los gives LosWorld (the ray engine) on first use
    loaded = imported_top_level("entropy3d.scene", "entropy3d.los", "entropy3d.scene.systemrules")
    assert not loaded & {"trimesh", "scipy", "networkx", "shapely", "embreex"}
