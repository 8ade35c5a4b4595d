"""Gang battle rules (seed 003) as a game system: who a fighter shoots and what cover costs.

GANG-ARC: a fighter shoots the closest target in its front vision arc and line of sight, and a
prone fighter in cover cannot be targeted. GANG-COVER: partial cover -1 to hit, full cover -2,
decided from the share of the target the shooter's eye reaches (the LOS engine's true LOS). The
numbers and their seed passages are in ``rules/gang_battle.yaml``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Mapping, Sequence

from pydantic import Field, model_validator

from entropy3d.rules.event import Event
from entropy3d.systems.base import GameSystem, SystemData, SystemRules
from entropy3d.systems.facts import Sighting

Fraction = Annotated[float, Field(ge=0, le=1)]
Cover = Literal["none", "partial", "full"]


class VisionArc(SystemData):
    front_deg: float = Field(gt=0, le=360, description="width of the front vision arc, degrees (GANG-ARC)")


class SightRules(SystemData):
    min_visible: Fraction = Field(description="share of the target seen to be in line of sight")


class CoverRules(SystemData):
    partial_to_hit: int = Field(le=0, description="to-hit modifier in partial cover (GANG-COVER)")
    full_to_hit: int = Field(le=0, description="to-hit modifier in full cover (GANG-COVER)")
    partial_min_hidden: Fraction = Field(description="share hidden from which a target is in partial cover")
    full_max_visible: Fraction = Field(description="share visible up to which a target is in full cover")
    partial_save: int = Field(ge=0, description="armour save bonus of partial cover against templates")
    full_save: int = Field(ge=0, description="armour save bonus of full cover against templates")

    @model_validator(mode="after")
    def _full_is_more_hidden(self):
        if self.full_max_visible >= 1 - self.partial_min_hidden:
            raise ValueError(f"full_max_visible {self.full_max_visible} must be below 1 - partial_min_hidden "
                             f"({1 - self.partial_min_hidden}): full cover hides more than partial cover")
        return self


class ToHitRules(SystemData):
    die_sides: int = Field(ge=2, description="the to-hit die")


class GangRules(SystemRules):
    """``rules/gang_battle.yaml``."""

    vision_arc: VisionArc
    line_of_sight: SightRules
    cover: CoverRules
    to_hit: ToHitRules


class FighterStats(SystemData):
    """A fighter's own numbers in a gang-battle scene (``stats:``)."""

    ballistic_skill: int = Field(4, ge=2, le=6, description="BS: the to-hit roll needed unmodified (4 = 4+)")
    prone: bool = Field(False, description="Prone & Pinned: in cover, it cannot be targeted (GANG-ARC)")


class GangBattle(GameSystem):
    """Gang-skirmish battle rules: target priority and cover from the table's line of sight."""

    name = "gang_battle"
    title = "Gang battle rules"
    seed = "003"
    clause_prefix = "GANG-"
    clauses = ("GANG-ARC", "GANG-COVER")
    rules_file = "gang_battle"
    rules_schema = GangRules
    stats_schema = FighterStats
    rules: GangRules

    def in_vision_arc(self, sighting: Sighting) -> bool:
        """GANG-ARC: the target's base centre lies within the front vision arc (half its width
        either side of the facing; the edge counts as in)."""
        return sighting.bearing_deg <= self.rules.vision_arc.front_deg / 2

    def in_sight(self, sighting: Sighting) -> bool:
        """The shooter's eye reaches at least ``line_of_sight.min_visible`` of the target."""
        return sighting.visible_fraction >= self.rules.line_of_sight.min_visible

    def cover(self, visible_fraction: float) -> Cover:
        """GANG-COVER: full cover when at most ``full_max_visible`` of the target is visible,
        partial when at least ``partial_min_hidden`` is hidden, else none."""
        rules = self.rules.cover
        if visible_fraction <= rules.full_max_visible:
            return "full"
        return "partial" if 1 - visible_fraction >= rules.partial_min_hidden else "none"

    def to_hit_modifier(self, cover: Cover) -> int:
        """GANG-COVER: -1 partial, -2 full (rules data), 0 in the open."""
        return {"none": 0, "partial": self.rules.cover.partial_to_hit, "full": self.rules.cover.full_to_hit}[cover]

    def may_target(self, sighting: Sighting, target: FighterStats) -> bool:
        """GANG-ARC: in the front vision arc and in line of sight, and not a prone fighter in cover."""
        if not (self.in_vision_arc(sighting) and self.in_sight(sighting)):
            return False
        return not (target.prone and self.cover(sighting.visible_fraction) != "none")

    def priority_target(self, sightings: Sequence[Sighting], stats: Mapping[str, FighterStats]) -> Sighting | None:
        """GANG-ARC: the closest target the fighter may shoot; a tie goes to the one listed first;
        None when none may be shot."""
        allowed = [s for s in sightings if self.may_target(s, stats[s.target])]
        return min(allowed, key=lambda s: s.distance_in, default=None)

    def roll_needed(self, ballistic_skill: int, modifier: int) -> tuple[int, bool]:
        """The to-hit roll needed with a modifier, and whether the shot is improbable ("modified
        past 6+": needs a 6, then a second roll at the unmodified BS)."""
        needed = ballistic_skill - modifier
        return min(needed, self.rules.to_hit.die_sides), needed > self.rules.to_hit.die_sides

    def judge_sightings(self, viewer: str, sightings: Sequence[Sighting],
                        stats: Mapping[str, Any]) -> list[Event]:
        """One event: whom ``viewer`` must shoot (GANG-ARC) and what the cover costs (GANG-COVER)."""
        mine = [s for s in sightings if s.viewer == viewer]
        target = self.priority_target(mine, stats)
        if target is None:
            found = ", ".join(f"{s.target} {100 * s.visible_fraction:.0f}% visible at {s.bearing_deg:.0f}°"
                              for s in mine) or "no other fighter"
            return [Event("attack", viewer, "no target: none in the front vision arc and line of sight",
                          found=found, producer="line of sight", clauses=("GANG-ARC",))]
        cover = self.cover(target.visible_fraction)
        modifier = self.to_hit_modifier(cover)
        needed, improbable = self.roll_needed(stats[viewer].ballistic_skill, modifier)
        cover_text = "no cover" if cover == "none" else f"{cover} cover {modifier:+d} to hit"
        rules = (f"shoots {target.target}, the closest in the front arc; {cover_text}: hits on {needed}+"
                 + (" (improbable shot: a 6, then a roll at the unmodified BS)" if improbable else ""))
        found = (f"{target.target} {100 * target.visible_fraction:.0f}% visible, {target.distance_in:.1f}\" away "
                 f"at {target.bearing_deg:.0f}° off the facing")
        return [Event("attack", viewer, rules, found=found, producer="line of sight", piece=target.target,
                      clauses=("GANG-ARC", "GANG-COVER"),
                      figures={"target": target.target, "cover": cover, "to_hit_modifier": modifier,
                               "roll_needed": needed, "improbable": improbable,
                               "visible_fraction": target.visible_fraction, "distance_in": target.distance_in})]
