"""``entropy3d share``: a table or a replay as one HTML page anyone can open offline."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from entropy3d.cli.app import app, clean_errors
from entropy3d.cli.demo_commands import _output, tell_if_cut_short


@app.command()
@clean_errors
def share(
    source: Optional[Path] = typer.Argument(None, help="scene YAML or replay .jsonl (default: the bundled scene)"),
    output: Path = typer.Option(Path("game.html"), "--output", "-o", help="HTML page to write"),
) -> None:
    """Write one self-contained HTML page of a table or a replay: open it in any browser, offline.

    The table in 3D and the miniatures (drag to orbit, right-drag to pan, wheel to zoom, v for a
    top-down view); for a replay a timeline (play, pause, step per action) with each action's
    words and dice, its trajectory, the turning templates and sight lines as toggles.
    """
    _output(output, (".html", ".htm"), "--output")
    from entropy3d.share import write_share_page

    started = time.perf_counter()
    written = write_share_page(source, output, on_replay=tell_if_cut_short)
    size_kb = written.stat().st_size / 1024
    typer.echo(f"wrote {written} ({size_kb:.0f} KB, {time.perf_counter() - started:.1f} s): open it in a browser")
