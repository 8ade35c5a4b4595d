"""The chase & vehicle rules (seed 001) played on the table: ``check`` apart from ``resolve``.

The one path of :mod:`entropy3d.systems.entropy_city.transition`, for this system::

    Action --check(state, action)--> IllegalPlanError(SW-*)
                 | legal: the action with its checked drive (straights and turns, at most 24")
                 v
           facts: the producer rides the vehicle's path as a body; the table reads the ride
                  (:class:`~entropy3d.systems.readings.RideReading`: how far, over what, how
                  sharply turned, what it ran into, the nearest obstacle)
                 |
                 v
           resolve(state, action, reading, rng) --> (State, [Event])

Every rule of a single ride is :class:`~entropy3d.systems.chase_vehicles.ChaseVehicles`'s
(SW-VEH-1 and SW-VEH-2 in ``judge_move``, SW-RAM in ``judge_impacts``); this engine plays them in
turn order (SW-TURN), applies their outcomes to the one game state (the vehicle ends 12" along
its ride on a failed roll, rams deal damage) and adds vehicle damage and wrecks (SW-DMG) and the
getaway (SW-CHASE) and Critical Hits (SW-CRIT). What the state keeps: ``wounds`` (Wounds the
vehicle may still take), ``status`` (``out`` when Wrecked, ``escaped`` off the table),
``actions_taken``, and a ``conditions`` entry per lasting Critical Hit (:data:`TRACTION_HIT`,
:data:`LOCOMOTION_HIT`). Pure like the
rules engine: dice come from the injected ``numpy.random.Generator``. Lengths are table inches.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, arc_points, densify, normalize_deg
from entropy3d.systems.chase_vehicles import ChaseVehicles, VehicleStats
from entropy3d.systems.entropy_city.plan import Straight, Turn, parse_plan
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.speeds import DistanceBand
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, ModelState, State, Wreck
from entropy3d.systems.entropy_city.transition import ACTIVATE, END, MOVE, Action
from entropy3d.systems.readings import RideReading
from entropy3d.systems.skirmish import (
    TurnStart,
    game_start,
    most_points,
    others_score,
    roll_die,
    roll_for_first,
    side_without_models,
    sides_of,
    taking_turns,
)

#: conditions a Critical Hit leaves (SW-CRIT), one entry per hit: Handling -1, Top Speed -10%
TRACTION_HIT, LOCOMOTION_HIT = "traction hit", "locomotion hit"


def trace_drive(segments, pose: Pose, radius_in: Mapping[str, float], spacing: float
                ) -> tuple[np.ndarray, np.ndarray, float]:
    """A drive's path from ``pose``: (points (N, 2), headings unfolded (N,), inches driven);
    a turn follows an arc of ``radius_in[template]`` for its inches."""
    points, headings = [pose.xy[None, :]], [np.array([pose.facing_deg])]
    here, heading, length = pose, pose.facing_deg, 0.0
    for segment in segments:
        if isinstance(segment, Straight):
            pts = densify(here.xy, here.xy + segment.inches * here.forward, spacing)
            hdg = np.full(len(pts), heading)
        else:
            pts, hdg = arc_points(Pose(here.x, here.y, heading), radius_in[segment.template], segment.inches,
                                  segment.side == "left", spacing)
        length += segment.inches
        points.append(pts[1:])
        headings.append(hdg[1:])
        heading = float(hdg[-1])
        here = Pose(float(pts[-1, 0]), float(pts[-1, 1]), heading, pose.z)
    return np.concatenate(points), np.concatenate(headings), float(length)


def ground_in(trajectory: np.ndarray) -> float:
    """How far a ridden ``trajectory`` (rows t, x, y, z, heading) went over the ground, inches."""
    rows = np.asarray(trajectory, float)
    return float(np.hypot(*np.diff(rows[:, 1:3], axis=0).T).sum()) if len(rows) > 1 else 0.0


def pose_along(trajectory: np.ndarray, inches: float) -> tuple[Pose, float]:
    """Where a ridden ``trajectory`` (rows t, x, y, z, heading) had come ``inches`` over the
    ground, and when (seconds); its last row when it never got that far."""
    rows = np.asarray(trajectory, float)
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(rows[:, 1:3], axis=0).T))])
    k = int(np.searchsorted(along, inches))
    if k >= len(rows):
        row = rows[-1]
        return Pose(float(row[1]), float(row[2]), normalize_deg(float(row[4])), float(row[3])), float(row[0])
    if k == 0:
        row = rows[0]
        return Pose(float(row[1]), float(row[2]), normalize_deg(float(row[4])), float(row[3])), float(row[0])
    share = (inches - along[k - 1]) / max(along[k] - along[k - 1], 1e-9)
    row = rows[k - 1] + share * (rows[k] - rows[k - 1])
    return Pose(float(row[1]), float(row[2]), normalize_deg(float(row[4])), float(row[3])), float(row[0])


class ChaseEngine:
    """The chase for one scene's vehicles.

    system: the :class:`~entropy3d.systems.chase_vehicles.ChaseVehicles` with its rules data.
    vehicles: model id -> its validated ``stats:``.
    """

    #: resolve reads a move's ride as the table sees it (a RideReading), not the bare facts
    reads_rides = True
    reads_sight = False  # it has no shot: a ram is a drive's contact
    #: the conditions in people's words (its critical hits are named so already)
    condition_words = {TRACTION_HIT: TRACTION_HIT, LOCOMOTION_HIT: LOCOMOTION_HIT}

    def __init__(self, system: ChaseVehicles, vehicles: Mapping[str, VehicleStats]):
        self.system, self.rules = system, system.rules
        self.vehicles = dict(vehicles)

    @property
    def ride_stop_in(self) -> float:
        """SW-VEH-1: where a failed roll stops a ride (inches, "moves only 12""): the table reads
        the ride as far as that too (:attr:`RideReading.stopped`), for its nearest obstacle."""
        return self.rules.tabletop.free_move_in

    # -- the game's start and turns --------------------------------------------------------------

    def initial_state(self, table_state: State) -> State:
        """The table's starting state as a chase: each vehicle with the Wounds its Scale takes
        (SW-DMG), the mission's name and no score."""
        wounds = self.rules.damage.wounds
        models = {model_id: model.but(wounds=wounds[self.vehicles[model_id].scale], stress=0, conditions=())
                  for model_id, model in table_state.models.items()}
        return game_start(table_state, self.rules.mission.name, models)

    def gangs(self, state: State) -> list[str]:
        return sides_of(state)

    def start_turn(self, state: State, rng: np.random.Generator, previous: str | None) -> TurnStart:
        """SW-TURN: the first two sides each roll the initiative die, the higher activates first;
        a tie is rolled again."""
        die = self.rules.turn.initiative_die
        return roll_for_first(self.gangs(state), lambda: (roll_die(rng, die), roll_die(rng, die)))

    def ready(self, state: State, gang: str) -> list[str]:
        """SW-TURN: the vehicles of ``gang`` still in the chase."""
        return [m.id for m in state.models.values() if m.gang == gang and m.in_play]

    def activation_order(self, state: State, first: str, chosen: Mapping[str, Sequence[str]]) -> list[str]:
        """SW-TURN: the sides take turns, one vehicle each, ``first`` first; a side with none left
        lets the others go on. ``chosen``: each side's vehicles in its player's order."""
        return taking_turns(first, chosen)

    def action_phase(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Nothing happens before the first activation of a turn."""
        return state, []

    def end_turn(self, state: State, rng: np.random.Generator) -> tuple[State, list[Event], list[str]]:
        """Nothing happens at a turn's end; no side withdraws."""
        return state, [], []

    def game_over(self, state: State, bottled: Sequence[str] = ()) -> str:
        """SW-CHASE: "A chase ends when one side gets away ... or is forced to stop": no fleeing
        vehicle left on the table, or a side with no vehicle in play ("" while it goes on)."""
        fleeing = [m for m in state.models.values() if self.vehicles[m.id].flees]
        if fleeing and not any(m.in_play for m in fleeing):
            return "no fleeing vehicle is left on the table"
        out = side_without_models(state)
        return "" if out is None else f"{out} has no vehicle in play"

    def winner(self, state: State, bottled: Sequence[str] = ()) -> str:
        """SW-CHASE: the side with the most points; "" for a draw."""
        return most_points(state)

    # -- check ---------------------------------------------------------------------------------

    def parse_action(self, model_id: str, text: str) -> Action:
        """A drive from its text: ``drive: straight 10, left tight 3`` (PlanError for a bad one);
        IllegalPlanError (SW-TURN) for anything else."""
        if not " ".join(text.lower().split()).startswith("drive:"):
            raise IllegalPlanError("SW-TURN", f"unknown action {text!r}: a vehicle drives, e.g. "
                                   "'drive: straight 16' or 'drive: left tight 3, straight 10'")
        return Action(MOVE, model_id, parse_plan(text.strip()))

    def check(self, state: State, action: Action, table=None) -> Action:
        """Whether ``action`` is legal now; returns it with its checked drive. Changes nothing,
        rolls nothing; IllegalPlanError names the clause. ``table`` is not asked: a vehicle may
        drive anywhere, even into a wall or off the table (the ride shows what happens)."""
        model = state.model(action.model_id)
        if not model.in_play:
            why = "got away" if model.status == ESCAPED else "is Wrecked: a wrecked land vehicle can't move"
            raise IllegalPlanError("SW-DMG" if model.status == OUT else "SW-CHASE", f"{model.id} {why}")
        if action.kind in (ACTIVATE, END):
            return action
        if action.kind != MOVE:
            raise IllegalPlanError("SW-TURN", f"a vehicle drives; not {action.kind!r}")
        if model.actions_taken:
            raise IllegalPlanError("SW-TURN", f"{model.id} has driven this activation: one drive an activation")
        return dataclasses.replace(action, move=self.check_drive(model, action))

    def check_drive(self, model: ModelState, action: Action) -> PlannedMove:
        """SW-VEH-1: straights and turns, at most ``max_move_in`` (24") in all."""
        plan = parse_plan(action.plan) if isinstance(action.plan, str) else action.plan
        if plan is None or not plan.driven or any(not isinstance(s, (Straight, Turn)) for s in plan.segments):
            raise IllegalPlanError("SW-VEH-1", "a vehicle drives straights and turns: "
                                   "'drive: straight 10, left tight 3'")
        driving, most = self.rules.driving, self.top_speed_in(model)
        path, headings, length = trace_drive(plan.segments, model.pose, driving.turn_radius_in,
                                             driving.path_spacing_in)
        if length > most + 1e-6:
            slowed = (f" (its Top Speed after {model.conditions.count(LOCOMOTION_HIT)} Locomotion hit(s), SW-CRIT)"
                      if most < self.rules.tabletop.max_move_in else "")
            raise IllegalPlanError("SW-VEH-1", f"too far: {length:g}\" is over the {most:g}\" it drives{slowed}")
        end = Pose(float(path[-1, 0]), float(path[-1, 1]), normalize_deg(float(headings[-1])), model.pose.z)
        # the band's max is the drive itself: the producer rides it in one activation's time
        return PlannedMove(plan=plan, speed=0, start_pose=model.pose, end_pose=end, path=path, headings_deg=headings,
                           length_in=length, band=DistanceBand(0.0, length, ("SW-VEH-1",)), stress=0, tests=(),
                           clauses=("SW-VEH-1",), attacks_allowed=0)

    # -- resolve --------------------------------------------------------------------------------

    def resolve(self, state: State, action: Action, reading: RideReading | None,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Apply a checked ``action`` with the table's reading of its ride and the dice of
        ``rng``. The only function that makes the chase's next state."""
        model = state.model(action.model_id)
        if action.kind == ACTIVATE:
            return state.with_model(model.but(actions_taken=0)), []
        if action.kind == END:
            return state, []
        declared = action.move.length_in if action.move is not None else None
        return self._drive(state, model.but(actions_taken=model.actions_taken + 1), reading, rng, declared)

    def handling(self, model: ModelState) -> int:
        """SW-DMG: "Each Wound reduces a vehicle's Handling by 1 (to a maximum of -4)"; SW-CRIT:
        a Guidance/Traction hit "Reduce Handling by one each time this occurs (to a maximum penalty
        of -4)", the same -4 for both."""
        damage = self.rules.damage
        taken = damage.wounds[self.vehicles[model.id].scale] - model.wounds
        return max(damage.max_handling_penalty,
                   damage.handling_per_wound * taken - model.conditions.count(TRACTION_HIT))

    def _top_speed_share(self, model: ModelState) -> float:
        """SW-CRIT: the share of its Top Speed a vehicle keeps: 10% less for each Locomotion hit,
        never under 60% (rules data ``critical_hits``)."""
        crits = self.rules.critical_hits
        hits = model.conditions.count(LOCOMOTION_HIT)
        return max(crits.min_top_speed, 1.0 - crits.top_speed_per_locomotion_hit * hits)

    def top_speed_in(self, model: ModelState) -> float:
        """SW-CRIT: the most the vehicle drives in an activation (inches), 10% less for each
        Locomotion hit, never under 60% (rules data ``critical_hits``), rounded down to 0.1"."""
        return float(np.floor(round(self.rules.tabletop.max_move_in * self._top_speed_share(model) * 10, 6)) / 10)

    def top_speed_mph(self, model: ModelState) -> float:
        """SW-RAM with SW-CRIT: the vehicle's Top Speed now (MPH): its stats' (or the rules data's
        default), less its Locomotion hits' share as :meth:`top_speed_in`, rounded down to 0.1 MPH."""
        mph = self.system.top_speed_mph(self.vehicles[model.id])
        return float(np.floor(round(mph * self._top_speed_share(model) * 10, 6)) / 10)

    def _drive(self, state: State, model: ModelState, reading: RideReading,
               rng: np.random.Generator, declared_in: float | None = None) -> tuple[State, list[Event]]:
        """SW-VEH-1 and SW-VEH-2 on the ride (the roll is owed for ``declared_in``, the inches the
        drive was declared; a failed roll, a critical failure too, leaves the vehicle where it had
        come ``free_move_in`` along the ride; a collision result costs its Wounds), then its rams
        (SW-RAM, SW-DMG), then the table edge it drove over (SW-CHASE)."""
        facts, free = reading.facts, self.rules.tabletop.free_move_in
        verdict = self.system.judge_move(reading.move, self.vehicles[model.id], rng, self.handling(model),
                                         declared_in, reading.stopped)
        events = list(verdict.events)
        end, cut_t = facts.end_pose, None
        stopped_in = ground_in(facts.trajectory)
        # "Failure means the vehicle moves only 12"": a Critical Failure is a failure too; a ride
        # that stopped within 12" (a wall, the table's edge) stands where it stopped
        if verdict.outcome in ("failure", "critical failure") and stopped_in > free:
            end, cut_t = pose_along(facts.trajectory, free)
        if any(c.kind != "model" for c in facts.contacts) and cut_t is None:
            # DECISION (rules data driving.back_from_wall_in): it stands back from the wall it ran into
            end, _ = pose_along(facts.trajectory, max(0.0, stopped_in - self.rules.driving.back_from_wall_in))
        state = state.with_model(model.but(pose=end))
        if verdict.out_of_control is not None:
            # the obstacle nearest to where it stands: 12" along when the failure stopped it there
            into = (reading.stopped if cut_t is not None and reading.stopped is not None
                    else reading.move).nearest_obstacle_pose
            if verdict.out_of_control.collision and into is not None:
                # SW-VEH-2: "the GM can move it into the nearest obstacle": it stands touching it
                state = state.with_model(state.model(model.id).but(pose=into))
            state, found = self._out_of_control(state, model.id, verdict.out_of_control, rng)
            events += found
        met = [i for i in reading.impacts if i.what == "contact" and i.piece in state.models
               and state.model(i.piece).in_play and (cut_t is None or i.t_s <= cut_t)]
        # SW-RAM: "An attacker can Ram a defender": a rival. DECISION: a drive that runs into a
        # vehicle of its own side is no ram (issue 46: on car_chase, demo --seed 0, the patrol
        # cruiser's 12" drive ran into the back of its own interceptor and both took ram damage);
        # it stops against it, as the producer stood it, and no die is rolled
        rams = [i for i in met if state.model(i.piece).gang != model.gang]
        events += [Event("condition", model.id, f"stops against {i.piece}, a vehicle of its own side: no ram",
                         found=f"ran into {i.piece}", piece=i.piece, clauses=("SW-RAM",), t_s=i.t_s,
                         figures={"own_side": i.piece}) for i in met if i not in rams]
        for ram in rams:
            if not state.model(model.id).in_play:
                break
            state, found = self._ram(state, ram, rng)
            events += found
        if facts.edge is not None and cut_t is None and state.model(model.id).in_play:
            state, found = self._off_the_table(state, model.id, facts.edge, facts.edge_kind)
            events += found
        return state, events

    def _ram(self, state: State, impact, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """SW-RAM: the contact settles the opposed roll (the ram hit); each side rolls the d6s
        :meth:`ChaseVehicles.judge_impacts` gives it (the speed dice from the attacker's Top Speed
        now, :meth:`top_speed_mph`) against the other's Toughness (SW-DMG)."""
        [ram] = self.system.judge_impacts([impact], self.vehicles,
                                          {impact.model: self.top_speed_mph(state.model(impact.model))})
        attacker, defender = impact.model, impact.piece
        to_defender = [roll_die(rng, 6) for _ in range(ram.figures["attacker_d6"])]
        to_attacker = [roll_die(rng, 6) for _ in range(ram.figures["defender_d6"])]
        events = [ram]
        state, found = self._damage(state, defender, to_defender, attacker, rng)
        events += found
        state, found = self._damage(state, attacker, to_attacker, defender, rng)
        return state, events + found

    def _damage(self, state: State, target_id: str, dice: list[int], by: str,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """SW-DMG: damage of ``dice`` from ``by`` against the target's Toughness: each raise a
        Wound; equal to the Toughness or more calls a maneuvering roll (at its Handling), and
        failing it sends the vehicle Out of Control (a collision into ``by``, base to base)."""
        target, toughness = state.model(target_id), self.vehicles[target_id].toughness
        if not target.in_play:
            return state, []
        damage, step = sum(dice), self.rules.damage.raise_step
        wounds = (damage - toughness) // step if damage >= toughness else 0
        text = (f"takes {'+'.join(map(str, dice))} = {damage} damage from {by} against Toughness {toughness}: "
                + ("no effect" if damage < toughness else f"{wounds} raise{'s' if wounds != 1 else ''}, "
                   f"{wounds} Wound{'s' if wounds != 1 else ''}"))
        events = [Event("attack", target_id, text, piece=by, clauses=("SW-DMG",),
                        figures={"dice": dice, "damage": damage, "toughness": toughness, "wounds": wounds},
                        rolls=(DiceRoll.against("damage", dice, toughness, words=(f"{wounds} raises", "no effect")),))]
        if damage < toughness:
            return state, events
        if wounds:  # "Each raise ... causes a Wound and one roll on the Vehicle Critical Hits table"
            state, found = self._wound(state, target_id, wounds, "SW-DMG")
            events += found
            state, found = self._critical_hit(state, target_id, rng)
            events += found
        if not state.model(target_id).in_play:
            return state, events
        roll = self.system.maneuvering_roll(self.vehicles[target_id].driving, self.handling(state.model(target_id)),
                                            rng)
        events.append(Event("test", target_id, f"damage equals its Toughness or more: maneuvering roll {roll}"
                            + (": keeps control" if roll.outcome == "success" else ": Out of Control"),
                            clauses=("SW-DMG",), figures={"total": roll.total, "outcome": roll.outcome},
                            rolls=roll.rolls))
        if roll.outcome == "success":
            return state, events
        crash, row = self.system.out_of_control_event(target_id, rng, by, 0.0, "SW-DMG")
        events.append(crash)
        state, found = self._out_of_control(state, target_id, row, rng)
        return state, events + found

    def _out_of_control(self, state: State, model_id: str, row, rng: np.random.Generator
                        ) -> tuple[State, list[Event]]:
        """SW-VEH-2 with SW-DMG: the row's Wounds (a Major Collision's d4, a Minor Collision's one;
        no further Out of Control roll: "Damage caused by an Out of Control roll doesn't trigger
        another"), then its Critical Hit (SW-CRIT: a Major or Minor Collision, a Glitch)."""
        events: list[Event] = []
        die = roll_die(rng, row.wound_die) if row.collision and row.wound_die else None
        wounds = (row.wounds if die is None else die) if row.collision else 0
        if wounds:  # a Major Collision's d4 of Wounds told with them
            state, events = self._wound(state, model_id, wounds, "SW-VEH-2", () if die is None else (
                DiceRoll.amount("Wounds", (die,), row.wound_die),))
        if row.critical_hit:
            state, found = self._critical_hit(state, model_id, rng)
            events += found
        return state, events

    def _critical_hit(self, state: State, model_id: str, rng: np.random.Generator) -> tuple[State, list[Event]]:
        """SW-CRIT: one roll on the Vehicle Critical Hits table; a Traction or Locomotion hit stays
        with the vehicle. A vehicle already Wrecked rolls none."""
        model = state.model(model_id)
        if not model.in_play:
            return state, []
        event, row = self.system.critical_hit_event(model_id, rng)
        if row.hit == "none":
            return state, [event]
        model = model.but(conditions=model.conditions + (TRACTION_HIT if row.hit == "traction" else LOCOMOTION_HIT,))
        now = (f"Handling {self.handling(model):+d}" if row.hit == "traction"
               else f"Top Speed {self.top_speed_in(model):g}\" an activation")
        return state.with_model(model), [dataclasses.replace(event, rules=f"{event.rules} Now {now}.")]

    def _wound(self, state: State, model_id: str, wounds: int, clause: str,
               rolls: tuple[DiceRoll, ...] = ()) -> tuple[State, list[Event]]:
        """SW-DMG: ``wounds`` taken (``rolls``: the die that said how many, if one did); one past
        those its Scale takes wrecks it: out of the chase, a wreck on the table, each other side scores."""
        model = state.model(model_id)
        left = model.wounds - wounds
        wrecked = left < 0
        model = model.but(wounds=max(left, 0), status=OUT if wrecked else model.status)
        state = state.with_model(model)
        events = [Event("condition", model_id, f"{wounds} Wound{'s' if wounds != 1 else ''}"
                        + (": Wrecked, it can't move" if wrecked else f": {model.wounds} left, Handling "
                           f"{self.handling(model):+d}"), clauses=tuple(dict.fromkeys((clause, "SW-DMG"))),
                        figures={"wounds": wounds, "left": max(left, 0), "wrecked": wrecked}, rolls=rolls)]
        if wrecked:
            state, found = self._wrecked(state, model)
            events += found
        return state, events

    def _wrecked(self, state: State, model: ModelState) -> tuple[State, list[Event]]:
        """A wrecked vehicle stays on the table as an obstacle; each other side scores (SW-CHASE)."""
        state = dataclasses.replace(state, wrecks=state.wrecks + (Wreck(f"wreck_{model.id}", model.id, model.pose),))
        return others_score(state, model, self.rules.mission.wreck_points, "Wrecked", "SW-CHASE")

    def _off_the_table(self, state: State, model_id: str, edge: str, kind: str | None
                       ) -> tuple[State, list[Event]]:
        """SW-CHASE: off an open edge a fleeing vehicle gets away (its side scores) and a pursuer
        leaves the chase; over a cliff edge it is Wrecked."""
        model = state.model(model_id)
        found = f"drove over the {edge} table edge"
        if kind == "cliff":
            state, events = self._wound(state, model_id, model.wounds + 1, "SW-CHASE")
            return state, [Event("crash", model_id, "over the cliff edge", found=found, clauses=("SW-CHASE",))] + events
        state = state.with_model(model.but(status=ESCAPED))
        if not self.vehicles[model_id].flees:
            return state, [Event("move", model_id, "off the table: it leaves the chase", found=found,
                                 clauses=("SW-CHASE",))]
        points = self.rules.mission.escape_points
        state = state.add_score(model.gang, points)
        return state, [Event("move", model_id, "off the table: it gets away", found=found, clauses=("SW-CHASE",)),
                       Event("score", model_id, f"{model.gang} scores {points} for {model_id} getting away",
                             clauses=("SW-CHASE",), figures={"gang": model.gang, "points": points})]
