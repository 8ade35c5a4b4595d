"""The schema of the rules data's ``vehicles:`` section: the cars and vans other rulebooks drive on
the shared table (seed 001's chase), and what each one is on the table.

Kept apart from :mod:`entropy3d.systems.entropy_city.rulesdata` (which declares the rest of the file) as
:mod:`entropy3d.systems.entropy_city.footdata` is. A vehicle is depicted in metres (its real size, turned into
table inches by ``scale.metres_per_inch``) and stands on no base: its footprint is its plan, a
rectangle with rounded corners bumper to bumper and side to side (the seed's "Vehicles on the
Tabletop" gives vehicles no base; EC-BASE is Entropy City's bikes'). Pure: pydantic and the
geometry module only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from entropy3d.geometry import BaseShape
from entropy3d.units import TableScale

_Pos = Annotated[float, Field(gt=0)]

#: the power of the superellipse a vehicle's plan is (2 an ellipse, larger ever squarer): 4 reads
#: as a car's rounded rectangle from above (its mesh, ``tools/make_models.py``, and its footprint)
VEHICLE_PLAN_POWER = 4.0


class _Strict(BaseModel):
    # validators built when first used, as rulesdata.Strict's
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False, defer_build=True)


class VehicleSpec(_Strict):
    """One kind of vehicle: the depicted vehicle, metres."""

    length_m: _Pos = Field(description="the depicted vehicle bumper to bumper, metres")
    width_m: _Pos = Field(description="its body's width (mirrors left out), metres")
    height_m: _Pos = Field(description="ground to roof, metres")
    waist_m: _Pos = Field(description="ground to the bottom of its windows (the bodywork's top), metres")
    cabin_m: list[float] = Field(min_length=2, max_length=2,
                                 description="where the glasshouse over the waist runs along the vehicle, "
                                             "[from, to] metres from its centre, + forward")
    cabin_width_m: _Pos = Field(description="the glasshouse's width at the waist (a car's windows lean in over "
                                            "its doors, a van's load box hardly), metres")

    @model_validator(mode="after")
    def _sizes(self):
        if not self.cabin_width_m <= self.width_m:
            raise ValueError("cabin_width_m must be at most width_m (the glasshouse sits on the body)")
        if not self.waist_m < self.height_m:
            raise ValueError("waist_m must be below height_m (the windows sit under the roof)")
        start, stop = self.cabin_m
        if not -0.5 * self.length_m <= start < stop <= 0.5 * self.length_m:
            raise ValueError("cabin_m must be [from, to] with from < to, both within half of length_m "
                             "of the centre")
        return self


@dataclass(frozen=True)
class VehicleKind:
    """A kind of vehicle on the table, in inches: its footprint (``base``: its plan, ``length`` by
    ``width``, a superellipse of power :data:`VEHICLE_PLAN_POWER`: what collides, touches and is
    drawn), the size of the depicted vehicle (``length``, ``width``, ``height`` above the thin
    plate it stands on), the bodywork's top (``waist``)
    and the glasshouse's run along it (``cabin``: from, to, inches from the centre, + forward) and
    width at the waist (``cabin_width``)."""

    name: str
    base: BaseShape
    length: float
    width: float
    height: float
    waist: float
    cabin: tuple[float, float]
    cabin_width: float

    @classmethod
    def from_spec(cls, name: str, spec: VehicleSpec, scale: TableScale) -> "VehicleKind":
        inches = scale.inches
        length, width = inches(spec.length_m), inches(spec.width_m)
        return cls(name, BaseShape(length, width, VEHICLE_PLAN_POWER),
                   length, width, inches(spec.height_m), inches(spec.waist_m),
                   (inches(spec.cabin_m[0]), inches(spec.cabin_m[1])), inches(spec.cabin_width_m))
