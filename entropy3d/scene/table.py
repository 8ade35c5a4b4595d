"""The static table: a validated scene plus its rules data and loaded meshes.

A :class:`Table` never changes during a game; the game state (poses, stress, moved scenery)
lives apart and starts from ``table.models``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from entropy3d.geometry import BaseShape, Pose
from entropy3d.scene.law_set_up import law_plan
from entropy3d.scene.npc_set_up import npc_items, road_exits
from entropy3d.scene.schema import Model, RaceCheckpoint, SceneSpec
from entropy3d.systems.entropy_city.ambush import lie_in_wait
from entropy3d.systems.entropy_city.conditions import become
from entropy3d.systems.entropy_city.ruleset import ON_FOOT, Ruleset
from entropy3d.systems.entropy_city.state import WAITING, Item, ModelState, State
from entropy3d.systems.entropy_city.table_marks import Checkpoint, Zone
from entropy3d.systems.entropy_city.trait_tests import reads_strength

if TYPE_CHECKING:  # pragma: no cover
    import trimesh


@dataclass(frozen=True, eq=False)
class Table:
    """A loaded scene. ``meshes`` maps mesh-piece ids to Trimesh objects already placed in
    table inches; ``mesh_files`` maps them to the resolved file paths. ``notes`` are the
    warnings and repairs of loading, ``(key_path, line, message)``, for the commands to print."""

    spec: SceneSpec
    source: Path
    ruleset: Ruleset
    mesh_files: dict[str, Path] = field(default_factory=dict)
    meshes: dict[str, "trimesh.Trimesh"] = field(default_factory=dict, repr=False)
    notes: list[tuple[str, "int | None", str]] = field(default_factory=list, repr=False)

    def __repr__(self) -> str:
        return f"Table({self.spec.name!r}, {len(self.spec.models)} models, from {self.source.name})"

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def width(self) -> float:
        return self.spec.table.width

    @property
    def depth(self) -> float:
        return self.spec.table.depth

    @property
    def models(self) -> list[Model]:
        return self.spec.models

    def model(self, model_id: str) -> Model:
        """The miniature with this id; KeyError says :meth:`no_model`."""
        for model in self.spec.models:
            if model.id == model_id:
                return model
        raise KeyError(self.no_model(model_id))

    def no_model(self, model_id: str) -> str:
        """Why ``model_id`` names no miniature, with the fix: commands take ids, and a rider's
        name given instead ("Viper") is pointed at its model's id, a misspelt id at the closest;
        then every id with its rider's name."""
        riders = [m for m in self.spec.models if (m.rider.name or "").casefold() == model_id.casefold()]
        if riders:
            hint = "; ".join(f"{m.rider.name} is model {m.id}" for m in riders) + ": give the model's id"
        else:
            close = difflib.get_close_matches(model_id, [m.id for m in self.spec.models], n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else "give one of the ids"
        every = ", ".join(f"{m.id} ({m.rider.name})" if m.rider.name else m.id for m in self.spec.models)
        return f"no model {model_id!r} in {self.source.name}; {hint} (models: {every or 'none'})"

    def base_of(self, model: Model) -> BaseShape:
        """The base of a miniature, inches (EC-BASE)."""
        return self.ruleset.base_for(model.bike_type)

    def start_pose(self, model: Model, surface_height: float = 0.0) -> Pose:
        """A miniature's starting pose; z from the scene if given, else ``surface_height``."""
        z = model.position[2] if len(model.position) == 3 else surface_height
        return Pose(model.position[0], model.position[1], model.facing, z)

    def gang_colour(self, gang: str) -> str:
        return self.spec.gangs[gang].colour

    def _with_conditions(self, model: ModelState, conditions: list[str]) -> ModelState:
        """The rider with the conditions it starts the game in (EC-COND-*: wet from the start adds
        no stress but keeps it at 2 or more)."""
        for condition in dict.fromkeys(conditions):
            model, _ = become(model, condition, self.ruleset, mid_game=False)
        return model

    def initial_state(self, surface_height=None) -> State:
        """The game state before turn 1: every model at its starting pose with its rider's numbers.

        surface_height: callable ((N, 2) points) -> heights, e.g. ``TableGeometry.surface_height``,
        for models whose position has no z.
        """
        models = []
        for model in self.models:
            z = 0.0
            if len(model.position) == 2 and surface_height is not None:
                z = float(surface_height([model.position[:2]])[0])
            rider = model.rider
            models.append(ModelState(
                id=model.id, gang=model.gang, bike_type=model.bike_type, pose=self.start_pose(model, z),
                speed=int(model.speed), stopped=int(model.speed) == 0 and model.bike_type != ON_FOOT,
                stress=int(rider.stress), wounds=int(rider.wounds),
                max_stress=int(rider.max_stress), dodge=int(rider.dodge), protection=int(rider.protection),
                weapon=rider.weapon or "punch", gun=rider.gun, traits=tuple(rider.traits.items()),
                traps_carried=tuple(rider.traps),
                **({"strength": int(rider.strength)} if reads_strength(rider.traits, self.ruleset) else {}),
                ammo=0 if rider.gun is None else int(rider.ammo if rider.ammo is not None
                                                     else self.ruleset.data(f"guns.{rider.gun}.ammo"))))
        models = [self._with_conditions(m, spec.rider.conditions) for m, spec in zip(models, self.models)]
        models = [lie_in_wait(m, spec.rider.ambush.decoys, spec.rider.ambush.reveal_on) if spec.rider.ambush else m
                  for m, spec in zip(models, self.models)]  # EC-TRAIT-AMBUSH: off the table until revealed
        if self.spec.package_run is not None:  # EC-MISSION-PACKAGE: the carriers set out with their packages
            carried, to = self.spec.package_run.carriers, self.spec.package_run.to
            models = [m.but(package=int(carried[m.id]), package_to=to) if m.id in carried else m for m in models]
        if self.spec.vip_takedown is not None:  # EC-MISSION-VIP: each gang's declared VIP
            declared = set(self.spec.vip_takedown.vips.values())
            models = [m.but(vip=True) if m.id in declared else m for m in models]
        grab = self.spec.grab_n_go  # EC-MISSION-GRAB: the packages on the table, each gang's way home
        jail = self.spec.jailbreak  # EC-MISSION-JAIL, EC-MISSION-RESCUE: the NPCs, the road exits
        law = law_plan(self.spec, self.ruleset)  # EC-LAW: the police wait off the table until they enter
        police = str(self.ruleset.data("law.gang")) if law is not None else None
        models = [m.but(law=True, status=WAITING) if m.gang == police else m for m in models]
        course = self.spec.corners, self.spec.hoon_hour  # EC-MISSION-CORNERS, EC-MISSION-HOON
        return State(turn=0, mission=self.spec.mission, models={m.id: m for m in models}, scenery={},
                     score={g: 0 for g in self.spec.gangs if g != police},
                     items=npc_items(self.spec) if grab is None else tuple(Item(i.id, float(i.at[0]), float(i.at[1]))
                                                                           for i in grab.items),
                     exits={} if grab is None else dict(grab.exits),
                     road_exits=() if jail is None else road_exits(self.spec), law=law,
                     zones=() if course[0] is None else tuple(Zone(z.id, *(float(v) for v in z.rect))
                                                              for z in course[0].zones),
                     checkpoints=() if course[1] is None else tuple(
                         Checkpoint(c.id, float(c.at[0]), float(c.at[1]), checkpoint_radius_in(c, self.ruleset))
                         for c in course[1].checkpoints))


def checkpoint_radius_in(checkpoint: RaceCheckpoint, ruleset: Ruleset) -> float:
    """A Hoon Hour checkpoint's radius, inches (EC-MISSION-HOON): the scene's, else the rules
    data's ``missions.hoon_hour.radius_in`` (its DECISION: the rulebook gives a gate no size)."""
    return float(checkpoint.radius if checkpoint.radius is not None else ruleset.data("missions.hoon_hour.radius_in"))
