"""The lock (requirements-test.txt) and pyproject.toml agree: the test command installs exactly the
lock, so a requirement added to, tightened in or dropped from pyproject.toml without running
tools/relock would leave a fresh machine testing something else than what a user installs."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-test.txt"
#: what pip-compile writes under a package that pyproject.toml asks for itself
FROM_PYPROJECT = re.compile(r"entropy3d \(pyproject\.toml(::build-system\.requires)?\)")


def locked(text: str) -> dict[str, tuple[str, int, list[str]]]:
    """Each pinned package's (version, number of hashes, what asks for it) in pip-compile's output."""
    pins: dict[str, tuple[str, int, list[str]]] = {}
    name = None
    for line in text.splitlines():
        pin = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", line)
        if pin:
            name = canonicalize_name(pin[1])
            pins[name] = (pin[2], 0, [])
        elif name and "--hash=sha256:" in line:
            version, hashes, via = pins[name]
            pins[name] = (version, hashes + 1, via)
        elif name and re.match(r"^\s+#\s+(via\s+)?\S", line):
            pins[name][2].append(re.sub(r"^\s+#\s+(via\s+)?", "", line).strip())
    return pins


def wanted(pyproject: dict) -> list[Requirement]:
    """Every requirement the test command installs: the build system's, the project's and those
    of its test extra, with the extras it names of the project itself (``entropy3d[sweep]``)."""
    project = pyproject["project"]
    extras, todo = set(), ["test"]
    while todo:
        extra = todo.pop()
        extras.add(extra)
        for text in project["optional-dependencies"][extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == "entropy3d":
                todo.extend(requirement.extras - extras)
    texts = pyproject["build-system"]["requires"] + project["dependencies"] + [
        text for extra in extras for text in project["optional-dependencies"][extra]]
    return [requirement for requirement in map(Requirement, texts)
            if canonicalize_name(requirement.name) != "entropy3d"]


def disagreements(pyproject_text: str, lock_text: str) -> list[str]:
    pins = locked(lock_text)
    problems = []
    asked = set()
    for requirement in wanted(tomllib.loads(pyproject_text)):
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": "test"}):
            continue
        name = canonicalize_name(requirement.name)
        asked.add(name)
        if name not in pins:
            problems.append(f"{requirement} is not in the lock")
        elif not requirement.specifier.contains(pins[name][0], prereleases=True):
            problems.append(f"{requirement} but the lock pins {name}=={pins[name][0]}")
    for name, (version, hashes, via) in pins.items():
        if hashes == 0:
            problems.append(f"{name}=={version} has no hash")
        if any(FROM_PYPROJECT.fullmatch(parent) for parent in via) and name not in asked:
            problems.append(f"the lock pins {name}=={version} for pyproject.toml, which no longer asks for it")
    return problems


def test_the_lock_pins_what_pyproject_asks_for_with_hashes():
    problems = disagreements((ROOT / "pyproject.toml").read_text(), LOCK.read_text())
    assert not problems, "pyproject.toml and requirements-test.txt disagree; run tools/relock:\n" + "\n".join(problems)


def test_a_tightened_added_or_dropped_requirement_is_a_disagreement():
    pyproject, lock = (ROOT / "pyproject.toml").read_text(), LOCK.read_text()
    numpy = locked(lock)["numpy"][0]
    assert disagreements(pyproject.replace('"numpy>=1.26"', f'"numpy>{numpy}"'), lock) == [
        f"numpy>{numpy} but the lock pins numpy=={numpy}"]
    assert disagreements(pyproject.replace('"numpy>=1.26",', '"numpy>=1.26", "tomli-w>=1",'), lock) == [
        "tomli-w>=1 is not in the lock"]
    assert disagreements(pyproject.replace('"reportlab>=4.0",', ""), lock) == [
        f"the lock pins reportlab=={locked(lock)['reportlab'][0]} for pyproject.toml, which no longer asks for it"]
    assert disagreements(pyproject.replace('"hatchling>=1.24", ', ""), lock) == [
        f"the lock pins hatchling=={locked(lock)['hatchling'][0]} for pyproject.toml, which no longer asks for it"]
    unhashed = re.sub(r"(?m)^(pybullet==3\.2\.7) \\\n(    --hash=\S+ \\\n)*    --hash=\S+\n", r"\1\n", lock)
    assert disagreements(pyproject, unhashed) == ["pybullet==3.2.7 has no hash"]
