"""The schema of the rules data's ``on_foot:`` section: a gang member without a bike.

Kept apart from :mod:`entropy3d.systems.entropy_city.rulesdata` (which declares the rest of the file) so that
module stays small; the rules engine reads these values through ``ruleset.spec.on_foot``.
Pure: pydantic only.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    # validators built when first used, as rulesdata.Strict's
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False, defer_build=True)


#: the plan actions a model on foot could be given; ``move`` is a walk (``walk: straight 3``)
FOOT_ACTIONS = ("move", "laytrap")


class OnFootSpec(_Strict):
    """A miniature on foot ("On Foot", "On foot:", Commonly Used Terms): its base, its height and
    how it moves. Millimetres at model scale, inches on the table."""

    base_diameter_mm: Annotated[float, Field(gt=0, description="its round base, millimetres")]
    height_mm: Annotated[float, Field(gt=0, description="the standing figure from base top to the top of "
                                                        "its head, millimetres; its eye is los.yaml's "
                                                        "eye_below_rider_top_in below that")]
    actions: list[Literal["move", "laytrap"]] = Field(min_length=1, description="plan actions it may take")
    per_building: Annotated[int, Field(ge=0, description="models on foot one building may hold")]
