"""`entropy3d attack`: the rules' check of an attack from where the models stand."""

import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "entropy3d.cli", "attack", *args], capture_output=True, text=True)


def duel(tmp_path, models: str):
    """A bare 48" table with gangs a and b and ``models`` (YAML list items): the scene's path."""
    scene = tmp_path / "duel.yaml"
    scene.write_text("name: Duel\ntable: {width: 48, depth: 48}\n"
                     "gangs: {a: {name: A, colour: '#ff0000'}, b: {name: B, colour: '#0000ff'}}\nmodels:\n" + models)
    return scene


def test_EC_MEL_1_and_EC_GUN_2_attack_command_says_tn_odds_or_the_clause(tmp_path):
    """Clause: EC-MEL-1, EC-GUN-2, EC-COVER-1: side by side a chain is in reach (TN 14, the
    exact opposed odds of hitting through the dodge); a pistol 40" away is out of its 35.2" range; refusals exit 1."""
    scene = duel(tmp_path,
        "  - {id: ash, gang: a, bike: police, position: [10, 11.8], facing: 0, speed: 1, rider: {weapon: chain}}\n"
        "  - {id: rat, gang: b, bike: police, position: [10, 10], facing: 0, speed: 1}\n"
        "  - {id: far, gang: b, bike: police, position: [10, 40], facing: 0, speed: 1, rider: {gun: pistol}}\n"
        "  - {id: cop, gang: a, bike: police, position: [10, 0.5], facing: 90, speed: 1, rider: {gun: pistol}}\n")
    ok = run(str(scene), "--attacker", "ash", "--target", "rat")
    assert ok.returncode == 0, ok.stderr
    assert "TN        14" in ok.stdout and "% to hit against rat's dodge" in ok.stdout
    out_of_range = run(str(scene), "--attacker", "cop", "--target", "far")
    assert out_of_range.returncode == 1 and "EC-GUN-2" in out_of_range.stderr and "35.2" in out_of_range.stderr
    assert "Traceback" not in out_of_range.stderr
    bad = run(str(scene), "--attacker", "ash", "--target", "rat", "--weapon", "bazooka")
    assert bad.returncode == 1 and "bazooka" in bad.stderr and "Traceback" not in bad.stderr


def test_riders_are_called_by_name_with_the_id_the_command_takes(tmp_path):
    """A rider with a name is "Ash (hades_3)" in the verdict and by name in the refusal's reason
    and the sight line (the command printed only ids)."""
    scene = duel(tmp_path,
        "  - {id: hades_3, gang: a, bike: police, position: [10, 11.8], facing: 0, speed: 1,"
        " rider: {name: Ash, weapon: chain}}\n"
        "  - {id: komodo_1, gang: b, bike: police, position: [10, 10], facing: 0, speed: 1, rider: {name: Viper}}\n"
        "  - {id: cop, gang: a, bike: police, position: [10, 0.5], facing: 90, speed: 1, rider: {gun: pistol}}\n"
        "  - {id: far, gang: b, bike: police, position: [10, 40], facing: 0, speed: 1, rider: {name: Fang}}\n")
    ok = run(str(scene), "--attacker", "hades_3", "--target", "komodo_1")
    assert ok.returncode == 0, ok.stderr
    assert "Ash (hades_3) can attack Viper (komodo_1) with chain" in ok.stdout and "against Viper's dodge" in ok.stdout
    refused = run(str(scene), "--attacker", "cop", "--target", "far")
    assert refused.returncode == 1 and "cop cannot attack Fang (far) with pistol: Fang is " in refused.stderr


def test_EC_GUN_2_the_sniper_rifles_unlimited_range_is_said_and_drawn(tmp_path):
    """Clause: EC-GUN-2 (the sniper rifle, ``range_m: null``): a shot 40" away is in range; the
    command says "range unlimited" and draws the picture without a range circle. The command
    computed the range itself and ended in float(None)'s traceback."""
    scene = duel(tmp_path,
        "  - {id: eye, gang: a, on_foot: true, position: [10, 2], facing: 90, rider: {gun: sniper_rifle}}\n"
        "  - {id: far, gang: b, bike: police, position: [10, 42], facing: 0, speed: 1}\n")
    png = tmp_path / "shot.png"
    ok = run(str(scene), "--attacker", "eye", "--target", "far", "--png", str(png))
    assert ok.returncode == 0, ok.stderr
    assert "40.0\" away (range unlimited)" in ok.stdout and png.stat().st_size > 10_000


def test_EC_MEL_KICK_any_rider_may_kick_a_bike_beside_it_16_against_a_cruiser(tmp_path):
    """Clause: EC-MEL-KICK, EC-BIKE-CRUISER: `attack --weapon kick` was "unknown weapon" (issue 45).
    Side by side (police bases 42 mm wide: centres 1.65" apart), any rider kicks at TN 13, +3 at a
    cruiser; a rider 3" off is out of a kick's base-to-base reach; --png draws it."""
    scene = duel(tmp_path,
        "  - {id: ash, gang: a, bike: police, position: [10, 11.66], facing: 0, speed: 1}\n"
        "  - {id: rat, gang: b, bike: police, position: [10, 10], facing: 0, speed: 1}\n"
        "  - {id: hog, gang: b, bike: cruiser, position: [10, 13.32], facing: 0, speed: 1}\n"
        "  - {id: far, gang: b, bike: police, position: [30, 30], facing: 0, speed: 1}\n")
    ok = run(str(scene), "--attacker", "ash", "--target", "rat", "--weapon", "kick", "--png", str(tmp_path / "k.png"))
    assert ok.returncode == 0, ok.stderr
    assert "can attack rat with kick (melee)" in ok.stdout and "TN        13" in ok.stdout
    assert (tmp_path / "k.png").stat().st_size > 1000
    cruiser = run(str(scene), "--attacker", "ash", "--target", "hog", "--weapon", "kick")
    assert cruiser.returncode == 0 and "TN        16" in cruiser.stdout, cruiser.stderr
    far = run(str(scene), "--attacker", "ash", "--target", "far", "--weapon", "kick")
    assert far.returncode == 1 and "kick reaches 0\"" in far.stderr and "(EC-MEL-1)" in far.stderr
