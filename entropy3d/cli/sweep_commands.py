"""``entropy3d sweep``: many seeded automatic games, headless, on Dask distributed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer

from entropy3d.cli.app import app, clean_errors, fail
from entropy3d.cli.demo_commands import SUPERSAMPLE

SWEEP_PRODUCERS = ("physics", "geometric")  # entropy3d.game.PRODUCERS, named here so --help needs no import


def _need_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise fail("error: sweeps run on Dask distributed, which is not installed; "
                   "install it with: pip install 'entropy3d[sweep]'") from None


def check_cluster_options(producer: str, scheduler: str | None, workers: int | None) -> None:
    """Refuse a producer, a scheduler address or a worker count a cluster of games cannot use
    (sweep and duel), before anything is played."""
    if producer not in SWEEP_PRODUCERS:
        raise fail(f"error: --producer {producer!r}: use one of {', '.join(SWEEP_PRODUCERS)}")
    if scheduler is not None and workers is not None:
        raise fail("error: --workers sizes the local cluster; with --scheduler the cluster has its own workers")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://")):
        raise fail(f"error: --scheduler {scheduler!r}: give the scheduler's address as tcp://HOST:PORT")


@app.command()
@clean_errors
def sweep(
    scenes: List[Path] = typer.Argument(..., help="scene YAML files; each plays --games games"),
    games: int = typer.Option(..., "--games", "-n", min=1, help="games per scene"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the first game; game k of a scene plays seed + k"),
    turns: int = typer.Option(3, "--turns", "-t", min=1, max=200, help="turns per game"),
    producer: str = typer.Option("physics", "--producer",
                                 help="who rides the moves: physics (PyBullet) or geometric (no physics)"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="tcp://HOST:PORT of a Dask scheduler; without it a local "
                                                 "cluster is started on this machine (loopback only)"),
    workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                          help="worker processes of the local cluster [default: one per core]"),
    out: Path = typer.Option(Path("results"), "--out", "-o",
                             help="results folder: sweep.sqlite and replays/ (resumed if it exists)"),
) -> None:
    """Play GAMES seeded automatic games per scene headless on Dask distributed; store each game's
    replay and its summary rows (SQLite) in the results folder. Run it again to resume: a stored
    game is never played again. Game k of a scene is the same bytes as
    `entropy3d demo SCENE --seed SEED+k --turns T --producer P --replay FILE`."""
    check_cluster_options(producer, scheduler, workers)
    stems: dict[str, Path] = {}
    for scene in scenes:
        other = stems.setdefault(scene.stem, scene)
        if other is not scene and other.resolve() == scene.resolve():
            raise fail(f"error: scene {scene} is given twice; give each scene once (--games sets how many "
                       "games each plays)")
        if other is not scene:
            raise fail(f"error: scenes {other} and {scene} have the same file name, so their replays would "
                       "share names in the results folder; copy one under another name")
    if out.exists() and not out.is_dir():
        raise fail(f"error: --out {out}: a file is there; give a folder for the results")
    from entropy3d.scene import load_scene

    for scene in scenes:
        load_scene(scene)  # a bad scene is reported on its own, before any worker starts
    _need_dask()
    from entropy3d.cli.demo_commands import _progress
    from entropy3d.sweep.run import dask_client, run_sweep, sweep_jobs
    from entropy3d.sweep.store import ResultStore

    jobs = sweep_jobs([str(s) for s in scenes], games, seed, turns, producer)
    with ResultStore(out) as store:
        already = jobs.count_among(store.finished())
        if already == len(jobs):
            typer.echo(f"all {already} game(s) already in {out}; nothing to play")
            return
        with _progress() as progress:
            task = progress.add_task("starting the cluster" if scheduler is None else f"connecting to {scheduler}",
                                     total=len(jobs), completed=already)
            with dask_client(scheduler, workers) as client:
                count = len(client.scheduler_info().get("workers", {}))
                progress.update(task, description=f"playing on {count} worker{'s' if count != 1 else ''}")
                started = time.perf_counter()
                outcome = run_sweep(jobs, store, client, on_result=lambda _: progress.advance(task))
                seconds = time.perf_counter() - started
    rate = f", {outcome.played / seconds:.2f} games/s" if outcome.played and seconds > 0 else ""
    typer.echo(f"{outcome.played} game(s) played in {seconds:.1f} s{rate}; {outcome.already} already in {out}"
               + (f"; {outcome.adopted} replay(s) adopted" if outcome.adopted else "")
               + f"; results: {out / 'sweep.sqlite'}, replays in {out / 'replays'}")
    if outcome.failed:
        for job, error in outcome.failed[:5]:
            typer.echo(f"error: {job.name} ({job.scene}, seed {job.seed}): {error}", err=True)
        raise fail(f"error: {len(outcome.failed)} game(s) failed; they are not stored, so running the sweep "
                   "again plays them again")


@app.command()
@clean_errors
def highlights(
    results: Path = typer.Argument(..., help="results folder written by `entropy3d sweep --out`"),
    top: int = typer.Option(3, "--top", "-k", min=1, max=50, help="how many of the most dramatic games"),
    moments: int = typer.Option(2, "--moments", min=1, max=20,
                                help="activations shown per game: those with the most drama"),
    out: Path = typer.Option(Path("reel.mp4"), "--out", "-o", help="video to write: .mp4 or .gif"),
    size: Optional[str] = typer.Option(None, "--size", "-s",
                                       help="WIDTHxHEIGHT in pixels [default: 1280x720; 640x360 for a GIF]"),
    fps: int = typer.Option(30, "--fps", min=5, max=60, help="frames per second"),
    pace: str = typer.Option("fast", "--pace",
                             help="fast, normal or slow (as for replay-render); fast keeps the default reel of "
                                  "3 games near a minute and a half, normal reads every sentence at 12 "
                                  "characters a second and doubles it"),
) -> None:
    """Render the most dramatic games of a sweep (their best moments, with title cards) into one
    reel, from the stored replays: nothing is played again."""
    from entropy3d.cli.demo_commands import _check_pace, _output, _progress, _size

    _check_pace(pace)
    video_size = _size(size, out)
    _output(out, (".mp4", ".gif"), "--out")
    from entropy3d.game.replay import read_replay, scene_file
    from entropy3d.sweep.store import ResultStore
    from entropy3d.sweep.summary import drama_reasons
    from entropy3d.systems.words import Names
    from entropy3d.video import VideoOptions
    from entropy3d.video.reel import ReelGame, render_reel

    names: dict[str, Names] = {}
    games = []
    with ResultStore.existing(results) as store:
        rows = store.top_games(top)
        if not rows:
            raise fail(f"error: {results}: the sweep has no finished game yet")
        for rank, row in enumerate(rows, start=1):
            replay = read_replay(store.folder / row["replay"])
            if replay.header.scene not in names:
                from entropy3d.scene import load_scene

                names[replay.header.scene] = Names.of_table(load_scene(scene_file(replay)))
            chosen = store.best_activations(row, moments) or (len(replay.activations) - 1,)
            games.append(ReelGame(replay, rank, float(row["drama"]), chosen,
                                  drama_reasons(row, names[replay.header.scene].gang)))
    options = VideoOptions(size=video_size, fps=fps, supersample=SUPERSAMPLE).paced(pace)
    with _progress() as progress:
        task = progress.add_task(f"rendering {out.name}", total=None)
        started = time.perf_counter()
        _, frames = render_reel(games, out, options,
                                progress=lambda done, total: progress.update(task, completed=done, total=total))
    typer.echo(f"rendered {out}: {len(games)} game(s), {frames / fps:.0f} s of video in "
               f"{time.perf_counter() - started:.1f} s")


@app.command()
@clean_errors
def report(
    results: Path = typer.Argument(..., help="results folder written by `entropy3d sweep --out`"),
    out: Path = typer.Option(Path("report.html"), "--out", "-o", help="the page to write (.html)"),
) -> None:
    """Write one offline HTML page of a sweep's results: how often each mission's own objective
    was reached and the win rates, with 95% confidence intervals,
    heat maps of takedowns, crashes and jumps on the table, outcomes per bike type, the most
    dramatic games."""
    from entropy3d.outputs import check_output_path, write_atomic
    from entropy3d.sweep.report import build_report, scene_objectives
    from entropy3d.sweep.store import ResultStore

    check_output_path(out, (".html",))
    with ResultStore.existing(results) as store:
        try:
            page = build_report(store)
        except ValueError as error:
            raise fail(f"error: {results}: {error}") from None
        objectives = scene_objectives(store)
    write_atomic(out, page.encode("utf-8"))
    for figures in objectives:
        typer.echo(figures.line)
    typer.echo(f"wrote {out} ({len(page) / 1024:.0f} kB)")
