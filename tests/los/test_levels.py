"""Line of sight across levels: under a highway, off a deck's edge, across a bridge."""

from __future__ import annotations

import pytest

from tests.los.conftest import EYE_X, TARGET_X, TARGET_Y, street, visible_share
from tests.los.shooting import shoots

HIGHWAY = {"id": "flyover", "kind": "highway", "rect": [8, 8, 16, 16], "height": 4,
           "pillars": [[10, 10], [14, 14]]}


def test_street_riders_see_each_other_under_a_highway(tmp_path, world_of):
    """Clause: EC-LOS-3, EC-LOS-4 - the deck is above both eyes: it blocks neither view; its
    pillars are pieces of their own."""
    result = world_of(street(tmp_path, platforms=[HIGHWAY])).line_of_sight("v", "t")
    assert result.top_down.visible and result.top_down.clear_lines == result.top_down.lines
    assert result.true_los.visible_fraction == pytest.approx(1.0)


def test_a_pillar_on_the_line_under_the_highway_hides_the_middle(tmp_path, world_of):
    """Clause: EC-LOS-3, EC-COVER-1 - a 0.9" pillar (size 2) between two street riders blocks the
    lines through it but not those past it, and hides the rider and the middle of the bike: the
    bike's two ends show, under 25%, so no shot."""
    pillared = {**HIGHWAY, "pillars": [[12, 12]]}
    world = world_of(street(tmp_path, platforms=[pillared]))
    result = world.line_of_sight("v", "t")
    assert result.top_down.visible and 0 < result.top_down.clear_lines < result.top_down.lines
    assert result.top_down.blockers == ("flyover/pillar0",) == result.true_los.blockers
    near_face = 12 - 0.45  # the pillar's near face limits the rays that pass beside it
    half_band = 0.45 * (TARGET_X - 0.25 - EYE_X) / (near_face - EYE_X)
    hidden = visible_share(world.table, y_lo=TARGET_Y - half_band, y_hi=TARGET_Y + half_band)
    assert result.true_los.visible_fraction == pytest.approx(1 - hidden, abs=0.04)
    assert result.true_los.cover and result.true_los.bike_seen and not shoots(result)


def test_a_rider_on_a_deck_sees_the_street_from_the_edge_not_from_behind_it(tmp_path, world_of):
    """Clause: EC-LOS-4 - from a deck 4" up, a bike 4" out from the deck's edge is hidden by the
    edge unless the rider stands at it; top-down ignores the deck the viewer stands on."""
    deck = {"id": "deck", "kind": "platform", "rect": [2, 8, 10, 16], "height": 4}
    models = [{"id": "back", "gang": "hades", "bike": "cruiser", "position": [5, 12], "facing": 0},
              {"id": "edge", "gang": "hades", "bike": "cruiser", "position": [8.8, 9.5], "facing": 0},
              {"id": "t", "gang": "komodo", "bike": "cruiser", "position": [14, 11], "facing": 90}]
    world = world_of(street(tmp_path, models=models, platforms=[deck]))
    assert world.miniatures()["back"].pose.z == pytest.approx(4.0)
    results = world.all_pairs(pairs=[("back", "t"), ("edge", "t")])
    behind, at_edge = results[("back", "t")], results[("edge", "t")]
    assert behind.top_down.visible and at_edge.top_down.visible
    assert behind.true_los.visible_fraction == 0.0 and behind.true_los.blockers == ("deck",)
    assert at_edge.true_los.visible_fraction > 0.95 and shoots(at_edge)


def test_rooftops_see_each_other_across_a_bridge_and_the_street_sees_under_it(tmp_path, world_of):
    """Clause: EC-LOS-3 - a bridge level with both roofs lies beneath both riders; under it,
    two street riders see each other."""
    models = [{"id": "a", "gang": "hades", "bike": "cruiser", "position": [4, 20, 4.2], "facing": 0},
              {"id": "b", "gang": "komodo", "bike": "cruiser", "position": [20, 20, 4.2], "facing": 180},
              {"id": "v", "gang": "hades", "bike": "cruiser", "position": [4, 12], "facing": 0},
              {"id": "t", "gang": "komodo", "bike": "cruiser", "position": [20, 12], "facing": 90}]
    path = street(tmp_path, models=models,
                  buildings=[{"id": "west", "rect": [1, 17, 8, 23], "storeys": 2},
                             {"id": "east", "rect": [16, 17, 23, 23], "storeys": 2}],
                  platforms=[{"id": "bridge", "kind": "bridge", "rect": [8, 8, 16, 23], "height": 4.2,
                              "thickness": 0.3}])
    world = world_of(path)
    results = world.all_pairs(pairs=[("a", "b"), ("v", "t")])
    across, under = results[("a", "b")], results[("v", "t")]
    assert across.top_down.visible and across.true_los.visible_fraction == pytest.approx(1.0)
    assert under.top_down.visible and under.true_los.visible_fraction == pytest.approx(1.0)
