"""The scene format: a YAML description of a table, validated by pydantic models.

All lengths are table inches, the origin is a table corner, z is up, headings are degrees
counter-clockwise from +x (see :mod:`entropy3d.geometry`). Every model rejects unknown keys so a
typo in a scene is an error, never silently ignored. ``entropy3d schema`` prints the JSON Schema
of :class:`SceneSpec` for editors.

Only the *static* table and the starting positions live here; the mutable game state (poses,
stress, moved scenery) is kept elsewhere and starts from these values.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from entropy3d.systems.entropy_city.ruleset import ON_FOOT


def _no_yes_or_no(value):
    """YAML reads ``true``, ``yes`` and ``on`` as booleans, and a boolean is an int to Python:
    ``table.width: true`` was taken for a 1" table (issue 49). A number must be written as one."""
    if isinstance(value, bool):
        raise ValueError("a yes/no to YAML (it reads true, yes, on, false, no and off so), not a number: "
                         "write the number")
    return value


#: a number in a scene: any int or float YAML reads, never a boolean
Number = Annotated[float, BeforeValidator(_no_yes_or_no)]
#: a whole number in a scene (storeys, risk, stats), never a boolean
Count = Annotated[int, BeforeValidator(_no_yes_or_no)]
PositiveIn = Annotated[Number, Field(gt=0, description="inches, > 0")]
NonNegIn = Annotated[Number, Field(ge=0, description="inches, >= 0")]
Vec2 = tuple[Number, Number]
Vec3 = tuple[Number, Number, Number]
#: what an id or a key naming a piece may be written with
IDENTIFIER_PATTERN = r"^[A-Za-z0-9_\-]+$"
Identifier = Annotated[str, Field(pattern=IDENTIFIER_PATTERN, min_length=1, max_length=64,
                                  description="letters, digits, _ and -")]
TerrainName = Annotated[str, Field(description="a terrain type from the rules data (rules/*.yaml `terrain:`)")]


class Strict(BaseModel):
    """Base of every scene model: unknown keys are errors, values are not coerced loosely, and
    every number is finite (``.nan``, ``.inf`` and ``'1e999'`` are refused). Validators are built
    when first used (``defer_build``, as :class:`entropy3d.systems.entropy_city.rulesdata.Strict`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)


class Area(Strict):
    """A flat outline on the table: exactly one of ``rect`` or ``polygon``."""

    rect: Optional[tuple[Number, Number, Number, Number]] = Field(
        None, description="[x_min, y_min, x_max, y_max] in inches")
    polygon: Optional[list[Vec2]] = Field(
        None, min_length=3, description="[[x, y], ...] corners in inches, in order")

    @model_validator(mode="after")
    def _one_outline(self):
        if (self.rect is None) == (self.polygon is None):
            raise ValueError("give exactly one of `rect: [x_min, y_min, x_max, y_max]` or `polygon: [[x, y], ...]`")
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            if x1 <= x0 or y1 <= y0:
                raise ValueError(f"rect {list(self.rect)} has no area: x_max must exceed x_min and y_max exceed y_min")
        else:
            from shapely.geometry import Polygon

            outline = Polygon(self.polygon)
            if not outline.is_valid or outline.area <= 0:
                raise ValueError(f"polygon {[list(p) for p in self.polygon]} is not a simple outline (its edges "
                                 "cross or it has no area): list the corners once each, in order around it")
        return self

    def corners(self) -> list[Vec2]:
        """The outline as a list of (x, y) corners, counter-clockwise for a rect."""
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        return list(self.polygon)


class TableSpec(Strict):
    """The playing surface."""

    width: PositiveIn = Field(48.0, description="inches along x (EC-TER-TABLE: 48)")
    depth: PositiveIn = Field(48.0, description="inches along y (EC-TER-TABLE: 48)")
    ground: TerrainName = Field("asphalt", description="terrain of the bare table (the roads)")
    edges: dict[Literal["north", "south", "east", "west"], Literal["open", "cliff"]] = Field(
        default_factory=dict,
        description="table edges that are special; a `cliff` edge busts any ride sent over it (EC-COL-EDGE). "
                    "south is y = 0, north is y = depth, west is x = 0, east is x = width")


class Zone(Area):
    """A patch of terrain on the ground (grass, gravel, sand, ruins...)."""

    id: Identifier
    terrain: TerrainName


class Block(Area):
    """A raised city block: its top is sidewalk, its edge is a curb (EC-TER-CURB)."""

    id: Identifier
    curb_height: PositiveIn = Field(0.12, description="height of the curb above the road, inches")
    surface: TerrainName = "concrete"


class Road(Strict):
    """A road's centre line, drawn as a painted strip; roads are the table's ground between blocks."""

    id: Identifier
    points: list[Vec2] = Field(min_length=2, description="centre line, inches")
    width: PositiveIn = Field(5.0, description="inches (4-5 typical)")
    surface: Optional[TerrainName] = Field(None, description="terrain of the road; the table ground if omitted")
    markings: bool = True


class Building(Area):
    """A building: a solid block of storeys a bike cannot enter (EC-TER-BUILDING)."""

    id: Identifier
    storeys: Count = Field(ge=1, le=30)
    storey_height: PositiveIn = Field(2.1, description="inches per storey (~3 m depicted)")
    base_height: NonNegIn = Field(0.0, description="height of the ground it stands on, e.g. a block's curb")
    size_class: Count = Field(3, ge=1, le=3, description="EC-LOS-3 size class")
    roof_surface: TerrainName = "concrete"
    ruined: bool = False
    colour: Optional[str] = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")

    @property
    def height(self) -> float:
        """Roof height above the table, inches."""
        return self.base_height + self.storeys * self.storey_height


class Platform(Area):
    """A raised deck a bike can ride on: a ruined highway, a bridge between rooftops, a loading dock."""

    id: Identifier
    kind: Literal["highway", "bridge", "platform"] = "platform"
    height: PositiveIn = Field(description="height of the deck's top surface, inches")
    thickness: PositiveIn = Field(0.4, description="deck thickness, inches")
    pillars: list[Vec2] = Field(default_factory=list, description="pillar centres, inches")
    pillar_size: PositiveIn = 0.9
    railings: bool = Field(False, description="low walls along the long sides")
    surface: TerrainName = "asphalt"

    @model_validator(mode="after")
    def _deck_above_ground(self):
        if self.thickness >= self.height:
            raise ValueError(f"thickness {self.thickness} must be less than height {self.height}")
        return self


class Ramp(Strict):
    """A jump ramp: a wedge rising along ``heading`` from its low edge at ``start``."""

    id: Identifier
    start: Vec2 = Field(description="centre of the low edge, inches")
    heading: Number = Field(description="direction up the ramp, degrees CCW from +x")
    length: PositiveIn
    width: PositiveIn
    rise: Optional[PositiveIn] = Field(None, description="height gained, inches (or give angle)")
    angle: Optional[Number] = Field(None, gt=0, lt=60, description="slope in degrees (or give rise)")
    base_height: NonNegIn = 0.0
    surface: TerrainName = "metal"
    colour: Optional[str] = Field(None, pattern=r"^#[0-9a-fA-F]{6}$",
                                  description="display colour; default: hazard orange for metal kickers, "
                                              "else the surface's terrain colour")

    @model_validator(mode="after")
    def _rise_or_angle(self):
        if (self.rise is None) == (self.angle is None):
            raise ValueError("give exactly one of `rise` (inches) or `angle` (degrees)")
        return self

    @property
    def rise_in(self) -> float:
        import math

        return self.rise if self.rise is not None else self.length * math.tan(math.radians(self.angle))


DestructibleKind = Literal["bench", "table", "chair", "crate", "barrel", "bin", "barrier"]


class Destructible(Strict):
    """A piece of scenery both players agreed can be ridden through (EC-DEST-1)."""

    id: Identifier
    kind: DestructibleKind
    position: Vec2 = Field(description="centre, inches")
    facing: Number = 0.0
    risk: Count = Field(ge=1, le=3, description="EC-DEST-1 risk level 1-3")
    size: Optional[Vec3] = Field(None, description="[length, width, height] inches; a default per kind")
    base_height: NonNegIn = Field(0.0, description="height of what it stands on")

    @field_validator("size")
    @classmethod
    def _positive_size(cls, value):
        if value is not None and min(value) <= 0:
            raise ValueError(f"size {list(value)} must be positive in every axis")
        return value


class MeshPiece(Strict):
    """A mesh file placed on the table (STL, OBJ, glTF/GLB), e.g. a user's 3D-print terrain."""

    id: Identifier
    file: str = Field(description="path, relative to the scene file (or the bundled models/ folder)")
    units: Literal["mm", "cm", "in", "m"] = Field(
        description="length unit of the file; required: STL and OBJ carry no units")
    up: Optional[Literal["z", "y"]] = Field(
        None, description="the file's up axis; default z for STL/OBJ, y for glTF/GLB")
    position: Vec3 = Field((0.0, 0.0, 0.0), description="where the mesh's origin goes, inches")
    rotation: Vec3 = Field((0.0, 0.0, 0.0), description="degrees about x, then y, then z")
    scale: Union[PositiveIn, tuple[PositiveIn, PositiveIn, PositiveIn]] = 1.0
    size_class: Count = Field(0, ge=0, le=3, description="EC-LOS-3; 0 = does not block top-down LOS")
    surface: TerrainName = "concrete"
    destructible_risk: Optional[Count] = Field(None, ge=1, le=3, description="set to make it destructible")
    colour: Optional[str] = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")


BikeTypeName = Annotated[str, Field(description="a bike type from the rules data: sportsbike, cruiser, ...")]


#: rider stats whose defaults come from the rules data (`rider_defaults`, `max_stress.default`)
RIDER_STATS = ("dodge", "strength", "protection", "wounds", "max_stress")


class AmbushSetUp(Strict):
    """Where an ambusher (trait ``ambush``, EC-TRAIT-AMBUSH) may be: the model's position is its
    true token, ``decoys`` the others; ``reveal_on``: the enemies its player reveals on."""

    decoys: list[Vec2] = Field(description="the false tokens, [x, y] inches each (the rules data's "
                                           "`traits.ambush.tokens` less the true one)")
    reveal_on: list[Identifier] = Field(default_factory=list, description="enemy model ids the ambush is sprung "
                                        "on; none: the first enemy to come near")


class Rider(Strict):
    """A rider's stats (rulebook "Rider Stats"). A stat left out takes the rules data's default
    (``rider_defaults``, and ``max_stress.default``), filled in by ``load_scene``."""

    name: Optional[str] = None
    dodge: Optional[Count] = Field(None, ge=0, le=5, description="default: rules data rider_defaults.dodge")
    strength: Optional[Count] = Field(None, ge=0, le=5, description="default: rules data rider_defaults.strength")
    protection: Optional[Count] = Field(None, ge=0, le=3,
                                      description="default: rules data rider_defaults.protection")
    wounds: Optional[Count] = Field(None, ge=1, le=5, description="default: rules data rider_defaults.wounds")
    max_stress: Optional[Count] = Field(None, ge=1, le=21, description="default: rules data max_stress.default")
    stress: Count = Field(0, ge=0, le=21)
    weapon: Optional[str] = Field(None, description="melee weapon from the rules data `weapons:` (EC-WPN); none: "
                                                    "the rider punches")
    gun: Optional[str] = Field(None, description="gun from the rules data `guns:` (EC-GUN-2)")
    ammo: Optional[Count] = Field(None, ge=0, le=99, description="shots carried; default: the gun's ammo")
    traits: dict[str, Optional[Count]] = Field(default_factory=dict, description="traits from the rules data "
                                             "`traits:` (EC-TRAIT), each with its x or null: {psychotic: 6}")
    traps: list[str] = Field(default_factory=list, description="traps carried, laid in order with Lay Trap "
                             "(EC-TRAP): names from the rules data `traps:`")
    conditions: list[str] = Field(default_factory=list, description="conditions at the start (EC-COND-*): "
                                  "bleeding, stunned, burning, wet")
    ambush: Optional[AmbushSetUp] = Field(None, description="with the trait `ambush`: its tokens, "
                                          "{decoys: [[X, Y], [X, Y]]} (EC-TRAIT-AMBUSH)")


class Model(Strict):
    """A miniature: a bike and its rider, or a gang member on foot (``on_foot: true``, no bike)."""

    id: Identifier
    gang: Identifier
    bike: Optional[BikeTypeName] = Field(None, description="the bike type; leave it out for a model on foot")
    vehicle: Optional[str] = Field(None, description="a car or van instead of a bike: a kind from the rules data's "
                                                     "`vehicles:` (car, police_car, van), for a game system that "
                                                     "drives them (chase_vehicles)")
    on_foot: bool = Field(False, description="a gang member without a bike (rules data `on_foot:`): it walks, "
                                             "and may stand on a building's roof, one per building")
    position: Union[Vec2, Vec3] = Field(description="base centre [x, y] (z found from the table) or [x, y, z]")
    facing: Number = Field(description="degrees CCW from +x")
    speed: Count = Field(1, ge=0, le=3, description="0 = stopped; a model on foot has none (leave it out)")
    rider: Rider = Field(default_factory=Rider)
    stats: dict[str, Any] = Field(default_factory=dict, description="the scene's game system's own stats of this "
                                  "model, checked by that system's schema (`entropy3d systems`)")

    @model_validator(mode="before")
    @classmethod
    def _bike_or_on_foot(cls, data):
        if isinstance(data, dict):
            if data.get("on_foot") is True and "bike" in data:
                raise ValueError("a model on foot has no bike: remove `bike:` or `on_foot: true`")
            if data.get("on_foot") is True and "speed" in data:
                raise ValueError("a model on foot has no speed: remove `speed:`")
            if "vehicle" in data and ("bike" in data or data.get("on_foot") is True):
                raise ValueError("a model is one of a bike, a vehicle or a figure on foot: keep one of `bike:`, "
                                 "`vehicle:` and `on_foot: true`")
            if data.get("on_foot") is not True and "bike" not in data and "vehicle" not in data:
                raise ValueError("give its `bike:` (a bike type from the rules data), its `vehicle:` (a car or van "
                                 "from the rules data's `vehicles:`) or `on_foot: true`")
            if data.get("on_foot") is True:
                data = {**data, "speed": 0}
        return data

    @property
    def bike_type(self) -> str:
        """Its bike type, its vehicle kind (``vehicle:``), or ``on_foot``
        (:data:`entropy3d.systems.entropy_city.ruleset.ON_FOOT`) for a model on foot: the name its base, its solids
        and its mesh are found by (``Ruleset.base_for``, :mod:`entropy3d.scene.miniature`)."""
        return ON_FOOT if self.on_foot else self.vehicle or self.bike


class Gang(Strict):
    name: str
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")


class Camera(Strict):
    """A named camera for `entropy3d render --camera NAME`."""

    position: Vec3
    look_at: Vec3
    fov: Number = Field(50.0, gt=5, lt=150)


class PackageRun(Strict):
    """Package Run's set-up (EC-MISSION-PACKAGE): who carries which package, and the enemy table
    edge they ride for."""

    to: Literal["north", "south", "east", "west"] = Field(description="the enemy table edge the carriers ride "
                                                                      "off to deliver their packages")
    carriers: dict[Identifier, Count] = Field(min_length=1, description="model id -> the VP of the package it "
                                                                        "carries (the rules data's packages)")


class VipTakedown(Strict):
    """VIP Takedown's set-up (EC-MISSION-VIP): the VIP each gang publicly declares."""

    vips: dict[Identifier, Identifier] = Field(min_length=1, description="gang id -> the model id of its VIP")


class GrabItem(Strict):
    """A Grab n Go package where the game starts (EC-MISSION-GRAB)."""

    id: Identifier
    at: Vec2 = Field(description="where it lies, [x, y] inches")


class GrabNGo(Strict):
    """Grab n Go's set-up (EC-MISSION-GRAB): the packages at the centre of the table, and each
    gang's deployment edge, which its holders escape over."""

    items: list[GrabItem] = Field(min_length=1, description="the packages (the rules data's number of them)")
    exits: dict[Identifier, Literal["north", "south", "east", "west"]] = Field(
        min_length=1, description="gang id -> the table edge it deployed from: its holders exit over it")


class Jailbreak(Strict):
    """Jailbreak's set-up (EC-MISSION-JAIL): the building at the centre of the table the NPC is
    locked in, its door and windows, and the NPC's name. The road exits it escapes by are where
    the scene's roads meet a table edge."""

    jail: Identifier = Field(description="the id of the building the NPC is locked in")
    openings: list[Vec2] = Field(min_length=1, description="the jail's door and windows, [x, y] inches on its walls")
    npc: Identifier = Field("prisoner", description="the NPC's id")


class RescueNpc(Strict):
    """An NPC of Rescue & Survive (EC-MISSION-RESCUE): whose it is, the corner it waits in and the
    corner it is delivered to."""

    id: Identifier
    gang: Identifier = Field(description="the gang whose NPC it is")
    at: Vec2 = Field(description="where it waits, [x, y] inches, near a table corner")
    to: Vec2 = Field(description="where it is delivered, [x, y] inches, near another corner")


class RescueSurvive(Strict):
    """Rescue & Survive's set-up (EC-MISSION-RESCUE): each gang's NPC."""

    npcs: list[RescueNpc] = Field(min_length=1, description="each gang's NPC (the rules data's number each)")


class LawEntry(Strict):
    """A point the Law enters at (EC-LAW): its first rider's base centre and heading; the others
    line up behind it."""

    at: Vec2 = Field(description="[x, y] inches")
    facing: Number = Field(description="degrees CCW from +x: the way it rides in")


class Law(Strict):
    """The Law as a neutral NPC side (EC-LAW): how many police, from which turn, and where they
    may enter (the engine rolls which point when there are several); left out, the rules data's
    ``law:`` numbers, and the middle of every open table edge."""

    riders: Optional[Count] = Field(None, ge=1, le=8, description="police riders (rules data law.riders)")
    from_turn: Optional[Count] = Field(None, ge=1, description="the turn they enter (rules data law.from_turn)")
    enter: list[LawEntry] = Field(default_factory=list, description="where they may enter: one is rolled for")


class CornerZone(Strict):
    """A Corners zone (EC-MISSION-CORNERS)."""

    id: Identifier
    rect: tuple[Number, Number, Number, Number] = Field(description="[x0, y0, x1, y1] inches")


class Corners(Strict):
    """Corners' set-up (EC-MISSION-CORNERS): the zones held."""

    zones: list[CornerZone] = Field(min_length=1)


class RaceCheckpoint(Strict):
    """A Hoon Hour checkpoint (EC-MISSION-HOON)."""

    id: Identifier
    at: Vec2 = Field(description="its centre, [x, y] inches")
    radius: Optional[Number] = Field(None, gt=0, le=24, description="inches: a rider's base within it passes it; "
                                     "none: the rules data's missions.hoon_hour.radius_in")


class HoonHour(Strict):
    """Hoon Hour's circuit (EC-MISSION-HOON): its checkpoints in order; the last is the finish."""

    checkpoints: list[RaceCheckpoint] = Field(min_length=2)


class SceneSpec(Strict):
    """A whole scene file."""

    name: str
    description: str = ""
    rules: str = Field("entropy_city", description="rules data: a bundled name or a path to a YAML file")
    system: str = Field("entropy_city", description="the game system played on this table (`entropy3d systems`)")
    mission: Literal["turf_war", "lovers_point_brawl", "package_run", "vip_takedown", "grab_n_go",
                     "free_ride", "jailbreak", "rescue_survive", "corners", "hoon_hour"] = "turf_war"
    turns: Count = Field(6, ge=1, le=200)
    table: TableSpec = Field(default_factory=TableSpec)
    zones: list[Zone] = Field(default_factory=list)
    blocks: list[Block] = Field(default_factory=list)
    roads: list[Road] = Field(default_factory=list)
    buildings: list[Building] = Field(default_factory=list)
    platforms: list[Platform] = Field(default_factory=list)
    ramps: list[Ramp] = Field(default_factory=list)
    destructibles: list[Destructible] = Field(default_factory=list)
    meshes: list[MeshPiece] = Field(default_factory=list)
    gangs: dict[Identifier, Gang] = Field(default_factory=dict)
    models: list[Model] = Field(default_factory=list)
    cameras: dict[Identifier, Camera] = Field(default_factory=dict)
    package_run: Optional[PackageRun] = Field(None, description="mission: package_run only: the carriers and "
                                                                "the edge they ride for (EC-MISSION-PACKAGE)")
    vip_takedown: Optional[VipTakedown] = Field(None, description="mission: vip_takedown only: each gang's VIP "
                                                                  "(EC-MISSION-VIP)")
    grab_n_go: Optional[GrabNGo] = Field(None, description="mission: grab_n_go only: the packages and each gang's "
                                                           "deployment edge (EC-MISSION-GRAB)")
    jailbreak: Optional[Jailbreak] = Field(None, description="mission: jailbreak only: the jail, its door and "
                                                             "windows, the NPC (EC-MISSION-JAIL)")
    rescue_survive: Optional[RescueSurvive] = Field(None, description="mission: rescue_survive only: each gang's "
                                                                      "NPC (EC-MISSION-RESCUE)")
    law: Union[bool, Law, None] = Field(None, description="the Law as a neutral NPC side (EC-LAW): `law: on`, or "
                                                          "{riders, from_turn, enter: [{at, facing}]}")
    corners: Optional[Corners] = Field(None, description="mission: corners only: the zones (EC-MISSION-CORNERS)")
    hoon_hour: Optional[HoonHour] = Field(None, description="mission: hoon_hour only: the circuit (EC-MISSION-HOON)")
