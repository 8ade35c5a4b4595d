"""Output files written atomically: an error or Ctrl-C never leaves half a file behind.

Everything entropy3d writes (replays, pictures, videos, reports, scenes) goes to a temporary file
beside the target, which is renamed into place only when complete; on any exception (including
``KeyboardInterrupt``) the temporary file is deleted and an older file at the target is left as it
was. The finished file gets the mode a new file normally gets (0o666 less the umask), not the
0o600 of a temporary file. A process killed outright (SIGKILL) cannot clean up: the next process
to write into the same folder removes the temporary files it left. Standard library only, so every
layer may use it.
"""

from __future__ import annotations

import atexit
import os
import re
import signal
import tempfile
import threading
from pathlib import Path
from typing import IO

from entropy3d.errors import OutputPathError
from entropy3d.stops import STOPPING_SIGNALS, stop_requested


def check_output_path(path: str | Path, suffixes: tuple[str, ...]) -> Path:
    """Validate an output path before any work: suffix allowed and parent folder present."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise OutputPathError(f"output {str(path)!r} must end in {' or '.join(suffixes)}")
    if not path.parent.resolve().is_dir():
        raise OutputPathError(f"output folder {str(path.parent)!r} does not exist; create it first")
    return path


_PENDING: set[Path] = set()
"""Temporary files not yet committed or aborted; removed at interpreter exit whatever the path out."""

@atexit.register
def _remove_pending() -> None:
    for temporary in list(_PENDING):
        temporary.unlink(missing_ok=True)
    _PENDING.clear()


def _make_temporary(target: Path) -> tuple[int, Path]:
    """mkstemp and registration with stopping signals held back, so a SIGTERM cannot land between
    the file's creation and the record that it must be removed. The name carries this process's
    id; the first write into a folder removes the temporary files killed processes left there
    (:func:`remove_orphans`)."""
    folder = target.parent.resolve()
    if folder not in _SWEPT:
        remove_orphans(folder)
        _SWEPT.add(folder)
    held = threading.current_thread() is threading.main_thread()
    if held:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING_SIGNALS)
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.{_HOST}.{os.getpid()}-",
                                        suffix=f".part{target.suffix}")
        temporary = Path(name)
        _PENDING.add(temporary)
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    return handle, temporary


#: folders this process has removed killed processes' temporary files from: once each, not at every
#: write (a sweep writes thousands of replays into one folder)
_SWEPT: set[Path] = set()
#: this machine's name as a temporary file carries it: a process id means something on its own host
#: only (a folder shared over NFS or with a container holds other hosts' files)
_HOST = re.sub(r"[^A-Za-z0-9_]", "_", os.uname().nodename.split(".")[0]) or "host"
#: a temporary file's name: ``.NAME.HOST.PID-XXXXXXXX.partSUFFIX`` (mkstemp's eight random characters)
_TEMPORARY_NAME = re.compile(r"^\..+\.(?P<host>[A-Za-z0-9_]+)\.(?P<pid>\d+)-[A-Za-z0-9_]{8}\.part")


def remove_orphans(folder: Path) -> list[Path]:
    """Remove the temporary files in ``folder`` of this host's processes that are gone; the ones
    removed. A process killed outright (SIGKILL, a power cut) cleans nothing up: its
    ``.NAME.HOST.PID-XXXXXXXX.partSUFFIX`` stayed beside the replay (issue 49). A live process's
    file, another host's, one this process may not remove and any name not of that form are left
    alone: cleaning up never stops a write."""
    removed = []
    for found in folder.glob(".*.part*"):
        named = _TEMPORARY_NAME.match(found.name)
        if named is None or named["host"] != _HOST or _running(int(named["pid"])):
            continue
        try:
            found.unlink(missing_ok=True)
        except OSError:  # another user's file in a shared folder
            continue
        removed.append(found)
    return removed


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def public_mode() -> int:
    """The mode a new file gets by default (0o666 less the umask); temporary files start 0o600."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class AtomicFile:
    """A temporary file beside ``target`` that becomes ``target`` on :meth:`commit`.

    The temporary file is hidden (``.<name>.<host>.<pid>-<random>.part<suffix>``) and keeps the target's
    suffix, so tools that pick a format by the file name (ffmpeg, Pillow) can write to
    :attr:`temporary` directly. With ``mode`` (as for :func:`open`, e.g. ``"wb"``, or ``"w"`` with
    ``encoding=``), :attr:`stream` is the temporary file opened for writing; without, it is None.

    As a context manager it commits on a normal exit and aborts on any exception. :meth:`commit`
    and :meth:`abort` may also be called directly (streaming writers); after either, the other
    and the end of the ``with`` block do nothing. A temporary file neither committed nor aborted
    (a signal landing between its creation and the ``try`` that guards it) is removed at exit.
    """

    def __init__(self, target: str | Path, mode: str | None = None, **open_args):
        self.target = Path(target)
        handle, self.temporary = _make_temporary(self.target)
        self.stream: IO | None = None
        self._done = False
        try:
            if mode is None:
                os.close(handle)
            else:
                self.stream = os.fdopen(handle, mode, **open_args)
        except BaseException:
            self._forget()
            raise

    def _forget(self) -> None:
        self.temporary.unlink(missing_ok=True)
        _PENDING.discard(self.temporary)

    def commit(self) -> Path:
        """Close the stream, give the file the public mode and rename it onto the target."""
        if self._done:
            return self.target
        stop = stop_requested()
        if stop is not None:
            self.abort()
            raise stop
        try:
            if self.stream is not None:
                self.stream.close()
            os.chmod(self.temporary, public_mode())
            os.replace(self.temporary, self.target)
            _PENDING.discard(self.temporary)
        except BaseException:
            self.abort()
            raise
        self._done = True
        return self.target

    def abort(self) -> None:
        """Close the stream and delete the temporary file; the target is left as it was."""
        if self._done:
            return
        self._done = True
        try:
            if self.stream is not None:
                self.stream.close()
        finally:
            self._forget()

    def __enter__(self) -> "AtomicFile":
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns the path."""
    with AtomicFile(path, "wb") as output:
        output.stream.write(data)
    return output.target
