"""``entropy3d los`` as a user runs it: verdicts, the matrix, JSON, the picture, clear errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
from PIL import Image
from typer.testing import CliRunner

from entropy3d.cli import app
from tests.los.conftest import street

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_pair_report_names_verdicts_and_blockers(tmp_path):
    """Clause: EC-LOS-1, EC-COVER-1 - the bank blocks both ways; the report says which piece."""
    path = street(tmp_path, buildings=[{"id": "bank", "rect": [10, 9, 13, 15], "storeys": 3}])
    result = run("los", path, "v", "t")
    assert result.exit_code == 0, result.output
    assert "top-down LOS (EC-LOS-1..3): BLOCKED" in result.output
    assert "0% of bike and rider visible" in result.output
    assert "can shoot (EC-COVER-1):     no" in result.output
    assert "blocking pieces:            the bank" in result.output, "pieces by a readable name"


def test_pair_json_and_matrix_json_agree(tmp_path):
    path = street(tmp_path, destructibles=[{"id": "barrier", "kind": "barrier", "position": [18, 12],
                                            "facing": 90, "risk": 2}])
    pair = json.loads(run("los", path, "v", "t", "--json").output)
    assert pair["true_los"]["cover"] is True and pair["true_los"]["blockers"] == ["barrier"]
    assert 25 <= pair["true_los"]["visible_percent"] < 98 and pair["top_down"]["visible"] is True
    matrix = json.loads(run("los", path, "--all", "--json").output)
    assert matrix["models"] == ["v", "t"] and len(matrix["pairs"]) == 2
    same = next(p for p in matrix["pairs"] if (p["viewer"], p["target"]) == ("v", "t"))
    assert same == {k: v for k, v in pair.items() if k != "scene"}


def test_matrix_text_marks_back_half_and_shots(tmp_path):
    """Clause: EC-LOS-2 - v faces t and sees all of it; t faces +y with v abeam, so only the half
    of v in front of t's base counts."""
    output = run("los", street(tmp_path), "--all").output
    cells = {line.split()[0]: re.findall(r"([T-])\s*(\d+)%(\*?)", line) for line in output.splitlines()
             if line.split()[:1] in (["v"], ["t"])}
    assert cells["v"] == [("T", "100", "*")]
    mark, percent, shot = cells["t"][0]
    assert mark == "T" and abs(int(percent) - 50) <= 2 and shot == "*"


def test_bad_arguments_fail_cleanly(tmp_path):
    path = street(tmp_path)
    cases = [
        (("los", path, "v", "x"), "TARGET: no model 'x'"),
        (("los", path, "v"), "give two model ids"),
        (("los", path, "v", "t", "--all"), "not both"),
        (("los", path, "v", "v"), "does not look at itself"),
        (("los", path, "v", "t", "--png", tmp_path / "out.jpg"), "must end in .png"),
        (("los", path, "v", "t", "--png", tmp_path / "missing" / "out.png"), "does not exist"),
        (("los", tmp_path / "nope.yaml", "v", "t"), "nope.yaml"),
        (("los", path, "v", "t", "--png", tmp_path / "out.png", "--backend", "foo"), "not a renderer"),
        (("los", path, "v", "t", "--backend", "tiny"), "give --png too"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 1, args
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert not (tmp_path / "out.jpg").exists() and not (tmp_path / "out.png").exists()


def test_png_shows_both_views_with_sight_lines(tmp_path):
    """The picture: top-down with green (clear) and red (blocked) lines beside the eye view."""
    path = street(tmp_path, buildings=[{"id": "west", "rect": [10, 4, 12, 11.7], "storeys": 3}])
    output = tmp_path / "los.png"
    done = subprocess.run([sys.executable, "-m", "entropy3d", "los", str(path), "v", "t", "--png", str(output)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"wrote {output}" in done.stdout
    image = np.asarray(Image.open(output).convert("RGB")).astype(int)
    top_width = 24 * 16 + 2 * 24
    top, eye = image[:, :top_width], image[:, top_width:]
    green = (top[..., 1] > 150) & (top[..., 0] < 120) & (top[..., 2] < 140)
    red = (top[..., 0] > 180) & (top[..., 1] < 90)
    assert green.sum() > 200 and red.sum() > 200
    if "top-down only" not in done.stdout:
        assert eye.shape[1] == top_width and eye.std() > 10  # a real picture, not a blank frame


def test_EC_TRAIT_AMBUSH_a_model_off_the_table_is_neither_seen_nor_a_viewer():
    """Clause: EC-TRAIT-AMBUSH (and EC-LAW). On the ambush yard Viper (k1) waits in ambush off the
    table: `los h1 k1` is refused, naming why (it printed "100% ... visible, can shoot: yes"); the
    matrix has Ash and Jet only, with a line naming Viper as off the table. The Law's rider
    waiting to ride in is refused the same way."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "data"
    refused = run("los", data / "ambush_yard.yaml", "h1", "k1")
    assert refused.exit_code == 1
    assert "k1 is off the table as the game starts (in ambush until revealed, EC-TRAIT-AMBUSH)" in refused.output
    matrix = run("los", data / "ambush_yard.yaml", "--all")
    assert matrix.exit_code == 0, matrix.output
    assert "Viper" not in matrix.output and "Jet" in matrix.output
    assert "off the table as the game starts: k1 (in ambush until revealed, EC-TRAIT-AMBUSH)" in matrix.output
    law = run("los", data / "law_yard.yaml", "law_1", "h1")
    assert law.exit_code == 1 and "(the Law, riding in later, EC-LAW)" in law.output
