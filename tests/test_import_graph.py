"""The package's imports point down and go round no circle (issue 44).

Read from the source, not from a running interpreter: every ``import`` and ``from ... import`` of
every module counts, at the top of a file, inside a function (the lazy imports that keep start-up
cheap) or under ``TYPE_CHECKING``, because each is a dependency a reader has to follow. Then each
module is really imported, in a fresh interpreter where the engines its layer may not use are
blocked, so a module that pulls one in by any road fails here (see ``test_layering.py`` for the
lighter packages that must not even load trimesh or YAML).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "entropy3d"

#: the layers, lowest first; a module may import from its own layer or a lower one. Within a
#: layer, packages may import each other as long as no circle forms (the test below).
LAYERS = (
    ("pure helpers", {"errors", "units", "geometry", "outputs", "stops", "fonts", "resources"}),
    ("core types no rulebook shapes", {"core"}),
    ("rulebooks", {"systems"}),
    ("scene", {"scene"}),
    ("fact producers and line of sight", {"geometric", "physics", "los", "table_readings", "table_answers"}),
    ("game loop and replays", {"game"}),
    ("pictures, exports, sweeps", {"look", "render", "activation", "export", "sweep"}),
    ("film", {"video"}),
    ("window and pages", {"viewer", "share"}),
    ("commands", {"cli", "console", "__main__", "__init__"}),
)
RANK = {package: rank for rank, (_, packages) in enumerate(LAYERS) for package in packages}

#: the engines, and the only packages allowed to import each (the brief's architecture)
ENGINES = {"pybullet": {"physics"}, "panda3d": {"render", "viewer", "video"}, "direct": {"render", "viewer", "video"}}


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("entropy3d",) + path.relative_to(PACKAGE).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_submodule(dotted: str) -> bool:
    """A module file, a package or a compiled extension (``_rideloop.cpython-311-...so``) by that name."""
    where = PACKAGE.parent.joinpath(*dotted.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file() or any(
        where.parent.glob(where.name + ".*.so")) or any(where.parent.glob(where.name + ".*.pyd"))


def imports_of(module: str, path: Path) -> set[str]:
    """The entropy3d modules ``module`` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                here = here[:len(here) - node.level + 1]
                base = ".".join(here + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if _is_submodule(f"{base}.{alias.name}") else base)
    return {name for name in found if name.split(".")[0] == "entropy3d" and name != module}


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {module: {target for target in imports_of(module, path) if target in files}
            for module, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, groups, counter = {}, {}, set(), [], [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_graph_reads_lazy_and_relative_imports():
    # the reader itself: a lazy import inside a function and a compiled extension both count
    graph = import_graph()
    assert "entropy3d.render.renderer" in graph["entropy3d.cli.demo_commands"]  # imported inside a command
    assert "entropy3d.physics._rideloop" not in graph["entropy3d.physics.ride"]  # an extension, not a .py file
    assert "entropy3d.physics" not in graph["entropy3d.physics.ride"]  # `from entropy3d.physics import _rideloop`
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles():
    found = circles(import_graph())
    assert not found, "import circles (each group imports itself round the loop): " + "; ".join(
        " <-> ".join(group) for group in found)


def test_imports_point_down_the_layers():
    upward = []
    for module, targets in import_graph().items():
        for target in targets:
            source_layer, target_layer = RANK[package_of(module)], RANK[package_of(target)]
            if target_layer > source_layer:
                upward.append(f"{module} ({LAYERS[source_layer][0]}) imports {target} ({LAYERS[target_layer][0]})")
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(sorted(upward))


def test_entropy_citys_rules_import_no_other_rulebook():
    """Entropy City's folder stands beside the other rulebooks (one layer), and its rules import
    none of theirs: only its registration (``system.py``) reaches the shared plug-in base. Before
    the move its rules sat a layer below ``systems`` and the layers said so; within one layer the
    test above cannot (the reviewer's remark)."""
    folder = "entropy3d.systems.entropy_city"
    reaching = sorted(f"{module} imports {target}" for module, targets in import_graph().items()
                      if module.startswith(folder + ".") and module != folder + ".system"
                      for target in targets
                      if target.startswith("entropy3d.systems") and not target.startswith(folder))
    assert not reaching, "Entropy City's rules import another rulebook or the plug-in base:\n" + "\n".join(reaching)


def test_every_package_has_a_layer():
    assert {package_of(module) for module in module_files()} <= set(RANK)


BLOCKED_IMPORT = """
import importlib, importlib.abc, json, sys

blocked = set(sys.argv[1].split(","))


class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ImportError(f"{name} is not for this layer")


sys.meta_path.insert(0, Blocked())
failed = {}
for module in sys.argv[2:]:
    try:
        importlib.import_module(module)
    except Exception as error:
        failed[module] = f"{type(error).__name__}: {error}"
print(json.dumps(failed))
"""


def import_blocked(modules: list[str], blocked: set[str]) -> dict[str, str]:
    """Each module imported in one fresh interpreter with the ``blocked`` top-level packages
    refused; module -> the error of those that failed."""
    done = subprocess.run([sys.executable, "-c", BLOCKED_IMPORT, ",".join(sorted(blocked)), *modules],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _modules_blocking(blocked: frozenset[str]) -> list[str]:
    """Every module whose package may use none of ``blocked`` (and may use every other engine)."""
    chosen = []
    for module in module_files():
        if module.endswith("__main__"):
            continue  # running it runs the command line
        allowed = {engine for engine, packages in ENGINES.items() if package_of(module) in packages}
        if {engine for engine in ENGINES if engine not in allowed} == blocked:
            chosen.append(module)
    return chosen


@pytest.mark.parametrize("blocked", sorted({frozenset(e for e in ENGINES if package_of(m) not in ENGINES[e])
                                           for m in module_files()}, key=sorted), ids=lambda b: "-".join(sorted(b)))
def test_every_module_imports_without_the_engines_its_layer_may_not_use(blocked):
    """pybullet only under entropy3d.physics; panda3d only under render, viewer and video: every
    other module, imported with those refused, loads."""
    modules = _modules_blocking(blocked)
    assert modules
    failed = import_blocked(modules, set(blocked))
    assert not failed, "\n".join(f"{module}: {error}" for module, error in sorted(failed.items()))


def test_the_blocker_refuses_what_it_blocks():
    # the check above must be able to fail: a module that needs a blocked engine does not load
    failed = import_blocked(["entropy3d.physics.engine", "entropy3d.geometry"], {"pybullet"})
    assert set(failed) == {"entropy3d.physics.engine"} and "pybullet" in failed["entropy3d.physics.engine"]
