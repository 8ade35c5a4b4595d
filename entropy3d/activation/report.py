"""An activation report a player can read and a program can parse.

JSON layout (every length in table inches, times in seconds, angles in degrees, floats rounded
to 4 decimals so that the same scene, plan and seed give byte-identical files)::

    {"scene": ..., "model": ..., "seed": ..., "units": {...},
     "actions": [{"plan": "s3: straight 16",
                  "physics": {outcome, path_length_in, progress_in, travelled_in, duration_s,
                              air_time_s, max_height_in, landing_level_in, left_table, steps,
                              contacts: [...], flights: [...], scenery: [...], end_pose,
                              trajectory: {"columns": [...], "rows": [[...], ...]}},
                  "rules": {status, distance_in, path_in, end_pose, stress_before, stress_after,
                            speed_after, wounds_after, skip_next_activation, air_time,
                            scenery (destructibles the rules moved: dx, dy inches),
                            events: [{kind, t_s, piece, physics, rules, text, clauses, rolls,
                                      stress_added, figures}], clauses: [...]}}],
     "state": the game state after the activation}
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Sequence

import numpy as np

from entropy3d.activation.activate import ActionResult
from entropy3d.activation.snap import RuleEvent
from entropy3d.activation.state import pose_json
from entropy3d.physics.facts import RideFacts
from entropy3d.rules.dice import TestRoll

TRAJECTORY_COLUMNS = ["t_s", "x_in", "y_in", "z_in", "heading_deg"]


def _r(value: float) -> float:
    return round(float(value), 4)


def roll_json(roll: TestRoll) -> dict:
    return {"dice": list(roll.dice), "stress": roll.stress, "tn": roll.tn, "effective_tn": roll.effective_tn,
            "total": roll.total, "outcome": roll.outcome.value, "stress_change": roll.stress_change}


def event_json(event: RuleEvent) -> dict:
    return {"kind": event.kind, "t_s": _r(event.t_s), "piece": event.piece, "physics": event.physics,
            "rules": event.rules, "text": event.text, "clauses": list(event.clauses),
            "rolls": [roll_json(r) for r in event.rolls], "stress_added": event.stress_added,
            "figures": _plain(event.figures)}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return _r(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def physics_json(facts: RideFacts) -> dict:
    landed = [f for f in facts.flights if f.land_z is not None]
    return {
        "outcome": facts.outcome,
        "path_length_in": _r(facts.path_length_in),
        "progress_in": _r(facts.progress_in),
        "travelled_in": _r(facts.travelled_in),
        "duration_s": _r(facts.duration_s),
        "air_time_s": _r(facts.air_time_s),
        "airborne_at_end": facts.airborne_at_end,
        "max_height_in": _r(facts.max_z),
        "landing_level_in": _r(landed[-1].land_z) if landed else None,
        "left_table": facts.left_table,
        "steps": facts.steps,
        "contacts": [_plain(dataclasses.asdict(c)) for c in facts.contacts],
        "flights": [_plain(dataclasses.asdict(f)) for f in facts.flights],
        "scenery": [_plain(dataclasses.asdict(m)) for m in facts.scenery],
        "end_pose": pose_json(facts.end_pose),
        "end_velocity_in_s": [_r(v) for v in facts.end_velocity_in_s],
        "trajectory": {"columns": TRAJECTORY_COLUMNS,
                       "rows": [[_r(v) for v in row] for row in facts.trajectory]},
    }


def action_json(result: ActionResult) -> dict:
    before = result.before.bike(result.model_id)
    after = result.after.bike(result.model_id)
    events = list(result.plan_events) + (list(result.snapped.events) if result.snapped else [])
    clauses = sorted({c for c in result.move.clauses} | {c for e in events for c in e.clauses})
    rules = {
        "status": result.snapped.status if result.snapped else ("out" if after.out_of_game else "bust"),
        "distance_in": result.snapped.distance_in if result.snapped else 0,
        "planned_length_in": _r(result.move.length_in),
        "path_in": [[_r(x), _r(y)] for x, y in result.move.path],
        "end_pose": pose_json(after.pose),
        "speed_after": after.speed,
        "stress_before": before.stress,
        "plan_stress": result.move.stress,
        "stress_after": after.stress,
        "wounds_after": after.wounds,
        "out_of_game": after.out_of_game,
        "skip_next_activation": after.skip_next_activation,
        "air_time": (None if result.snapped is None or result.snapped.air is None else
                     {"speed": result.snapped.air.speed, "carry_in": _r(result.snapped.air.carry_in)}),
        "scenery": ({} if result.snapped is None else
                    {k: _plain(dataclasses.asdict(v)) for k, v in sorted(result.snapped.scenery.items())}),
        "events": [event_json(e) for e in events],
        "clauses": clauses,
    }
    return {"plan": str(result.move.plan),
            "physics": physics_json(result.facts) if result.facts is not None else None,
            "rules": rules}


def report_json(scene_name: str, model_id: str, seed: int | None, results: Sequence[ActionResult],
                ruleset) -> dict:
    return {
        "scene": scene_name,
        "model": model_id,
        "seed": seed,
        "units": {"length": "table inches", "time": "seconds", "angle": "degrees CCW from +x",
                  "metres_per_inch": ruleset.scale.metres_per_inch,
                  "seconds_per_activation": ruleset.scale.seconds_per_activation},
        "actions": [action_json(r) for r in results],
        "state": results[-1].after.to_json() if results else None,
    }


def dumps(report: dict) -> str:
    """Stable JSON text: sorted keys, fixed separators, a trailing newline."""
    return json.dumps(report, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def report_lines(results: Sequence[ActionResult]) -> list[str]:
    """One line per event, 'physics: ... -> rules: ...', and a closing line per action."""
    lines = []
    for result in results:
        lines.append(f"{result.model_id} {result.move.plan}")
        for event in result.plan_events:
            lines.append(f"  {event.text}")
        if result.snapped is None:
            lines.append("  did not ride (bust before moving)")
            continue
        facts, snapped = result.facts, result.snapped
        for event in snapped.events:
            lines.append(f"  {event.text}")
        bike = snapped.bike
        lines.append(f"  physics: {facts.outcome}, {facts.progress_in:.1f}\" of {facts.path_length_in:.1f}\" in "
                     f"{facts.duration_s:.2f}s, air {facts.air_time_s:.2f}s -> rules: {snapped.status}, "
                     f"{snapped.distance_in}\" ridden, at ({bike.pose.x:.2f}, {bike.pose.y:.2f}) level "
                     f"{bike.pose.z:.2f}\" facing {bike.pose.facing_deg:.0f}°, speed {bike.speed}, "
                     f"stress {bike.stress}, wounds {bike.wounds}")
    return lines
