"""``entropy3d demo``, ``entropy3d replay-render``, ``entropy3d replay-check`` and
``entropy3d view``: play a game, render a replay to a video without physics, prove a replay
deterministic, explore a table or a replay in a window."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from entropy3d.cli.app import app, clean_errors, fail

#: the default film's game: crossroads, 3 turns, this seed (10 since the rules fixes of issue 45
#: changed seed 7's game to one with no crash: seed 10 has a crash ridden out, two falls, five jumps)
DEMO_SEED = 10
DEMO_TURNS = 3
PACES = ("fast", "normal", "slow")  # entropy3d.video.movie.PACES, named here so --help needs no import
PACE_HELP = ("with --cut full, how long each action stays on screen: fast, normal (text readable at 12 "
             "characters a second, key moments in slow motion) or slow")
CUTS = ("short", "full")  # entropy3d.video.cut.CUTS
CUT_HELP = ("short: the key moments in plain words, 60-90 s for a 3-turn game; full: every action with its "
            "dice and clauses")
SMOOTH_HELP = "the finest anti-aliasing: 2x2 samples a pixel (about twice the default's render time)"
DRAFT_HELP = "no anti-aliasing: jagged edges, about half the default's render time"
#: samples a pixel along each side: the default (a film's edges smooth at ~1.2 wall s a film
#: second at 720p), --smooth and --draft
SUPERSAMPLE, SMOOTH_SUPERSAMPLE, DRAFT_SUPERSAMPLE = 1.5, 2, 1
GRID_HELP = "draw the inch grid on the table (for analysis; a film shows the table as painted)"
#: --for: where the film is posted, and the frame it is made in (always the short cut: at most
#: 90 s, under X's 2:20 for a free account, and its bit rate cap keeps 90 s at 720p under
#: Discord's 10 MB, at 1080p under 15 MB; entropy3d.video.cut)
POSTS = {"x": (1280, 720), "discord": (1280, 720), "youtube": (1920, 1080), "vertical": (1080, 1920)}
POST_HELP = ("where the film goes: x (720p, at most 2:20), discord (720p, under 10 MB), youtube (1080p) or "
             "vertical (1080x1920, the acting model kept in frame); the short cut, at its frame size")


#: the smallest video whose captions (the HUD's fonts scale with the height) can be drawn
MIN_VIDEO_SIZE = (96, 54)


def _size(text: str | None, out: Path) -> tuple[int, int]:
    """The frame size: --size, else 1280x720 for MP4 and 640x360 for GIF (every GIF frame is kept
    in memory until the file is written, and a 720p GIF is too heavy to share anyway)."""
    from entropy3d.render.renderer import parse_size

    if text is None:
        return (640, 360) if out.suffix.lower() == ".gif" else (1280, 720)
    try:
        width, height = parse_size(text)
    except ValueError as error:
        raise fail(f"error: --size: {error}") from None
    if width % 2 or height % 2:
        raise fail(f"error: --size {text}: H.264 needs even width and height, e.g. 1280x720")
    if width < MIN_VIDEO_SIZE[0] or height < MIN_VIDEO_SIZE[1]:
        raise fail(f"error: --size {text}: too small for the captions; use at least "
                   f"{MIN_VIDEO_SIZE[0]}x{MIN_VIDEO_SIZE[1]} (640x360 reads well)")
    return width, height


def _output(path: Path, suffixes: tuple[str, ...], option: str) -> Path:
    if path.suffix.lower() not in suffixes:
        raise fail(f"error: {option} {path}: use a name ending in {' or '.join(suffixes)}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise fail(f"error: {option} {path}: folder {folder} does not exist; create it first")
    return path


def game_table(game):
    """The scene a played game or replay was played on."""
    from entropy3d.game.replay import scene_file
    from entropy3d.scene import load_scene

    return load_scene(scene_file(game))


def _progress():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    transient=False)


def _film_size(post: str | None, size: str | None, cut: str, out: Path) -> tuple[int, int]:
    """The frame size of --for (which makes the short cut), else of --size or the default."""
    if post is None:
        return _size(size, out)
    if post not in POSTS:
        raise fail(f"error: --for {post!r}: use one of {', '.join(POSTS)}")
    if size is not None:
        raise fail(f"error: --for {post} sets the size ({'x'.join(map(str, POSTS[post]))}); leave out --size")
    if cut != "short":
        raise fail(f"error: --for {post} makes the short cut; leave out --cut {cut}")
    if out.suffix.lower() != ".mp4":
        raise fail(f"error: --for {post} makes an MP4; name the --out file *.mp4")
    return POSTS[post]


def _check_pace(pace: str, cut: str = "full") -> None:
    """Refuse a pace or a cut before anything is played or read (the video is the last step)."""
    if pace not in PACES:
        raise fail(f"error: --pace {pace!r}: use one of {', '.join(PACES)}")
    if cut not in CUTS:
        raise fail(f"error: --cut {cut!r}: use one of {', '.join(CUTS)}")


def supersample_of(smooth: bool, draft: bool) -> float:
    """The supersampling that --smooth and --draft ask for (both: refused)."""
    if smooth and draft:
        raise fail("error: --smooth and --draft contradict each other: give one of them, or neither")
    return SMOOTH_SUPERSAMPLE if smooth else DRAFT_SUPERSAMPLE if draft else SUPERSAMPLE


def _render(replay, output: Path, size, fps: int, supersample: float, pace: str, progress, cut: str = "short",
            grid: bool = False, sound: bool = True) -> float:
    from entropy3d.video import VideoOptions, count_frames, render_video
    from entropy3d.video.cut import short_kbps

    options = VideoOptions(size=size, fps=fps, supersample=supersample, cut=cut, grid=grid,
                           max_kbps=short_kbps(size) if cut == "short" else None, sound=sound).paced(pace)
    total = count_frames(replay, options)
    task = progress.add_task(f"rendering {output.name}", total=total)
    started = time.perf_counter()
    render_video(replay, output, options, progress=lambda done, _: progress.update(task, completed=done))
    return time.perf_counter() - started


@app.command()
@clean_errors
def demo(
    scene: Optional[Path] = typer.Argument(None, help="scene YAML file (default: the bundled crossroads)"),
    turns: Optional[int] = typer.Option(None, "--turns", "-t", min=1, max=200,
                                        help=f"turns to play [default: {DEMO_TURNS}, or the script's]"),
    seed: Optional[int] = typer.Option(None, "--seed", min=0,
                                       help=f"seed of the dice and the automatic players [default: {DEMO_SEED}, "
                                            "or the script's]"),
    out: Path = typer.Option(Path("demo.mp4"), "--out", "-o", help="video to write: .mp4 (H.264) or .gif"),
    replay: Optional[Path] = typer.Option(None, "--replay", help="also write the replay (JSON lines) here"),
    script: Optional[Path] = typer.Option(None, "--script", help="scripted game YAML (plans per activation)"),
    size: Optional[str] = typer.Option(None, "--size", "-s",
                                       help="WIDTHxHEIGHT in pixels [default: 1280x720; 640x360 for a GIF]"),
    fps: int = typer.Option(30, "--fps", min=5, max=60, help="frames per second"),
    producer: str = typer.Option("physics", "--producer",
                                 help="who rides the moves: physics (PyBullet) or geometric (footprints, no physics)"),
    smooth: bool = typer.Option(False, "--smooth", help=SMOOTH_HELP),
    draft: bool = typer.Option(False, "--draft", help=DRAFT_HELP),
    pace: str = typer.Option("normal", "--pace", help=PACE_HELP),
    cut: str = typer.Option("short", "--cut", help=CUT_HELP),
    grid: bool = typer.Option(False, "--grid", help=GRID_HELP),
    post: Optional[str] = typer.Option(None, "--for", help=POST_HELP),
    no_sound: bool = typer.Option(False, "--no-sound", help="no sound track (an MP4 has one by default)"),
) -> None:
    """Play a short game with automatic players and render it to a video: the scene's game system
    (`system:`, Entropy City by default) when it plays a game of its own, else Entropy City with
    the system ruling on its rides (reference_cards). `entropy3d systems` says which play."""
    from entropy3d.game import PRODUCERS, play_game
    from entropy3d.game.records import ActivationRecord

    if script is None:
        turns = DEMO_TURNS if turns is None else turns
        seed = DEMO_SEED if seed is None else seed
    if producer not in PRODUCERS:
        raise fail(f"error: --producer {producer!r}: use one of {', '.join(PRODUCERS)}")
    _check_pace(pace, cut)
    supersample = supersample_of(smooth, draft)
    video_size = _film_size(post, size, cut, out)
    _output(out, (".mp4", ".gif"), "--out")
    if replay is not None:
        _output(replay, (".jsonl",), "--replay")
    # a bad scene or script is reported on its own, before any progress bar starts
    if script is not None:
        from entropy3d.game.script import check_script_file

        check_script_file(script, scene)
    elif scene is not None:
        from entropy3d.scene import load_scene

        load_scene(scene)
    with _progress() as progress:
        playing = progress.add_task("playing", total=None)
        started = time.perf_counter()
        game = play_game(scene, seed=seed, turns=turns, producer=producer, script=script, replay_path=replay,
                         on_record=lambda r: progress.advance(playing) if isinstance(r, ActivationRecord) else None)
        progress.update(playing, total=len(game.activations), completed=len(game.activations))
        played = time.perf_counter() - started
        rendered = _render(game, out, video_size, fps, supersample, pace, progress, cut, grid,
                           not no_sound)
    end = game.end
    from entropy3d.systems.words import Names

    names = Names.of_table(game_table(game))
    typer.echo(f"{game.header.scene_name}: {end.turns_played} turn(s), {len(game.activations)} activations, "
               f"{names.named(end.reason)}; score " + ", ".join(f"{names.gang(g)} {s:+d}" for g, s in end.score.items())
               + (f"; {names.gang(end.winner)} win" if end.winner else "; a draw"))
    typer.echo(f"played in {played:.1f} s, rendered {out} in {rendered:.1f} s"
               + (f"; replay {replay}" if replay is not None else ""))


@app.command("replay-render")
@clean_errors
def replay_render(
    replay: Path = typer.Argument(..., help="replay file written by `entropy3d demo --replay`"),
    out: Path = typer.Option(Path("replay.mp4"), "--out", "-o", help="video to write: .mp4 or .gif"),
    size: Optional[str] = typer.Option(None, "--size", "-s",
                                       help="WIDTHxHEIGHT in pixels [default: 1280x720; 640x360 for a GIF]"),
    fps: int = typer.Option(30, "--fps", min=5, max=60, help="frames per second"),
    smooth: bool = typer.Option(False, "--smooth", help=SMOOTH_HELP),
    draft: bool = typer.Option(False, "--draft", help=DRAFT_HELP),
    pace: str = typer.Option("normal", "--pace", help=PACE_HELP),
    cut: str = typer.Option("short", "--cut", help=CUT_HELP),
    grid: bool = typer.Option(False, "--grid", help=GRID_HELP),
    post: Optional[str] = typer.Option(None, "--for", help=POST_HELP),
    no_sound: bool = typer.Option(False, "--no-sound", help="no sound track (an MP4 has one by default)"),
    action: Optional[int] = typer.Option(None, "--action", min=1,
                                         help="with --png: the replay's Nth action (counting every action of "
                                              "every activation from 1)"),
    png: Optional[Path] = typer.Option(None, "--png", help="draw the picture of one action (--action N) here "
                                                             "instead of the video"),
) -> None:
    """Render a replay to a video without re-simulating it (no physics runs), or with --action N
    --png FILE the picture of one of its actions (a 3D still, the profile and the table from above)."""
    from entropy3d.game import read_replay

    if (action is None) != (png is None):
        raise fail("error: --action N and --png FILE go together: the picture of the replay's Nth action")
    _check_pace(pace, cut)
    supersample = supersample_of(smooth, draft)
    if png is not None:
        _output(png, (".png",), "--png")
        _picture(tell_if_cut_short(read_replay(replay)), action, png)
        return
    video_size = _film_size(post, size, cut, out)
    _output(out, (".mp4", ".gif"), "--out")
    game = tell_if_cut_short(read_replay(replay))
    with _progress() as progress:
        rendered = _render(game, out, video_size, fps, supersample, pace, progress, cut, grid,
                           not no_sound)
    typer.echo(f"rendered {out} in {rendered:.1f} s")


def tell_if_cut_short(replay):
    """``replay``, after a warning on stderr when it is cut short (no end record): its film and
    pages show the game only as far as it goes."""
    if replay is not None and replay.cut_short:
        typer.echo(f"warning: {replay.cut_short_words()}", err=True)
    return replay


def _picture(game, number: int, png: Path) -> None:
    """Draw the replay's ``number``th action (1-based over all activations) as stored."""
    from entropy3d.activation.picture import draw_picture, write_picture
    from entropy3d.activation.story import RideStory
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.systems.words import Names

    actions = [(activation, k) for activation in game.activations for k in range(len(activation.actions))]
    if number > len(actions):
        raise fail(f"error: --action {number}: the replay has {len(actions)} actions")
    activation, index = actions[number - 1]
    table = game_table(game)
    try:
        story = RideStory.from_record(activation, index, table.ruleset)
    except ValueError as error:
        ridden = [str(n) for n, (a, k) in enumerate(actions, 1) if a.actions[k].ridden and a.actions[k].facts]
        flying = [str(n) for n, (a, k) in enumerate(actions, 1) if a.actions[k].facts and a.actions[k].facts.flights]
        raise fail(f"error: --action {number}: {error}; actions with a ride: {', '.join(ridden) or 'none'}"
                   + (f" (in the air: {', '.join(flying)})" if flying else "")) from None
    started = time.perf_counter()
    cliffs = [edge for edge, kind in table.spec.table.edges.items() if kind == "cliff"]
    picture = draw_picture(table, build_table_geometry(table), story, Names.of_table(table), cliffs)
    write_picture(png, picture)
    typer.echo(f"turn {activation.turn}, {activation.model_id} action {index + 1}: {story.plan} - {picture.title[1]}")
    typer.echo(f"wrote {png} in {time.perf_counter() - started:.1f} s (3D still {picture.still_s:.1f} s)")


@app.command("replay-check")
@clean_errors
def replay_check(replay: Path = typer.Argument(..., help="replay file to play again and compare")) -> None:
    """Play a replay's game again from its header and check the new replay is byte for byte the same."""
    from entropy3d.game import read_replay, resimulate
    from entropy3d.game.replay import scene_file

    identical, again = resimulate(replay)
    if not identical:
        old, held = replay.read_bytes(), read_replay(replay)
        if held.cut_short:
            header = held.header
            script = f" --script {header.players[7:]}" if header.players.startswith("script:") else ""
            if again.startswith(old):
                raise fail(f"error: {replay} is cut short: it has no end record; its {len(old.splitlines())} "
                           f"record(s) are the game played again, which goes on to {len(again.splitlines())}: "
                           f"write it whole with `entropy3d demo {scene_file(held)} --seed {header.seed} --turns "
                           f"{header.turns} --producer {header.producer}{script} --replay {replay}`")
            differs = next((k for k, (a, b) in enumerate(zip(old.splitlines(), again.splitlines()), 1) if a != b),
                           None)  # none: the same lines written otherwise (other line ends)
            where = f"its record {differs} differs" if differs is not None else "its bytes differ"
            raise fail(f"error: {replay} is cut short (no end record) and {where} from the game played again")
        raise fail(f"error: {replay}: playing the game again gave a different replay")
    typer.echo(f"{replay}: deterministic (same bytes when played again)")


@app.command()
@clean_errors
def view(
    source: Optional[Path] = typer.Argument(None, help="scene YAML or replay .jsonl (default: the bundled scene)"),
    select: Optional[str] = typer.Option(None, "--select", help="model id to select at the start"),
    state_file: Optional[Path] = typer.Option(None, "--state-file",
                                              help="after every change write what the window shows there "
                                                   "(JSON: selection, sight labels, measure, poses), for scripts"),
    play: Optional[list[str]] = typer.Option(None, "--play", help="play a game of the scene: this gang by hand "
                                             "(give it twice for both, hot seat), the others by the automatic "
                                             "players; the game is written as a replay in the current folder"),
    seed: int = typer.Option(0, "--seed", min=0, help="with --play: the dice and the automatic players"),
    turns: Optional[int] = typer.Option(None, "--turns", min=1, help="with --play: turns to play (default: the "
                                                                      "scene's)"),
) -> None:
    """Explore a table or a replay in a window, or play a game of a scene in it (--play GANG).

    Click a model to select it (panel, and its sight of every enemy labelled: % visible, cover,
    can shoot); click an enemy for its ray fan; drag the selected model to try it elsewhere, [ and ]
    turn it, u undoes; e types an action for it in the scene's rulebook's words ("s2: straight 8",
    "drive: straight 12", "shoot"), checked as typed, Enter takes it (u undoes); Tab cycles
    models, Esc clears; m then two clicks measures. Left-drag orbit,
    right-drag pan, wheel or +/- zoom, arrows orbit, c centre, v top-down, space play/pause, n/p
    next/previous action, home back to the start, , and . play speed, f follow the active bike,
    l sight lines, t turning templates, r inch ruler, h help, q quit. Needs a display; headless
    machines render videos instead (`entropy3d demo`, `entropy3d replay-render`).
    """
    from entropy3d.viewer import run_viewer

    if state_file is not None:
        from entropy3d.outputs import check_output_path

        check_output_path(state_file, (".json",))
    if not play and (seed != 0 or turns is not None):
        raise fail("error: --seed and --turns are for a game played here: give --play GANG too")
    if play and source is not None and source.suffix == ".jsonl":
        raise fail(f"error: --play plays a game of a scene: {source} is a replay; give a scene file")
    run_viewer(source, state_file=state_file, select=select, on_replay=tell_if_cut_short,
               play=tuple(play or ()), seed=seed, turns=turns)
