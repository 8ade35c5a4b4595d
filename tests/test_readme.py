"""Every command example of the README runs on the bundled tables and exits 0 (issue 13): the
fenced and indented blocks, with a tiny frame size and one turn where it renders. Set-up lines
run only their entropy3d part (the install is the environment this test runs in; the test
command is this suite). No link leaves the repository."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RENDERS = {"demo", "replay-render", "render", "highlights"}
TINY = "128x72"
#: files a README example writes and later ones read: the demo's replay, the sweep's results
LANE_FILES = ("demo.jsonl", "results/")


def command_examples(text: str) -> list[str]:
    """The entropy3d commands of the README's fenced blocks and 4-space indented blocks, in order."""
    found, fenced, previous_blank = [], False, True
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        indented = line.startswith("    ") and (previous_blank or (found and found[-1][1]))
        previous_blank = not line.strip()
        if fenced or indented:
            for part in line.strip().split("&&"):
                if part.strip().startswith("entropy3d "):
                    found.append(part.strip())
    return found


def _set(args: list[str], option: str, value: str) -> None:
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]


def tiny(args: list[str]) -> list[str]:
    """Render at a tiny size and 5 fps and play one turn; a sweep plays 2 quick games a scene on
    the local cluster (the README's cluster address is an example host); the rest as written."""
    args = list(args)
    if args[0] == "sweep":
        _set(args, "--games", "2")
        _set(args, "--turns", "1")
        _set(args, "--producer", "geometric")
        if "--scheduler" in args:
            del args[args.index("--scheduler"):args.index("--scheduler") + 2]
        return args
    if args[0] not in RENDERS:
        return args
    if "--size" in args:
        args[args.index("--size") + 1] = TINY
    else:
        args += ["--size", TINY]
    if args[0] != "render":
        args += ["--fps", "5"]
    if args[0] == "highlights":
        args += ["--pace", "fast", "--moments", "1"]
    if args[0] == "demo":
        if "--turns" in args:
            args[args.index("--turns") + 1] = "1"
        else:
            args += ["--turns", "1"]
        args += ["--pace", "fast"]
    return args


def test_readme_has_runnable_examples():
    commands = command_examples(README.read_text())
    names = {shlex.split(c)[1] for c in commands}
    assert {"demo", "plan", "odds", "activate", "los", "replay-render", "replay-check"} <= names, names


def lanes(commands: list[str]) -> dict[str, list[str]]:
    """The commands split into lanes that share no file: those reading or writing the demo's
    replay, those of the sweep's results, and the rest, each lane in the README's order."""
    split: dict[str, list[str]] = {}
    for command in commands:
        lane = next((name for name in LANE_FILES if name in command), "table")
        split.setdefault(lane, []).append(command)
    return split


def _run_lane(folder: Path, commands: list[str]) -> list[str]:
    """Run ``commands`` one after the other in ``folder``; what failed, with its output."""
    folder.mkdir()
    for name in ("scenes", "rules", "models"):
        (folder / name).symlink_to(ROOT / name)
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    failed = []
    for command in commands:
        args = tiny(shlex.split(command)[1:])
        result = subprocess.run([sys.executable, "-m", "entropy3d", *args], cwd=folder, env=env,
                                capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            failed.append(f"README example failed: {command}\n{result.stdout}\n{result.stderr}")
    return failed


def test_readme_commands_split_into_lanes_that_keep_their_order():
    commands = command_examples(README.read_text())
    split = lanes(commands)
    assert set(split) == {"table", *LANE_FILES}, "the demo's replay and the sweep's results each have a lane"
    assert sorted(c for lane in split.values() for c in lane) == sorted(commands)
    for lane in split.values():
        assert lane == [c for c in commands if c in lane], "a lane keeps the README's order"


def test_every_readme_command_example_succeeds(tmp_path):
    """Each lane in its own folder, the lanes side by side (the suite runs on two cores)."""
    split = lanes(command_examples(README.read_text()))
    with ThreadPoolExecutor(max_workers=len(split)) as pool:
        failures = pool.map(lambda item: _run_lane(tmp_path / item[0].strip("/."), item[1]), split.items())
        failed = [failure for lane in failures for failure in lane]
    assert not failed, "\n\n".join(failed)


@pytest.mark.parametrize("doc", ["README.md", "DEVELOPERS.md"])
def test_no_link_leaves_the_repository(doc):
    text = (ROOT / doc).read_text()
    for target in re.findall(r"\]\(([^)]+)\)", text) + re.findall(r"`(\.\./[^`]+)`", text):
        assert not target.startswith(("../", "/")), f"{doc} points outside the repository: {target}"
        if not target.startswith(("http://", "https://", "#")):
            assert (ROOT / target).exists(), f"{doc} links a missing file: {target}"
