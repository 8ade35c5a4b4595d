"""The one take (game/step.py) as any rulebook's engine meets it: the facts it reads and the
record a playing system keeps of an action that rides nothing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropy3d.game.loop import action_record
from entropy3d.game.step import take
from entropy3d.rules.event import Event
from entropy3d.rules.transition import ATTACK, Action
from tests.rules.test_attacks import side_by_side


@dataclass
class Seen:
    target: str
    visible_fraction: float


class Table:
    """Answers the one question an engine that reads sight asks: what the attacker sees."""

    def sightings(self, state, viewer):
        return [Seen("k1", 1.0), Seen("h1", 0.4375)]


class Engine:
    """An engine whose attack always hits, and that reads sight or not (``reads_sight``)."""

    reads_rides = False

    def __init__(self, reads_sight: bool):
        self.reads_sight = reads_sight
        self.read = "never resolved"

    def check(self, state, action, table=None):
        return action

    def resolve(self, state, action, facts, rng):
        self.read = facts
        return state, [Event("attack", action.model_id, "hits", clauses=("TOY-HIT",), figures={"hit": True})]


def test_an_attack_gets_the_sighting_of_its_target_only_from_an_engine_that_reads_sight():
    state = side_by_side()
    attack = Action(ATTACK, "k1", target="h1", weapon="fists")
    seeing, blind = Engine(reads_sight=True), Engine(reads_sight=False)
    seen = take(seeing, state, attack, np.random.default_rng(0), None, Table())
    unseen = take(blind, state, attack, np.random.default_rng(0), None, Table())
    assert seeing.read == Seen("h1", 0.4375) and seen.reading is seeing.read and seen.facts is None
    assert blind.read is None and unseen.reading is None and unseen.facts is None
    # the replay's record: the sight the shooter had when there was one, and no made-up figure when not
    recorded, bare = action_record(0, seen).attack, action_record(0, unseen).attack
    assert recorded["visible"] == 0.4375 and "visible" not in bare
    assert recorded["events"] == bare["events"] == [e.to_json() for e in unseen.events]
    assert bare["attacker"] == "k1" and bare["target"] == "h1" and bare["clauses"] == ["TOY-HIT"]
