"""The line-of-sight rules data (``rules/los.yaml``) as a validated, immutable value.

Every threshold the LOS code uses comes from here, never from a constant in code; the YAML file
explains how elevation and size classes combine and why.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Mapping, Optional

from pydantic import Field, ValidationError, model_validator

from entropy3d.core.keypaths import validation_problems
from entropy3d.core.specbase import Fraction, Strict
from entropy3d.errors import RulesDataError
from entropy3d.resources import rules_file
from entropy3d.scene.rulesfile import build_from_file

Levels = Annotated[float, Field(ge=0, description="levels; null: never")]


class SeesOverSpec(Strict):
    """Size class (1, 2, 3) -> levels the higher model must stand above a piece's top to look over
    it top-down; null: never (TEN-ELEV with EC-LOS-3)."""

    class_1: Optional[Levels] = Field(alias="1")
    class_2: Optional[Levels] = Field(alias="2")
    class_3: Optional[Levels] = Field(alias="3")

    @model_validator(mode="before")
    @classmethod
    def _integer_keys(cls, data: Any) -> Any:
        # YAML reads `1:` as the integer 1; the schema names the keys as text
        return {str(k): v for k, v in data.items()} if isinstance(data, Mapping) else data


class TopDownSpec(Strict):
    viewer_edge_samples: Annotated[int, Field(ge=2, le=500)]
    target_edge_samples: Annotated[int, Field(ge=3, le=500)]


class TrueLosSpec(Strict):
    eye_below_rider_top_in: Annotated[float, Field(ge=0, le=2)]
    silhouette_grid: Annotated[int, Field(ge=4, le=256)]
    cover_min_hidden: Fraction
    bike_seen_min: Fraction


class LosSpec(Strict):
    """The schema of ``rules/los.yaml``: every key, rejecting unknown ones."""

    name: str = "line of sight"
    level_height_in: Annotated[float, Field(ge=0.01, le=100)]
    sees_over: SeesOverSpec
    miniature_size_class: Annotated[int, Field(ge=0, le=3)]
    top_down: TopDownSpec
    true_los: TrueLosSpec


@dataclass(frozen=True)
class LosRules:
    """Validated line-of-sight data."""

    level_height_in: float
    """Height of one level (storey), inches."""
    sees_over: Mapping[int, float | None]
    """Size class -> levels the higher model must stand above a piece's top to look over it
    top-down (None: never). TEN-ELEV with EC-LOS-3."""
    miniature_size_class: int
    """Size class other miniatures block as (EC-LOS-3: bikes are class 1)."""
    viewer_edge_samples: int
    """Points along the front half of the viewer's base edge (EC-LOS-2)."""
    target_edge_samples: int
    """Points around the target's base edge (EC-LOS-1)."""
    eye_below_rider_top_in: float
    """The eye sits this far below the top of the rider solid, inches (EC-LOS-4)."""
    silhouette_grid: int
    """The target silhouette is sampled by a grid x grid bundle of rays."""
    cover_min_hidden: float
    """Hidden fraction from which a target counts as in cover (EC-COVER-1)."""
    bike_seen_min: float
    """Visible fraction of the bike's own silhouette for the bike to count as seen (EC-LOS-4)."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<los rules>") -> "LosRules":
        """Validate the mapping of ``rules/los.yaml`` against :class:`LosSpec`; RulesDataError
        names every bad key path and its fix."""
        if not isinstance(data, Mapping):
            raise RulesDataError(source, [("", None, "must be a mapping of sections")])
        try:
            spec = LosSpec.model_validate(dict(data))
        except ValidationError as error:
            raise RulesDataError(source, validation_problems(error, LosSpec, data)) from None
        return cls(
            level_height_in=spec.level_height_in,
            sees_over=MappingProxyType({int(k): (None if v is None else float(v))
                                        for k, v in spec.sees_over.model_dump(by_alias=True).items()}),
            miniature_size_class=spec.miniature_size_class,
            viewer_edge_samples=spec.top_down.viewer_edge_samples,
            target_edge_samples=spec.top_down.target_edge_samples,
            eye_below_rider_top_in=spec.true_los.eye_below_rider_top_in,
            silhouette_grid=spec.true_los.silhouette_grid,
            cover_min_hidden=spec.true_los.cover_min_hidden,
            bike_seen_min=spec.true_los.bike_seen_min,
        )


@functools.lru_cache(maxsize=4)
def _load_cached(path: str) -> LosRules:
    return build_from_file(Path(path), LosRules.from_mapping)


def load_los_rules(path: str | Path | None = None) -> LosRules:
    """Load and validate a LOS rules data file; the bundled ``rules/los.yaml`` by default."""
    return _load_cached(str(Path(path).resolve() if path else rules_file("los")))
