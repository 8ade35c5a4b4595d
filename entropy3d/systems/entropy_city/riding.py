"""What the rules make of a ridden move: :func:`resolve_move`, called by
:func:`entropy3d.systems.entropy_city.transition.resolve`.

It reads the :class:`~entropy3d.core.facts.Facts` a producer found and decides, through the
clause-named deciders of :mod:`entropy3d.systems.entropy_city.events` (crash kind and test, destructibles, jumps,
the cliff edge) and :mod:`entropy3d.systems.entropy_city.dice` (tests, busts), every rule of the ride, then
places the model where the rules say.

Placement decisions:
- A ride that ends normally stops at a whole number of inches along its path (rounded to the
  nearest inch, never past the plan's end).
- A crash leaves the bike where the ride stopped: base to base with what it hit (EC-COL-HEAD).
  A side-on survivor stops there too and rides the rest of its activation at speed 1
  (EC-COL-SIDE: "speed is reduced to 1 for the purpose of the completed activation").
- A jump lands where option ``jump_landing`` says (EC-JUMP-4), on the level the producer found
  there; if that is past the end of the move it is still in the air (EC-JUMP-2) and comes down
  in the model's next action.
- A failed destructible test (EC-DEST-3): the ride is cut at the piece and the rules set a
  forced move, 2" along its speed's template turned away from the piece, then straight on for
  the rest of the move, which the caller rides like any other move (``ModelState.forced_move``).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.core.facts import Contact, Facts, Flight, SceneryHit
from entropy3d.core.scenery import ScenerySpot
from entropy3d.geometry import Pose, normalize_deg
from entropy3d.systems.entropy_city import missions, stopped_guns, stress_traits, trait_tests, traps
from entropy3d.systems.entropy_city.conditions import stun_tn_mod
from entropy3d.systems.entropy_city.dice import Outcome, TestRoll, policy_named, resolve_bust
from entropy3d.systems.entropy_city.events import (
    HEAD_ON,
    resolve_cliff_edge,
    resolve_crash,
    resolve_destructible,
    resolve_jump,
    takes_off,
)
from entropy3d.systems.entropy_city.plan import STOPS
from entropy3d.systems.entropy_city.planner import PlannedMove
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, AirTime, ModelState, State
from entropy3d.systems.entropy_city.stopped_guns import OVERWATCH, RELOAD

WALL_KINDS = ("building", "block", "platform", "pillar", "railing", "ramp", "mesh", "destructible")


def full_distance_in(move: PlannedMove, ruleset: Ruleset) -> float:
    """The move's full movement: its speed's maximum, doubled for gung-ho (EC-ACT-GUNGHO)."""
    gungho = move.plan.action == "gungho"
    return move.band.max * (float(ruleset.data("actions.gungho.distance_multiplier")) if gungho else 1.0)


#: inches: a flight that came down this near height 0 came down on the table top (a base sinks a
#: hair into what it lands on, and roads and curbs stand a hundredth of an inch proud)
TABLE_TOP_IN = 0.05


def _level_words(z_in: float) -> str:
    """Where physics says a flight came down: the table top, or the height of the level."""
    return "the table top" if abs(z_in) < TABLE_TOP_IN else f"the {z_in:.1f}\" level"


@dataclass
class _Ride:
    """The model's numbers while the rules walk through one ride's facts."""

    model: ModelState
    move: PlannedMove
    facts: Facts | None
    ruleset: Ruleset
    rng: np.random.Generator
    push: str
    stress: int = 0
    wounds: int = 0
    out: bool = False
    skip_action: bool = False
    busts: int = 0
    unstunned: bool = False
    held_speed: int | None = None
    events: list[Event] = field(default_factory=list)
    scenery: dict[str, ScenerySpot] = field(default_factory=dict)

    def __post_init__(self):
        self.stress, self.wounds = self.model.stress, self.model.wounds
        self.policy = policy_named(self.push, self.ruleset)

    def event(self, kind: str, rules: str, physics: str = "", **more) -> None:
        producer = self.facts.producer if physics and self.facts is not None else ""
        self.events.append(Event(kind, self.model.id, rules, physics, producer, **more))

    def stun_tn_mod(self) -> int:
        """What the rider adds to every test's TN while still stunned (EC-COND-STUN)."""
        return 0 if self.unstunned else stun_tn_mod(self.model, self.ruleset)

    def tested(self, roll: TestRoll | None) -> None:
        """A stunned rider's first successful test removes the stun (EC-COND-STUN)."""
        if roll is not None and roll.succeeded and self.stun_tn_mod():
            self.unstunned = True

    def traits(self, kind: str) -> trait_tests.TestMods:
        """What the rider's traits do to its test of ``kind`` at its stress now (EC-TRAIT)."""
        return trait_tests.test_mods(self.model.but(stress=self.stress), kind, self.ruleset)

    def test(self, tn: int) -> TestRoll:
        """A test of the rider's: +3 TN while stunned, which the first success removes (EC-COND-STUN);
        with what its traits do to a ride's test (EC-TRAIT)."""
        roll = trait_tests.rider_test(self.model, trait_tests.RIDE, tn + self.stun_tn_mod(), self.stress, self.rng,
                                      self.ruleset, self.policy)
        self.tested(roll)
        return roll

    def add_stress(self, change: int) -> int:
        """Stress the ride gives (Inebriated takes 1 off each, EC-TRAIT); returns the change made."""
        before = self.stress
        self.stress = max(0, self.stress + stress_traits.ride_stress(self.model, change, self.ruleset))
        return self.stress - before

    def slow_down(self) -> None:
        """An inebriated rider's test to ride slower (EC-TRAIT): failed, its speed stays and it
        takes the stress (the trait's DECISION in the rules data)."""
        move = self.move
        tn, stress = stress_traits.slow_down_test(self.model, move.speed, move.plan.walking, self.ruleset)
        if not tn:
            return
        roll = self.test(tn)
        change = self.add_stress(roll.stress_change + (0 if roll.succeeded else stress))
        if not roll.succeeded:
            self.held_speed = self.model.speed
        self.event("test", f"inebriated, slowing from speed {self.model.speed} to {move.speed}: TN {tn} (EC-TRAIT), "
                   f"{roll_text(roll)}" + ("" if roll.succeeded else f": stays at speed {self.model.speed}")
                   + (f", stress {change:+d}" if change else ""), clauses=("EC-TRAIT",), rolls=(roll,),
                   stress_change=change, figures={"tn": tn, "held_speed": self.held_speed})
        if roll.outcome is Outcome.BUST:
            self.bust(0.0, None, "")

    def bust(self, t_s: float, piece: str | None, why: str) -> None:
        """The crash sequence (EC-DICE-4): a wound lost, then the remount test."""
        mods = self.traits(trait_tests.REMOUNT)
        result = resolve_bust(self.wounds, self.stress, self.rng, self.ruleset, self.policy, self.model.max_stress,
                              mods.bonus, mods.optional, mods.tn)
        self.wounds, self.out, self.skip_action = result.wounds_after, result.out_of_game, result.skip_next_action
        self.busts += 1
        if result.remount is None:
            verdict = "no wounds left: out of the game"
        else:
            verdict = (f"loses a wound ({result.wounds_after} left), remount TN {result.remount.tn} "
                       f"{roll_text(result.remount)}" + (": out of the game" if result.out_of_game
                                                         else ": back on, skips its next action"))
        self.event("bust", f"bust (EC-DICE-4): {verdict}", physics=why, clauses=result.clauses,
                   rolls=(result.remount,) if result.remount else (), piece=piece, t_s=t_s,
                   figures={"wounds_after": result.wounds_after, "out_of_game": result.out_of_game})

    # -- the plan's own costs ------------------------------------------------------------------

    def plan_costs(self) -> None:
        """Instant stress and the template tests, rolled before the ride (EC-TMPL-2); first an
        inebriated rider's test to slow down (EC-TRAIT)."""
        self.slow_down()
        if self.busts:
            return
        move = self.move
        change = self.add_stress(move.stress)
        pace = "walked on foot" if move.plan.walking else f"at speed {move.speed}"
        self.event("move", f"{move.plan}: {move.length_in:g}\" {pace}"
                   + (f", stress {change:+d}" if change else ""), clauses=move.clauses, stress_change=change,
                   figures={"length_in": move.length_in, "speed": move.speed,
                            **({"walked": True} if move.plan.walking else {})})
        for required in move.tests:
            roll = self.test(required.tn)
            extra = required.stress_on_fail if roll.outcome is Outcome.FAIL else 0
            change = self.add_stress(roll.stress_change + extra)
            self.event("test", f"{required.reason}: TN {required.tn} ({required.clause}), {roll_text(roll)}"
                       + (f", stress {change:+d}" if change else ""), clauses=(required.clause,), rolls=(roll,),
                       stress_change=change, figures={"tn": required.tn})
            if roll.outcome is Outcome.BUST:
                self.bust(0.0, None, "")
                return

    # -- the ride ------------------------------------------------------------------------------

    def destructible(self, hit: SceneryHit) -> bool:
        """Through a destructible (EC-DEST-*); False when the rules make it a solid obstacle."""
        move = self.move
        full = abs(move.length_in - full_distance_in(move, self.ruleset)) < 1e-6
        mods = self.traits(trait_tests.RIDE)
        result = resolve_destructible(move.speed, full, hit.risk, self.stress, self.ruleset, self.rng, self.policy,
                                      self.model.max_stress, tn_mod=self.stun_tn_mod() + mods.tn, bonus=mods.bonus,
                                      optional=mods.optional)
        self.tested(result.roll)
        found = f"went into destructible '{hit.piece_id}' at {hit.progress_in:.1f}\""
        knocked = math.hypot(*hit.pushed)
        if hit.broken:
            found += ", smashed it"
        elif knocked > 0.05:
            found += f", knocked it {knocked:.1f}\""
        if not result.eligible:
            self.event("destructible", f"not full movement at speed 2+: a solid obstacle ({', '.join(result.clauses)})",
                       physics=found, clauses=result.clauses, piece=hit.piece_id, t_s=hit.t_s)
            return False
        roll = result.roll
        added = self.add_stress(result.stress_added + roll.stress_change)
        figures = {"risk": hit.risk, "tn": result.tn, "item_moved_in": result.item_moved_in,
                   "forced_turn_in": result.forced_turn_in}
        if roll.succeeded:
            room = None if self.facts is None or self.facts.knock_room is None else \
                self.facts.knock_room.get(hit.piece_id)
            direction, moved_in, way = knocked_direction(hit, self.ruleset, result.item_moved_in, room)
            old = self.scenery.get(hit.piece_id, ScenerySpot())
            shift = direction * moved_in
            spot = ScenerySpot(old.dx + float(shift[0]), old.dy + float(shift[1]), old.turn_deg, False)
            self.scenery[hit.piece_id] = spot
            stopped = "" if moved_in == result.item_moved_in else f", stopped after {moved_in:g}\" by what it met"
            verdict = f"the piece is moved {result.item_moved_in:g}\" {way}{stopped} (EC-DEST-4)"
            figures["item_moved_to"] = [spot.dx, spot.dy]
            if way == "on ahead of the rider":  # only then: the words say where it went (others keep their bytes)
                figures["knocked_ahead"] = True
        else:
            verdict = f"the opponent turns the bike {result.forced_turn_in:g}\" and it carries on (EC-DEST-3)"
        self.event("destructible", f"risk {hit.risk}: +{result.stress_added} stress, TN {result.tn}, "
                   f"{roll_text(roll)} -> {verdict}", physics=found, clauses=result.clauses, rolls=(roll,),
                   piece=hit.piece_id, t_s=hit.t_s, stress_change=added, figures=figures)
        if roll.outcome is Outcome.BUST:
            self.bust(hit.t_s, hit.piece_id, f"failed the test at '{hit.piece_id}'")
        return True

    def crash(self, contact: Contact) -> tuple[str, bool]:
        """An unavoidable impact (EC-COL-1); returns (head_on or side_on, survived)."""
        dodge = trait_tests.dodge_stat(self.model, trait_tests.CRASH, self.ruleset)
        stunned = self.stun_tn_mod()
        mods = self.traits(trait_tests.CRASH)
        result = resolve_crash(contact.heading_deg, contact.into_deg, dodge, self.stress, self.ruleset, self.rng,
                               self.policy, self.model.max_stress, tn_mod=stunned + mods.tn, bonus=mods.bonus,
                               optional=mods.optional)
        self.tested(result.roll)
        what = "wall" if contact.kind in WALL_KINDS else contact.kind
        found = f"rode {contact.progress_in:.1f}\" then hit {what} '{contact.piece_id}' at {contact.angle_deg:.0f}°"
        name = "head-on" if result.kind == HEAD_ON else "side-on"
        base_tn = int(self.ruleset.data(f"crash.{result.kind}.tn_base"))
        text = (f"{name} crash ({result.clauses[1]}), TN {base_tn}-{dodge}" + (f"+{stunned} stunned" if stunned else "")
                + (f"{mods.tn:+d} trait" if mods.tn else "")
                + f"={result.tn}, {roll_text(result.roll)}")
        if result.survived:
            added = self.add_stress(result.roll.stress_change + result.stress_added)
            text += f" -> +{result.stress_added} stress, " + (
                "stops base to base, skips its next activation" if result.kind == HEAD_ON
                else f"speed {result.speed_after} for the rest of the activation")
        else:
            added = self.add_stress(result.roll.stress_change)
            text += " -> bust"
        self.event("crash", text, physics=found, clauses=result.clauses, rolls=(result.roll,),
                   piece=contact.piece_id, t_s=contact.t_s, stress_change=added,
                   figures={"kind": result.kind, "tn": result.tn, "dodge": dodge,
                            "angle_deg": contact.angle_deg, "survived": result.survived})
        if not result.survived:
            self.bust(contact.t_s, contact.piece_id, f"crashed into '{contact.piece_id}'")
        return result.kind, bool(result.survived)

    def jump(self, flight: Flight) -> float | None:
        """A flight off a ramp or a level's edge; returns the rules' landing distance along the
        path (None: not a jump, the bike rides on)."""
        facts = self.facts
        air_s = (flight.land_t_s if flight.landed else facts.trajectory[-1, 0]) - flight.launch_t_s
        found = (f"left {'the ramp' if flight.from_kind == 'ramp' else repr(flight.from_piece or 'the ground')} "
                 f"at {flight.launch_progress_in:.1f}\", {air_s:.2f}s in the air, {flight.rise_in:.2f}\" up"
                 + (f", came down at {flight.land_progress_in:.1f}\" on {_level_words(flight.land_z)}"
                    if flight.landed else ", still in the air"))
        if not takes_off(flight.from_kind, flight.drop_in, self.ruleset):
            return None  # a bump off a curb is no jump (EC-JUMP-1)
        result = resolve_jump(self.move.speed, self.model.bike_type, self.ruleset)
        if not result.air_time:
            self.event("jump", f"speed {self.move.speed}: no air time (EC-JUMP-1)", physics=found,
                       clauses=result.clauses, t_s=flight.launch_t_s, figures={"air_time": False})
            return None
        if self.ruleset.option("jump_landing") == "where_it_comes_down" and flight.landed:
            landing = float(flight.land_progress_in)
            how = f"lands where it came down, {landing - flight.launch_progress_in:.1f}\" on"
        else:
            landing = flight.launch_progress_in + result.landing_distance_in
            how = f"lands {result.landing_distance_in:g}\" from take-off (EC-JUMP-4)"
        xy, level = facts.level_at(landing)
        self.event("jump", f"air time at speed {self.move.speed}: {how} on the {level:.2f}\" level",
                   physics=found, clauses=result.clauses, t_s=flight.launch_t_s,
                   figures={"air_time": True, "launch_in": flight.launch_progress_in, "landing_in": landing,
                            "physical_landing_in": flight.land_progress_in, "landing_xy": list(xy),
                            "landing_level_in": level})
        return landing

    def edge(self) -> None:
        facts = self.facts
        found = f"rode over the {facts.edge} table edge"
        if facts.edge_kind == "cliff":
            result = resolve_cliff_edge()
            self.out = result.out_of_game
            self.event("cliff_edge", "over the cliff: automatic bust, out of the game (EC-COL-EDGE)", physics=found,
                       clauses=result.clauses, t_s=float(facts.trajectory[-1, 0]), figures={"edge": facts.edge})
        else:
            self.event("left_table", "off an open edge: it leaves the table", physics=found,
                       t_s=float(facts.trajectory[-1, 0]), figures={"edge": facts.edge})


def _along(move: PlannedMove, facts: Facts, distance: float) -> tuple[np.ndarray, float, float]:
    """(x, y), heading and level at ``distance`` along the move's path (straight on past its end)."""
    path = move.path
    steps = np.hypot(*np.diff(path, axis=0).T) if len(path) > 1 else np.zeros(0)
    lengths = np.concatenate([[0.0], np.cumsum(steps)])
    xy, level = facts.level_at(distance)
    if distance <= lengths[-1]:
        k = int(np.clip(np.searchsorted(lengths, distance), 0, len(lengths) - 1))
        heading = float(move.headings_deg[k])
        if k > 0 and lengths[k] > lengths[k - 1]:
            f = (distance - lengths[k - 1]) / (lengths[k] - lengths[k - 1])
            xy = path[k - 1] + f * (path[k] - path[k - 1])
        else:
            xy = path[k]
    else:
        heading = float(move.headings_deg[-1])
        xy = path[-1] + (distance - lengths[-1]) * np.array([math.cos(math.radians(heading)),
                                                              math.sin(math.radians(heading))])
    return np.asarray(xy, float), heading, level


def knocked_direction(hit: SceneryHit, ruleset: Ruleset, distance_in: float = 0.0,
                      room_in: tuple[float, float, float] | None = None) -> tuple[np.ndarray, float, str]:
    """Which way and how far (inches) a piece a rider passed its test on moves, and the words for
    it (EC-DEST-4: "it moves speedx2 inches in any direction you desire"; option ``knocked_piece``).

    aside: the rider knocks it square to its heading, to the side of its line the piece stood on
    (``hit.side``), or to the other side when that has room for ``distance_in`` and this one
    has not, or straight ahead when neither side has (a line of sawhorses across a street: the
    one gone through can only fly on). ``room_in`` is the table's (left, right, ahead) room,
    :func:`entropy3d.table_answers.knock_rooms`; None (no table asked): as if there were room.
    DECISION: with room for the full distance nowhere, it goes the way with the most room and
    stops there, against what it meets, rather than into a wall or another piece.
    along: the way the producer saw it knocked (``hit.pushed``), else the heading, the full distance."""
    heading = math.radians(hit.heading_deg)
    if ruleset.option("knocked_piece") == "along":
        pushed = np.array(hit.pushed, float)
        direction = pushed if math.hypot(*pushed) > 0.05 else np.array([math.cos(heading), math.sin(heading)])
        return direction / np.linalg.norm(direction), distance_in, "the way it was knocked"
    left = np.array([-math.sin(heading), math.cos(heading)])
    other = "right" if hit.side == "left" else "left"
    ways = {"left": left, "right": -left, "ahead": np.array([math.cos(heading), math.sin(heading)])}
    words = {"left": "aside to the rider's left", "right": "aside to the rider's right",
             "ahead": "on ahead of the rider"}
    if room_in is None:
        return ways[hit.side], distance_in, words[hit.side]
    room = dict(zip(("left", "right", "ahead"), room_in))
    roomy = [way for way in (hit.side, other, "ahead") if room[way] >= distance_in]
    way = roomy[0] if roomy else max((hit.side, other, "ahead"), key=lambda w: room[w])
    return ways[way], min(distance_in, room[way]), words[way]


def _forced_turn_plan(model: ModelState, move: PlannedMove, hit: SceneryHit, ruleset: Ruleset) -> str:
    """The rest of a move after a failed destructible test (EC-DEST-3): 2" along the speed's
    template, turned away from the piece's side of the bike, then straight on."""
    spec = ruleset.data("destructible")
    template = ruleset.data("turn_templates.default_for_speed")[move.speed]
    turn_in = float(spec["forced_turn_in"])
    side = "right" if hit.side == "left" else "left"
    rest = int(math.floor(move.length_in - hit.progress_in - turn_in + 1e-6))
    return f"s{move.speed}: {side} {template} {turn_in:g}" + (f", straight {rest}" if rest >= 1 else "")


def resolve_move(state: State, model: ModelState, move: PlannedMove, push: str, facts: Facts | None,
                 rng: np.random.Generator, ruleset: Ruleset, *, counts_as_action: bool = True
                 ) -> tuple[State, list[Event]]:
    """Apply a checked move of ``model`` and what the producer found riding it (``facts``)."""
    ride = _Ride(model, move, facts, ruleset, rng, push, scenery=dict(state.scenery))  # a knock starts where it lies
    ride.plan_costs()
    per_activation = int(ruleset.data("turn.actions_per_activation"))
    changes: dict = {}
    if ride.busts or facts is None:
        pose = model.pose  # busted before riding: it stays where it stood
        status_end = "bust"
    else:
        pose, status_end, changes = _ride(ride, model, move, facts)
    actions = model.actions_taken + (1 if counts_as_action else 0)
    if move.plan.action == "gungho":
        actions = per_activation  # the whole activation (EC-ACT-GUNGHO)
    stunted = move.plan.action == "stunt" and any(
        "EC-ACT-STUNT" in e.clauses and e.rolls and e.rolls[0].succeeded for e in ride.events)
    speed = move.speed if ride.held_speed is None else ride.held_speed  # EC-TRAIT: Inebriated
    fields = dict(pose=pose, stress=ride.stress, wounds=ride.wounds, speed=speed, actions_taken=actions,
                  stunt_set_up=stunted, shocking=model.stunt_set_up and counts_as_action,
                  sand_free_available=model.sand_free_available and not move.sand_free_used,
                  forced_speed=move.next_action_speed, forced_move=None, forced_through=None,
                  overwatch_push=None, overwatch_renewed=False, reloading=False,  # a move ends a watch
                  skip_next_action=model.skip_next_action or ride.skip_action)
    if "stunned" in model.conditions:
        # a stunned rider's activation ends after its minimum move; a success cleared the stun (EC-COND-STUN)
        fields["actions_taken"] = per_activation
        if ride.unstunned:
            fields["conditions"] = tuple(c for c in model.conditions if c != "stunned")
    fields.update(changes)
    new = model.but(**fields)
    new = _complex_action(new, move, actions, per_activation, ride)
    laid = None
    if move.plan.action == "laytrap" and new.stopped and model.traps_carried:
        # the trap goes down where this last Lay Trap action started (EC-ACT-LAYTRAP, EC-TRAP)
        state, new, more = traps.lay(state, new, move.start_pose, rng, ruleset)
        ride.events.extend(more)
        laid = state.traps[-1].id
    if facts is not None and new.in_play and new.air is None and state.traps:
        state = state.with_model(new)
        for trap in traps.crossed(state, new, facts.trajectory[:, 1:3], ruleset, skip=laid):
            state, more = traps.spring(state, new.id, trap, push, rng, ruleset)
            ride.events.extend(more)
            new = state.model(new.id)
            if not new.in_play:
                break
    if ride.out:
        new = new.but(status=OUT, air=None, forced_move=None)
    elif status_end == "escaped":
        new = new.but(status=ESCAPED, air=None, forced_move=None)
    state = state.with_model(new).with_scenery(ride.scenery)
    for _ in range(ride.busts):
        state = missions.score_bust(state, new, ruleset)
    if new.status == OUT:
        state = missions.score_taken_out(state, new, None, ruleset)
    if new.status == ESCAPED:
        points = missions.escape_points(state, new, ruleset)
        state = missions.score_escaped(state, new, ruleset)
        if points:  # the ride off says what it scored, for the words and the film (Lovers Point Brawl)
            ride.events = [dataclasses.replace(e, figures={**e.figures, "points": points, "gangs": [new.gang]})
                           if e.kind == "left_table" and e.model == new.id else e for e in ride.events]
    return state, ride.events


def _complex_action(model: ModelState, move: PlannedMove, actions: int, per_activation: int, ride: _Ride
                    ) -> ModelState:
    """Stop and lay trap span the activation (EC-ACT-STOP, EC-STOP-RECOVER, EC-ACT-LAYTRAP, EC-STOPPED).
    A rider still in the air at the end of the move neither stops nor lays its trap: it has to land
    first, at its launch speed (EC-JUMP-2, EC-JUMP-4)."""
    action = move.plan.action
    if action in STOPS + ("laytrap",) and model.air is not None:
        clause = "EC-ACT-LAYTRAP" if action == "laytrap" else "EC-ACT-STOP"
        ride.event("skip", f"still in the air at the end of the move: no {'trap' if action == 'laytrap' else action} "
                   f"({clause}, EC-JUMP-2)", clauses=(clause, "EC-JUMP-2"))
        return model.but(complex_action=None)
    if action in (OVERWATCH, RELOAD):
        # a stopped action with the gun instead of recovering (EC-ACT-STOP, EC-GUN-STOPPED, EC-STOPPED)
        after, said = stopped_guns.stopped(model, action, ride.push, ride.ruleset)
        ride.events.append(said)
        return after.but(speed=0, stopped=True, recovering=False, skip_next_activation=True,
                         actions_taken=per_activation, complex_action="stop")
    if action == "stop":
        # A stopping rider recovers: the following action is skipped and its skipped activation
        # recovers stress, unless it takes a focussed shot with its gun (EC-GUN-STOPPED).
        ride.event("skip", "stopped (EC-ACT-STOP): recovers, so its following action is skipped and its next "
                   "activation is spent recovering (EC-STOP-RECOVER, EC-STOPPED)",
                   clauses=("EC-ACT-STOP", "EC-STOP-RECOVER", "EC-STOPPED"))
        return model.but(speed=0, stopped=True, recovering=True, skip_next_activation=True,
                         actions_taken=per_activation, complex_action="stop")
    if action == "laytrap":
        if actions >= per_activation:
            ride.event("skip", "trap laid: stopped, skips its next activation (EC-ACT-LAYTRAP, EC-STOPPED)",
                       clauses=("EC-ACT-LAYTRAP", "EC-STOPPED"))
            return model.but(speed=0, stopped=True, skip_next_activation=True, complex_action="laytrap")
        return model.but(speed=move.speed, complex_action="laytrap")
    return model


def stopped_short_in(facts: Facts) -> float:
    """How far along its path (inches) the rules leave a ride the producer stopped short with no
    crash: the whole inches it got, rounded, never past the path's end. :func:`_ride` stops it
    there and :func:`end_poses` offers it to the table, so both read this one figure."""
    return float(min(round(facts.progress_in), math.floor(float(facts.path_length_in) + 1e-6)))


def end_poses(model: ModelState, move: PlannedMove, facts: Facts) -> list[Pose]:
    """Every pose :func:`resolve_move` may leave ``model`` at on the table after riding ``move``
    (``facts``), in the air aside: where it stood (busted before it moved), where the producer
    stopped it, and the points of the path (:func:`_along`) at its end, at the whole inches it
    got, and where each contact and destructible was met. The table is asked where a bike left
    at each may rest before resolve (:func:`entropy3d.table_answers.rests_of_ride`)."""
    total = float(facts.path_length_in)
    distances = [total, stopped_short_in(facts)]
    distances += [c.progress_in for c in facts.contacts] + [h.progress_in for h in facts.scenery]
    poses = [model.pose, facts.end_pose]
    for distance in dict.fromkeys(distances):
        xy, heading, level = _along(move, facts, distance)
        poses.append(Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), level))
    return list(dict.fromkeys(poses))


def _ride(ride: _Ride, model: ModelState, move: PlannedMove, facts: Facts
          ) -> tuple[Pose, str, dict]:
    """Walk the facts in time order; returns the rules' end pose, how it ended and field changes."""
    ruleset = ride.ruleset
    changes: dict = {}
    total = float(facts.path_length_in)
    landing: float | None = None  # where the jump in progress comes down, inches along this path
    jump_speed = 0
    windows: list[tuple[float, float]] = []  # stretches of the path the rules have it in the air
    if model.air is not None:
        landing, jump_speed = model.air.carry_in, model.air.speed
        windows.append((0.0, landing))
        if landing <= total + 1e-6:
            xy, level = facts.level_at(landing)
            ride.event("landing", f"comes down {landing:.1f}\" on, the rest of its speed {jump_speed} jump "
                       f"(EC-JUMP-2, EC-JUMP-4), on the {level:.2f}\" level",
                       physics="it flew on from its last action", clauses=("EC-JUMP-2", "EC-JUMP-4"),
                       figures={"landing_in": landing, "landing_xy": list(xy), "landing_level_in": level})

    def airborne(progress: float) -> bool:
        return any(a <= progress < b for a, b in windows)

    crash: Contact | None = None
    cut: SceneryHit | None = None
    flown_over = False
    carried_flight = [f for f in facts.flights if model.air is not None and f.launch_t_s == 0.0]
    timeline = sorted([(f.launch_t_s, 0, k, f) for k, f in enumerate(facts.flights) if f not in carried_flight]
                      + [(h.t_s, 1, k, h) for k, h in enumerate(facts.scenery)]
                      + [(c.t_s, 2, k, c) for k, c in enumerate(facts.contacts)], key=lambda row: row[:3])
    for _, _, _, item in timeline:
        if ride.out or crash is not None or cut is not None:
            break
        if isinstance(item, Flight):
            jumped = ride.jump(item)
            if jumped is not None:
                landing, jump_speed = jumped, move.speed
                windows.append((item.launch_progress_in, jumped))
        elif isinstance(item, SceneryHit):
            if item.piece_id == model.forced_through:
                continue  # the piece it is going through (EC-DEST-3)
            if airborne(item.progress_in):
                ride.event("jump", f"in the air: it flies over '{item.piece_id}' (EC-JUMP-4)",
                           physics=f"went into '{item.piece_id}' at {item.progress_in:.1f}\"", clauses=("EC-JUMP-4",),
                           piece=item.piece_id, t_s=item.t_s)
                continue
            if not ride.destructible(item):
                crash = Contact(item.piece_id, "destructible", item.progress_in, item.t_s, item.heading_deg,
                                item.heading_deg, (0.0, 0.0, 0.0))
            elif not ride.out and not ride.events[-1].rolls[-1].succeeded:
                cut = item  # EC-DEST-3: the opponent turns it here
        elif item.kind in ("model", "wreck", "destructible") and airborne(item.progress_in):
            ride.event("jump", f"in the air: it flies over '{item.piece_id}' (EC-JUMP-4)",
                       physics=f"met '{item.piece_id}' at {item.progress_in:.1f}\"", clauses=("EC-JUMP-4",),
                       piece=item.piece_id, t_s=item.t_s)
            flown_over = True  # the producer's ride stopped here; the rules' bike flew on
        else:
            crash = item

    if crash is not None and not ride.out:
        kind, survived = ride.crash(crash)
        if crash is facts.first_contact:
            pose = facts.end_pose
        else:
            xy, heading, level = _along(move, facts, crash.progress_in)
            pose = Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), level)
        if survived and kind == HEAD_ON:
            changes.update(speed=0, stopped=True, skip_next_activation=True,
                           actions_taken=int(ruleset.data("turn.actions_per_activation")))
        elif survived:
            cap = int(ruleset.data("crash.side_on.speed_after"))
            changes.update(speed=min(move.speed, cap), speed_cap=cap)
        changes["air"] = None
        return pose, "crashed", changes
    if cut is not None:
        xy, heading, level = _along(move, facts, cut.progress_in)
        changes["forced_move"] = _forced_turn_plan(model, move, cut, ruleset)
        changes["forced_through"] = cut.piece_id
        changes["air"] = None
        return Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), level), "cut", changes
    if facts.edge is not None and not ride.out:
        ride.edge()
        return facts.end_pose, ("out" if ride.out else "escaped"), {"air": None}
    if ride.out:
        return facts.end_pose, "out", {"air": None}

    if landing is not None and landing > total + 1e-6:
        # still in the air at the end of the move (EC-JUMP-2): it comes down in its next action
        xy, heading, _ = _along(move, facts, total)
        z = max(float(facts.end_pose.z), facts.level_at(total)[1])
        changes["air"] = AirTime(jump_speed, landing - total, tuple(facts.end_velocity_in_s))
        # the level it comes down on, for a reader of this move alone (a flight over the whole move
        # has no jump or landing event in it: the cards' REF-ELEV reads its levels from this)
        ride.event("jump", f"{landing - total:.1f}\" still to fly at the end of the move: in the air (EC-JUMP-2)",
                   clauses=("EC-JUMP-2",), t_s=float(facts.trajectory[-1, 0]),
                   figures={"carry_in": landing - total, "landing_level_in": facts.level_at(landing)[1]})
        return Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), z), "air", changes
    changes["air"] = None
    distance = total if facts.completed or flown_over else stopped_short_in(facts)
    xy, heading, level = _along(move, facts, distance)
    return Pose(float(xy[0]), float(xy[1]), normalize_deg(heading), level), "rode", changes


def resolve_skip(state: State, model: ModelState, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """A forced pass of one action: remounting after a bust (EC-DICE-4)."""
    new = model.but(skip_next_action=False, actions_taken=model.actions_taken + 1)
    return state.with_model(new), [Event("skip", model.id, "remounting after a bust: skips this action (EC-DICE-4)",
                                         clauses=("EC-DICE-4",))]

