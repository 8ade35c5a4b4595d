"""Reference cards on the shared table: the physics' impacts and falls and the table's levels
read by the cards (scenes/systems/rooftop_fall.yaml), through ``entropy3d activate`` and ``los --all``."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.core.facts import Contact, Facts, Flight
from entropy3d.geometry import Pose
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.table_readings import impacts, level_change, speed_before_in_s
from entropy3d.units import TableScale

SCENE = Path(__file__).parents[2] / "scenes" / "systems" / "rooftop_fall.yaml"


def test_impacts_speed_and_fall_height_in_depicted_metres():
    """A trajectory at 10"/s that hits the yard wreck at t = 0.3 s, then a flight off a 4.2" deck
    rising 0.3" and landing on the ground: at 1.42 m per inch, 14.2 m/s into the wreck (metal)
    and a 4.5" = 6.39 m fall onto the yard's dirt."""
    table = load_scene(SCENE)
    geometry = build_table_geometry(table)
    trajectory = np.array([[0.0, 10.0, 20.0, 0.0, 0.0], [0.1, 11.0, 20.0, 0.0, 0.0],
                           [0.2, 12.0, 20.0, 0.0, 0.0], [0.3, 13.0, 20.0, 0.0, 0.0]])
    assert speed_before_in_s(trajectory, 0.3) == pytest.approx(10.0)
    facts = Facts("physics", 5.0, 3.0, False, trajectory,
                  contacts=(Contact("yard_wreck", "mesh", 3.0, 0.3, 0.0, 0.0, (13.0, 20.0, 0.5)),),
                  flights=(Flight("rail_bridge", "platform", 1.0, 0.1, (11.0, 20.0), 4.2, 10.0, 0.0, 0.3,
                                  3.0, 0.3, (13.0, 20.0), 0.0),),
                  end_pose=Pose(13.0, 20.0))
    contact, fall = impacts("jet", facts, TableScale(1.42, 1.5), geometry)
    assert (contact.what, contact.surface) == ("contact", "metal")
    assert contact.speed_m_s == pytest.approx(14.2)
    assert (fall.what, fall.surface) == ("fall", "dirt")
    assert fall.drop_m == pytest.approx(4.5 * 1.42)
    assert level_change("jet", 4.2, 0.0, 2.1).to_level == 0


def test_REF_COLL_impact_speed_is_read_before_the_impact_slowed_the_ride():
    """Clause: REF-COLL (its Speed is the impact's; issue 46): the step that holds a contact is
    already slowed by it. A ride at 10"/s whose
    last step (0.2 to 0.3 s, the contact at 0.3 s) moved 0.2" reads 10"/s, not 2"/s; a contact
    in the first step reads that step."""
    trajectory = np.array([[0.0, 10.0, 20.0, 0.0, 0.0], [0.1, 11.0, 20.0, 0.0, 0.0],
                           [0.2, 12.0, 20.0, 0.0, 0.0], [0.3, 12.2, 20.0, 0.0, 0.0]])
    assert speed_before_in_s(trajectory, 0.3) == pytest.approx(10.0)
    assert speed_before_in_s(trajectory, 0.25) == pytest.approx(10.0)
    assert speed_before_in_s(trajectory, 0.1) == pytest.approx(10.0)
    assert speed_before_in_s(trajectory[:1], 0.1) == 0.0


def test_REF_FALL_a_ride_still_in_the_air_falls_where_the_game_stood_it():
    """Clause: REF-FALL. A ride that ends in the air (EC-JUMP-2: it comes down in its next action)
    came down, as far as the cards are concerned, where the game stood the model: off a 4.2" deck
    to the ground, 4.2" = 5.96 m at 1.42 m an inch, its last 1"/s speed plus what the last 1" of
    the drop adds. The next ride, which begins in the air, is no second fall."""
    table = load_scene(SCENE)
    geometry = build_table_geometry(table)
    trajectory = np.array([[0.0, 20.0, 30.0, 4.2, 0.0], [0.5, 20.0, 29.5, 1.0, 0.0], [1.0, 20.0, 29.0, 1.0, 0.0]])
    flying = Facts("physics", 2.0, 2.0, True, trajectory,
                   flights=(Flight("rail_bridge", "platform", 0.0, 0.0, (20.0, 30.0), 4.2, 1.0, 4.2, 0.0),),
                   end_pose=Pose(20.0, 29.0, 270.0, 1.0))
    scale = TableScale(1.42, 1.5)
    assert impacts("jet", flying, scale, geometry) == []
    [fall] = impacts("jet", flying, scale, geometry, stood_z_in=0.0)
    assert fall.drop_m == pytest.approx(4.2 * 1.42)
    rest = 1.0 * 1.42
    assert fall.speed_m_s == pytest.approx(np.sqrt((1.0 * 1.42) ** 2 + 2 * 9.81 * rest))
    assert fall.surface == "dirt" and fall.t_s == 1.0
    landing = Facts("physics", 1.0, 1.0, True, trajectory,
                    flights=(Flight(None, "air", 0.0, 0.0, (20.0, 29.0), 0.0, 1.0, 0.0, 0.0,
                                    0.5, 0.1, (20.0, 28.5), 0.0),),
                    end_pose=Pose(20.0, 28.5))
    assert impacts("jet", landing, scale, geometry, stood_z_in=0.0) == []


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_REF_FALL_off_the_bridge_through_activate():
    """Clauses: REF-FALL, REF-COLL, REF-ELEV. Jet rides off the 4.2" rail bridge (2 storeys: 6 m
    at 1.42 m per inch) into the yard: the physics lands it from about 6 m, the card's 3 m row
    gives 3x1 kph, and a 3x2 body onto dirt (soil, 3) takes 3x2 * 3x1 * 3 = 27x3 = 2x4; it came
    down 2 levels: Move +2."""
    out = run("activate", str(SCENE), "-m", "jet", "-p", "s3: straight 14", "--seed", "1")
    fall = re.search(r"came down ([0-9.]+) m onto dirt .* force 3x2 x 3x1 x 3 \(soil\) = 2x4", out)
    assert fall, out
    assert 5.5 < float(fall.group(1)) < 6.7
    assert "came down 2 level(s): Move +2" in out


def test_REF_COLL_into_the_wreck_at_the_measured_speed_through_activate():
    """Clause: REF-COLL. Brick (body 4x2) rides at the wrecked car: the force is the body times
    the card speed of the impact speed the physics measured times metal's 10; the rider and the
    car are named as a player knows them (Brick, the yard wreck), not by id."""
    out = run("activate", str(SCENE), "-m", "brick", "-p", "s2: straight 10", "--seed", "1")
    hit = re.search(r"hit the yard wreck \(metal\) at ([0-9.]+) kph.* force 4x2 x (\dx\d) x 10 \(metal\) = (\dx\d)",
                    out)
    assert hit, out
    assert "to Brick and the yard wreck" in out
    from entropy3d.systems.reference_cards import CardNumber

    assert hit.group(2) == str(CardNumber.of(float(hit.group(1))))
    assert hit.group(3) == str(CardNumber.product(CardNumber(4, 2), CardNumber.parse(hit.group(2)), 10))


def test_REF_ELEV_levels_in_los_all():
    """Clause: REF-ELEV. Spotter on the bridge (level 2) sees Climber at the ramp's foot (level 0):
    range +2 and combat Level +1 to Spotter, each named as a player knows it."""
    out = run("los", str(SCENE), "--all")
    assert ("Spotter: line of sight: Climber on level 0, Spotter on level 2 -> rules: range +2; "
            "combat Level +1 to Spotter, the higher") in out


@pytest.mark.parametrize("under", ["model", "wreck"])
def test_REF_FALL_coming_down_on_a_rider_is_one_fall_to_the_ground(under):
    """Clause: REF-FALL. Physics brought the spotter (rooftop_fall, seed 1) down off the 4.2" bridge
    onto Brick's rider 1.8" up, then it rolled off him to the yard: two flights, the second from
    a model. A miniature is no surface: one fall from the bridge to the yard's dirt, 4.2" = 5.96 m
    (it was two: 2.4" = 3.36 m and 1.8" = 2.60 m). A wreck is the same hull (the producers report
    a flight off it as from a "wreck"): coming down on one is the same one fall (it was ruled
    5.96 m and then 2.60 m more)."""
    table = load_scene(SCENE)
    geometry = build_table_geometry(table)
    trajectory = np.array([[0.0, 20.0, 31.5, 4.2, 270.0], [0.5, 20.0, 28.7, 4.2, 270.0],
                           [1.35, 20.0, 24.3, 1.83, 270.0], [1.4, 19.8, 24.3, 1.83, 260.0],
                           [1.6, 19.0, 24.8, 0.0, 250.0]])
    facts = Facts("physics", 8.0, 7.0, False, trajectory,
                  flights=(Flight("rail_bridge", "platform", 2.8, 0.53, (20.0, 28.7), 4.2, 5.3, 4.2, 0.0,
                                  6.6, 1.35, (20.0, 24.3), 1.83),
                           Flight("brick", under, 6.7, 1.4, (19.8, 24.3), 1.83, 5.3, 0.0, 0.0)),
                  end_pose=Pose(19.0, 24.8, 250.0, 0.0))
    [fall] = impacts("spotter", facts, TableScale(1.42, 1.5), geometry, stood_z_in=0.0)
    assert fall.what == "fall" and fall.surface == "dirt"
    assert fall.drop_m == pytest.approx(4.2 * 1.42)
    assert fall.t_s == 1.35, "it struck when it first came down"
