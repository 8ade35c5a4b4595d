"""Clean faults (issue 18): SIGTERM and SIGINT leave no temp files and no worker process; bad
replays and impossible sizes are clean errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_during_demo_leaves_no_temp_file_and_no_worker(small_table_path, tmp_path, signum):
    process = subprocess.Popen([sys.executable, "-m", "entropy3d", "demo", str(small_table_path), "--turns", "6",
                                "--seed", "3", "--producer", "physics", "--out", str(tmp_path / "d.gif"),
                                "--replay", str(tmp_path / "d.jsonl"), "--size", "128x72", "--fps", "5"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not workers and process.poll() is None:
        time.sleep(0.2)
        workers = children_of(process.pid)
    assert workers, "the physics worker never started"
    time.sleep(0.5)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)  # returns only when no process holds the pipes
    assert process.returncode != 0 or (tmp_path / "d.gif").exists()  # interrupted, or it had finished
    assert b"Traceback" not in err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    time.sleep(0.5)
    assert [pid for pid in workers if os.path.exists(f"/proc/{pid}") and
            open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"] == []


def test_non_utf8_replay_is_a_clean_error(tmp_path):
    bad = tmp_path / "garbage.jsonl"
    bad.write_bytes(b'{"type": "header"}\n\xff\xfe\x00garbage\n')
    done = subprocess.run([sys.executable, "-m", "entropy3d", "replay-check", str(bad)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and "garbage.jsonl" in done.stderr and "not UTF-8" in done.stderr
    assert "Traceback" not in done.stderr


def test_non_object_replay_line_is_a_clean_error(tmp_path):
    from entropy3d.game.replay import ReplayError, read_replay

    bad = tmp_path / "list.jsonl"
    bad.write_text("[1, 2]\n")
    with pytest.raises(ReplayError, match="JSON object"):
        read_replay(bad)


def test_demo_too_small_size_is_a_clean_error(small_table_path, tmp_path):
    done = subprocess.run([sys.executable, "-m", "entropy3d", "demo", str(small_table_path), "--size", "64x36",
                           "--out", str(tmp_path / "d.gif")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "too small" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
