"""The rules' answer (EC-COVER-1) to what the LOS engine measured, for the LOS tests: the engine
reports the visible share and whether the bike is seen; the 25% rule lives in the rules only."""

from __future__ import annotations

import functools

from entropy3d.systems.entropy_city.combat import shot_in_sight
from tests.systems.entropy_city.conftest import load_rules


@functools.cache
def _rules():
    return load_rules()


def shoots(result) -> bool:
    """Whether the rules allow a shot at what ``result`` (a LosResult) sees."""
    return shot_in_sight(result.true_los.visible_fraction, result.true_los.bike_seen, _rules())
