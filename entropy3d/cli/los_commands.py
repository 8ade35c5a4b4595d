"""``entropy3d los``: line of sight between two models, or the matrix of every pair."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from entropy3d.cli.app import SCENE_GEOMETRY_MODULES, app, clean_errors, fail, import_for_command
from entropy3d.cli.system_commands import other_rules_note, system_sight_lines

LEGEND = ("cell: T = top-down LOS (EC-LOS-1..3), - = none; % of bike and rider visible (EC-LOS-4); "
          "* = can shoot an enemy (EC-COVER-1: bike seen, >= 25% visible; never marked at the rider's own gang).\n"
          "Sight is one-way: a rider sees only out of the front half of its base (EC-LOS-2), so a row can see a "
          "column that cannot see it back.")


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def can_shoot(result, ruleset) -> bool:
    """The rules' answer to what the LOS engine measured (EC-COVER-1, :func:`shot_in_sight`)."""
    from entropy3d.systems.entropy_city.combat import shot_in_sight

    return shot_in_sight(result.true_los.visible_fraction, result.true_los.bike_seen, ruleset)


def with_shot(result, ruleset) -> dict:
    """``result.to_dict()`` with the rules' ``can_shoot`` added to its true LOS, for ``--json``."""
    data = result.to_dict()
    data["true_los"]["can_shoot"] = can_shoot(result, ruleset)
    return data


def pair_report(result, scene_name: str, ruleset, names=None) -> str:
    """The text ``entropy3d los SCENE A B`` prints; ``names`` (a :class:`~entropy3d.systems.words.Names`)
    gives riders and pieces by name (ids in brackets); ``ruleset`` decides the shot (EC-COVER-1)."""
    td, tl = result.top_down, result.true_los

    who = names.rider_and_id if names is not None else str

    def thing(piece_id: str) -> str:
        return names.thing(piece_id) if names is not None else piece_id

    blockers = [thing(b) for b in sorted(set(td.blockers) | set(tl.blockers))]
    lines = [
        f"{who(result.viewer)} -> {who(result.target)}  ({scene_name})",
        f"  top-down LOS (EC-LOS-1..3): {'VISIBLE' if td.visible else 'BLOCKED'}  "
        f"({td.clear_lines}/{td.lines} lines clear"
        + (", target behind the viewer: no lines out of the back half, EC-LOS-2)" if td.lines == 0 else ")"),
        f"  true LOS (EC-LOS-4):        {100 * tl.visible_fraction:.0f}% of bike and rider visible "
        f"(bike {100 * tl.bike_fraction:.0f}%, bike seen: {_yes(tl.bike_seen)}; {tl.rays} rays"
        + (f", {tl.behind_words(names.rider(result.viewer) if names else result.viewer)})" if tl.rays_behind
           else ")"),
        f"  cover (EC-COVER-1):         {_yes(tl.cover)}",
        f"  can shoot (EC-COVER-1):     {_yes(can_shoot(result, ruleset))}",
        f"  blocking pieces:            {', '.join(blockers) if blockers else '-'}",
    ]
    if td.blockers != tl.blockers:
        lines.append(f"    top-down: {', '.join(map(thing, td.blockers)) or '-'};  "
                     f"true LOS: {', '.join(map(thing, tl.blockers)) or '-'}")
    return "\n".join(lines)


def matrix_report(results, ids: list[str], scene_name: str, ruleset, names: dict | None = None,
                  gang_of: dict | None = None) -> str:
    """The text ``entropy3d los SCENE --all`` prints: viewers down, targets across, riders by
    name (``names``: id -> name); shots marked only at another gang (``gang_of``: id -> gang)."""
    names, gang_of = names or {}, gang_of or {}
    label = {i: names.get(i, i) for i in ids}
    width = max(7, *(len(v) for v in label.values())) + 1
    rows = [f"{scene_name}: line of sight, viewer (row) -> target (column)", LEGEND, "",
            " " * width + "".join(f"{label[i]:>{width}}" for i in ids)]
    for viewer in ids:
        cells = []
        for target in ids:
            if viewer == target:
                cells.append(f"{'.':>{width}}")
                continue
            result = results[(viewer, target)]
            enemy = gang_of.get(viewer) != gang_of.get(target) or viewer not in gang_of
            cell = (f"{'T' if result.top_down.visible else '-'}{100 * result.true_los.visible_fraction:4.0f}%"
                    f"{'*' if can_shoot(result, ruleset) and enemy else ' '}")
            cells.append(f"{cell:>{width}}")
        rows.append(f"{label[viewer]:<{width}}" + "".join(cells))
    return "\n".join(rows)


def eye_view(world, result, size: tuple[int, int], backend: str | None):
    """What the viewer's rider sees, rendered by the table renderer, with the true-LOS rays'
    end points dotted on it (green reached, red blocked); None when no renderer can run here."""
    import numpy as np
    from PIL import ImageDraw

    from entropy3d.errors import BackendUnavailable
    from entropy3d.render.cameras import CameraView
    from entropy3d.render.renderer import TableRenderer
    from entropy3d.systems.words import Names

    called = Names.of_table(world.table).rider
    minis = world.miniatures()
    target = minis[result.target]
    eye = result.geometry.eye
    centre = (target.low + target.high) / 2
    distance = float(np.linalg.norm(centre - eye))
    fov = float(np.clip(np.degrees(2 * np.arctan(4.0 / max(distance, 1e-3))), 15.0, 70.0))
    try:
        with TableRenderer(world.table, size, geometry=world.geometry, backend=backend, grid=False,
                           camera=CameraView(tuple(eye), tuple(centre), fov),
                           title=f"{called(result.viewer)}'s eye: {100 * result.true_los.visible_fraction:.0f}% "
                                 f"of {called(result.target)} visible" + (
                                     f" ({result.true_los.behind_words(called(result.viewer))})"
                                     if result.true_los.rays_behind else "")) as renderer:
            renderer.show_model(result.viewer, False)
            image = renderer.render_to_array()
            pixels = renderer.project(result.geometry.ray_ends)
    except BackendUnavailable:
        return None
    from PIL import Image

    picture = Image.fromarray(image)
    draw = ImageDraw.Draw(picture, "RGBA")
    step = max(1, len(pixels) // 250)  # a sparse, see-through sample, so the miniature shows
    for (x, y), visible in zip(pixels[::step], result.geometry.rays_visible[::step]):
        if np.isfinite(x) and np.isfinite(y):
            draw.ellipse([x - 1.2, y - 1.2, x + 1.2, y + 1.2],
                         fill=(40, 200, 80, 150) if visible else (225, 50, 40, 150))
    return picture


def write_picture(world, result, output: Path, backend: str | None) -> bool:
    """Top-down view, and the eye view beside it when a renderer runs; returns whether the eye
    view is in. Written atomically."""
    import io

    from PIL import Image

    from entropy3d.los.verdict_picture import draw_top_down
    from entropy3d.outputs import write_atomic

    top = draw_top_down(world, result)
    eye = eye_view(world, result, (top.width, top.height), backend)
    if eye is not None:
        both = Image.new("RGB", (top.width + eye.width, max(top.height, eye.height)))
        both.paste(top, (0, 0))
        both.paste(eye, (top.width, 0))
        top = both
    buffer = io.BytesIO()
    top.save(buffer, format="PNG")
    write_atomic(output, buffer.getvalue())
    return eye is not None


def off_table_at_start(table) -> dict[str, str]:
    """The models not on the table as the scene's game starts, each with why: the Law waiting to
    ride in (EC-LAW), an ambusher until it is revealed (EC-TRAIT-AMBUSH)."""
    from entropy3d.systems.entropy_city.ambush import lying_in_wait

    return {m.id: ("in ambush until revealed, EC-TRAIT-AMBUSH" if lying_in_wait(m) else
                   "the Law, riding in later, EC-LAW" if m.law else m.status)
            for m in table.initial_state().models.values() if not m.in_play}


@app.command("los")
@clean_errors
def los(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    viewer: Optional[str] = typer.Argument(None, help="model id of the viewer"),
    target: Optional[str] = typer.Argument(None, help="model id of the target"),
    every_pair: bool = typer.Option(False, "--all", help="the matrix of every viewer -> target pair"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
    png: Optional[Path] = typer.Option(None, "--png", help="also draw the verdict: from above and from the "
                                                             "viewer's eye, sight lines green/red"),
    backend: Optional[str] = typer.Option(None, "--backend", help="renderer for the eye view: tiny, gl, auto"),
) -> None:
    """Line of sight both ways the rulebook gives: top-down (EC-LOS-1..3) and true LOS with
    cover (EC-LOS-4, EC-COVER-1), from the rider's eye, across levels."""
    if every_pair and (viewer or target):
        raise fail("error: give either two model ids (VIEWER TARGET) or --all, not both")
    if not every_pair and not (viewer and target):
        raise fail("error: give two model ids (VIEWER TARGET), or --all for every pair")
    if png is not None:
        if every_pair:
            raise fail("error: --png draws one pair; give VIEWER TARGET instead of --all")
        from entropy3d.outputs import check_output_path

        check_output_path(png, (".png",))
    if backend is not None:
        from entropy3d.render.backend import BACKENDS

        if png is None:
            raise fail("error: --backend chooses the renderer of the --png eye view; give --png too")
        if backend not in BACKENDS:
            raise fail(f"error: --backend {backend!r} is not a renderer; use one of {', '.join(BACKENDS)}")

    import_for_command(*SCENE_GEOMETRY_MODULES, "entropy3d.los.world")
    from entropy3d.los import LosWorld
    from entropy3d.scene import load_scene

    table = load_scene(scene)
    ids = [m.id for m in table.models]
    for label, model_id in (("VIEWER", viewer), ("TARGET", target)):
        if model_id is not None and model_id not in ids:
            raise fail(f"error: {scene}: {label}: {table.no_model(model_id)}")
    if viewer is not None and viewer == target:
        raise fail(f"error: VIEWER and TARGET are both {viewer!r}; a model does not look at itself")
    away = off_table_at_start(table)  # the Law before it enters, an ambusher (EC-LAW, EC-TRAIT-AMBUSH)
    for model_id in (viewer, target):
        if model_id in away:
            raise fail(f"error: {scene}: {model_id} is off the table as the game starts ({away[model_id]}): "
                       "nothing sees it and it sees nothing until it comes on; give a model on the table")
    ids = [i for i in ids if i not in away]
    if every_pair and len(ids) < 2:
        raise fail(f"error: {scene} has {len(ids)} model(s) on the table; --all needs at least two")
    world = LosWorld(table)

    if every_pair:
        results = world.all_pairs({i: None for i in away})
        decided = system_sight_lines(table, world, results)
        if as_json:
            typer.echo(json.dumps({"scene": table.name, "models": ids,
                                   "pairs": [with_shot(r, table.ruleset) for r in results.values()]}, indent=2))
        else:
            typer.echo(matrix_report(results, ids, table.name, table.ruleset,
                                     {m.id: m.rider.name or m.id for m in table.models},
                                     {m.id: m.gang for m in table.models}))
            typer.echo(other_rules_note(table) + decided, nl=False)
            if away:
                typer.echo("off the table as the game starts: "
                           + "; ".join(f"{i} ({why})" for i, why in away.items()))
        return

    result = world.line_of_sight(viewer, target)
    if as_json:
        typer.echo(json.dumps({"scene": table.name, **with_shot(result, table.ruleset)}, indent=2))
    else:
        from entropy3d.systems.words import Names

        typer.echo(pair_report(result, table.name, table.ruleset, Names.of_table(table)))
    if png is not None:
        with_eye = write_picture(world, result, png, backend)
        message = f"wrote {png}" + ("" if with_eye else " (top-down only: no renderer can run here)")
        typer.echo(message, err=as_json)
