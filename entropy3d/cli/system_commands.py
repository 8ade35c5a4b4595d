"""``entropy3d systems``: the registered game systems and the clauses each serves; what the other
commands tell of a scene's own system (its sight decisions)."""

from __future__ import annotations

import json
import re

import typer

from entropy3d.cli.app import app, clean_errors

#: a clause row of rules/clauses.md: "| GANG-COVER | Partial cover -1 to hit, full cover -2. |"
CLAUSE_ROW = re.compile(r"^\| ([A-Z]+-[A-Z0-9-]+) \| (.*) \|\s*$")


def clause_ids() -> list[str]:
    """Every clause id of the bundled ``rules/clauses.md``, in order."""
    from entropy3d.resources import bundled_dir

    text = (bundled_dir("rules") / "clauses.md").read_text(encoding="utf-8")
    return [match.group(1) for match in map(CLAUSE_ROW.match, text.splitlines()) if match]


def systems_summary() -> list[dict]:
    """Per registered system: name, title, seed document, rules data file, whether `entropy3d demo`
    plays a game of it on its scenes (every system with an engine of its own),
    the clauses it serves and those of its prefix in rules/clauses.md it does not (yet)."""
    from entropy3d.systems import SYSTEMS

    ids = clause_ids()
    return [{"name": system.name, "title": system.title, "seed": system.seed,
             "rules": f"rules/{system.rules_file}.yaml", "plays": system.plays(),
             "serves": list(system.clauses),
             "not_served": [c for c in ids if c.startswith(system.clause_prefix) and c not in system.clauses]}
            for system in SYSTEMS]


def sight_events(table, world, results=None) -> list:
    """What the scene's game system makes of what each model sees of the other gangs' models
    (:meth:`~entropy3d.systems.base.GameSystem.judge_sightings`), in the scene's model order;
    [] for a system that decides nothing from sight."""
    from entropy3d.scene.systemrules import model_stats, system_of
    from entropy3d.table_readings import sightings

    system = system_of(table)
    if not system.reads_sight:
        return []
    stats = model_stats(table, system)
    gang = {model.id: model.gang for model in table.models}
    found = sightings(world, results=results)
    return [event for model in table.models
            for event in system.judge_sightings(model.id, [s for s in found if s.viewer == model.id
                                                           and gang[s.target] != gang[model.id]], stats)]


def other_rules_note(table) -> str:
    """The line `los --all` prints under its matrix on a scene of another game system: the marks
    are Entropy City's sight rules (a rider's front half, the bike seen, 25% to shoot), which
    that system does not play; "" on an Entropy City scene."""
    from entropy3d.scene.systemrules import system_of

    if table.spec.system == "entropy_city":
        return ""
    system = system_of(table)
    decides = ("its own rulings on what each model sees are below" if system.reads_sight
               else "it decides nothing from sight")
    return (f"\nThe marks above are Entropy City's sight rules (EC-LOS, EC-COVER-1); this scene plays "
            f"{system.title} (system: {system.name}): {decides}.\n")


def system_sight_lines(table, world, results=None) -> str:
    """The lines ``entropy3d los SCENE --all`` adds under its matrix: what the scene's game
    system makes of what each model sees (:func:`sight_events`); "" when it decides nothing."""
    decided = sight_events(table, world, results)
    if not decided:
        return ""
    from entropy3d.systems.words import Names  # imports every registered system: only when needed

    names = Names.of_table(table)
    return (f"\n{table.spec.system} rules, each model at the other gangs:\n"
            + "".join(f"  {names.rider(event.model)}: {names.named_all(event.text)}  ({', '.join(event.clauses)})\n"
                      for event in decided))


@app.command()
@clean_errors
def systems(as_json: bool = typer.Option(False, "--json", help="print JSON instead of text")) -> None:
    """The game systems a scene may name (`system: NAME`, default entropy_city) and the rules
    clauses each resolves from the table (rules/clauses.md)."""
    summary = systems_summary()
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    for entry in summary:
        typer.echo(f"{entry['name']}: {entry['title']} (seed {entry['seed']}, {entry['rules']})")
        typer.echo("  `entropy3d demo` on its scenes plays its game" if entry["plays"] else
                   "  decides from Entropy City's game on its scenes (it plays no game of its own)")
        typer.echo(f"  serves ({len(entry['serves'])}): {', '.join(entry['serves'])}")
        if entry["not_served"]:
            typer.echo(f"  not yet ({len(entry['not_served'])}): {', '.join(entry['not_served'])}")
