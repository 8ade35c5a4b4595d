"""Mutated scenes through ``entropy3d validate``, in process: the generator and the judge.

Used by ``tests/scene/test_fuzz_validate.py`` (a few hundred cases) and ``tools/fuzz_report.py``
(10,000). Each case takes a bundled scene's text and applies one mutation (non-finite and huge
numbers, duplicate keys and sections, deleted and renamed keys, wrong types, moved bases, deleted
lines); the property: exit 0, or exit 1 with a clean error naming the file and a key path, within
the time limit, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCENES = sorted((ROOT / "scenes").glob("*.yaml")) + [ROOT / "tests" / "data" / "small_table.yaml"]
NUMBER = re.compile(r"(?<=[\s\[,:])-?\d+(?:\.\d+)?(?=[\s\],}])")
FLOW_KEY = re.compile(r"(?<=[{,] )([a-z_]+): ")
NON_FINITE = [".nan", ".NaN", ".inf", "-.inf", "'1e999'", "1e999", "'nan'", "'-inf'"]
HUGE = ["1e308", "-1e308", "1e30", "99999999999999999999", "-1e12", "0", "-0.0", "1e-320"]
WRONG = ["abc", "[]", "{}", "[1, [2]]", "null", "true", "'12'", "{a: 1}", "~", "[1, 2, 3, 4, 5]"]
KINDS = ("non_finite", "huge", "duplicate_key", "duplicate_section", "delete_key", "rename_key", "wrong_type",
         "move_base", "delete_line", "swap_lines", "indent")


class Hang(Exception):
    """A case ran past its time limit."""


def mutate(text: str, rng: np.random.Generator) -> tuple[str, str]:
    """One mutation of a scene's ``text``: (kind, new text)."""
    kind = KINDS[int(rng.integers(len(KINDS)))]
    lines = text.splitlines()

    def pick(pattern: re.Pattern, source: str):
        found = list(pattern.finditer(source))
        return found[int(rng.integers(len(found)))] if found else None

    def choice(options):
        return options[int(rng.integers(len(options)))]

    if kind in ("non_finite", "huge", "wrong_type"):
        match = pick(NUMBER, text)
        if match:
            value = choice(NON_FINITE if kind == "non_finite" else HUGE if kind == "huge" else WRONG)
            return kind, text[:match.start()] + value + text[match.end():]
    if kind in ("duplicate_key", "delete_key", "rename_key"):
        match = pick(FLOW_KEY, text)
        if match:
            key = match.group(1)
            if kind == "duplicate_key":
                value = choice(["[15, 15]", "1", "x", ".nan", "[5, 5, 9]"])
                return kind, text[:match.start()] + f"{key}: {value}, " + text[match.start():]
            if kind == "rename_key":
                return kind, text[:match.start()] + key[::-1] + text[match.end() - 2:]
            end = text.find(",", match.end())
            close = text.find("}", match.end())
            end = close if end < 0 or 0 <= close < end else end + 1
            return kind, text[:match.start()] + text[end:].lstrip()
    if kind == "duplicate_section":
        sections = [k for k, line in enumerate(lines) if re.match(r"^[a-z_]+:", line)]
        if sections:
            line = lines[choice(sections)]
            extra = line if line.rstrip().endswith(":") is False else line.split(":")[0] + ": []"
            return kind, "\n".join(lines + [extra]) + "\n"
    if kind == "move_base":
        models = [k for k, line in enumerate(lines) if "gang:" in line and "position: [" in line]
        if models:
            k = choice(models)
            x, y = rng.uniform(-2, 50, 2).round(1)
            z = "" if rng.random() < 0.6 else f", {rng.uniform(-1, 8):.1f}"
            lines[k] = re.sub(r"position: \[[^\]]*\]", f"position: [{x}, {y}{z}]", lines[k])
            return kind, "\n".join(lines) + "\n"
    if kind == "swap_lines" and len(lines) > 2:
        a, b = rng.integers(len(lines), size=2)
        lines[a], lines[b] = lines[b], lines[a]
        return kind, "\n".join(lines) + "\n"
    if kind == "indent" and lines:
        k = int(rng.integers(len(lines)))
        lines[k] = choice(["  ", "    ", "\t"]) + lines[k]
        return kind, "\n".join(lines) + "\n"
    k = int(rng.integers(len(lines))) if lines else 0
    return "delete_line", "\n".join(lines[:k] + lines[k + 1:]) + "\n"


#: a clean error's problem line: "  line 12, models[3].position: ...", "  line 4, cameras['Low view']: ..."
#: or "  (top level): ..."
PROBLEM_LINE = re.compile(r"^  (line \d+, )?((?:[A-Za-z_][\w\-]*|\[[^\]]*\])(?:\[\d+\]|\.[\w\-]+|\[[^\]]*\])*"
                          r"|\(top level\)): ", re.M)


def run_cli(argv: list[str], seconds: float = 10.0) -> tuple[int | None, str, str]:
    """Run ``entropy3d ARGV`` in this process: (exit code, stderr, outcome of the run itself).

    The outcome is ``ran``, ``hang`` (past ``seconds``: a SIGALRM interrupts the command) or
    ``traceback`` (an exception escaped ``main``, or the CLI printed a traceback or an unexpected
    error). The exit code is None unless the command ran to its end."""
    from entropy3d.cli import Terminated, main

    out, err = io.StringIO(), io.StringIO()

    def alarm(signum, frame):
        raise Hang()

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except Hang:
        return None, err.getvalue(), "hang"
    except Terminated:  # this fuzzer was told to stop, not the command
        raise
    except BaseException as error:  # the property under test: nothing escapes
        return None, f"{type(error).__name__}: {error}\n{err.getvalue()}", "traceback"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    text = err.getvalue()
    if "unexpected error" in text or "Traceback" in text:
        return code, text, "traceback"
    return code, text, "ran"


def judge(path: Path, seconds: float = 10.0) -> tuple[str, str]:
    """Run ``validate path`` in process; (outcome, detail). Outcomes: accepted, clean, unclean
    (exit 1 without the file and a key path), traceback (an exception escaped or an unexpected
    error was reported), hang (past ``seconds``)."""
    code, text, ran = run_cli(["validate", str(path)], seconds)
    if ran == "hang":
        return "hang", f"over {seconds} s"
    if ran == "traceback":
        return "traceback", text.strip()
    if code == 0:
        return "accepted", ""
    if code == 1 and str(path) in text and PROBLEM_LINE.search(text):
        return "clean", text.strip().splitlines()[1] if "\n" in text else text.strip()
    return "unclean", f"exit {code}: {text.strip()}"


def forbidden_in(path: Path) -> str | None:
    """What an accepted scene must not hold, found independently of the loader: a non-finite number
    (in the YAML or in the loaded scene), a duplicate key, or two bases overlapping (area over
    0.01 sq in, at heights less than a bike apart). None when it holds none of them."""
    import math

    import yaml
    from shapely.geometry import Polygon

    text = path.read_text()
    node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # the loader's parser
    stack = [node] if node is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            keys = [key.value for key, _ in node.value if isinstance(key, yaml.ScalarNode)]
            if len(keys) != len(set(keys)):
                return f"duplicate key at line {node.start_mark.line + 1}"
            stack.extend(value for pair in node.value for value in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif node.tag == "tag:yaml.org,2002:float":
            value = yaml.SafeLoader(text).construct_object(node)
            if not math.isfinite(value):
                return f"non-finite number {node.value!r} at line {node.start_mark.line + 1}"

    from entropy3d.geometry import Pose
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(path)
    numbers = [table.spec.model_dump()]
    while numbers:
        value = numbers.pop()
        if isinstance(value, dict):
            numbers.extend(value.values())
        elif isinstance(value, (list, tuple)):
            numbers.extend(value)
        elif isinstance(value, float) and not math.isfinite(value):
            return f"non-finite number {value} in the loaded scene"
    geometry = build_table_geometry(table)
    height = table.ruleset.bike_height_in + table.ruleset.rider_height_in
    bases = []
    for model in table.models:
        x, y = model.position[0], model.position[1]
        if len(model.position) == 3:
            z = float(model.position[2])
        else:
            stack_here = geometry.surface_stacks([(x, y)], static_only=True)[0]
            z = float(stack_here[0]) if len(stack_here) else 0.0
        bases.append((model.id, Polygon(table.base_of(model).outline(Pose(x, y, model.facing, z), samples=16)), z))
    for a, (first, outline_a, za) in enumerate(bases):
        for second, outline_b, zb in bases[a + 1:]:
            if abs(za - zb) < height and outline_a.intersection(outline_b).area > 0.01:
                return f"bases of {first} and {second} overlap"
    return None


def run_cases(count: int, folder: Path, seed: int = 18, seconds: float = 10.0):
    """Yield (scene name, kind, outcome, detail, elapsed s) for ``count`` mutated scenes."""
    rng = np.random.default_rng(seed)
    texts = [(scene.name, scene.read_text()) for scene in SCENES]
    for case in range(count):
        name, text = texts[case % len(texts)]
        kind, mutated = mutate(text, rng)
        path = folder / f"case{case % 50}_{name}"
        path.write_text(mutated)
        start = time.perf_counter()
        outcome, detail = judge(path, seconds)
        if outcome == "accepted":
            forbidden = forbidden_in(path)
            if forbidden is not None:
                outcome, detail = "accepted_forbidden", forbidden
        yield name, kind, outcome, detail, time.perf_counter() - start
