"""The one game state: every miniature, the scenery that moved, the turn and the score.

:class:`State` is immutable; :func:`entropy3d.systems.entropy_city.transition.resolve` is the only thing that
makes a new one from an old one, but for the opponent's placing of the wrecks it left
(:func:`entropy3d.systems.entropy_city.wrecks.place_wrecks`). The static table (the scene) is not in it: it never
changes.
Lengths are table inches, headings degrees counter-clockwise from +x. :meth:`State.to_json` and
:meth:`State.from_json` are the one JSON form (replays, reports).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

from entropy3d.core.scenery import ScenerySpot
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.ruleset import ON_FOOT
from entropy3d.systems.entropy_city.table_marks import Checkpoint, LawPlan, Zone

RIDING = "riding"
OUT = "out"            #: out of the game (no wounds left, failed remount, over the cliff)
ESCAPED = "escaped"    #: rode off an open table edge (Lovers Point Brawl: it escaped)
WAITING = "waiting"    #: not on the table yet: the Law before it enters (EC-LAW), an ambusher (EC-TRAIT-AMBUSH)
STATUSES = (RIDING, OUT, ESCAPED, WAITING)


@dataclass(frozen=True)
class AirTime:
    """A jump that has not come down yet (EC-JUMP-2).

    speed: the speed the bike left the ground at (EC-JUMP-4 lands it by that speed).
    carry_in: inches of the jump still to fly, along its heading.
    velocity_in_s: its velocity (x, y, z) in inches per second, so physics flies it on.
    While a model has an AirTime its pose's z is its height in the air.
    """

    speed: int
    carry_in: float
    velocity_in_s: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class ModelState:
    """One miniature (bike and rider) between two actions.

    id, gang, bike_type: from the scene (``on_foot`` for a model on foot: :attr:`on_foot`).
    pose: base centre and level, inches.
    speed: 0-3 (0 stopped). stress (EC-DICE-6), wounds left (EC-DICE-4), max_stress (EC-DICE-7),
    dodge (EC-COL-*), protection (EC-MEL-*): the rider's numbers. weapon: its melee weapon
    (EC-WPN; ``punch`` without one). gun, ammo: its gun and the shots left (EC-GUN-2), or None and
    0. conditions: its states (``bleeding``, ``stunned``, ``burning``, ``wet``; EC-COND-*). traits:
    (name, x or None) of its card (EC-TRAIT). traps_carried: the kinds of trap it carries, laid
    in order (EC-TRAP; the laid tokens are :attr:`State.traps`). status: riding, out or escaped.
    air: its jump not yet landed, or None (EC-JUMP-2).
    skip_next_activation: a head-on survival or a complex action (EC-COL-HEAD, EC-STOPPED).
    skip_next_action: a remount (EC-DICE-4) or a stop's recovery (EC-STOP-RECOVER).
    stopped: it carries a stopped token until it next activates (EC-STOPPED).
    recovering: it chose to recover when it stopped; its skipped activation recovers stress
    (EC-STOP-RECOVER). only_moved: it has only moved since its activation began, or in its last
    one (EC-MOVE-3: +1 to hit it until its next activation begins).
    no_attack_next_activation: it attacked back in defence (EC-MEL-DEF).
    stunt_set_up: its last action was a passed stunt; shocking: this action follows one, so its
    attack's TN is lowered (EC-ACT-STUNT).
    overwatch_push: while it is on overwatch (EC-GUN-STOPPED), the push-your-luck policy it shoots
    with at the first enemy that rides into its gun's range and sight; None when not watching.
    overwatch_renewed: it chose to remain on overwatch once, which is all it may (EC-GUN-STOPPED).
    reloading: it stopped to reload; in its skipped activation it may take a non-focussed shot
    with the target's speed added to the TN (EC-GUN-STOPPED).
    forced_speed: the speed its next action must be declared at (after a stoppie), or None.
    forced_move: plan text of a move the rules force on it before anything else (the opponent's
    2" turn after a failed destructible test, EC-DEST-3), or None; forced_through: the piece it
    is going through meanwhile (not met again by that move).

    Activation-scoped (reset when it activates): actions_taken (EC-TURN-3); sand_free_available
    (a trailbike's first sand stress, EC-TER-SAND); complex_action: a complex action begun this
    activation (``laytrap`` holds the second action to the minimum distance, EC-ACT-LAYTRAP);
    speed_cap: the highest speed left to it this activation (a side-on survivor, EC-COL-SIDE).
    basic_taken: the Basic actions it took this activation, which it may not repeat (a game
    system's, e.g. gang battle's Shoot, GANG-TURN); left out of the JSON form when empty, so a
    game that has none keeps its bytes.
    attack_chance: the attack the rules allow it now, or None: after a move it rode, an attack
    from any point along it; after a stop with a loaded gun, a focussed shot; in the activation it
    skips after a reload, a shot (EC-ACT-ATTACK, EC-GUN-STOPPED; :mod:`entropy3d.systems.entropy_city.attacks`).
    attacks_made: its attacks this activation (one an activation, EC-ACT-ATTACK). Both are
    activation-scoped and left out of the JSON form at their defaults.
    package: the VP of the package it set out with (Package Run, EC-MISSION-PACKAGE), 0 for none;
    package_to: the table edge it rides for with it; package_busted: it busted while carrying it
    (its value is revealed, and a tie takes it off the runners' total); package_fate: None while
    it carries it, then ``delivered`` or ``dropped``. Left out of the JSON form at their defaults.
    vip: it is (or was, while out of the game) its gang's VIP (VIP Takedown, EC-MISSION-VIP);
    vip_taken_by: the enemy VIP that took it out (the mission won). Left out of the JSON at their
    defaults.
    move_change_in: inches a ruling of the rulebook played beside this one (the reference cards'
    Move, REF-ELEV) adds to the most its next move may ride (taken off when negative); that move
    uses it up. Left out of the JSON at 0.
    strength: the rider's Strength stat, carried for a trait that adds it to tests (EC-TRAIT; no
    test adds it otherwise yet). trait_marks: what its traits have recorded so far (a spent Second
    Wind, stress that woke Thrives or Cracks Under Pressure, a first landed attack:
    :mod:`entropy3d.systems.entropy_city.stress_traits`). Both left out of the JSON at their defaults.
    The traits' records (EC-TRAIT, :mod:`entropy3d.systems.entropy_city.choice_traits`; left out of the JSON at
    their defaults): trait_uses: (trait, times used this game) of the traits a card gives X uses
    of (Strategist (x), All Part of the Plan (x)); unseen_at_start: the enemies with Stealth it
    did not see when its activation began (EC-STEALTH); traits_latched: traits whose stress
    threshold it has reached, which hold "even if stress is dropped later" (Aggressive (x),
    Timid (x)); pride_target: the enemy that shot it, which a Matter of Pride rider must strike
    in melee, or None; free_move_in: the free move Nimble (x) offers it now, inches (0: none);
    advantages_off_turn: the turn in which a Get a Real Bike taunt took its bike's advantages (0: none).
    law: it rides for the Law, the neutral police side an automatic player plays (EC-LAW);
    impact: the wounds its attacks took off others and the riders they took out, counted only in
    a game the Law plays (its aggression reads it, :mod:`entropy3d.systems.entropy_city.law`); out_by: in such a
    game, the model its going out is credited to. Left out of the JSON at their defaults.
    Ambush (EC-TRAIT-AMBUSH, :mod:`entropy3d.systems.entropy_city.ambush`; left out of the JSON at their
    defaults): decoys: an ambusher's two false tokens (x, y inches; its pose is the true one);
    reveal_on: the enemies its player reveals on (empty: the first to come near); ambushed_by:
    the ambusher that holds this rider surprised while the ambush has control of the turn.
    """

    id: str
    gang: str
    bike_type: str
    pose: Pose
    speed: int
    stress: int
    wounds: int
    max_stress: int
    dodge: int = 1
    protection: int = 0
    weapon: str = "punch"
    gun: str | None = None
    ammo: int = 0
    conditions: tuple[str, ...] = ()
    traits: tuple[tuple[str, int | None], ...] = ()
    stunt_set_up: bool = False
    traps_carried: tuple[str, ...] = ()
    shocking: bool = False
    status: str = RIDING
    air: AirTime | None = None
    skip_next_activation: bool = False
    skip_next_action: bool = False
    stopped: bool = False
    recovering: bool = False
    only_moved: bool = False
    no_attack_next_activation: bool = False
    forced_speed: int | None = None
    forced_move: str | None = None
    forced_through: str | None = None
    actions_taken: int = 0
    sand_free_available: bool = True
    complex_action: str | None = None
    speed_cap: int | None = None
    overwatch_push: str | None = None
    overwatch_renewed: bool = False
    reloading: bool = False
    basic_taken: tuple[str, ...] = ()
    attack_chance: str | None = None
    attacks_made: int = 0
    package: int = 0
    package_to: str | None = None
    package_busted: bool = False
    package_fate: str | None = None
    vip: bool = False
    vip_taken_by: str | None = None
    move_change_in: float = 0.0
    strength: int = 1
    trait_marks: tuple[str, ...] = ()
    trait_uses: tuple[tuple[str, int], ...] = ()
    unseen_at_start: tuple[str, ...] = ()
    traits_latched: tuple[str, ...] = ()
    pride_target: str | None = None
    free_move_in: float = 0.0
    advantages_off_turn: int = 0
    law: bool = False
    impact: int = 0
    out_by: str | None = None
    decoys: tuple[tuple[float, float], ...] = ()
    reveal_on: tuple[str, ...] = ()
    ambushed_by: str | None = None

    @property
    def carries_package(self) -> bool:
        """It still carries its package (Package Run)."""
        return bool(self.package) and self.package_fate is None

    def __repr__(self) -> str:
        return (f"ModelState({self.id} {self.status} {self.pose!r} speed {self.speed} "
                f"stress {self.stress} wounds {self.wounds}{' in the air' if self.air else ''})")

    @property
    def on_foot(self) -> bool:
        """A gang member without a bike (``bike_type`` :data:`~entropy3d.systems.entropy_city.ruleset.ON_FOOT`): it
        walks, has no speed and activates after every bike (EC-TURN-2)."""
        return self.bike_type == ON_FOOT

    @property
    def in_play(self) -> bool:
        """Still on the table and taking part."""
        return self.status == RIDING

    def trait(self, name: str) -> tuple[bool, int | None]:
        """(whether it has trait ``name``, its x)."""
        for have, x in self.traits:
            if have == name:
                return True, x
        return False, None

    def but(self, **changes: Any) -> "ModelState":
        """A copy with ``changes`` (a TypeError naming any that is no field).

        The fields copied as they are, as ``dataclasses.replace`` would set them (the class has no
        ``__post_init__`` and keeps no cached values in its ``__dict__``: one added would need
        ``dataclasses.replace`` back), without its walk through 38 fields and their ``__init__``:
        ~0.8 us against ~6.7 us, and the rules copy a model several times an action."""
        unknown = changes.keys() - _MODEL_FIELDS
        if unknown:
            raise TypeError(f"ModelState has no field {', '.join(sorted(unknown))}")
        copy = object.__new__(type(self))
        fields = copy.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return copy

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["pose"] = pose_to_json(self.pose)
        data["air"] = None if self.air is None else {
            "speed": self.air.speed, "carry_in": round(self.air.carry_in, 4),
            "velocity_in_s": [round(float(v), 4) for v in self.air.velocity_in_s]}
        for name in _LEFT_OUT_AT_DEFAULT:
            if data[name] == _MODEL_DEFAULTS[name]:
                del data[name]
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> "ModelState":
        air = data.get("air")
        return cls(**{**data, "pose": pose_from_json(data["pose"]), "conditions": tuple(data.get("conditions", ())),
                      "traits": tuple((str(name), x) for name, x in data.get("traits", ())),
                      "traps_carried": tuple(data.get("traps_carried", ())),
                      "basic_taken": tuple(data.get("basic_taken", ())),
                      "trait_marks": tuple(data.get("trait_marks", ())),
                      "trait_uses": tuple((str(n), int(k)) for n, k in data.get("trait_uses", ())),
                      "unseen_at_start": tuple(data.get("unseen_at_start", ())),
                      "traits_latched": tuple(data.get("traits_latched", ())),
                      "decoys": tuple((float(x), float(y)) for x, y in data.get("decoys", ())),
                      "reveal_on": tuple(data.get("reveal_on", ())),
                      "air": None if air is None else AirTime(int(air["speed"]), float(air["carry_in"]),
                                                              tuple(float(v) for v in air["velocity_in_s"]))})


@dataclass(frozen=True)
class TurnStart:
    """Who goes first this turn, as any rulebook's engine says when a turn starts: the rolls (one
    pair a round, rolled again on a tie as the rulebook says) and the side that goes first."""

    rolls: tuple[tuple[int, int], ...]
    first: str


#: the names :meth:`ModelState.but` may change
_MODEL_FIELDS = frozenset(f.name for f in dataclasses.fields(ModelState))
_MODEL_DEFAULTS = {f.name: f.default for f in dataclasses.fields(ModelState)}
#: fields added after replays were first written: left out of the JSON at their default, so the
#: replay of a game that never sets them keeps its bytes
_LEFT_OUT_AT_DEFAULT = ("basic_taken", "attack_chance", "attacks_made", "package", "package_to",
                        "package_busted", "package_fate", "vip", "vip_taken_by", "move_change_in", "strength",
                        "trait_marks", "trait_uses", "unseen_at_start", "traits_latched", "pride_target",
                        "free_move_in", "advantages_off_turn", "law", "impact", "out_by", "decoys", "reveal_on",
                        "ambushed_by")


@dataclass(frozen=True)
class Trap:
    """A laid trap token. kind: a name of the rules data's ``traps:``. x, y: its centre (inches);
    heading_deg: the layer's heading (a strip lies across it). fuse: activations of its layer left
    before an explosive goes off (None for the others). laid_by: the layer's model id."""

    id: str
    kind: str
    x: float
    y: float
    heading_deg: float
    laid_by: str
    fuse: int | None = None

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping) -> "Trap":
        return cls(**data)


@dataclass(frozen=True)
class Item:
    """Something a rider carries: a Grab n Go package (EC-MISSION-GRAB) or an NPC riding pillion
    (EC-MISSION-JAIL, EC-MISSION-RESCUE). id: the scene's; x, y: where it lies (or stands) on the
    table (inches) while no one carries it; carrier: the model id holding it, or None; held: the
    carrier's complete actions since it got it (EC-MISSION-GRAB: "hold onto it for two complete
    actions"); fate: None while in play, ``escaped`` (carried off the table as its mission
    asks), ``delivered`` (set down where its mission asks, EC-MISSION-RESCUE) or ``lost``
    (carried off the table any other way). An NPC's own fields, left out of the JSON form when
    unset: owner: the gang whose NPC it is (EC-MISSION-RESCUE); to: [x, y] inches, where it is
    delivered (EC-MISSION-RESCUE); locked: it is still inside the jail (EC-MISSION-JAIL), so
    nobody picks it up; openings: the jail's door and windows, [x, y] inches, a rider stops near
    to free it (EC-MISSION-JAIL)."""

    id: str
    x: float
    y: float
    carrier: str | None = None
    held: int = 0
    fate: str | None = None
    owner: str | None = None
    to: tuple[float, float] | None = None
    locked: bool = False
    openings: tuple[tuple[float, float], ...] = ()

    @property
    def on_table(self) -> bool:
        """It lies on the table for anyone to pick up (EC-ACT-PICKUP): not carried, in play and
        not locked in the jail."""
        return self.carrier is None and self.fate is None and not self.locked

    def to_json(self) -> dict:
        npc = {**({"owner": self.owner} if self.owner is not None else {}),
               **({"to": [round(float(v), 4) + 0.0 for v in self.to]} if self.to is not None else {}),
               **({"locked": True} if self.locked else {}),
               **({"openings": [[round(float(v), 4) + 0.0 for v in p] for p in self.openings]}
                  if self.openings else {})}
        return {"id": self.id, "x": round(self.x, 4) + 0.0, "y": round(self.y, 4) + 0.0, "carrier": self.carrier,
                "held": self.held, "fate": self.fate, **npc}

    @classmethod
    def from_json(cls, data: Mapping) -> "Item":
        to = data.get("to")
        return cls(str(data["id"]), float(data["x"]), float(data["y"]), data.get("carrier"), int(data.get("held", 0)),
                   data.get("fate"), data.get("owner"), None if to is None else (float(to[0]), float(to[1])),
                   bool(data.get("locked", False)),
                   tuple((float(p[0]), float(p[1])) for p in data.get("openings", ())))


@dataclass(frozen=True)
class Wreck:
    """What is left of a rider taken out (EC-WOUND): scenery from then on, which rides meet and
    sight lines are blocked by. id: ``wreck_<model id>``. model_id: the rider it was (its bike
    type gives the wreck's base). pose: where it was placed, inches (z: the level under it)."""

    id: str
    model_id: str
    pose: Pose

    def to_json(self) -> dict:
        return {"id": self.id, "model_id": self.model_id, "pose": pose_to_json(self.pose)}

    @classmethod
    def from_json(cls, data: Mapping) -> "Wreck":
        return cls(str(data["id"]), str(data["model_id"]), pose_from_json(data["pose"]))


@dataclass(frozen=True)
class State:
    """The whole game at one moment.

    turn: 1-based turn (0 before the first). mission: the scene's mission (scoring).
    models: by model id, in scene order. scenery: destructibles that moved or broke, by piece id.
    score: victory points by gang id. traps: trap tokens on the table (EC-TRAP).
    wrecks: riders taken out, now scenery (EC-WOUND), in the order they were placed.
    items: Grab n Go's packages (EC-MISSION-GRAB) or the NPCs of Jailbreak and Rescue & Survive
    (EC-MISSION-JAIL, EC-MISSION-RESCUE), in scene order; exits: gang id -> the table edge of its
    deployment, which its holders leave by; road_exits: (edge, from, to) the stretches of table
    edges roads leave by, inches along the edge from its west or south end (EC-MISSION-JAIL: "escape
    the table from any board edge through a road exit"). Each left out of the JSON form when empty.
    law: where and when the Law enters (EC-LAW), None without it; zones: Corners' zones
    (EC-MISSION-CORNERS); checkpoints: Hoon Hour's circuit in order, and progress: model id ->
    checkpoints it has passed (EC-MISSION-HOON). Left out of the JSON form when empty.
    """

    turn: int
    mission: str
    models: Mapping[str, ModelState]
    scenery: Mapping[str, ScenerySpot] = field(default_factory=dict)
    score: Mapping[str, int] = field(default_factory=dict)
    traps: tuple[Trap, ...] = ()
    wrecks: tuple[Wreck, ...] = ()
    items: tuple[Item, ...] = ()
    exits: Mapping[str, str] = field(default_factory=dict)
    road_exits: tuple[tuple[str, float, float], ...] = ()
    law: LawPlan | None = None
    zones: tuple[Zone, ...] = ()
    checkpoints: tuple[Checkpoint, ...] = ()
    progress: Mapping[str, int] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"State(turn {self.turn}, {len(self.models)} models, {len(self.scenery)} moved pieces)"

    def model(self, model_id: str) -> ModelState:
        try:
            return self.models[model_id]
        except KeyError:
            raise KeyError(f"no model {model_id!r}; models: {', '.join(self.models)}") from None

    def with_model(self, model: ModelState) -> "State":
        return dataclasses.replace(self, models={**self.models, model.id: model})

    def with_poses(self, poses: Mapping[str, Pose]) -> "State":
        """The state with the models of ``poses`` standing there (a what-if: a model dragged in
        the viewer, or where an action left it); the others as they are."""
        return dataclasses.replace(self, models={i: m.but(pose=poses[i]) if i in poses else m
                                                 for i, m in self.models.items()})

    def with_scenery(self, moves: Mapping[str, ScenerySpot]) -> "State":
        return dataclasses.replace(self, scenery={**self.scenery, **moves})

    def add_score(self, gang: str, points: int) -> "State":
        return dataclasses.replace(self, score={**self.score, gang: self.score.get(gang, 0) + points})

    def with_item(self, item: Item) -> "State":
        """The state with ``item`` in place of the item of its id."""
        return dataclasses.replace(self, items=tuple(item if i.id == item.id else i for i in self.items))

    def item_held_by(self, model_id: str) -> Item | None:
        """The item ``model_id`` carries (Grab n Go), or None."""
        return next((i for i in self.items if i.carrier == model_id and i.fate is None), None)

    def gangs_in_play(self) -> list[str]:
        """Gangs that still have a model on the table, in scene order."""
        seen: list[str] = []
        for model in self.models.values():
            if model.in_play and model.gang not in seen:
                seen.append(model.gang)
        return seen

    def to_json(self) -> dict:
        return {"turn": self.turn, "mission": self.mission,
                "models": [m.to_json() for m in self.models.values()],
                "scenery": {k: dataclasses.asdict(v) for k, v in sorted(self.scenery.items())},
                "score": dict(sorted(self.score.items())), "traps": [t.to_json() for t in self.traps],
                **({"wrecks": [w.to_json() for w in self.wrecks]} if self.wrecks else {}),
                **({"items": [i.to_json() for i in self.items]} if self.items else {}),
                **({"exits": dict(sorted(self.exits.items()))} if self.exits else {}),
                **({"road_exits": [[e, round(lo, 4) + 0.0, round(hi, 4) + 0.0] for e, lo, hi in self.road_exits]}
                   if self.road_exits else {}),
                **({"law": self.law.to_json()} if self.law is not None else {}),
                **({"zones": [z.to_json() for z in self.zones]} if self.zones else {}),
                **({"checkpoints": [c.to_json() for c in self.checkpoints]} if self.checkpoints else {}),
                **({"progress": dict(sorted(self.progress.items()))} if self.progress else {})}

    @classmethod
    def from_json(cls, data: Mapping) -> "State":
        models = [ModelState.from_json(m) for m in data["models"]]
        return cls(turn=int(data["turn"]), mission=str(data["mission"]), models={m.id: m for m in models},
                   scenery={k: ScenerySpot(**v) for k, v in data.get("scenery", {}).items()},
                   score=dict(data.get("score", {})),
                   traps=tuple(Trap.from_json(t) for t in data.get("traps", ())),
                   wrecks=tuple(Wreck.from_json(w) for w in data.get("wrecks", ())),
                   items=tuple(Item.from_json(i) for i in data.get("items", ())), exits=dict(data.get("exits", {})),
                   road_exits=tuple((str(e), float(lo), float(hi)) for e, lo, hi in data.get("road_exits", ())),
                   law=LawPlan.from_json(data["law"]) if data.get("law") else None,
                   zones=tuple(Zone.from_json(z) for z in data.get("zones", ())),
                   checkpoints=tuple(Checkpoint.from_json(c) for c in data.get("checkpoints", ())),
                   progress={str(k): int(v) for k, v in data.get("progress", {}).items()})


def pose_to_json(pose: Pose) -> list[float]:
    """[x, y, z, facing_deg] rounded to 1/10000 inch and degree, so JSON stays small and stable."""
    return [round(pose.x, 4) + 0.0, round(pose.y, 4) + 0.0, round(pose.z, 4) + 0.0, round(pose.facing_deg, 4) + 0.0]


def pose_from_json(values) -> Pose:
    x, y, z, facing = (float(v) for v in values)
    return Pose(x, y, facing, z)
