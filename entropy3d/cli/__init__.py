"""The ``entropy3d`` command line: thin commands over the library.

Each command group lives in its own module and imports its heavy engines inside the handlers,
so ``entropy3d --help`` and the light commands start fast and need no display.
Errors of entropy3d's own (bad scene, bad plan, bad arguments) print as one clear message with
exit code 1 (2 for usage errors), never a traceback.
"""

from __future__ import annotations

import signal
import sys
import threading

from entropy3d.cli import (
    attack_commands,  # noqa: F401  (registers commands)
    demo_commands,  # noqa: F401  (registers commands)
    export_commands,  # noqa: F401  (registers commands)
    los_commands,  # noqa: F401  (registers commands)
    physics_commands,  # noqa: F401  (registers commands)
    render_commands,  # noqa: F401  (registers commands)
    rules_commands,  # noqa: F401  (registers commands)
    scene_commands,  # noqa: F401  (registers commands)
    share_commands,  # noqa: F401  (registers commands)
)
from entropy3d.cli.app import app

__all__ = ["app", "main"]


def _terminated(signum, frame) -> None:
    """SIGTERM (and SIGHUP) as an exception, so output files being written are removed
    (:class:`~entropy3d.outputs.AtomicFile`) and worker processes stopped, as on Ctrl-C."""
    signal.signal(signum, signal.SIG_IGN)
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point."""
    handled = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            handled[signum] = signal.signal(signum, _terminated)
    try:
        app(args=argv, prog_name="entropy3d", standalone_mode=True)
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    finally:
        for signum, previous in handled.items():
            signal.signal(signum, previous)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
