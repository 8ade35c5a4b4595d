"""A Rescue & Survive holder on the real table (issue 45, EC-MISSION-RESCUE): komodo_1 holds
Hades' contact (destination (41, 11.25), down dock street) where it picked it up in the sweeps'
games, at (40.6, 33.5) in the park facing 54 degrees, away from the docks
(:mod:`entropy3d.game.rescue_goals`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from entropy3d.game.action_view import ActionView
from entropy3d.game.mission_goals import MissionGoals
from entropy3d.game.players import AutoPlayer, ride_meets
from entropy3d.game.tableview import TableView
from entropy3d.geometry import Pose
from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.systems.entropy_city.odds import exact_odds
from entropy3d.systems.entropy_city.state import OUT

PICKED_UP = Pose(40.6, 33.5, 54.0, 0.02)
GUN_EXPOSED = 12.0  # game.rescue_goals.GUN_EXPOSED: points off a holder's end for each rival gun that sees it
CONTACT_WORTH = 120.0  # game.rescue_goals.CONTACT_WORTH
HOLDER_SCENERY = 20.0  # game.rescue_goals.HOLDER_SCENERY


@pytest.fixture(scope="module")
def rescue_table():
    """The table, its view, and turn 2 with komodo_1 holding hades_contact at :data:`PICKED_UP` (at
    speed 1, stress 2), hades_5's sniper rifle on its roof at (19.8, 19.8), everyone else out with
    no wreck."""
    table = load_scene(bundled_dir("scenes") / "rescue_survive.yaml")
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    for model in list(state.models.values()):
        if model.id not in ("komodo_1", "hades_5"):
            state = state.with_model(model.but(status=OUT, wounds=0))
    state = dataclasses.replace(state, items=tuple(dataclasses.replace(i, carrier="komodo_1")
                                                   if i.id == "hades_contact" else i for i in state.items))
    state = state.with_model(state.model("komodo_1").but(pose=PICKED_UP, speed=1, stress=2))
    return table, TableView(table, geometry), state


def _view(table, view, state, **rider) -> ActionView:
    state = state.with_model(state.model("komodo_1").but(**rider))
    return ActionView(state, state.model("komodo_1"), 0, view, table.ruleset)


def _player(table, view) -> AutoPlayer:
    return AutoPlayer(np.random.default_rng(0), table.ruleset, temperature=0.0, lookahead=view.lookahead())


def test_EC_MISSION_RESCUE_a_holder_facing_away_from_its_destination_gains_by_turning_for_it(rescue_table):
    """Clause: EC-MISSION-RESCUE. From the pickup spot facing 54 degrees (the docks are south),
    turning right along a tight template (ending at (43.3, 33.9) facing 324) takes the holder
    nearer its destination as measured from 4" ahead of the bike: about 16.7 points of pull
    (4 an inch); riding straight on loses ground. Measured from the bike's centre (the old pull)
    the turn lost ground too (-4.1 points), and holders circled the park."""
    table, view, state = rescue_table
    seen = _view(table, view, state)
    goal = MissionGoals(table.ruleset).of(seen.state, seen.model, view)
    turn, on = seen.check("s1: right tight 3"), seen.check("s1: straight 3")
    turn_pull, on_pull = goal.home_points(seen.model, turn, view)[0], goal.home_points(seen.model, on, view)[0]
    assert turn_pull > 10.0 and on_pull < 0.0


def test_EC_MISSION_RESCUE_EC_TMPL_2_a_holder_turns_for_home_without_a_test(rescue_table):
    """Clause: EC-MISSION-RESCUE, EC-TMPL-2. The holder at 2 stress turns for the docks: a medium
    template at speed 1 needs no test (EC-TMPL-2's table), and the player weighs such turns for
    a holder; it rides a U-turn with no test that gains ground. The old player knew the tight
    template only at speed 1 and chose a chicane of two tight turns (two TN 14 tests: 12 of 40
    contacts in 20 games were lost by holders busting out in such tests)."""
    table, view, state = rescue_table
    seen = _view(table, view, state)
    move = seen.check(_player(table, view).choose_plan(seen))
    goal = MissionGoals(table.ruleset).of(seen.state, seen.model, view)
    assert not move.tests
    assert goal.home_points(seen.model, move, view)[0] > 0.0


def test_EC_MISSION_RESCUE_EC_DICE_4_a_holder_counts_the_contact_a_test_at_max_stress_risks(rescue_table):
    """Clause: EC-MISSION-RESCUE, EC-DICE-4. The same tight turn (a TN 14 test, +1 stress) scores
    lower for the holder at 9 stress than at 1 stress by more than half the contact's worth: at
    10 stress the test is at TN 21 and takes it out (a bust, then a failed remount) about 4 times
    in 5, the contact with it. The old player counted 30 points times the chance of a bust (0.89
    less 0.05): 25 points."""
    table, view, state = rescue_table
    player = _player(table, view)
    scores = {}
    for stress in (1, 9):
        seen = _view(table, view, state, stress=stress)
        scores[stress] = player.score(seen, seen.check("s1: right tight 3"))
    policy = player.policy
    bust_low, bust_high = (float(exact_odds(14, s, table.ruleset, policy, 10).bust) for s in (2, 10))
    assert bust_high > 0.85 and bust_low < 0.06
    assert scores[1] - scores[9] > 30.0 * (bust_high - bust_low) + 0.5 * CONTACT_WORTH


def test_EC_MISSION_RESCUE_EC_COVER_1_a_holder_counts_the_rival_gun_that_sees_where_it_ends(rescue_table):
    """Clause: EC-MISSION-RESCUE, EC-COVER-1. hades_5's sniper rifle (no range limit) on the
    corner roof at (19.8, 19.8) sees the main street at (40, 23.5), not (42, 18.5) behind the
    offices. The holder riding 4" south to the street scores GUN_EXPOSED lower while the rifle
    has a shot than when it is empty; riding 4" south to (42, 18.5), hidden, scores alike. The
    old player scored both alike, loaded or not."""
    table, view, state = rescue_table
    player = _player(table, view)

    def loaded_less_empty(start: Pose) -> float:
        scores = []
        for ammo in (1, 0):
            of = state.with_model(state.model("hades_5").but(ammo=ammo))
            seen = _view(table, view, of, pose=start)
            player.sights = {}
            scores.append(player.score(seen, seen.check("s1: straight 4")))
        return scores[0] - scores[1]

    assert loaded_less_empty(Pose(40.0, 27.5, 270.0, 0.01)) == pytest.approx(-GUN_EXPOSED)
    assert loaded_less_empty(Pose(42.0, 22.5, 270.0, 0.01)) == pytest.approx(0.0)


def test_EC_MISSION_RESCUE_a_holders_ride_off_the_table_short_of_its_destination_is_no_clear_ride(rescue_table):
    """Clause: EC-MISSION-RESCUE. The holder at (46.5, 38.5) facing the east edge: riding 4" east
    leaves the table at y 38.5, 27" from its destination, and the contact is lost; the look-ahead
    meets nothing on the way (the old player found the ride clear, and a holder cornered by the
    edge took it: 2 contacts lost so in 20 games), so the player counts it as meeting something
    at its start (0"). Holding nothing, the same ride is clear."""
    table, view, state = rescue_table
    empty = dataclasses.replace(state, items=tuple(dataclasses.replace(i, carrier=None) for i in state.items))

    def meets(of):
        seen = _view(table, view, of, pose=Pose(46.5, 38.5, 0.0, 0.02))
        action = seen.checked("s1: straight 4")
        return ride_meets(seen, action, action.move, view.lookahead())

    assert meets(state) == 0.0
    assert meets(empty) is None


def test_EC_MISSION_RESCUE_EC_DEST_2_a_holder_counts_a_ride_into_a_destructible(rescue_table):
    """Clause: EC-MISSION-RESCUE, EC-DEST-2. The holder riding 5" north from (31, 37) runs over the
    park's bench at (31, 41): a test of its risk, or at speed 1 a solid, either a bust that drops
    the contact: HOLDER_SCENERY points of risk; the same ride from (34, 37), 3" beside it, none
    (hades_5's rifle emptied: no gun counts). A rider holding nothing risks no contact."""
    from entropy3d.game.rescue_goals import rescue_risk  # here: the other tests run on players without it

    table, view, state = rescue_table
    state = state.with_model(state.model("hades_5").but(ammo=0))
    empty = dataclasses.replace(state, items=tuple(dataclasses.replace(i, carrier=None) for i in state.items))

    def risk(of, x: float) -> float:
        seen = _view(table, view, of, pose=Pose(x, 37.0, 90.0, 0.02))
        return rescue_risk(seen.state, seen.model, seen.check("s1: straight 5"), view, table.ruleset, 2,
                           _player(table, view).policy, {}) - rescue_risk(
            seen.state, seen.model, seen.check("s1: straight 3"), view, table.ruleset, 2,
            _player(table, view).policy, {})

    assert risk(state, 31.0) == pytest.approx(HOLDER_SCENERY) and risk(state, 34.0) == pytest.approx(0.0)
    assert risk(empty, 31.0) == 0.0


def test_the_weights_here_are_rescue_goals_own():
    """The weights the tests above name are :mod:`entropy3d.game.rescue_goals`'s."""
    from entropy3d.game import rescue_goals

    assert (rescue_goals.GUN_EXPOSED, rescue_goals.CONTACT_WORTH, rescue_goals.HOLDER_SCENERY) == (
        GUN_EXPOSED, CONTACT_WORTH, HOLDER_SCENERY)
