"""``entropy3d activate`` (and its alias ``act``): one activation of a model in the scene's own
rulebook, along the one path: check, facts, resolve."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from entropy3d.cli.app import activation_seed, app, clean_errors, fail


@app.command()
@clean_errors
def activate(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    model: str = typer.Option(..., "--model", "-m", help="id of the model that activates"),
    plan: List[str] = typer.Option(..., "--plan", "-p",
                                   help="an action: Entropy City's plan, e.g. \"s3: straight 16\", or its attack after "
                                        "a move, \"attack TARGET with WEAPON\", or the scene's own rulebook's words, "
                                        "e.g. \"walk: straight 3\"; repeat for the next"),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="dice seed (default: a fresh one, printed)"),
    turn: int = typer.Option(2, "--turn", min=1, help="game turn (1 forces speed 1 for the first action)"),
    policy: str = typer.Option("sit-at-tn", "--policy", help="push-your-luck policy: sit-at-tn, risk-aware, never"),
    producer: str = typer.Option("physics", "--producer",
                                 help="who rides the move: physics (PyBullet) or geometric (footprints and levels)"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="write the full report as JSON here"),
    png_out: Optional[Path] = typer.Option(
        None, "--png", help="write the picture of the ride here: a 3D still, the profile and the table from above, "
                            "with a key"),
    gif_out: Optional[Path] = typer.Option(None, "--gif", help="write a top-down animation here"),
) -> None:
    """One activation of a model in the scene's rulebook (its `system:`), each action checked by
    its engine, the table's facts (the producer's ride, the LOS engine's sight), resolved; one line
    per event. In Entropy City an action is a plan ("s3: straight 16"), ridden; in a rulebook that
    plays its own game, an action in its words ("walk: straight 3", "shoot", "drive: straight
    16"). `act` is the same command, its actions given with --action."""
    _take_activation(scene, model, plan, seed, turn, policy, producer, json_out, png_out, gif_out, "--plan")


def _take_activation(scene: Path, model: str, plan: List[str], seed: Optional[int], turn: int, policy: str,
                     producer: str, json_out: Optional[Path], png_out: Optional[Path], gif_out: Optional[Path],
                     option: str) -> None:
    """The one activation both commands take; ``option``: how the user gave the actions (``--plan``
    or ``--action``), for the message of a refused one."""
    import dataclasses

    import numpy as np

    from entropy3d.activation.activation_report import dumps, report_json, report_lines
    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.session import PRODUCERS, make_producer
    from entropy3d.game.step import activation
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.systems.entropy_city.dice import POLICY_NAMES
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine

    if policy not in POLICY_NAMES:
        raise fail(f"error: --policy {policy!r} is not one of {', '.join(POLICY_NAMES)}")
    if producer not in PRODUCERS:
        raise fail(f"error: --producer {producer!r} is not one of {', '.join(PRODUCERS)}")
    for out in (json_out, png_out, gif_out):
        if out is not None and not out.parent.exists():
            raise fail(f"error: cannot write {out}: folder {out.parent} does not exist")
    table = load_scene(scene)
    from entropy3d.scene.systemrules import system_of

    system = system_of(table)
    if not system_of(table, played=True).riders:
        riding_only = [option for option, given in (("--turn", turn != 2), ("--policy", policy != "sit-at-tn"),
                                                    ("--json", json_out), ("--png", png_out), ("--gif", gif_out))
                       if given]
        if riding_only:
            raise fail(f"error: {', '.join(riding_only)}: Entropy City's riding only; {scene} plays "
                       f"{system.title} (`system: {system.name}`): give its actions alone")
        return _act_in_system(table, scene, model, plan, seed, producer)
    seed = activation_seed(table, scene, model, seed)
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=turn)
    rides = make_producer(producer, table, geometry)
    try:
        from entropy3d.game.judging import judged
        from entropy3d.game.tableview import TableView

        # the table as the game asks it: a watcher's sight (EC-GUN-STOPPED), who saw whom as the
        # activation began (EC-STEALTH)
        probe = TableView(table, geometry)
        # on a table whose rulebook judges Entropy City's rides, its rulings count in the ride
        engine = judged(EntropyCityEngine(table.ruleset, probe), table, geometry, probe)
        steps = activation(engine, state, model, plan, np.random.default_rng(seed), rides, probe, push=policy)
    except IllegalPlanError as refused:
        if refused.action is None:
            raise
        if json_out is not None:  # the engine's refusal, as the report records it (no step was kept)
            from entropy3d.activation.activation_report import refusal_json
            from entropy3d.outputs import write_atomic

            write_atomic(json_out, dumps(refusal_json(table.name, model, seed, refused, plan)).encode("utf-8"))
        raise fail(f"error: {option} {refused.action} {plan[refused.action - 1]!r}: {refused}") from None
    finally:
        rides.close()
    from entropy3d.systems.words import Names, plain_lines

    names = Names.of_table(table)
    typer.echo(f"{table.name}: {names.rider_of_gang(model)} ({model}), seed {seed}, {producer} producer")
    # the rulings of the rulebook judging the ride are told after it, in that rulebook's words
    told = report_lines(steps, names.rider, lambda event: [] if event.kind == "ruling" else plain_lines(event, names))
    for line in told:
        typer.echo(line)
    taken = sum(1 for step in steps if step.action.kind in ("move", "attack"))
    last = steps[-1].after.model(model)
    why = ("has no action left: its ride ended the activation" if last.in_play
           else f"is {last.status.replace('_', ' ')}, out of the game")
    for number in range(taken + 1, len(plan) + 1):  # the dice ended the activation before it
        typer.echo(f"  {option} {number} {plan[number - 1]!r} not ridden: {names.rider(model)} {why}")
    if json_out is not None:
        from entropy3d.outputs import write_atomic

        text = dumps(report_json(table.name, model, seed, steps, table.ruleset, producer))
        write_atomic(json_out, text.encode("utf-8"))
        typer.echo(f"wrote {json_out}")
    for event in (e for step in steps for e in step.events if e.kind == "ruling"):
        said = event.rules.replace(model, names.rider(model)) if event.figures.get("applied") else event.text
        typer.echo(f"  {table.spec.system} rules: {names.named_all(said)}  ({', '.join(event.clauses)})")
    cliffs = [edge for edge, kind in table.spec.table.edges.items() if kind == "cliff"]
    if png_out is not None:
        from entropy3d.activation.picture import draw_picture, write_picture
        from entropy3d.activation.story import RideStory

        try:
            story = RideStory.from_steps(steps, model, table.ruleset)
        except ValueError as error:
            raise fail(f"error: --png: {error}") from None
        picture = draw_picture(table, geometry, story, names, cliffs)
        write_picture(png_out, picture)
        typer.echo(f"wrote {png_out} (action {story.action_number}; 3D still {picture.still_s:.1f} s)")
    if gif_out is not None:
        from entropy3d.activation.overhead import draw_gif

        draw_gif(gif_out, geometry, steps, table.ruleset, cliff_edges=cliffs, rider=names.rider_of_gang(model))
        typer.echo(f"wrote {gif_out}")


@app.command()
@clean_errors
def act(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    model: str = typer.Option(..., "--model", "-m", help="id of the model that activates"),
    action: List[str] = typer.Option(..., "--action", "-a",
                                     help="an action in the scene's rulebook's words, e.g. \"walk: straight 3\", "
                                          "\"shoot\", \"drive: straight 16\" or Entropy City's \"s3: straight 16\"; "
                                          "repeat for the next"),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="dice seed (default: a fresh one, printed)"),
    producer: str = typer.Option("physics", "--producer",
                                 help="who moves the model: physics (PyBullet) or geometric (footprints and levels)"),
) -> None:
    """`entropy3d activate` under its other name, its actions given with --action (-a): one
    activation of a model in the scene's own rulebook."""
    _take_activation(scene, model, action, seed, 2, "sit-at-tn", producer, None, None, None, "--action")


def untold_contacts(record, events, names) -> list[str]:
    """What the ride ran into that no event of the system speaks of (a chase's drive stopped by
    a building it ran into: no rule of the seed, so no event), so a player reading a drive of
    3.8" out of 12" knows why: one line per piece, from the producer's facts."""
    spoken = {event.piece for event in events}
    contacts = record.facts.contacts if record.facts is not None else ()
    return [f"{names.rider(record.action.model_id)} runs into {names.thing(contact.piece_id)} "
            f"{contact.progress_in:.1f}\" along and stops short of it"
            for contact in contacts if contact.kind != "model" and contact.piece_id not in spoken]


def _act_in_system(table, scene: Path, model: str, actions: List[str], seed: Optional[int], producer: str) -> None:
    """The activation in a rulebook that plays its own game: its engine's ``parse_action`` and the
    one take, one line per event, then where the model stands."""
    import numpy as np

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.loop import action_record, record_events
    from entropy3d.game.session import make_producer
    from entropy3d.game.step import take
    from entropy3d.game.tableview import TableView
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.systemrules import model_stats, system_of
    from entropy3d.systems.entropy_city.transition import Action

    system = system_of(table)
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
        state = take(engine, state, Action.activate(model), rng, rides, view).after
        for index, text in enumerate(actions):
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
