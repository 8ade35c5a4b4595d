"""Corners (rulebook "Mission Types", clause EC-MISSION-CORNERS).

"A fairly common game type but would be harder if you're not allowed to park. Need to give this
more thought, but it could just be x rounds score x rounds score."

The reading played is the rules data's ``missions.corners`` (its DECISION): the scene's zones
(``State.zones``) are scored at the end of every ``score_every`` turns; a zone scores ``hold`` VP
for the gang with the most riders holding it (base centre in the zone, in play, and, unless
``parked_count``, not stopped: "harder if you're not allowed to park"); a tie scores nobody; the
Law holds nothing (EC-LAW). Pure: no dice, no table. Lengths in inches.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.table_marks import Zone

CORNERS = "corners"


def corners_set_up_problems(zones: Sequence[tuple[str, float, float, float, float]], width: float, depth: float
                            ) -> list[tuple[str, str]]:
    """What Corners refuses in a set-up, as (scene key path, message): two zones of one id, a zone
    with no area or off the table. ``zones``: (id, x0, y0, x1, y1) inches; ``width``, ``depth``:
    the table, inches."""
    problems, seen = [], set()
    for k, (zone_id, x0, y0, x1, y1) in enumerate(zones):
        if zone_id in seen:
            problems.append((f"corners.zones[{k}].id", f"a second zone {zone_id!r}: give each its own id"))
        seen.add(zone_id)
        if x1 <= x0 or y1 <= y0:
            problems.append((f"corners.zones[{k}].rect", f"[{x0:g}, {y0:g}, {x1:g}, {y1:g}] has no area: give "
                                                         "[x0, y0, x1, y1] with x1 > x0 and y1 > y0"))
        elif x0 < 0 or y0 < 0 or x1 > width or y1 > depth:
            problems.append((f"corners.zones[{k}].rect", f"[{x0:g}, {y0:g}, {x1:g}, {y1:g}] runs off the "
                                                         f"{width:g}x{depth:g} inch table"))
    return problems


def holds(model: ModelState, zone: Zone, ruleset: Ruleset) -> bool:
    """Whether ``model`` holds ``zone`` now: in play, not the Law, its base centre in the zone and,
    unless parked riders count (``missions.corners.parked_count``), not stopped (EC-MISSION-CORNERS)."""
    if not model.in_play or model.law or not zone.holds(model.pose.x, model.pose.y):
        return False
    parked = model.stopped or (model.speed == 0 and not model.on_foot)
    return bool(ruleset.data("missions.corners.parked_count")) or not parked


def zone_holder(state: State, zone: Zone, ruleset: Ruleset) -> tuple[str | None, dict[str, int]]:
    """The gang holding ``zone`` (the most riders holding it; None on a tie or with none) and each
    gang's count there."""
    counts: dict[str, int] = {}
    for model in state.models.values():
        if holds(model, zone, ruleset):
            counts[model.gang] = counts.get(model.gang, 0) + 1
    if not counts:
        return None, counts
    best = max(counts.values())
    leaders = [g for g, n in counts.items() if n == best]
    return (leaders[0] if len(leaders) == 1 else None), counts


def scoring_turn(turn: int, ruleset: Ruleset) -> bool:
    """Whether the end of ``turn`` scores the corners ("x rounds score", every ``score_every``)."""
    return turn > 0 and turn % int(ruleset.data("missions.corners.score_every")) == 0


def score_corners(state: State, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """Corners at the end of a turn (EC-MISSION-CORNERS): on a scoring turn each zone held scores
    ``hold`` VP to its holder; an event of its first rider there (by id) says each zone held and
    the count in it. The state as it is otherwise."""
    if state.mission != CORNERS or not state.zones or not scoring_turn(state.turn, ruleset):
        return state, []
    points = int(ruleset.data("missions.corners.hold"))
    said = []
    for zone in state.zones:
        holder, counts = zone_holder(state, zone, ruleset)
        if holder is None:
            continue
        count = ", ".join(f"{g} {n}" for g, n in sorted(counts.items()))
        state = state.add_score(holder, points)
        rider = min(m.id for m in state.models.values() if m.gang == holder and holds(m, zone, ruleset))
        said.append(Event("score", rider, f"{holder} holds {zone.id} ({count}): {holder} +{points} VP",
                          clauses=("EC-MISSION-CORNERS",), piece=zone.id,
                          figures={"corner": zone.id, "counts": counts, "gangs": [holder], "points": points}))
    return state, said


def corners_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                        mission_title: str, gang_name: Callable[[str], str]) -> list[tuple[str, str]]:
    """Corners' card: the rule, then per gang its points and the corners it held at the scorings."""
    spec = ruleset.data("missions.corners")
    every = int(spec["score_every"])
    rows = [("", f"{mission_title}: {int(spec['hold']):+d} VP a corner held at the end of "
                 + ("every turn" if every == 1 else f"every {every} turns")),
            ("", "most riders in it; " + ("parked riders count" if spec["parked_count"] else "parked riders hold "
                                          "nothing"))]
    held: dict[str, int] = {}
    for event in events:
        if event.kind == "score" and "corner" in event.figures:
            for gang in event.figures.get("gangs", ()):
                held[gang] = held.get(gang, 0) + 1
    for gang in sorted(set(gang_of.values())):
        if gang not in state.score:
            continue
        score = int(state.score.get(gang, 0))
        count = held.get(gang, 0)
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP"
                     + (f": {count} corner{'s' if count != 1 else ''} held" if count else "")))
    return rows
