"""``los --all`` for a person (issue 13): riders by name, the one-way sight explained, shots
marked only at another gang."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from entropy3d.cli import app

SCENE = Path(__file__).resolve().parents[2] / "scenes" / "crossroads.yaml"


def test_matrix_names_riders_and_marks_shots_only_at_enemies():
    """Clause: EC-LOS-2, EC-COVER-1."""
    output = CliRunner().invoke(app, ["los", str(SCENE), "--all"]).output
    assert "EC-LOS-2" in output and "one-way" in output and "hades_1" not in output
    hades = ("Brakes", "Tombstone", "Ash", "Rat")
    rows = {line.split()[0]: re.findall(r"[T-]\s*\d+%(\*?)|\.", line[12:]) for line in output.splitlines()
            if line.split()[:1] and line.split()[0] in hades + ("Viper",)}
    for name in hades:
        assert "*" not in rows[name][:4], f"{name} is marked as able to shoot its own gang"
    assert "*" in rows["Brakes"][4:] and "*" in rows["Viper"][:4]
