"""Rules data as a validated, immutable value: :class:`Ruleset`.

Built from the plain mapping of ``rules/entropy_city.yaml`` (the scene layer reads the file) and
validated by the schema in :mod:`entropy3d.systems.entropy_city.rulesdata`, which declares every key; every
number the engine uses comes from here, never from a constant in code.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from entropy3d.errors import RulesDataError
from entropy3d.geometry import BaseShape
from entropy3d.systems.entropy_city.rulesdata import BikeRules, RulesSpec, TerrainEffect, validate_rules
from entropy3d.systems.entropy_city.vehicledata import VehicleKind
from entropy3d.units import TableScale, mm_to_inches

#: the ``bike_type`` of a miniature on foot ("On Foot": "A miniature that is not riding a
#: motorcycle"); no bike type of the rules data may take this name
ON_FOOT = "on_foot"


@dataclass(frozen=True)
class SpeedBand:
    """Allowed distance of one action at one speed, in inches (EC-SPD-2)."""

    max: float
    min: float


@dataclass(frozen=True)
class BikeType:
    """A bike type's modifiers (EC-BIKE-*): ``max_mod[speed]`` and ``min_mod`` in inches."""

    name: str
    base: str
    max_mod: Mapping[int, float]
    min_mod: float


@dataclass(frozen=True)
class TerrainType:
    """A terrain type (EC-TER-*): rolling friction for physics, rule flags, display colour."""

    name: str
    friction: float
    difficult: bool
    dangerous: bool
    colour: str


@dataclass(frozen=True)
class Ruleset:
    """Validated rules data.

    ``spec`` is the whole validated file (:class:`~entropy3d.systems.entropy_city.rulesdata.RulesSpec`, typed, with
    the schema's defaults filled in); ``raw`` is the same as plain mappings, for :meth:`data`.
    """

    name: str
    scale: TableScale
    speeds: Mapping[int, SpeedBand]
    bike_types: Mapping[str, BikeType]
    terrain: Mapping[str, TerrainType]
    base_shapes: Mapping[str, BaseShape]
    bike_height_in: float
    rider_height_in: float
    size_classes: Mapping[int, str]
    spec: RulesSpec = field(repr=False, compare=False)
    raw: Mapping[str, Any] = field(repr=False, default_factory=dict)
    vehicles: Mapping[str, VehicleKind] = field(default_factory=dict)
    """the cars and vans of the rules data's ``vehicles:``, by kind (a model's ``bike_type`` names one)"""

    @property
    def terrain_names(self) -> tuple[str, ...]:
        return tuple(self.terrain)

    @property
    def bike_type_names(self) -> tuple[str, ...]:
        return tuple(self.bike_types)

    def bike_rules(self, bike_type: str) -> BikeRules:
        """The special rules of a bike type (EC-BIKE-*); a type without a ``bike_rules`` entry has
        none (the schema's defaults)."""
        return self.spec.bike_rules.get(bike_type) or _NO_BIKE_RULES

    def terrain_effect(self, terrain: str) -> TerrainEffect:
        """The effect of a terrain type on moves (EC-TER-*); a type without a ``terrain_effects``
        entry has none (the schema's defaults)."""
        return self.spec.terrain_effects.get(terrain) or _NO_TERRAIN_EFFECT

    def data(self, dotted: str) -> Any:
        """The value at a dotted key path of the rules data (``"dice.bust_over"``).

        Raises RulesDataError naming the path when a key is missing, so a rules file without a
        section the engine needs fails with a clear message instead of a KeyError.
        """
        found = self._data_found
        if dotted in found:
            return found[dotted]
        node: Any = self.raw
        walked: list[str] = []
        for key in dotted.split("."):
            walked.append(key)
            if isinstance(node, Mapping):
                if key in node:
                    node = node[key]
                    continue
                if key.lstrip("-").isdigit() and int(key) in node:
                    node = node[int(key)]
                    continue
            raise RulesDataError(f"rules {self.name!r}", [(".".join(walked), None, "is required")])
        found[dotted] = node
        return node

    @cached_property
    def _data_found(self) -> dict[str, Any]:
        """The values :meth:`data` found, by dotted key path: the rules data never changes (a
        changed reading is a new ruleset, :meth:`with_option`), and an activation asks ~10 of them
        (~1 us each walked, through ``isinstance`` checks against ``Mapping``)."""
        return {}

    def option(self, name: str) -> Any:
        """The chosen reading of a rulebook conflict: ``options.<name>.choices[default]``."""
        spec = self.data(f"options.{name}")
        choice, choices = spec["default"], spec["choices"]
        if choice not in choices:
            raise RulesDataError(f"rules {self.name!r}", [(f"options.{name}.default", None,
                                 f"unknown choice {choice!r}; use one of {', '.join(choices)}")])
        return choices[choice]

    def with_option(self, name: str, choice: str) -> "Ruleset":
        """A copy of this ruleset with another reading of the conflict ``name`` chosen (an unknown
        choice is reported by :meth:`option`)."""
        self.data(f"options.{name}")  # an unknown option is a RulesDataError naming it
        option = getattr(self.spec.options, name)
        options = self.spec.options.model_copy(update={name: option.model_copy(update={"default": choice})})
        spec = self.spec.model_copy(update={"options": options})
        return dataclasses.replace(self, spec=spec, raw=_plain(spec))

    def base_for(self, bike_type: str) -> BaseShape:
        """The base of a bike type, of a miniature on foot (:data:`ON_FOOT`) or of a vehicle kind
        (``vehicles:``), in inches (EC-BASE)."""
        if bike_type == ON_FOOT:
            return self.base_shapes[ON_FOOT]
        if bike_type in self.vehicles:
            return self.vehicles[bike_type].base
        return self.base_shapes[self.bike_types[bike_type].base]

    @property
    def figure_height_in(self) -> float:
        """A standing figure on foot from its base top to the top of its head, inches."""
        return mm_to_inches(self.spec.on_foot.height_mm)

    @property
    def walk_in(self) -> float:
        """How far a model on foot walks in one action, inches (option ``on_foot_move_in``)."""
        return float(self.option("on_foot_move_in"))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<rules>") -> "Ruleset":
        """Validate the mapping of a rules data file against the schema
        (:mod:`entropy3d.systems.entropy_city.rulesdata`); raise RulesDataError naming every bad key path and
        its fix (no line numbers: :func:`entropy3d.scene.load_ruleset` adds those)."""
        spec, problems = validate_rules(data)
        if problems:
            raise RulesDataError(source, problems)
        return cls.from_spec(spec)

    @classmethod
    def from_spec(cls, spec: RulesSpec) -> "Ruleset":
        """The ruleset of already validated rules data."""
        bases = spec.bases
        base_shapes = {
            "oval": BaseShape(mm_to_inches(bases.oval.length_mm), mm_to_inches(bases.oval.width_mm)),
            "round": BaseShape(mm_to_inches(bases.round.diameter_mm), mm_to_inches(bases.round.diameter_mm)),
            ON_FOOT: BaseShape(mm_to_inches(spec.on_foot.base_diameter_mm),
                               mm_to_inches(spec.on_foot.base_diameter_mm)),
        }
        if ON_FOOT in spec.bike_types:
            raise RulesDataError(f"rules {spec.name!r}", [(f"bike_types.{ON_FOOT}", None, f"{ON_FOOT!r} names a "
                                 "miniature on foot (section on_foot:); give the bike type another name")])
        for name in spec.vehicles:
            if name == ON_FOOT or name in spec.bike_types:
                raise RulesDataError(f"rules {spec.name!r}", [(f"vehicles.{name}", None, f"{name!r} already names "
                                     f"{'a miniature on foot' if name == ON_FOOT else 'a bike type'}; give the "
                                     "vehicle another name")])
        scale = TableScale(spec.scale.metres_per_inch, spec.scale.seconds_per_activation)
        return cls(
            name=spec.name,
            scale=scale,
            speeds=MappingProxyType({s: SpeedBand(max=float(b.max), min=float(b.min)) for s, b in spec.speeds.items()}),
            bike_types=MappingProxyType({
                name: BikeType(name, b.base, MappingProxyType({k: float(v) for k, v in b.max_mod.items()}),
                               float(b.min_mod))
                for name, b in spec.bike_types.items()}),
            terrain=MappingProxyType({
                name: TerrainType(name, float(t.friction), t.difficult, t.dangerous, t.colour)
                for name, t in spec.terrain.items()}),
            base_shapes=MappingProxyType(base_shapes),
            bike_height_in=mm_to_inches(bases.bike_height_mm),
            rider_height_in=mm_to_inches(bases.rider_height_mm),
            size_classes=MappingProxyType(dict(spec.size_classes)),
            spec=spec,
            raw=_plain(spec),
            vehicles=MappingProxyType({name: VehicleKind.from_spec(name, vehicle, scale)
                                       for name, vehicle in spec.vehicles.items()}),
        )


_NO_BIKE_RULES = BikeRules()
_NO_TERRAIN_EFFECT = TerrainEffect()


def _plain(spec: RulesSpec) -> Mapping[str, Any]:
    """The validated data as plain mappings, keys as written in the file."""
    return MappingProxyType(spec.model_dump(by_alias=True))
