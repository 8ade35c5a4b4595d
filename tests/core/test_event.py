"""The one event type (entropy3d.core.event): every kind a rulebook's engine writes is one of
:data:`KINDS` (issue 44: the gang engine's "shot" and tag's "tag" were missing), and every roll
it records is a :class:`~entropy3d.core.roll.Roll` the one formatter tells."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.core.event import KINDS, roll_text
from entropy3d.game.loop import record_events
from entropy3d.game.session import play_game

ROOT = Path(__file__).resolve().parents[2]

#: one played game of each rulebook: (scene, seed, turns)
GAMES = {
    "entropy_city": ("scenes/crossroads.yaml", 0, 1),
    "gang_battle": ("scenes/systems/gang_fight.yaml", 7, 3),
    "tenacity": ("scenes/systems/rooftop_skirmish.yaml", 7, 3),
    "chase_vehicles": ("scenes/systems/car_chase.yaml", 1, 2),
    "tag": ("tests/data/tag_yard.yaml", 7, 3),
}


@pytest.mark.parametrize("rulebook", sorted(GAMES))
def test_every_event_of_a_played_game_has_a_kind_in_KINDS_and_told_rolls(rulebook):
    scene, seed, turns = GAMES[rulebook]
    replay = play_game(ROOT / scene, seed=seed, turns=turns, producer="geometric")
    events = [event for activation in replay.activations for event in activation.events] + [
        event for activation in replay.activations for action in activation.actions
        for event in record_events(action) + list(action.rulings)]
    assert events, f"{scene} played no event"
    unknown = sorted({event.kind for event in events} - set(KINDS))
    assert not unknown, f"{rulebook}'s engine writes kinds not in KINDS: {unknown}"
    for roll in (roll for event in events for roll in event.rolls):
        assert str(roll.total) in roll_text(roll), roll  # the one formatter tells either kind
