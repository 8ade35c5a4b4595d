"""``entropy3d activate``: ride a bike's plan through physics and snap it to the rules."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from entropy3d.cli.app import app, clean_errors, fail


@app.command()
@clean_errors
def activate(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    model: str = typer.Option(..., "--model", "-m", help="id of the model that activates"),
    plan: List[str] = typer.Option(..., "--plan", "-p",
                                   help="an action's plan, e.g. \"s3: straight 16\"; repeat for the second action"),
    seed: Optional[int] = typer.Option(None, "--seed", help="dice seed (default: a fresh one, printed)"),
    turn: int = typer.Option(2, "--turn", min=1, help="game turn (1 forces speed 1 for the first action)"),
    policy: str = typer.Option("sit-at-tn", "--policy", help="push-your-luck policy: sit-at-tn, risk-aware, never"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="write the full report as JSON here"),
    png_out: Optional[Path] = typer.Option(None, "--png", help="write a top-down picture here"),
    gif_out: Optional[Path] = typer.Option(None, "--gif", help="write a top-down animation here"),
) -> None:
    """Ride one activation through PyBullet and report what physics found and what the rules made
    of it, one line per event."""
    import numpy as np

    from entropy3d.activation import activate as run_activation
    from entropy3d.activation import initial_state
    from entropy3d.activation.activate import with_turn
    from entropy3d.activation.report import dumps, report_json, report_lines
    from entropy3d.rules.dice import POLICY_NAMES, policy_named
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    if policy not in POLICY_NAMES:
        raise fail(f"error: --policy {policy!r} is not one of {', '.join(POLICY_NAMES)}")
    for out in (json_out, png_out, gif_out):
        if out is not None and not out.parent.exists():
            raise fail(f"error: cannot write {out}: folder {out.parent} does not exist")
    table = load_scene(scene)
    try:
        table.model(model)
    except KeyError as error:
        raise fail(f"error: {scene}: --model: {error.args[0]}") from None
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (2**31))
    geometry = build_table_geometry(table)
    state = with_turn(initial_state(table, geometry), turn)
    rng = np.random.default_rng(seed)
    results = run_activation(table, geometry, state, model, plan, rng,
                             policy=policy_named(policy, table.ruleset))
    typer.echo(f"{table.name}: {model}, seed {seed}")
    for line in report_lines(results):
        typer.echo(line)
    if json_out is not None:
        from entropy3d.outputs import write_atomic

        text = dumps(report_json(table.name, model, seed, results, table.ruleset))
        write_atomic(json_out, text.encode("utf-8"))
        typer.echo(f"wrote {json_out}")
    cliffs = [edge for edge, kind in table.spec.table.edges.items() if kind == "cliff"]
    if png_out is not None:
        from entropy3d.activation.drawing import draw_png

        draw_png(png_out, geometry, results, table.ruleset, cliff_edges=cliffs)
        typer.echo(f"wrote {png_out}")
    if gif_out is not None:
        from entropy3d.activation.drawing import draw_gif

        draw_gif(gif_out, geometry, results, table.ruleset, cliff_edges=cliffs)
        typer.echo(f"wrote {gif_out}")
