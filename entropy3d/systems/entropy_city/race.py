"""Hoon Hour (rulebook "Mission Types", clause EC-MISSION-HOON).

"Players design a race circuit and play through the race. Police will DEFINITELY interfere here
appearing in one of 3 locations."

The reading played is the rules data's ``missions.hoon_hour`` (its DECISION): the scene's
checkpoints (``State.checkpoints``) are the circuit, in order; a ride passes the rider's next
checkpoint when its base comes within the checkpoint's radius (``State.progress`` counts those
passed, lap after lap); each passed scores ``checkpoint`` VP to its gang; the first rider to pass
the last checkpoint of lap ``laps`` wins the race: ``finish`` VP, and the game is over. The Law
(EC-LAW) enters at one of the scene's entry points. Pure: no dice, no table. Lengths in inches.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.table_marks import Checkpoint

HOON_HOUR = "hoon_hour"


def race_set_up_problems(checkpoints: Sequence[tuple[str, float, float]], width: float, depth: float
                         ) -> list[tuple[str, str]]:
    """What Hoon Hour refuses in a circuit, as (scene key path, message): two checkpoints of one id,
    a checkpoint off the table. ``checkpoints``: (id, x, y) inches in order."""
    problems, seen = [], set()
    for k, (gate_id, x, y) in enumerate(checkpoints):
        if gate_id in seen:
            problems.append((f"hoon_hour.checkpoints[{k}].id", f"a second checkpoint {gate_id!r}: give each its own "
                                                               "id"))
        seen.add(gate_id)
        if not (0 <= x <= width and 0 <= y <= depth):
            problems.append((f"hoon_hour.checkpoints[{k}].at", f"({x:g}, {y:g}) is off the {width:g}x{depth:g} inch "
                                                               "table"))
    return problems


def circuit_length(state: State, ruleset: Ruleset) -> int:
    """Checkpoints a rider passes to finish: the circuit's times ``laps``."""
    return len(state.checkpoints) * int(ruleset.data("missions.hoon_hour.laps"))


def next_checkpoint(state: State, model_id: str) -> Checkpoint | None:
    """The checkpoint ``model_id`` rides for next (None with no circuit)."""
    if not state.checkpoints:
        return None
    return state.checkpoints[state.progress.get(model_id, 0) % len(state.checkpoints)]


def finished(state: State, ruleset: Ruleset) -> str | None:
    """The rider that finished the race (None while none has)."""
    need = circuit_length(state, ruleset)
    return next((m for m, n in state.progress.items() if need and n >= need), None)


def pass_checkpoints(state: State, model_id: str, facts, events: Sequence[Event], ruleset: Ruleset
                     ) -> tuple[State, list[Event]]:
    """Hoon Hour after ``model_id``'s ride (EC-MISSION-HOON): walking its trajectory (the producer's
    rows, t, x, y, ...), each time the base (its half width round the centre) comes within the
    next checkpoint's radius, it passes it: ``checkpoint`` VP, and the last of the last lap
    finishes the race: ``finish`` VP. The state as it is with no race, no ride, or once the race is
    won."""
    trajectory = None if facts is None else getattr(facts, "trajectory", None)
    if state.mission != HOON_HOUR or not state.checkpoints or trajectory is None or len(trajectory) == 0 \
            or finished(state, ruleset) is not None:
        return state, []
    model = state.model(model_id)
    if model.law or model.on_foot:
        return state, []
    spec = ruleset.data("missions.hoon_hour")
    reach = 0.5 * ruleset.base_for(model.bike_type).width
    need = circuit_length(state, ruleset)
    said: list[Event] = []
    passed = state.progress.get(model_id, 0)
    for row in np.asarray(trajectory, dtype=float):
        gate = state.checkpoints[passed % len(state.checkpoints)]
        if float(np.hypot(row[1] - gate.x, row[2] - gate.y)) > gate.radius_in + reach:
            continue
        passed += 1
        lap = (passed - 1) // len(state.checkpoints) + 1
        points = int(spec["checkpoint"])
        done = passed >= need
        points += int(spec["finish"]) if done else 0
        state = state.add_score(model.gang, points) if points else state
        text = (f"{model_id} passes {gate.id} (lap {lap}, {passed} of {need})"
                + (f" and wins the race: {model.gang} +{points} VP" if done else
                   f": {model.gang} +{points} VP" if points else ""))
        said.append(Event("score", model_id, text, clauses=("EC-MISSION-HOON",), piece=gate.id, t_s=float(row[0]),
                          figures={"checkpoint": gate.id, "passed": passed, "need": need, "finished": done,
                                   "gangs": [model.gang] if points else [], "points": points}))
        if done:
            break
    if said:
        state = _with_progress(state, model_id, passed)
    return state, said


def _with_progress(state: State, model_id: str, passed: int) -> State:
    import dataclasses

    return dataclasses.replace(state, progress={**state.progress, model_id: passed})


def race_game_over(state: State, ruleset: Ruleset) -> str:
    """Why Hoon Hour is over now: a rider finished the race ("" while none has)."""
    winner = finished(state, ruleset)
    return f"{winner} won the race" if winner is not None else ""


def race_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                     mission_title: str, gang_name: Callable[[str], str], rider_name: Callable[[str], str] = str
                     ) -> list[tuple[str, str]]:
    """Hoon Hour's card: the rule, then per gang its points and its rider furthest round."""
    spec = ruleset.data("missions.hoon_hour")
    need = circuit_length(state, ruleset)
    rows = [("", f"{mission_title}: {len(state.checkpoints)} checkpoints x {int(spec['laps'])} lap"
                 f"{'s' if int(spec['laps']) != 1 else ''}; {int(spec['checkpoint']):+d} VP each, "
                 f"{int(spec['finish']):+d} VP to finish first")]
    for gang in sorted(set(gang_of.values())):
        if gang not in state.score:
            continue
        riders = [m for m in gang_of if gang_of[m] == gang]
        best = max(riders, key=lambda m: (state.progress.get(m, 0), -riders.index(m)), default=None)
        score = int(state.score.get(gang, 0))
        far = state.progress.get(best, 0) if best is not None else 0
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP" + (f": {rider_name(best)} {far} of {need}"
                                                                   if far else "")))
    return rows
