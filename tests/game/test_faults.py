"""Clean faults (issue 18): SIGTERM and SIGINT leave no temp files and no worker process; bad
replays and impossible sizes are clean errors."""

from __future__ import annotations

import functools
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tools_module import load_tool

faults = load_tool("fault_report")


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
        workers = sorted(faults.descendants(process.pid))
    assert workers, "the physics worker never started"
    time.sleep(0.5)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)  # returns only when no process holds the pipes
    assert process.returncode != 0 or (tmp_path / "d.gif").exists()  # interrupted, or it had finished
    assert b"Traceback" not in err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    time.sleep(0.5)
    assert [pid for pid in workers if faults.alive(pid)] == []


def test_non_utf8_replay_is_a_clean_error(tmp_path):
    bad = tmp_path / "garbage.jsonl"
    bad.write_bytes(b'{"type": "header"}\n\xff\xfe\x00garbage\n')
    done = subprocess.run([sys.executable, "-m", "entropy3d", "replay-check", str(bad)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and "garbage.jsonl" in done.stderr and "not UTF-8" in done.stderr
    assert "Traceback" not in done.stderr


def test_non_object_replay_line_is_a_clean_error(tmp_path):
    from entropy3d.errors import ReplayError
    from entropy3d.game.replay import read_replay

    bad = tmp_path / "list.jsonl"
    bad.write_text("[1, 2]\n")
    with pytest.raises(ReplayError, match="JSON object"):
        read_replay(bad)


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_a_replay_holding_nan_or_infinity_is_refused_where_it_is_read(small_table_path, tmp_path, word):
    """Issue 49, item 2: `share` on a replay whose initial pose held NaN gave a traceback, and
    `replay-render` took it silently; a replay's writer never writes one, so its reader refuses it,
    naming the record, for every command that reads a replay."""
    from entropy3d.errors import ReplayError
    from entropy3d.game import play_game
    from entropy3d.game.replay import read_replay

    good = tmp_path / "good.jsonl"
    play_game(small_table_path, seed=1, turns=1, producer="geometric", replay_path=good)
    lines = good.read_text().splitlines()
    header = re.sub(r'"pose":\[[-0-9.e]+', f'"pose":[{word}', lines[0], count=1)  # a model's x
    assert header != lines[0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([header, *lines[1:]]) + "\n")
    with pytest.raises(ReplayError, match=f"record 1.*{word.lstrip('-')} is not a number a replay holds"):
        read_replay(bad)
    for command in (["share", str(bad), "-o", str(tmp_path / "page.html")],
                    ["replay-render", str(bad), "-o", str(tmp_path / "film.mp4"), "--size", "96x54"]):
        done = subprocess.run([sys.executable, "-m", "entropy3d", *command], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 1 and "is not a number a replay holds" in done.stderr, done.stderr[-800:]
        assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl", "good.jsonl"]


def test_demo_too_small_size_is_a_clean_error(small_table_path, tmp_path):
    done = subprocess.run([sys.executable, "-m", "entropy3d", "demo", str(small_table_path), "--size", "64x36",
                           "--out", str(tmp_path / "d.gif")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "too small" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted(faults.COMMANDS))
@pytest.mark.parametrize("moment", [0.35, 0.7])
def test_sigterm_at_a_moment_of_a_command_leaves_nothing_behind(name, moment, tmp_path):
    """SIGTERM at a share of a clean run's length (measured once per command): no temp file, no
    orphaned process, no partial output, no traceback, no hang. tools/fault_report.py does 50 a command."""
    duration = _clean_seconds(name)
    found = faults.interrupt_once(name, moment * duration, tmp_path)
    assert (found["temp_files"], found["orphans"], found["partial_outputs"], found["traceback"], found["hung"]) \
        == ([], [], [], False, False), f"{ {k: v for k, v in found.items() if k != 'stderr'} }\n{found['stderr']}"


@functools.cache
def _clean_seconds(name: str) -> float:
    return faults.clean_run_seconds(name)


def test_a_half_written_image_counts_as_partial(tmp_path):
    """The partial-output check can fail: half a PNG does not read back whole."""
    faults.interrupt_once("render", 1e9, tmp_path)
    whole = (tmp_path / "r.png").read_bytes()
    (tmp_path / "half.png").write_bytes(whole[: len(whole) // 2])
    assert faults.whole(tmp_path / "r.png", "image") and not faults.whole(tmp_path / "half.png", "image")


def run_terminated(script: Path, body: str) -> subprocess.CompletedProcess:
    """Run ``body`` (indented, inside ``termination_handled()``) as the script ``script``."""
    script.write_text("import os, signal, time\n"
                      "from entropy3d.cli import termination_handled\n"
                      "from entropy3d.outputs import AtomicFile\n"
                      + body.replace("WITH\n", "with termination_handled():\n"))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)


def test_a_sigterm_landing_in_a_finaliser_still_stops_the_process(tmp_path):
    """Python swallows an exception raised in a ``__del__``: a SIGTERM handled there would be lost
    and the process would run on to the end (seen as a demo that did not stop and an activate that
    printed a traceback and exited 0). It is delivered again and stops the process."""
    done = run_terminated(tmp_path / "dying.py",
                          "class Dying:\n"
                          "    def __del__(self):\n"
                          "        os.kill(os.getpid(), signal.SIGTERM)\n"
                          "        sum(range(100000))\n"
                          "WITH\n"
                          "    d = Dying()\n"
                          "    del d\n"
                          "    time.sleep(2)\n"
                          "    print('ran on')\n")
    assert done.returncode == 128 + signal.SIGTERM and "ran on" not in done.stdout, (done.stdout, done.stderr)


def test_a_sigterm_swallowed_by_a_library_still_writes_no_output(tmp_path):
    """trimesh catches ``BaseException`` around its sparse vertex normals, so a SIGTERM landing
    there was swallowed and ``render`` ran on and wrote its picture, exiting 0 (tools/fault_report.py,
    1 run in 50). After a stop no output is committed: the commit aborts and the process exits 143."""
    target = tmp_path / "out.png"
    done = run_terminated(tmp_path / "swallowing.py",
                          "WITH\n"
                          f"    pending = AtomicFile({str(target)!r}, 'wb')\n"
                          "    pending.stream.write(b'picture')\n"
                          "    try:\n"
                          "        os.kill(os.getpid(), signal.SIGTERM)\n"
                          "        time.sleep(1)\n"
                          "    except BaseException:\n"
                          "        pass\n"
                          "    pending.commit()\n"
                          "    print('committed')\n")
    assert done.returncode == 128 + signal.SIGTERM and "committed" not in done.stdout, (done.stdout, done.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["swallowing.py"]


def test_a_sigterm_landing_in_an_import_stops_the_process_once_the_import_is_done(tmp_path):
    """trimesh guards its optional imports with ``except BaseException`` and keeps the error in
    place of the module: a SIGTERM landing in ``import trimesh`` was swallowed there and the import
    failed on with a ``TypeError`` and a traceback, exit 1 (tools/fault_report.py, ``activate --gif``,
    2 runs in 400). The stop waits for the import to end, then stops the process (exit 143)."""
    (tmp_path / "guarded.py").write_text("import os, signal, time\n"
                                         "try:\n"
                                         "    os.kill(os.getpid(), signal.SIGTERM)\n"
                                         "    time.sleep(0.2)\n"
                                         "    SWALLOWED = False\n"
                                         "except BaseException:\n"
                                         "    SWALLOWED = True\n")
    done = run_terminated(tmp_path / "importing.py",
                          f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
                          "WITH\n"
                          "    import guarded\n"
                          "    print('swallowed' if guarded.SWALLOWED else 'imported', flush=True)\n"
                          "    time.sleep(2)\n"
                          "    print('ran on')\n")
    assert (done.returncode, done.stdout) == (128 + signal.SIGTERM, "imported\n"), (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("after", ["raise RuntimeError(f'SchemaError: {error}')", "pass"])
def test_a_sigterm_a_library_turns_into_its_own_error_exits_as_stopped(tmp_path, after):
    """pydantic-core builds its validators in Rust and reports an exception raised inside as a
    ``SchemaError``: a SIGTERM landing there came out as that error's traceback, exit 1
    (tools/fault_report.py, ``activate --gif``, 1 run in 400). Whatever a library makes of the stop,
    raising its own error or swallowing it, the command exits 143 with no traceback."""
    script = tmp_path / "wrapping.py"
    script.write_text("import os, signal, sys, time\n"
                      "import entropy3d.cli as cli\n"
                      "def library(args, prog_name, standalone_mode):\n"
                      "    try:\n"
                      "        os.kill(os.getpid(), signal.SIGTERM)\n"
                      "        time.sleep(1)\n"
                      "    except BaseException as error:\n"
                      f"        {after}\n"
                      "    print('ran on', flush=True)\n"
                      "cli.app = library\n"
                      "sys.exit(cli.main([]))\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 128 + signal.SIGTERM and "Traceback" not in done.stderr, (done.stdout, done.stderr)
    assert done.stdout == ("ran on\n" if after == "pass" else ""), done.stdout


def test_main_returns_0_when_the_command_returns_without_an_exit(monkeypatch):
    """With no stop asked for, a command that returns (rather than exiting) succeeds."""
    import entropy3d.cli as cli

    monkeypatch.setattr(cli, "app", lambda args, prog_name, standalone_mode: None)
    assert cli.main([]) == 0
