"""A replay's motion as keyframe tracks (entropy3d.export.motion), which the glTF animation plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.export.motion import PAUSE_S, Track, replay_motion

ROOT = Path(__file__).resolve().parents[2]


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
    # the bench waits where it stood until h1 went into it, then lies where the rules moved it:
    # h1 rides east with the bench's centre to its left (north), so the rider knocks it 4"
    # (speed 2 x 2) aside, square to its heading: (18, 12) -> (18, 16) (EC-DEST-4, knocked_piece: aside)
    bench = motion.scenery["bench1"]
    assert bench.points[0] == bench.points[1] == (18.0, 12.0, 0.2)
    assert bench.points[-1][:2] == pytest.approx((18.0, 16.0), abs=0.01)



def test_EC_DEST_4_the_bench_flies_when_the_rules_say_it_was_hit_as_in_the_film(bench_replay):
    """Clause: EC-DEST-4. The glTF's bench leaves its spot at the game time of the hit the rules
    recorded (h1's destructible event's ``t_s`` into its second action, after its first action's
    ride and one pause) and lands ``KNOCK_S`` (0.35 s) later, half way in time 3/4 of the way there
    (eased out, as the film's and the page's): (18, 12) -> (18, 15) -> (18, 16). It used to slide
    linearly over its own 0.4 s."""
    from entropy3d.game import read_replay
    from entropy3d.game.knocks import KNOCK_S

    replay = read_replay(bench_replay)
    first, second = replay.activations[0].actions[:2]
    (hit,) = [e for e in second.events if e.kind == "destructible"]
    hit_at = float(first.trajectory[-1, 0]) + PAUSE_S + hit.t_s
    bench = replay_motion(replay, {"bench1": (18.0, 12.0, 0.2)}).scenery["bench1"]
    leaves = bench.times.index(pytest.approx(hit_at, abs=1e-6))
    assert bench.points[leaves] == pytest.approx((18.0, 12.0, 0.2))
    assert bench.times[leaves + 4] == pytest.approx(hit_at + KNOCK_S / 2)
    assert bench.points[leaves + 4] == pytest.approx((18.0, 15.0, 0.2), abs=1e-6)
    assert bench.times[leaves + 8] == pytest.approx(hit_at + KNOCK_S)
    assert bench.points[leaves + 8] == pytest.approx((18.0, 16.0, 0.2), abs=1e-6)


def test_a_geometric_game_with_jumps_keeps_its_clock_and_exports(tmp_path):
    """The geometric producer timed a ride's ground points from its start, so after a flight
    (slower along the path than riding) the clock went back: in 9 of 196 actions of six 2-turn
    games on crossroads, among them this 1-turn game's ride off the kicker (komodo_2's second
    action), and `entropy3d export` of its replay ended in replay_motion's refusal of an earlier
    key. After a landing the ride now goes on from the landing's time."""
    import numpy as np

    from entropy3d.export.gltf import glb_bytes
    from entropy3d.game import play_game
    from entropy3d.game.replay import load_source

    replay_path = tmp_path / "g.jsonl"
    replay = play_game(ROOT / "scenes" / "crossroads.yaml", seed=7, turns=1, producer="geometric",
                       replay_path=replay_path)
    flights = 0
    for activation in replay.activations:
        for action in activation.actions:
            times = action.trajectory[:, 0]
            assert np.all(np.diff(times) >= 0), (activation.model_id, action.plan)
            flights += sum(f.landed for f in action.facts.flights)
    assert flights >= 1  # the case is there: a jump that came down and rode on
    table, geometry, loaded = load_source(replay_path)
    assert glb_bytes(table, geometry, loaded)[:4] == b"glTF"
