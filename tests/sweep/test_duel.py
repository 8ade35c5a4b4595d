"""``entropy3d duel`` (issue 50): two player kinds over many games with sides swapped, A's win
rate with its 95% Wilson interval."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from entropy3d.sweep.duel import DuelGame, DuelJob, DuelTally, duel_jobs, run_duel

TABLE = str(Path(__file__).resolve().parents[1] / "data" / "small_table.yaml")  # the conftest's sweep table


def test_game_k_plays_seed_plus_half_k_with_a_on_the_first_gang_when_k_is_even():
    jobs = duel_jobs("t.yaml", ["hades", "komodo", "police"], "basic", "other", 5, 10, 2, "geometric")
    assert [job.seed for job in jobs] == [10, 10, 11, 11, 12]
    assert [job.side_a for job in jobs] == ["hades", "komodo", "hades", "komodo", "hades"]
    assert [dict(job.kinds) for job in jobs[:2]] == [{"hades": "basic", "komodo": "other", "police": "basic"},
                                                     {"hades": "other", "komodo": "basic", "police": "basic"}]



def test_a_duel_of_two_gangs_swaps_the_kinds_each_game_worked_by_hand():
    """Issue 51 (survivors of duel_jobs: a scene of exactly two gangs, games past the first two, the
    job's scene, turns and producer): games 0-3 from seed 7 play seeds 7, 7, 8, 8; A ("deep") is
    Hades' player in the even games and Komodo's in the odd ones; every job names the scene, 3
    turns and the physics producer. A scene of one gang has no duel, in words."""
    jobs = duel_jobs("t.yaml", ["hades", "komodo"], "deep", "basic", 4, 7, 3, "physics")
    a_first, a_second = (("hades", "deep"), ("komodo", "basic")), (("hades", "basic"), ("komodo", "deep"))
    assert jobs == [DuelJob("t.yaml", 7, 3, "physics", a_first, "hades"),
                    DuelJob("t.yaml", 7, 3, "physics", a_second, "komodo"),
                    DuelJob("t.yaml", 8, 3, "physics", a_first, "hades"),
                    DuelJob("t.yaml", 8, 3, "physics", a_second, "komodo")]
    with pytest.raises(ValueError, match=r"^t.yaml has 1 gang\(s\); a duel needs two$"):
        duel_jobs("t.yaml", ["hades"], "deep", "basic", 2, 7, 3, "physics")


def test_a_duel_of_one_game_says_game_and_of_two_says_games():
    # one win of one game: Wilson with z^2 = 3.841459, n = 1, p = 1: denominator 4.841459, centre
    # (1 + 1.920730) / 4.841459 = 0.603274, half 1.959964 x sqrt(0.960365) / 4.841459 = 0.396726,
    # so 21%-100% (the top clamped at 1)
    assert DuelTally(1, 0, 0).line("deep", "basic") == (
        "deep (A) v basic (B): A won 1, drew 0, lost 0 of 1 game: 100% (95% Wilson interval 21%-100%; "
        "a draw counts half)")
    assert " of 2 games: 50% " in DuelTally(1, 0, 1).line("deep", "basic")

def _game(winner: str, side_a: str = "hades") -> DuelGame:
    return DuelGame(DuelJob("t.yaml", 0, 1, "geometric", (("hades", "basic"), ("komodo", "basic")), side_a),
                    "kinds:hades=basic,komodo=basic", winner, 0.0)


def test_three_wins_of_four_is_75_percent_with_the_wilson_interval_worked_by_hand():
    # Wilson, z = 1.959964, z^2 = 3.841459, p = 3/4, n = 4: denominator 1 + z^2/n = 1.960365;
    # centre (p + z^2/2n) / den = 1.230182 / 1.960365 = 0.627527;
    # half z * sqrt(p(1-p)/n + z^2/4n^2) / den = 1.959964 * sqrt(0.046875 + 0.060023) / 1.960365 = 0.326886
    tally = DuelTally.of([_game("hades"), _game("hades"), _game("komodo"), _game("hades", side_a="komodo")])
    assert (tally.wins, tally.draws, tally.losses) == (2, 0, 2)
    tally = DuelTally.of([_game("hades"), _game("hades"), _game("hades"), _game("komodo")])
    rate, low, high = tally.rate
    assert rate == 0.75 and low == pytest.approx(0.300641, abs=1e-6) and high == pytest.approx(0.954413, abs=1e-6)
    assert "A won 3, drew 0, lost 1 of 4 games: 75% (95% Wilson interval 30%-95%; a draw counts half)" in \
        tally.line("basic", "basic")
    # a draw counts half: two wins and two draws score as three wins of four
    assert DuelTally.of([_game("hades"), _game("hades"), _game(""), _game("")]).rate == tally.rate


def test_basic_against_basic_swaps_sides_on_each_seed_and_scores_exactly_half(client):
    jobs = duel_jobs(TABLE, ["hades", "komodo"], "basic", "basic", 4, 21, 1, "geometric")
    games = run_duel(jobs, client)
    assert [game.job for game in games] == jobs
    # the games' records say who played: every gang by the basic kind
    assert {game.players for game in games} == {"kinds:hades=basic,komodo=basic"}
    for first, second in (games[0:2], games[2:4]):
        assert first.job.seed == second.job.seed and first.job.side_a != second.job.side_a
        assert first.winner == second.winner  # two equal players on one seed: the same game from each side
        assert first.score_a + second.score_a == 1.0
    assert DuelTally.of(games).rate[0] == 0.5


def _duel(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "entropy3d", "duel", TABLE, *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_duel_refuses_an_unknown_kind_and_no_games_in_one_line():
    unknown = _duel("--players", "basic", "deep", "--games", "2")
    assert unknown.returncode == 1
    assert unknown.stderr == "error: --players 'deep': no such player kind; the known kinds: basic\n"
    none = _duel("--players", "basic", "basic", "--games", "0")
    assert none.returncode == 1 and none.stderr.count("\n") == 1 and "--games 0: play at least 1 game" in none.stderr
