"""`entropy3d report`: win rates with confidence intervals, heat maps and bike outcomes from a
sweep's tables (issue 15)."""

from __future__ import annotations

import base64
import io
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from entropy3d.sweep.report import wilson

TABLE = Path(__file__).resolve().parents[1] / "data" / "small_table.yaml"  # the sweep fixture's table



def run_report(folder: Path, page: Path) -> subprocess.CompletedProcess:
    """``entropy3d report FOLDER --out PAGE`` as a user runs it (another process, this checkout's
    package); it must succeed."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "entropy3d", "report", str(folder), "--out", str(page)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_wilson_interval_matches_its_closed_forms():
    # no successes: the upper bound is z^2 / (n + z^2); half the trials: symmetric about 0.5
    rate, low, high = wilson(0, 6)
    assert (rate, low) == (0.0, 0.0) and high == pytest.approx(1.959964 ** 2 / (6 + 1.959964 ** 2))
    rate, low, high = wilson(50, 100)
    assert rate == 0.5 and low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(1 - low)
    assert wilson(6, 6)[2] == 1.0 and wilson(0, 0) == (0.0, 0.0, 1.0)
    # all wins in 16 games: the closed form's centre + half rounds to 1.0000000000000002, and the
    # interval stays inside 0..1 (the mutation tool's survivor: a clamp at 2 instead of 1)
    assert wilson(16, 16)[2] == 1.0 and all(0.0 <= wilson(k, n)[1] <= wilson(k, n)[2] <= 1.0
                                           for n in range(1, 60) for k in range(n + 1))


def test_the_report_pictures_every_scene_of_the_sweep(killed_sweep, tmp_path):
    from PIL import Image

    folder = killed_sweep[0]
    page = tmp_path / "report.html"
    run_report(folder, page)
    text = page.read_text()
    with sqlite3.connect(folder / "sweep.sqlite") as connection:
        games = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        hades = connection.execute("SELECT COUNT(*) FROM games WHERE winner='hades'").fetchone()[0]
        takedowns = connection.execute("SELECT COUNT(*) FROM moments WHERE kind='takedown'").fetchone()[0]
        bikes = {b for (b,) in connection.execute("SELECT DISTINCT bike_type FROM riders")}
    assert f"Sweep report: {games} games" in text
    assert f"{round(100 * hades / games)}% ({hades}/{games})" in text  # Hades MC's win rate, its count
    pictures = re.findall(r'src="data:image/png;base64,([^"]+)"', text)
    assert len(pictures) == 3  # takedowns, crashes, jumps on the one scene
    for picture in pictures:
        with Image.open(io.BytesIO(base64.b64decode(picture))) as image:
            assert image.width > 200 and image.height > 200
    with Image.open(io.BytesIO(base64.b64decode(pictures[0]))) as image:  # takedowns: heat in red
        pixels = np.asarray(image.convert("RGB"), int)
    red = (pixels[..., 0] > 180) & (pixels[..., 1] < 110) & (pixels[..., 2] < 110)
    assert (red.sum() > 50) == (takedowns > 0)
    for bike in bikes:
        assert f">{bike.replace('_', ' ')}<" in text  # "on foot", not "on_foot"


def test_the_report_names_gangs_and_rounds_its_figures(killed_sweep, tmp_path):
    """A designer reads gangs by name ("Hades MC +2", not "hades +2") in the most dramatic games,
    and the per-game table's figures to two decimals at most (its max read "1.4167")."""
    from entropy3d.scene import load_scene
    from entropy3d.sweep.report import build_report
    from entropy3d.sweep.store import ResultStore

    folder = killed_sweep[0]
    names = {g: spec.name for g, spec in load_scene(TABLE).spec.gangs.items()}
    assert any(name != gang for gang, name in names.items())
    with ResultStore(folder) as store:
        text = build_report(store)
    with sqlite3.connect(folder / "sweep.sqlite") as connection:
        winners = {w for (w,) in connection.execute("SELECT winner FROM games") if w}
    top = text[text.index("The most dramatic games"):]
    for gang in winners:
        assert f"<td>{names[gang]}</td>" in top
    for gang, name in names.items():
        if name != gang:
            assert f"<td>{gang}</td>" not in top and f"{gang} +" not in top and f"{gang} -" not in top
    per_game = text[text.index("<h3>Per game</h3>"):text.index("<h3>Where it happened</h3>")]
    figures = re.findall(r"<td>(-?[0-9.]+)</td>", per_game)
    assert figures and all(len(f.partition(".")[2]) <= 2 for f in figures), figures


def test_a_report_run_from_another_folder_keeps_its_heat_maps_and_the_gangs_names(tmp_path):
    """Issue 48: a sweep given its scene by a relative path, reported from another folder, lost its
    heat maps ("the scene cannot be read here") and named the gangs by id; the results remember
    the file the sweep played (its absolute path and bytes)."""
    import shutil

    played, elsewhere = tmp_path / "played", tmp_path / "elsewhere"
    played.mkdir()
    elsewhere.mkdir()
    shutil.copy(TABLE, played / "table.yaml")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    swept = subprocess.run([sys.executable, "-m", "entropy3d", "sweep", "table.yaml", "--games", "2", "--turns", "2",
                            "--producer", "geometric", "--workers", "1", "--out", "results"],
                           cwd=played, capture_output=True, text=True, env=env, timeout=300)
    assert swept.returncode == 0, swept.stderr
    reported = subprocess.run([sys.executable, "-m", "entropy3d", "report", str(Path("..") / "played" / "results"),
                               "--out", "report.html"], cwd=elsewhere, capture_output=True, text=True, env=env,
                              timeout=120)
    assert reported.returncode == 0, reported.stderr
    text = (elsewhere / "report.html").read_text()
    assert "no heat map" not in text
    assert len(re.findall(r'src="data:image/png;base64,', text)) == 3  # takedowns, crashes, jumps
    assert ">Hades MC<" in text and ">Komodo<" in text  # the win-rate bars, by the scene's names


def test_the_report_says_how_often_the_missions_objective_was_reached(killed_sweep, tmp_path):
    """Issue 45: per scene, how many games reached the mission's own objective (Turf War on the
    small table: an enemy taken out by an attack), their share and its 95% Wilson interval, on the
    page and on the console; the count is each stored replay's, as the mission's rules decide it."""
    from entropy3d.game.replay import game_events, read_replay
    from entropy3d.systems.entropy_city.objectives import objective_met

    folder = killed_sweep[0]
    page = tmp_path / "report.html"
    done = run_report(folder, page)
    with sqlite3.connect(folder / "sweep.sqlite") as connection:
        replays = [r for (r,) in connection.execute("SELECT replay FROM games")]
    reached = 0
    for replay in replays:
        game = read_replay(folder / replay)
        reached += objective_met(game.header.initial, game_events(game))
    rate, low, high = wilson(reached, len(replays))
    line = (f"Small test table ({TABLE}): an enemy taken out by an attack in {reached} of {len(replays)} games, "
            f"{rate:.0%} (95% interval {low:.0%}-{high:.0%})")
    assert line in done.stdout.splitlines(), done.stdout
    text = page.read_text()
    objective = text[text.index("<h3>Mission objective"):text.index("<h3>Win rate")]
    assert ">an enemy taken out by an attack<" in objective
    assert f"{rate:.0%} ({reached}/{len(replays)})" in objective
