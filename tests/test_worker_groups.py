"""The suite's share-out over pytest-xdist workers (tests/conftest.py): a test file's tests run on
one worker, and the sweep's files all on one, since they share one Dask cluster."""

from pathlib import Path

from tests.conftest import TESTS, worker_group


def test_a_file_is_its_own_group_and_the_sweep_folder_is_one():
    assert worker_group(TESTS / "game" / "test_video.py") == "game/test_video.py"
    assert worker_group(TESTS / "test_readme.py") == "test_readme.py"
    assert {worker_group(path) for path in (TESTS / "sweep").glob("test_*.py")} == {"sweep"}


def test_every_test_file_has_one_group_and_no_two_files_outside_the_sweep_share_one():
    files = sorted(Path(TESTS).rglob("test_*.py"))
    groups = [worker_group(path) for path in files if "sweep" not in path.parts]
    assert len(files) > 100 and len(groups) == len(set(groups))


def test_the_longest_groups_are_named_by_groups_that_exist():
    """LONGEST_FIRST names groups the suite has (a renamed file would silently lose its place)."""
    from tests.conftest import LONGEST_FIRST

    groups = {worker_group(path) for path in Path(TESTS).rglob("test_*.py")}
    assert len(LONGEST_FIRST) == len(set(LONGEST_FIRST)) and set(LONGEST_FIRST) <= groups
