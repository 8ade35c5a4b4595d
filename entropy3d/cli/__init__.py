"""The ``entropy3d`` command line: thin commands over the library.

Each command group lives in its own module and imports its heavy engines inside the handlers,
so ``entropy3d --help`` and the light commands start fast and need no display.
Errors of entropy3d's own (bad scene, bad plan, bad arguments) print as one clear message with
exit code 1 (2 for usage errors), never a traceback.
"""

from __future__ import annotations

import sys

from entropy3d.cli import (
    attack_commands,  # noqa: F401  (registers commands)
    demo_commands,  # noqa: F401  (registers commands)
    los_commands,  # noqa: F401  (registers commands)
    physics_commands,  # noqa: F401  (registers commands)
    render_commands,  # noqa: F401  (registers commands)
    rules_commands,  # noqa: F401  (registers commands)
    scene_commands,  # noqa: F401  (registers commands)
)
from entropy3d.cli.app import app

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point."""
    try:
        app(args=argv, prog_name="entropy3d", standalone_mode=True)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
