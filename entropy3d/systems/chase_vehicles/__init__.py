"""Chase & vehicle rules (seed 001) as a game system: vehicles on the tabletop and rams.

SW-VEH-1: a vehicle moves 12" freely; further (up to 24") it needs a maneuvering roll at -1..-4
for difficult ground, tight turns and hazards met on the ride; failure moves it only 12".
SW-VEH-2: a Critical Failure sends it Out of Control (the 2d6 table); a collision result moves
it into the nearest obstacle the table finds. SW-RAM: each side of a ram deals its Scale's dice,
+d6 to the tougher (+2d6 twice as tough), +d6 to both when the attacker's Top Speed (its
``top_speed_mph`` stat) is 60-120 MPH (+2d6 over 120); the impact speed the physics measured is
told as a fact. Every number and table is in ``rules/chase_vehicles.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

import numpy as np
from pydantic import Field, model_validator

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.systems.base import GameSystem, Imported, SystemData, SystemRules
from entropy3d.systems.readings import Impact, RiddenMove

#: miles per hour in one metre per second
MPH_PER_M_S = 2.2369362920544
#: a die is rerolled and added at most this many times (a run of aces this long is 1 in 6^10)
MAX_ACES = 10
Scale = Literal["small", "normal", "large", "huge", "gargantuan"]


class TabletopRules(SystemData):
    free_move_in: float = Field(gt=0)
    max_move_in: float = Field(gt=0)
    difficult_ground_penalty: int = Field(le=0)
    long_difficult_ground_in: float = Field(gt=0)
    tight_turn_penalty: int = Field(le=0)
    hazard_penalty: int = Field(le=0)
    max_penalty: int = Field(le=0)
    difficult_ground: list[str]
    difficult_min_in: float = Field(ge=0)
    hazards: list[str]
    tight_turn_deg: float = Field(gt=0, le=180)
    tight_turn_within_in: float = Field(gt=0)


class RollRules(SystemData):
    tn: int = Field(ge=1)
    wild_die: int = Field(ge=2)


class OutOfControlRow(SystemData):
    low: int = Field(ge=2, le=12)
    high: int = Field(ge=2, le=12)
    collision: bool
    effect: str
    wounds: int = Field(0, ge=0, description="Wounds the vehicle takes (SW-DMG)")
    wound_die: int = Field(0, ge=0, description="or one die of these sides of Wounds (0: none)")
    critical_hit: bool = Field(False, description="it also rolls on the Vehicle Critical Hits table (SW-CRIT)")


class CriticalHitRow(SystemData):
    low: int = Field(ge=2, le=12)
    high: int = Field(ge=2, le=12)
    hit: Literal["none", "traction", "locomotion"] = Field(
        description="what the vehicle keeps: Handling -1 (traction), Top Speed -10% (locomotion) or nothing")
    effect: str


class CriticalHitRules(SystemData):
    top_speed_per_locomotion_hit: float = Field(gt=0, lt=1, description="share of Top Speed a Locomotion hit takes")
    min_top_speed: float = Field(gt=0, le=1, description="the least share of Top Speed left")
    table: list[CriticalHitRow]


class SpeedBand(SystemData):
    """SW-RAM: the dice to both sides of a ram from the attacker's Top Speed, MPH: from
    ``from_mph`` on (inclusive), or strictly ``over_mph``; exactly one of the two."""

    from_mph: float | None = Field(None, gt=0, description="the band's least Top Speed, MPH, itself included")
    over_mph: float | None = Field(None, gt=0, description="the Top Speed the band is over, MPH, itself excluded")
    dice: int = Field(ge=0)

    @model_validator(mode="after")
    def _one_bound(self):
        if (self.from_mph is None) == (self.over_mph is None):
            raise ValueError("a speed band gives from_mph or over_mph, not both or neither")
        return self

    def holds(self, mph: float) -> bool:
        """Whether a Top Speed of ``mph`` is in the band."""
        return mph >= self.from_mph if self.from_mph is not None else mph > self.over_mph


class RamRules(SystemData):
    scale_dice: dict[Scale, int]
    tougher_dice: int = Field(ge=0)
    twice_as_tough_dice: int = Field(ge=0)
    speed_bands: list[SpeedBand]
    default_top_speed_mph: float = Field(gt=0, description="the Top Speed of a vehicle whose stats give none, MPH")


class DrivingRules(SystemData):
    turn_radius_in: dict[Literal["tight", "medium", "wide"], float] = Field(
        description="radius of each turn a drive may take, inches")
    path_spacing_in: float = Field(gt=0, le=1, description="densest spacing of a drive's path points, inches")
    back_from_wall_in: float = Field(ge=0, description="how far back along its ride a vehicle that ran into "
                                     "scenery stands from it, inches")

    @model_validator(mode="after")
    def _every_turn(self):
        missing = {"tight", "medium", "wide"} - set(self.turn_radius_in)
        if missing or any(r <= 0 for r in self.turn_radius_in.values()):
            raise ValueError(f"turn_radius_in needs tight, medium and wide, each > 0 (missing {sorted(missing)})")
        return self


class TurnRules(SystemData):
    initiative_die: int = Field(ge=2, description="the die each side rolls for the first activation (SW-TURN)")


class DamageRules(SystemData):
    raise_step: int = Field(ge=1, description="damage over the Toughness per raise, each a Wound (SW-DMG)")
    handling_per_wound: int = Field(le=0, description="Handling per Wound taken, on maneuvering rolls")
    max_handling_penalty: int = Field(le=0, description="the worst Handling from Wounds")
    wounds: dict[Scale, int] = Field(description="Wounds a vehicle of each Scale takes; one more wrecks it")


class MissionRules(SystemData):
    name: str = Field(description="the mission's name in the game state")
    escape_points: int = Field(ge=0, description="points for a fleeing vehicle off an open edge (SW-CHASE)")
    wreck_points: int = Field(ge=0, description="points to each other side for a Wrecked vehicle (SW-CHASE)")


class ChaseRules(SystemRules):
    """``rules/chase_vehicles.yaml``."""

    tabletop: TabletopRules
    maneuvering_roll: RollRules
    out_of_control: list[OutOfControlRow]
    ram: RamRules
    driving: DrivingRules
    turn: TurnRules
    damage: DamageRules
    critical_hits: CriticalHitRules
    mission: MissionRules

    @model_validator(mode="after")
    def _tables_cover_2d6(self):
        for name, rows in (("out_of_control", self.out_of_control), ("critical_hits.table", self.critical_hits.table)):
            covered = sorted(n for row in rows for n in range(row.low, row.high + 1))
            if covered != list(range(2, 13)):
                raise ValueError(f"{name} must cover each 2d6 total 2-12 once (covers {covered})")
        return self


class VehicleStats(SystemData):
    """A vehicle's own numbers in a chase scene (``stats:``)."""

    driving: Literal[4, 6, 8, 10, 12] = Field(6, description="the driver's maneuvering skill die (d4-d12)")
    scale: Scale = Field("normal", description="SW-RAM: small, normal, large, huge or gargantuan")
    toughness: int = Field(8, ge=1, le=60, description="SW-RAM: the vehicle's Toughness")
    flees: bool = Field(False, description="SW-CHASE: it tries to get away off an open table edge")
    top_speed_mph: float | None = Field(None, gt=0, le=2000, description=(
        "SW-RAM: the vehicle's Top Speed, MPH (None: the rules data's ram.default_top_speed_mph)"))


@dataclass(frozen=True)
class ManeuverRoll:
    """A maneuvering roll: the skill die (its sides) and its rolls and the wild die's (each with
    its aces), the better total with the penalty, the target number, and the outcome."""

    skill_die: int
    skill: tuple[int, ...]
    wild: tuple[int, ...]
    penalty: int
    total: int
    tn: int
    outcome: Literal["success", "failure", "critical failure"]
    wild_die: int = 6

    @property
    def rolls(self) -> tuple[DiceRoll, DiceRoll]:
        """The skill die's roll and the wild die's, each with its aces and the penalty against the
        target number (the better of them counts: ``total`` and ``outcome`` say how it went)."""
        return (DiceRoll.against("maneuvering roll, skill die", self.skill, self.tn, self.skill_die, self.penalty),
                DiceRoll.against("maneuvering roll, wild die", self.wild, self.tn, self.wild_die, self.penalty))

    def __str__(self) -> str:
        return (f"d{self.skill_die} {'+'.join(map(str, self.skill))}, wild die {'+'.join(map(str, self.wild))}, "
                f"{self.penalty:+d} = {self.total} vs {self.tn}: {self.outcome}")


@dataclass(frozen=True)
class MoveVerdict:
    """What SW-VEH-1 and SW-VEH-2 made of one ridden move: the events, the outcome (``free``
    within the free move, ``over`` past the most a vehicle moves, else the maneuvering roll's) and
    the Out of Control row (None when it stayed in control)."""

    events: tuple[Event, ...]
    outcome: str
    out_of_control: OutOfControlRow | None = None


def exploding(sides: int, rng: np.random.Generator) -> tuple[int, ...]:
    """One die of ``sides`` rolled, rolled again and added while it shows its highest face."""
    rolls = [int(rng.integers(1, sides + 1))]
    while rolls[-1] == sides and len(rolls) <= MAX_ACES:
        rolls.append(int(rng.integers(1, sides + 1)))
    return tuple(rolls)


class ChaseVehicles(GameSystem):
    """Vehicles on the tabletop and rams, from the rides the table measured."""

    name = "chase_vehicles"
    title = "Chase & vehicle rules"
    first_roll_words = "lead roll"
    mission_names = {"getaway": "The Getaway"}
    out_banner = "WRECKED"
    seed = "001"
    clause_prefix = "SW-"
    clauses = ("SW-VEH-1", "SW-VEH-2", "SW-RAM", "SW-TURN", "SW-DMG", "SW-CRIT", "SW-CHASE")
    turn_clauses = ("SW-TURN",)
    rules_file = "chase_vehicles"
    rules_schema = ChaseRules
    stats_schema = VehicleStats
    #: "Vehicles on the Tabletop": its scenes drive cars and vans (`vehicle:`) beside bikes
    drives_vehicles = True
    rules: ChaseRules
    ENGINE = "entropy3d.systems.chase_vehicles.engine:ChaseEngine"
    action_examples = ("drive: straight 12", "drive: left tight 3, straight 10")
    turns_on_templates = True  # its turns follow the table's templates' arcs (driving.turn_radius_in)
    #: "module:attribute" of the player factories, imported when asked for (they read the table)
    PLAYERS = {"auto": "entropy3d.systems.chase_vehicles.player:ChasePlayer"}

    #: its words, beside its engine (GameSystem.sentence)
    sentence = Imported("entropy3d.systems.chase_vehicles.sentences:sentence")
    film_caption = Imported("entropy3d.systems.chase_vehicles.sentences:film_caption")
    film_ranks_as = Imported("entropy3d.systems.chase_vehicles.sentences:film_ranks_as")

    def penalty(self, move: RiddenMove) -> tuple[int, list[str]]:
        """SW-VEH-1: the maneuvering penalty for what the ride met (-1 per kind, -1 more past the
        long stretch of difficult ground, at most ``max_penalty``) and the reasons."""
        rules = self.rules.tabletop
        terrain = dict(move.terrain_in)
        difficult = sum(inches for name, inches in terrain.items() if name in rules.difficult_ground)
        hazards = [name for name in terrain if name in rules.hazards] + list(move.scenery)
        turned = move.turned_deg(rules.tight_turn_within_in)
        total, reasons = 0, []
        if difficult >= rules.difficult_min_in:
            total += rules.difficult_ground_penalty
            reasons.append(f'{difficult:.1f}" of difficult ground')
            if difficult > rules.long_difficult_ground_in:
                total += rules.difficult_ground_penalty
        if turned > rules.tight_turn_deg:
            total += rules.tight_turn_penalty
            reasons.append(f"a tight turn ({turned:.0f}° within {rules.tight_turn_within_in:g}\")")
        if hazards:
            total += rules.hazard_penalty
            reasons.append(f"hazards ({', '.join(hazards)})")
        return max(total, rules.max_penalty), reasons

    def maneuvering_roll(self, skill_die: int, penalty: int, rng: np.random.Generator) -> ManeuverRoll:
        """The skill die and the wild die, each exploding; the better plus ``penalty`` against the
        target number; a critical failure when both first show 1 (rules data)."""
        rules = self.rules.maneuvering_roll
        skill, wild = exploding(skill_die, rng), exploding(rules.wild_die, rng)
        total = max(sum(skill), sum(wild)) + penalty
        outcome = ("critical failure" if skill[0] == 1 and wild[0] == 1
                   else "success" if total >= rules.tn else "failure")
        return ManeuverRoll(skill_die, skill, wild, penalty, total, rules.tn, outcome, rules.wild_die)

    def out_of_control(self, total: int) -> OutOfControlRow:
        """SW-VEH-2: the row of the Out of Control table for a 2d6 total."""
        return next(row for row in self.rules.out_of_control if row.low <= total <= row.high)

    def top_speed_mph(self, vehicle: VehicleStats) -> float:
        """SW-RAM: the vehicle's Top Speed (MPH): its stats', else the rules data's default."""
        return vehicle.top_speed_mph if vehicle.top_speed_mph is not None else self.rules.ram.default_top_speed_mph

    def ram_dice(self, attacker: VehicleStats, defender: VehicleStats,
                 top_speed_mph: float | None = None) -> tuple[int, int]:
        """SW-RAM: the d6s the attacker and the defender each deal: Scale, +1 (+2) to the side
        whose Toughness is higher (twice as high), and to both the dice of the speed band the
        attacker's Top Speed (MPH; ``top_speed_mph``, else its stats') is in: "+d6 to both sides
        if the attacker's Top Speed is between 60 and 120 MPH; +2d6 if it's over 120 MPH"."""
        ram = self.rules.ram
        mph = self.top_speed_mph(attacker) if top_speed_mph is None else top_speed_mph
        speed = max((band.dice for band in ram.speed_bands if band.holds(mph)), default=0)

        def tougher(mine: int, theirs: int) -> int:
            return ram.twice_as_tough_dice if mine >= 2 * theirs else ram.tougher_dice if mine > theirs else 0

        return (ram.scale_dice[attacker.scale] + tougher(attacker.toughness, defender.toughness) + speed,
                ram.scale_dice[defender.scale] + tougher(defender.toughness, attacker.toughness) + speed)

    def judge_moves(self, moves: Sequence[RiddenMove], stats: Mapping[str, Any],
                    rng: np.random.Generator) -> list[Event]:
        """SW-VEH-1 and SW-VEH-2 for each ridden move."""
        return [event for move in moves for event in self.judge_move(move, stats[move.model], rng).events]

    def judge_move(self, move: RiddenMove, vehicle: VehicleStats, rng: np.random.Generator,
                   handling: int = 0, declared_in: float | None = None,
                   stopped: RiddenMove | None = None) -> MoveVerdict:
        """SW-VEH-1: a move declared past the free move makes a maneuvering roll at the ride's
        penalty plus the vehicle's ``handling`` (SW-DMG, 0 or less); SW-VEH-2: a critical failure
        goes Out of Control. ``declared_in``: the inches the driver declared ("If a driver wants
        to go faster ... he ... must make a maneuvering roll"), owed even when something stopped
        the ride sooner; None: the inches ridden (``move.distance_in``). ``stopped``: the ride read
        only as far as the free move, where a Critical Failure leaves the vehicle: the Out of
        Control collision goes into the obstacle nearest to there (None: nearest the ride's end)."""
        rules = self.rules.tabletop
        wanted = move.distance_in if declared_in is None else declared_in
        found = f'rode {move.distance_in:.1f}"'
        if declared_in is not None and declared_in - move.distance_in > 0.5:  # stopped short, e.g. by a wall
            found += f' of the {declared_in:g}" declared'
        # how far it drove, for the film's words ("Rammer drives 12\""; without it, "turns on the spot")
        driven = {"length_in": round(move.distance_in, 4), "driven": True}
        if wanted <= rules.free_move_in:
            return MoveVerdict((Event("move", move.model, f'within {rules.free_move_in:g}": no maneuvering roll',
                                      found=found, clauses=("SW-VEH-1",), figures=driven),), "free")
        if wanted > rules.max_move_in:
            return MoveVerdict((Event("move", move.model, f'over the {rules.max_move_in:g}" a vehicle may move',
                                      found=found, clauses=("SW-VEH-1",), figures=driven),), "over")
        penalty, reasons = self.penalty(move)
        if handling:
            reasons.append(f"Handling {handling:+d} from its Wounds")
        roll = self.maneuvering_roll(vehicle.driving, penalty + handling, rng)
        why = f" ({'; '.join(reasons)})" if reasons else ""
        text = f"over {rules.free_move_in:g}\": maneuvering roll at {penalty + handling:+d}{why}: {roll}"
        figures = {"penalty": penalty + handling, "total": roll.total, "outcome": roll.outcome}
        if roll.outcome == "success":
            return MoveVerdict((Event("test", move.model, text + ": the move stands", found=found,
                                      clauses=("SW-VEH-1",), figures=figures, rolls=roll.rolls),), roll.outcome)
        if roll.outcome == "failure":
            return MoveVerdict((Event("test", move.model, text + f': it moves only {rules.free_move_in:g}"',
                                      found=found, clauses=("SW-VEH-1",), figures=figures, rolls=roll.rolls),),
                               roll.outcome)
        at = move if stopped is None else stopped
        crash, row = self.out_of_control_event(move.model, rng, at.nearest_obstacle, at.nearest_obstacle_in,
                                               "SW-VEH-2")
        # a Critical Failure is a failure: "Failure means the vehicle moves only 12""
        text += f': it moves only {rules.free_move_in:g}" and goes Out of Control'
        return MoveVerdict((Event("test", move.model, text, found=found, clauses=("SW-VEH-1",), figures=figures,
                                  rolls=roll.rolls), crash), roll.outcome, row)

    def out_of_control_event(self, model: str, rng: np.random.Generator, obstacle: str | None,
                             obstacle_in: float | None, clause: str) -> tuple[Event, OutOfControlRow]:
        """SW-VEH-2: the 2d6 on the Out of Control table; a collision moves the vehicle "into the
        nearest obstacle" the table found (``obstacle``, ``obstacle_in`` inches from its base
        centre), or is "a feature not modeled" when there is none. ``clause``: what sent it."""
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        row = self.out_of_control(sum(dice))
        result = f"Out of Control, 2d6 {dice[0]}+{dice[1]} = {sum(dice)}: {row.effect}"
        if row.collision:
            result += (" No obstacle on the table: a feature not modelled (a pothole, a ditch)" if obstacle is None
                       else f" Moved into the nearest obstacle, {obstacle} ({obstacle_in:.1f}\" away)")
        clauses = tuple(dict.fromkeys((clause, "SW-VEH-2")))
        return (Event("crash" if row.collision else "test", model, result, clauses=clauses,
                      piece=obstacle if row.collision else None, rolls=(DiceRoll.amount("Out of Control", dice),),
                      figures={"out_of_control": sum(dice), "collision": row.collision}), row)

    def critical_hit_event(self, model: str, rng: np.random.Generator) -> tuple[Event, CriticalHitRow]:
        """SW-CRIT: the 2d6 on the Vehicle Critical Hits table."""
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        row = next(r for r in self.rules.critical_hits.table if r.low <= sum(dice) <= r.high)
        return (Event("condition", model, f"Critical Hit, 2d6 {dice[0]}+{dice[1]} = {sum(dice)}: {row.effect}",
                      clauses=("SW-CRIT",), figures={"critical_hit": sum(dice), "hit": row.hit},
                      rolls=(DiceRoll.amount("Critical Hit", dice),)), row)

    def judge_impacts(self, impacts: Sequence[Impact], stats: Mapping[str, Any],
                      top_speeds_mph: Mapping[str, float] | None = None) -> list[Event]:
        """SW-RAM for each ride that ran into another vehicle: the dice from the Scales, the
        Toughnesses and the attacker's Top Speed (``top_speeds_mph``: model id -> its Top Speed
        now, MPH, e.g. after Locomotion hits; else its stats'). The impact speed the physics
        measured is a fact of the event (``mph``), not a rule's number."""
        events = []
        for impact in impacts:
            if impact.what != "contact" or impact.piece not in stats:
                continue
            mph = impact.speed_m_s * MPH_PER_M_S
            attacker = stats[impact.model]
            top = (top_speeds_mph or {}).get(impact.model, self.top_speed_mph(attacker))
            mine, theirs = self.ram_dice(attacker, stats[impact.piece], top)
            events.append(Event("crash", impact.model, f"ram at a Top Speed of {top:g} MPH: {impact.model} deals "
                                f"{mine}d6, {impact.piece} deals {theirs}d6",
                                found=f"ran into {impact.piece} at {mph:.0f} MPH", piece=impact.piece,
                                clauses=("SW-RAM",), t_s=impact.t_s,
                                figures={"attacker_d6": mine, "defender_d6": theirs, "mph": mph,
                                         "top_speed_mph": top}))
        return events
