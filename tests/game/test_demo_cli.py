"""The demo commands: a whole game to a video from the command line, and clean errors."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "entropy3d", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_demo_writes_video_and_replay_then_replay_renders_and_checks(small_table_path, tmp_path):
    done = run("demo", str(small_table_path), "--turns", "2", "--seed", "3", "--producer", "geometric",
               "--out", str(tmp_path / "d.gif"), "--replay", str(tmp_path / "d.jsonl"), "--size", "128x72",
               "--fps", "5")
    assert done.returncode == 0, done.stderr
    assert "Small test table" in done.stdout and (tmp_path / "d.gif").stat().st_size > 1000
    check = run("replay-check", str(tmp_path / "d.jsonl"))
    assert check.returncode == 0 and "deterministic" in check.stdout
    again = run("replay-render", str(tmp_path / "d.jsonl"), "--out", str(tmp_path / "r.mp4"), "--size", "128x72",
                "--fps", "5")
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "r.mp4").stat().st_size > 1000


def test_demo_bad_arguments_are_one_line_errors(small_table_path, tmp_path):
    for args, words in ((["--size", "12x"], "--size"), (["--out", str(tmp_path / "x.avi")], ".mp4 or .gif"),
                        (["--out", str(tmp_path / "nope" / "x.mp4")], "does not exist"),
                        (["--producer", "magic"], "--producer"),
                        # refused before the game is played: no replay of a game whose video never comes
                        (["--pace", "warp", "--replay", str(tmp_path / "r.jsonl")], "--pace 'warp'")):
        done = run("demo", str(small_table_path), *args)
        assert done.returncode == 1, (args, done.stderr)
        assert words in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_replay_check_on_a_broken_file_names_it(tmp_path):
    bad = tmp_path / "broken.jsonl"
    bad.write_text("not json\n")
    done = run("replay-check", str(bad))
    assert done.returncode == 1 and "broken.jsonl" in done.stderr and "Traceback" not in done.stderr
    assert "not JSON" in done.stderr and "a replay is JSON lines written by `entropy3d demo" in done.stderr


def test_a_negative_seed_is_refused_by_every_command_that_takes_one(small_table_path, tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text(f"scene: {small_table_path}\nseed: -3\nactivations: []\n")
    for args in (["demo", str(small_table_path), "--seed", "-1"],
                 ["activate", str(small_table_path), "-m", "h1", "-p", "s1: straight 4", "--seed", "-1"],
                 ["act", str(small_table_path), "-m", "h1", "-a", "s1: straight 4", "--seed", "-1"],
                 ["sweep", str(small_table_path), "--seed", "-1"]):
        done = run(*args)
        assert done.returncode == 2 and "'--seed'" in done.stderr and "greater than or equal to 0" in done.stderr, args
    done = run("validate", str(script))
    assert done.returncode == 1 and "line 2, seed: Input should be greater than or equal to 0" in done.stderr
