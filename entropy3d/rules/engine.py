"""Entropy City behind the one engine protocol every rulebook keeps (issue 44).

The other rulebooks' engines (:class:`~entropy3d.systems.gang_battle.engine.GangEngine` and its
siblings) are objects with ``check(state, action, table)`` and ``resolve(state, action, facts,
rng)``; :func:`entropy3d.game.step.take` walks any of them along the one path (check, then the
table's facts, then resolve). This is Entropy City's: the one :func:`~entropy3d.rules.transition.check`
and :func:`~entropy3d.rules.transition.resolve` with its validated ruleset bound once.

Not yet as the protocol wants it: its ``resolve`` still asks the table it was made with where a
ridden bike may rest (:func:`~entropy3d.rules.rest.settle`), what a rider on overwatch sees of a
ride (:func:`~entropy3d.rules.stopped_guns.react`) and where a wreck may lie
(:func:`~entropy3d.rules.wrecks.place_wrecks`), where the other engines read all they need from
the facts handed to them. Those three questions become facts the producer gives before resolve in
the step after this one; the turn's phases, the players and the missions follow.
"""

from __future__ import annotations

import numpy as np

from entropy3d.rules.event import Event
from entropy3d.rules.facts import Facts
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.state import State
from entropy3d.rules.transition import Action, TableChecks, check, resolve


class EntropyCityEngine:
    """Entropy City's rules (``ruleset``) on one table (``table``, asked by :meth:`resolve`; None:
    no table, so nothing settles, no watcher sees and wrecks stay where they fell)."""

    #: what the one path hands :meth:`resolve` besides the producer's bare facts of a ride: nothing.
    #: Its attacks are checked against what the attacker sees (the table's ``sight``, EC-COVER-1)
    #: and resolved from the dice; its rides from the facts as the producer gives them.
    reads_sight = False
    reads_rides = False

    def __init__(self, ruleset: Ruleset, table: TableChecks | None = None):
        self.ruleset, self.table = ruleset, table

    def check(self, state: State, action: Action, table: TableChecks | None = None) -> Action:
        """Whether ``action`` is legal now, asked of ``table``; returns it with its checked move.
        Changes nothing, rolls nothing; raises IllegalPlanError naming the clause."""
        return check(state, action, self.ruleset, table)

    def resolve(self, state: State, action: Action, facts: Facts | None,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
        """Apply a checked ``action`` with what the producer found riding it (``facts``; None for an
        action that rides nothing) and the dice of ``rng``: the next state and its events."""
        return resolve(state, action, facts, rng, self.ruleset, self.table)
