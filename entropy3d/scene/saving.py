"""A table as it stands, written back as a scene file: the viewer's saved tries (issue 47).

The scene the table was loaded from is read again as plain data and only its models change: each
model still in play stands where the game or a try put it (``[x, y, z]``, inches, and its facing in
degrees), at its speed, with its stress, conditions, shots and traps carried as they are; a model
out of the game is left out. Everything else (pieces, gangs, rules, cameras) is written as the
scene had it, so `entropy3d validate` reads the file as it reads the scene. Not kept, because a
scene has no place for them: wounds taken, traps laid on the table, wrecks, and destructibles
moved or smashed (they stand where the scene put them). Comments of the scene are not kept (the
file says where it came from instead).
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

import yaml

from entropy3d.geometry import Pose

#: decimals of a saved position (inches) and facing (degrees): a thousandth of an inch
DECIMALS = 3


def scene_as_it_stands(table, state, poses: Mapping[str, Pose], saved_to: Path) -> str:
    """The YAML text of ``table``'s scene with its models as ``state`` has them, standing at
    ``poses`` (every model in play; a try overrides the state's pose), to be written at
    ``saved_to``: a mesh or rules path the scene gives relative to its own folder is written
    absolute when ``saved_to`` is in another folder, so the file loads from where it is."""
    data = yaml.safe_load(table.source.read_text(encoding="utf-8"))
    elsewhere = Path(saved_to).resolve().parent != table.source.resolve().parent
    models = []
    for entry in data.get("models", []):
        model_id = entry["id"]
        if model_id not in poses or not state.model(model_id).in_play:
            continue
        model, pose = state.model(model_id), poses[model_id]
        entry = dict(entry)
        entry["position"] = [round(pose.x, DECIMALS), round(pose.y, DECIMALS), round(pose.z, DECIMALS)]
        entry["facing"] = round(pose.facing_deg % 360.0, DECIMALS)
        if not entry.get("on_foot"):
            entry["speed"] = int(model.speed)
        rider = dict(entry.get("rider") or {})
        if model.stress or "stress" in rider:
            rider["stress"] = int(model.stress)
        if model.conditions or "conditions" in rider:
            rider["conditions"] = list(model.conditions)
        if model.gun is not None:
            rider["ammo"] = int(model.ammo)  # shots spent stay spent
        if model.traps_carried or "traps" in rider:
            rider["traps"] = list(model.traps_carried)  # a trap laid is no longer carried
        if rider:
            entry["rider"] = rider
        models.append(entry)
    data["models"] = models
    if elsewhere:
        for mesh in data.get("meshes", []) or []:
            mesh["file"] = _absolute(table.source, mesh["file"])
        rules = data.get("rules")
        if isinstance(rules, str) and Path(rules).suffix in (".yaml", ".yml"):  # a path, not a bundled name
            data["rules"] = _absolute(table.source, rules)
    header = (f"# {table.source.name} as it stood in `entropy3d view` (turn {state.turn}): "
              "its models where they stood, at their speed, stress, conditions, shots and traps (not kept: wounds "
              "taken, traps laid, wrecks, scenery moved)\n")
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def _absolute(scene: Path, file: str) -> str:
    """``file`` absolute when the scene finds it beside itself; as written otherwise (an absolute
    path, or a bundled model found by its name from anywhere)."""
    if Path(file).expanduser().is_absolute():
        return file
    beside = (scene.parent / file).resolve()
    return str(beside) if beside.exists() else file


def free_path(folder: Path, stem: str) -> Path:
    """``folder/STEM-tried.yaml``, or ``-tried-2``, ``-tried-3``... : the first not there yet."""
    path, k = folder / f"{stem}-tried.yaml", 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-tried-{k}.yaml"
    return path
