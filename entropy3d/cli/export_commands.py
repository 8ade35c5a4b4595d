"""``entropy3d export`` (glTF 2.0 binary of a table or a replay) and ``entropy3d sheet`` (the
printable 1:1 table plan, PDF or SVG)."""

from __future__ import annotations

from pathlib import Path

import typer

from entropy3d.cli.app import app, clean_errors, fail

PAPERS = ("a4", "letter")  # entropy3d.export.sheet.PAPERS, named here so --help needs no import


@app.command()
@clean_errors
def export(
    source: Path = typer.Argument(..., help="scene YAML, or replay .jsonl (its bikes' and debris' motion is animated)"),
    output: Path = typer.Option(..., "--output", "-o", help="glTF binary file to write (.glb)"),
) -> None:
    """Write a table and its miniatures as glTF 2.0 (.glb) for Blender and web viewers: Y up, metres
    at the physical table's size (a 48" table is 1.2192 m), painted as the film paints it (road
    markings, materials, shadows as textures; windows); a replay adds one animation of the bikes
    and the scenery they knock about, in depicted seconds."""
    from entropy3d.outputs import check_output_path

    check_output_path(output, (".glb",))
    from entropy3d.cli.demo_commands import tell_if_cut_short
    from entropy3d.export.gltf import export_glb
    from entropy3d.game.replay import load_source

    table, geometry, replay = load_source(source)
    written = export_glb(table, geometry, output, tell_if_cut_short(replay))
    what = f"{len(replay.activations)} activations animated" if replay is not None else "the starting positions"
    typer.echo(f"wrote {written} ({written.stat().st_size / 1e6:.1f} MB; {table.width:g}\" x {table.depth:g}\" "
               f"table = {table.width * 0.0254:.4f} m x {table.depth * 0.0254:.4f} m, {what})")


@app.command()
@clean_errors
def sheet(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    output: Path = typer.Option(..., "--output", "-o",
                                help="table plan to write: .pdf (tiled pages) or .svg (one sheet)"),
    paper: str = typer.Option("a4", "--paper", help="page size of the PDF: a4 or letter"),
) -> None:
    """Print the table plan at 1:1 (one inch on paper is one table inch) to lay a real table out
    from: a PDF of an overview page and tiled pages with an inch grid, alignment crosses and every
    piece labelled (height, level, ramp directions, destructibles' risk, cliff edges, starting
    bases), or the whole plan as one SVG sheet."""
    from entropy3d.outputs import check_output_path

    if paper.lower() not in PAPERS:
        raise fail(f"error: --paper {paper!r}: use one of {', '.join(PAPERS)}")
    check_output_path(output, (".pdf", ".svg"))
    if scene.suffix.lower() == ".jsonl":
        raise fail(f"error: {scene}: a replay; the sheet draws a table: give the scene YAML its game was played on")
    from entropy3d.export.plan_marks import table_plan
    from entropy3d.export.sheet import write_pdf, write_svg
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(scene)
    plan = table_plan(table, build_table_geometry(table))
    if output.suffix.lower() == ".svg":
        write_svg(plan, output)
        typer.echo(f"wrote {output} (one {table.width:g}\" x {table.depth:g}\" sheet at 1:1)")
        return
    layout = write_pdf(plan, output, paper.lower())
    bare = f"; {len(layout.bare)} of bare ground left out" if layout.bare else ""
    typer.echo(f"wrote {output} ({len(layout.tiles) + 1} {paper.upper() if paper.lower() == 'a4' else 'Letter'} pages: "
               f"an overview and {len(layout.tiles)} at 1:1, {'landscape' if layout.landscape else 'portrait'}{bare}; "
               "print at 100%)")
