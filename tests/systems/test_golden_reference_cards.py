"""Golden rulings of the reference cards (tests/systems/data/golden_reference_cards.yaml): each
case ridden on tests/data/card_yard.yaml by both producers through the one activation path, the
cards' rulings compared with the figures worked by hand (issue 46)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from entropy3d.game.judging import RideJudge
from entropy3d.game.session import make_producer
from entropy3d.game.step import activation
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.engine import EntropyCityEngine

CARD_YARD = Path(__file__).parents[1] / "data" / "card_yard.yaml"
CASES = yaml.safe_load((Path(__file__).parent / "data" / "golden_reference_cards.yaml").read_text())


@pytest.fixture(scope="module")
def yard():
    table = load_scene(CARD_YARD)
    geometry = build_table_geometry(table)
    return table, geometry, SceneProbe.from_table(table, geometry)


def rulings_of(yard, case, producer):
    table, geometry, probe = yard
    rides = make_producer(producer, table, geometry, physics_in_process=True)
    try:
        steps = activation(EntropyCityEngine(table.ruleset, probe), table.initial_state(geometry.surface_height),
                           case["model"], case["plans"], np.random.default_rng(1), rides, probe, push="sit-at-tn")
    finally:
        rides.close()
    return RideJudge.of(table, geometry, probe).events(case["model"], steps, np.random.default_rng(2))


@pytest.mark.parametrize("producer", ["physics", "geometric"])
@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_REF_COLL_REF_FALL_REF_ELEV_golden_rulings(yard, case, producer):
    """Clauses: REF-COLL, REF-FALL, REF-ELEV. The cards' rulings of each golden case, kind by kind
    and in order, with the hand-worked figures; the table's measures (a fall's drop in metres, an
    impact's speed in kph) within the case's tolerance of the hand-worked value. Both producers
    give the same rulings."""
    events = rulings_of(yard, case, producer)
    assert [(event.kind, list(event.clauses)) for event in events] == \
        [(ruling["kind"], ruling["clauses"]) for ruling in case["rulings"]], [event.text for event in events]
    for event, ruling in zip(events, case["rulings"]):
        for key, value in ruling["figures"].items():
            assert event.figures[key] == value, (key, event.text)
    for name, value, tolerance in case["measured"]:
        [impact] = [event for event in events if event.kind in ("landing", "crash")]
        assert impact.figures[name] == pytest.approx(value, rel=tolerance), impact.found
