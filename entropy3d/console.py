"""The ``entropy3d`` console script: stops are handled from its first line.

:func:`main` installs the handlers of :mod:`entropy3d.stops` before it imports the command line
(typer and every command module, ~40 ms), so a Ctrl-C at any moment of start-up ends the
command with 130 and no output. Only the interpreter's own start (before this module runs) is
left to Python's default: a Ctrl-C there ends the process by the signal, as the shell reports
it (130).
"""

from __future__ import annotations

import sys

from entropy3d.stops import Terminated, termination_handled


def main(argv: list[str] | None = None) -> int:
    """Run ``entropy3d`` with ``argv`` (the process's arguments when None); its exit code."""
    try:
        with termination_handled():
            from entropy3d.cli import main as run

            return run(argv)
    except Terminated as stop:  # a stop that landed before the command line ran
        return int(stop.code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
