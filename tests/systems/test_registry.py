"""The game-system registry: systems by name, a scene's ``system:`` and ``stats:`` checked with
file, line and key path, Entropy City registered by wrapping the rules engine it already has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.cli.system_commands import clause_ids
from entropy3d.errors import RulesDataError, SceneError, UnknownSystemError
from entropy3d.scene import load_scene
from entropy3d.scene.systemrules import load_system_file, system_of
from entropy3d.scene.yamlsource import read_yaml_with_lines
from entropy3d.systems import SYSTEMS, find_system, system_names
from entropy3d.systems.base import Registry
from entropy3d.systems.entropy_city.system import EntropyCity

REPO = Path(__file__).parents[2]
SMALL = REPO / "tests" / "data" / "small_table.yaml"


def scene_with(tmp_path: Path, extra_top: str = "", model_extra: str = "") -> Path:
    """tests/data/small_table.yaml with lines added at the top and keys (flow style) added to
    its first model."""
    text = SMALL.read_text(encoding="utf-8")
    if model_extra:
        assert "{id: h1, " in text
        text = text.replace("{id: h1, ", "{id: h1, " + model_extra + ", ", 1)
    path = tmp_path / "scene.yaml"
    path.write_text(extra_top + text, encoding="utf-8")
    return path


def test_systems_are_found_by_name_and_an_unknown_name_lists_them():
    assert system_names()[0] == "entropy_city"
    assert find_system("entropy_city") is EntropyCity
    with pytest.raises(UnknownSystemError, match="use one of entropy_city"):
        find_system("chess")


def test_entropy_city_wraps_the_table_ruleset_and_names_its_players():
    table = load_scene(SMALL)
    assert table.spec.system == "entropy_city"
    system = system_of(table)
    assert isinstance(system, EntropyCity) and system.rules is table.ruleset
    from entropy3d.game.players import AutoPlayer, demo_players
    from entropy3d.game.script import ScriptedPlayer

    assert (system.player("auto"), system.player("demo"), system.player("scripted")) == \
        (AutoPlayer, demo_players, ScriptedPlayer)
    with pytest.raises(ValueError, match="auto, demo, scripted"):
        system.player("chess engine")


def test_an_unknown_system_names_the_line_key_and_the_allowed_names(tmp_path):
    path = scene_with(tmp_path, extra_top="system: chess\n")
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    [(key, line, message)] = caught.value.problems
    assert (key, line) == ("system", 1)
    assert "'chess'" in message and all(name in message for name in system_names())


def test_stats_a_system_does_not_declare_are_refused_with_their_key_path(tmp_path):
    """Entropy City keeps its riders' numbers under `rider:`; its `stats:` schema is empty."""
    path = scene_with(tmp_path, model_extra="stats: {toughness: 3}")
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    [(key, line, message)] = caught.value.problems
    assert key == "models[0].stats.toughness" and line is not None
    assert "unknown key 'toughness'" in message and "entropy_city" in message


def test_a_system_rules_file_names_its_system(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text("game_system: chess\n", encoding="utf-8")
    with pytest.raises(RulesDataError) as caught:
        load_system_file(path, read_yaml_with_lines(path))
    [(key, line, message)] = caught.value.problems
    assert (key, line) == ("game_system", 1) and "use one of" in message


@pytest.mark.parametrize("system", list(SYSTEMS), ids=system_names())
def test_a_system_claims_only_clauses_that_exist_and_a_test_names(system):
    """A system says it serves a clause only when rules/clauses.md has it under the system's prefix
    and a test outside this file names it (the test that checks it)."""
    ids = clause_ids()
    named = set()
    for test in (REPO / "tests").rglob("test_*.py"):
        if test.name != Path(__file__).name:
            named |= set(re.findall(r"\b[A-Z]+-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", test.read_text(encoding="utf-8")))
    named |= {i.replace("-", "_") for i in named}
    for clause in system.clauses:
        assert clause in ids and clause.startswith(system.clause_prefix), clause
        assert clause in named or clause.replace("-", "_") in named, f"no test names {clause}"


def test_systems_command_lists_each_system_with_what_it_serves():
    result = CliRunner().invoke(app, ["systems"])
    assert result.exit_code == 0, result.output
    for system in SYSTEMS:
        assert f"{system.name}: {system.title}" in result.output
        assert all(clause in result.output for clause in system.clauses)


def test_a_system_registered_by_path_is_imported_when_looked_up_and_must_bear_that_name():
    registry = Registry({"gang_battle": "entropy3d.systems.gang_battle:GangBattle",
                         "misnamed": "entropy3d.systems.tenacity:TenacityTactics"})
    assert registry.names == ("gang_battle", "misnamed")
    assert registry.find("gang_battle").name == "gang_battle"
    with pytest.raises(ValueError, match="registered as 'misnamed' but names itself 'tenacity_tactics'"):
        registry.find("misnamed")


@pytest.mark.parametrize("scene, weapon, rules_file", [("gang_fight", "stub_gun", "gang_battle"),
                                                        ("rooftop_skirmish", "rifle", "tenacity_tactics")])
def test_a_weapon_the_rules_data_lacks_is_refused_with_its_key_path_and_the_weapons_there_are(
        tmp_path, scene, weapon, rules_file):
    """The gang battle's fighters and 10acity's figures name a weapon of their rules data."""
    source = REPO / "scenes" / "systems" / f"{scene}.yaml"
    text = source.read_text(encoding="utf-8")
    assert f"weapon: {weapon}}}" in text
    path = tmp_path / f"{scene}.yaml"
    path.write_text(text.replace(f"weapon: {weapon}}}", "weapon: railgun}", 1).replace("../../", str(REPO) + "/"),
                    encoding="utf-8")
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    [(key, line, message)] = caught.value.problems
    assert key.endswith(".stats.weapon") and line == text[:text.index(f"weapon: {weapon}}}")].count("\n") + 1
    assert message.startswith("unknown weapon 'railgun'; use one of ")
    assert f"(rules/{rules_file}.yaml weapons)" in message


def test_demo_help_points_to_the_systems_command_which_says_which_play():
    """`demo --help` names no system by hand (a new rulebook changes no command's help); `entropy3d
    systems` says of each whether demo plays its game: Entropy City and every system with an engine,
    and not the reference cards, which rule on Entropy City's rides."""
    from entropy3d.scene.systemrules import load_system

    help_text = " ".join(CliRunner().invoke(app, ["demo", "--help"]).output.split())
    assert "`entropy3d systems` says which play" in help_text
    playing = [name for name in system_names() if load_system(name).plays()]
    assert {"entropy_city", "gang_battle", "tenacity_tactics", "chase_vehicles"} <= set(playing)
    assert "reference_cards" not in playing
    lines = CliRunner().invoke(app, ["systems"]).output.splitlines()
    for name in system_names():
        said = lines[lines.index(next(line for line in lines if line.startswith(f"{name}:"))) + 1].strip()
        assert said.startswith("`entropy3d demo` on its scenes plays its game" if name in playing
                               else "decides from Entropy City's game"), (name, said)


@pytest.mark.parametrize("system, mission, title", [("gang_battle", "gang_fight", "Gang Fight"),
                                                    ("chase_vehicles", "getaway", "The Getaway"),
                                                    ("tag", "tag", "Tag"),
                                                    ("entropy_city", "lovers_point_brawl", "Lovers Point Brawl")])
def test_each_rulebook_names_its_missions_and_its_first_roll_on_the_cards(system, mission, title):
    """The film's title card and end card take a mission's name and the turn card its first roll
    from the rulebook played, not from a table of every rulebook's words in the film: the id in
    title case unless the rulebook names it (the chase's "The Getaway"); the roll in the
    rulebook's words (Entropy City's roll-off winner chooses, EC-TURN-1)."""
    rulebook = find_system(system)
    assert rulebook.mission_title(mission) == title
    line = rulebook.first_roll_line((5, 3), "Komodo")
    assert line.startswith(f"{rulebook.first_roll_words} 5 v 3: Komodo")
    assert ("chooses to go first (EC-TURN-1)" in line) == (system == "entropy_city")


def test_a_rulebook_without_its_own_account_of_the_score_says_its_mission_and_each_sides_points():
    """By default the end card says the mission and each side's points as they stand, in the
    sides' order (the Tag yard's red side ahead on 2)."""
    from entropy3d.systems.entropy_city.state import State
    from entropy3d.systems.words import Names

    names = Names(gangs={"red": "Red side", "blue": "Blue side"})
    state = State(turn=4, mission="tag", models={}, score={"red": 2})
    assert find_system("tag").score_lines(state, [], {}, names) == [
        ("", "Tag"), ("red", "Red side  +2 VP"), ("blue", "Blue side  +0 VP")]
