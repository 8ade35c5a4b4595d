"""``los --all`` for a person (issue 13): riders by name, the one-way sight explained, shots
marked only at another gang."""

from __future__ import annotations

import json
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


def test_EC_LOS_2_a_target_behind_the_viewers_front_half_is_said_to_be_so():
    """Clause: EC-LOS-2. On Lovers Point Brakes faces north and Tombstone stands just behind his
    shoulder: top-down sees the front of Tombstone's base, but every ray to his bike and rider ends
    behind Brakes's front half, so true LOS is 0% with nothing blocking. The verdict counts those
    rays and the report says why; Viper, due east, is half behind."""
    lovers_point = SCENE.parent / "lovers_point.yaml"
    behind = CliRunner().invoke(app, ["los", str(lovers_point), "hades_1", "hades_2"]).output
    assert "0% of bike and rider visible" in behind and "all behind Brakes's front half, EC-LOS-2" in behind
    side = json.loads(CliRunner().invoke(app, ["los", str(lovers_point), "hades_1", "komodo_1", "--json"]).output)
    true_los = side["true_los"]
    assert 0 < true_los["rays_behind_viewer"] < true_los["rays"] and true_los["visible_percent"] > 0
