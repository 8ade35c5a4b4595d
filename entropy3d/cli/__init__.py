"""The ``entropy3d`` command line: thin commands over the library.

Each command group lives in its own module and imports its heavy engines inside the handlers,
so ``entropy3d --help`` and the light commands start fast and need no display.
Errors of entropy3d's own (bad scene, bad plan, bad arguments) print as one clear message with
exit code 1 (2 for usage errors), never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading

from entropy3d.cli import (
    activation_commands,  # noqa: F401  (registers commands)
    attack_commands,  # noqa: F401  (registers commands)
    demo_commands,  # noqa: F401  (registers commands)
    export_commands,  # noqa: F401  (registers commands)
    los_commands,  # noqa: F401  (registers commands)
    render_commands,  # noqa: F401  (registers commands)
    rules_commands,  # noqa: F401  (registers commands)
    scene_commands,  # noqa: F401  (registers commands)
    share_commands,  # noqa: F401  (registers commands)
    sweep_commands,  # noqa: F401  (registers commands)
)
from entropy3d.cli.app import app
from entropy3d.outputs import refuse_commits, stop_requested

__all__ = ["app", "main"]


class Terminated(SystemExit):
    """SIGTERM or SIGHUP, raised as an exit (code 128 + the signal's number)."""


REDELIVERY_S = 0.01
"""How long a deferred stop waits before it is sent again (an import or a finaliser ends first), s."""


def _terminated(signum, frame) -> None:
    """SIGTERM (and SIGHUP) as an exception, so output files being written are removed
    (:class:`~entropy3d.outputs.AtomicFile`) and worker processes stopped, as on Ctrl-C.

    Not while a module is being imported: libraries guard their optional imports with
    ``except BaseException`` and keep the error in place of the module (trimesh's
    ``ExceptionWrapper``), so a stop raised there was swallowed and the import failed further on
    with a ``TypeError`` and a traceback (``activate --gif`` stopped at its ``import trimesh``: 2 of
    400 runs of tools/fault_report.py). The stop is sent again once the import is done."""
    if _importing(frame):
        _send_again(signum)
        return
    signal.signal(signum, signal.SIG_IGN)
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


def _send_again(signum: int) -> None:
    """Send ``signum`` to this process again from a thread, :data:`REDELIVERY_S` from now."""
    threading.Timer(REDELIVERY_S, os.kill, (os.getpid(), signum)).start()


@contextlib.contextmanager
def termination_handled():
    """SIGTERM and SIGHUP raise :class:`Terminated` in the main thread while inside.

    Python swallows an exception raised inside a finaliser (a ``__del__`` running at garbage
    collection) and only prints it; a signal landing there would be lost and the process, now
    ignoring the signal, would run on to the end. Such a swallowed termination is delivered again,
    so it stops the process once the finaliser is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handled = {signum: signal.signal(signum, _terminated) for signum in (signal.SIGTERM, signal.SIGHUP)}
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
        refuse_commits(None)
        for signum, previous in handled.items():
            signal.signal(signum, previous)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point."""
    # trimesh warns with a traceback when it falls back from a fast path (even when the cause was
    # our own SIGTERM); a user gets our errors, not a library's internal retries
    logging.getLogger("trimesh").setLevel(logging.ERROR)
    code = 0
    with termination_handled():
        try:
            app(args=argv, prog_name="entropy3d", standalone_mode=True)
        except SystemExit as exit_:
            code = exit_.code
            code = code if isinstance(code, int) else (0 if code is None else 1)
        except BaseException:
            if stop_requested() is None:
                raise
        stop = stop_requested()
    # a library may turn the stop into an error of its own (pydantic-core builds a validator in
    # Rust and reports the exception raised inside as a SchemaError; 1 of 400 `activate --gif`
    # runs): after a stop the process exits as stopped, with no traceback
    return code if stop is None else stop.code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
