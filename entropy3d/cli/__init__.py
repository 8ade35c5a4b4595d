"""The ``entropy3d`` command line: thin commands over the library.

Each command group lives in its own module and imports its heavy engines inside the handlers,
so ``entropy3d --help`` and the light commands start fast and need no display.
Errors of entropy3d's own (bad scene, bad plan, bad arguments) print as one clear message with
exit code 1 (2 for usage errors), never a traceback.
"""

from __future__ import annotations

import logging
import sys

from entropy3d.cli import (
    activation_commands,  # noqa: F401  (registers commands)
    attack_commands,  # noqa: F401  (registers commands)
    demo_commands,  # noqa: F401  (registers commands)
    duel_commands,  # noqa: F401  (registers commands)
    export_commands,  # noqa: F401  (registers commands)
    los_commands,  # noqa: F401  (registers commands)
    render_commands,  # noqa: F401  (registers commands)
    rules_commands,  # noqa: F401  (registers commands)
    scene_commands,  # noqa: F401  (registers commands)
    share_commands,  # noqa: F401  (registers commands)
    sweep_commands,  # noqa: F401  (registers commands)
)
from entropy3d.cli.app import app
from entropy3d.stops import Terminated, stop_requested, termination_handled

__all__ = ["Terminated", "app", "main", "termination_handled"]


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
