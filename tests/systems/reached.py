"""The clauses a corpus of games reaches through the one path (tests/systems/test_clauses_reached.py).

Each entry of ``tests/systems/data/reached_games.yaml`` is played the way a user plays it, and
what its records cite is collected:

- ``game: SCENE`` (``seed:``, ``turns:``; paths from the repository's root) or ``script: SCRIPT``
  (a game script, docs/scripts.md): the one game loop (:func:`entropy3d.game.session.setup_game`,
  the geometric producer). Collected: every event's ``clauses`` (an activation's, its actions',
  its attacks', a judging rulebook's rulings), the dice clauses each test roll shows
  (:attr:`~entropy3d.systems.entropy_city.dice.TestRoll.clauses`) and, for each turn played, the rulebook's
  ``turn_clauses`` (who goes first, the order of activations).
- ``golden: NAME`` (``table:``, the scene its cases default to): every case of
  ``tests/systems/data/golden_NAME.yaml`` through the golden harness (:mod:`tests.systems.golden`):
  the events' clauses, the clause of a refusal from ``check`` and a turn start's ``turn_clauses``.
- ``command: [activate ...]``: ``entropy3d activate ARGS --json REPORT``; the clauses the report
  records: its events' (and their rolls'), or the engine's refusal (``refused.clause``).

A clause counts as reached only when a record of the game cites it (an event, or the engine's
refusal of a plan, the clause read from the record, not from text): never because a command
prints it in a sentence, nor because a test file mentions it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import yaml

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "data" / "reached_games.yaml"


@dataclass(frozen=True)
class Reached:
    """What one corpus entry reached: its label, the clause ids and the seconds it took."""

    label: str
    clauses: frozenset[str]
    seconds: float


def load_corpus() -> list[dict]:
    """The corpus entries, in file order."""
    return yaml.safe_load(CORPUS.read_text(encoding="utf-8"))


def label_of(entry: Mapping[str, Any]) -> str:
    """An entry's name in a failure: its kind and its file or command."""
    if "command" in entry:
        return "entropy3d " + " ".join(entry["command"])
    kind = next(k for k in ("game", "script", "golden") if k in entry)
    extra = "".join(f" {k} {entry[k]}" for k in ("seed", "turns") if k in entry)
    return f"{kind} {entry[kind]}{extra}"


def event_clauses(event) -> set[str]:
    """The clauses an event cites, and those its test rolls show."""
    found = set(event.clauses)
    for roll in event.rolls:
        found |= set(roll.clauses)
    return found


def game_clauses(entry: Mapping[str, Any]) -> set[str]:
    """Play a scene or a script on the one game loop; the clauses its records cite."""
    from entropy3d.game.loop import record_events
    from entropy3d.game.records import ActivationRecord, TurnRecord
    from entropy3d.game.session import setup_game
    from entropy3d.systems import played_system

    scene = REPO / entry["game"] if "game" in entry else None
    script = REPO / entry["script"] if "script" in entry else None
    game, _ = setup_game(scene, seed=entry.get("seed"), turns=entry.get("turns"), producer="geometric",
                         script=script)
    rulebook = played_system(game.table.spec.system)
    found: set[str] = set()
    try:
        for record in game.play():
            if isinstance(record, TurnRecord):
                found |= set(rulebook.turn_clauses)
            elif isinstance(record, ActivationRecord):
                events = list(record.events)
                for action in record.actions:
                    events += record_events(action) + list(action.rulings)
                for event in events:
                    found |= event_clauses(event)
    finally:
        game.producer.close()
    return found


def golden_clauses(entry: Mapping[str, Any]) -> set[str]:
    """Every case of a golden file through its harness; the clauses its events and refusals cite."""
    from entropy3d.systems import played_system
    from tests.systems.golden import Yard, load_cases

    built: dict = {}
    found: set[str] = set()
    for case in load_cases(entry["golden"]):
        yard = Yard.of(case, REPO / entry["table"], built)
        _, events, refused, _ = yard.play(case)
        if "turn" in case:  # a turn's start: who goes first
            found |= set(played_system(yard.table.spec.system).turn_clauses)
        for event in events:
            found |= event_clauses(event)
        if refused is not None:  # the engine's refusal of the case's plan (check's IllegalPlanError)
            found.add(refused.clause)
    return found


def report_clauses(report: Mapping[str, Any]) -> set[str]:
    """The clauses an activation's JSON report records (``entropy3d activate --json``): those its
    steps' events cite (and their test rolls' dice clauses), or the clause of the engine's
    refusal when it refused an action (``refused``)."""
    from entropy3d.core.event import Event
    from entropy3d.systems.rolls import read_roll

    found: set[str] = set()
    for step in report.get("steps", ()):
        for data in step["events"]:
            found |= event_clauses(Event.from_json(data, read_roll))
    if "refused" in report:
        found.add(report["refused"]["clause"])
    return found


def command_clauses(entry: Mapping[str, Any]) -> set[str]:
    """Run ``entropy3d activate`` with the entry's arguments (paths from the repository's root)
    and its ``--json`` report; the clauses that report records (:func:`report_clauses`). What the
    command prints is not read: a clause named in a sentence or a help text is no record of a game."""
    import tempfile

    from typer.testing import CliRunner

    from entropy3d.cli import app

    args = [str(REPO / a) if a.endswith(".yaml") else a for a in entry["command"]]
    if args[0] not in ("activate", "act"):
        raise ValueError(f"corpus entry {label_of(entry)!r}: only `activate` and `act` play a game whose events "
                         "a report records; give a scene, a script or a golden file instead")
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        result = CliRunner().invoke(app, [*args, "--json", str(report)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        assert report.exists(), f"{label_of(entry)} wrote no report: {result.output}"
        return report_clauses(json.loads(report.read_text(encoding="utf-8")))


def reached(entry: Mapping[str, Any]) -> set[str]:
    """The clauses one corpus entry reaches."""
    if "command" in entry:
        return command_clauses(entry)
    if "golden" in entry:
        return golden_clauses(entry)
    return game_clauses(entry)
