"""A physics world lives for a game (issue 17): its static scenery is built once and every ride
puts the bikes and debris back from the game state. A ride must come out the same bits in a
world that rode anything before as in one just built, or a replay would depend on what the
process happened to ride first (a look-ahead, an activation replayed on its own, a new worker).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from entropy3d.core.scenery import ScenerySpot
from entropy3d.physics import world as physics_world
from entropy3d.physics.engine import pybullet
from entropy3d.physics.producer import PhysicsProducer
from entropy3d.physics.record import RideRecord
from entropy3d.physics.world import PhysicsWorld
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.transition import Action, check

DATA = Path(__file__).parent / "data"


def bits(found: RideRecord) -> bytes:
    """Every value of a ride record, floats exactly (repr round-trips a float; the trajectory as
    its float64 bytes)."""
    fields = {f.name: getattr(found, f.name) for f in dataclasses.fields(found)}
    trajectory = np.ascontiguousarray(fields.pop("trajectory"), dtype="<f8")
    return repr(fields).encode() + trajectory.tobytes()


@pytest.fixture(scope="module")
def start(proving_ground):
    return dataclasses.replace(proving_ground.table.initial_state(proving_ground.geometry.surface_height), turn=2)


def rides(start):
    """(name, state, model, plan): the heavy bench knocked (settling after the ride), the light one broken at
    speed 3 (removed mid-ride), head-on and side-on crashes into a bank, a jump across the gap,
    and the bench hit where an earlier ride left it (it starts awake)."""
    fast = start.with_model(start.model("smasher").but(speed=3))
    moved = start.with_scenery({"bench1": ScenerySpot(dx=0.5, turn_deg=10.0)})
    return [("bench knocked", start, "shover", "s2: straight 12"),
            ("bench broken", fast, "smasher", "s3: straight 16"),
            ("head-on crash", start, "crasher", "s3: straight 16"),
            ("jump", start, "jumper", "s3: straight 16"),
            ("side-on crash", start, "scraper", "s3: straight 6, right wide 7"),
            ("moved bench knocked", moved, "smasher", "s2: straight 12")]


def ride(producer, ruleset, state, model, plan) -> RideRecord:
    producer.ride(state, check(state, Action.ride(model, plan), ruleset))
    return producer.last_ride


def test_a_ride_is_the_same_bits_in_a_new_world_and_after_other_rides(proving_ground, start):
    ruleset = proving_ground.ruleset
    cases = rides(start)
    fresh = {}
    for name, state, model, plan in cases:
        producer = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
        fresh[name] = bits(ride(producer, ruleset, state, model, plan))
        producer.close()
    outcomes = set()
    living = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    try:
        # every ride after every other, in both orders, and each twice in a row
        for order in (cases, cases[::-1], [c for c in cases for _ in range(2)]):
            for name, state, model, plan in order:
                found = ride(living, ruleset, state, model, plan)
                outcomes.add((found.outcome, tuple(m.destroyed for m in found.scenery)))
                assert bits(found) == fresh[name], f"{name}: differs after other rides in the same world"
    finally:
        living.close()
    assert {"completed", "crashed"} <= {outcome for outcome, _ in outcomes}
    assert {(True,), (False,)} <= {destroyed for _, destroyed in outcomes}, "a bench knocked and one broken"


def test_the_rides_differ_so_the_comparison_can_fail(proving_ground, start):
    ruleset = proving_ground.ruleset
    producer = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    try:
        found = {name: bits(ride(producer, ruleset, state, model, plan))
                 for name, state, model, plan in rides(start)}
    finally:
        producer.close()
    assert len(set(found.values())) == len(found)


def test_a_ride_in_a_worker_process_matches_one_in_this_process(proving_ground, start):
    """The game's worker (forked, its own world, recycled every few rides) gives the same facts."""
    ruleset = proving_ground.ruleset
    cases = rides(start)
    here = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    worker = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=4)
    try:
        for name, state, model, plan in cases + cases[::-1]:
            action = check(state, Action.ride(model, plan), ruleset)
            mine, theirs = here.ride(state, action), worker.ride(state, action)
            assert np.asarray(mine.trajectory).tobytes() == np.asarray(theirs.trajectory).tobytes(), name
            assert repr((mine.end_pose, mine.end_velocity_in_s, mine.scenery, mine.contacts)) == \
                repr((theirs.end_pose, theirs.end_velocity_in_s, theirs.scenery, theirs.contacts)), name
    finally:
        here.close()
        worker.close()


def test_the_world_holds_only_the_scenery_and_the_current_ride(proving_ground, start):
    """Each ride takes out what the last one placed: the body count does not grow over a game."""
    ruleset = proving_ground.ruleset
    producer = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    try:
        counts = []
        for name, state, model, plan in rides(start) * 2:
            ride(producer, ruleset, state, model, plan)
            world = producer._world
            assert pybullet.getNumBodies(physicsClientId=world.client) == len(world.bodies)
            counts.append((name, len(world.bodies)))
        assert counts[:6] == counts[6:]
        models = set(world.bike_ids.values())  # the rider and the other models (kind bike, model or wreck)
        statics = sum(1 for body, info in world.bodies.items() if not info.dynamic and body not in models)
        assert statics == len(world.recipe.statics) + 1, "every static part and the catch floor, once"
    finally:
        producer.close()


@pytest.fixture(scope="module")
def debris_rows():
    table = load_scene(DATA / "debris_rows.yaml")
    geometry = build_table_geometry(table)
    return table, geometry, dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)


#: (model, plan, the crate it knocks or None): the first crate placed, the third, the last, none
ROW_RIDES = [("first", "s2: straight 12", "c1"), ("third", "s2: straight 12", "c3"),
             ("last", "s2: straight 12", "c8"), ("clear", "s2: straight 12", None)]


@pytest.fixture
def created(monkeypatch) -> list[str]:
    """The pieces and models whose bodies the worlds created (:func:`kept_riding` clears it per ride)."""
    made = []
    add_body = PhysicsWorld.add_body

    def counting(world, body, info, *, placed):
        made.append(info.piece_id)
        add_body(world, body, info, placed=placed)

    monkeypatch.setattr(PhysicsWorld, "add_body", counting)
    return made


@pytest.fixture
def restored(monkeypatch) -> list[str]:
    """The destructibles whose bodies the worlds put back where they rest (:func:`kept_riding` clears it)."""
    put_back = []
    restore = physics_world._restore_resting

    def counting(world, body, shape):
        put_back.append(shape.info.piece_id)
        restore(world, body, shape)

    monkeypatch.setattr(physics_world, "_restore_resting", counting)
    return put_back


def kept_riding(producer, ruleset, state, model, plan, created, *also_clear) -> tuple[RideRecord, list[str]]:
    """A ride and what it rode with that the ride before placed: its pieces and models placed
    without creating their bodies anew (PyBullet reuses the ids of removed bodies: ids cannot tell).
    ``also_clear``: other per-ride records (:func:`restored`), cleared before the ride."""
    created.clear()
    for more in also_clear:
        more.clear()
    found = ride(producer, ruleset, state, model, plan)
    world = producer._world
    placed = [world.bodies[body].piece_id for body in world.placed]
    return found, sorted(piece for piece in placed if piece not in created)


def test_crates_a_ride_left_untouched_stay_and_the_rides_are_the_same_bits(debris_rows, created, restored):
    """The world keeps the crates placed before the first one a ride disturbed (creating a body is
    most of what placing costs) and puts that one and all after it back on their bodies where they
    rest; every ride still comes out as in a new world, whichever crate the rides before it knocked
    (the rides of the second and third rounds knock crates put back so)."""
    table, geometry, start = debris_rows
    fresh = {}
    for model, plan, knocked in ROW_RIDES:
        producer = PhysicsProducer(table, geometry, rides_per_process=None)
        found = ride(producer, table.ruleset, start, model, plan)
        assert [m.piece_id for m in found.scenery] == ([knocked] if knocked else []), "the ride knocks its crate"
        fresh[model] = bits(found)
        producer.close()
    living = PhysicsProducer(table, geometry, rides_per_process=None)
    try:
        kept, put_back = [], []
        for model, plan, _ in ROW_RIDES + ROW_RIDES[::-1] + ROW_RIDES:
            found, kept_now = kept_riding(living, table.ruleset, start, model, plan, created, restored)
            assert bits(found) == fresh[model], model
            kept.append(kept_now)
            put_back.append(sorted(restored))
    finally:
        living.close()
    crates = [f"c{k}" for k in range(1, 9)]
    # no crate is created anew after the first ride; after the first ride knocked c1, c1 to c8
    # are put back where they rest; after the third's c3, c3 to c8; after the last's c8, c8; after
    # a ride that knocked nothing, none; and every model static in both rides (neither the rider
    # before nor the rider now) stays
    assert kept[1:5] == [crates + ["clear", "last"], crates + ["clear", "first"], crates + ["first", "third"],
                         crates + ["first", "last", "third"]]
    assert put_back[1:5] == [crates, crates[2:], crates[7:], []]


def test_models_a_ride_left_in_place_stay_and_the_rides_are_the_same_bits(proving_ground, start, created):
    """The other models placed from the same models (same pose to the bit) as static models in the
    ride before keep their bodies, the rider is placed anew; every ride still comes out as in a new
    world."""
    ruleset = proving_ground.ruleset
    smasher = start.model("smasher")
    moved = start.with_model(smasher.but(pose=dataclasses.replace(smasher.pose, y=smasher.pose.y + 1.0)))
    cases = [("crasher", start), ("crasher", start), ("jumper", start), ("jumper", moved)]
    fresh = []
    for model, state in cases:
        producer = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
        fresh.append(bits(ride(producer, ruleset, state, model, "s3: straight 16")))
        producer.close()
    living = PhysicsProducer(proving_ground.table, proving_ground.geometry, rides_per_process=None)
    try:
        kept = []
        for (model, state), expected in zip(cases, fresh):
            found, kept_now = kept_riding(living, ruleset, state, model, "s3: straight 16", created)
            assert bits(found) == expected, model
            kept.append(kept_now)
    finally:
        living.close()
    # the benches (left untouched by both riders) and the models static in both rides, not moved
    assert kept == [[], ["bench1", "heavy_bench", "jumper", "scraper", "shover", "smasher"],
                    ["bench1", "heavy_bench", "scraper", "shover", "smasher"],
                    ["bench1", "crasher", "heavy_bench", "scraper", "shover"]]


def test_a_model_put_back_comes_after_the_crates_placed_anew(debris_rows, created, restored):
    """A static model that stays is put back after the crates placed anew, as a new world adds it:
    here the rider knocks c1 and runs into 'clear', touching both in the same steps, so the order
    Bullet solves their contacts in (by broadphase proxy, oldest first) shows in the bits. The
    second ride puts c1 (knocked by the first) back where it rests and keeps 'clear'."""
    table, geometry, start = debris_rows
    first, clear = start.model("first"), start.model("clear")
    state = start.with_model(first.but(pose=dataclasses.replace(first.pose, x=11.0))).with_model(
        clear.but(pose=dataclasses.replace(clear.pose, x=15.78, y=11.5)))
    producer = PhysicsProducer(table, geometry, rides_per_process=None)
    expected = bits(ride(producer, table.ruleset, state, "first", "s2: straight 8"))
    producer.close()
    living = PhysicsProducer(table, geometry, rides_per_process=None)
    try:
        found, _ = kept_riding(living, table.ruleset, state, "first", "s2: straight 8", created)
        assert bits(found) == expected and found.outcome == "crashed"
        assert [m.piece_id for m in found.scenery] == ["c1"] and "clear" in created
        found, kept = kept_riding(living, table.ruleset, state, "first", "s2: straight 8", created, restored)
        assert "clear" in kept and "c1" in restored
        assert bits(found) == expected
    finally:
        living.close()


def test_random_rides_are_the_same_bits_as_in_a_new_world(debris_rows):
    """Seeded random sequences of rides (crates knocked or not, models moved between rides, a
    model put back after a crate placed anew) in one world, each the same bits as in a new one."""
    table, geometry, start = debris_rows
    first, clear = start.model("first"), start.model("clear")
    beside = start.with_model(first.but(pose=dataclasses.replace(first.pose, x=11.0))).with_model(
        clear.but(pose=dataclasses.replace(clear.pose, x=15.78, y=11.5)))
    moved = start.with_model(clear.but(pose=dataclasses.replace(clear.pose, y=26.0)))
    cases = [(state, model, plan) for state in (start, moved) for model, plan, _ in ROW_RIDES]
    cases += [(beside, "first", "s2: straight 8")] * 4  # often after a ride that knocked c1
    fresh = []
    for state, model, plan in cases:
        producer = PhysicsProducer(table, geometry, rides_per_process=None)
        fresh.append(bits(ride(producer, table.ruleset, state, model, plan)))
        producer.close()
    rng = np.random.default_rng(17)
    living = PhysicsProducer(table, geometry, rides_per_process=None)
    try:
        for k in rng.integers(len(cases), size=40):
            state, model, plan = cases[k]
            assert bits(ride(living, table.ruleset, state, model, plan)) == fresh[k], (model, k)
    finally:
        living.close()
