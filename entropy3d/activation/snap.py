"""Snapping what physics found back to the rulebook: every rule decision is a call into
:mod:`entropy3d.rules` (crash kind and test, destructibles, jumps, the cliff edge, busts); this
module only picks the physical facts to hand over and places the bike where the rules say.

Placement decisions:
- A ride that ends normally stops at a whole number of inches along the intended path (rounded
  to the nearest inch, never past the plan's end).
- A crash leaves the bike where physics stopped it: base to base with what it hit (EC-COL-HEAD);
  the whole-inch distance reported is the distance ridden before the impact, rounded down.
  A side-on survivor (EC-COL-SIDE) also stops there; its speed 1 applies to what is left of its
  activation.
- A jump lands the rules' landing distance from the launch along the path (EC-JUMP-4), extended
  straight on past the plan's end, on the level physics found there (the highest surface under
  the point that is below the bike's physical trajectory over it).
- Physics decides what is touched; the rules decide what it costs.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import trimesh

from entropy3d.activation.state import AirTime
from entropy3d.geometry import Pose, normalize_deg
from entropy3d.physics import polyline
from entropy3d.physics.facts import Contact, RideFacts
from entropy3d.physics.world import ScenerySpot
from entropy3d.rules.activation import BikeState
from entropy3d.rules.dice import Outcome, Policy, TestRoll, resolve_bust, sit_at_tn
from entropy3d.rules.events import HEAD_ON, resolve_cliff_edge, resolve_crash, resolve_destructible, resolve_jump
from entropy3d.rules.planner import PlannedMove

LEVEL_CLEARANCE_IN = 0.3  #: a surface this far above the bike's base still counts as under it
WALL_KINDS = ("building", "block", "platform", "pillar", "railing", "ramp", "mesh")


def full_distance_in(move: PlannedMove, ruleset) -> float:
    """The move's full movement: its speed's maximum distance, doubled for gung-ho (EC-ACT-GUNGHO)."""
    gungho = move.plan.action == "gungho"
    return move.band.max * (float(ruleset.data("actions.gungho.distance_multiplier")) if gungho else 1.0)


@dataclass(frozen=True)
class RuleEvent:
    """One thing that happened on the ride: what physics found and what the rules made of it.

    kind: plan_test, destructible, crash, jump, cliff_edge, left_table or bust.
    t_s: seconds into the ride. piece: the piece or model involved, if any.
    physics / rules: one phrase each, for the report line. clauses: clause ids applied.
    rolls: the tests rolled. stress_added: the stress it cost (negative when a test lowered it).
    figures: JSON-able rules figures (tn, distances, levels...).
    """

    kind: str
    t_s: float
    piece: str | None
    physics: str
    rules: str
    clauses: tuple[str, ...]
    rolls: tuple[TestRoll, ...] = ()
    stress_added: int = 0
    figures: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return f"physics: {self.physics} -> rules: {self.rules}"


@dataclass(frozen=True)
class Snapped:
    """The rules' reading of one ride.

    bike: the bike's new rules state (pose, speed, stress, wounds, skips). distance_in: whole
    inches ridden along the path. status: stopped, riding, crashed, air_time, out or left_table.
    events: in order. scenery: destructibles the rules moved, by piece id. air: its Air Time.
    """

    bike: BikeState
    distance_in: int
    status: str
    events: tuple[RuleEvent, ...]
    scenery: Mapping[str, ScenerySpot]
    air: AirTime | None


_STATIC_SURFACES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def static_surface_height(geometry, xy, below: float) -> float:
    """Height (inches) of the highest *static* surface under ``xy`` that is below ``below``:
    destructibles move, so where one stood at the start is no level to land on."""
    mesh = _STATIC_SURFACES.get(geometry)
    if mesh is None:
        mesh = trimesh.util.concatenate([p.mesh for p in geometry.pieces if not p.dynamic])
        _STATIC_SURFACES[geometry] = mesh
    origin = np.array([[float(xy[0]), float(xy[1]), below]])
    hits, _, _ = mesh.ray.intersects_location(origin, np.array([[0.0, 0.0, -1.0]]), multiple_hits=True)
    below_hits = hits[hits[:, 2] < below, 2] if len(hits) else np.zeros(0)
    return float(below_hits.max()) if len(below_hits) else 0.0


def roll_text(roll: TestRoll) -> str:
    """'rolled 9+7+stress 2 = 18: failed'."""
    dice = "+".join(str(d) for d in roll.dice)
    outcome = {Outcome.CRIT: "natural 21", Outcome.SUCCESS: "passed", Outcome.FAIL: "failed",
               Outcome.BUST: "bust"}[roll.outcome]
    tn = "" if roll.tn == roll.effective_tn else f" (max stress: TN {roll.effective_tn})"
    return f"rolled {dice}+stress {roll.stress} = {roll.total}{tn}: {outcome}"


class _Snapper:
    def __init__(self, facts: RideFacts, move: PlannedMove, bike: BikeState, dodge: int, table, geometry,
                 rng: np.random.Generator, policy: Policy, scenery: Mapping[str, ScenerySpot]):
        self.facts, self.move, self.bike, self.dodge = facts, move, bike, dodge
        self.table, self.geometry, self.ruleset = table, geometry, table.ruleset
        self.rng, self.policy = rng, policy
        self.stress, self.wounds = bike.stress, bike.wounds
        self.events: list[RuleEvent] = []
        self.scenery = dict(scenery)
        self.moved: dict[str, ScenerySpot] = {}
        self.out = self.skip_action = self.skip_activation = False
        self.speed_after: int | None = None
        self.path = np.asarray(move.path, float)
        self.lengths = polyline.cumulative_lengths(self.path)

    # -- helpers -------------------------------------------------------------------------------
    def roll_stress(self, roll: TestRoll | None, extra: int = 0) -> int:
        change = extra + (roll.stress_change if roll is not None else 0)
        before = self.stress
        self.stress = max(0, self.stress + change)
        return self.stress - before

    def bust(self, t: float, piece: str | None, why: str) -> None:
        result = resolve_bust(self.wounds, self.stress, self.rng, self.ruleset, self.policy, self.bike.max_stress)
        self.wounds = result.wounds_after
        self.out = result.out_of_game
        self.skip_action = result.skip_next_action
        if result.remount is None:
            verdict = "no wounds left: out of the game"
        else:
            verdict = (f"lost a wound ({result.wounds_after} left), remount TN {result.remount.tn}, "
                       f"{roll_text(result.remount)}" + (": out of the game" if result.out_of_game else
                                                           ": back on, skips its next action"))
        rolls = (result.remount,) if result.remount is not None else ()
        self.events.append(RuleEvent("bust", t, piece, why, f"bust (EC-DICE-4): {verdict}", result.clauses, rolls,
                                     0, {"wounds_after": result.wounds_after, "out_of_game": result.out_of_game}))

    def point(self, s: float) -> tuple[np.ndarray, float]:
        """Path point and heading at distance ``s``, continuing straight on past the end."""
        if s <= self.lengths[-1]:
            return polyline.point_at(self.path, self.lengths, s), float(self._heading(s))
        heading = float(self.move.headings_deg[-1])
        extra = s - self.lengths[-1]
        direction = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
        return self.path[-1] + extra * direction, heading

    def _heading(self, s: float) -> float:
        k = int(np.clip(np.searchsorted(self.lengths, s), 0, len(self.lengths) - 1))
        return float(self.move.headings_deg[k])

    def level_at(self, xy: np.ndarray) -> float:
        """The level physics found at ``xy``: the highest surface under the bike's trajectory there."""
        trajectory = self.facts.trajectory
        distance = np.hypot(trajectory[:, 1] - xy[0], trajectory[:, 2] - xy[1])
        k = int(np.argmin(distance))
        ceiling = trajectory[k, 3] if distance[k] < 1.0 else self.facts.end_pose.z
        return static_surface_height(self.geometry, xy, below=ceiling + LEVEL_CLEARANCE_IN)

    # -- events --------------------------------------------------------------------------------
    def destructible(self, contact: Contact) -> bool:
        """Ride through a destructible; returns False when the rules make it a solid obstacle."""
        piece = self.geometry.by_id(contact.piece_id)
        move = self.move
        full = abs(move.length_in - full_distance_in(move, self.ruleset)) < 1e-6
        result = resolve_destructible(move.speed, full, int(piece.risk or 1), self.stress, self.ruleset, self.rng,
                                      self.policy, self.bike.max_stress)
        moved_phys = next((m for m in self.facts.scenery if m.piece_id == piece.id), None)
        found = f"hit destructible '{piece.id}' at {contact.progress_in:.1f}\""
        if moved_phys is not None:
            found += ", smashed it" if moved_phys.destroyed else f", knocked it {moved_phys.distance_in:.1f}\""
        if not result.eligible:
            self.events.append(RuleEvent("destructible", contact.t, piece.id, found,
                                         f"not at full speed 2+: a solid obstacle ({', '.join(result.clauses)})",
                                         result.clauses))
            return False
        added = self.roll_stress(result.roll, result.stress_added)
        roll = result.roll
        figures: dict[str, Any] = {"risk": piece.risk, "tn": result.tn, "item_moved_in": result.item_moved_in,
                                   "forced_turn_in": result.forced_turn_in}
        if roll.succeeded:
            direction = (np.array([moved_phys.dx, moved_phys.dy]) if moved_phys and moved_phys.distance_in > 0.05
                         else np.array([math.cos(math.radians(contact.facing_deg)),
                                        math.sin(math.radians(contact.facing_deg))]))
            direction = direction / np.linalg.norm(direction)
            old = self.scenery.get(piece.id, ScenerySpot())
            shift = direction * result.item_moved_in
            spot = ScenerySpot(old.dx + float(shift[0]), old.dy + float(shift[1]), old.turn_deg, False)
            self.scenery[piece.id] = self.moved[piece.id] = spot
            verdict = f"moved {result.item_moved_in:g}\" the way physics knocked it (EC-DEST-4)"
            figures["item_moved_to"] = [round(spot.dx, 4), round(spot.dy, 4)]
        else:
            verdict = f"the opponent may turn the bike {result.forced_turn_in:g}\" (EC-DEST-3)"
        text = (f"destructible risk {piece.risk}: +{result.stress_added} stress, TN {result.tn}, "
                f"{roll_text(roll)} -> {verdict}")
        self.events.append(RuleEvent("destructible", contact.t, piece.id, found, text, result.clauses, (roll,),
                                     added, figures))
        if roll.outcome is Outcome.BUST:
            self.bust(contact.t, piece.id, f"failed the test at '{piece.id}'")
        return True

    def crash(self, contact: Contact) -> None:
        result = resolve_crash(contact.facing_deg, contact.into_deg, self.dodge, self.stress, self.ruleset,
                               self.rng, self.policy, self.bike.max_stress)
        what = "wall" if contact.kind in WALL_KINDS else contact.kind
        found = f"rode {contact.progress_in:.1f}\" then hit {what} '{contact.piece_id}' at {contact.angle_deg:.0f}°"
        name = "head-on" if result.kind == HEAD_ON else "side-on"
        clause = result.clauses[1]
        base_tn = int(self.ruleset.data(f"crash.{result.kind}.tn_base"))
        text = f"{name} crash ({clause}), TN {base_tn}-{self.dodge}={result.tn}, {roll_text(result.roll)}"
        added = 0
        if result.survived:
            added = self.roll_stress(result.roll, result.stress_added)
            self.skip_activation = self.skip_activation or result.skip_next_activation
            self.speed_after = result.speed_after
            text += f" -> +{result.stress_added} stress, stops base to base" + (
                ", skips its next activation" if result.skip_next_activation else f", speed {result.speed_after}")
        else:
            self.roll_stress(result.roll)
            text += " -> bust"
        self.events.append(RuleEvent("crash", contact.t, contact.piece_id, found, text, result.clauses,
                                     (result.roll,), added,
                                     {"kind": result.kind, "tn": result.tn, "angle_deg": round(contact.angle_deg, 2),
                                      "survived": result.survived}))
        if not result.survived:
            self.bust(contact.t, contact.piece_id, f"crashed into '{contact.piece_id}'")

    def landing(self, flight, carried: AirTime) -> None:
        """The rest of last activation's jump (EC-JUMP-2): it comes down ``carry_in`` along the path."""
        xy, _ = self.point(carried.carry_in)
        level = self.level_at(xy)
        found = ("flew on from last activation" + (f", came down on {flight.land_z:.2f}\" after {flight.duration:.2f}s"
                                                    if flight.land_z is not None else ", still airborne"))
        self.events.append(RuleEvent(
            "landing", flight.launch_t, None, found,
            f"lands the {carried.carry_in:.1f}\" left of its speed {carried.speed} jump (EC-JUMP-2, EC-JUMP-4) "
            f"on the {level:.2f}\" level", ("EC-JUMP-2", "EC-JUMP-4"),
            figures={"landing_xy": [round(float(v), 4) for v in xy], "landing_level_in": round(level, 4)}))

    def jump(self, flight, crash_t: float | None) -> AirTime | None:
        if crash_t is not None and flight.launch_t >= crash_t:
            return None
        left = max(0.0, self.move.length_in - flight.launch_progress_in)
        result = resolve_jump(self.move.speed, self.bike.bike_type, left, self.ruleset)
        air_s = (flight.land_t if flight.land_t is not None else self.facts.duration_s) - flight.launch_t
        found = (f"left the ground at {flight.launch_progress_in:.1f}\" ({flight.launch_z:.2f}\" up), "
                 f"{air_s:.2f}s in the air, peak {flight.max_z:.2f}\""
                 + (f", came down on {flight.land_z:.2f}\"" if flight.land_z is not None else ", still airborne"))
        if not result.air_time:
            self.events.append(RuleEvent("jump", flight.launch_t, None, found,
                                         f"speed {self.move.speed}: no air time (EC-JUMP-1)", result.clauses,
                                         figures={"air_time": False}))
            return None
        landing_s = flight.launch_progress_in + result.landing_distance_in
        landing_xy, _ = self.point(landing_s)
        level = self.level_at(landing_xy)
        figures = {"air_time": True, "landing_distance_in": result.landing_distance_in,
                   "landing_xy": [round(float(v), 4) for v in landing_xy], "landing_level_in": round(level, 4),
                   "carry_in": round(result.landing_carry_in, 4)}
        text = (f"air time at speed {self.move.speed}, lands {result.landing_distance_in:g}\" on (EC-JUMP-4) "
                f"on the {level:.2f}\" level")
        air = None
        if result.airborne_at_end:
            text += f"; {result.landing_carry_in:.1f}\" still to fly: Air Time (EC-JUMP-2)"
            velocity = tuple(float(v) for v in self.facts.end_velocity_in_s)
            air = AirTime(self.move.speed, float(result.landing_carry_in), velocity)
        self.events.append(RuleEvent("jump", flight.launch_t, None, found, text, result.clauses, figures=figures))
        return air


def snap_ride(facts: RideFacts, move: PlannedMove, bike: BikeState, *, dodge: int, table, geometry,
              rng: np.random.Generator, scenery: Mapping[str, ScenerySpot], policy: Policy = sit_at_tn,
              carried: AirTime | None = None) -> Snapped:
    """Snap one ride's physical ``facts`` to the rules. ``bike`` is the bike's rules state after
    the plan's own costs (:func:`entropy3d.rules.activation.apply_action`); tests roll with ``rng``.
    carried: the bike's Air Time from its last activation; its first flight is that jump's end."""
    s = _Snapper(facts, move, bike, dodge, table, geometry, rng, policy, scenery)
    crash = facts.first_crash
    for contact in facts.contacts:
        if contact.role != "debris" or (crash is not None and contact.t > crash.t) or s.out:
            continue
        if not s.destructible(contact) and (crash is None or contact.t < crash.t):
            crash = contact
    air = None
    for k, flight in enumerate(facts.flights):
        if s.out:
            break
        if k == 0 and carried is not None and flight.launch_t == 0.0:
            s.landing(flight, carried)
        else:
            air = s.jump(flight, crash.t if crash is not None else None) or air

    status, pose, distance = "stopped" if move.stopped else "riding", None, None
    if crash is not None and not s.out:
        s.crash(crash)
        k = int(np.argmin(np.abs(facts.trajectory[:, 0] - crash.t)))
        row = facts.trajectory[-1] if crash is facts.first_crash else facts.trajectory[k]
        pose = Pose(float(row[1]), float(row[2]), normalize_deg(float(row[4])), float(row[3]))
        distance, status = int(math.floor(crash.progress_in + 1e-6)), "crashed"
    elif facts.left_table is not None and not s.out:
        edge = facts.left_table
        kind = table.spec.table.edges.get(edge, "open")
        found = f"rode over the {edge} table edge"
        if kind == "cliff":
            result = resolve_cliff_edge()
            s.out = result.out_of_game
            s.events.append(RuleEvent("cliff_edge", facts.duration_s, None, found,
                                      "over the cliff: automatic bust, out of the game (EC-COL-EDGE)",
                                      result.clauses, figures={"edge": edge}))
        else:
            s.events.append(RuleEvent("left_table", facts.duration_s, None, found,
                                      "off an open edge: it leaves the table", (), figures={"edge": edge}))
        status = "left_table"
        pose = facts.end_pose
        distance = int(math.floor(facts.progress_in + 1e-6))
    if pose is None:
        total = float(s.lengths[-1])
        distance = int(min(round(facts.progress_in), math.floor(total + 1e-6)))
        if air is not None:  # the move is flown to its end (EC-JUMP-2)
            distance = int(math.floor(total + 1e-6))
            xy, heading = s.point(total)
            pose = Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), float(facts.end_pose.z))
            status = "air_time"
        else:
            xy, heading = s.point(total if facts.outcome == "completed" and distance >= math.floor(total + 1e-6)
                                  else float(distance))
            pose = Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), s.level_at(xy))
    if s.out:
        status = "out"
    if status in ("out", "crashed", "left_table"):
        air = None  # it came down against something, or is gone: no Air Time to carry
    speed = bike.speed if s.speed_after is None else min(bike.speed, s.speed_after)
    new_bike = dataclasses.replace(bike, pose=pose, stress=s.stress, wounds=s.wounds, speed=speed,
                                   out_of_game=bike.out_of_game or s.out,
                                   skip_next_action=bike.skip_next_action or s.skip_action,
                                   skip_next_activation=bike.skip_next_activation or s.skip_activation)
    s.events.sort(key=lambda e: e.t_s)
    return Snapped(new_bike, int(distance), status, tuple(s.events), s.moved, air)
