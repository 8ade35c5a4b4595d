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
    PAST_EDGE_IN,
    REACH_RGB,
    REFUSED_RGB,
    AttackScene,
    map_region,
)
from entropy3d.geometry import BaseShape, Pose

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


def test_the_map_stays_on_the_table_around_riders_at_its_edge():
    """Two riders 42" apart along the south edge (Lovers Point's start): the square around them
    was centred on them, so half the map was the dark below the table. It keeps to the table
    (at most PAST_EDGE_IN beyond an edge), and where it is larger than the table it is centred
    on it; a close pair in mid-table keeps its square around them."""
    base = BaseShape(1.5, 0.75)

    def scene(a, b):
        return AttackScene(("Brakes", Pose(*a, 90.0), base, "#ff0000"), ("Viper", Pose(*b, 90.0), base, "#00ff00"),
                           (), "chain", "melee", 2.0, None, None, False, ("refused",))

    x0, y0, x1, y1 = map_region(scene((2.0, 4.2), (44.0, 4.2)), 48.0, 48.0)
    assert x1 - x0 == y1 - y0 > 48.0 + 2 * PAST_EDGE_IN
    assert (x0 + x1) / 2 == 24.0 and (y0 + y1) / 2 == 24.0
    x0, y0, x1, y1 = map_region(scene((2.0, 4.2), (12.0, 4.2)), 48.0, 48.0)
    assert y0 == -PAST_EDGE_IN and x0 == -PAST_EDGE_IN and x1 - x0 == y1 - y0 >= 10.0 + 2 * 5.0
    x0, y0, x1, y1 = map_region(scene((20.0, 20.0), (24.0, 23.0)), 48.0, 48.0)
    assert (x0 + x1) / 2 == 22.0 and (y0 + y1) / 2 == 21.5
