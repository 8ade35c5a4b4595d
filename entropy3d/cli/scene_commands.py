"""Scene commands: ``validate``, ``info`` and ``schema``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import typer

from entropy3d.cli import system_commands  # noqa: F401  (registers `systems`)
from entropy3d.cli.app import SCENE_GEOMETRY_MODULES, app, clean_errors, import_for_command
from entropy3d.errors import EntropyError


@app.command()
def validate(files: List[Path] = typer.Argument(..., help="scene, rules data or game script YAML files")) -> None:
    """Check scene files and rules data files; each file is reported, and the exit code is 0 when
    all are valid, 1 with every problem (file, line, key path, fix) otherwise.

    A file is rules data by its top-level keys: game rules (rules/entropy_city.yaml) have any of
    speeds, bike_types, bike_rules or turn_templates; line-of-sight rules (rules/los.yaml) any of
    sees_over, top_down or true_los. A game script (``demo --script``) has ``activations`` and no
    ``name``: it is checked against the scene it plays on. Any other file is checked as a scene.
    """
    failed = 0
    for path in files:
        try:
            summary, notes = _validate_one(path)
        except (EntropyError, ValueError) as error:
            failed += 1
            typer.echo(str(error), err=True)
        except OSError as error:
            failed += 1
            typer.echo(f"{path}: cannot read: {error}", err=True)
        except Exception as error:  # a bug of ours: still report every other file of the batch
            failed += 1
            typer.echo(f"{path}: unexpected error (a bug; please report it): {type(error).__name__}: {error}", err=True)
        else:
            typer.echo(f"{path}: ok ({summary})")
            for line in notes:
                typer.echo(f"  warning: {line}", err=True)
    if failed:
        raise typer.Exit(1)


def _validate_one(path: Path) -> tuple[str, list[str]]:
    """Validate one scene or rules data file; a short summary of what it holds and its warnings."""
    import_for_command("entropy3d.scene.rulesfile", "entropy3d.scene.yamlsource")
    from entropy3d.scene.rulesfile import build_from_file, rules_kind
    from entropy3d.scene.yamlsource import read_yaml_with_lines

    read = read_yaml_with_lines(path)
    kind = rules_kind(read[0])
    if kind == "game":
        from entropy3d.systems.entropy_city.ruleset import Ruleset

        ruleset = build_from_file(path, Ruleset.from_mapping, read)
        return f"rules data, {len(ruleset.bike_types)} bike types, {len(ruleset.terrain)} terrain types", []
    if kind == "los":
        from entropy3d.los.losrules import LosRules

        build_from_file(path, LosRules.from_mapping, read)
        return "line-of-sight rules data", []
    if isinstance(read[0], dict) and "activations" in read[0] and "name" not in read[0]:
        from entropy3d.game.script import check_script_file

        return check_script_file(path), []
    if isinstance(read[0], dict) and "game_system" in read[0]:
        from entropy3d.scene.systemrules import load_system_file

        system = load_system_file(path, read)
        return f"rules data of {system.title}, for `system: {system.name}`", []
    import_for_command(*SCENE_GEOMETRY_MODULES)
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(path, read=read)
    build_table_geometry(table)
    notes = [f"line {line}, {where}: {message}" if line else f"{where}: {message}"
             for where, line, message in table.notes]
    return f"{len(table.models)} models", notes


def scene_summary(path: Path) -> dict:
    """Everything ``entropy3d info`` reports about a scene, as plain data (inches, degrees)."""
    import_for_command(*SCENE_GEOMETRY_MODULES)
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.npc_set_up import road_exits
    from entropy3d.scene.table import checkpoint_radius_in

    table = load_scene(path)
    geometry = build_table_geometry(table)
    spec = table.spec
    positions = [m.position[:2] for m in table.models]
    heights = geometry.surface_height(positions) if positions else []
    models = []
    for model, z in zip(table.models, heights):
        base = table.base_of(model)
        position = list(model.position) if len(model.position) == 3 else [*model.position, round(float(z), 3)]
        models.append({
            "id": model.id, "gang": model.gang, "bike": model.bike_type,
            "position_in": [round(float(v), 3) for v in position],
            "facing_deg": float(model.facing), "speed": model.speed,
            "base_in": [round(base.length, 3), round(base.width, 3)],
            "rider": model.rider.model_dump(exclude_none=True),
        })
    kinds: dict[str, int] = {}
    for piece in geometry.pieces:
        kinds[piece.kind] = kinds.get(piece.kind, 0) + 1
    walkable_tops = sorted({round(float(p.top), 2) for p in geometry.pieces
                            if p.kind in ("ground", "block", "platform", "building", "ramp")})
    return {
        "name": spec.name,
        "file": str(path),
        "mission": spec.mission,
        "table_in": [spec.table.width, spec.table.depth],
        "edges": dict(spec.table.edges),
        "pieces": kinds,
        "levels_in": walkable_tops,
        "triangles": {"total": int(sum(len(p.mesh.faces) for p in geometry.pieces)),
                      **{mid: int(len(mesh.faces)) for mid, mesh in table.meshes.items()}},
        "gangs": {gid: gang.name for gid, gang in spec.gangs.items()},
        "models": models,
        **({"package_run": spec.package_run.model_dump()} if spec.package_run is not None else {}),
        **({"vip_takedown": spec.vip_takedown.model_dump()} if spec.vip_takedown is not None else {}),
        **({"grab_n_go": {"items": {i.id: [float(i.at[0]), float(i.at[1])] for i in spec.grab_n_go.items},
                          "exits": dict(spec.grab_n_go.exits)}} if spec.grab_n_go is not None else {}),
        **({"jailbreak": {"jail": spec.jailbreak.jail, "npc": spec.jailbreak.npc,
                          "openings": [[float(x), float(y)] for x, y in spec.jailbreak.openings],
                          "road_exits": [list(e) for e in road_exits(spec)]}} if spec.jailbreak is not None else {}),
        **({"rescue_survive": {n.id: {"gang": n.gang, "at": [float(n.at[0]), float(n.at[1])],
                                      "to": [float(n.to[0]), float(n.to[1])]} for n in spec.rescue_survive.npcs}}
           if spec.rescue_survive is not None else {}),
        **({"corners": {z.id: [float(v) for v in z.rect] for z in spec.corners.zones}}
           if spec.corners is not None else {}),
        **({"hoon_hour": {c.id: [float(c.at[0]), float(c.at[1]), checkpoint_radius_in(c, table.ruleset)]
                          for c in spec.hoon_hour.checkpoints}}
           if spec.hoon_hour is not None else {}),
        **({"law": law_summary(spec, table.ruleset)} if spec.law else {}),
    }


def law_summary(spec, ruleset) -> dict:
    """When and where the scene's Law enters (EC-LAW)."""
    from entropy3d.scene.law_set_up import law_plan

    plan = law_plan(spec, ruleset)
    return {"from_turn": plan.from_turn, "enter": [e.to_json() for e in plan.entries]}


@app.command()
@clean_errors
def info(scene: Path = typer.Argument(..., help="scene YAML file"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Summarise a scene: pieces, levels, bikes, triangle counts."""
    summary = scene_summary(scene)
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(f"{summary['name']}  ({summary['file']}, mission {summary['mission']})")
    width, depth = summary["table_in"]
    edges = ", ".join(f"{k}: {v}" for k, v in summary["edges"].items()) or "all open"
    typer.echo(f"table {width:g}\" x {depth:g}\"  edges: {edges}")
    typer.echo("pieces: " + ", ".join(f"{n} {k}" for k, n in sorted(summary["pieces"].items())))
    typer.echo("levels (inches): " + ", ".join(f"{h:g}" for h in summary["levels_in"]))
    typer.echo(f"triangles: {summary['triangles']['total']}")
    if "package_run" in summary:  # EC-MISSION-PACKAGE: who carries which package, and where to
        setup = summary["package_run"]
        typer.echo(f"packages, for the {setup['to']} edge: "
                   + ", ".join(f"{model} {vp} VP" for model, vp in setup["carriers"].items()))
    if "vip_takedown" in summary:  # EC-MISSION-VIP: each gang's declared VIP
        typer.echo("VIPs: " + ", ".join(f"{gang} {model}" for gang, model in summary["vip_takedown"]["vips"].items()))
    if "grab_n_go" in summary:  # EC-MISSION-GRAB: the packages on the table, each gang's way home
        setup = summary["grab_n_go"]
        typer.echo("packages: " + ", ".join(f"{item} at ({x:g}, {y:g})" for item, (x, y) in setup["items"].items()))
        typer.echo("exits: " + ", ".join(f"{gang} {edge}" for gang, edge in setup["exits"].items()))
    if "jailbreak" in summary:  # EC-MISSION-JAIL: the jail, its door and windows, the road exits
        setup = summary["jailbreak"]
        typer.echo(f"jail: {setup['npc']} locked in {setup['jail']}, door and windows at "
                   + ", ".join(f"({x:g}, {y:g})" for x, y in setup["openings"]))
        typer.echo("road exits: " + ", ".join(f"{edge} {lo:g}-{hi:g}\"" for edge, lo, hi in setup["road_exits"]))
    if "rescue_survive" in summary:  # EC-MISSION-RESCUE: each gang's NPC, from its corner to the other
        typer.echo("NPCs: " + ", ".join(f"{npc} ({n['gang']}) from ({n['at'][0]:g}, {n['at'][1]:g}) to "
                                        f"({n['to'][0]:g}, {n['to'][1]:g})"
                                        for npc, n in summary["rescue_survive"].items()))
    if "corners" in summary:  # EC-MISSION-CORNERS: the zones held
        typer.echo("corners: " + ", ".join(f"{zone} [{', '.join(f'{v:g}' for v in rect)}]"
                                           for zone, rect in summary["corners"].items()))
    if "hoon_hour" in summary:  # EC-MISSION-HOON: the circuit in order
        typer.echo("checkpoints: " + ", ".join(f"{gate} at ({x:g}, {y:g}) r {r:g}"
                                               for gate, (x, y, r) in summary["hoon_hour"].items()))
    if "law" in summary:  # EC-LAW: when and where the police enter
        law = summary["law"]
        typer.echo(f"the Law: enters in turn {law['from_turn']} at one of "
                   + ", ".join(f"({x:g}, {y:g}) facing {f:g}" for x, y, f in law["enter"]))
    typer.echo(f"models ({len(summary['models'])}):")
    for m in summary["models"]:
        x, y, z = m["position_in"]
        typer.echo(f"  {m['id']:<12} {m['rider'].get('name', '-'):<14} {m['gang']:<10} {m['bike']:<11} "
                   f"at ({x:.1f}, {y:.1f}, {z:.2f})\" facing {m['facing_deg']:g}°  speed {m['speed']}")


@app.command()
def schema(output: Path = typer.Option(None, "-o", "--output", help="write to this file")) -> None:
    """Print the JSON Schema of the scene format (for editor autocompletion)."""
    from entropy3d.scene.rulesfile import load_ruleset
    from entropy3d.scene.schema import SceneSpec

    document = SceneSpec.model_json_schema()
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    document["title"] = "entropy3d scene"
    ruleset = load_ruleset()
    _enumerate(document, "terrain", list(ruleset.terrain_names))
    _enumerate(document, "bike", list(ruleset.bike_type_names))
    text = json.dumps(document, indent=2)
    if output is None:
        typer.echo(text)
    else:
        from entropy3d.outputs import write_atomic

        write_atomic(output, text.encode())
        typer.echo(f"wrote {output}")


def _enumerate(node, description_word: str, values: list[str]) -> None:
    """Add ``enum`` to string properties whose description names terrain / bike types."""
    if isinstance(node, dict):
        description = node.get("description", "")
        if node.get("type") == "string" and f"a {description_word}" in description:
            node["enum"] = values
        for value in node.values():
            _enumerate(value, description_word, values)
    elif isinstance(node, list):
        for value in node:
            _enumerate(value, description_word, values)
