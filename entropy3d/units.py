"""Length units and the one conversion between table inches and physics metres.

The table and the rules speak inches. Mesh files come in mm, cm, in or m and are converted to
inches once, when they are loaded. Physics simulates the *depicted* world in metres; the factor
(``metres_per_inch``) is rules data (``rules/entropy_city.yaml``, ``scale:``), passed in, never a
constant here, so that the two unit systems are never mixed silently.
"""

from __future__ import annotations

MM_PER_INCH = 25.4

#: gravity of the depicted world, metres per second squared (both producers fly with it; a fall's
#: speed at landing is worked out with it)
GRAVITY_M_S2 = 9.81

#: kilometres per hour in one metre per second (the reference cards and the chase speak kph)
KPH_PER_M_S = 3.6

#: inches per one unit of each length unit a mesh file may declare
INCHES_PER_UNIT: dict[str, float] = {
    "mm": 1.0 / MM_PER_INCH,
    "cm": 10.0 / MM_PER_INCH,
    "in": 1.0,
    "m": 1000.0 / MM_PER_INCH,
}

LENGTH_UNITS = tuple(INCHES_PER_UNIT)


def to_inches(value, unit: str):
    """Convert ``value`` (a number or numpy array) in ``unit`` to table inches."""
    try:
        return value * INCHES_PER_UNIT[unit]
    except KeyError:
        raise ValueError(f"unknown length unit {unit!r}; use one of {', '.join(LENGTH_UNITS)}") from None


def mm_to_inches(value):
    """Millimetres at model scale to table inches."""
    return value / MM_PER_INCH


class TableScale:
    """Converts between table inches and depicted-world metres and seconds.

    ``metres_per_inch``: depicted metres per table inch (~1.42 for 28-32 mm figures).
    ``seconds_per_activation``: depicted seconds one activation's move takes.
    """

    __slots__ = ("metres_per_inch", "seconds_per_activation")

    def __init__(self, metres_per_inch: float, seconds_per_activation: float):
        if metres_per_inch <= 0 or seconds_per_activation <= 0:
            raise ValueError("scale factors must be positive")
        self.metres_per_inch = float(metres_per_inch)
        self.seconds_per_activation = float(seconds_per_activation)

    def __repr__(self) -> str:
        return (f"TableScale(metres_per_inch={self.metres_per_inch}, "
                f"seconds_per_activation={self.seconds_per_activation})")

    def metres(self, inches):
        """Table inches to depicted metres."""
        return inches * self.metres_per_inch

    def inches(self, metres):
        """Depicted metres to table inches."""
        return metres / self.metres_per_inch

    def speed_mps(self, inches_per_activation: float) -> float:
        """A move of ``inches_per_activation`` as a depicted speed in metres per second."""
        return self.metres(inches_per_activation) / self.seconds_per_activation
