"""Move planning: a bike's pose and a :class:`~entropy3d.systems.entropy_city.plan.Plan` -> the intended path.

:func:`plan_move` only *checks and describes* an action: the dense path in table inches with
headings, the distance counted toward the move, the instant stress and the tests the move
costs. It rolls no dice and changes no state; it refuses an illegal plan with
:class:`~entropy3d.errors.IllegalPlanError` naming the clause. The table is asked about terrain,
curbs and buildings through the small :class:`TableProbe` protocol (tests fake it).

Template decision (EC-TMPL-1, data ``turn_templates``): the 3/5/7 inches of a template are its
arc length, so a full 90-degree template counts 3/5/7 inches toward the move, and a turn may stop
at any whole-inch mark along it.

Other decisions: a weave is a sideways shift that does not count toward the move's distance and
must sit next to a straight segment; a stoppie's pivot swings the base centre about the front of
the base and does not count either; a turn stopped part-way along a template still costs the
template's full stress and test; gung-ho's "double full movement" is exactly twice the band's max.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, arc_points, densify, normalize_deg
from entropy3d.systems.entropy_city.plan import STOPS, Pivot, Plan, Straight, Turn, Weave, parse_plan
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import DistanceBand, check_speed_change, distance_band


class TableProbe(Protocol):
    """What the planner asks the table (implemented by the scene/physics layers; faked in tests)."""

    def terrain_along(self, path: np.ndarray) -> Sequence[str]:
        """Names of the terrain types a base following ``path`` (N, 2 inches) touches."""

    def curb_crossings(self, path: np.ndarray) -> Sequence[tuple[float, str, float]]:
        """For every curb the path crosses, in order: the angle in degrees (0-90) between path and
        curb, the curb's piece id and the inches along the path."""

    def building_entered(self, path: np.ndarray, level: float = 0.0) -> tuple[str, float] | None:
        """The first building the path, ridden from ``level`` (inches), runs into below its roof
        (its id, inches along the path), or None."""


@dataclass(frozen=True)
class RequiredTest:
    """A test a move costs, rolled by whoever applies it.

    tn: target number. stress_on_fail: stress added when it fails. clause: the rule that asks
    for it. reason: a short human description.
    """

    tn: int
    stress_on_fail: int
    clause: str
    reason: str

    def __repr__(self) -> str:
        return (f"RequiredTest(TN {self.tn}, +{self.stress_on_fail} stress on fail, "
                f"{self.clause}: {self.reason})")


@dataclass(frozen=True, eq=False)
class PlannedMove:
    """The checked, described result of one plan (never applied).

    plan: the plan. speed: the speed of the action. start_pose / end_pose: base centre poses.
    path: (N, 2) base-centre points in table inches, at most ``spacing`` apart, start included.
    headings_deg: (N,) heading at each path point, degrees CCW from +x (not folded).
    length_in: distance counted toward the move (straights and arcs; weaves and pivots excluded).
    band: the allowed distance band. stress: instant stress change (negative for focus).
    tests: the tests the move costs. clauses: every clause applied.
    attacks_allowed: melee attacks the action allows. stopped: the bike ends stopped.
    skips_next_activation: a complex action. next_action_speed: a forced speed for the next
    action (stoppie: 1), or None. airborne: a jump action at air-time speed.
    sand_free_used: a trailbike used its one free sand stress of the activation.
    """

    plan: Plan
    speed: int
    start_pose: Pose
    end_pose: Pose
    path: np.ndarray = field(repr=False)
    headings_deg: np.ndarray = field(repr=False)
    length_in: float
    band: DistanceBand
    stress: int
    tests: tuple[RequiredTest, ...]
    clauses: tuple[str, ...]
    attacks_allowed: int = 1
    stopped: bool = False
    skips_next_activation: bool = False
    next_action_speed: int | None = None
    airborne: bool = False
    sand_free_used: bool = False

    def __repr__(self) -> str:
        return (f"PlannedMove({str(self.plan)!r}: {self.length_in:g}\" -> {self.end_pose!r}, "
                f"stress {self.stress:+d}, tests={list(self.tests)})")


_ATTACKS = {"focus": 0, "chicane": 0, "stop": 0, "overwatch": 0, "reload": 0, "laytrap": 0, "stunt": 0}
_TURN_LIMIT_CLAUSE = {"chicane": "EC-ACT-CHICANE", "gungho": "EC-ACT-GUNGHO", "focus": "EC-ACT-FOCUS"}


def template_radius(template: str, ruleset: Ruleset) -> float:
    """Radius in inches of a template whose arc length (data) spans its angle (EC-TMPL-1)."""
    spec = ruleset.data(f"turn_templates.{template}")
    return float(spec["arc_length_in"]) / math.radians(float(spec["angle_deg"]))


def plan_move(plan: Plan | str, pose: Pose, bike_type: str, speed_before: int, ruleset: Ruleset, *,
              table: TableProbe | None = None, action_index: int = 0,
              first_action_of_game: bool = False, sand_free_available: bool = True,
              move_change_in: float = 0.0) -> PlannedMove:
    """Check ``plan`` for a ``bike_type`` at ``pose`` riding at ``speed_before`` and describe it.

    action_index: 0 for the first action of the activation, 1 for the second.
    first_action_of_game: forces speed 1 (EC-TURN-4).
    sand_free_available: a trailbike has not yet resisted its first sand stress this activation.
    move_change_in: inches a ruling of the rulebook played beside this one adds to the speed's
    maximum (``ModelState.move_change_in``; never below its minimum).
    Raises IllegalPlanError (with the clause) for any refused plan.
    """
    if isinstance(plan, str):
        plan = parse_plan(plan)
    if plan.driven:
        raise IllegalPlanError("EC-MOVE-1", "a 'drive:' plan moves a vehicle of the chase rules (`entropy3d act`); "
                               "a bike's plan names its speed: 's2: straight 6'")
    clauses: list[str] = []
    tests: list[RequiredTest] = []
    action, speed, segs = plan.action, plan.speed, plan.segments

    change = check_speed_change(bike_type, speed_before, speed, ruleset,
                                first_action_of_game=first_action_of_game)
    stress = change.stress
    clauses += change.clauses
    if speed < 1:
        raise IllegalPlanError("EC-MOVE-1", "a moving action needs speed 1 or more")

    stress += _check_action(plan, bike_type, speed, speed_before, action_index, ruleset, clauses)
    turns = [s for s in segs if isinstance(s, Turn)]
    stress += _check_structure(plan, turns, ruleset, clauses)

    path, headings, length, turn_paths = _trace(plan, pose, bike_type, ruleset)
    terrain = set(table.terrain_along(path)) if table is not None else set()
    band = distance_band(bike_type, speed, ruleset, terrain)
    if move_change_in:
        band = dataclasses.replace(band, max=max(band.min, band.max + move_change_in))
    clauses += [c for c in band.clauses if c not in clauses]

    for turn, arc in zip(turns, turn_paths, strict=True):
        arc_terrain = set(table.terrain_along(arc)) if table is not None else set()
        extra, turn_tests = _turn_cost(turn, bike_type, speed, arc_terrain, ruleset, clauses)
        stress += extra
        tests += turn_tests

    sand_used = False
    if table is not None:
        stress_sand, sand_used = _table_checks(table, path, pose.z, terrain, bike_type, sand_free_available,
                                               ruleset, clauses)
        stress += stress_sand

    _check_distance(action, length, band, ruleset, clauses)
    if action == "stunt":
        tests.append(RequiredTest(int(ruleset.data("actions.stunt.tn")), 0, "EC-ACT-STUNT", "stunt"))
    if action == "focus":
        spec = ruleset.data("actions.focus")
        relief = spec["stress_relief_if_speed_changed"] if speed != speed_before else spec["stress_relief"]
        stress -= int(relief)

    end = Pose(float(path[-1, 0]), float(path[-1, 1]), normalize_deg(float(headings[-1])), pose.z)
    stoppie = ruleset.data("actions.stoppie")
    return PlannedMove(
        plan=plan, speed=speed, start_pose=pose, end_pose=end, path=path, headings_deg=headings,
        length_in=length, band=band, stress=stress, tests=tuple(tests), clauses=tuple(clauses),
        attacks_allowed=int(ruleset.data("actions.gungho.max_attacks")) if action == "gungho"
        else _ATTACKS.get(action, 1),
        stopped=action in STOPS + ("laytrap",),
        skips_next_activation=action in STOPS + ("laytrap",),
        next_action_speed=int(stoppie["next_action_speed"]) if action == "stoppie" else None,
        airborne=action == "jump", sand_free_used=sand_used)


def plan_forced_move(plan: Plan | str, pose: Pose, bike_type: str, speed: int, ruleset: Ruleset) -> PlannedMove:
    """Describe a move the rules force on a bike (the opponent's 2" turn after a failed destructible
    test, EC-DEST-3): its path only. It is no action of the rider's, so it costs no stress, needs no
    test and is not held to the speed's distances or the table's curbs."""
    if isinstance(plan, str):
        plan = parse_plan(plan)
    path, headings, length, _ = _trace(plan, pose, bike_type, ruleset)
    end = Pose(float(path[-1, 0]), float(path[-1, 1]), normalize_deg(float(headings[-1])), pose.z)
    return PlannedMove(plan=plan, speed=speed, start_pose=pose, end_pose=end, path=path, headings_deg=headings,
                       length_in=length, band=distance_band(bike_type, speed, ruleset), stress=0, tests=(),
                       clauses=("EC-DEST-3",), attacks_allowed=0)


def _check_action(plan: Plan, bike_type: str, speed: int, speed_before: int, action_index: int,
                  ruleset: Ruleset, clauses: list[str]) -> int:
    """Action-specific legality; returns the action's own instant stress."""
    action = plan.action
    pivots = [s for s in plan.segments if isinstance(s, Pivot)]
    if pivots and action != "stoppie":
        raise IllegalPlanError("EC-ACT-STOPPIE", "only a stoppie may pivot")
    if action == "stoppie":
        spec = ruleset.data("actions.stoppie")
        clauses.append("EC-ACT-STOPPIE")
        if bike_type not in spec["bike_types"]:
            raise IllegalPlanError("EC-ACT-STOPPIE", f"a {bike_type} cannot do a stoppie "
                                   f"(only {', '.join(spec['bike_types'])})")
        if speed not in spec["speeds"]:
            raise IllegalPlanError("EC-ACT-STOPPIE", f"a stoppie needs speed 1 or 2, not {speed}")
        if len(pivots) != 1:
            raise IllegalPlanError("EC-ACT-STOPPIE", "a stoppie has exactly one pivot")
        if not spec["pivot_min_deg"] <= pivots[0].degrees <= spec["pivot_max_deg"]:
            raise IllegalPlanError("EC-ACT-STOPPIE", f"a stoppie pivots {spec['pivot_min_deg']}-"
                                   f"{spec['pivot_max_deg']} degrees, not {pivots[0].degrees:g}")
        return int(spec["stress_per_speed"]) * speed
    if action in STOPS + ("laytrap",):
        allowed = ruleset.data(f"actions.{'laytrap' if action == 'laytrap' else 'stop'}.speeds")
        clause = "EC-ACT-LAYTRAP" if action == "laytrap" else "EC-ACT-STOP"
        clauses += [clause] + (["EC-GUN-STOPPED"] if action in ("overwatch", "reload") else [])
        if speed not in allowed:
            raise IllegalPlanError(clause, f"{action} needs speed {' or '.join(map(str, allowed))}, "
                                   f"not {speed}")
    if action == "gungho":
        clauses.append("EC-ACT-GUNGHO")
        if action_index != 0:
            raise IllegalPlanError("EC-ACT-GUNGHO", "gung-ho may only be chosen at the start of "
                                   "the activation")
    if action == "jump":
        clauses.append("EC-JUMP-1")
        if speed not in ruleset.data("jump.air_time_speeds"):
            raise IllegalPlanError("EC-JUMP-1", f"a jump needs speed 2 or 3 for air time, not {speed}")
    if action == "focus":
        clauses.append("EC-ACT-FOCUS")
    if action == "stunt":
        clauses.append("EC-ACT-STUNT")
        return int(ruleset.data("actions.stunt.stress"))
    if action == "chicane":
        clauses.append("EC-ACT-CHICANE")
    return 0


def _check_structure(plan: Plan, turns: list[Turn], ruleset: Ruleset, clauses: list[str]) -> int:
    """Templates, their positions and weaves (EC-TMPL-3, EC-MOVE-2, EC-WEAVE-1, chicane,
    gung-ho, focus); returns the stress of weaving and extra chicane templates."""
    action = plan.action
    stress = 0
    limit = {"chicane": int(ruleset.data("actions.chicane.max_templates")),
             "gungho": int(ruleset.data("actions.gungho.max_templates")),
             "focus": 0}.get(action, int(ruleset.data("turn_templates.per_standard_action")))
    if len(turns) > limit:
        clause = _TURN_LIMIT_CLAUSE.get(action, "EC-TMPL-3")
        raise IllegalPlanError(clause, f"{action} allows {limit} template(s), the plan has {len(turns)}")
    if turns:
        clauses.append("EC-TMPL-3")
    if action == "chicane" and len(turns) > 1:
        stress += (len(turns) - 1) * int(ruleset.data("actions.chicane.stress_per_extra_template"))
    if action not in ("chicane", "gungho") and turns:
        moving = [s for s in plan.segments if isinstance(s, (Straight, Turn))]
        if moving[0] is not turns[0] and moving[-1] is not turns[0]:
            raise IllegalPlanError("EC-MOVE-2", "a turn may only be at the start or the end of a move")
        clauses.append("EC-MOVE-2")
    weaves = [(k, s) for k, s in enumerate(plan.segments) if isinstance(s, Weave)]
    if weaves:
        spec = ruleset.data("weave")
        if action == "chicane":
            raise IllegalPlanError("EC-ACT-CHICANE", "no weaving during a chicane")
        if len(weaves) > int(spec["per_action"]):
            raise IllegalPlanError("EC-WEAVE-1", "a bike may weave only once per action")
        k, weave = weaves[0]
        neighbours = plan.segments[max(0, k - 1):k] + plan.segments[k + 1:k + 2]
        if not any(isinstance(s, Straight) for s in neighbours):
            raise IllegalPlanError("EC-WEAVE-1", "a weave must be part of straight movement")
        extra = max(0.0, weave.inches - float(spec["free_in"]))
        stress += int(spec["stress_per_extra_in"]) * math.ceil(extra - 1e-9)
        clauses.append("EC-WEAVE-1")
    return stress


def _turn_cost(turn: Turn, bike_type: str, speed: int, terrain: set[str], ruleset: Ruleset,
               clauses: list[str]) -> tuple[int, list[RequiredTest]]:
    """Stress and tests of one template (EC-TMPL-2, EC-BIKE-QUAD/SPORT, EC-TER-GRASS/RUINS)."""
    bike_rules = ruleset.bike_rules(bike_type)
    if bike_rules.turn_speeds is not None and speed not in bike_rules.turn_speeds:
        raise IllegalPlanError("EC-BIKE-QUAD", f"a {bike_type} cannot turn at speed {speed}")
    cost = ruleset.data(f"turn_templates.stress.{speed}.{turn.template}")
    instant, on_fail = int(cost["instant"]), cost["on_fail"]
    clauses.append("EC-TMPL-2")
    full = float(ruleset.data(f"turn_templates.{turn.template}.arc_length_in"))
    if turn.inches > full:
        extra = turn.inches - full
        if speed not in bike_rules.extra_turn_speeds:
            raise IllegalPlanError("EC-TMPL-1", f"the {turn.template} template is {full:g}\" long; "
                                   f"{turn.inches:g}\" is past its end")
        instant += max(bike_rules.extra_turn_min_stress, math.ceil(extra - bike_rules.extra_turn_free_in))
        clauses.append("EC-BIKE-SPORT")
    clauses.append("EC-TMPL-1")
    minimum = bike_rules.min_turn_stress_at_speed.get(speed)
    if minimum is not None:
        instant = max(instant, int(minimum))
        clauses.append("EC-BIKE-QUAD")
    if "grass" in terrain:
        grass = ruleset.terrain_effect("grass")
        instant += grass.turn_stress_mod
        on_fail = None if on_fail is None else on_fail + grass.turn_stress_mod
        clauses.append("EC-TER-GRASS")
    ruins = ruleset.terrain_effect("ruins")
    if "ruins" in terrain and bike_type not in ruins.exempt:
        instant = max(instant, ruins.min_turn_stress)
        clauses.append("EC-TER-RUINS")
    tests = []
    if on_fail is not None:
        tests.append(RequiredTest(int(ruleset.data("turn_templates.test_tn")), int(on_fail), "EC-TMPL-2",
                                  f"{turn.template} template at speed {speed}"))
    return instant, tests


def _table_checks(table: TableProbe, path: np.ndarray, level: float, terrain: set[str], bike_type: str,
                  sand_free_available: bool, ruleset: Ruleset, clauses: list[str]) -> tuple[int, bool]:
    """Buildings (ridden into from ``level``, the start's, inches), curbs, dangerous terrain and
    sand; returns (sand stress, free sand used)."""
    entered = table.building_entered(path, level)
    if entered is not None:
        raise IllegalPlanError("EC-TER-BUILDING", f"a bike cannot enter a building: the path enters "
                               f"'{entered[0]}' {entered[1]:.1f}\" along it")
    min_curb = float(ruleset.data("curb.min_crossing_deg"))
    for angle, block, at_in in table.curb_crossings(path):
        if not curb_crossing_allowed(angle, ruleset):
            raise IllegalPlanError("EC-TER-CURB", f"the curb of '{block}' is crossed at {angle:.0f} degrees "
                                   f"{at_in:.1f}\" along the path; it needs {min_curb:g} or more")
        if "EC-TER-CURB" not in clauses:
            clauses.append("EC-TER-CURB")
    if not ruleset.bike_rules(bike_type).may_cross_dangerous:
        dangerous = sorted(t for t in terrain if t in ruleset.terrain and ruleset.terrain[t].dangerous)
        if dangerous:
            raise IllegalPlanError("EC-BIKE-SCOOTER", f"a {bike_type} may not cross dangerous terrain "
                                   f"({', '.join(dangerous)})")
    if "sand" in terrain:
        clauses.append("EC-TER-SAND")
        return sand_stress(bike_type, sand_free_available, ruleset)
    return 0, False


def sand_stress(bike_type: str, free_available: bool, ruleset: Ruleset) -> tuple[int, bool]:
    """Stress of one action touching sand (EC-TER-SAND): +1, except a trailbike's first of the
    activation. Returns (stress, whether the free one was used)."""
    sand = ruleset.terrain_effect("sand")
    if bike_type in sand.first_free_per_activation and free_available:
        return 0, True
    return sand.stress_per_action, False


def curb_crossing_allowed(angle_deg: float, ruleset: Ruleset) -> bool:
    """A curb may only be crossed at 45 degrees or more (EC-TER-CURB); angle between path and
    curb line, folded into 0-90."""
    folded = abs(angle_deg) % 180.0
    folded = min(folded, 180.0 - folded)
    return folded >= float(ruleset.data("curb.min_crossing_deg")) - 1e-9


def _check_distance(action: str, length: float, band: DistanceBand, ruleset: Ruleset,
                    clauses: list[str]) -> None:
    eps = 1e-6
    if action == "gungho":
        need = band.max * float(ruleset.data("actions.gungho.distance_multiplier"))
        if abs(length - need) > eps:
            raise IllegalPlanError("EC-ACT-GUNGHO", f"gung-ho moves double full movement, {need:g}\", "
                                   f"not {length:g}\"")
        return
    if action == "focus" and abs(length - band.max) > eps:
        raise IllegalPlanError("EC-ACT-FOCUS", f"focus moves its full movement, {band.max:g}\", "
                               f"not {length:g}\"")
    if action in STOPS + ("laytrap",) and abs(length - band.min) > eps:
        clause = "EC-ACT-LAYTRAP" if action == "laytrap" else "EC-ACT-STOP"
        raise IllegalPlanError(clause, f"{action} travels the minimum distance, {band.min:g}\", "
                               f"not {length:g}\"")
    if length < band.min - eps:
        raise IllegalPlanError("EC-MOVE-1", f"too short: {length:g}\" is under the minimum "
                               f"{band.min:g}\"")
    if length > band.max + eps:
        raise IllegalPlanError("EC-SPD-2", f"too long: {length:g}\" is over the maximum {band.max:g}\"")
    clauses.append("EC-MOVE-1")


def _trace(plan: Plan, pose: Pose, bike_type: str, ruleset: Ruleset
           ) -> tuple[np.ndarray, np.ndarray, float, list[np.ndarray]]:
    """The path of a plan: (points, headings, counted length, one point array per template)."""
    spacing = float(ruleset.data("turn_templates.path_spacing_in"))
    points = [pose.xy[None, :]]
    headings = [np.array([pose.facing_deg])]
    here = Pose(pose.x, pose.y, pose.facing_deg, pose.z)
    heading = pose.facing_deg  # unfolded, so headings stay continuous
    length = 0.0
    arcs: list[np.ndarray] = []
    for seg in plan.segments:
        if isinstance(seg, Straight):
            pts = densify(here.xy, here.xy + seg.inches * here.forward, spacing)
            hdg = np.full(len(pts), heading)
            length += seg.inches
        elif isinstance(seg, Weave):
            sign = 1.0 if seg.side == "left" else -1.0
            pts = densify(here.xy, here.xy + sign * seg.inches * here.left, spacing)
            hdg = np.full(len(pts), heading)
        elif isinstance(seg, Turn):
            pts, hdg = arc_points(Pose(here.x, here.y, heading), template_radius(seg.template, ruleset),
                                  seg.inches, seg.side == "left", spacing)
            arcs.append(pts)
            length += seg.inches
        else:
            pts, hdg = _pivot(here, heading, seg, ruleset.base_for(bike_type).length, spacing)
        points.append(pts[1:])
        headings.append(hdg[1:])
        heading = float(hdg[-1])
        here = Pose(float(pts[-1, 0]), float(pts[-1, 1]), heading, pose.z)
    return np.concatenate(points), np.concatenate(headings), float(length), arcs


def _pivot(here: Pose, heading: float, seg: Pivot, base_length: float, spacing: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """The base centre swinging about the front of the base (EC-ACT-STOPPIE)."""
    half = 0.5 * base_length
    front = here.xy + half * here.forward
    sign = 1.0 if seg.side == "left" else -1.0
    n = max(1, int(math.ceil(math.radians(seg.degrees) * half / spacing)))
    hdg = heading + sign * np.linspace(0.0, seg.degrees, n + 1)
    rad = np.radians(hdg)
    pts = front - half * np.stack([np.cos(rad), np.sin(rad)], axis=1)
    return pts, hdg
