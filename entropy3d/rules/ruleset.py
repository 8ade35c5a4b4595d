"""Rules data as a validated, immutable value: :class:`Ruleset`.

Built from the plain mapping of ``rules/entropy_city.yaml`` (the scene layer reads the file);
every number the engine uses comes from here, never from a constant in code.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from entropy3d.errors import RulesDataError
from entropy3d.geometry import BaseShape
from entropy3d.units import TableScale, mm_to_inches


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
    """Validated rules data. ``raw`` keeps the whole mapping for sections read elsewhere."""

    name: str
    scale: TableScale
    speeds: Mapping[int, SpeedBand]
    bike_types: Mapping[str, BikeType]
    terrain: Mapping[str, TerrainType]
    base_shapes: Mapping[str, BaseShape]
    bike_height_in: float
    rider_height_in: float
    size_classes: Mapping[int, str]
    raw: Mapping[str, Any] = field(repr=False, default_factory=dict)

    @property
    def terrain_names(self) -> tuple[str, ...]:
        return tuple(self.terrain)

    @property
    def bike_type_names(self) -> tuple[str, ...]:
        return tuple(self.bike_types)

    def data(self, dotted: str) -> Any:
        """The value at a dotted key path of the rules data (``"dice.bust_over"``).

        Raises RulesDataError naming the path when a key is missing, so a rules file without a
        section the engine needs fails with a clear message instead of a KeyError.
        """
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
        return node

    def option(self, name: str) -> Any:
        """The chosen reading of a rulebook conflict: ``options.<name>.choices[default]``."""
        spec = self.data(f"options.{name}")
        choice = spec.get("choice", spec.get("default"))
        choices = spec.get("choices", {})
        if choice not in choices:
            raise RulesDataError(f"rules {self.name!r}", [(f"options.{name}.default", None,
                                 f"unknown choice {choice!r}; use one of {', '.join(choices)}")])
        return choices[choice]

    def with_option(self, name: str, choice: str) -> "Ruleset":
        """A copy of this ruleset with another reading of the conflict ``name`` chosen."""
        raw = dict(self.raw)
        options = dict(raw.get("options", {}))
        options[name] = {**options[name], "choice": choice}
        raw["options"] = options
        return dataclasses.replace(self, raw=MappingProxyType(raw))

    def base_for(self, bike_type: str) -> BaseShape:
        """The base of a bike type, in inches (EC-BASE)."""
        return self.base_shapes[self.bike_types[bike_type].base]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<rules>") -> "Ruleset":
        """Validate the mapping of a rules data file; raise RulesDataError naming the key."""
        problems: list[tuple[str, int | None, str]] = []

        def need(mapping: Any, key: str, path: str) -> Any:
            if not isinstance(mapping, Mapping) or key not in mapping:
                problems.append((f"{path}.{key}".lstrip("."), None, "is required"))
                return None
            return mapping[key]

        def number(value: Any, path: str, positive: bool = False) -> float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                problems.append((path, None, f"must be a number, got {value!r}"))
                return 0.0
            if positive and value <= 0:
                problems.append((path, None, f"must be > 0, got {value!r}"))
            return float(value)

        scale_raw = need(data, "scale", "") or {}
        mpi = number(need(scale_raw, "metres_per_inch", "scale"), "scale.metres_per_inch", True)
        spa = number(need(scale_raw, "seconds_per_activation", "scale"),
                     "scale.seconds_per_activation", True)

        speeds: dict[int, SpeedBand] = {}
        for speed, band in (need(data, "speeds", "") or {}).items():
            path = f"speeds.{speed}"
            speeds[int(speed)] = SpeedBand(max=number(need(band, "max", path), f"{path}.max", True),
                                           min=number(need(band, "min", path), f"{path}.min", True))

        bases_raw = need(data, "bases", "") or {}
        base_shapes: dict[str, BaseShape] = {}
        oval = need(bases_raw, "oval", "bases") or {}
        if oval:
            base_shapes["oval"] = BaseShape(
                mm_to_inches(number(need(oval, "length_mm", "bases.oval"), "bases.oval.length_mm", True)),
                mm_to_inches(number(need(oval, "width_mm", "bases.oval"), "bases.oval.width_mm", True)))
        round_ = need(bases_raw, "round", "bases") or {}
        if round_:
            d = mm_to_inches(number(need(round_, "diameter_mm", "bases.round"),
                                    "bases.round.diameter_mm", True))
            base_shapes["round"] = BaseShape(d, d)
        bike_h = mm_to_inches(number(need(bases_raw, "bike_height_mm", "bases"),
                                     "bases.bike_height_mm", True))
        rider_h = mm_to_inches(number(need(bases_raw, "rider_height_mm", "bases"),
                                      "bases.rider_height_mm", True))

        bike_types: dict[str, BikeType] = {}
        for name, spec in (need(data, "bike_types", "") or {}).items():
            path = f"bike_types.{name}"
            base = need(spec, "base", path)
            if base is not None and base not in base_shapes:
                problems.append((f"{path}.base", None,
                                 f"unknown base {base!r}; use one of {', '.join(base_shapes)}"))
            max_mod = {int(k): number(v, f"{path}.max_mod.{k}") for k, v in
                       (need(spec, "max_mod", path) or {}).items()}
            bike_types[name] = BikeType(name, base, MappingProxyType(max_mod),
                                        number(need(spec, "min_mod", path), f"{path}.min_mod"))

        terrain: dict[str, TerrainType] = {}
        for name, spec in (need(data, "terrain", "") or {}).items():
            path = f"terrain.{name}"
            terrain[name] = TerrainType(
                name=name,
                friction=number(need(spec, "friction", path), f"{path}.friction", True),
                difficult=bool(need(spec, "difficult", path)),
                dangerous=bool(need(spec, "dangerous", path)),
                colour=str(need(spec, "colour", path)),
            )

        size_classes = {int(k): str(v) for k, v in (need(data, "size_classes", "") or {}).items()}

        if problems:
            raise RulesDataError(source, problems)
        return cls(
            name=str(data.get("name", "rules")),
            scale=TableScale(mpi, spa),
            speeds=MappingProxyType(speeds),
            bike_types=MappingProxyType(bike_types),
            terrain=MappingProxyType(terrain),
            base_shapes=MappingProxyType(base_shapes),
            bike_height_in=bike_h,
            rider_height_in=rider_h,
            size_classes=MappingProxyType(size_classes),
            raw=MappingProxyType(dict(data)),
        )
