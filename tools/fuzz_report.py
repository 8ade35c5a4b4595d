"""Run N mutated bundled scenes (default 10,000) through ``entropy3d validate`` in process and
print the counts: clean errors, accepted, accepted though holding a non-finite number, a duplicate
key or overlapping bases, unclean errors, tracebacks, hangs (issue 18). Failures print as found.

    PYTHONPATH=$PWD python3.11 tools/fuzz_report.py [N] [--seed S]
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scene_fuzz import run_cases  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    counts: collections.Counter = collections.Counter()
    by_kind: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    failures, slowest, start = [], 0.0, time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for name, kind, outcome, detail, elapsed in run_cases(args.count, Path(folder), args.seed):
            counts[outcome] += 1
            by_kind[kind][outcome] += 1
            slowest = max(slowest, elapsed)
            if outcome not in ("clean", "accepted"):
                failures.append((name, kind, outcome, detail))
                print(f"  {outcome}: {name} ({kind}): {detail[:300]}", flush=True)
            done = sum(counts.values())
            if done % 500 == 0:
                print(f"{done} scenes, {time.perf_counter() - start:.0f} s: {dict(counts)}", flush=True)
    total = time.perf_counter() - start
    print(f"{args.count} mutated scenes through validate in {total:.0f} s (slowest {slowest:.2f} s)")
    print(f"  per case {total / max(1, args.count):.3f} s")
    for outcome in ("clean", "accepted", "accepted_forbidden", "unclean", "traceback", "hang"):
        print(f"  {outcome:<10} {counts[outcome]}")
    print("by mutation: " + "; ".join(f"{kind} {dict(c)}" for kind, c in sorted(by_kind.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
