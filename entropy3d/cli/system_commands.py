"""``entropy3d systems``: the registered game systems and the clauses each serves; ``entropy3d act``:
one activation in the scene's own game system."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import List, Optional

import typer

from entropy3d.cli.app import activation_seed, app, clean_errors, fail

#: a clause row of rules/clauses.md: "| GANG-COVER | Partial cover -1 to hit, full cover -2. |"
CLAUSE_ROW = re.compile(r"^\| ([A-Z]+-[A-Z0-9-]+) \| (.*) \|\s*$")


def clause_ids() -> list[str]:
    """Every clause id of the bundled ``rules/clauses.md``, in order."""
    from entropy3d.resources import bundled_dir

    text = (bundled_dir("rules") / "clauses.md").read_text(encoding="utf-8")
    return [match.group(1) for match in map(CLAUSE_ROW.match, text.splitlines()) if match]


def systems_summary() -> list[dict]:
    """Per registered system: name, title, seed document, rules data file, whether `entropy3d demo`
    plays a game of it on its scenes (Entropy City, and every system with an engine of its own),
    the clauses it serves and those of its prefix in rules/clauses.md it does not (yet)."""
    from entropy3d.systems import DEFAULT_SYSTEM, SYSTEMS

    ids = clause_ids()
    return [{"name": system.name, "title": system.title, "seed": system.seed,
             "rules": f"rules/{system.rules_file}.yaml", "plays": system.name == DEFAULT_SYSTEM or system.plays(),
             "serves": list(system.clauses),
             "not_served": [c for c in ids if c.startswith(system.clause_prefix) and c not in system.clauses]}
            for system in SYSTEMS]


def sight_events(table, world, results=None) -> list:
    """What the scene's game system makes of what each model sees of the other gangs' models
    (:meth:`~entropy3d.systems.base.GameSystem.judge_sightings`), in the scene's model order;
    [] for a system that decides nothing from sight."""
    from entropy3d.scene.systemrules import model_stats, system_of
    from entropy3d.tablefacts import sightings

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
    from entropy3d.systems.words import Names  # imports the video package (~0.07 s): only when needed

    names = Names.of_table(table)
    return (f"\n{table.spec.system} rules, each model at the other gangs:\n"
            + "".join(f"  {names.rider(event.model)}: {names.named_all(event.text)}  ({', '.join(event.clauses)})\n"
                      for event in decided))


def untold_contacts(record, events, names) -> list[str]:
    """What the ride ran into that no event of the system speaks of (a chase's drive stopped by
    a building it ran into: no rule of the seed, so no event), so a player reading a drive of
    3.8" out of 12" knows why: one line per piece, from the producer's facts."""
    spoken = {event.piece for event in events}
    contacts = record.facts.contacts if record.facts is not None else ()
    return [f"{names.rider(record.action.model_id)} runs into {names.thing(contact.piece_id)} "
            f"{contact.progress_in:.1f}\" along and stops short of it"
            for contact in contacts if contact.kind != "model" and contact.piece_id not in spoken]


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


@app.command()
@clean_errors
def act(
    scene: Path = typer.Argument(..., help="scene YAML file of a game system that plays (e.g. gang_battle)"),
    model: str = typer.Option(..., "--model", "-m", help="id of the model that activates"),
    action: List[str] = typer.Option(..., "--action", "-a",
                                     help="an action in the system's words, e.g. \"walk: straight 3\", "
                                          "\"shoot\" or \"drive: straight 16\"; repeat for the next"),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="dice seed (default: a fresh one, printed)"),
    producer: str = typer.Option("physics", "--producer",
                                 help="who moves the model: physics (PyBullet) or geometric (footprints and levels)"),
) -> None:
    """One activation in the scene's own game system (its `system:`; `entropy3d activate` plays
    Entropy City's): each action checked by the system's engine, the table's facts (the
    producer's move, the LOS engine's sight), resolved; one line per event."""
    import numpy as np

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.session import PRODUCERS, make_producer
    from entropy3d.game.step import take
    from entropy3d.game.system_game import action_record, record_events
    from entropy3d.game.tableview import TableView
    from entropy3d.rules.transition import Action
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.systemrules import model_stats, system_of

    if producer not in PRODUCERS:
        raise fail(f"error: --producer {producer!r} is not one of {', '.join(PRODUCERS)}")
    table = load_scene(scene)
    system = system_of(table)
    if not system.plays():
        raise fail(f"error: {scene}: its system {system.name} plays no game of its own; "
                   "`entropy3d activate` rides Entropy City plans on it")
    seed = activation_seed(table, scene, model, seed)
    geometry = build_table_geometry(table)
    engine = system.engine(model_stats(table, system))
    state = engine.initial_state(table.initial_state(geometry.surface_height))
    rng = np.random.default_rng(seed)
    view = TableView(table, geometry)
    rides = make_producer(producer, table, geometry)
    from entropy3d.systems.words import Names, conditions_words, heading_words, plain_lines, status_words

    names = Names.of_table(table)
    typer.echo(f"{table.name}: {names.rider_of_gang(model)} ({model}, {system.title}), seed {seed}, "
               f"{producer} producer")
    try:
        state, _ = engine.resolve(state, engine.check(state, Action.activate(model)), None, rng)
        for index, text in enumerate(action):
            step = take(engine, state, engine.parse_action(model, text), rng, rides, view)
            state, record = step.after, action_record(index, step)
            typer.echo(text)
            events = record_events(record)
            for event in events:
                for line in plain_lines(event, names):  # the sentence, then what the table showed and the clauses
                    typer.echo(f"  {names.named(line)}")
            for line in untold_contacts(record, events, names):
                typer.echo(f"  {line}")
    except IllegalPlanError as refused:  # the engine names figures by id; the player knows them by name
        raise IllegalPlanError(refused.clause, names.named_all(refused.message)) from None
    finally:
        rides.close()
    after = state.model(model)
    # wounds it may still take: a chase's "1 Wound: 2 left" ends "2 wounds left", never "wounds 2"
    typer.echo(f"{names.rider(model)}: {status_words(after.status, system.out_banner)}, "
               f"{after.wounds} wound{'' if after.wounds == 1 else 's'} left, "
               f"{conditions_words(after.conditions, engine.condition_words)}, "
               f"at ({after.pose.x:.2f}, {after.pose.y:.2f}) facing {heading_words(after.pose.facing_deg)}")
