"""Seating (entropy3d.game.seating): every rulebook's game is set up by one path, its engine from
``GameSystem.engine`` and its players from its own ``SEATING`` (issue 44: Entropy City's players
were built by a branch of the session that no other rulebook took)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.game.seating import Seating
from entropy3d.geometric import GeometricProducer
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.scene.systemrules import system_of

SCENES = Path(__file__).resolve().parents[2] / "scenes"
#: scene -> (the rulebook played there, the class of the players its seating gives)
PLAYED = {
    "crossroads.yaml": ("entropy_city", "EntropyCityPlayer"),
    "systems/gang_fight.yaml": ("gang_battle", "GangPlayer"),
    "systems/rooftop_skirmish.yaml": ("tenacity_tactics", "TenacityPlayer"),
    "systems/car_chase.yaml": ("chase_vehicles", "ChasePlayer"),
    # the reference cards only judge: Entropy City's game is played on their table
    "systems/rooftop_fall.yaml": ("entropy_city", "EntropyCityPlayer"),
}


@pytest.mark.parametrize("scene", sorted(PLAYED))
def test_each_rulebook_seats_its_own_player_at_every_gang(scene):
    """The session's one set-up (``system_game``) gives each gang the player of the rulebook
    played on the table, from that rulebook's seating."""
    from entropy3d.game.session import system_game

    table = load_scene(SCENES / scene)
    geometry = build_table_geometry(table)
    system = system_of(table, played=True)
    riding = GeometricProducer(table, geometry)
    seating = Seating(table, geometry, riding, "geometric", np.random.SeedSequence(3))
    game = system_game(system, table, geometry, riding, seating, np.random.default_rng(3), turns=1)
    rulebook, player = PLAYED[scene]
    assert system.name == rulebook
    assert sorted(game.players) == sorted(table.spec.gangs)
    assert {type(p).__name__ for p in game.players.values()} == {player}
    if rulebook == "entropy_city":  # its characters: each gang's chooser rides a look-ahead first
        choosers = [p.chooser for p in game.players.values()]
        assert all(type(c).__name__ == "AutoPlayer" and c.lookahead is not None for c in choosers)
        assert len({(c.aggression, c.daring) for c in choosers}) == len(choosers)


def test_a_script_is_seated_only_where_the_rulebook_takes_scripts():
    """Entropy City seats a script's activations in its gangs' places; a rulebook whose games no
    script plays refuses one before any game is set up (issue 44: the refusal was a branch on
    whether the rulebook 'plays', which Entropy City now does too)."""
    from entropy3d.errors import ScriptError
    from entropy3d.game.session import setup_game

    script = sorted((SCENES / "scripts").glob("*.yaml"))[0]
    game, header = setup_game(None, script=script, producer="geometric")
    assert header.players == f"script:{script}"
    assert {type(p.chooser).__name__ for p in game.players.values()} == {"ScriptedPlayer"}
    with pytest.raises(ScriptError, match="a script plays Entropy City plans"):
        setup_game(SCENES / "systems" / "gang_fight.yaml", script=script, producer="geometric")
