"""Entropy City (seed 000) as the first registered game system.

A wrapper, not a move: the rules stay in :mod:`entropy3d.rules` (its engine,
:class:`~entropy3d.rules.engine.EntropyCityEngine`, over the one ``check`` and ``resolve`` of
:mod:`entropy3d.rules.transition`, the ruleset of ``rules/entropy_city.yaml``, the missions) and
the players in :mod:`entropy3d.game.players`; this class names them so that the registry, the
scene's ``system:`` and ``entropy3d systems`` see Entropy City like any other system. The
players are imported when asked for, because they read the table (scene layer).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Sequence

from entropy3d.rules.rulesdata import RulesSpec
from entropy3d.rules.ruleset import Ruleset
from entropy3d.systems.base import GameSystem


class EntropyCity(GameSystem):
    """Motorcycle-gang skirmish: the whole engine of :mod:`entropy3d.rules`. ``rules`` is the
    :class:`~entropy3d.rules.ruleset.Ruleset`."""

    name = "entropy_city"
    title = "Entropy City"
    seed = "000"
    clause_prefix = "EC-"
    clauses = (
        "EC-DICE-1", "EC-DICE-2", "EC-DICE-3", "EC-DICE-4", "EC-DICE-5", "EC-DICE-6", "EC-DICE-7",
        "EC-TURN-1", "EC-TURN-2", "EC-TURN-3", "EC-TURN-4", "EC-SPD-1", "EC-SPD-2", "EC-MOVE-1",
        "EC-MOVE-2", "EC-MOVE-3", "EC-TMPL-1", "EC-TMPL-2", "EC-TMPL-3", "EC-WEAVE-1", "EC-ACT-FOCUS",
        "EC-ACT-CHICANE", "EC-ACT-GUNGHO", "EC-ACT-STOPPIE", "EC-ACT-STOP", "EC-ACT-PICKUP", "EC-ACT-PASS",
        "EC-ACT-LAYTRAP", "EC-COL-1", "EC-COL-HEAD", "EC-COL-SIDE", "EC-COL-EDGE", "EC-MEL-1", "EC-MEL-2",
        "EC-MEL-CHICKEN", "EC-MEL-KICK", "EC-GUN-1", "EC-BASE", "EC-BIKE-SPORT", "EC-BIKE-CRUISER",
        "EC-BIKE-TRAIL", "EC-BIKE-QUAD", "EC-BIKE-SCOOTER", "EC-BIKE-POLICE", "EC-TER-TABLE", "EC-TER-GRAVEL",
        "EC-TER-SAND", "EC-TER-GRASS", "EC-TER-RUINS", "EC-TER-CURB", "EC-TER-BUILDING", "EC-JUMP-1",
        "EC-JUMP-2", "EC-JUMP-3", "EC-JUMP-4", "EC-DEST-1", "EC-DEST-2", "EC-DEST-3", "EC-DEST-4", "EC-LOS-1",
        "EC-LOS-2", "EC-LOS-3", "EC-LOS-4", "EC-COVER-1", "EC-STEALTH", "EC-ACT-ATTACK", "EC-MEL-DEF",
        "EC-WPN", "EC-PIERCE", "EC-HEADSHOT", "EC-WOUND", "EC-GUN-2", "EC-GUN-SPLIT", "EC-GUN-STOPPED",
        "EC-STOPPED", "EC-STOP-RECOVER", "EC-COND-BURN", "EC-COND-WET", "EC-COND-BLEED", "EC-COND-STUN",
        "EC-TRAP", "EC-TRAIT", "EC-ACT-STUNT", "EC-FOOT-MOVE", "EC-FOOT-DEPLOY", "EC-FOOT-ACT",
    )
    rules_file = "entropy_city"
    rules_schema = RulesSpec

    #: "module:attribute" of the player factories, imported when asked for (they read the table)
    PLAYERS: ClassVar[Mapping[str, str]] = {"auto": "entropy3d.game.players:AutoPlayer",
                                            "demo": "entropy3d.game.players:demo_players",
                                            "scripted": "entropy3d.game.script:ScriptedPlayer"}
    #: its engine and its seating. The engine is built by :meth:`engine` from the ruleset and the
    #: table's view (its resolve still asks the table), not called as ``ENGINE(system, stats)``:
    #: here ``ENGINE`` names the class and marks that Entropy City plays (:meth:`plays`)
    ENGINE = "entropy3d.rules.engine:EntropyCityEngine"
    SEATING = "entropy3d.game.entropy_city_player:seat_players"
    scripted = True
    riders = True

    rules: Ruleset

    def engine(self, stats: Mapping[str, Any], table: Any = None, gangs: Sequence[str] = ()):
        """Its engine over its ruleset; ``table`` answers where a ridden bike settles, what a
        watcher sees and where a wreck lies (None: nothing settles, no watcher sees, wrecks lie
        where they fell). Its riders carry no ``stats:``."""
        from entropy3d.rules.engine import EntropyCityEngine

        return EntropyCityEngine(self.rules, table, gangs)

    def shot_allowed(self, visible_fraction: float, bike_seen: bool, shooter: Any = None) -> bool | None:
        """EC-COVER-1 and EC-LOS-4 (:func:`~entropy3d.rules.combat.shot_in_sight`); and EC-GUN-2:
        a shooter with no gun (a chain, a punch) or no shot left in it has no shot, whatever it sees."""
        from entropy3d.rules.combat import shot_in_sight

        if shooter is not None and (shooter.gun is None or shooter.ammo <= 0):
            return False
        return shot_in_sight(visible_fraction, bike_seen, self.rules)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<rules>") -> "EntropyCity":
        return cls(Ruleset.from_mapping(data, source))
