"""Which destructibles an action knocked aside and where each is during the ride (game/knocks.py),
the one answer the film, the share page and the glTF export draw (EC-DEST-4)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from entropy3d.core.scenery import ScenerySpot
from entropy3d.game.knocks import KNOCK_S, Knock, knocks_in, spots_as_action_starts
from entropy3d.game.session import play_game
from tests.video.test_knocks import BARREL_LANE, THROUGH_THE_BARREL


def test_a_knocked_piece_leaves_its_spot_at_the_hit_and_lands_knock_s_later_worked_by_hand():
    """A piece hit 0.8 s into the ride, moved from (1, 0) to (1, -4). Before the hit: on (1, 0).
    Half way through its 0.35 s flight (u = 1/2) it has covered 1 - (1/2)**2 = 3/4 of the way:
    (1, -3). From 0.8 + 0.35 = 1.15 s on: on (1, -4). Its path is 9 keys 0.35 / 8 s apart, from
    (0.8, 1, 0) to (1.15, 1, -4), the middle one (0.975 s) the half-way point."""
    knock = Knock("barrel", 0.8, (1.0, 0.0), (1.0, -4.0))
    assert knock.offset_at(0.0) == knock.offset_at(0.8) == (1.0, 0.0)
    assert knock.offset_at(0.8 + KNOCK_S / 2) == pytest.approx((1.0, -3.0))
    assert knock.offset_at(0.8 + KNOCK_S) == knock.offset_at(99.0) == (1.0, -4.0)
    path = knock.path()
    assert len(path) == 9 and path[0] == (0.8, 1.0, 0.0) and path[-1] == pytest.approx((1.15, 1.0, -4.0))
    assert path[4] == pytest.approx((0.975, 1.0, -3.0))


def test_a_knock_starts_where_earlier_knocks_and_the_state_left_the_piece(tmp_path):
    """The barrel lane's activation made up into longer ones: with the barrel already moved (1, 1)
    and turned 10 degrees when the activation starts, h1's knock takes it from there (the rules'
    ``item_moved_to`` is its new offset from the scene's spot, [0, -4]); the same ride recorded
    again as a third action knocks it from (0, -4), where the second left it, not from the
    activation's start."""
    (tmp_path / "lane.yaml").write_text(BARREL_LANE)
    (tmp_path / "s.yaml").write_text(THROUGH_THE_BARREL)
    replay = play_game(None, script=tmp_path / "s.yaml", turns=1, producer="geometric")
    activation = next(a for a in replay.activations if a.model_id == "h1")
    moved = dataclasses.replace(activation.state_before, scenery={"barrel": ScenerySpot(1.0, 1.0, 10.0)})
    again = dataclasses.replace(activation, state_before=moved,
                                actions=(*activation.actions, activation.actions[1]))
    (first,) = knocks_in(again, 1)
    assert (first.start, first.end, first.turn_deg) == ((1.0, 1.0), (0.0, -4.0), 10.0)
    (second,) = knocks_in(again, 2)
    assert (second.start, second.end) == ((0.0, -4.0), (0.0, -4.0))




def test_the_scenery_as_an_action_starts_has_the_earlier_actions_knocks(tmp_path):
    """The barrel lane's game (h1 knocks the barrel [0, -4] in its second action): as the first
    and the second action start the barrel stands where the scene put it (the state before the
    activation holds no spot for it); recorded again as a third action, that one starts with the
    barrel where the second left it, (0, -4), unturned and on the table. The share page drew
    every action of an activation with its starting scenery, the barrel back on its spot."""
    (tmp_path / "lane.yaml").write_text(BARREL_LANE)
    (tmp_path / "s.yaml").write_text(THROUGH_THE_BARREL)
    replay = play_game(None, script=tmp_path / "s.yaml", turns=1, producer="geometric")
    activation = next(a for a in replay.activations if a.model_id == "h1")
    again = dataclasses.replace(activation, actions=(*activation.actions, activation.actions[1]))
    assert spots_as_action_starts(again, 0) == spots_as_action_starts(again, 1) == {}
    assert spots_as_action_starts(again, 2) == {"barrel": (0.0, -4.0, 0.0, False)}
    assert math.isclose(knocks_in(again, 1)[0].t_s, 0.53, abs_tol=0.01)
