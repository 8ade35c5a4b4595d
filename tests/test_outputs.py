"""entropy3d.outputs: every output file is written whole or not at all."""

from __future__ import annotations

import os
import stat

import pytest

from entropy3d.errors import OutputPathError
from entropy3d.outputs import AtomicFile, check_output_path, public_mode, write_atomic


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode_of(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_public_mode_is_0666_less_the_umask(umask_022):
    assert public_mode() == 0o644


def test_write_atomic_writes_the_file_with_the_umask_mode(tmp_path, umask_022):
    target = tmp_path / "out.json"
    assert write_atomic(target, b"{}\n") == target
    assert target.read_bytes() == b"{}\n"
    assert mode_of(target) == 0o644
    assert list(tmp_path.iterdir()) == [target]


def test_write_atomic_replaces_an_older_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    write_atomic(str(target), b"new")
    assert target.read_bytes() == b"new"


class Boom(Exception):
    pass


class HalfWriter:
    """A stream that writes the first bytes it is given, then fails (a full disk, a Ctrl-C)."""

    def __init__(self, stream, error):
        self.stream, self.error = stream, error

    def write(self, data):
        self.stream.write(data[:2])
        self.stream.flush()
        raise self.error

    def close(self):
        self.stream.close()


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_bytes_failing_mid_write_leave_the_older_file_and_no_temporary(tmp_path, monkeypatch, error):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda *args, **kwargs: HalfWriter(fdopen(*args, **kwargs), error))
    with pytest.raises(error):
        write_atomic(target, b"new and longer")
    assert target.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [target]


def test_bytes_that_are_not_bytes_leave_nothing(tmp_path):
    with pytest.raises(TypeError):
        write_atomic(tmp_path / "out.txt", "text, not bytes")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")

    def refuse(source, destination):
        raise PermissionError(f"cannot replace {destination}")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_stream_failing_mid_write_leaves_the_older_file_and_no_temporary(tmp_path, error):
    target = tmp_path / "game.jsonl"
    target.write_text("old\n")
    with pytest.raises(error):
        with AtomicFile(target, "w", encoding="utf-8") as output:
            output.stream.write('{"half": ')
            output.stream.flush()
            assert output.temporary.exists() and output.temporary.parent == tmp_path
            raise error
    assert target.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_path_failing_mid_write_leaves_no_file_and_no_temporary(tmp_path, error):
    target = tmp_path / "game.mp4"
    with pytest.raises(error):
        with AtomicFile(target) as output:
            output.temporary.write_bytes(b"half a video")
            raise error
    assert list(tmp_path.iterdir()) == []


def test_path_form_keeps_the_suffix_and_renames_with_the_umask_mode(tmp_path, umask_022):
    target = tmp_path / "game.mp4"
    with AtomicFile(target) as output:
        assert output.stream is None
        assert output.temporary.name.startswith(".game.mp4.") and output.temporary.suffix == ".mp4"
        assert mode_of(output.temporary) == 0o600
        output.temporary.write_bytes(b"video")  # as another program (ffmpeg) would
    assert target.read_bytes() == b"video"
    assert mode_of(target) == 0o644
    assert list(tmp_path.iterdir()) == [target]


def test_commit_and_abort_by_hand(tmp_path):
    kept, dropped = tmp_path / "kept.txt", tmp_path / "dropped.txt"
    output = AtomicFile(kept, "w")
    output.stream.write("done")
    assert output.commit() == kept
    output.abort()  # after commit: nothing to do
    assert kept.read_text() == "done"
    with AtomicFile(dropped, "w") as output:
        output.stream.write("half")
        output.abort()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]


def test_check_output_path(tmp_path):
    assert check_output_path(tmp_path / "a.png", (".png",)) == tmp_path / "a.png"
    with pytest.raises(OutputPathError, match="must end in .png"):
        check_output_path(tmp_path / "a.jpg", (".png",))
    with pytest.raises(OutputPathError, match="does not exist"):
        check_output_path(tmp_path / "missing" / "a.png", (".png",))


def test_a_temporary_left_open_is_removed_when_the_process_exits(tmp_path):
    """A SIGTERM landing between a writer's creation and the ``try`` that guards it (or in a
    ``finally`` that runs after the game) exits the process with the writer neither committed nor
    aborted: the temporary file must still go (the CI failure of session 3, test_faults)."""
    import subprocess
    import sys
    target = tmp_path / "game.jsonl"
    code = ("import sys; from entropy3d.outputs import AtomicFile; "
            f"pending = AtomicFile({str(target)!r}, 'w'); pending.stream.write('half'); "
            "print(pending.temporary.name, flush=True); raise SystemExit(143)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 143
    assert done.stdout.strip().startswith(".game.jsonl.")
    assert list(tmp_path.iterdir()) == []


def test_a_committed_file_is_not_removed_at_exit(tmp_path):
    import subprocess
    import sys
    target = tmp_path / "game.jsonl"
    code = ("from entropy3d.outputs import AtomicFile; "
            f"pending = AtomicFile({str(target)!r}, 'w'); pending.stream.write('whole'); pending.commit()")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]
    assert target.read_text() == "whole"


def test_the_temporary_a_killed_process_left_goes_when_its_folder_is_written_again(tmp_path):
    """Issue 49, item 3: a demo killed outright (SIGKILL) left its ``.d.jsonl...part.jsonl``
    beside the replay for good. The next process to write into the folder removes it (once: a
    sweep writes thousands of replays into one folder); the temporary files of a process still
    running (this one's), and another host's (a folder shared over NFS), stay."""
    import signal
    import subprocess
    import sys
    target = tmp_path / "d.jsonl"
    code = ("import os, signal; from entropy3d.outputs import AtomicFile; "
            f"pending = AtomicFile({str(target)!r}, 'w'); pending.stream.write('half'); pending.stream.flush(); "
            "print(pending.temporary.name, flush=True); os.kill(os.getpid(), signal.SIGKILL)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL
    orphan = tmp_path / done.stdout.strip()
    assert orphan.is_file() and orphan.name.startswith(".d.jsonl.") and orphan.name.endswith(".part.jsonl")
    (tmp_path / ".notes.part.txt").write_text("a user's own file, no process id in its name")
    elsewhere = tmp_path / ".d.jsonl.another_host.2-abcdefgh.part.jsonl"  # a process id of another machine's
    elsewhere.write_text("a writer on another host sharing the folder")
    running = AtomicFile(tmp_path / "e.jsonl", "w")  # this process's own, not committed yet: stays
    assert not orphan.exists()
    other = AtomicFile(target, "w")
    assert running.temporary.is_file() and other.temporary.is_file()
    with AtomicFile(target, "w") as again:
        again.stream.write("whole")
    assert running.temporary.is_file()
    running.abort()
    other.abort()
    assert sorted(p.name for p in tmp_path.iterdir()) == [elsewhere.name, ".notes.part.txt", "d.jsonl"]
