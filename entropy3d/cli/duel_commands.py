"""``entropy3d duel``: two kinds of automatic player against each other, sides swapped, on Dask
distributed like a sweep; prints player A's win rate with its 95% interval (issue 50)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional, Tuple

import typer

from entropy3d.cli.app import app, clean_errors, fail
from entropy3d.cli.sweep_commands import _need_dask, check_cluster_options


@app.command()
@clean_errors
def duel(
    scene: Path = typer.Argument(..., help="scene YAML file; its first two gangs are the two sides"),
    players: Tuple[str, str] = typer.Option(..., "--players", help="the two player kinds, A then B (e.g. basic basic)"),
    games: int = typer.Option(..., "--games", "-n",
                              help="games to play; game k plays seed SEED + k // 2 with A on the first gang when "
                                   "k is even, on the second when odd (an even number plays every seed from "
                                   "both sides)"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the first pair of games"),
    turns: int = typer.Option(3, "--turns", "-t", min=1, max=200, help="turns per game"),
    producer: str = typer.Option("geometric", "--producer",
                                 help="who rides the moves: geometric (no physics) or physics (PyBullet)"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="tcp://HOST:PORT of a Dask scheduler; without it a local "
                                                 "cluster is started on this machine (loopback only)"),
    workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                          help="worker processes of the local cluster [default: one per core]"),
) -> None:
    """Play GAMES games of player kind A against kind B on SCENE, sides swapped, and print A's win
    rate (a draw counts half) with its 95% Wilson interval."""
    from entropy3d.game.player_kinds import PLAYER_KINDS

    for kind in players:
        if kind not in PLAYER_KINDS:
            raise fail(f"error: --players {kind!r}: no such player kind; the known kinds: "
                       f"{', '.join(sorted(PLAYER_KINDS))}")
    if games < 1:
        raise fail(f"error: --games {games}: play at least 1 game (an even number plays each seed from both sides)")
    check_cluster_options(producer, scheduler, workers)
    from entropy3d.scene import load_scene

    gangs = list(load_scene(scene).spec.gangs)  # a bad scene is reported before any worker starts
    if len(gangs) < 2:
        raise fail(f"error: {scene}: it has {len(gangs)} gang; a duel needs a scene of two gangs or more")
    _need_dask()
    from entropy3d.cli.demo_commands import _progress
    from entropy3d.sweep.duel import DuelTally, duel_jobs, run_duel
    from entropy3d.sweep.run import dask_client

    player_a, player_b = players
    jobs = duel_jobs(str(scene), gangs, player_a, player_b, games, seed, turns, producer)
    with _progress() as progress:
        task = progress.add_task("starting the cluster" if scheduler is None else f"connecting to {scheduler}",
                                 total=len(jobs))
        with dask_client(scheduler, workers) as client:
            count = len(client.scheduler_info().get("workers", {}))
            progress.update(task, description=f"playing on {count} worker{'s' if count != 1 else ''}")
            started = time.perf_counter()
            played = run_duel(jobs, client, on_result=lambda _: progress.advance(task))
            seconds = time.perf_counter() - started
    last = seed + (games - 1) // 2
    typer.echo(f"duel on {scene} ({producer}, {turns} turn{'s' if turns != 1 else ''}, seeds {seed}-{last}, "
               f"{games} game(s) in {seconds:.1f} s)")
    for side in gangs[:2]:
        tally = DuelTally.of(game for game in played if game.job.side_a == side)
        typer.echo(f"  A as {side}: {tally.line(player_a, player_b)}")
    typer.echo(DuelTally.of(played).line(player_a, player_b))
