"""An activation report a player can read and a program can parse.

JSON layout (every length in table inches, times in seconds, angles in degrees, floats rounded
so that the same scene, plans and seed give byte-identical files)::

    {"scene": ..., "model": ..., "seed": ..., "producer": ..., "units": {...},
     "steps": [{"action": {kind, model, plan, push, unavoidable},
                "facts": {producer, path_length_in, progress_in, completed, trajectory, contacts,
                          scenery, flights, edge, edge_kind, end_pose, end_velocity_in_s} or null,
                "events": [{kind, model, rules, physics, clauses, rolls, piece, t_s, stress_change,
                            figures}],
                "model_after": the model's state after the step}],
     "state": the game state after the activation}

An activation the rules refuse writes what the engine refused instead of its steps
(:func:`refusal_json`)::

    {"scene": ..., "model": ..., "seed": ...,
     "refused": {"action": N (1-based), "plan": ..., "clause": ..., "message": ...}}

Each step is the one path's triple: the checked action, what the producer found, what the rules
decided (:mod:`entropy3d.game.step`).
"""

from __future__ import annotations

import json
from typing import Callable, Sequence

from entropy3d.game.step import Step


def report_json(scene_name: str, model_id: str, seed: int | None, steps: Sequence[Step], ruleset,
                producer: str) -> dict:
    return {
        "scene": scene_name,
        "model": model_id,
        "seed": seed,
        "producer": producer,
        "units": {"length": "table inches", "time": "seconds", "angle": "degrees CCW from +x",
                  "metres_per_inch": ruleset.scale.metres_per_inch,
                  "seconds_per_activation": ruleset.scale.seconds_per_activation},
        "steps": [{"action": step.action.to_json(),
                   "facts": None if step.facts is None else step.facts.to_json(),
                   "events": [e.to_json() for e in step.events],
                   "model_after": step.after.model(model_id).to_json()} for step in steps],
        "state": steps[-1].after.to_json() if steps else None,
    }


def refusal_json(scene_name: str, model_id: str, seed: int | None, refused, plans: Sequence[str]) -> dict:
    """The report of an activation the engine refused (``refused``: its
    :class:`~entropy3d.errors.IllegalPlanError`, with the 1-based ``action`` of ``plans`` it
    refused): the clause it names, for a program to read rather than the printed line."""
    return {"scene": scene_name, "model": model_id, "seed": seed,
            "refused": {"action": refused.action, "plan": plans[refused.action - 1], "clause": refused.clause,
                        "message": refused.message}}


def dumps(report: dict) -> str:
    """Stable JSON text: sorted keys, fixed separators, a trailing newline."""
    return json.dumps(report, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def report_lines(steps: Sequence[Step], name: Callable[[str], str] = str,
                 describe: Callable | None = None) -> list[str]:
    """One line per action and per event ("physics: ... -> rules: ..."), and a closing line per
    ridden move: how far the producer got and where the rules put the model. ``name`` gives the
    name a person reads for a model id; ``describe`` (event -> lines), when given, replaces each
    event's line (the command line passes plain words, :mod:`entropy3d.systems.words`)."""
    lines = []
    for step in steps:
        action = step.action
        if action.plan is not None:
            lines.append(f"{name(action.model_id)} {action.plan}" + (" (forced)" if action.kind == "forced" else ""))
        for event in step.events:
            lines += [f"  {line}" for line in (describe(event) if describe is not None else [event.text])]
        if action.move is None:
            continue
        facts, model = step.facts, step.after.model(action.model_id)
        if not step.ridden:
            lines.append("  did not ride (bust before moving)")
            continue
        air = f", in the air ({model.air.carry_in:.1f}\" to fly)" if model.air else ""
        lines.append(f"  {facts.producer}: {facts.progress_in:.1f}\" of {facts.path_length_in:.1f}\" in "
                     f"{facts.trajectory[-1, 0]:.2f}s -> rules: at ({model.pose.x:.2f}, {model.pose.y:.2f}) level "
                     f"{model.pose.z:.2f}\" facing {model.pose.facing_deg:.0f}°, speed {model.speed}, "
                     f"stress {model.stress}, wounds {model.wounds}{air}"
                     + ("" if model.in_play else f", {model.status}"))
    return lines
