"""A gun's split shots said by a player (EC-GUN-SPLIT): "attack TARGET with pistol x2" on the
command line and in a game script, checked against the gun's split (rules data guns.pistol.split_shot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.attacks import weapon_and_shots
from entropy3d.systems.entropy_city.engine import EntropyCityEngine

YARD = Path(__file__).resolve().parents[2] / "systems" / "data" / "reached" / "reach_yard.yaml"


def test_EC_GUN_SPLIT_a_weapon_said_with_xN_is_that_many_shots(rules):
    assert weapon_and_shots("pistol x2") == ("pistol", 2)
    assert weapon_and_shots("pistol") == ("pistol", 1)
    assert weapon_and_shots("lead pipe") == ("lead pipe", 1)
    with pytest.raises(ValueError, match="say a gun's shots as x2"):
        weapon_and_shots("pistol xtwo")
    action = EntropyCityEngine(rules).parse_action("k1", "attack h1 with pistol x2")
    assert (action.target, action.weapon, action.shots) == ("h1", "pistol", 2)
    with pytest.raises(IllegalPlanError) as refused:
        EntropyCityEngine(rules).parse_action("k1", "attack h1 with pistol x0")
    assert refused.value.clause == "EC-GUN-SPLIT"


def test_EC_GUN_SPLIT_the_command_line_fires_both_shots_and_the_second_at_TN_plus_one():
    """The reach yard, seed 3, geometric: the gunner (pistol, split_shot 2) rides 4" east to (24,
    28) and fires twice at the parked mark 10" ahead: the first shot at TN 15, 9+1+9 = 19, hits
    (-1 wound); the second at TN 16 (+1 for the split, EC-GUN-SPLIT), 6+1+7+5 = 19 against mark's
    dodge 1+4+5 = 11: 8 over, a headshot (pistol: 3 over the dodge). Asking for 3 shots of a gun
    that splits 2 is refused with the clause, no traceback."""
    from entropy3d.cli import app

    ran = CliRunner().invoke(app, ["activate", str(YARD), "-m", "gunner", "-p", "s1: straight 4",
                                   "-p", "attack mark with pistol x2", "--producer", "geometric", "--seed", "3"])
    assert ran.exit_code == 0, ran.output
    assert ran.output.count("gunner attacks mark with the pistol") == 2
    assert "needs 15, rolls 19 - hits" in ran.output and "needs 16, rolls 19 - hits" in ran.output
    assert "EC-GUN-SPLIT; TN 16" in ran.output and "a headshot, out of the game" in ran.output
    ran = CliRunner().invoke(app, ["activate", str(YARD), "-m", "gunner", "-p", "s1: straight 4",
                                   "-p", "attack mark with pistol x3", "--producer", "geometric", "--seed", "3"])
    assert ran.exit_code != 0 and "EC-GUN-SPLIT" in ran.output and "Traceback" not in ran.output


def test_EC_GUN_SPLIT_a_script_says_split_shots_and_only_a_gun_may(tmp_path):
    """A game script's `attack: mark with pistol x2` passes the script's checks; `with hammer x2`
    is refused at its key path: only a gun fires more than one shot."""
    from entropy3d.game.script import load_script, script_problems
    from entropy3d.scene import load_scene

    table = load_scene(YARD)
    only = "only a gun fires more than one shot"
    for attack, said in (("mark with pistol x2", None), ("anvil with hammer x2", only)):
        path = tmp_path / "run.yaml"
        path.write_text(f"scene: {YARD}\nturns: 1\nactivations:\n"
                        f"  - {{turn: 1, model: gunner, plans: ['s1: straight 4'], attack: {attack}}}\n")
        script, _, lines = load_script(path)
        problems = script_problems(script, lines, table)
        if said is None:
            assert problems == []
        else:
            [(where, line, message)] = problems
            assert where == "activations[0].attack" and line == 4 and said in message
