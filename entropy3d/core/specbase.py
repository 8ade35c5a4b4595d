"""The base of every rules-data schema (:mod:`entropy3d.systems.entropy_city.rulesdata`, the missions' in
:mod:`entropy3d.systems.entropy_city.missiondata`, the line-of-sight rules' in :mod:`entropy3d.los.losrules`):
the strict pydantic model and the number types the schemas share. Pure: no YAML, no file I/O."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

Pos = Annotated[float, Field(gt=0)]
NonNeg = Annotated[float, Field(ge=0)]
PosInt = Annotated[int, Field(gt=0)]
NonNegInt = Annotated[int, Field(ge=0)]
Fraction = Annotated[float, Field(ge=0, le=1)]
Degrees = Annotated[float, Field(ge=0, le=360)]
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]


class Strict(BaseModel):
    """Base of every rules-data model: unknown keys are errors and values are not coerced
    ("1" is not a number, 0 is not a boolean) and every number is finite (no .nan or .inf).
    Validators are built when first used (``defer_build``): validating a whole rules file builds
    its nested models in one pass, where building each one at import cost start-up (issue 17)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True, allow_inf_nan=False,
                              defer_build=True)
