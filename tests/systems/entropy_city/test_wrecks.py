"""Wrecks (EC-WOUND): a rider taken out leaves a wreck within 3" of where it was, placed by the
opponent, kept in the state and the replay JSON; from then on it is scenery."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from entropy3d.core.facts import Sight
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import ModelState, State, Wreck
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from entropy3d.systems.entropy_city.wrecks import clear_spot, place_wrecks, wreck_spots
from entropy3d.table_answers import wreck_answers, wreck_spots_around
from tests.systems.entropy_city.test_attacks import armed


def rider(model_id, gang, pose, **changes) -> ModelState:
    fields = dict(id=model_id, gang=gang, bike_type="police", pose=pose, speed=2, stress=0, wounds=3, max_stress=10,
                  dodge=1)
    fields.update(changes)
    return ModelState(**fields)


class Table:
    """A fake table: sight is ``sight``; the table is 48" square with no solid on it but a wall
    filling x >= ``wall_x``."""

    def __init__(self, sight: Sight = Sight(1.0, True, 9.0), wall_x: float = math.inf):
        self._sight, self.wall_x = sight, wall_x

    def sight(self, state, viewer, target, viewer_pose):
        return self._sight

    def edge_crossed(self, path):
        return None

    def off_table(self, points, margin=0.0):
        points = np.atleast_2d(points)
        return (points < margin).any(axis=1) | (points > 48.0 - margin).any(axis=1)

    def rest_level(self, xy, z):
        return 0.0

    def solid_under_base(self, outline, level):
        deepest = float(np.max(outline[:, 0])) - self.wall_x
        return ("wall", deepest) if deepest > 0.05 else None


def shot_state(mate_pose: Pose | None = None) -> State:
    """k1 shoots h1 (one wound left) with a pistol from 8" away; h2, h1's gang-mate, rides at
    ``mate_pose``."""
    models = {"k1": rider("k1", "komodo", Pose(10, 20, 0), gun="pistol", ammo=10),
              "h1": rider("h1", "hades", Pose(20, 20, 180), wounds=1)}
    if mate_pose is not None:
        models["h2"] = rider("h2", "hades", mate_pose)
    return State(2, "turf_war", models, {}, {"komodo": 0, "hades": 0})


def shoot(state, rules, dice, table=None):
    """k1's pistol shot at h1 resolved, then the wreck of any rider it took out placed by the
    opponent from what ``table`` says of the spots around it, as the one path does."""
    action = Action.attack("k1", "h1", "pistol", "never", "never")
    checked = check(armed(state, "k1"), action, rules, table or Table())
    after, events = resolve(state, checked, None, dice([9, 9, 2, 3]), rules)
    after, placed = place_wrecks(state, after, rules, wreck_answers(table, state, after, rules))
    return after, events + placed


def test_EC_WOUND_a_rider_taken_out_leaves_a_wreck_in_the_state_and_its_json(rules, dice):
    """Clause: EC-WOUND: the pistol's headshot (18 beats the dodge 2+3+1 by 3 or more) takes h1
    out; with none of its gang riding on, the wreck lies where it was, and the state's JSON keeps
    it."""
    after, events = shoot(shot_state(), rules, dice, Table())
    assert after.model("h1").status == "out"
    assert after.wrecks == (Wreck("wreck_h1", "h1", Pose(20, 20, 180, 0.0)),)
    wreck_event = [e for e in events if e.kind == "wreck"]
    assert len(wreck_event) == 1 and wreck_event[0].clauses == ("EC-WOUND",)
    assert wreck_event[0].figures["moved_in"] == 0.0 and "scenery" in wreck_event[0].text
    again = State.from_json(json.loads(json.dumps(after.to_json())))
    assert again.wrecks == after.wrecks and "wrecks" in after.to_json()
    assert "wrecks" not in shot_state().to_json()  # a game with no wreck keeps its replay bytes


def test_EC_WOUND_the_opponent_places_the_wreck_where_it_obstructs_most(rules, dice):
    """Clause: EC-WOUND, option wreck_placement = obstruct (the default): h2 rides north from
    (23, 10); the opponent puts h1's wreck 3" east of (20, 20), on h2's line ahead, within 3"."""
    after, events = shoot(shot_state(Pose(23, 10, 90)), rules, dice, Table())
    wreck = after.wrecks[0]
    assert math.hypot(wreck.pose.x - 20, wreck.pose.y - 20) <= 3.0 + 1e-9
    assert (round(wreck.pose.x, 6), round(wreck.pose.y, 6)) == (23.0, 20.0)
    assert "most in the way" in [e for e in events if e.kind == "wreck"][0].text


def test_EC_WOUND_where_it_was_is_the_alternative_reading(rules, dice):
    """Clause: EC-WOUND, option wreck_placement = where_it_was: the same shot leaves the wreck
    where h1 was, whatever its gang-mate does."""
    after, _ = shoot(shot_state(Pose(23, 10, 90)), rules.with_option("wreck_placement", "where_it_was"), dice,
                     Table())
    assert after.wrecks[0].pose.xy.tolist() == [20.0, 20.0]


def test_EC_WOUND_a_wreck_is_never_placed_in_a_solid_or_on_a_base(rules):
    """Clause: EC-WOUND: spots within 3"; a spot whose base would be in a wall, on another
    rider's base or off the table is not clear."""
    spots = wreck_spots(Pose(20, 20, 0), rules)
    assert len(spots) == 37 and max(math.hypot(s.x - 20, s.y - 20) for s in spots) <= 3.0 + 1e-9
    state = shot_state(Pose(23.5, 20, 0))
    base = rules.base_for("police")

    def table_says(spot, table=Table()):  # the table's answer for the spot itself (the first of its spots)
        return wreck_spots_around(table, spot, base, rules).spots[0]

    assert clear_spot(Pose(20, 20, 0), base, state, "h1", rules, table_says(Pose(20, 20, 0))) is not None
    assert clear_spot(Pose(21.5, 20, 0), base, state, "h1", rules, table_says(Pose(21.5, 20, 0))) is None  # h2
    assert table_says(Pose(20, 20, 0), Table(wall_x=21.0)) is None  # its base 0.5" into the wall
    assert table_says(Pose(1.0, 20, 0)) is None  # over the edge


def test_EC_WOUND_a_rider_out_over_the_edge_leaves_no_wreck_and_one_wreck_per_rider(rules):
    """Clause: EC-WOUND, EC-COL-EDGE: a rider out beyond the table's edge leaves no wreck on it;
    a rider already wrecked gets no second wreck."""
    before = shot_state()
    gone = before.with_model(before.model("h1").but(status="out", pose=Pose(50, 20, 0)))
    after, events = place_wrecks(before, gone, rules, wreck_answers(Table(), before, gone, rules))
    assert after.wrecks == () and "no wreck" in events[0].text
    out = before.with_model(before.model("h1").but(status="out"))
    once, _ = place_wrecks(before, out, rules, wreck_answers(Table(), before, out, rules))
    assert wreck_answers(Table(), before, once, rules) == {}  # nothing more for the table to answer
    twice, more = place_wrecks(before, once, rules, {})
    assert len(twice.wrecks) == 1 and more == []


def test_EC_WOUND_EC_ACT_PICKUP_a_wreck_is_not_put_down_over_an_item_on_the_table(rules, dice):
    """Clause: EC-WOUND, EC-ACT-PICKUP (DECISION in the rules data's ``wreck:``). The same shot
    takes h1 out at (20, 20), with the prisoner it would have dropped lying on the table at
    (20.5, 20), under h1's base. With none of its gang riding on, the wreck would lie where h1
    was, over the prisoner, hiding it from every rider (the pickup is "within 1 inch of an item").
    A wreck is a token the opponent puts down: not on the item, nor within the pickup's 1" of it.
    By hand (the police base: 2.95" long, 1.65" wide, facing west as h1 did): every spot of the
    first ring (1" out) lies within 1" of the prisoner; on the second ring (2" out, from east every
    30 degrees) east, (22, 20), puts the base's end at x = 20.52, 0.02" from it; 30 and 60 degrees
    are nearer than 1"; 90 degrees, (20, 22), puts its side 0.83" off its centre line, 1.2" from
    the prisoner: the nearest clear spot."""
    from entropy3d.systems.entropy_city.state import Item

    state = dataclasses.replace(shot_state(), items=(Item("prisoner", 20.5, 20.0),))
    after, events = shoot(state, rules.with_option("wreck_placement", "where_it_was"), dice, Table())
    (wreck,) = after.wrecks
    base = rules.base_for("police")
    gap = float(np.min(np.hypot(*(base.outline(wreck.pose, 48) - [20.5, 20.0]).T)))
    assert (round(wreck.pose.x, 6), round(wreck.pose.y, 6)) == (20.0, 22.0) and gap == pytest.approx(1.2, abs=0.01)
    assert "nearest clear spot" in next(e for e in events if e.kind == "wreck").rules
    # without the prisoner the wreck lies where h1 was, over that spot
    alone, _ = shoot(shot_state(), rules.with_option("wreck_placement", "where_it_was"), dice, Table())
    assert alone.wrecks[0].pose.xy.tolist() == [20.0, 20.0]
