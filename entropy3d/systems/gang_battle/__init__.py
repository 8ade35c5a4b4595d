"""Gang battle rules (seed 003) as a game system: who a fighter shoots, what cover costs, and the
game itself.

GANG-ARC: a fighter shoots the closest target in its front vision arc and line of sight, and a
prone fighter in cover cannot be targeted. GANG-COVER: partial cover -1 to hit, full cover -2,
decided from the share of the target the shooter's eye reaches (the LOS engine's true LOS). The
rest of the game (priority, actions, moves, the shooting process from the to-hit roll to the
injury dice, recovery and bottle checks, Nerve tests, Broken fighters running for cover and
their Rally tests, charges, close combat, Coup de Grace and Retreat: GANG-TURN ... GANG-RETREAT) is
:class:`~entropy3d.systems.gang_battle.engine.GangEngine`, built by :meth:`GangBattle.engine`. The
numbers and their seed passages are in ``rules/gang_battle.yaml``.
"""

from __future__ import annotations

from typing import Annotated, Any, Collection, Literal, Mapping, Sequence

from pydantic import Field, model_validator

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.systems.base import ArmedFigures, GameSystem, Imported, SystemData, SystemRules
from entropy3d.systems.readings import Sighting
from entropy3d.systems.skirmish import roll_die

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


Roll = Annotated[int, Field(ge=1, le=7)]
InjuryResult = Literal["flesh_wound", "serious_injury", "out_of_action"]


class MissionRules(SystemData):
    name: str = Field(description="the mission's name in the game state")
    out_of_action_points: int = Field(ge=0, description="points for each enemy fighter taken Out of Action")


class PriorityRules(SystemData):
    die_sides: int = Field(ge=2, description="the priority die (GANG-TURN)")
    actions_per_activation: int = Field(ge=1, description="actions a fighter has in its activation (GANG-TURN)")


class FighterProfile(SystemData):
    """A fighter's characteristics (scene ``stats:`` fill in over the rules data's ``fighter:``)."""

    move_in: float = Field(gt=0, le=24, description="MVMT: inches a Move takes it at most (GANG-MOVE)")
    ballistic_skill: int = Field(ge=2, le=6, description="BS: the to-hit roll needed unmodified (4 = 4+)")
    toughness: int = Field(ge=1, le=10, description="TOUGH, against the weapon's STR (GANG-WOUND)")
    wounds: int = Field(ge=1, le=10, description="wounds before the injury dice (GANG-INJURY)")
    save: Roll = Field(description="armour save needed on a D6; 7 = none (GANG-WOUND)")
    weapon: str = Field(description="its gun, a name of the rules data's `weapons:`")
    cool: int = Field(ge=2, le=13, description="Cool: the roll of the Cool check's dice needed (GANG-BOTTLE)")
    weapon_skill: int = Field(ge=2, le=6, description="WS: the close-combat hit roll needed unmodified (GANG-CC)")
    strength: int = Field(ge=1, le=10, description="STR: of its Unarmed attacks and melee weapon (GANG-CC)")
    attacks: int = Field(ge=1, le=6, description="A: its close-combat attack dice (GANG-CC)")
    initiative: int = Field(ge=2, le=6, description="INIT: an INIT test needs this on a D6 (GANG-RETREAT)")
    melee_weapon: str = Field(description="its melee weapon, a name of the rules data's `melee_weapons:`")


class MovementRules(SystemData):
    crawl_fraction: Fraction = Field(description="share of MVMT a Crawl (Double) takes it (GANG-MOVE)")
    path_spacing_in: float = Field(gt=0, le=1, description="densest spacing of a move's path points, inches")


class Weapon(SystemData):
    range_in: float = Field(gt=0, description="the longest shot, inches")
    accuracy: int = Field(ge=-3, le=3, description="to-hit modifier (GANG-SHOOT)")
    strength: int = Field(ge=1, le=10, description="STR against TOUGH (GANG-WOUND)")
    armour_piercing: int = Field(ge=-6, le=0, description="added to the target's save needed, as a penalty")
    damage: int = Field(ge=1, le=6, description="wounds an unsaved hit takes (GANG-INJURY)")
    rapid_fire: bool = Field(description="the Firepower die gives the number of hits (GANG-AMMO)")
    ammo: Roll = Field(description="the Ammo check needed on a D6 (GANG-AMMO)")
    sidearm: bool = Field(False, description="the Sidearm trait: used in close combat, once (GANG-CC)")


class MeleeWeapon(SystemData):
    """GANG-CC: a weapon of close combat (``unarmed`` the fighter's own fists)."""

    strength_bonus: int = Field(ge=0, le=5, description="added to the fighter's STR")
    armour_piercing: int = Field(ge=-6, le=0, description="added to the target's save needed, as a penalty")
    damage: int = Field(ge=1, le=6, description="wounds an unsaved hit takes")
    accuracy: int = Field(ge=-3, le=3, description="hit-roll modifier")


class ShootingRules(SystemData):
    natural_miss: int = Field(ge=0, le=1, description="a to-hit die showing this or less misses (0: none)")
    firepower_hits: list[Annotated[int, Field(ge=0, le=6)]] = Field(
        min_length=6, max_length=6, description="hits by Firepower die face 1..6")
    ammo_check_on: int = Field(ge=1, le=6, description="the Firepower face that calls an Ammo check")


class WoundingRules(SystemData):
    """GANG-WOUND: the wound roll needed by the weapon's STR against the target's TOUGH."""

    double_or_more: Roll
    greater: Roll
    equal: Roll
    lower: Roll
    half_or_less: Roll


class InjuryRules(SystemData):
    dice: list[InjuryResult] = Field(
        min_length=6, max_length=6, description="the injury die's result by face 1..6 (GANG-INJURY)")
    out_at_toughness: int = Field(ge=0, description="flesh wounds taking TOUGH to this put it Out of Action")


class RecoveryRules(SystemData):
    enabled: bool = Field(description="Seriously Injured fighters roll to recover in the End Phase")


class BottleRules(SystemData):
    die_sides: int = Field(ge=2, description="the bottle check's die (GANG-BOTTLE)")
    bottled_gang: Literal["cool_checks", "withdraw"] = Field(
        description="a bottled gang's fighters make Cool checks each turn, or the gang withdraws and the fight ends")
    cool_dice: int = Field(ge=1, le=3, description="D6 rolled and added for a Cool check")


class NerveRules(SystemData):
    """GANG-NERVE: who takes a Nerve test, and its bonus (inches between base centres)."""

    friend_within_in: float = Field(gt=0, description="a friend going down within this many inches calls the test")
    bonus_within_in: float = Field(ge=0, description="Standing unbroken friends within this many inches add the bonus")
    bonus_per_friend: int = Field(ge=0, description="added to the Cool check for each such friend")


class BrokenRules(SystemData):
    """GANG-BROKEN, GANG-RUN: a Broken fighter's Run for Cover and how the engine picks its way."""

    run_dice: int = Field(ge=1, le=4, description="D6 rolled and added for the run's length, inches")
    run_directions: int = Field(ge=4, le=64, description="directions evenly round a run may set off in")
    run_shares: list[Annotated[float, Field(gt=0, le=1)]] = Field(
        min_length=1, description="shares of the rolled length a run may take")


class RallyRules(SystemData):
    """GANG-RALLY: the End Phase's Rally test of a Broken fighter."""

    bonus_within_in: float = Field(ge=0, description="Standing unbroken friends within this many inches add the bonus")
    bonus_per_friend: int = Field(ge=0, description="added to the Cool check for each such friend")


class CloseCombatRules(SystemData):
    """GANG-CHARGE, GANG-CC, GANG-COUP, GANG-RETREAT: the numbers of close combat."""

    charge_die_sides: int = Field(ge=1, le=6, description="the die added to MVMT for a charge's reach (a D3)")
    charge_attacks: int = Field(ge=0, le=3, description="attack dice added for charging")
    dual_wield_attacks: int = Field(ge=0, le=3, description="attack dice added for a melee weapon and a sidearm")
    facing_to_hit: int = Field(ge=-3, le=0, description="hit-roll modifier for turning to face the target")
    friend_engaged_to_hit: int = Field(ge=0, le=3, description="per friend also Engaged with the target")
    foe_engaged_to_hit: int = Field(ge=-3, le=0, description="per other enemy Engaged with the attacker")
    shoot_engaged_to_hit: int = Field(ge=-3, le=0, description="to-hit modifier of a shot at an Engaged fighter")
    retreat_dice: int = Field(ge=1, le=3, description="D6 rolled and added for a Retreat's walk, inches")


class GangRules(SystemRules):
    """``rules/gang_battle.yaml``."""

    vision_arc: VisionArc
    line_of_sight: SightRules
    cover: CoverRules
    to_hit: ToHitRules
    mission: MissionRules
    priority: PriorityRules
    fighter: FighterProfile
    movement: MovementRules
    weapons: dict[str, Weapon]
    shooting: ShootingRules
    wounding: WoundingRules
    injury: InjuryRules
    recovery: RecoveryRules
    bottle: BottleRules
    nerve: NerveRules
    broken: BrokenRules
    rally: RallyRules
    melee_weapons: dict[str, MeleeWeapon]
    close_combat: CloseCombatRules

    @model_validator(mode="after")
    def _default_weapon_exists(self):
        if self.fighter.weapon not in self.weapons:
            raise ValueError(f"fighter.weapon {self.fighter.weapon!r} is not in weapons: "
                             f"{', '.join(self.weapons)}")
        if self.fighter.melee_weapon not in self.melee_weapons:
            raise ValueError(f"fighter.melee_weapon {self.fighter.melee_weapon!r} is not in melee_weapons: "
                             f"{', '.join(self.melee_weapons)}")
        return self


class FighterStats(SystemData):
    """A fighter's own numbers in a gang-battle scene (``stats:``); one left out is the rules
    data's ``fighter:`` value (:meth:`GangBattle.profile`)."""

    move_in: float | None = Field(None, gt=0, le=24, description="MVMT, inches")
    ballistic_skill: int | None = Field(None, ge=2, le=6, description="BS: the to-hit roll needed (4 = 4+)")
    toughness: int | None = Field(None, ge=1, le=10, description="TOUGH")
    wounds: int | None = Field(None, ge=1, le=10, description="wounds")
    save: int | None = Field(None, ge=1, le=7, description="armour save needed on a D6; 7 = none")
    weapon: str | None = Field(None, description="its gun, a name of the rules data's `weapons:`")
    cool: int | None = Field(None, ge=2, le=13, description="Cool: the Cool check's roll needed (7 = 7+)")
    weapon_skill: int | None = Field(None, ge=2, le=6, description="WS: the close-combat hit roll needed (4 = 4+)")
    strength: int | None = Field(None, ge=1, le=10, description="STR")
    attacks: int | None = Field(None, ge=1, le=6, description="A: close-combat attack dice")
    initiative: int | None = Field(None, ge=2, le=6, description="INIT: an INIT test's roll needed (4 = 4+)")
    melee_weapon: str | None = Field(None, description="its melee weapon, a name of the rules data's `melee_weapons:`")
    prone: bool = Field(False, description="starts Prone & Pinned: in cover, it cannot be targeted (GANG-ARC)")


class GangBattle(ArmedFigures, GameSystem):
    """Gang-skirmish battle rules: target priority and cover from the table's line of sight."""

    name = "gang_battle"
    title = "Gang battle rules"
    first_roll_words = "priority roll"
    #: "they drop Prone and Pinned" (GANG-PIN), "Prone & Seriously Injured" (GANG-INJURY): lying down
    lying_conditions = ("prone", "seriously_injured")
    seed = "003"
    clause_prefix = "GANG-"
    clauses = ("GANG-ARC", "GANG-COVER", "GANG-TURN", "GANG-MOVE", "GANG-SHOOT", "GANG-PIN", "GANG-AMMO",
               "GANG-WOUND", "GANG-INJURY", "GANG-RECOVERY", "GANG-BOTTLE", "GANG-NERVE", "GANG-BROKEN",
               "GANG-RUN", "GANG-RALLY", "GANG-CHARGE", "GANG-CC", "GANG-COUP", "GANG-RETREAT")
    turn_clauses = ("GANG-TURN",)
    rules_file = "gang_battle"
    rules_schema = GangRules
    stats_schema = FighterStats
    rules: GangRules
    default_profile = "fighter"
    #: its words and its engine, beside it (GameSystem.sentence, GameSystem.ENGINE)
    sentence = Imported("entropy3d.systems.gang_battle.sentences:sentence")
    roll_details = Imported("entropy3d.systems.gang_battle.sentences:roll_details")
    ENGINE = "entropy3d.systems.gang_battle.engine:engine_for"
    action_examples = ("walk: straight 3", "shoot", "charge TARGET")
    #: "module:attribute" of the player factories, imported when asked for (they read the table)
    PLAYERS = {"auto": "entropy3d.systems.gang_battle.player:GangPlayer"}

    def profile(self, stats):
        """A fighter's numbers (:meth:`ArmedFigures.profile`); ValueError naming an unknown melee weapon."""
        profile = super().profile(stats)
        if profile.melee_weapon not in self.rules.melee_weapons:
            raise ValueError(f"melee weapon {profile.melee_weapon!r} is not in rules/{self.rules_file}.yaml "
                             f"melee_weapons: {', '.join(self.rules.melee_weapons)}")
        return profile

    def stats_rules_problems(self, stats: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """An unknown ``weapon:`` or ``melee_weapon:``."""
        return super().stats_rules_problems(stats) + [
            (model, "melee_weapon", f"unknown melee weapon {given.melee_weapon!r}; use one of "
                                    f"{', '.join(self.rules.melee_weapons)} "
                                    f"(rules/{self.rules_file}.yaml melee_weapons)")
            for model, given in stats.items() if given.melee_weapon not in (None, *self.rules.melee_weapons)]

    def in_vision_arc(self, sighting: Sighting) -> bool:
        """GANG-ARC: the target's base centre lies within the front vision arc (half its width
        either side of the facing; the edge counts as in)."""
        return self.in_front_arc(sighting.bearing_deg)

    def in_front_arc(self, bearing_deg: float) -> bool:
        """GANG-ARC: ``bearing_deg`` off the facing (0-180) is within the front vision arc."""
        return bearing_deg <= self.rules.vision_arc.front_deg / 2

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

    def may_target(self, sighting: Sighting, prone: bool) -> bool:
        """GANG-ARC: in the front vision arc and in line of sight, and not a prone fighter in cover."""
        if not (self.in_vision_arc(sighting) and self.in_sight(sighting)):
            return False
        return not (prone and self.cover(sighting.visible_fraction) != "none")

    def priority_target(self, sightings: Sequence[Sighting], prone: Collection[str] = ()) -> Sighting | None:
        """GANG-ARC: the closest target the fighter may shoot (``prone``: ids of the fighters lying
        Prone); a tie goes to the one listed first; None when none may be shot."""
        allowed = [s for s in sightings if self.may_target(s, s.target in prone)]
        return min(allowed, key=lambda s: s.distance_in, default=None)

    def roll_needed(self, ballistic_skill: int, modifier: int) -> tuple[int, bool]:
        """The to-hit roll needed with a modifier, and whether the shot is improbable ("modified
        past 6+": needs a 6, then a second roll at the unmodified BS)."""
        needed = max(ballistic_skill - modifier, self.rules.shooting.natural_miss + 1)
        return min(needed, self.rules.to_hit.die_sides), needed > self.rules.to_hit.die_sides

    def to_hit_rolls(self, rng, needed: int, improbable: bool, skill: int, skill_name: str = "BS"
                     ) -> tuple[DiceRoll, ...]:
        """GANG-SHOOT (a shot, at BS) and GANG-CC (a blow, at WS): the to-hit die needing ``needed``
        (:meth:`roll_needed`); an improbable one that shows its 6 rolls a second die at the
        unmodified ``skill`` ("on a '6' roll you can roll again with unmodified fighter BS"), never
        summed. The last roll says whether it hit. ``rng``: the game's dice."""
        first = DiceRoll.against("to hit", (roll_die(rng, self.rules.to_hit.die_sides),), needed)
        if not (improbable and first.succeeded):
            return (first,)
        return first, DiceRoll.against(f"to hit at {skill_name}", (roll_die(rng, self.rules.to_hit.die_sides),), skill)

    def to_hit(self, fighter: FighterProfile, visible_fraction: float,
               engaged: bool = False) -> tuple[int, bool, Cover, int]:
        """GANG-SHOOT with GANG-COVER: (roll needed, improbable, cover, modifier) of ``fighter``'s
        shot at a target with that share visible: the cover's modifier plus its weapon's accuracy,
        and ``close_combat.shoot_engaged_to_hit`` at a target ``engaged`` (GANG-CC)."""
        cover = self.cover(visible_fraction)
        modifier = self.to_hit_modifier(cover) + self.rules.weapons[fighter.weapon].accuracy \
            + (self.rules.close_combat.shoot_engaged_to_hit if engaged else 0)
        needed, improbable = self.roll_needed(fighter.ballistic_skill, modifier)
        return needed, improbable, cover, modifier

    def judge_sightings(self, viewer: str, sightings: Sequence[Sighting],
                        stats: Mapping[str, Any]) -> list[Event]:
        """One event: whom ``viewer`` must shoot (GANG-ARC) and what the cover costs (GANG-COVER);
        a fighter lying Prone & Pinned takes no aimed shot (GANG-PIN: it "can only perform Stand
        Up, Crawl, Blind Fire, or Reload"; Blind Fire is not played here)."""
        mine = [s for s in sightings if s.viewer == viewer]
        if stats[viewer].prone:
            return [Event("attack", viewer, "Prone & Pinned: no aimed shot; it may stand up, crawl or reload "
                          "(Blind Fire is not played here)", producer="line of sight", clauses=("GANG-PIN",))]
        target = self.priority_target(mine, {model for model, given in stats.items() if given.prone})
        if target is None:
            found = ", ".join(f"{s.target} {100 * s.visible_fraction:.0f}% visible at {s.bearing_deg:.0f}°"
                              for s in mine) or "no other fighter"
            return [Event("attack", viewer, "no target: none in the front vision arc and line of sight",
                          found=found, producer="line of sight", clauses=("GANG-ARC",))]
        fighter = self.profile(stats[viewer])
        needed, improbable, cover, modifier = self.to_hit(fighter, target.visible_fraction)
        cover_text = "no cover" if cover == "none" else f"{cover} cover {self.to_hit_modifier(cover):+d} to hit"
        accuracy = self.rules.weapons[fighter.weapon].accuracy
        cover_text += f", {fighter.weapon} {accuracy:+d}" if accuracy else ""
        rules = (f"shoots {target.target}, the closest in the front arc; {cover_text}: hits on {needed}+"
                 + (" (improbable shot: a 6, then a roll at the unmodified BS)" if improbable else ""))
        found = (f"{target.target} {100 * target.visible_fraction:.0f}% visible, {target.distance_in:.1f}\" away "
                 f"at {target.bearing_deg:.0f}° off the facing")
        return [Event("attack", viewer, rules, found=found, producer="line of sight", piece=target.target,
                      clauses=("GANG-ARC", "GANG-COVER"),
                      figures={"target": target.target, "cover": cover, "to_hit_modifier": modifier,
                               "roll_needed": needed, "improbable": improbable,
                               "visible_fraction": target.visible_fraction, "distance_in": target.distance_in})]


def wound_and_save_rolls(rolls: Sequence[Mapping]) -> tuple[DiceRoll, ...]:
    """GANG-WOUND: each hit's wound roll and, when one was rolled, its armour save, as the rolls of
    the event that tells them (``rolls``: the engine's records, ``GangEngine.wound_rolls``)."""
    return tuple(roll for hit in rolls for roll in (
        DiceRoll.against("wound", (hit["wound"],), hit["wound_needed"], words=("wounds", "no wound")),
        *(() if hit["save"] is None else (
            DiceRoll.against("save", (hit["save"],), hit["save_needed"], words=("saved", "unsaved")),))))
