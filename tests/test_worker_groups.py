"""The suite's share-out over pytest-xdist workers (tests/conftest.py): a test file's tests run on
one worker, and the files of a folder sharing a costly session fixture all on one (the sweep's
Dask cluster, the video tests' default demo game)."""

from pathlib import Path

from tests.conftest import ONE_WORKER_FOLDERS, TESTS, worker_group


def test_a_file_is_its_own_group_and_a_shared_folder_is_one():
    assert worker_group(TESTS / "game" / "test_video.py") == "game/test_video.py"
    assert worker_group(TESTS / "test_readme.py") == "test_readme.py"
    assert set(ONE_WORKER_FOLDERS) >= {"sweep", "video"}
    for folder in ONE_WORKER_FOLDERS:
        assert {worker_group(path) for path in (TESTS / folder).glob("test_*.py")} == {folder}


def test_every_test_file_has_one_group_and_no_two_files_outside_the_shared_folders_share_one():
    files = sorted(Path(TESTS).rglob("test_*.py"))
    groups = [worker_group(path) for path in files
              if not set(path.relative_to(TESTS).parts[:1]) & set(ONE_WORKER_FOLDERS)]
    assert len(files) > 100 and len(groups) == len(set(groups))


def test_the_longest_groups_are_named_by_groups_that_exist():
    """LONGEST_FIRST names groups the suite has (a renamed file would silently lose its place)."""
    from tests.conftest import LONGEST_FIRST

    groups = {worker_group(path) for path in Path(TESTS).rglob("test_*.py")}
    assert len(LONGEST_FIRST) == len(set(LONGEST_FIRST)) and set(LONGEST_FIRST) <= groups
