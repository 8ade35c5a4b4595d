"""One ridden action told as a picture tells it: the moments of the ride and the rules' outcome.

A :class:`RideStory` is read from the one path's triple (checked action, facts, events) and the
states around it, either as the ``activate`` command has them (:class:`~entropy3d.game.step.Step`)
or as a replay stores them (:class:`~entropy3d.game.records.ActionRecord`), so the live picture
and the replay's picture are the same drawing of the same values, with no re-simulation. It
decides no rule: the rules' landing point is read off the jump event's figures (EC-JUMP-4). All
lengths are table inches, times seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.geometry import BaseShape, PathFeet, Pose

#: a flight that rose less than this (inches) above its take-off has no peak worth a mark
PEAK_RISE_IN = 0.05


@dataclass(frozen=True)
class Moment:
    """A point of the ride worth a ghost and a mark: ``name`` (start, take-off, peak, touchdown,
    end), ``t_s`` seconds into the ride, ``xyz`` inches, ``heading_deg`` and ``distance_in`` along
    the path."""

    name: str
    t_s: float
    xyz: tuple[float, float, float]
    heading_deg: float
    distance_in: float


@dataclass(frozen=True)
class RulesLanding:
    """Where the rules put a jump down (EC-JUMP-4): ``distance_in`` along the path (extended
    straight on), ``xy`` and ``level_in``; ``carry_in`` still to fly when the move ended in the
    air (EC-JUMP-2), else 0."""

    distance_in: float
    xy: tuple[float, float]
    level_in: float
    carry_in: float = 0.0


def distances_along(path: np.ndarray, points_xy: np.ndarray) -> np.ndarray:
    """Distance along ``path`` (N, 2), extended straight on past its end, of the nearest point to
    each of ``points_xy`` (K, 2), taken in order so a path crossing itself is followed: each point
    is searched from the previous one's distance on (within 2")."""
    path = np.asarray(path, float).reshape(-1, 2)
    points = np.asarray(points_xy, float).reshape(-1, 2)
    if len(path) < 2:
        return np.zeros(len(points))
    direction = path[-1] - path[-2]
    direction = direction / max(float(np.linalg.norm(direction)), 1e-9)
    gaps, alongs, _ = PathFeet(np.vstack([path, path[-1] + 1000.0 * direction])).feet(points)
    out, reached = np.zeros(len(points)), 0.0
    for k in range(len(points)):
        j = int(np.argmin(np.where(alongs[k] < reached - 2.0, np.inf, gaps[k])))
        out[k] = reached = float(alongs[k, j])
    return out


@dataclass(frozen=True, eq=False)
class RideStory:
    """One ridden action of ``model_id``: ``plan`` text, the checked ``path`` (N, 2), the
    ``facts`` and ``events``, the model's ``start`` pose and ``end`` pose as the rules left it,
    its ``base``, ``others`` (pose, base, model id) of the other models in play, ``scenery`` (piece
    id -> spot) after the action, ``action_number`` (1 or 2) and the rider's ``bike_type``."""

    model_id: str
    plan: str
    path: np.ndarray = field(repr=False)
    facts: Facts = field(repr=False)
    events: tuple[Event, ...]
    start: Pose
    end: Pose
    base: BaseShape
    bike_type: str
    others: tuple[tuple[Pose, BaseShape, str], ...] = ()
    scenery: dict = field(default_factory=dict)
    action_number: int = 1

    @classmethod
    def from_steps(cls, steps: Sequence, model_id: str, ruleset) -> "RideStory":
        """The action of an ``activate`` run most worth a picture: the last ridden one with a
        flight, else the last ridden one. ValueError when nothing was ridden."""
        moves = [(k, s) for k, s in enumerate(s for s in steps if s.action.move is not None) if s.ridden]
        if not moves:
            raise ValueError(f"{model_id} rode nothing in this activation: there is no ride to draw")
        flying = [(k, s) for k, s in moves if s.facts.flights]
        number, step = (flying or moves)[-1]
        return cls._make(model_id, step.action, step.action.move.path, step.facts, step.events, step.before,
                         step.after.model(model_id), step.after.scenery, ruleset, number + 1)

    @classmethod
    def from_record(cls, activation, index: int, ruleset) -> "RideStory":
        """Action ``index`` (0-based among the activation's actions) of a replay's
        :class:`~entropy3d.game.records.ActivationRecord`, as stored. ValueError when that action
        rode nothing."""
        record = activation.actions[index]
        if record.facts is None or not record.ridden:
            raise ValueError(f"action {index + 1} of {activation.model_id} (turn {activation.turn}) rode nothing"
                             f"{': ' + record.skipped if record.skipped else ''}; choose an action with a move")
        before = activation.state_before.model(activation.model_id)
        if index > 0 and activation.actions[index - 1].model_after is not None:
            before = activation.actions[index - 1].model_after
        state = activation.state_before.with_model(before)
        after = record.model_after or activation.state_after.model(activation.model_id)
        return cls._make(activation.model_id, record.action, record.planned_path, record.facts, record.events,
                         state, after, activation.state_after.scenery, ruleset, index + 1)

    @classmethod
    def _make(cls, model_id, action, path, facts, events, before, after, scenery, ruleset, number):
        model = before.model(model_id)
        others = tuple((m.pose, ruleset.base_for(m.bike_type), m.id) for m in before.models.values()
                       if m.id != model_id and m.in_play)
        return cls(model_id, "" if action.plan is None else str(action.plan), np.asarray(path, float).reshape(-1, 2),
                   facts, tuple(events), model.pose, after.pose, ruleset.base_for(model.bike_type), model.bike_type,
                   others, dict(scenery), number)

    # ------------------------------------------------------------------ what happened
    @property
    def trajectory(self) -> np.ndarray:
        return np.asarray(self.facts.trajectory, float).reshape(-1, 5)

    @property
    def distances(self) -> np.ndarray:
        """Distance along the path of each trajectory row, inches."""
        return distances_along(self.path, self.trajectory[:, 1:3])

    def airborne_rows(self) -> np.ndarray:
        """Mask of trajectory rows inside one of the facts' flights (take-off to touchdown)."""
        t = self.trajectory[:, 0]
        mask = np.zeros(len(t), bool)
        for flight in self.facts.flights:
            end = flight.land_t_s if flight.landed else np.inf
            mask |= (t >= flight.launch_t_s - 1e-9) & (t <= end + 1e-9)
        return mask

    @property
    def flight(self):
        """The first flight the producer found, or None."""
        return self.facts.flights[0] if self.facts.flights else None

    def _row_moment(self, name: str, k: int) -> Moment:
        row = self.trajectory[k]
        return Moment(name, float(row[0]), (float(row[1]), float(row[2]), float(row[3])), float(row[4]),
                      float(self.distances[k]))

    def peak(self) -> Moment | None:
        """The flight's highest point (None without a flight or when it only fell): its height is
        the facts' ``launch_z + rise_in``; where along the path, the trajectory row nearest that
        height within the flight."""
        flight = self.flight
        if flight is None or flight.rise_in <= PEAK_RISE_IN:
            return None
        rows = np.flatnonzero(self.airborne_rows())
        top = flight.launch_z + flight.rise_in
        k = int(rows[np.argmin(np.abs(self.trajectory[rows, 3] - top))]) if len(rows) else 0
        moment = self._row_moment("peak", k)
        return Moment("peak", moment.t_s, (*moment.xyz[:2], float(top)), moment.heading_deg, moment.distance_in)

    def moments(self) -> list[Moment]:
        """Start, take-off, peak (when the flight rose), touchdown (as the facts put them) and end
        of the ride."""
        rows = self.trajectory
        found = [self._row_moment("start", 0)]
        flight = self.flight
        if flight is not None:
            heading = float(np.interp(flight.launch_t_s, rows[:, 0], rows[:, 4]))
            found.append(Moment("take-off", flight.launch_t_s, (*flight.launch_xy, flight.launch_z), heading,
                                flight.launch_progress_in))
            if flight.rise_in > PEAK_RISE_IN:
                found.append(self.peak())
            if flight.landed:
                heading = float(np.interp(flight.land_t_s, rows[:, 0], rows[:, 4]))
                found.append(Moment("touchdown", flight.land_t_s, (*flight.land_xy, flight.land_z), heading,
                                    flight.land_progress_in))
        found.append(self._row_moment("end", len(rows) - 1))
        return found

    def rules_landing(self) -> RulesLanding | None:
        """The rules' landing point of a jump (EC-JUMP-4), from the jump event's figures."""
        jump = next((e for e in self.events if e.kind in ("jump", "landing") and "landing_xy" in e.figures), None)
        if jump is None:
            return None
        carry = sum(float(e.figures.get("carry_in", 0.0)) for e in self.events)
        return RulesLanding(float(jump.figures["landing_in"]), tuple(float(v) for v in jump.figures["landing_xy"]),
                            float(jump.figures.get("landing_level_in", self.end.z)), carry)

    def outcome(self, names=None) -> str:
        """The outcome in plain words: "Air Time: 3.8" still to fly, lands in its next activation",
        "Jump: lands 16" from take-off", "crashes into ...", or how far it rode. (A flight the rules
        carry over, EC-JUMP-4, is still in the air: "short of the landing point" read as a jump that
        fell short.)"""
        from entropy3d.systems.words import Names, sentence

        names = names or Names()
        landing = self.rules_landing()
        if landing is not None and landing.carry_in > 0:
            return f"Air Time: {landing.carry_in:.1f}\" still to fly, lands in its next activation"
        for kind in ("crash", "cliff_edge", "left_table", "bust", "destructible"):
            event = next((e for e in self.events if e.kind == kind), None)
            if event is not None:
                return sentence(event, names)
        jump = next((e for e in self.events if e.kind == "jump" and e.figures.get("air_time")), None)
        if landing is not None and jump is not None:
            launch = float(jump.figures.get("launch_in", 0.0))
            return (f"Jump: lands {landing.distance_in - launch:.0f}\" from take-off "
                    f"on the {landing.level_in:.1f}\" level")
        if self.facts.flights:
            flight = self.facts.flights[0]
            where = flight.from_piece or flight.from_kind
            return (f"off {where} and down {flight.launch_z - flight.land_z:.1f}\" (physics); no jump in the rules; "
                    f"rode {self.facts.progress_in:.1f}\"" if flight.landed else
                    f"off {where}, still in the air at the end of the ride (physics); no jump in the rules")
        return f"rode {self.facts.progress_in:.1f}\" of {self.facts.path_length_in:.1f}\""
