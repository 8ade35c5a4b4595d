"""Where the rules leave a ridden bike is among the poses the table is asked about first.

:func:`entropy3d.systems.entropy_city.riding.end_poses` lists every pose
:func:`~entropy3d.systems.entropy_city.riding.resolve_move`
may leave a bike at, and the one path asks the table where a bike left at each may rest before
resolve (issue 44, :func:`entropy3d.table_answers.rests_of_ride`); a pose the rules reach that the
list misses would find no answer in a game on a table. Without a table the rules' own pose is
kept, so the model's pose after resolve is the pose :func:`_ride` chose.
"""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.core.facts import SceneryHit
from entropy3d.systems.entropy_city.riding import end_poses, stopped_short_in
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from tests.systems.entropy_city.test_transition import begin, head_on, model, ridden, state_of


@pytest.mark.parametrize("progress", [None, 0.4, 3.4, 3.5, 3.6, 11.49, 11.51, 11.99])
def test_EC_MOVE_1_a_ride_stopped_short_ends_at_the_whole_inches_it_got_and_is_offered_to_the_table(rules, progress):
    """Clause: EC-MOVE-1. k1 rides 12" straight east from (10, 10) at speed 2 and the producer
    stops it ``progress`` inches in with no contact (None: it rode the whole path). The rules
    leave it at the whole inches it got, rounded, never past the path's end (by hand: 0.4 -> 0,
    3.4 -> 3, 3.5 -> 4 (Python rounds half to even: 4), 3.6 -> 4, 11.49 -> 11, 11.51 and 11.99 ->
    12, the path's 12); that pose is one of end_poses."""
    state = begin(state_of(model(speed=2)), "k1", rules)
    checked = check(state, Action.ride("k1", "s2: straight 12", "never"), rules)
    facts = ridden(checked, progress=progress)
    after, _ = resolve(state, checked, facts, np.random.default_rng(0), rules)
    pose = after.model("k1").pose
    expected = {None: 12, 0.4: 0, 3.4: 3, 3.5: 4, 3.6: 4, 11.49: 11, 11.51: 12, 11.99: 12}[progress]
    assert pose.x == pytest.approx(10 + expected) and pose.y == pytest.approx(10)
    assert pose in end_poses(state.model("k1"), checked.move, facts)
    if progress is not None:
        assert stopped_short_in(facts) == expected


def test_EC_COL_1_EC_DEST_3_a_crash_or_a_cut_ends_where_the_table_is_asked(rules, dice):
    """Clause: EC-COL-1, EC-DEST-3. A head-on hit of a wall 5.5" in (not the ride's first
    contact: a destructible bin 2.25" in went first and was smashed through, 9+9 on TN 14), and a
    bin 4.25" in that turns the bike aside (a failed test, 2+2): the rules leave the bike where each
    was met, and end_poses holds that pose."""
    for rolls, scenery, contacts, how in (
            ([9, 9, 2, 2, 2, 2], (SceneryHit("bin", 1, 2.25, 0.3, 0.0),), (head_on(5.5),), "crash"),
            ([2, 2, 2, 2], (SceneryHit("bin", 1, 4.25, 0.5, 0.0),), (), "cut")):
        state = begin(state_of(model(speed=2)), "k1", rules)
        checked = check(state, Action.ride("k1", "s2: straight 12", "never"), rules)
        facts = ridden(checked, progress=5.5 if contacts else None, contacts=contacts, scenery=scenery)
        after, events = resolve(state, checked, facts, dice(rolls), rules)
        kinds = [e.kind for e in events]
        assert ("crash" in kinds) == (how == "crash"), kinds
        pose = after.model("k1").pose
        if how == "cut":  # turned aside where the bin was met (EC-DEST-3)
            assert after.model("k1").forced_move is not None and pose.x == pytest.approx(14.25)
        assert pose in end_poses(state.model("k1"), checked.move, facts), (how, pose)
