"""A replay's motion as keyframe tracks (entropy3d.export.motion), which the glTF animation plays."""

from __future__ import annotations

import pytest

from entropy3d.export.motion import PAUSE_S, Track, replay_motion


def test_headings_unwrap_so_a_turn_through_east_goes_the_short_way():
    track = Track()
    track.key(0.0, (0, 0, 0), 350.0)
    track.key(1.0, (1, 0, 0), 10.0)
    track.key(2.0, (2, 0, 0), -150.0)
    assert track.headings == [350.0, 370.0, 210.0]


def test_a_key_at_the_same_time_replaces_and_an_earlier_one_is_refused():
    track = Track()
    track.key(1.0, (0, 0, 0), 0.0)
    track.key(1.0, (5, 0, 0), 0.0)
    assert track.times == [1.0] and track.points == [(5.0, 0.0, 0.0)]
    with pytest.raises(ValueError, match="before the last one"):
        track.key(0.5, (0, 0, 0), 0.0)


def test_every_ridden_sample_is_a_key_and_the_clock_runs_through_every_action(bench_replay):
    from entropy3d.game import read_replay

    replay = read_replay(bench_replay)
    motion = replay_motion(replay, {"bench1": (18.0, 12.0, 0.2)})
    actions = [a for activation in replay.activations for a in activation.actions]
    ridden = sum(float(a.trajectory[-1, 0]) for a in actions if len(a.trajectory))
    assert motion.duration == pytest.approx(ridden + PAUSE_S * len(actions))
    h1 = motion.bikes["h1"]
    first_ride = next(a for a in actions if len(a.trajectory)).trajectory
    assert h1.points[1] == pytest.approx(tuple(first_ride[1, 1:4]))
    assert all(b > a for a, b in zip(h1.times, h1.times[1:]))
    # the bench waits where it stood until h1 went into it, then lies where the rules moved it
    bench = motion.scenery["bench1"]
    assert bench.points[0] == bench.points[1] == (18.0, 12.0, 0.2)
    assert bench.points[-1][0] == pytest.approx(22.0, abs=0.01)
