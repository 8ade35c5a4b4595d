"""How the suite shares out over processes.

``tools/test`` runs it on pytest-xdist workers with ``--dist loadgroup``. Every test is given the
group of its file, so a file runs on one worker and builds its module and session fixtures once,
as in one process. The files of a folder in :data:`ONE_WORKER_FOLDERS` share one group: their
session fixtures are too costly to build once per worker (``tests/sweep``: a Dask cluster of two
worker processes and a sweep during which one of them is killed).

The groups are handed out in the order of :data:`LONGEST_FIRST`, then the rest in collection
order (``tools/test`` turns off xdist's own order, by number of tests): a worker that takes the
README's commands (~100 s) last runs them alone while the other has finished."""

from __future__ import annotations

from pathlib import Path

import pytest

#: folders of ``tests/`` whose files all run on one worker, as they share costly session fixtures
ONE_WORKER_FOLDERS = ("sweep", "video")

TESTS = Path(__file__).resolve().parent

#: the groups that take 45 s or more of a two-core run (``--durations=0``, 2026-11-29), longest
#: first: longest-processing-time-first leaves the workers' loads within a short group's time
LONGEST_FIRST = ("test_readme.py", "sweep", "video", "game/test_demo_cli.py",
                 "systems/chase_vehicles/test_chase_game.py", "share/test_share_page.py", "game/test_game_loop.py",
                 "systems/entropy_city/test_opposed_odds.py", "game/test_faults.py", "viewer/test_window.py",
                 "game/test_video_framing.py")


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
    rank = {group: k for k, group in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(worker_group(item.path), len(rank)))  # stable: a file keeps its order
