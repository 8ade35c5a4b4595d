"""Entropy City (seed 000) as the first registered game system.

A wrapper, not a move: the rules stay in :mod:`entropy3d.systems.entropy_city` (its engine,
:class:`~entropy3d.systems.entropy_city.engine.EntropyCityEngine`, over the one ``check`` and ``resolve`` of
:mod:`entropy3d.systems.entropy_city.transition`, the ruleset of ``rules/entropy_city.yaml``, the missions) and
the players in :mod:`entropy3d.game.players`; this class names them so that the registry, the
scene's ``system:`` and ``entropy3d systems`` see Entropy City like any other system. The
players are imported when asked for, because they read the table (scene layer).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Sequence

from entropy3d.systems.base import GameSystem, ShotVerdict
from entropy3d.systems.entropy_city.rulesdata import RulesSpec
from entropy3d.systems.entropy_city.ruleset import Ruleset


class EntropyCity(GameSystem):
    """Motorcycle-gang skirmish: the whole engine of :mod:`entropy3d.systems.entropy_city`. ``rules`` is the
    :class:`~entropy3d.systems.entropy_city.ruleset.Ruleset`."""

    name = "entropy_city"
    title = "Entropy City"
    seed = "000"
    clause_prefix = "EC-"
    #: served: a game of tests/systems/data/reached_games.yaml reaches each (tests/systems/test_clauses_reached.py);
    #: those it does not are "not yet" (rules/clauses.md says why)
    clauses = (
        "EC-DICE-1", "EC-DICE-2", "EC-DICE-3", "EC-DICE-4", "EC-DICE-5", "EC-DICE-6", "EC-DICE-7",
        "EC-TURN-1", "EC-TURN-2", "EC-TURN-3", "EC-TURN-4", "EC-SPD-1", "EC-SPD-2", "EC-MOVE-1",
        "EC-MOVE-2", "EC-MOVE-3", "EC-TMPL-1", "EC-TMPL-2", "EC-TMPL-3", "EC-WEAVE-1", "EC-ACT-FOCUS",
        "EC-ACT-CHICANE", "EC-ACT-GUNGHO", "EC-ACT-STOPPIE", "EC-ACT-STOP", "EC-ACT-PICKUP", "EC-ACT-PASS",
        "EC-ACT-LAYTRAP", "EC-COL-1", "EC-COL-HEAD", "EC-COL-SIDE", "EC-COL-EDGE", "EC-MEL-1", "EC-MEL-2",
        "EC-MEL-CHICKEN", "EC-MEL-KICK", "EC-GUN-1", "EC-BIKE-SPORT", "EC-BIKE-CRUISER",
        "EC-BIKE-TRAIL", "EC-BIKE-QUAD", "EC-BIKE-SCOOTER", "EC-TER-GRAVEL",
        "EC-TER-SAND", "EC-TER-GRASS", "EC-TER-RUINS", "EC-TER-CURB", "EC-TER-BUILDING", "EC-JUMP-1",
        "EC-JUMP-2", "EC-JUMP-4", "EC-DEST-1", "EC-DEST-2", "EC-DEST-3", "EC-DEST-4",
        "EC-LOS-2", "EC-LOS-4", "EC-COVER-1", "EC-ACT-ATTACK", "EC-MEL-DEF",
        "EC-WPN", "EC-PIERCE", "EC-HEADSHOT", "EC-WOUND", "EC-GUN-2", "EC-GUN-SPLIT", "EC-GUN-STOPPED",
        "EC-STOPPED", "EC-STOP-RECOVER", "EC-COND-BURN", "EC-COND-BLEED", "EC-COND-STUN",
        "EC-TRAP", "EC-TRAIT", "EC-ACT-STUNT", "EC-FOOT-MOVE", "EC-FOOT-ACT",
        "EC-MISSION-PACKAGE", "EC-MISSION-GRAB", "EC-MISSION-VIP", "EC-STEALTH", "EC-MISSION-JAIL",
        "EC-MISSION-RESCUE", "EC-LAW", "EC-MISSION-CORNERS", "EC-MISSION-HOON", "EC-TRAIT-AMBUSH",
    )
    turn_clauses = ("EC-TURN-1", "EC-TURN-2")
    rules_file = "entropy_city"
    rules_schema = RulesSpec

    #: "module:attribute" of the player factories, imported when asked for (they read the table)
    PLAYERS: ClassVar[Mapping[str, str]] = {"auto": "entropy3d.game.players:AutoPlayer",
                                            "demo": "entropy3d.game.players:demo_players",
                                            "scripted": "entropy3d.game.script:ScriptedPlayer"}
    #: its engine and its seating. The engine is built by :meth:`engine` from the ruleset and the
    #: table's view (the one path asks it the answers its resolve reads), not called as ``ENGINE(system, stats)``:
    #: here ``ENGINE`` names the class and marks that Entropy City plays (:meth:`plays`)
    ENGINE = "entropy3d.systems.entropy_city.engine:EntropyCityEngine"
    SEATING = "entropy3d.game.entropy_city_player:seat_players"
    scripted = True
    riders = True
    action_examples = ("s2: straight 8, left medium 5", "attack TARGET with chicken")
    turns_on_templates = True
    mission_names = {"grab_n_go": "Grab n Go", "vip_takedown": "VIP Takedown", "jailbreak": "Jailbreak",
                     "rescue_survive": "Rescue & Survive", "corners": "Corners", "hoon_hour": "Hoon Hour"}

    rules: Ruleset

    def engine(self, stats: Mapping[str, Any], table: Any = None, gangs: Sequence[str] = ()):
        """Its engine over its ruleset; ``table`` answers where a ridden bike settles, what a
        watcher sees and where a wreck may lie, asked by the one path (None: nothing settles, no
        watcher sees, every spot within 3" is clear for a wreck). Its riders carry no ``stats:``."""
        from entropy3d.systems.entropy_city.engine import EntropyCityEngine

        return EntropyCityEngine(self.rules, table, gangs)

    @classmethod
    def first_roll_line(cls, rolls: tuple[int, int], first: str) -> str:
        """The roll-off's winner chooses who goes first (EC-TURN-1)."""
        return f"roll-off {rolls[0]} v {rolls[1]}: {first} chooses to go first (EC-TURN-1)"

    @classmethod
    def score_lines(cls, state, events, gang_of, names, rules=None) -> list[tuple[str, str]]:
        """Its points explained by what earned them: busts, escapes, riders taken out
        (:func:`~entropy3d.systems.entropy_city.missions.score_explanation`; ``rules``: the
        :class:`~entropy3d.systems.entropy_city.ruleset.Ruleset`). A mission the rulebook does not write is
        scored, and named, as Turf War."""
        from entropy3d.systems.entropy_city.missions import score_explanation, scored_as

        return score_explanation(state, events, gang_of, rules, cls.mission_title(scored_as(state.mission)),
                                 names.gang, names.rider)

    @classmethod
    def plate_note(cls, model) -> str:
        """A Package Run carrier is known to carry one (its value is hidden, EC-MISSION-PACKAGE); a
        VIP is declared in public (EC-MISSION-VIP)."""
        return "package" if model.carries_package else "VIP" if model.vip and model.in_play else ""

    def shot_verdict(self, state, shooter: str, target: str, sight) -> ShotVerdict:
        """Its gun attack's own check (:func:`~entropy3d.systems.entropy_city.attacks.check_attack`, the one
        that refuses a declared shot) with the shooter's gun, from where both stand in ``state``
        and with what it sees (``sight``): EC-GUN-2 (a gun to shoot, a shot left in it, the
        gun's range), EC-COVER-1 and EC-LOS-4 (25% of bike and rider, the bike itself), EC-MEL-DEF.
        Not whether it has an attack to make at this moment of its activation (EC-ACT-ATTACK):
        the question is what the sight and the loadout allow."""
        from entropy3d.errors import IllegalPlanError
        from entropy3d.systems.entropy_city.attacks import check_attack

        gun = state.model(shooter).gun
        if gun is None:
            return ShotVerdict(False, "EC-GUN-2", f"{shooter} carries no gun")
        try:
            check_attack(state, shooter, target, gun, self.rules, see=lambda: sight)
        except IllegalPlanError as refused:
            return ShotVerdict(False, refused.clause, refused.message)
        return ShotVerdict(True)

    def standing_refusals(self, on_foot: bool, roof: tuple[str, float] | None, drop_in: float) -> list[str]:
        """A base hanging over a drop deeper than a bike steps up (``ride.step_height_in``), and a
        bike on a building's roof (EC-TER-BUILDING: a bike does not enter a building; a figure on
        foot stands on one, EC-FOOT-DEPLOY)."""
        found = []
        if drop_in > float(self.rules.data("ride.step_height_in")):
            found.append(f"its base hangs {drop_in:.1f}\" over an edge")
        if roof is not None and not on_foot:
            found.append(f"a bike on the roof of {roof[0]}, {roof[1]:.1f}\" up: a bike does not enter a building "
                         "(EC-TER-BUILDING)")
        return found

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<rules>") -> "EntropyCity":
        return cls(Ruleset.from_mapping(data, source))
