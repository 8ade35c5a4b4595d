"""Gang battle rules on the shared table: the bundled gang fight (scenes/systems/gang_fight.yaml) decided
from the line-of-sight engine's facts, through ``entropy3d los --all``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.geometry import Pose
from entropy3d.los import LosWorld
from entropy3d.scene import load_scene
from entropy3d.scene.systemrules import model_stats, system_of
from entropy3d.table_readings import bearing_deg, sightings

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "gang_fight.yaml"


@pytest.fixture(scope="module")
def fight():
    table = load_scene(SCENE)
    world = LosWorld(table)
    return table, system_of(table), {(s.viewer, s.target): s for s in sightings(world)}


def test_bearing_is_the_angle_off_the_facing():
    facing_east = Pose(0.0, 0.0, 0.0)
    assert bearing_deg(facing_east, (10.0, 0.0)) == pytest.approx(0.0)
    assert bearing_deg(facing_east, (10.0, 10.0)) == pytest.approx(45.0)
    assert bearing_deg(facing_east, (-3.0, 0.0)) == pytest.approx(180.0)


def test_GANG_COVER_the_yard_crates_give_partial_cover(fight):
    """Clause: GANG-COVER ("Partial Cover = -1"). Vex (escher_2) looks at Gorg (orlock_1) over the
    yard crates: the sight rays the crates stop leave part of Gorg hidden, more than half seen."""
    table, gang, seen = fight
    sighting = seen[("escher_2", "orlock_1")]
    assert {"yard_crate_1", "yard_crate_2"} & set(sighting.blockers)
    assert 0.5 < sighting.visible_fraction < 0.98
    assert gang.cover(sighting.visible_fraction) == "partial"


def test_GANG_ARC_a_prone_fighter_behind_cover_is_passed_over(fight):
    """Clause: GANG-ARC ("prone fighters in cover cannot be targeted"). Dreg (orlock_3), prone
    by the warehouse, is in Lyra's (escher_1) front arc and partly seen; Lyra shoots Skab instead."""
    table, gang, seen = fight
    stats = model_stats(table, gang)
    dreg = seen[("escher_1", "orlock_3")]
    assert stats["orlock_3"].prone and gang.in_vision_arc(dreg) and gang.in_sight(dreg)
    assert gang.cover(dreg.visible_fraction) != "none"
    enemies = [seen[("escher_1", t)] for t in ("orlock_1", "orlock_2", "orlock_3")]
    assert gang.priority_target(enemies, stats).target == "orlock_2"


def test_los_all_reports_each_fighters_target_and_roll():
    """Clauses: GANG-ARC, GANG-COVER through the command line, the fighters by name (Lyra is
    escher_1, Skab orlock_2, Gorg orlock_1, Vex escher_2) as `act` names them."""
    result = CliRunner().invoke(app, ["los", str(SCENE), "--all"])
    assert result.exit_code == 0, result.output
    assert "gang_battle rules" in result.output
    assert "Lyra: line of sight: Skab 100% visible" in result.output
    assert ("Gorg: line of sight: Vex 94% visible, 14.5\" away at 21° off the facing -> rules: shoots "
            "Vex, the closest in the front arc; partial cover -1 to hit: hits on 5+") in result.output


def test_sightings_name_what_blocks_its_material_and_top_and_the_bases(fight):
    """The facts every system reads: Gorg (orlock_1) sees Vex (escher_2) past the jersey
    barrier on the gravel track, a concrete piece 0.59" high; both are figures on foot on 25 mm
    round bases."""
    _, _, seen = fight
    sighting = seen[("orlock_1", "escher_2")]
    assert sighting.blockers == ("track_barrier",)
    assert sighting.blocker_surfaces == ("concrete",)
    assert sighting.blocker_tops_in == pytest.approx((0.59,), abs=0.01)
    assert sighting.viewer_base_in == sighting.target_base_in == pytest.approx((25 / 25.4, 25 / 25.4))
