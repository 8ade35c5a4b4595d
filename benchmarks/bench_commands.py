"""Start-up speed of the commands a user types (issue 17), run on demand:

    python benchmarks/bench_commands.py [--repeat 5]

Each command runs in a fresh interpreter, as typed, and is timed in wall seconds (median of
``--repeat`` runs); the floor is ``entropy3d --help`` timed in the same run: what the interpreter,
the package and the command-line parser cost before any command does its work. Targets:
``validate`` of a bundled scene <= 0.4 s; ``los SCENE --all`` <= 0.8 s more than ``--help``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared rows.py
from rows import command_wall_s, row  # noqa: E402

from entropy3d.resources import bundled_dir  # noqa: E402

#: seconds: validate's whole command, and los --all's time beyond --help
VALIDATE_TARGET_S, LOS_OVER_HELP_TARGET_S = 0.4, 0.8


def command_rows(repeat: int = 5) -> list[dict]:
    """The validate and los --all rows against ``--help`` from the same run."""
    scene = str(bundled_dir("scenes") / "crossroads.yaml")
    help_s = command_wall_s(["--help"], repeat)
    validate_s = command_wall_s(["validate", scene], repeat)
    los_s = command_wall_s(["los", scene, "--all"], repeat)
    return [row("entropy3d validate crossroads.yaml (floor: --help)", validate_s, help_s,
                f"<= {VALIDATE_TARGET_S} s", "wall s", validate_s <= VALIDATE_TARGET_S),
            row("entropy3d los crossroads.yaml --all (floor: --help)", los_s, help_s,
                f"<= --help + {LOS_OVER_HELP_TARGET_S} s", "wall s", los_s - help_s <= LOS_OVER_HELP_TARGET_S)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (median reported, at least 5)")
    args = parser.parse_args()
    for result in command_rows(args.repeat):
        print(f"{result['row']:<52}{result['value']:>7.2f} s  floor {result['floor']:.2f} s  "
              f"target {result['target']}: {'met' if result['met'] else 'NOT met'}")


if __name__ == "__main__":
    main()
