"""How the suite shares out over processes.

``tools/test`` runs it on pytest-xdist workers with ``--dist loadgroup``. Every test is given the
group of its file, so a file runs on one worker and builds its module and session fixtures once,
as in one process. The files of a folder in :data:`ONE_WORKER_FOLDERS` share one group: their
session fixtures are too costly to build once per worker (``tests/sweep``: a Dask cluster of two
worker processes and a sweep during which one of them is killed)."""

from __future__ import annotations

from pathlib import Path

import pytest

#: folders of ``tests/`` whose files all run on one worker, as they share costly session fixtures
ONE_WORKER_FOLDERS = ("sweep",)

TESTS = Path(__file__).resolve().parent


def worker_group(path: Path) -> str:
    """The xdist group of a test in the file ``path``: its folder's name for a folder of
    :data:`ONE_WORKER_FOLDERS`, else the file's path relative to ``tests/``."""
    relative = Path(path).resolve().relative_to(TESTS)
    if len(relative.parts) > 1 and relative.parts[0] in ONE_WORKER_FOLDERS:
        return relative.parts[0]
    return relative.as_posix()


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config, items) -> None:
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        item.add_marker(pytest.mark.xdist_group(worker_group(item.path)))
