"""`entropy3d systems` says a rulebook serves a clause only when a game reaches it (issue 45).

A corpus of games, tests/systems/data/reached_games.yaml, is played through the one path (plan ->
check -> facts -> resolve): demo scenes and game scripts on the game loop, the golden case files
through their harness, and `entropy3d activate` with its --json report (tests/systems/reached.py
says what each kind collects: the clauses its events cite, the dice clauses its test rolls show,
its turn starts' clauses, the engine's refusals; never what a command prints). Every clause a
system lists in ``clauses`` must be among them; the failure names those no game reached.

To serve a new clause: make a game reach it, by adding an entry to reached_games.yaml (a scene
and seed, a game script in tests/systems/data/reached/, a golden file, or an `entropy3d activate`
whose report records it), then add its id to the system's ``clauses``. A clause no game
reaches stays "not yet", with the reason in rules/clauses.md.
"""

from __future__ import annotations

import time

import pytest

from entropy3d.cli.system_commands import clause_ids
from entropy3d.systems import SYSTEMS
from tests.systems.reached import Reached, command_clauses, label_of, load_corpus, reached


@pytest.fixture(scope="session")
def corpus_reached() -> list[Reached]:
    """What each game of the corpus reached, in the corpus's order (played once a run)."""
    played = []
    for entry in load_corpus():
        start = time.perf_counter()
        found = reached(entry)
        played.append(Reached(label_of(entry), frozenset(found), time.perf_counter() - start))
    return played


def test_every_clause_a_system_serves_is_reached_by_a_game_of_the_corpus(corpus_reached):
    """Every id in a system's ``clauses`` (what `entropy3d systems` lists as served) is cited by
    a record of a game of the corpus; the failure lists, per system, the ids no game reached."""
    reached_ids = set().union(*(game.clauses for game in corpus_reached))
    unreached = {system.name: [c for c in system.clauses if c not in reached_ids] for system in SYSTEMS}
    unreached = {name: ids for name, ids in unreached.items() if ids}
    assert not unreached, (
        "served but reached by no game of tests/systems/data/reached_games.yaml: "
        + "; ".join(f"{name}: {', '.join(ids)}" for name, ids in unreached.items())
        + ". Add a game that reaches each, or move it to 'not yet' with the reason in rules/clauses.md")


def test_every_clause_the_games_cite_is_in_the_clause_list(corpus_reached):
    """A record never cites an id rules/clauses.md lacks (a misspelt id would pass for a clause)."""
    known = set(clause_ids())
    strays = {game.label: sorted(game.clauses - known) for game in corpus_reached if game.clauses - known}
    assert not strays, strays


def test_every_game_of_the_corpus_reaches_a_served_clause(corpus_reached):
    """No game in the corpus is dead weight: each reaches a clause some system serves."""
    served = {clause for system in SYSTEMS for clause in system.clauses}
    idle = [game.label for game in corpus_reached if not game.clauses & served]
    assert not idle, idle


def test_a_command_counts_the_clauses_its_report_records_not_what_it_prints(tmp_path):
    """A clause is reached when a record of a game cites it, not when a command prints it:
    `entropy3d los` prints its top-down verdict with "EC-LOS-1..3" but plays no game, so it is no
    corpus entry. An activation the engine refuses (hammer attacks with no move ridden,
    EC-ACT-ATTACK) records the refusal's clause in its --json report; one it plays records its
    events' clauses: the split shot's events cite EC-GUN-SPLIT and the true LOS the shot needed
    (EC-LOS-2, EC-LOS-4, EC-COVER-1), and nothing the report does not hold."""
    with pytest.raises(ValueError, match="only `activate` and `act` play a game"):
        command_clauses({"command": ["los", "scenes/crossroads.yaml", "hades_1", "komodo_2"]})
    yard = "tests/systems/data/reached/reach_yard.yaml"
    refused = command_clauses({"command": ["activate", yard, "-m", "hammer", "-p", "attack anvil with hammer",
                                           "--producer", "geometric", "--seed", "1"]})
    assert refused == {"EC-ACT-ATTACK"}
    shot = command_clauses({"command": ["activate", yard, "-m", "gunner", "-p", "s1: straight 4", "-p",
                                        "attack mark with pistol x2", "--producer", "geometric", "--seed", "3"]})
    assert {"EC-GUN-SPLIT", "EC-LOS-2", "EC-LOS-4", "EC-COVER-1"} <= shot
    assert not {"EC-LOS-1", "EC-LOS-3"} & shot
