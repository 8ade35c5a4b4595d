"""Plan notation: parse, refuse with a column, round-trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entropy3d.errors import PlanError
from entropy3d.systems.entropy_city.plan import ACTIONS, Pivot, Plan, Straight, Turn, Weave, parse_plan


def test_examples_parse():
    assert parse_plan("s1: straight 6") == Plan("move", 1, (Straight(6),))
    assert parse_plan("s3: straight 6, right wide 7").segments == (Straight(6), Turn("right", "wide", 7))
    plan = parse_plan("gungho s3: straight 20, left wide 7, straight 5")
    assert plan.action == "gungho" and plan.speed == 3 and len(plan.segments) == 3
    assert parse_plan("s2: straight 3, weave left, straight 5").segments[1] == Weave("left", 1.0)
    assert parse_plan("s2: weave right 1.5, straight 5").segments[0] == Weave("right", 1.5)
    assert parse_plan("stoppie s2: straight 7, pivot left 90").segments[1] == Pivot("left", 90)
    assert parse_plan("  S2 :  STRAIGHT 8 ").segments == (Straight(8),)


@pytest.mark.parametrize("text, column, words", [
    ("s1 straight 6", 4, "':'"),
    ("s1: straight 6.5", 14, "whole inches"),
    ("s1: right wide 2.5", 16, "whole inches"),
    ("s1: straight 6,", 16, "end of the plan"),
    ("fly s1: straight 6", 1, "action"),
    ("s1: curve 3", 5, "segment"),
    ("s1: left sharp 3", 10, "template"),
    ("s1: straight 6 right wide 3", 16, "','"),
    ("s1: straight 0", 14, "> 0"),
    ("s1: straight 6; straight 2", 15, "got ';'"),
    ("", 1, "empty"),
    ("move: straight 6", 5, "speed"),
    ("s9: straight 3", 1, "s1, s2 or s3"),
    ("gungho s0: straight 3", 8, "s1, s2 or s3"),
    # a number far past any table: refused by the parser, not taken as a path of 1e20 points
    ("s2: straight 99999999999999999999", 14, "at most 10,000"),
    ("stoppie s2: straight 7, pivot left 20000", 36, "at most 10,000"),
])
def test_parse_errors_name_the_column(text, column, words):
    with pytest.raises(PlanError) as err:
        parse_plan(text)
    assert err.value.column == column and words in err.value.message


def test_EC_TMPL_1_a_turn_by_degrees_is_refused_with_the_choices_and_the_forms_that_mean_it():
    # "left 45" reads as degrees to a newcomer: the refusal lists the templates, gives a turn along
    # one and says a turn by degrees is a stoppie's pivot; a word that is no segment lists the segments
    with pytest.raises(PlanError) as err:
        parse_plan("s3: straight 10, left 45, straight 8")
    assert err.value.column == 23
    assert "(tight|medium|wide), got '45'" in err.value.message
    assert "'left wide 6'" in err.value.message and "'pivot left 90'" in err.value.message
    with pytest.raises(PlanError) as err:
        parse_plan("s3: 10")
    assert err.value.column == 5 and "a segment (straight|left|right|weave|pivot), got '10'" in err.value.message


def test_repr_is_the_text():
    assert repr(parse_plan("focus s2: straight 12")) == "Plan('focus s2: straight 12')"


segments = st.one_of(
    st.builds(Straight, st.integers(1, 20).map(float)),
    st.builds(Turn, st.sampled_from(["left", "right"]), st.sampled_from(["tight", "medium", "wide"]),
              st.integers(1, 7).map(float)),
    st.builds(Weave, st.sampled_from(["left", "right"]), st.sampled_from([0.5, 1.0, 1.25, 2.0])),
    st.builds(Pivot, st.sampled_from(["left", "right"]), st.integers(45, 180).map(float)),
)


@settings(deadline=None, max_examples=60)
@given(action=st.sampled_from(ACTIONS), speed=st.integers(1, 3),
       segs=st.lists(segments, min_size=1, max_size=4))
def test_plans_round_trip_through_text(action, speed, segs):
    plan = Plan(action, speed, tuple(segs))
    assert parse_plan(str(plan)) == plan
