"""The schema of the rules data (``rules/entropy_city.yaml``): every key, its type and its default.

Pydantic models that reject unknown keys, so a misspelt key in a rules file is an error naming the
key path and the likely fix, never a silently missing modifier. Defaults live here and only here
(a bike type without a ``bike_rules`` entry gets :class:`BikeRules` as declared below).

Pure: no YAML, no file I/O. The scene layer reads the file and adds line numbers to the problems
(:mod:`entropy3d.scene.rulesfile`); :func:`~entropy3d.core.keypaths.validation_problems` turns a
pydantic error into ``(key_path, None, message)`` problems for
:class:`~entropy3d.errors.RulesDataError`.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, Mapping, Optional, TypeVar

from pydantic import Field, ValidationError, model_validator

from entropy3d.core.keypaths import Problem, did_you_mean, validation_problems
from entropy3d.core.specbase import Colour, Degrees, Fraction, NonNeg, NonNegInt, Pos, PosInt, Strict
from entropy3d.systems.entropy_city.footdata import OnFootSpec
from entropy3d.systems.entropy_city.missiondata import LawSpec, MissionsSpec, NpcSpec
from entropy3d.systems.entropy_city.plan import ACTIONS
from entropy3d.systems.entropy_city.vehicledata import VehicleSpec

TemplateName = Literal["tight", "medium", "wide"]
Side = Literal["attacker", "defender"]
#: the kinds of test a trait tells apart (:mod:`entropy3d.systems.entropy_city.stress_traits`): a ride's tests
#: (templates, terrain, destructibles, slowing down, a trap ridden over), surviving a crash, the
#: remount after a bust, the attacker's roll of a melee attack, of a shot or of chicken, the
#: defender's (its dodge of a blow or a shot, its attack back, its side of chicken), and the others
#: (putting out a fire, picking up or passing an item)
TestKind = Literal["ride", "crash", "remount", "melee", "shot", "chicken", "dodge", "attack_back",
                   "chicken_defence", "other"]
T = TypeVar("T")


class ScaleSpec(Strict):
    metres_per_inch: Pos = Field(description="depicted metres per table inch")
    seconds_per_activation: Pos = Field(description="depicted seconds one activation's move lasts")


class OvalBase(Strict):
    length_mm: Pos
    width_mm: Pos


class RoundBase(Strict):
    diameter_mm: Pos


class BasesSpec(Strict):
    """EC-BASE, millimetres."""

    oval: OvalBase
    round: RoundBase
    bike_height_mm: Pos
    rider_height_mm: Pos


class SpeedBandSpec(Strict):
    """EC-SPD-2: inches per action."""

    max: Pos
    min: Pos


class BikeTypeSpec(Strict):
    """EC-BIKE-*: modifiers to the standard speeds, inches."""

    base: Literal["oval", "round"]
    max_mod: dict[int, float]
    min_mod: float


class TerrainSpec(Strict):
    friction: Pos
    difficult: bool
    dangerous: bool
    colour: Colour


class TableSizeSpec(Strict):
    width_in: Pos
    depth_in: Pos


class TiesSpec(Strict):
    melee: Side
    dodge: Side
    gun: Side


class DiceSpec(Strict):
    sides: PosInt
    count: PosInt
    bust_over: PosInt
    natural_crit: list[PosInt] = Field(min_length=2, max_length=2)
    remount_tn_base: PosInt
    ties_to: TiesSpec
    risk_aware_max_bust: Fraction


class MaxStressSpec(Strict):
    default: PosInt
    tn: PosInt
    pass_reduction: NonNegInt


class OptionSpec(Strict, Generic[T]):
    """A rulebook contradiction: each reading is a choice; ``default`` names the one used."""

    default: str
    choices: dict[str, T] = Field(min_length=1)

    @model_validator(mode="after")
    def _default_is_a_choice(self):
        if self.default not in self.choices:
            raise ValueError(f"default {self.default!r} is not one of the choices: {', '.join(self.choices)}")
        return self


class OptionsSpec(Strict):
    crit_stress_reduction: OptionSpec[NonNegInt]
    gun_tn: OptionSpec[dict[int, PosInt]]
    push_order: OptionSpec[Literal["defender_first", "lowest_first"]]
    jump_landing: OptionSpec[Literal["launch_speed_max", "where_it_comes_down"]]
    knocked_piece: OptionSpec[Literal["aside", "along"]]
    on_foot_move_in: OptionSpec[Pos]
    wreck_placement: OptionSpec[Literal["obstruct", "where_it_was"]]


class WreckSpec(Strict):
    """Where a wreck may be placed (EC-WOUND), inches."""

    within_in: Pos
    ring_step_in: Pos
    directions: PosInt
    look_ahead_in: Pos


class TurnSpec(Strict):
    roll_off_die: PosInt
    activation_order: list[NonNegInt]
    actions_per_activation: PosInt
    first_action_speed: NonNegInt
    max_speed_change: PosInt


class SpeedChangeSpec(Strict):
    from_: NonNegInt = Field(alias="from")
    to: NonNegInt
    stress: NonNegInt


class TemplateSpec(Strict):
    arc_length_in: Pos
    angle_deg: Degrees


class TemplateStress(Strict):
    instant: NonNegInt
    on_fail: Optional[NonNegInt] = Field(description="stress on a failed template test; null: no test")


class TurnTemplatesSpec(Strict):
    tight: TemplateSpec
    medium: TemplateSpec
    wide: TemplateSpec
    default_for_speed: dict[int, TemplateName]
    test_tn: PosInt
    stress: dict[int, dict[TemplateName, TemplateStress]]
    per_standard_action: PosInt
    path_spacing_in: Pos


class BikeRules(Strict):
    """A bike type's special rules (EC-BIKE-*). Every default is "no special rule", so a bike type
    without a ``bike_rules`` entry has none."""

    turn_speeds: Optional[list[NonNegInt]] = Field(None, description="speeds it may turn at; null: every speed")
    min_turn_stress_at_speed: dict[int, NonNegInt] = Field(default_factory=dict)
    extra_turn_speeds: list[NonNegInt] = Field(default_factory=list,
                                               description="speeds it may turn past a template's end")
    extra_turn_min_stress: NonNegInt = 0
    extra_turn_free_in: NonNeg = 0.0
    speed3_attack_stress: NonNegInt = 0
    kick_tn_mod: int = 0
    dodge_bonus: int = 0
    attack_rider_tn_mod: int = 0
    ignores_difficult_terrain: bool = False
    may_cross_dangerous: bool = True


class WeaveSpec(Strict):
    free_in: NonNeg
    stress_per_extra_in: NonNegInt
    per_action: PosInt


class FocusSpec(Strict):
    stress_relief: NonNegInt
    stress_relief_if_speed_changed: NonNegInt


class ChicaneSpec(Strict):
    max_templates: PosInt
    stress_per_extra_template: NonNegInt


class GunghoSpec(Strict):
    distance_multiplier: Pos
    max_templates: PosInt
    max_attacks: PosInt
    stress_per_extra_attack: NonNegInt


class StoppieSpec(Strict):
    bike_types: list[str]
    speeds: list[NonNegInt]
    stress_per_speed: NonNegInt
    pivot_min_deg: Degrees
    pivot_max_deg: Degrees
    next_action_speed: NonNegInt


class SpeedsOnlySpec(Strict):
    speeds: list[NonNegInt]


class PickupSpec(Strict):
    range_in: NonNeg
    stress: NonNegInt
    tn_per_bike_within: NonNegInt
    crowd_range_in: NonNeg
    tn: PosInt = Field(description="the pickup test's TN before the crowd (EC-ACT-PICKUP; DECISION)")


class PassSpec(Strict):
    range_in: NonNeg
    stress: NonNegInt
    tn: PosInt = Field(description="the pass test's TN (EC-ACT-PASS; DECISION)")
    odd_crashes: Literal["passer", "receiver"] = Field(description="whose bike crashes on an odd d10 after a "
                                                                   "busted pass (EC-ACT-PASS; DECISION)")


class StuntSpec(Strict):
    tn: PosInt
    stress: NonNegInt
    attack_tn_mod: int


class ActionsSpec(Strict):
    focus: FocusSpec
    chicane: ChicaneSpec
    gungho: GunghoSpec
    stoppie: StoppieSpec
    stop: SpeedsOnlySpec
    laytrap: SpeedsOnlySpec
    stunt: StuntSpec
    pickup: PickupSpec
    pass_: PassSpec = Field(alias="pass")
    only_moved_tn_mod: int


class HeadOnSpec(Strict):
    tn_base: PosInt
    stress: NonNegInt
    skip_next_activation: bool


class SideOnSpec(Strict):
    tn_base: PosInt
    stress: NonNegInt
    speed_after: NonNegInt


class CrashSpec(Strict):
    head_on_max_deg: Degrees
    head_on: HeadOnSpec
    side_on: SideOnSpec


class DestructibleSpec(Strict):
    min_speed: NonNegInt
    tn: PosInt
    push_per_speed_in: NonNeg
    forced_turn_in: NonNeg
    break_delta_v_mps_per_risk: Pos = Field(
        description="depicted m/s per risk level: a hit changing a destructible's speed by more breaks it")


class JumpSpec(Strict):
    air_time_speeds: list[NonNegInt]
    ranged_tn_mod: int


class CurbSpec(Strict):
    min_crossing_deg: Degrees


class TerrainEffect(Strict):
    """A terrain type's effect on moves (EC-TER-*); every default is "no effect"."""

    bike_types: list[str] = Field(default_factory=list, description="bike types the min/max mods apply to")
    min_mod: float = 0.0
    max_mod: float = 0.0
    stress_per_action: NonNegInt = 0
    first_free_per_activation: list[str] = Field(default_factory=list)
    turn_stress_mod: int = 0
    max_is_min_plus_speed: bool = False
    min_turn_stress: NonNegInt = 0
    exempt: list[str] = Field(default_factory=list)


class KickSpec(Strict):
    tn: PosInt
    max_push_in: NonNeg
    max_pivot_deg: Degrees


class MeleeSpec(Strict):
    btb_tolerance_in: NonNeg
    beside_fraction: Fraction
    surprise_stress: NonNegInt
    kick: KickSpec


class WeaponSpec(Strict):
    """A melee weapon (EC-WPN)."""

    reach_in: NonNeg = Field(description="reach, inches; 0 is base to base")
    tn: PosInt
    stress: NonNegInt = 0
    wounds: NonNegInt = 0
    bleed: bool = False
    stun_on_crit: bool = False
    pierce: NonNegInt = 0
    headshot_total: Optional[PosInt] = None
    headshot_on_crit: bool = False


class GunSpec(Strict):
    """A gun (EC-GUN-2): range in the depicted world's metres."""

    range_m: Optional[Pos] = Field(description="effective range, depicted metres; null: unlimited")
    on_foot_only: bool = Field(False, description="only a model on foot may shoot it (the sniper rifle)")
    wounds: PosInt
    headshot_over_dodge: Optional[NonNegInt] = None
    headshot_total: Optional[PosInt] = None
    ammo: PosInt
    split_shot: PosInt = 1
    reloads: bool = Field(True, description="a stopped rider may reload it (EC-GUN-STOPPED); the pistol: "
                                            "\"No reload\"")


class ShootingSpec(Strict):
    min_visible_fraction: Fraction
    split_shot_tn: NonNegInt
    stopped_target_tn_mod: int
    focussed_shot_tn: PosInt


class BleedSpec(Strict):
    stress_now: NonNegInt
    stress_per_activation: NonNegInt
    wound_from_stress: NonNegInt


class StunSpec(Strict):
    tn_mod: int


class BurnSpec(Strict):
    stress_per_action: NonNegInt
    wounds_per_activation: NonNegInt
    put_out_tn: PosInt


class WetSpec(Strict):
    min_stress: NonNegInt
    stress_when_wet: NonNegInt


class TraitSpec(Strict):
    """A trait of the rulebook's list (EC-TRAIT): played (``implemented``, with its numbers) or
    refused by name with ``why``. ``takes_x``: the card gives it a number, "Psychotic (x)"."""

    implemented: bool
    takes_x: bool = False
    why: str = ""
    melee_tn_mod: int = 0
    melee_stress_less: NonNegInt = 0
    min_stress: NonNegInt = 0
    # the traits of stress, stats and deeds (:mod:`entropy3d.systems.entropy_city.stress_traits`)
    at_stress: NonNegInt = 0                 #: the stress that wakes it (Thrives, Cracks Under Pressure)
    tn_mod: int = 0                          #: added to the TN of every test of its rider once awake
    incoming_tn_mod: int = 0                 #: added to the TN of every attack on its rider once awake
    stress_drop: NonNegInt = 0               #: stress taken off once (Second Wind)
    ride_stress_less: NonNegInt = 0          #: taken off each stress a ride gives, to min_stress (Inebriated)
    stress_per_activation: NonNegInt = 0     #: added at the end of each activation while awake (Cracks)
    recovery_max: NonNegInt = 0              #: the most stress a stop's recovery takes off (0: all of it)
    refuses_actions: list[str] = []          #: plan actions its rider may not take (once awake)
    slow_down_tn: NonNegInt = 0              #: the TN of the test to ride slower (Inebriated)
    slow_down_fail_stress: NonNegInt = 0     #: stress a failed slow-down test adds
    melee_tn_max: NonNegInt = 0              #: the most a melee weapon's TN is against its rider (Squid)
    protection_counts: bool = True           #: its rider's protection is added to melee TNs against it
    #: the push policy its rider tests with, whatever its player asks (Rage Filled)
    forced_push: Optional[Literal["sit-at-tn", "risk-aware", "never"]] = None
    adds_stat: Optional[Literal["dodge", "strength"]] = None  #: the rider stat it adds to test totals
    stat_must: bool = False                  #: added even to bust (else only when it does not bust)
    stat_in: list[TestKind] = []             #: the tests it is added to (empty: every test but stat_except)
    stat_except: list[TestKind] = []         #: the tests the stat is neither added to nor used in

    @model_validator(mode="after")
    def _known_actions(self) -> "TraitSpec":
        unknown = [action for action in self.refuses_actions if action not in ACTIONS]
        if unknown:
            raise ValueError(f"refuses_actions: unknown plan action {', '.join(map(repr, unknown))}; "
                             f"use {', '.join(ACTIONS)}")
        return self
    hides_from: list[Literal["chicken", "melee", "gun"]] = Field(
        default_factory=list, description="Stealth: the attacks (weapon kinds) it cannot be the target of when "
                                          "not seen as the attacker's activation began (EC-STEALTH)")
    range_in: NonNeg = Field(0.0, description="Get a Real Bike: how far its taunt carries, inches")
    stress: NonNegInt = Field(0, description="Charismatic Energy: the stress it takes off its followers a turn")
    # Ambush (EC-TRAIT-AMBUSH, :mod:`entropy3d.systems.entropy_city.ambush`)
    tokens: NonNegInt = Field(0, description="Ambush: the tokens it sets up, the true one among them")
    reveal_in: NonNeg = Field(0.0, description="Ambush: how near the true token an enemy's ride ends for a reveal, "
                                               "inches (base centre)")
    surprise_tn: NonNegInt = Field(0, description="Ambush: the TN of the rider's test against the surprise")
    control_activations: NonNegInt = Field(0, description="Ambush: the activations the ambusher takes at once "
                                                          "when the test fails")


class TrapSpec(Strict):
    """A trap (EC-TRAP): its area (a disc of ``radius_in`` or a strip ``length_in`` long across
    the layer's heading, ``depth_in`` deep), the test a rider riding over it takes (``tn``, 0: none)
    and what a failure (or riding over an untested one) costs; an explosive has a fuse instead."""

    shape: Literal["disc", "strip"]
    radius_in: NonNeg = 0.0
    length_in: NonNeg = 0.0
    depth_in: NonNeg = 0.0
    tn: NonNegInt = 0
    stress: NonNegInt = 0
    wounds: NonNegInt = 0
    condition: Optional[str] = None
    one_shot: bool = False
    fuse_activations: Optional[list[PosInt]] = Field(None, min_length=2, max_length=2)


class ConditionsSpec(Strict):
    bleed: BleedSpec
    stun: StunSpec
    burn: BurnSpec
    wet: WetSpec


class ChickenSpec(Strict):
    tn: PosInt
    stress_offset: NonNegInt
    max_stress: NonNegInt
    winner_min_stress: NonNegInt
    crit_winner_stress: NonNegInt
    side_step_in: NonNeg
    near_miss_in: Pos = Field(description="a game of chicken is a near miss: bases at most this far apart")


class RideSpec(Strict):
    step_height_in: Pos = Field(description="a rise no higher than this is ridden over, not hit")
    base_to_base_in: Pos = Field(description="bases this close may touch")


class RiderDefaults(Strict):
    """A rider's stats when a scene does not give them (rulebook "Rider Stats"); max stress comes
    from ``max_stress.default``."""

    wounds: Annotated[int, Field(ge=1, le=5)]
    dodge: Annotated[int, Field(ge=0, le=5)]
    strength: Annotated[int, Field(ge=0, le=5)]
    protection: Annotated[int, Field(ge=0, le=3)]


class RulesSpec(Strict):
    """A whole rules data file (``rules/entropy_city.yaml``)."""

    name: str
    source: str = ""
    scale: ScaleSpec
    bases: BasesSpec
    speeds: dict[int, SpeedBandSpec]
    bike_types: dict[str, BikeTypeSpec]
    terrain: dict[str, TerrainSpec]
    size_classes: dict[int, str]
    destructible_risk: list[PosInt]
    table: TableSizeSpec
    dice: DiceSpec
    max_stress: MaxStressSpec
    options: OptionsSpec
    turn: TurnSpec
    speed_change: dict[str, list[SpeedChangeSpec]]
    turn_templates: TurnTemplatesSpec
    bike_rules: dict[str, BikeRules]
    weave: WeaveSpec
    actions: ActionsSpec
    crash: CrashSpec
    destructible: DestructibleSpec
    jump: JumpSpec
    curb: CurbSpec
    terrain_effects: dict[str, TerrainEffect]
    melee: MeleeSpec
    chicken: ChickenSpec
    weapons: dict[str, WeaponSpec]
    guns: dict[str, GunSpec]
    shooting: ShootingSpec
    conditions: ConditionsSpec
    traits: dict[str, TraitSpec]
    traps: dict[str, TrapSpec]
    ride: RideSpec
    missions: MissionsSpec
    rider_defaults: RiderDefaults
    on_foot: OnFootSpec
    wreck: WreckSpec
    npc: NpcSpec
    law: LawSpec
    vehicles: dict[str, VehicleSpec] = Field(default_factory=dict, description="cars and vans other rulebooks "
                                             "drive on the table (a scene model's `vehicle:`); none in Entropy City")


def reference_problems(spec: RulesSpec) -> list[Problem]:
    """Names that must refer to another section: bike types and terrain types."""
    problems: list[Problem] = []
    bikes, terrains = list(spec.bike_types), list(spec.terrain)

    def check(path: str, name: str, known: list[str], what: str) -> None:
        if name not in known:
            problems.append((path, None, f"unknown {what} {name!r}; {did_you_mean(name, known)}"))

    for section in ("bike_rules", "speed_change"):
        for name in getattr(spec, section):
            check(f"{section}.{name}", name, bikes, "bike type")
    for i, name in enumerate(spec.actions.stoppie.bike_types):
        check(f"actions.stoppie.bike_types[{i}]", name, bikes, "bike type")
    for terrain, effect in spec.terrain_effects.items():
        check(f"terrain_effects.{terrain}", terrain, terrains, "terrain type")
        for key in ("bike_types", "first_free_per_activation", "exempt"):
            for i, name in enumerate(getattr(effect, key)):
                check(f"terrain_effects.{terrain}.{key}[{i}]", name, bikes, "bike type")
    return problems


def validate_rules(data: Mapping[str, Any]) -> tuple[RulesSpec | None, list[Problem]]:
    """Validate the mapping of a rules data file: the spec, or None and every problem found."""
    if not isinstance(data, Mapping):
        return None, [("", None, "must be a mapping of sections")]
    try:
        spec = RulesSpec.model_validate(dict(data))
    except ValidationError as error:
        return None, validation_problems(error, RulesSpec, data)
    return spec, reference_problems(spec)
