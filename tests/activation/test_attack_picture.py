"""`entropy3d attack --png`: the attack drawn from above, with the verdict, TN and odds beside it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from PIL import Image

from entropy3d.activation.attack_picture import (
    ALLOWED_RGB,
    CLEAR_RGB,
    COVER_RGB,
    HIDDEN_RGB,
    MAP_PX,
    REACH_RGB,
    REFUSED_RGB,
)

DUEL = (
    "name: Duel\ntable: {width: 48, depth: 48}\n"
    "gangs: {a: {name: A, colour: '#ff0000'}, b: {name: B, colour: '#0000ff'}}\n"
    "buildings:\n"
    "  - {id: wall, rect: [29.5, 16, 30.5, 24], storeys: 2}\n"
    "models:\n"
    "  - {id: ash, gang: a, bike: police, position: [10, 11.8], facing: 0, speed: 1, rider: {weapon: chain}}\n"
    "  - {id: rat, gang: b, bike: police, position: [10, 10], facing: 0, speed: 1}\n"
    "  - {id: cop, gang: a, bike: police, position: [20, 20], facing: 0, speed: 1, rider: {gun: pistol}}\n"
    "  - {id: open, gang: b, bike: police, position: [36, 30], facing: 0, speed: 1}\n"
    "  - {id: hid, gang: b, bike: police, position: [36, 20], facing: 0, speed: 1}\n")


def run(*args):
    return subprocess.run([sys.executable, "-m", "entropy3d.cli", "attack", *args], capture_output=True, text=True)


def count(image: np.ndarray, rgb, tolerance: int = 30) -> int:
    return int((np.abs(image.astype(int) - np.array(rgb)).max(axis=2) < tolerance).sum())


def test_EC_MEL_1_a_melee_attack_is_drawn_with_its_reach_and_verdict(tmp_path):
    """Clause: EC-MEL-1, EC-WPN: ash's chain reaches rat: the map shows ash's reach around its
    base, the panel says it can and gives the TN."""
    scene = tmp_path / "duel.yaml"
    scene.write_text(DUEL)
    png = tmp_path / "melee.png"
    done = run(str(scene), "--attacker", "ash", "--target", "rat", "--png", str(png))
    assert done.returncode == 0, done.stderr
    assert f"wrote {png}" in done.stdout and "TN        14" in done.stdout
    image = np.asarray(Image.open(png).convert("RGB"))
    assert image.shape == (MAP_PX, MAP_PX + 560, 3)
    assert count(image[:, :MAP_PX], REACH_RGB) > 200, "the chain's reach is not drawn"
    assert count(image[:80, MAP_PX:], ALLOWED_RGB) > 100 and count(image[:80, MAP_PX:], REFUSED_RGB) == 0


def test_EC_COVER_1_a_shot_is_drawn_with_its_sight_line_and_share_visible(tmp_path):
    """Clause: EC-COVER-1, EC-GUN-2: cop sees 'open' in the clear (a cyan-green line, its share
    visible); 'hid' stands behind the wall: refused (exit 1) but drawn, the line red, the
    verdict in the refusal colour."""
    scene = tmp_path / "duel.yaml"
    scene.write_text(DUEL)
    clear, hidden = tmp_path / "clear.png", tmp_path / "hidden.png"
    seen = run(str(scene), "--attacker", "cop", "--target", "open", "--png", str(clear))
    assert seen.returncode == 0, seen.stderr
    assert "100% of open visible" in seen.stdout
    image = np.asarray(Image.open(clear).convert("RGB"))
    assert count(image[:, :MAP_PX], CLEAR_RGB) > 300
    refused = run(str(scene), "--attacker", "cop", "--target", "hid", "--png", str(hidden))
    assert refused.returncode == 1 and "EC-COVER-1" in refused.stderr and "Traceback" not in refused.stderr
    image = np.asarray(Image.open(hidden).convert("RGB"))
    assert count(image[:, :MAP_PX], HIDDEN_RGB) > 300 and count(image[:, :MAP_PX], CLEAR_RGB) < 50
    assert count(image[:, :MAP_PX], COVER_RGB) < 50
    assert count(image[:80, MAP_PX:], REFUSED_RGB) > 100


def test_a_bad_png_name_writes_nothing(tmp_path):
    scene = tmp_path / "duel.yaml"
    scene.write_text(DUEL)
    bad = run(str(scene), "--attacker", "ash", "--target", "rat", "--png", str(tmp_path / "melee.jpg"))
    assert bad.returncode == 1 and ".png" in bad.stderr and "Traceback" not in bad.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duel.yaml"]
