"""10acity Tactics (seed 002) as a game system: cover by material, sizes by doubling, elevation.

TEN-COVER: hard cover (a material that stops an attack) completely in the way means no direct
attack, partly in the way counts the target one size smaller; soft cover hides (completely: only
a blind attack) but does not stop attacks. TEN-SIZE: size steps double (1x1, 2x2, 4x4), found
from the bases' footprints; attacking a larger size +1 and an advantage die per step with damage
halved per step, a smaller one the reverse. TEN-ELEV: a higher viewer gets an advantage die to
perception (its initiative Perception over an enemy below it, a blind attack's find roll) and
denies cover behind obstacles lower than the ground it stands on. The skirmish
itself (group initiative and the action economy, walks, the d10 pool attack against the
defender's Reaction, stress and wounds, prone and full defensive: TEN-TURN ... TEN-STRESS) is
:class:`~entropy3d.systems.tenacity.engine.TenacityEngine`, built by :meth:`TenacityTactics.engine`;
its attacks read the cover, size and elevation decided here. Every number and material is in
``rules/tenacity_tactics.yaml``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

from pydantic import Field, model_validator

from entropy3d.core.event import Event
from entropy3d.systems.base import ArmedFigures, GameSystem, Imported, SystemData, SystemRules
from entropy3d.systems.readings import Sighting


class SizeRules(SystemData):
    space_in: float = Field(gt=0, description="side of one space, inches (TEN-SIZE)")
    attack_per_step: int = Field(ge=0)
    dice_per_step: int = Field(ge=0)
    damage_factor_per_step: float = Field(gt=1)


class CoverRules(SystemData):
    hard: list[str]
    soft: list[str]
    unknown_is_hard: bool
    min_hidden: float = Field(ge=0, le=1)
    complete_max_visible: float = Field(ge=0, le=1)
    partial_hard_size_steps: int = Field(ge=0)
    blind_attack_die: int = Field(ge=2)
    blind_attack_finds_on: int = Field(ge=1)


class ElevationRules(SystemData):
    min_levels: int = Field(ge=1)
    perception_advantage_dice: int = Field(ge=0)
    small_object_max_in: float = Field(gt=0, description="an obstacle an elevated viewer looks over rises at most "
                                                         "this far above the target's ground, inches (TEN-ELEV)")


class DiceRules(SystemData):
    hero_die: int = Field(ge=2, description="sides of a hero die, the skill check's pool (TEN-ATTACK)")
    impact_die: int = Field(ge=2, description="sides of an impact die, summed for damage (TEN-ATTACK)")
    critical_face: int = Field(ge=2, description="the kept hero die's face that earns an extra die")


class TurnRules(SystemData):
    second_side_advantage_dice: int = Field(ge=0, description="advantage dice of the side going second (TEN-TURN)")


class FigureProfile(SystemData):
    """A figure's numbers (scene ``stats:`` fill in over the rules data's ``figure:``)."""

    move_spaces: float = Field(gt=0, le=24, description="movement speed, spaces a walk takes it at most (TEN-MOVE)")
    attack_dice: int = Field(ge=1, le=6, description="attribute dice of the skill it attacks with")
    attack_rank: int = Field(ge=0, le=10, description="rank of the skill it attacks with")
    reaction_dice: int = Field(ge=1, le=6, description="attribute dice of its Reaction, its defence")
    reaction_rank: int = Field(ge=0, le=10, description="rank of its Reaction")
    perception_dice: int = Field(ge=1, le=6, description="attribute dice of its Perception (initiative)")
    perception_rank: int = Field(ge=0, le=10, description="rank of its Perception")
    impact_dice: int = Field(ge=1, le=6, description="impact dice (d4) of its attack skill")
    max_stress: int = Field(ge=1, le=30, description="stress it takes before a wound or unconsciousness")
    wounds: int = Field(ge=0, le=10, description="wounds it may mark to stay conscious (TEN-STRESS)")
    weapon: str = Field(description="its weapon, a name of the rules data's `weapons:`")


class MovementRules(SystemData):
    path_spacing_in: float = Field(gt=0, le=1, description="densest spacing of a walk's path points, inches")


class Weapon(SystemData):
    range_in: float = Field(gt=0, description="the longest attack, inches")
    damage: int = Field(ge=0, le=10, description="damage bonus added to the impact dice (TEN-ATTACK)")


class AttackRules(SystemData):
    min_damage: int = Field(ge=0, description="least stress a successful attack deals")
    prone_advantage_dice: int = Field(ge=0, description="advantage dice Prone gives (TEN-PRONE)")
    adjacent_in: float = Field(gt=0, description="base centres at most this far apart are next to each other")
    defend_advantage_dice: int = Field(ge=0, description="advantage dice of Full defensive (TEN-DEFEND)")


class MissionRules(SystemData):
    name: str = Field(description="the mission's name in the game state")
    unconscious_points: int = Field(ge=0, description="points for each enemy figure knocked unconscious")


class TenacityRules(SystemRules):
    """``rules/tenacity_tactics.yaml``."""

    sizes: SizeRules
    cover: CoverRules
    elevation: ElevationRules
    dice: DiceRules
    turn: TurnRules
    figure: FigureProfile
    movement: MovementRules
    weapons: dict[str, Weapon]
    attack: AttackRules
    mission: MissionRules

    @model_validator(mode="after")
    def _default_weapon_exists(self):
        if self.figure.weapon not in self.weapons:
            raise ValueError(f"figure.weapon {self.figure.weapon!r} is not in weapons: {', '.join(self.weapons)}")
        return self


class FigureStats(SystemData):
    """A figure's own numbers in a 10acity scene (``stats:``); one left out is the rules data's
    ``figure:`` value (:meth:`TenacityTactics.profile`)."""

    move_spaces: float | None = Field(None, gt=0, le=24, description="movement speed, spaces")
    attack_dice: int | None = Field(None, ge=1, le=6, description="attribute dice it attacks with")
    attack_rank: int | None = Field(None, ge=0, le=10, description="rank of its attack skill")
    reaction_dice: int | None = Field(None, ge=1, le=6, description="attribute dice of its Reaction")
    reaction_rank: int | None = Field(None, ge=0, le=10, description="rank of its Reaction")
    perception_dice: int | None = Field(None, ge=1, le=6, description="attribute dice of its Perception")
    perception_rank: int | None = Field(None, ge=0, le=10, description="rank of its Perception")
    impact_dice: int | None = Field(None, ge=1, le=6, description="impact dice (d4) of its attack skill")
    max_stress: int | None = Field(None, ge=1, le=30, description="maximum stress")
    wounds: int | None = Field(None, ge=0, le=10, description="wounds")
    weapon: str | None = Field(None, description="its weapon, a name of the rules data's `weapons:`")
    prone: bool = Field(False, description="starts prone (TEN-PRONE)")


@dataclass(frozen=True)
class Cover:
    """TEN-COVER worked out for one sighting: ``extent`` none, partial or complete; ``hard``
    whether anything in the way stops an attack; ``denied``: blockers ignored because the
    viewer looks over them from above (TEN-ELEV); ``at_viewer``: every blocker that makes it
    stands nearer the viewer than the target (the attacker's own cover hides the target from
    it: a blind attack goes out through it, not into cover around the target)."""

    extent: Literal["none", "partial", "complete"]
    hard: bool
    denied: tuple[str, ...] = ()
    at_viewer: bool = False

    def where(self, attacker: str, target: str) -> str:
        """Whose cover it is, by the names given: "in front of Scout" (the attacker's), "around
        Lookout" (the target's)."""
        return f"in front of {attacker}" if self.at_viewer else f"around {target}"


@dataclass(frozen=True)
class Attack:
    """What the rules make of attacking one target: ``allowed`` (False: no direct attack),
    ``blind_on`` (the d10 roll a blind attack through soft cover needs, else None), the size
    steps (target's effective size to hit, cover counted, less the attacker's), the attack
    modifier, the advantage dice (negative: disadvantage) and the damage factor (of the sizes
    alone)."""

    allowed: bool
    blind_on: int | None
    size_steps: int
    attack_modifier: int
    advantage_dice: int
    damage_factor: float


def past_words(sighting: Sighting, materials: bool = False) -> str:
    """" past crate_3 (near scout)": what stops the sight's rays and at which end of it each stands
    (:attr:`Sighting.blocker_near_viewer`), with its material when ``materials``; "" for a clear sight."""
    if not sighting.blockers:
        return ""
    if len(sighting.blocker_near_viewer) != len(sighting.blockers):  # a sighting that does not say
        return " past " + ", ".join(f"{blocker} ({material or 'no material'})" if materials else blocker
                                    for blocker, material in zip(sighting.blockers, sighting.blocker_surfaces))
    said = [f"{blocker} ({material or 'no material'}, " if materials else f"{blocker} ("
            for blocker, material in zip(sighting.blockers, sighting.blocker_surfaces)]
    return " past " + ", ".join(f"{words}near {sighting.viewer if sighting.near_viewer(blocker) else sighting.target})"
                                 for words, blocker in zip(said, sighting.blockers))


class TenacityTactics(ArmedFigures, GameSystem):
    """10acity Tactics' cover, sizes and elevation on the physical table."""

    name = "tenacity_tactics"
    title = "10acity Tactics"
    first_roll_words = "group initiative, best Perception"
    modifier_words = "to attack"
    out_banner = "UNCONSCIOUS"
    lying_conditions = ("prone",)  # TEN-PRONE: "lying on the ground"
    seed = "002"
    clause_prefix = "TEN-"
    clauses = ("TEN-ELEV", "TEN-COVER", "TEN-SIZE", "TEN-TURN", "TEN-MOVE", "TEN-ATTACK", "TEN-STRESS",
               "TEN-PRONE", "TEN-DEFEND")
    turn_clauses = ("TEN-TURN",)
    rules_file = "tenacity_tactics"
    rules_schema = TenacityRules
    stats_schema = FigureStats
    rules: TenacityRules
    default_profile = "figure"
    #: its words and its engine, beside it (GameSystem.sentence, GameSystem.ENGINE)
    sentence = Imported("entropy3d.systems.tenacity.sentences:sentence")
    dice_untold = Imported("entropy3d.systems.tenacity.sentences:dice_untold")
    cover_words = Imported("entropy3d.systems.tenacity.sentences:cover_words")
    ENGINE = "entropy3d.systems.tenacity.engine:engine_for"
    action_examples = ("walk: straight 3", "attack", "defend")
    #: "module:attribute" of the player factories, imported when asked for (they read the table)
    PLAYERS = {"auto": "entropy3d.systems.tenacity.player:TenacityPlayer"}

    def size_step(self, base_in: tuple[float, float]) -> int:
        """TEN-SIZE: the step of a footprint (an elliptical base ``(length, width)``, inches):
        its side is that of the square of its area, in spaces; each doubling is one step
        (1x1 is 0, 2x2 is 1, 4x4 is 2), to the nearest step."""
        side = math.sqrt(math.pi / 4 * base_in[0] * base_in[1]) / self.rules.sizes.space_in
        return int(round(math.log2(side)))

    def engine(self, stats: Mapping[str, Any], table: Any = None, gangs: Sequence[str] = ()):
        """Its engine (:func:`~entropy3d.systems.tenacity.engine.engine_for`), with the storey
        height of ``table``'s view (TEN-ELEV's levels; without a table no turn is played)."""
        built = super().engine(stats, table, gangs)
        built.storey_in = None if table is None else float(table.storey_in)
        return built

    def above(self, level: int, other_level: int) -> bool:
        """TEN-ELEV: standing on storey ``level`` is an elevated position over a figure on storey
        ``other_level``: at least ``min_levels`` storeys above it."""
        return level - other_level >= self.rules.elevation.min_levels

    def elevated(self, sighting: Sighting) -> bool:
        """TEN-ELEV: the viewer stands at least ``min_levels`` storeys above the target."""
        return self.above(sighting.viewer_level, sighting.target_level)

    def is_hard(self, material: str | None) -> bool:
        """TEN-COVER: a material that stops an attack (rules data ``hard``/``soft``)."""
        if material is None:
            return self.rules.cover.unknown_is_hard
        return material in self.rules.cover.hard

    def cover(self, sighting: Sighting) -> Cover:
        """TEN-COVER with TEN-ELEV: what is in the way, without the obstacles an elevated viewer
        looks over; none when too little is hidden, complete when too little is seen."""
        rules = self.rules.cover
        small = self.rules.elevation.small_object_max_in
        denied = tuple(blocker for blocker, top in zip(sighting.blockers, sighting.blocker_tops_in)
                       if self.elevated(sighting) and top < sighting.viewer_z_in
                       and top - sighting.target_z_in <= small)
        counted = [(blocker, material) for blocker, material in zip(sighting.blockers, sighting.blocker_surfaces)
                   if blocker not in denied]
        if not counted or 1 - sighting.visible_fraction < rules.min_hidden:
            return Cover("none", False, denied)
        extent = "complete" if sighting.visible_fraction < rules.complete_max_visible else "partial"
        names = tuple(blocker for blocker, _ in counted)
        return Cover(extent, any(self.is_hard(material) for _, material in counted), denied,
                     all(sighting.near_viewer(blocker) for blocker in names))

    def attack(self, sighting: Sighting) -> Attack:
        """TEN-COVER and TEN-SIZE: completely behind hard cover, no direct attack; completely
        behind soft cover, only a blind attack; partly behind hard cover, the target counts
        ``partial_hard_size_steps`` smaller to hit; then +1 and an advantage die per step larger,
        -1 and a disadvantage die per step smaller. The damage is halved per step the target is
        larger, doubled per step smaller, by the sizes alone: hard cover's bonus "as if you were a
        creature one step smaller" is "an additional advantage die and a +1 to skill rolls to
        defend", never the target taking double damage for its cover."""
        rules, sizes = self.rules.cover, self.rules.sizes
        cover = self.cover(sighting)
        size_steps = self.size_step(sighting.target_base_in) - self.size_step(sighting.viewer_base_in)
        steps = size_steps
        if cover.extent == "partial" and cover.hard:
            steps -= rules.partial_hard_size_steps
        allowed = not (cover.extent == "complete" and cover.hard)
        blind = rules.blind_attack_finds_on if cover.extent == "complete" and not cover.hard else None
        return Attack(allowed, blind, steps, steps * sizes.attack_per_step, steps * sizes.dice_per_step,
                      sizes.damage_factor_per_step ** -size_steps)

    def perception_dice(self, sighting: Sighting) -> int:
        """TEN-ELEV: advantage dice to the viewer's perception checks from its height."""
        return self.rules.elevation.perception_advantage_dice if self.elevated(sighting) else 0

    def initiative_perception_dice(self, level: int, enemy_levels: Sequence[int]) -> int:
        """TEN-ELEV with TEN-TURN: advantage dice to a figure's initiative Perception (the
        perception check every turn rolls) when it stands in an elevated position over an enemy
        figure in play, any of ``enemy_levels`` (storeys); 0 otherwise."""
        elevated = any(self.above(level, other) for other in enemy_levels)
        return self.rules.elevation.perception_advantage_dice if elevated else 0

    def judge_sightings(self, viewer: str, sightings: Sequence[Sighting], stats: Mapping[str, Any]) -> list[Event]:
        """One event per target ``viewer`` sees at least partly or has completely behind cover."""
        events = []
        for sighting in sightings:
            if sighting.viewer != viewer or (sighting.visible_fraction <= 0 and not sighting.blockers):
                continue
            cover, attack = self.cover(sighting), self.attack(sighting)
            if not attack.allowed:
                verdict = f"completely behind the hard cover {cover.where(viewer, sighting.target)}: no direct attack"
            elif attack.blind_on is not None:
                verdict = (f"completely hidden by the soft cover {cover.where(viewer, sighting.target)}: only a blind "
                           f"attack through it, 1d{self.rules.cover.blind_attack_die} finds it on {attack.blind_on}+")
            else:
                cover_text = {"none": "no cover", "partial": "partial hard cover: one size smaller"
                              if cover.hard else "partial soft cover: hidden, not protected"}[cover.extent]
                count = abs(attack.advantage_dice)
                kind = "advantage" if attack.advantage_dice > 0 else "disadvantage"
                dice = "no extra dice" if count == 0 else f"{count} {kind} {'die' if count == 1 else 'dice'}"
                verdict = (f"{cover_text}; size {attack.size_steps:+d} step(s): attack {attack.attack_modifier:+d}, "
                           f"{dice}, damage x{attack.damage_factor:g}")
            if cover.denied:
                verdict += f"; no cover behind {', '.join(cover.denied)}, looked over from above"
            if self.perception_dice(sighting):
                verdict += f"; {self.perception_dice(sighting)} advantage die to perception (higher)"
            clauses = ("TEN-COVER", "TEN-SIZE") + (("TEN-ELEV",) if self.elevated(sighting) else ())
            found = f"{sighting.target} {100 * sighting.visible_fraction:.0f}% visible" + past_words(sighting, True)
            events.append(Event("attack", viewer, verdict, found=found, producer="line of sight", piece=sighting.target,
                                clauses=clauses, figures={"cover": cover.extent, "hard": cover.hard,
                                                          "allowed": attack.allowed, "size_steps": attack.size_steps,
                                                          "attack_modifier": attack.attack_modifier,
                                                          "advantage_dice": attack.advantage_dice,
                                                          "damage_factor": attack.damage_factor}))
        return events
