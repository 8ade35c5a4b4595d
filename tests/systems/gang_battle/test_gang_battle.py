"""Gang battle rules (seed 003): target priority in the front vision arc (GANG-ARC) and cover
to hit from the visible share of the target (GANG-COVER). Hand-worked cases on plain sightings;
the rules data is the bundled ``rules/gang_battle.yaml``."""

from __future__ import annotations

import pytest

from entropy3d.systems.gang_battle import FighterStats
from entropy3d.systems.readings import Sighting


def seen(target: str, distance: float, bearing: float, visible: float, viewer: str = "shooter") -> Sighting:
    return Sighting(viewer, target, distance, bearing, visible)


STANDING = FighterStats()
PRONE = FighterStats(prone=True)


def test_GANG_COVER_numbers_are_the_seed_passage(gang):
    """Clause: GANG-COVER. 003, "2. Make To-Hit Roll - with following modifiers: Partial Cover = -1,
    Full Cover = -2"; "7. Resolve Templates ... Partial Cover is +1 Armor Save, Full Cover is +2"."""
    cover = gang.rules.cover
    assert (cover.partial_to_hit, cover.full_to_hit) == (-1, -2)
    assert (cover.partial_save, cover.full_save) == (1, 2)


def test_GANG_ARC_shoots_the_closest_target_in_the_front_arc_and_sight(gang):
    """Clause: GANG-ARC. 003, "1. Target Priority - unless otherwise specified due to equipment or
    skills, fighters will shoot the closest target based on the front vision arc and line of sight."

    With a 90° arc (45° either side): 'flank' is closest (6") but 60° off the facing; 'hidden' is
    next (8") dead ahead but wholly hidden; 'near' (10", 30°, 80% seen) is the closest allowed and
    is chosen over 'far' (12" dead ahead, in the open)."""
    sightings = [seen("far", 12, 0, 1.0), seen("flank", 6, 60, 1.0), seen("hidden", 8, 0, 0.0),
                 seen("near", 10, 30, 0.8)]
    assert gang.priority_target(sightings).target == "near"
    assert gang.priority_target([s for s in sightings if s.target != "near"]).target == "far"


def test_GANG_ARC_the_arc_is_half_its_width_either_side_of_the_facing(gang):
    """Clause: GANG-ARC. The front vision arc of rules/gang_battle.yaml is 90°: a target 45° off
    the facing is in it, one 46° off is not."""
    assert gang.rules.vision_arc.front_deg == 90
    assert gang.in_vision_arc(seen("t", 5, 45.0, 1.0))
    assert not gang.in_vision_arc(seen("t", 5, 46.0, 1.0))


def test_GANG_ARC_a_prone_fighter_in_cover_cannot_be_targeted(gang):
    """Clause: GANG-ARC. 003: "Note that prone fighters in cover cannot be targeted." A prone
    fighter 60% visible (cover) is passed over for a farther one; prone in the open is a target."""
    sightings = [seen("prone_in_cover", 5, 0, 0.6), seen("standing", 9, 10, 1.0)]
    assert gang.priority_target(sightings, prone={"prone_in_cover"}).target == "standing"
    in_open = [seen("prone_in_open", 5, 0, 1.0), seen("standing", 9, 10, 1.0)]
    assert gang.priority_target(in_open, prone={"prone_in_open"}).target == "prone_in_open"


def test_GANG_ARC_no_target_when_none_is_in_arc_and_sight(gang):
    """Clause: GANG-ARC. Behind the fighter or out of sight: nobody to shoot."""
    sightings = [seen("behind", 3, 170, 1.0), seen("walled_off", 4, 0, 0.0)]
    assert gang.priority_target(sightings) is None
    [event] = gang.judge_sightings("shooter", sightings, {"shooter": STANDING, "behind": STANDING,
                                                         "walled_off": STANDING})
    assert event.rules.startswith("no target") and event.clauses == ("GANG-ARC",)


@pytest.mark.parametrize("visible,cover,modifier", [
    (1.00, "none", 0),      # wholly seen
    (0.99, "none", 0),      # a 1% sliver hidden is under the 2% noise floor: not cover
    (0.90, "partial", -1),  # partly hidden
    (0.51, "partial", -1),
    (0.50, "full", -2),     # half or more hidden
    (0.20, "full", -2),
])
def test_GANG_COVER_partial_minus_1_full_minus_2_from_the_visible_share(gang, visible, cover, modifier):
    """Clause: GANG-COVER. "Partial Cover = -1, Full Cover = -2", decided from the share of the
    target the shooter's eye reaches: full when at most half is seen, partial when at least 2% is
    hidden (rules/gang_battle.yaml)."""
    assert gang.cover(visible) == cover
    assert gang.to_hit_modifier(cover) == modifier


def test_GANG_COVER_to_hit_roll_and_improbable_shot(gang):
    """Clause: GANG-COVER. A BS 4+ fighter hits on 4+ in the open, 5+ at partial cover, 6+ at
    full; BS 5+ at full cover is "modified past 6+": "an improbable shot. Roll to hit and on a '6'
    roll you can roll again with unmodified fighter BS"."""
    assert gang.roll_needed(4, 0) == (4, False)
    assert gang.roll_needed(4, -1) == (5, False)
    assert gang.roll_needed(4, -2) == (6, False)
    assert gang.roll_needed(5, -2) == (6, True)


def test_GANG_ARC_and_COVER_in_the_event_the_los_command_prints(gang):
    """Clauses: GANG-ARC, GANG-COVER. The event names the target, its cover and the roll."""
    sightings = [seen("near", 10, 30, 0.8), seen("far", 12, 0, 1.0)]
    stats = {"shooter": FighterStats(ballistic_skill=3), "near": STANDING, "far": STANDING}
    [event] = gang.judge_sightings("shooter", sightings, stats)
    assert event.piece == "near" and event.figures["cover"] == "partial"
    assert "hits on 4+" in event.rules and "partial cover -1 to hit" in event.rules
    assert event.clauses == ("GANG-ARC", "GANG-COVER")


def test_GANG_PIN_a_prone_fighter_takes_no_aimed_shot(gang):
    """Clause: GANG-PIN. "Prone & Pinned: Fighter can only perform Stand Up (Basic), Crawl
    (Double), Blind Fire (Double), or Reload (Simple) Actions": `los --all` said the prone Dreg
    "shoots Lyra, the closest in the front arc"."""
    sightings = [seen("near", 10, 30, 0.8), seen("far", 12, 0, 1.0)]
    [event] = gang.judge_sightings("shooter", sightings, {"shooter": PRONE, "near": STANDING, "far": STANDING})
    assert event.clauses == ("GANG-PIN",) and event.piece is None and "no aimed shot" in event.rules
    assert "shoots" not in event.rules
