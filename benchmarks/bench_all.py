"""Every row of issue 17's table in one command: the figure, its floor from the same run, the ratio.

    python benchmarks/bench_all.py [--quick] [--json]

Each row is measured by the benchmark that owns it and reported with the keys ``row``, ``value``,
``floor``, ``ratio`` (value / floor), ``target``, ``unit`` and ``met`` (true/false). ``--json``
prints one JSON object per row, one per line; without it, a table. ``--quick`` runs fewer
repeats (still the median of at least 5) so that the whole table takes a few minutes.

Adding a row: write a function ``(quick: bool) -> list[dict]`` returning rows with those keys
(see ``los_rows``) and add it to ``ROW_SOURCES``. The rows' shared helpers (medians, the row's
keys, the generated print meshes) are in ``rows.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling bench_*.py modules

import bench_commands  # noqa: E402
import bench_demo  # noqa: E402
import bench_games  # noqa: E402
import bench_los  # noqa: E402
import bench_physics  # noqa: E402
import bench_render  # noqa: E402

KEYS = ("row", "value", "floor", "ratio", "target", "unit", "met")


def los_rows(quick: bool) -> list[dict]:
    """All-pairs line of sight at 8, 16 and 32 bikes against raw Embree (bench_los.py)."""
    return [row.as_json_row() for row in bench_los.los_rows(repeat=repeats(quick))]


def repeats(quick: bool) -> int:
    """Runs per timing: 5 with --quick (the least any row reports a median of), else 9."""
    return 5 if quick else 9


ROW_SOURCES: dict[str, Callable[[bool], list[dict]]] = {
    "activation": lambda quick: bench_physics.activation_rows(repeats(quick)),
    "los": los_rows,
    "video": lambda quick: bench_demo.video_rows(repeats(quick)),
    "film": lambda quick: bench_demo.film_rows(1 if quick else 3),
    "imported-mesh": lambda quick: bench_physics.imported_mesh_rows(repeats(quick)),
    "setup": lambda quick: bench_render.setup_rows(repeats(quick)),
    "commands": lambda quick: bench_commands.command_rows(repeats(quick)),
    "games": bench_games.game_rows,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (median of 5): a few minutes in all")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--only", nargs="+", choices=sorted(ROW_SOURCES), help="run only these benchmarks")
    args = parser.parse_args()
    for name, source in ROW_SOURCES.items():
        if args.only and name not in args.only:
            continue
        for row in source(args.quick):
            missing = set(KEYS) - set(row)
            if missing:
                raise ValueError(f"benchmark {name!r} gave a row without {sorted(missing)}: {row}")
            if args.json:
                print(json.dumps({key: row[key] for key in KEYS}), flush=True)
            else:
                print(f"{row['row']:<42}{row['value']:>10.2f} {row['unit']:<9} floor {row['floor']:>9.2f}  "
                      f"ratio {row['ratio']:>6.2f}  target {row['target']}: {'met' if row['met'] else 'NOT met'}",
                      flush=True)


if __name__ == "__main__":
    main()
