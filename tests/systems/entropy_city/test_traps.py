"""Traps on the one path (EC-TRAP, EC-ACT-LAYTRAP): laid where the last Lay Trap action starts,
acting on the riders whose ridden path meets them, an explosive by its fuse. The areas and effects
are DECISIONs in the rules data (``traps:``); these tests read them from there."""

from __future__ import annotations

import numpy as np

from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import State
from entropy3d.systems.entropy_city.transition import Action, resolve
from tests.systems.entropy_city.test_transition import begin, model, state_of, take


def laid(rules, trap, at_x=10.0):
    """k1 (komodo) lays ``trap`` with two minimum Lay Trap actions along +x from (at_x, 10)."""
    state = begin(state_of(model("k1", speed=1, pose=Pose(at_x, 10, 0), traps_carried=(trap, "caltrops")),
                           model("h1", gang="hades", speed=2, pose=Pose(14, 18, 270))), "k1", rules)
    state, _ = take(state, Action.ride("k1", "laytrap s1: straight 4"), rules)
    return take(state, Action.ride("k1", "laytrap s1: straight 4"), rules, rng=np.random.default_rng(5))


def test_EC_ACT_LAYTRAP_the_trap_goes_down_where_the_last_action_started(rules):
    state, events = laid(rules, "spike_strip")
    (trap,) = state.traps
    assert (trap.kind, trap.x, trap.y, trap.heading_deg, trap.laid_by) == ("spike_strip", 14.0, 10.0, 0.0, "k1")
    assert state.model("k1").traps_carried == ("caltrops",)  # the next one it carries
    (laying,) = [e for e in events if e.kind == "trap" and "EC-ACT-LAYTRAP" in e.clauses]
    assert laying.rules == "lays a spike strip at (14.0, 10.0)" and laying.figures == {"trap": "spike_strip"}
    assert State.from_json(state.to_json()) == state  # the token is part of the one JSON form


def test_EC_TRAP_a_spike_strip_bites_a_rider_that_fails_its_test(rules, dice):
    """The strip lies across the layer's road (4" long, data); h1 rides down across it at x = 14
    (rules: "positioned across the road in an attempt to damage the incoming bikes behind you")."""
    state, _ = laid(rules, "spike_strip")
    state = begin(state, "h1", rules)
    spec = rules.data("traps.spike_strip")
    failed, events = take(state, Action.ride("h1", "s2: straight 10", "never"), rules, rng=dice([2, 3]))
    assert failed.model("h1").wounds == 2 and failed.model("h1").stress == int(spec["stress"])
    (ridden,) = [e for e in events if e.kind == "trap" and "TN 16" in e.rules]
    assert ridden.rules.startswith("rides over k1's spike strip")  # the layer's id: the rules' JSON keeps ids
    assert ridden.figures == {"trap": "spike_strip", "laid_by": "k1", "wounds_lost": 1}  # the words' figures
    passed, _ = take(state, Action.ride("h1", "s2: straight 10", "never"), rules, rng=dice([9, 8]))
    assert passed.model("h1").wounds == 3 and len(passed.traps) == 1  # a strip stays
    on_it = failed.with_model(failed.model("h1").but(pose=Pose(14, 10.5, 270)))
    again, events = take(begin(on_it, "h1", rules), Action.ride("h1", "s2: straight 8"), rules)
    assert not any(e.kind == "trap" for e in events)  # starting on the strip it rode last time: not again
    wide = state.with_model(state.model("h1").but(pose=Pose(24, 18, 270)))  # rides past its end
    missed, events = take(wide, Action.ride("h1", "s2: straight 10"), rules)
    assert not any(e.kind == "trap" for e in events) and missed.model("h1").wounds == 3


def test_EC_TRAP_a_molotov_sets_a_rider_burning(rules):
    state, _ = laid(rules, "molotov")
    state = begin(state, "h1", rules)
    after, _ = take(state, Action.ride("h1", "s2: straight 10"), rules)
    assert "burning" in after.model("h1").conditions  # then EC-COND-BURN: +1 stress per action
    assert after.model("h1").stress == int(rules.data("conditions.burn.stress_per_action"))


def test_EC_TRAP_an_explosive_goes_off_after_its_layers_activations(rules):
    state, events = laid(rules, "explosive")
    (trap,) = state.traps
    low, high = rules.data("traps.explosive.fuse_activations")
    assert low <= trap.fuse <= high
    near = state.with_model(state.model("h1").but(pose=Pose(15, 11, 90)))
    for _ in range(trap.fuse):
        near, events = resolve(near, Action.end("k1"), None, np.random.default_rng(0), rules)
    assert not near.traps and any("goes off" in e.rules for e in events)
    assert near.model("h1").wounds == 2  # 1.4" from it
    assert near.model("k1").wounds == 3  # the layer rode on 4" past it, out of the 3" blast


def test_EC_ACT_LAYTRAP_a_trap_is_named_with_its_article(rules):
    """The rules' text said "lays a caltrops" and "lays a explosive"."""
    from entropy3d.systems.entropy_city.traps import trap_words

    assert [trap_words(kind) for kind in ("caltrops", "explosive", "molotov", "spike_strip")] == [
        "caltrops", "an explosive", "a molotov", "a spike strip"]
    state, events = laid(rules, "caltrops")
    assert [e.rules for e in events if e.kind == "trap"] == ["lays caltrops at (14.0, 10.0)"]
