"""Reference cards of a card-driven RPG (seed 004) as a game system: the physical cards.

REF-COLL: collision force = Body x Speed x Multiple (the material's impact-time multiple),
damage to both bodies. REF-COLL-HEAD: two bodies striking each other use the lighter body's
change of speed and the softer material +1 (at an angle, the softer material alone). REF-FALL: a
fall is a collision at the speed its height gives. REF-ELEV: a level climbed costs Move 1, one
descended gives 1; range +1 per level between two units; the higher unit gets Level +1 in
combat. The speeds, heights and levels come from the table (:mod:`entropy3d.systems.readings`);
every number of the cards is in ``rules/reference_cards.yaml``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Annotated, Any, Mapping, Optional, Sequence

from pydantic import Field, model_validator

from entropy3d.core.event import Event
from entropy3d.systems.base import GameSystem, RulingEffect, SystemData, SystemRules
from entropy3d.systems.readings import MINIATURE_SURFACE, Impact, LevelChange, Sighting
from entropy3d.units import KPH_PER_M_S

#: a card number as written: one digit, "x", the power of ten
CARD_NUMBER = re.compile(r"^([0-9])x([0-9]{1,2})$")
#: relative slack before cutting to one digit, so 29.999999 kph (8.3333 m/s) reads as 3x1
CUT_SLACK = 1e-9


@dataclass(frozen=True)
class CardNumber:
    """A number as the cards write it: ``digit`` x 10^``power`` ("8x1" is 80)."""

    digit: int
    power: int

    def __str__(self) -> str:
        return f"{self.digit}x{self.power}"

    @property
    def value(self) -> float:
        return self.digit * 10.0 ** self.power

    @classmethod
    def parse(cls, text: str) -> "CardNumber":
        """'8x1' -> CardNumber(8, 1); ValueError naming the form otherwise."""
        match = CARD_NUMBER.match(text)
        if not match:
            raise ValueError(f"{text!r} is not a card number: write one digit, x, the power of ten (8x1 is 80)")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def of(cls, value: float) -> "CardNumber":
        """``value`` (>= 0) cut to one digit the way the cards do (72x2 -> 7x3, 150 -> 1x2)."""
        if value <= 0:
            return cls(0, 0)
        power = math.floor(math.log10(value * (1 + CUT_SLACK)))
        return cls(min(9, math.floor(value / 10.0 ** power * (1 + CUT_SLACK))), power)

    @classmethod
    def product(cls, *factors: "CardNumber | float") -> "CardNumber":
        """The product of card numbers and plain multiples, cut to one digit once, at the end
        ("8x1 * 3x1 * 3 = 24x2 * 3 = 72x2 = 7x3")."""
        return cls.of(math.prod(f.value if isinstance(f, CardNumber) else float(f) for f in factors))


def damaged(damage: CardNumber, body: CardNumber) -> int:
    """How many Damaged ``damage`` deals ``body``: one for each full tenfold the damage is over
    the body (DECISION in rules/reference_cards.yaml ``counting``: 2x4 on a 3x2 body is 66 times
    it, Damaged 1; 1x5 is 333 times, 2; 3x5 is 1000 times, 3; a blow of the body's own rating, none)."""
    if damage.value <= body.value or body.value <= 0:
        return 0
    return math.floor(math.log10(damage.value / body.value * (1 + CUT_SLACK)))


class CollisionRules(SystemData):
    head_on_multiple_bonus: int = Field(ge=0, description="added to the softer multiple head-on (REF-COLL-HEAD)")
    angle_multiple_bonus: int = Field(ge=0, description="added to the softer multiple at an angle")
    head_on_max_deg: float = Field(ge=0, le=90, description="degrees off straight on still head-on")


class FallRow(SystemData):
    height_m: float = Field(gt=0)
    speed_kph: float = Field(gt=0)


class FallingRules(SystemData):
    speeds: list[FallRow] = Field(min_length=1, description="REF-FALL: speed by height, heights rising")
    row_slack: float = Field(ge=0, lt=1, description="share under a row's height that still reaches the row")

    @model_validator(mode="after")
    def _rising(self):
        heights = [row.height_m for row in self.speeds]
        if heights != sorted(set(heights)):
            raise ValueError(f"speeds must be listed by rising height_m, each once (got {heights})")
        return self


class ElevationRules(SystemData):
    ascend_move: int = Field(description="Move change per level climbed (REF-ELEV)")
    descend_move: int = Field(description="Move change per level descended (REF-ELEV)")
    range_per_level: int = Field(description="range bonus per level of difference (REF-ELEV)")
    higher_combat_level: int = Field(description="combat Level bonus of the higher unit (REF-ELEV)")


class CountingRules(SystemData):
    """How the cards' rulings count in the game played beside them (``counting:``)."""

    wounds_per_damaged: int = Field(ge=0, description="wounds of the played game per Damaged (DECISION)")
    move_kph: float = Field(ge=0, description="kph one card Move adds to the next ride ('Map: Car Chase')")


class ReferenceRules(SystemRules):
    """``rules/reference_cards.yaml``. ``counting``: None when the cards only advise."""

    multiples: dict[str, Annotated[int, Field(gt=0)]]
    materials: dict[str, str]
    unknown_surface: str
    collision: CollisionRules
    falling: FallingRules
    elevation: ElevationRules
    counting: Optional[CountingRules] = None

    @model_validator(mode="after")
    def _materials_have_multiples(self):
        named = {**self.materials, "unknown_surface": self.unknown_surface}
        missing = {k: v for k, v in named.items() if v not in self.multiples}
        if missing:
            raise ValueError(f"materials without a multiple: {missing}; use one of {', '.join(self.multiples)}")
        return self


class BodyStats(SystemData):
    """A unit's own numbers in a reference-cards scene (``stats:``)."""

    body: str = Field("3x2", pattern=CARD_NUMBER.pattern,
                      description="Body from mass as a card number (card 'Body': 300kg = 3x2). DECISION: a "
                                  "bike and its rider default to 3x2, the card's own 300 kg example")

    @property
    def body_number(self) -> CardNumber:
        return CardNumber.parse(self.body)


@dataclass(frozen=True)
class HeadOn:
    """REF-COLL-HEAD worked out: the lighter body, its change of speed (kph), the multiple used
    and the force."""

    lighter: int
    speed_change: CardNumber
    multiple: int
    force: CardNumber


class ReferenceCards(GameSystem):
    """The reference cards' collision, falling and elevation rules on the physical table."""

    name = "reference_cards"
    title = "Reference cards"
    seed = "004"
    clause_prefix = "REF-"
    clauses = ("REF-COLL", "REF-FALL", "REF-ELEV")  # not REF-COLL-HEAD: rules/clauses.md says why
    rules_file = "reference_cards"
    rules_schema = ReferenceRules
    stats_schema = BodyStats
    rules: ReferenceRules

    @staticmethod
    def sentence(event: Event, names) -> str:
        """A ruling of the cards on a ride of another rulebook's game (:mod:`entropy3d.game.judging`):
        whose rules speak, then their words with the model by name."""
        if event.kind != "ruling":
            from entropy3d.systems.entropy_city.sentences import sentence

            return sentence(event, names)
        who = names.rider(event.model)
        if event.figures.get("applied"):  # what the rulings did in the game played beside the cards
            return event.rules.replace(event.model, who, 1)
        return f"{event.figures.get('system', 'other rules')}: {event.rules.replace(event.model, who)}"

    @classmethod
    def ruling_headline(cls, applied: Event, rulings: Sequence[Event], names) -> str:
        """What the cards did to ``applied.model`` in the card's own terms, for the film's large
        print: each fall (REF-FALL) and collision (REF-COLL) as its height or what was hit, the
        speed row and the force, and the Damaged it gave, then the Move the levels gave (REF-ELEV):
        "Jet (Roofers) falls 5.5 m: 3x1 -> 2x4, Damaged 1; Move +2". Issue 46: the film said only
        "Jet loses 1 wound to the rulings (Damaged 1, Move +2)", never that it fell."""
        model = applied.model
        said = []
        for ruling in rulings:
            figures = ruling.figures
            hurt = figures.get("damaged", {}).get(model, 0)
            if ruling.model != model and not hurt:
                continue
            damage = f", Damaged {hurt}" if hurt else ""
            if figures.get("judged") == "landing" and "force" in figures:
                said.append(f"falls {figures['drop_m']:.1f} m: {figures['speed']} -> {figures['force']}{damage}")
            elif figures.get("judged") == "crash" and "force" in figures:
                other = ruling.piece if ruling.model == model else ruling.model
                hit = "hits" if ruling.model == model else "is hit by"
                speed = f"{figures['speed']} -> " if "speed" in figures else ""
                said.append(f"{hit} {names.thing(other)}: {speed}{figures['force']}{damage}")
            elif figures.get("move") and ruling.model == model:
                said.append(f"Move {int(figures['move']):+d}")
        if not said:
            return cls.sentence(applied, names)
        out = ": out of the game" if applied.figures.get("taken_out") else ""
        return f"{names.rider_of_gang(model)} {'; '.join(said)}{out}"

    def multiple(self, surface: str | None) -> tuple[str, int]:
        """The card material of a table surface (a terrain name, ``miniature``, or a card
        material itself) and its multiple; a surface the rules data does not name is
        ``unknown_surface``."""
        rules = self.rules
        material = rules.materials.get(surface, surface if surface in rules.multiples else rules.unknown_surface)
        return material, rules.multiples[material]

    @staticmethod
    def speed(speed_m_s: float) -> CardNumber:
        """A speed in metres per second as the cards' kph number (17 m/s = 61 kph = 6x1)."""
        return CardNumber.of(speed_m_s * KPH_PER_M_S)

    @staticmethod
    def collision_force(body: CardNumber, speed: CardNumber, multiple: int) -> CardNumber:
        """REF-COLL: "Force - Body*Speed*Multiple"."""
        return CardNumber.product(body, speed, multiple)

    def head_on(self, bodies: tuple[CardNumber, CardNumber], speeds: tuple[CardNumber, CardNumber],
                multiples: tuple[int, int], angled: bool = False) -> HeadOn:
        """REF-COLL-HEAD: the lighter body L (the first on a tie), its speed after the impact
        (the heavier's speed less its own when the bodies' scales, their powers of ten, are
        equal; the heavier's speed otherwise), its change of speed (before plus after), and
        Force = BodyL x SpeedLChg x (softer multiple + 1); at an angle the softer multiple alone."""
        lighter = 0 if bodies[0].value <= bodies[1].value else 1
        heavier = 1 - lighter
        speed_l, speed_h = speeds[lighter].value, speeds[heavier].value
        after = speed_h - speed_l if bodies[0].power == bodies[1].power else speed_h
        change = CardNumber.of(speed_l + after)
        collision = self.rules.collision
        multiple = min(multiples) + (collision.angle_multiple_bonus if angled else collision.head_on_multiple_bonus)
        return HeadOn(lighter, change, multiple, CardNumber.product(bodies[lighter], change, multiple))

    def fall_speed(self, height_m: float) -> CardNumber | None:
        """REF-FALL: the speed (kph card number) of the highest row of the card ``height_m``
        reaches (within the rules data's ``row_slack`` under it: a storey of the table, 2.98 m, is
        the card's 3 m row); None under the first row (a step, not a fall)."""
        reach = 1.0 - self.rules.falling.row_slack
        rows = [row for row in self.rules.falling.speeds if row.height_m * reach <= height_m * (1 + CUT_SLACK)]
        return CardNumber.of(rows[-1].speed_kph) if rows else None

    def move_change(self, change: LevelChange) -> int:
        """REF-ELEV: Move -1 per level climbed, +1 per level descended (rules data)."""
        levels = change.to_level - change.from_level
        elevation = self.rules.elevation
        return levels * (elevation.ascend_move if levels > 0 else -elevation.descend_move)

    def range_bonus(self, sighting: Sighting) -> int:
        """REF-ELEV: "Range:+1 for each Elevation difference"."""
        return abs(sighting.viewer_level - sighting.target_level) * self.rules.elevation.range_per_level

    def combat_levels(self, sighting: Sighting) -> tuple[int, int]:
        """REF-ELEV: "Combat - Level:+1 to higher Elevation Unit": (viewer's, target's) bonus."""
        bonus = self.rules.elevation.higher_combat_level
        if sighting.viewer_level == sighting.target_level:
            return 0, 0
        return (bonus, 0) if sighting.viewer_level > sighting.target_level else (0, bonus)

    def judge_impacts(self, impacts: Sequence[Impact], stats: Mapping[str, Any]) -> list[Event]:
        return [event for impact in impacts for event in self._impact_events(impact, stats)]

    def _impact_events(self, impact: Impact, stats: Mapping[str, BodyStats]) -> list[Event]:
        body = stats[impact.model].body_number
        kph = impact.speed_m_s * KPH_PER_M_S
        if impact.what == "fall":
            speed = self.fall_speed(impact.drop_m)
            material, multiple = self.multiple(impact.surface)
            found = f"came down {impact.drop_m:.1f} m onto {impact.surface or 'the table'} at {kph:.1f} kph"
            if speed is None:
                return [Event("landing", impact.model, f"a drop under {self.rules.falling.speeds[0].height_m:g} m "
                              "is a step, not a fall", found=found, clauses=("REF-FALL",), t_s=impact.t_s,
                              figures={"drop_m": impact.drop_m, "kph": kph})]
            force = self.collision_force(body, speed, multiple)
            hurt = {impact.model: damaged(force, body)}
            return [Event("landing", impact.model,
                          f"a fall is a collision at {speed} kph: force {body} x {speed} x {multiple} ({material}) "
                          f"= {force}: damage {force} [Bash]{_damaged_words(hurt)}", found=found,
                          clauses=("REF-FALL", "REF-COLL"),
                          t_s=impact.t_s, figures={"force": str(force), "speed": str(speed), "body": str(body),
                                                   "multiple": multiple, "drop_m": impact.drop_m, "kph": kph,
                                                   "damaged": hurt})]
        speed = self.speed(impact.speed_m_s)
        found = f"hit {impact.piece} ({impact.surface or 'no terrain'}) at {kph:.1f} kph, {impact.angle_deg:.0f}° off"
        if impact.piece in stats and impact.other_speed_m_s > 0:
            # "Collision: Headon": "when 2 moving things strike each other"; a model standing still
            # is hit as the card "Collision" says, by the mover's body and speed
            other = stats[impact.piece].body_number
            _, mine = self.multiple(MINIATURE_SURFACE)
            _, theirs = self.multiple(impact.surface)
            angled = impact.angle_deg > self.rules.collision.head_on_max_deg
            worked = self.head_on((body, other), (speed, self.speed(impact.other_speed_m_s)), (mine, theirs), angled)
            lighter = (impact.model, impact.piece)[worked.lighter]
            how = "at an angle: the softer multiple" if angled else "head-on: the softer multiple +1"
            hurt = {impact.model: damaged(worked.force, body), impact.piece: damaged(worked.force, other)}
            return [Event("crash", impact.model,
                          f"{how}; the lighter {lighter} changes speed by {worked.speed_change} kph: force "
                          f"{(body, other)[worked.lighter]} x {worked.speed_change} x {worked.multiple} = "
                          f"{worked.force}: "
                          f"damage {worked.force} [Bash] to both{_damaged_words(hurt)}", found=found,
                          piece=impact.piece, clauses=("REF-COLL-HEAD",), t_s=impact.t_s,
                          figures={"force": str(worked.force), "lighter": lighter, "angled": angled, "kph": kph,
                                   "damaged": hurt})]
        material, multiple = self.multiple(impact.surface)
        force = self.collision_force(body, speed, multiple)
        # "Apply Damage to BOTH objects": a model hit takes it against its own body; the table's
        # scenery has no body in the cards' game (Entropy City breaks its destructibles itself)
        hurt = {impact.model: damaged(force, body)}
        if impact.piece in stats:
            hurt[impact.piece] = damaged(force, stats[impact.piece].body_number)
        return [Event("crash", impact.model,
                      f"collision force {body} x {speed} x {multiple} ({material}) = {force}: damage {force} [Bash] "
                      f"to {impact.model} and {impact.piece}{_damaged_words(hurt)}", found=found, piece=impact.piece,
                      clauses=("REF-COLL",),
                      t_s=impact.t_s, figures={"force": str(force), "speed": str(speed), "body": str(body),
                                               "multiple": multiple, "material": material, "kph": kph,
                                               "damaged": hurt})]

    def judge_level_changes(self, changes: Sequence[LevelChange], stats: Mapping[str, Any]) -> list[Event]:
        events = []
        for change in changes:
            if change.to_level == change.from_level:
                continue
            moved = self.move_change(change)
            way = "climbed" if change.to_level > change.from_level else "came down"
            events.append(Event("move", change.model, f"{way} {abs(change.to_level - change.from_level)} level(s): "
                                f"Move {moved:+d}", found=f"rode from level {change.from_level} to {change.to_level}",
                                clauses=("REF-ELEV",), figures={"move": moved}))
        return events

    def ruling_effects(self, rulings: Sequence[Event]) -> list[RulingEffect]:
        """The rulings counted in the game played beside the cards (rules data ``counting``; none
        when it is left out: the cards advise): each model's Damaged, at ``wounds_per_damaged``
        wounds each, and its Move from the levels it rode, at ``move_kph`` each, summed over the
        rulings, in the order the models were first named."""
        counting = self.rules.counting
        if counting is None:
            return []
        wounds: dict[str, int] = {}
        moves: dict[str, int] = {}
        why: dict[str, list[str]] = {}
        clauses: dict[str, list[str]] = {}
        for ruling in rulings:
            touched = {**{model: ("Damaged", n) for model, n in ruling.figures.get("damaged", {}).items() if n},
                       **({ruling.model: ("Move", int(ruling.figures["move"]))} if ruling.figures.get("move") else {})}
            for model, (what, n) in touched.items():
                if what == "Damaged":
                    wounds[model] = wounds.get(model, 0) + n * counting.wounds_per_damaged
                    why.setdefault(model, []).append(f"Damaged {n}")
                else:
                    moves[model] = moves.get(model, 0) + n
                    why.setdefault(model, []).append(f"Move {n:+d}")
                clauses.setdefault(model, [])
                clauses[model] += [c for c in ruling.clauses if c not in clauses[model]]
        return [RulingEffect(model, wounds.get(model, 0), moves.get(model, 0) * counting.move_kph,
                             ", ".join(why[model]), tuple(clauses[model])) for model in why]

    def judge_sightings(self, viewer: str, sightings: Sequence[Sighting], stats: Mapping[str, Any]) -> list[Event]:
        events = []
        for sighting in sightings:
            if (sighting.viewer != viewer or sighting.visible_fraction <= 0
                    or sighting.viewer_level == sighting.target_level):
                continue
            mine, theirs = self.combat_levels(sighting)
            higher = viewer if mine else sighting.target
            events.append(Event("attack", viewer, f"range +{self.range_bonus(sighting)}; combat Level "
                                f"+{max(mine, theirs)} to {higher}, the higher",
                                found=f"{sighting.target} on level {sighting.target_level}, {viewer} on level "
                                      f"{sighting.viewer_level}", producer="line of sight", piece=sighting.target,
                                clauses=("REF-ELEV",),
                                figures={"range_bonus": self.range_bonus(sighting), "higher": higher}))
        return events


def _damaged_words(hurt: Mapping[str, int]) -> str:
    """'; parked Damaged 2, brick Damaged 2' for the bodies the damage harms (none: nothing)."""
    harmed = [f"{model} Damaged {n}" for model, n in hurt.items() if n]
    return f"; {', '.join(harmed)}" if harmed else ""
