"""Stopping a command: Ctrl-C (SIGINT), SIGTERM and SIGHUP, each raised as one exit.

A stop at any moment ends a command with 128 + the signal's number (130 for Ctrl-C) and no
output file, partial or whole (after :func:`refuse_commits`, :class:`~entropy3d.outputs.AtomicFile`
commits nothing). The three signals are handled alike: Python's own ``KeyboardInterrupt`` was
swallowed by libraries that guard their imports with ``except BaseException`` (Ctrl-C half a
second into ``render`` was lost in 4 of 9 tries and the picture written, issue 49), so Ctrl-C
waits for an import to end as SIGTERM does. Standard library only: the console script
(:mod:`entropy3d.console`) installs the handlers before the command line's own imports.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command, each raised as :class:`Terminated` (128 + its number)."""

_stop_requested: BaseException | None = None


def refuse_commits(stop: BaseException | None) -> None:
    """From now on every commit aborts and raises ``stop`` instead (None: commit again).

    Called when the process is asked to stop (Ctrl-C, SIGTERM): the stop travels up as an exception, but a
    library that catches ``BaseException`` (trimesh does, around its sparse vertex normals) can
    swallow it and let the command run on to write its output. No output lands after a stop."""
    global _stop_requested
    _stop_requested = stop


def stop_requested() -> BaseException | None:
    """The stop :func:`refuse_commits` was given, if any."""
    return _stop_requested


class Terminated(SystemExit):
    """Ctrl-C (SIGINT), SIGTERM or SIGHUP, raised as an exit (code 128 + the signal's number)."""


REDELIVERY_S = 0.01
"""How long a deferred stop waits before it is sent again (an import or a finaliser ends first), s."""


def _terminated(signum, frame) -> None:
    """A stopping signal as an exception, so output files being written are removed
    (:class:`~entropy3d.outputs.AtomicFile`) and worker processes stopped.

    Not while a module is being imported: libraries guard their optional imports with
    ``except BaseException`` and keep the error in place of the module (trimesh's
    ``ExceptionWrapper``), so a stop raised there was swallowed and the import failed further on
    with a ``TypeError`` and a traceback (``activate --gif`` stopped at its ``import trimesh``: 2 of
    400 runs of tools/fault_report.py). The stop is sent again once the import is done."""
    if _importing(frame):
        _send_again(signum)
        return
    signal.signal(signum, signal.SIG_IGN)
    _cancel_resends()
    stop = Terminated(128 + signum)
    refuse_commits(stop)
    raise stop


def _importing(frame) -> bool:
    """Whether ``frame`` runs inside an import (a frame of importlib's bootstrap is below it)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib."):
            return True
        frame = frame.f_back
    return False


#: the deferred stops waiting to be sent again (:func:`_send_again`)
_RESENDS: list[threading.Timer] = []


def _send_again(signum: int) -> None:
    """Send ``signum`` to this process again from a thread, :data:`REDELIVERY_S` from now. The
    thread is a daemon, so a process on its way out does not wait for it."""
    timer = threading.Timer(REDELIVERY_S, os.kill, (os.getpid(), signum))
    timer.daemon = True
    _RESENDS.append(timer)
    timer.start()


def _cancel_resends() -> None:
    """Stop every deferred stop still waiting: one has been delivered (or the command is done), and
    a late one would land after the handlers are gone: a Ctrl-C as Python's own KeyboardInterrupt,
    a traceback at the interpreter's shutdown (seen in 2 of 10 tries under load)."""
    while _RESENDS:
        _RESENDS.pop().cancel()


@contextlib.contextmanager
def termination_handled():
    """Ctrl-C, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread while inside.

    Python swallows an exception raised inside a finaliser (a ``__del__`` running at garbage
    collection) and only prints it; a signal landing there would be lost and the process, now
    ignoring the signal, would run on to the end. Such a swallowed termination is delivered again,
    so it stops the process once the finaliser is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handled = {signum: signal.signal(signum, _terminated) for signum in STOPPING_SIGNALS}
    previous_hook = sys.unraisablehook

    def redeliver(unraisable) -> None:
        if isinstance(unraisable.exc_value, Terminated):
            signum = int(unraisable.exc_value.code) - 128
            signal.signal(signum, _terminated)
            _send_again(signum)  # a moment later, when the finaliser has returned
            return
        previous_hook(unraisable)

    sys.unraisablehook = redeliver
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
        _cancel_resends()
        if stop_requested() is not None:  # stopped: the process is on its way out; a second Ctrl-C
            for signum in STOPPING_SIGNALS:  # while it cleans up is ignored, not a traceback
                signal.signal(signum, signal.SIG_IGN)
        else:
            for signum, previous in handled.items():
                signal.signal(signum, previous)
