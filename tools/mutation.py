#!/usr/bin/env python3
"""Mutation testing (issue 51): does the suite catch a wrong line in the code that decides games?

mutmut (https://mutmut.readthedocs.io) changes one thing at a time in a copy of the sources (a
flipped comparison, a changed constant, a dropped call) and runs the tests that reach the changed
function; a mutant the tests still pass is a *survivor*: a place where a bug would go unseen, or a
change that cannot alter behaviour (an *equivalent* mutant, such as SQL written in lower case).

    pip install --require-hashes --no-deps -r requirements-mutation.txt   # once, after the test lock
    python tools/mutation.py sweep replay            # the targets below; all when none is named
    python tools/mutation.py rules --files entropy3d/systems/entropy_city/combat.py   # part of a target
    python tools/mutation.py sweep --report-only     # the figures of a run stopped part way

It runs on demand, not in CI (hours for every target on two cores). Each target mutates its
files in ``build/mutation/TARGET/`` (a copy of the checkout's tracked files and its built
extensions; a rerun after a change picks up where mutmut's own cache allows), runs mutmut with
the target's tests, and writes its figures to ``docs/mutation.json`` and ``docs/mutation.md``:
per file the mutants killed (a test failed, or ran past mutmut's time limit), survived, and not
reached by any of the target's tests, the score killed / (killed + survived), and each survivor's
change with the reason it is equivalent (``tools/mutation_equivalent.yaml``) or "to kill".
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
#: target -> (the files it mutates, as globs; the tests that may kill them). The sweep's cluster
#: tests are left out: each mutant's forked test process would start the session's 10-game sweep on
#: a LocalCluster again (tens of seconds, and mutmut times a test without its fixtures), so what
#: only a cluster reaches (the scheduling in run.py, the report's pictures) shows as unreached;
#: run.py's jobs and resuming (test_run.py) and duel.py's seeds and tally are tested without one.
TARGETS = {
    "sweep": (["entropy3d/sweep/*.py"], ["tests/sweep/test_store.py", "tests/sweep/test_summary.py",
                                         "tests/sweep/test_summary_by_hand.py", "tests/sweep/test_run.py",
                                         "tests/sweep/test_report.py::test_wilson_interval_matches_its_closed_forms",
                                         "tests/sweep/test_duel.py::test_game_k_plays_seed_plus_half_k_with_a_on_the_"
                                         "first_gang_when_k_is_even",
                                         "tests/sweep/test_duel.py::test_three_wins_of_four_is_75_percent_with_the_"
                                         "wilson_interval_worked_by_hand",
                                         "tests/sweep/test_duel.py::test_a_duel_of_two_gangs_swaps_the_kinds_each_game_"
                                         "worked_by_hand",
                                         "tests/sweep/test_duel.py::test_a_duel_of_one_game_says_game_and_of_two_says_"
                                         "games"]),
    "replay": (["entropy3d/game/replay.py"],
               ["tests/game/test_faults.py", "tests/game/test_game_loop.py", "tests/sweep/test_store.py"]),
    "los": (["entropy3d/los/*.py"], ["tests/los"]),
    "rules": (["entropy3d/systems/entropy_city/*.py", "entropy3d/core/*.py"],
              ["tests/systems/entropy_city", "tests/core", "tests/systems/test_rolls.py"]),
    # the other rulebooks' engines (Entropy City's engine.py is the "rules" target's)
    "engines": ([f"entropy3d/systems/{book}/engine.py"
                 for book in ("chase_vehicles", "gang_battle", "tag", "tenacity")],
                ["tests/systems/chase_vehicles", "tests/systems/gang_battle", "tests/systems/tag",
                 "tests/systems/tenacity", "tests/systems/test_golden_reference_cards.py",
                 "tests/systems/test_reference_cards.py", "tests/systems/test_registry.py",
                 "tests/systems/test_rolls.py", "tests/systems/test_words.py"]),
}
#: tests whose work runs in another process (the CLI started as a subprocess, a browser, a Dask
#: cluster's workers), deselected in every run: mutmut maps a test to the functions it calls in its
#: own process, so these reach no mutant and kill none, but mutmut's clean pass runs every test of
#: the target before any mutant, and on the shared two-core machine they made that pass take minutes
#: and fail it ("Failed to run clean test" after the same tests had passed the stats pass: a demo
#: rendering a GIF under a 600 s limit, a sweep of four games on two workers under 300 s, Chromium)
ELSEWHERE = (
    "tests/systems/chase_vehicles/test_chase_game.py::test_demo_plays_the_car_chase_renders_it_and_replay_check_passes",
    "tests/systems/gang_battle/test_gang_game.py::test_demo_plays_the_gang_fight_renders_it_and_replay_check_passes",
    "tests/systems/gang_battle/test_gang_game.py::test_a_script_is_refused_on_a_gang_fight_with_the_fix",
    "tests/systems/gang_battle/test_gang_game.py::test_GANG_MOVE_activate_walks_a_fighter_in_the_gang_battles_words",
    "tests/systems/tag/test_tag_rulebook.py::test_TAG_TAG_the_share_page_steps_to_the_tag_in_a_real_browser",
    "tests/systems/tag/test_tag_rulebook.py::test_TAG_TURN_a_sweep_plays_tag_on_a_real_dask_cluster",
    "tests/systems/tenacity/test_tenacity_game.py::test_demo_plays_the_skirmish_renders_it_and_replay_check_passes",
    # four seeded chases in a pool of spawned processes (145 s of a clean pass on the busy machine)
    "tests/systems/chase_vehicles/test_chase_game.py::test_the_automatic_drivers_keep_out_of_the_buildings",
    # not elsewhere, but the code compared with itself (a second 6-turn chase against the module's
    # first, both played by the mutant): it kills only a mutant that crashes or rolls at random,
    # which the chase's other tests catch, and its 49 s were most of each chase mutant's time
    "tests/systems/chase_vehicles/test_chase_game.py::test_the_same_seed_plays_the_same_chase_byte_for_byte",
)
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.yaml"
FIGURES = ROOT / "docs" / "mutation.json"
REPORT = ROOT / "docs" / "mutation.md"
#: mutmut's words for what happened to a mutant -> ours ("suspicious": the tests ended in a way
#: mutmut did not expect, a crash of pytest or a signal; looked at by hand, neither killed nor survived)
OUTCOMES = {"killed": "killed", "timeout": "killed", "caught by type check": "killed", "segfault": "killed",
            "survived": "survived", "suspicious": "suspicious", "no tests": "unreached", "skipped": "unreached",
            "not checked": "unchecked", "check was interrupted by user": "unchecked"}
COLUMNS = ("killed", "survived", "suspicious", "unreached", "unchecked")
#: scratch files that are mutmut's, not the checkout's (never removed by :func:`mirror`)
MUTMUT_OWN = ("mutants",)


def tests_of(name: str, files: list[str]) -> list[str]:
    """The tests a run of ``files`` of target ``name`` gives mutmut: the target's, or for a run of
    some engines only, each engine's own tests (``tests/systems/<system>/``, mirroring it). mutmut
    runs every test it is given twice before any mutant (to map tests to functions, then clean):
    all of ``tests/systems`` is ~430 tests, 6 CPU minutes a pass; the engines' run of 2026-12-06
    mapped no test outside ``tests/systems/chase_vehicles/`` to the chase engine."""
    files_glob, tests = TARGETS[name]
    if name != "engines" or sorted(files) == sorted(files_glob):
        return tests
    return sorted({f"tests/systems/{Path(f).parent.name}" for f in files})


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"tools/mutation.py runs in a git checkout of entropy3d: git {args[0]} said "
                         f"{done.stderr.strip()}")
    return done.stdout


def mirror(scratch: Path) -> str:
    """Make ``scratch`` hold the checkout as it is: its files (tracked, or new and not ignored)
    and built extensions, unchanged ones kept (mutmut's cache of results stays valid for the
    functions that did not change), those gone from the checkout removed. Files mutmut copied
    into its ``mutants/`` and does not mutate (tests, data, extensions, the page's scripts) are
    brought up to date there too: it copies them only once. Returns what was copied, as ``git
    describe --always --dirty`` names it."""
    files = {name for name in git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
             if name and (ROOT / name).is_file()}
    files |= {str(path.relative_to(ROOT)) for path in (ROOT / "entropy3d").rglob("*.so")}
    mutants = scratch / "mutants"
    for name in sorted(files):
        source, target = ROOT / name, scratch / name
        if not (target.exists() and target.read_bytes() == source.read_bytes()):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        copied = mutants / name
        if not name.endswith(".py") or not name.startswith("entropy3d/"):  # mutmut rewrites the package's .py
            if copied.exists() and copied.read_bytes() != source.read_bytes():
                shutil.copy2(source, copied)
    for place in (scratch, mutants):
        if not place.is_dir():
            continue
        for path in sorted(place.rglob("*")):
            name = str(path.relative_to(place))
            if path.is_file() and name.split("/")[0] not in MUTMUT_OWN and "__pycache__" not in name \
                    and not name.startswith("mutmut") and not name.endswith(".meta") and name not in files:
                path.unlink()
    return git("describe", "--always", "--dirty").strip()


def forget_unmutated(scratch: Path, files: list[str]) -> None:
    """Remove from mutmut's copy each file of this run that an earlier run of the target copied
    without mutating it (a run of other files of the target), with its verdicts and mutmut's map
    of which tests reach which function: mutmut makes a file's mutants only when its source
    changed, and maps tests only to functions mutated when it ran them, so such a file kept no
    mutants ("Unable to force test failures") or, mutated anew, every one "no tests"."""
    mutants = scratch / "mutants"
    for path in sorted(ROOT.glob("entropy3d/**/*.py")):
        name = str(path.relative_to(ROOT))
        copied = mutants / name
        if any(fnmatch.fnmatch(name, pattern) for pattern in files) and copied.exists() and (
                "__mutmut_" not in copied.read_text(errors="replace") or not Path(f"{copied}.meta").exists()):
            copied.unlink()
            Path(f"{copied}.meta").unlink(missing_ok=True)
    # which tests reach which function, mapped afresh each run (seconds): a test written since, or
    # a function mutated now and not then, is otherwise left "no tests"
    (mutants / "mutmut-stats.json").unlink(missing_ok=True)


def configure(scratch: Path, files: list[str], tests: list[str]) -> None:
    """The copy's pyproject.toml with a ``[tool.mutmut]`` section for this target."""
    pyproject = scratch / "pyproject.toml"
    text = re.sub(r"\n\[tool\.mutmut\][^\[]*", "\n", pyproject.read_text())
    settings = {
        "source_paths": ["entropy3d"],
        "only_mutate": files,
        "also_copy": ["rules", "scenes", "models", "tools", "benchmarks"],
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-q", "-p", "no:xdist"]
        + [arg for test in ELSEWHERE for arg in ("--deselect", test)],
        # a test process forked from one that started Dask's threads may hang: fork from a clean server
        "process_isolation": "forkserver",
        # mutmut allows a test 15 x its own time, fixtures not counted: a module fixture that plays a
        # game (seconds) needs the constant
        "timeout_constant": 60.0,
    }
    lines = ["", "[tool.mutmut]"] + [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    pyproject.write_text(text.rstrip("\n") + "\n" + "\n".join(lines) + "\n")


def mutmut(scratch: Path, *args: str, capture: bool = True) -> str:
    """Run mutmut in ``scratch``: its answer (``capture``), or (a run) its output appended to
    ``scratch/mutmut.log`` (``tail -f`` it to follow a run), whose end a failure quotes: mutmut
    prints there the output of a clean pass that failed, which names the test."""
    log = scratch / "mutmut.log"
    if capture:
        done = subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=scratch, text=True, capture_output=True)
        said = done.stderr or ""
    else:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"\n$ mutmut {' '.join(args)[:200]}\n")
            out.flush()
            done = subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=scratch, stdout=out,
                                  stderr=subprocess.STDOUT)
        said = log.read_text(encoding="utf-8", errors="replace")
    if done.returncode != 0:
        said = re.sub(r"[\u2800-\u28ff][^\n\u2800-\u28ff]*", "", said)[-3000:]  # mutmut's spinner
        raise SystemExit(f"mutmut {' '.join(args)[:200]} failed in {scratch} (exit {done.returncode}; "
                         f"all it said: {log}):\n{said}")
    return done.stdout if capture else ""


def source_file(mutant: str) -> str:
    """``entropy3d.sweep.store.xǁResultStoreǁadd__mutmut_3`` -> ``entropy3d/sweep/store.py``."""
    found = re.match(r"^(.*?)\.x(ǁ|_)", mutant)
    dotted = found[1] if found else mutant.rsplit(".", 1)[0]
    return dotted.replace(".", "/") + ".py"


def changed_lines(diff: str) -> tuple[str, str]:
    """The line a mutant takes out and the one it puts in, stripped (several joined by ' / ')."""
    body = [line for line in diff.splitlines() if not line.startswith(("---", "+++", "#"))]
    old = " / ".join(line[1:].strip() for line in body if line.startswith("-"))
    new = " / ".join(line[1:].strip() for line in body if line.startswith("+"))
    return old, new


#: rules an entry of the equivalents may name instead of one change: ``sql-case``, a change of
#: letter case only inside a line that runs SQL (its keywords and SQLite's names ignore case)
RULES = {"sql-case": lambda old, new: old != new and old.lower() == new.lower()
         and any(word in old.upper() for word in ("SELECT ", "INSERT ", "CREATE ", "DELETE ", "UPDATE "))}


def equivalents() -> list[dict]:
    """The survivors reviewed as equivalent: each ``{file, old, new, why}`` (one change) or
    ``{file, rule, why}`` (every change a rule of :data:`RULES` describes)."""
    if not EQUIVALENT.exists():
        return []
    try:
        entries = yaml.safe_load(EQUIVALENT.read_text()) or []
    except yaml.YAMLError as error:
        raise SystemExit(f"{EQUIVALENT.relative_to(ROOT)} is not YAML ({error}); quote an old or new line "
                         "that holds a colon") from None
    for k, entry in enumerate(entries):
        by_rule = isinstance(entry, dict) and "rule" in entry
        wanted = ("file", "rule", "why") if by_rule else ("file", "old", "new", "why")
        missing = [key for key in wanted if not isinstance(entry, dict) or key not in entry]
        if missing or (isinstance(entry, dict) and "rule" in entry and entry["rule"] not in RULES):
            raise SystemExit(f"{EQUIVALENT.relative_to(ROOT)}: entry {k} lacks {', '.join(missing) or 'a known rule'}; "
                             "each survivor reviewed as equivalent gives file, old and new (as `mutmut show` prints "
                             f"them) or a rule ({', '.join(RULES)}), and why")
    return entries


def why_equivalent(file: str, old: str, new: str, known: list[dict]) -> str | None:
    for entry in known:
        if entry["file"] != file:
            continue
        if "rule" in entry and RULES[entry["rule"]](old, new):
            return entry["why"]
        if "rule" not in entry and entry["old"].strip() == old and entry["new"].strip() == new:
            return entry["why"]
    return None


def run_target(name: str, files: list[str], tests: list[str], max_children: int, run: bool = True) -> dict:
    """Mutate ``files`` against ``tests`` in the target's scratch copy (``run``), then read what
    mutmut found there, a run stopped part way included (its mutants not yet run counted so)."""
    scratch = ROOT / "build" / "mutation" / name
    seconds = 0.0
    stamp = scratch / "mirrored"
    if run:
        scratch.mkdir(parents=True, exist_ok=True)
        stamp.write_text(mirror(scratch))
        forget_unmutated(scratch, files)
        configure(scratch, files, tests)
        started = time.monotonic()
        mutmut(scratch, "run", "--max-children", str(max_children), capture=False)
        # mutmut keeps a verdict until the mutated function changes: a survivor, or a mutant no
        # test reached, is tried again by name so that a test written since gets its chance
        again = [mutant for mutant, status in statuses(scratch) if status in ("survived", "no tests", "suspicious")]
        for start in range(0, len(again), 200):
            mutmut(scratch, "run", "--max-children", str(max_children), *again[start:start + 200], capture=False)
        seconds = time.monotonic() - started
    elif not (scratch / "mutants").is_dir():
        raise SystemExit(f"no mutation run of {name} to report: {scratch} has none (run it first)")
    known = equivalents()
    per_file: dict[str, dict] = {}
    for mutant, status in statuses(scratch):
        file = source_file(mutant)
        if not any(fnmatch.fnmatch(file, pattern) for pattern in files):
            continue
        counts = per_file.setdefault(file, dict.fromkeys(COLUMNS, 0) | {"survivors": [], "tests": tests})
        outcome = OUTCOMES.get(status)
        if outcome is None:
            print(f"warning: mutmut says {status!r} of {mutant}, a verdict this tool does not know; "
                  "counted as suspicious", file=sys.stderr)
            outcome = "suspicious"
        counts[outcome] += 1
        if outcome in ("survived", "suspicious"):
            old, new = changed_lines(mutmut(scratch, "show", mutant))
            counts["survivors"].append({"mutant": mutant, "old": old, "new": new, "status": status,
                                        "equivalent": why_equivalent(file, old, new, known)})
    return {"files": per_file, "tests": tests, "seconds": round(seconds),
            "when": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
            "commit": stamp.read_text().strip() if stamp.exists() else "unknown"}


def statuses(scratch: Path) -> list[tuple[str, str]]:
    """(mutant, mutmut's verdict) of every mutant in the scratch copy."""
    found = []
    for line in mutmut(scratch, "results", "--all", "true").splitlines():
        mutant, _, status = line.strip().rpartition(": ")
        if mutant:
            found.append((mutant, status))
    return found


def stopped_part_way(counts: dict) -> bool:
    return counts["unchecked"] > 0


def score(counts: dict) -> str:
    tried = counts["killed"] + counts["survived"]
    return f"{100.0 * counts['killed'] / tried:.1f}%" if tried else "-"


def report(figures: dict) -> str:
    lines = ["# Mutation testing", "",
             "Written by `python tools/mutation.py` (issue 51): per file the one-line mutants mutmut made, killed "
             "by a test (or timed out), survived, and reached by no test of the target; score = killed / "
             "(killed + survived). Each survivor is either equivalent (the reason, from "
             "`tools/mutation_equivalent.yaml`) or a test to write.", ""]
    for target, result in sorted(figures.items()):
        lines += [f"## {target}", "",
                  f"Tests: {', '.join(result['tests'])}. Mutants of {result['commit']}, read on {result['when']} "
                  f"UTC" + (f" after a run of {result['seconds']} s" if result["seconds"] else "") + ".", "",
                  "| file | killed | survived | suspicious | unreached | not yet run | score |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        total = dict.fromkeys(COLUMNS, 0)
        for file, counts in sorted(result["files"].items()):
            own = counts.get("tests", result["tests"])  # a run of some files may give them fewer tests
            named = f"`{file}`" + (f" (tests: {', '.join(own)})" if own != result["tests"] else "")
            lines.append(f"| {named} | " + " | ".join(str(counts.get(key, 0)) for key in COLUMNS)
                         + f" | {score(counts)} |")
            for key in total:
                total[key] += counts.get(key, 0)
        lines += ["| all | " + " | ".join(str(total[key]) for key in COLUMNS) + f" | {score(total)} |", ""]
        if stopped_part_way(total):
            lines += ["The run stopped part way: its mutants 'not yet run' have no verdict.", ""]
        for _, counts in sorted(result["files"].items()):
            for survivor in counts["survivors"]:
                verdict = (f"equivalent: {survivor['equivalent']}" if survivor["equivalent"] else
                           "**suspicious: look at it by hand**" if survivor.get("status") == "suspicious" else
                           "**to kill**")
                lines.append(f"- `{survivor['mutant']}`: `{survivor['old']}` -> `{survivor['new']}`: {verdict}")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"what to mutate: {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--files", nargs="+", metavar="FILE", help="only these files of the target")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--report-only", action="store_true",
                        help="write the figures of the last run (stopped part way or not) without running")
    args = parser.parse_args(argv)
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"no target {', '.join(unknown)}; the targets: {', '.join(TARGETS)}")
    try:
        import mutmut  # noqa: F401
    except ImportError:
        parser.error("mutmut is not installed: pip install --require-hashes --no-deps -r requirements-mutation.txt")
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    asked = [os.path.relpath(Path(f).resolve(), ROOT) for f in args.files or []]
    owned = {name: [f for f in asked if any(fnmatch.fnmatch(f, pattern) for pattern in TARGETS[name][0])]
             for name in TARGETS}
    stray = [f for f in asked if not any(f in found for found in owned.values())]
    if stray:
        parser.error(f"no target mutates {', '.join(stray)}; the targets' files: "
                     + "; ".join(f"{name} {' '.join(files)}" for name, (files, _) in TARGETS.items()))
    for name in args.targets or [name for name in TARGETS if not asked or owned[name]]:
        files, tests = TARGETS[name]
        if asked:
            files = owned[name]
            if not files:
                parser.error(f"none of {', '.join(asked)} belongs to target {name!r} ({', '.join(TARGETS[name][0])})")
            tests = tests_of(name, files)
        result = run_target(name, files, tests, args.max_children, run=not args.report_only)
        if args.files and name in figures:  # a part of the target: the other files' figures stand
            result["files"] = figures[name]["files"] | result["files"]
            result["tests"] = TARGETS[name][1]  # the target's; a file run with fewer names them in its row
        figures[name] = result
        FIGURES.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
        REPORT.write_text(report(figures))
        print(f"{name}: " + ", ".join(f"{file} {score(counts)}" for file, counts in sorted(result["files"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
