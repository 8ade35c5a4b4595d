"""Riding single activations through PyBullet worlds built from fixture tables."""

import importlib
import math

import numpy as np
import pytest

from entropy3d.geometry import Pose
from entropy3d.physics import BikeBody, build_table_world
from entropy3d.units import GRAVITY_M_S2 as GRAVITY


def test_speed3_jump_clears_the_gap_and_lands_on_the_far_deck(proving_ground):
    """Clause: EC-JUMP-1 (physics side): off the broken end at speed 3 the bike flies the gap."""
    facts = proving_ground.ride("jumper", [[16, 33], [32, 33]], 16)
    assert facts.contacts == ()
    flight = max(facts.flights, key=lambda f: f.max_z)
    assert flight.land_t is not None
    assert flight.land_xy[0] >= 28.0, "landed short of highway_b (x >= 28)"
    assert flight.land_z == pytest.approx(2.0, abs=0.05), "landed on highway_b's deck (2\")"
    assert flight.max_z > 2.7, "flew above the lip of the broken end"
    assert facts.end_pose.z == pytest.approx(2.0, abs=0.05)


def test_speed1_attempt_falls_into_the_gap(proving_ground):
    """Clause: EC-JUMP-1 (physics side): at speed 1 the bike only rolls off the lip."""
    facts = proving_ground.ride("jumper", [[16, 33], [24, 33]], 8)
    assert all(f.land_xy is None or f.land_xy[0] < 28.0 for f in facts.flights)
    assert facts.end_pose.x < 28.0
    assert facts.max_z < 2.7 + 0.35, "a slow bike does not soar over its lip"


def test_bike_aimed_at_a_wall_hits_it_head_on_and_stops_base_to_base(proving_ground):
    """Clause: EC-COL-HEAD (physics side): straight at the bank, the contact is straight on."""
    facts = proving_ground.ride("crasher", [[18, 8], [34, 8]], 16)
    assert facts.outcome == "crashed"
    crash = facts.first_crash
    assert crash.piece_id == "bank" and crash.kind == "building"
    assert crash.angle_deg < 10.0
    base = proving_ground.table.base_of(proving_ground.table.model("crasher"))
    assert facts.end_pose.x + base.length / 2 == pytest.approx(30.0, abs=0.1), "nose against the wall at x=30"


def test_bike_scraping_along_a_wall_hits_it_side_on(proving_ground):
    """Clause: EC-COL-SIDE (physics side): drifting into the bank's north face."""
    facts = proving_ground.ride("scraper", [[31, 13.2], [47, 12.2]], 16)
    assert facts.outcome == "crashed"
    crash = facts.first_crash
    assert crash.piece_id == "bank"
    assert crash.angle_deg > 60.0
    assert crash.into_deg == pytest.approx(270.0, abs=5.0), "into the north face is -y"


def test_bench_hit_at_speed_2_is_knocked_along(proving_ground):
    """Clause: EC-DEST-2 (physics side): a speed-2 ride through a bench moves the bench.

    The heavy (risk-2) bench: the hit gives it 18.3 m/s, 0.57 of the 32 m/s that breaks it."""
    facts = proving_ground.ride("shover", [[4, 42], [16, 42]], 12)
    assert facts.outcome == "completed"
    hits = [c for c in facts.contacts if c.piece_id == "heavy_bench"]
    assert len(hits) == 1 and hits[0].role == "debris" and hits[0].impulse > 0
    (moved,) = [m for m in facts.scenery if m.piece_id == "heavy_bench"]
    assert moved.dx > 2.0 and not moved.destroyed


def test_EC_DEST_2_a_speed_1_ride_knocks_the_light_bench_and_does_not_break_it(proving_ground):
    """Clause: EC-DEST-2 (physics side): at 8" an activation, the most speed 1 rides, the light
    (risk-1) bench is knocked along, not smashed: the hit gives it 14.1 m/s of the 16 a risk-1
    piece breaks at. (Summed, the solver's contact impulse over the bench's mass came to 20.6 m/s,
    and the crawling bike smashed it.)"""
    facts = proving_ground.ride("smasher", [[4, 20], [22, 20]], 8)
    (hit,) = [c for c in facts.contacts if c.piece_id == "bench1"]
    assert hit.role == "debris" and hit.impulse > 0
    (moved,) = [m for m in facts.scenery if m.piece_id == "bench1"]
    assert not moved.destroyed and moved.dx > 2.0


def test_bench_hit_at_speed_3_is_smashed(proving_ground):
    """Clause: EC-DEST-1 (physics side): the light (risk-1) bench hit at speed 3 breaks and is
    taken off the table, where the heavy one above was only knocked along."""
    facts = proving_ground.ride("smasher", [[4, 20], [22, 20]], 18)
    assert facts.outcome == "completed"
    (hit,) = [c for c in facts.contacts if c.piece_id == "bench1"]
    assert hit.role == "debris" and hit.impulse > 0
    (moved,) = [m for m in facts.scenery if m.piece_id == "bench1"]
    assert moved.destroyed and (moved.dx, moved.dy) == (0.0, 0.0)


@pytest.mark.parametrize("angle_deg,speed_in_s", [(20.0, 10.0), (40.0, 8.0), (60.0, 12.0)])
def test_flat_ground_flight_matches_the_projectile_formula(flat, angle_deg, speed_in_s):
    """Range 2 v^2 sin(a) cos(a) / g and air time 2 v sin(a) / g, within 2%, in metres."""
    a = math.radians(angle_deg)
    velocity = (speed_in_s * math.cos(a), 0.0, speed_in_s * math.sin(a))
    start = Pose(4.0, 24.0, 0.0, 0.0)
    facts = flat.ride("flyer", [[4, 24], [46, 24]], 40, pose=start, velocity_in_s=velocity, in_air=True,
                       time_slice_s=4.0)
    flight = facts.flights[0]
    v = flat.ruleset.scale.metres(speed_in_s)
    expected_time = 2 * v * math.sin(a) / GRAVITY
    expected_range = 2 * v * v * math.sin(a) * math.cos(a) / GRAVITY
    measured_range = flat.ruleset.scale.metres(flight.land_xy[0] - flight.launch_xy[0])
    assert flight.duration == pytest.approx(expected_time, rel=0.02)
    assert measured_range == pytest.approx(expected_range, rel=0.02)


def test_bike_over_the_cliff_edge_leaves_the_table(proving_ground):
    """Clause: EC-COL-EDGE (physics side): south is a cliff; the bike falls off it."""
    start = Pose(24.0, 6.0, 270.0, 0.0)
    facts = proving_ground.ride("crasher", [[24, 6], [24, -10]], 16, pose=start)
    assert facts.outcome == "left_table" and facts.left_table == "south"
    assert facts.end_pose.z < -1.0


def test_other_bikes_are_obstacles(proving_ground):
    """Clause: EC-COL-1: another miniature in the way is an unavoidable impact."""
    table = proving_ground.table
    other = BikeBody("smasher", table.base_of(table.model("smasher")), Pose(26.0, 8.0, 90.0, 0.0))
    facts = proving_ground.ride("crasher", [[18, 8], [34, 8]], 16, others=[other])
    assert facts.outcome == "crashed" and facts.first_crash.piece_id == "smasher"
    assert facts.first_crash.kind == "bike"


def test_same_ride_twice_gives_identical_facts(proving_ground):
    runs = [proving_ground.ride("smasher", [[4, 20], [16, 20]], 12) for _ in range(2)]
    assert np.array_equal(runs[0].trajectory, runs[1].trajectory)
    assert runs[0].contacts == runs[1].contacts and runs[0].scenery == runs[1].scenery


def test_world_is_metres_scaled_from_table_inches(proving_ground):
    """The bank (10" wide) is 14.2 m wide in the depicted world."""
    import pybullet

    geometry, table = proving_ground.geometry, proving_ground.table
    with build_table_world(table, geometry) as world:
        body = world.body_of("bank")
        low, high = pybullet.getAABB(body, physicsClientId=world.client)
        width = high[0] - low[0]
    assert width == pytest.approx(table.ruleset.scale.metres(10.0), abs=0.1)


@pytest.mark.parametrize("pose,path", [
    (Pose(28.5, 8.0, 180.0, 0.0), [[28.5, 8.0], [16.5, 8.0]]),   # tail against the bank, rides away
    (Pose(29.17, 5.0, 90.0, 0.0), [[29.17, 5.0], [29.17, 17.0]]),  # side against the bank, rides along it
])
def test_a_bike_starting_against_a_wall_rides_away_without_crashing(proving_ground, pose, path):
    """Clause: EC-COL-1: only an impact is a crash; leaving a wall one touches is not."""
    facts = proving_ground.ride("crasher", path, 12, pose=pose)
    assert facts.outcome == "completed" and facts.first_crash is None


def test_a_bike_driven_out_of_the_numbers_is_named_and_the_ride_raises(flat):
    """The ride's loop (C) raises what the Python did: a bike whose position is no longer finite
    ends the ride with FloatingPointError naming it and the time, not a crash of the process."""
    with pytest.raises(FloatingPointError, match=r"bike flyer left the numbers at t=0\.\d{4}s"):
        flat.ride("flyer", [[4, 24], [20, 24]], float("inf"))


def test_an_error_in_a_ride_callback_comes_back_as_itself(proving_ground, monkeypatch):
    """What the loop asks of Python (a touch, a flight, an edge) may raise; the loop hands the
    error back unchanged (EC-COL-HEAD's crash is where the bank ride asks for its touch)."""
    ride_module = importlib.import_module("entropy3d.physics.ride")  # the package re-exports ride()

    def refuse(*args, **kwargs):
        raise LookupError("no touch for you")

    monkeypatch.setattr(ride_module, "_contact", refuse)
    with pytest.raises(LookupError, match="no touch for you"):
        proving_ground.ride("crasher", [[18, 8], [34, 8]], 16)
