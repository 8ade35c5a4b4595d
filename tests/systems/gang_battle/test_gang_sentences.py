"""The gang battle's words for its events (entropy3d.systems.gang_battle.sentences): the small print
under a wound reads its dice from the event's rolls."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from entropy3d.game.loop import record_events
from entropy3d.game.session import play_game
from entropy3d.systems.words import detail

SCENE = Path(__file__).resolve().parents[3] / "scenes" / "systems" / "gang_fight.yaml"


def test_GANG_WOUND_the_small_print_of_a_played_fight_reads_each_wound_and_save_from_the_events_rolls():
    """Clause: GANG-WOUND. One source per fact (issue 44): the small print under a played gang
    fight's wounds reads each hit's wound roll and armour save from the event's rolls, as every
    reader of dice does, not from the engine's records in its figures: with those records taken
    away, every wound event still tells each hit's wound roll, as it did with them."""
    replay = play_game(SCENE, seed=7, turns=3, producer="geometric")
    wounded = [event for activation in replay.activations for action in activation.actions
               for event in record_events(action) if event.kind == "attack" and "GANG-WOUND" in event.clauses]
    assert len(wounded) >= 3
    for event in wounded:
        bare = dataclasses.replace(event, figures={k: v for k, v in event.figures.items() if k != "rolls"})
        assert detail(bare) == detail(event)
        assert detail(bare).count("wound ") == len(event.figures["rolls"]), detail(bare)
