"""A roll of any rulebook's dice (entropy3d.core.roll), beside Entropy City's test: one event holds
either, its JSON round-trips both (read back by entropy3d.systems.rolls), ``roll_text`` formats
both (issue 44: core types that no rulebook shapes)."""

from __future__ import annotations

import json

import pytest

from entropy3d.core.event import Event, roll_text
from entropy3d.core.roll import DiceRoll, Roll
from entropy3d.systems.entropy_city.dice import Outcome, TestRoll
from entropy3d.systems.rolls import read_roll

#: Entropy City's test: 10+1 is a natural 21 (EC-DICE-3), its stress 3 lowered by 3
CRIT = TestRoll((10, 1), 3, 15, 15, 21, Outcome.CRIT, -3)
#: an opposed roll with no TN of its own (EC-MEL-1's defender): it only has to beat the other
OPPOSED = TestRoll((3, 4), 0, 0, 0, 7, Outcome.FAIL)


def test_a_roll_against_a_number_sums_its_dice_and_what_is_added_and_says_how_it_went():
    # a gang Nerve test: 2D6 3+4, +1 for a friend near, needing Cool 7: 8 passes; 3+3+1 = 7 is the edge
    nerve = DiceRoll.against("Nerve test", [3, 4], 7, added=1)
    assert (nerve.dice, nerve.total, nerve.needed, nerve.outcome, nerve.succeeded) == ((3, 4), 8, 7, "passed", True)
    assert DiceRoll.against("Nerve test", [3, 3], 7, added=1).succeeded
    failed = DiceRoll.against("save", [4], 5, words=("saved", "unsaved"))
    assert (failed.total, failed.outcome, failed.succeeded) == (4, "unsaved", False)
    assert nerve.text == "Nerve test 3+4 +1 = 8 needing 7+: passed"
    assert DiceRoll.against("to hit", [5], 4).text == "to hit 5 needing 4+: passed"


def test_a_pool_keeps_one_face_and_an_amount_needs_nothing():
    # a 10acity attack: three d10, the 9 kept (a disadvantage die set the 10 aside), rank +1
    attack = DiceRoll.against("attack", [10, 9, 2], 11, sides=10, added=1, kept=9, words=("hits", "misses"))
    assert (attack.total, attack.added, attack.outcome) == (10, 1, "misses")
    assert attack.text == "attack 10,9,2 kept 9 +1 = 10 needing 11+: misses"
    damage = DiceRoll.amount("damage", [4, 6, 1])
    assert (damage.total, damage.needed, damage.succeeded) == (11, None, False)
    assert damage.text == "damage 4+6+1 = 11"
    assert DiceRoll.amount("injury", [2], outcome="flesh wound").text == "injury 2: flesh wound"


@pytest.mark.parametrize("bad, said", [
    (dict(purpose="", dice=(3,), total=3), "needs a purpose"),
    (dict(purpose="to hit", dice=(), total=0), "are not faces of a d6"),
    (dict(purpose="to hit", dice=(7,), total=7), r"dice \[7\] are not faces of a d6"),
    (dict(purpose="attack", dice=(3, 4), total=4, sides=10, kept=5), "kept face 5 is not among"),
])
def test_a_roll_that_cannot_have_been_rolled_is_refused_in_one_line(bad, said):
    with pytest.raises(ValueError, match=said):
        DiceRoll(**bad)


def test_both_kinds_answer_what_any_reader_asks():
    # the sound, the captions, the HUD read a roll one way, whatever its rulebook
    for roll in (CRIT, OPPOSED, DiceRoll.against("to hit", [2], 4)):
        assert isinstance(roll, Roll)
    assert (CRIT.purpose, CRIT.needed, CRIT.total, CRIT.outcome, CRIT.succeeded) == ("test", 15, 21, "crit", True)
    assert OPPOSED.needed is None and not OPPOSED.succeeded
    # the clauses a roll's own numbers show: Entropy City's dice clauses; none of another rulebook's
    assert CRIT.clauses == ("EC-DICE-1", "EC-DICE-3", "EC-DICE-6") and DiceRoll.against("to hit", [2], 4).clauses == ()


def test_entropy_citys_test_keeps_its_json_to_the_key_and_another_rulebooks_roll_is_told_apart():
    # Entropy City's replays keep their bytes: its roll writes exactly the keys it always wrote
    assert CRIT.to_json() == {"dice": [10, 1], "stress": 3, "tn": 15, "effective_tn": 15, "total": 21,
                                  "outcome": "crit", "stress_change": -3}
    wound = DiceRoll.against("wound", [5], 4, words=("wounds", "no wound"))
    assert wound.to_json() == {"for": "wound", "dice": [5], "sides": 6, "total": 5, "needed": 4,
                                   "outcome": "wounds"}
    pool = DiceRoll.amount("defence", [6, 10, 10], sides=10, added=11, kept=10)
    assert pool.to_json()["kept"] == 10
    for roll in (CRIT, OPPOSED, wound, pool, DiceRoll.amount("inches to run", [3, 5])):
        back = read_roll(json.loads(json.dumps(roll.to_json())))
        assert back == roll and type(back) is type(roll)


def test_one_event_holds_both_kinds_and_round_trips_them_through_json():
    event = Event("shot", "o_a", "shoots e_a", clauses=("GANG-SHOOT",),
                  rolls=(DiceRoll.against("to hit", [6], 6), DiceRoll.against("to hit at BS", [3], 4), CRIT))
    again = Event.from_json(json.loads(json.dumps(event.to_json())), read_roll)
    assert again == event
    assert [roll_text(r) for r in again.rolls] == [
        "to hit 6 needing 6+: passed", "to hit at BS 3 needing 4+: failed", "rolled 10+1+stress 3 = 21: natural 21!"]
