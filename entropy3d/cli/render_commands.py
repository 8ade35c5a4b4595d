"""``entropy3d render``: a PNG of a scene, drawn offscreen (no display, no GPU needed)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from entropy3d.cli.app import app, clean_errors, fail


@app.command()
@clean_errors
def render(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="PNG to write (default: <scene>_<camera>.png here)"),
    camera: str = typer.Option("iso", "--camera", "-c",
                               help="iso (3/4 view), overview (from above), low (street level), "
                                    "or a camera named in the scene's `cameras:`"),
    size: str = typer.Option("1280x720", "--size", "-s", help="WIDTHxHEIGHT in pixels, 16 to 4096 each"),
    grid: bool = typer.Option(True, "--grid/--no-grid", help="draw the inch grid on the table"),
    backend: Optional[str] = typer.Option(
        None, "--backend", help="tiny (software, default), gl (headless EGL) or auto (gl if it works)"),
    levels: bool = typer.Option(False, "--levels", help="draw the walkable levels from above instead: each "
                                                        "surface coloured by height level, ramps as arrows"),
    legend: bool = typer.Option(True, "--legend/--no-legend", help="the gangs by name in their colours, top right"),
    names: bool = typer.Option(True, "--names/--no-names", help="a name plate by each miniature"),
) -> None:
    """Render a scene's table and miniatures to a PNG image (or, with --levels, its map of levels)."""
    from entropy3d.render.renderer import parse_size

    try:
        width, height = parse_size(size)
    except ValueError as error:
        raise fail(f"error: --size: {error}") from None
    output = output if output is not None else Path(f"{scene.stem}_{'levels' if levels else camera}.png")
    if output.suffix.lower() != ".png":
        raise fail(f"error: --output {output}: the image is written as PNG; use a name ending in .png")
    folder = output.parent if str(output.parent) else Path(".")
    if not folder.is_dir():
        raise fail(f"error: --output {output}: folder {folder} does not exist; create it first")

    from entropy3d.errors import BackendUnavailable
    from entropy3d.render import cameras
    from entropy3d.render.renderer import TableRenderer
    from entropy3d.scene import load_scene

    table = load_scene(scene)
    if levels:
        from entropy3d.render.levels_map import draw_levels
        from entropy3d.scene.build import build_table_geometry

        started = time.perf_counter()
        found = draw_levels(table, build_table_geometry(table), output)
        typer.echo(f"wrote {output} (levels: {', '.join(level.name for level in found)}; "
                   f"{time.perf_counter() - started:.1f} s)")
        return
    names = cameras.camera_names(table.spec.cameras)
    if camera not in names:
        raise fail(f"error: --camera {camera!r} is not a camera of {scene}; use one of: {', '.join(names)}")
    started = time.perf_counter()
    try:
        with TableRenderer(table, (width, height), camera=camera, grid=grid, backend=backend) as renderer:
            written = renderer.save_png(output, legend, names)
            used = renderer.backend
    except (BackendUnavailable, ValueError) as error:
        raise fail(f"error: {error}") from None
    typer.echo(f"wrote {written} ({width}x{height}, camera {camera}, {used} renderer, "
               f"{time.perf_counter() - started:.1f} s)")
