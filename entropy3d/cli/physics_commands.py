"""``entropy3d activate``: one activation along the one path: check, facts, resolve."""

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
                                   help="an action's plan, e.g. \"s3: straight 16\"; repeat for the second action"),
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
    """Ride one activation (check, then the producer's facts, then the rules) and report what the
    table showed and what the rules made of it, one line per event."""
    import dataclasses

    import numpy as np

    from entropy3d.activation.report import dumps, report_json, report_lines
    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.session import PRODUCERS, make_producer
    from entropy3d.game.step import activation
    from entropy3d.rules.dice import POLICY_NAMES
    from entropy3d.rules.engine import EntropyCityEngine
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe

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
    if system.plays():
        raise fail(f"error: {scene}: its models play {system.title} (`system: {system.name}`), whose moves "
                   f"`activate` (Entropy City's riding) cannot take; use its own command: "
                   f"`entropy3d act {scene} --model ID --action ...` (`entropy3d act --help`)")
    seed = activation_seed(table, scene, model, seed)
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=turn)
    rides = make_producer(producer, table, geometry)
    try:
        probe = SceneProbe.from_table(table, geometry)
        steps = activation(EntropyCityEngine(table.ruleset, probe), state, model, plan, np.random.default_rng(seed),
                           rides, probe, push=policy)
    except IllegalPlanError as refused:
        if refused.action is None:
            raise
        raise fail(f"error: --plan {refused.action} {plan[refused.action - 1]!r}: {refused}") from None
    finally:
        rides.close()
    from entropy3d.systems.words import Names, plain_lines

    names = Names.of_table(table)
    typer.echo(f"{table.name}: {names.rider_of_gang(model)} ({model}), seed {seed}, {producer} producer")
    for line in report_lines(steps, names.rider, lambda event: plain_lines(event, names)):
        typer.echo(line)
    from entropy3d.game.judging import RideJudge

    judge = RideJudge.of(table, geometry)
    # the system's own tests roll from a stream of their own, so Entropy City's dice are unchanged
    for event in judge.events(model, steps, np.random.default_rng([seed, 1])) if judge is not None else ():
        typer.echo(f"  {table.spec.system} rules: {names.named_all(event.text)}  ({', '.join(event.clauses)})")
    if json_out is not None:
        from entropy3d.outputs import write_atomic

        text = dumps(report_json(table.name, model, seed, steps, table.ruleset, producer))
        write_atomic(json_out, text.encode("utf-8"))
        typer.echo(f"wrote {json_out}")
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
        from entropy3d.activation.drawing import draw_gif

        draw_gif(gif_out, geometry, steps, table.ruleset, cliff_edges=cliffs, rider=names.rider_of_gang(model))
        typer.echo(f"wrote {gif_out}")
