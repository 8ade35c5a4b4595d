"""Plain words for a person: who did what, in one sentence, then the dice detail.

The one place where an :class:`~entropy3d.rules.event.Event` becomes a sentence a newcomer can
read ("Ash hits the corner flats head-on: needs 20, rolls 17 - crashes"). Sentences are built
from the event's kind, model, piece, rolls and figures, never by parsing its text; ids become
names through a :class:`Names` (riders by name, scenery by a name read off its id). The video's
HUD and the command line use it; JSON output keeps the ids. Pure Python: no engine imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from entropy3d.rules.dice import Outcome, TestRoll
from entropy3d.rules.event import Event
from entropy3d.rules.traps import trap_words

COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "north-east", "nw": "north-west",
           "se": "south-east", "sw": "south-west"}
#: words of scenery ids that read better spelt out
SPELT = {"lamp": "street lamp", "flats": "flats", "wreck": "wreck"}


def piece_name(piece_id: str) -> str:
    """A readable name for a scenery id: "lamp_ne" -> "the north-east street lamp",
    "corner_flats" -> "the corner flats", "warehouse_b" -> "warehouse B", "bin_2" and "bin2" -> "bin 2"."""
    words = [w for w in re.split(r"[-_]|(?<=[a-z])(?=[0-9]+$)", piece_id) if w]
    if not words:
        return piece_id
    where = [COMPASS[w] for w in words if w in COMPASS]
    rest = [w for w in words if w not in COMPASS]
    if rest and rest[-1].isdigit():
        return " ".join(rest)
    if len(rest) > 1 and len(rest[-1]) == 1:  # a lettered piece: warehouse_b
        return " ".join(rest[:-1] + [rest[-1].upper()])
    if rest and rest[-1] in SPELT and len(rest) == 1:
        rest[-1] = SPELT[rest[-1]]
    return "the " + " ".join(where + rest)


def _whole_ids(ids: Iterable[str]) -> str:
    """A pattern matching any of ``ids`` as a whole word (not inside a longer id: "bin" not in
    "bin_2"), the longest first."""
    return r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?![\w-])"


@dataclass(frozen=True)
class Names:
    """Ids to names: ``riders`` maps a model id to its rider's name, ``gangs`` a gang id to its
    name, ``gang_of`` a model id to its gang id, ``pieces`` the ids of the scene's scenery (each
    read by :func:`piece_name`). Anything else is scenery too (:func:`piece_name`)."""

    riders: Mapping[str, str] = field(default_factory=dict)
    gangs: Mapping[str, str] = field(default_factory=dict)
    gang_of: Mapping[str, str] = field(default_factory=dict)
    pieces: tuple[str, ...] = ()

    @classmethod
    def of_table(cls, table) -> "Names":
        """The names of a loaded scene's riders and gangs (a rider without a name keeps its id)
        and the ids of its scenery."""
        spec = table.spec
        pieces = tuple(piece.id for group in (spec.blocks, spec.buildings, spec.platforms, spec.ramps,
                                              spec.destructibles, spec.meshes) for piece in group)
        return cls({m.id: (m.rider.name or m.id) for m in table.models},
                   {g: gang.name for g, gang in spec.gangs.items()},
                   {m.id: m.gang for m in table.models}, pieces)

    def rider(self, model_id: str) -> str:
        return self.riders.get(model_id, model_id)

    def gang(self, gang_id: str) -> str:
        return self.gangs.get(gang_id, gang_id)

    def rider_and_id(self, model_id: str) -> str:
        """"Ash (hades_3)": the rider by name with the id a command takes; the id alone when the
        rider has no name."""
        name = self.rider(model_id)
        return model_id if name == model_id else f"{name} ({model_id})"

    def rider_of_gang(self, model_id: str) -> str:
        """"Ash (Hades MC)"."""
        gang = self.gang_of.get(model_id)
        return f"{self.rider(model_id)} ({self.gang(gang)})" if gang else self.rider(model_id)

    def named(self, text: str) -> str:
        """``text`` with every whole gang or model id in it given its name: a game's end reason
        ("escher bottled out" -> "Eschers bottled out"), which is the only text the end record has."""
        ids = {**{m: self.rider(m) for m in self.riders}, **{g: self.gang(g) for g in self.gangs}}
        if not ids:
            return text
        return re.sub(_whole_ids(ids), lambda m: ids[m.group(1)], text)

    def named_all(self, text: str) -> str:
        """``text`` with every whole model or gang id given its name (:meth:`named`) and every
        scenery id of the scene its readable name ("past roof_barrier" -> "past the roof
        barrier", "left 'rail_bridge'" -> "left the rail bridge"): a game system's own words and a
        producer's findings, which name what they speak of by id."""
        text = self.named(text)
        if not self.pieces:
            return text
        text = re.sub("'" + _whole_ids(self.pieces) + "'", lambda m: piece_name(m.group(1)), text)
        return re.sub(_whole_ids(self.pieces), lambda m: piece_name(m.group(1)), text)

    def thing(self, piece_id: str | None) -> str:
        """A rider's name, or a scenery piece's readable name."""
        if piece_id is None:
            return "something"
        return self.riders[piece_id] if piece_id in self.riders else piece_name(piece_id)


#: figures of an attack event that make it a key moment
HARM = ("taken_out", "hit", "wounds_lost")
VERDICTS = {Outcome.CRIT: "a natural 21", Outcome.SUCCESS: "passes", Outcome.FAIL: "fails", Outcome.BUST: "BUST"}


def dice(roll: TestRoll) -> str:
    """"needs 20, rolls 21" (the total includes stress)."""
    over = " (over 21)" if roll.outcome is Outcome.BUST and roll.total > 21 else ""
    return f"needs {roll.effective_tn}, rolls {roll.total}{over}"


def _stress(change: int) -> str:
    return f", {change:+d} stress" if change else ""


def sentence(event: Event, names: Names) -> str:
    """The event in plain words, rider first."""
    who = names.rider(event.model)
    kind, figures, rolls = event.kind, event.figures, event.rolls
    if event.clauses and all(c.startswith("SW-") for c in event.clauses):
        return f"{who}: {names.named_all(event.rules)}"  # the chase rules word their events for people
    if kind == "move" and figures.get("walked"):
        walked = figures.get("length_in", 0)
        return f"{who} walks {walked:g}\" on foot" if walked >= 0.05 else f"{who} turns on the spot, on foot"
    if kind == "move":
        return f"{who} rides {figures.get('length_in', 0):g}\" at speed {figures.get('speed', 0)}" + _stress(
            event.stress_change)
    if any(clause.startswith("TEN-") for clause in event.clauses):
        return _tenacity_sentence(event, names)
    if kind == "test" and rolls:
        roll = rolls[0]
        return f"{who} leans into the turn: {dice(roll)} - {VERDICTS[roll.outcome]}" + _stress(event.stress_change)
    if kind == "crash":
        how = "head-on" if figures.get("kind") == "head_on" else "side-on"
        text = f"{who} hits {names.thing(event.piece)} {how}"
        if rolls:
            text += f": {dice(rolls[0])}"
        if figures.get("survived"):
            after = ("stops dead, skips next activation" if figures.get("kind") == "head_on"
                     else "speed 1 for the rest of the activation")
            return text + f" - survives{_stress(event.stress_change)}, {after}"
        return text + " - crashes"
    if kind == "bust":
        remount = rolls[-1] if rolls else None  # none when the lost wound was the last (EC-DICE-4)
        if bust_out(event):
            failed = f": fails to remount ({dice(remount)})" if remount and not remount.succeeded else ""
            return f"{who} busts and is out of the game{failed}"
        left = figures.get("wounds_after")
        wounds = f" ({left} left)" if left is not None else ""
        mounted = f", remounts ({dice(remount)})" if remount else ""
        return f"{who} busts: -1 wound{wounds}{mounted}, skips next action"
    if kind == "destructible":
        if not rolls:
            return f"{who} is too slow to smash through {names.thing(event.piece)}: it stops the bike"
        roll = rolls[0]
        then = ("knocks it aside" if roll.succeeded else "is thrown off line")
        return (f"{who} smashes into {names.thing(event.piece)}: {dice(roll)} - {then}"
                + _stress(event.stress_change))
    if kind == "jump":
        if "carry_in" in figures:
            carry = float(figures["carry_in"])
            # under half an inch, whole inches would say "lands 0\" into the next action"
            return (f"{who} is still in the air: lands {carry:.0f}\" into the next action" if carry >= 0.5
                    else f"{who} is still in the air: lands as the next action starts")
        if event.piece is not None:
            return f"{who} flies over {names.thing(event.piece)}"
        if figures.get("air_time"):
            return f"{who} jumps: lands {figures['landing_in'] - figures['launch_in']:.0f}\" from take-off"
        return f"{who} bumps off the ramp: too slow for air time"
    if kind == "landing":  # a jump carried over from the last action (EC-JUMP-4)
        landing = figures.get("landing_in", 0.0)
        return f"{who} lands from its jump " + (f"{landing:.0f}\" into this action" if landing >= 0.5
                                                 else "as this action starts")
    if kind == "rest":
        if "inside_in" in figures:
            return f"{who} is put back clear of {names.thing(event.piece)}"
        return f"{who} comes to rest on the ground"
    if kind == "cliff_edge":
        return f"{who} rides over the cliff: out of the game"
    if kind == "left_table":
        return f"{who} rides off the table and escapes"
    if kind == "attack":
        other = names.rider(event.piece) if event.piece else "a rival"
        if "weapon" in figures and rolls:
            verdict = "hits" if figures.get("hit") else "misses"
            saved = f" ({other} {figures['defence']})" if figures.get("defence") and not figures.get("hit") else ""
            return f"{who} attacks {other} with the {figures['weapon']}: {dice(rolls[0])} - {verdict}{saved}"
        if "wounds_lost" in figures:
            lost = int(figures["wounds_lost"])
            # GANG-INJURY: an unsaved hit on a fighter with no wound left rolls an injury die instead
            unsaved = sum(1 for hit in figures.get("rolls", ()) if isinstance(hit, Mapping) and hit.get("unsaved"))
            harm = "a headshot" if figures.get("headshot") else (
                f"-{lost} wound{'s' if lost != 1 else ''}" if lost else
                f"no wound left to lose: {unsaved} unsaved hit{'s' if unsaved != 1 else ''}, "
                f"{'an injury die' if unsaved == 1 else 'injury dice'}" if unsaved else "no harm")
            gone = "OUT OF ACTION" if any(c.startswith("GANG-") for c in event.clauses) else "out of the game"
            out = f", {gone}" if figures.get("taken_out") else ""
            return f"{who} is hit by {other}: {harm}{out}{_stress(event.stress_change)}"
        if "EC-MEL-2" in event.clauses and not rolls:
            return f"{who} is surprised from behind by {other}{_stress(event.stress_change)}"
        if len(rolls) == 2:
            target = names.rider(event.piece) if event.piece else "a rival"
            return (f"{who} plays chicken with {target}: {who} rolls {rolls[0].total}, "
                    f"{target} rolls {rolls[1].total}")
        if "winner" in figures:
            role = "wins" if figures["winner"] == event.model else "flinches"
            return f"{who} {role}{_stress(event.stress_change)}"
        if figures.get("overwatch"):
            at = float(figures.get("at_in", 0.0))
            when = f'{at:.0f}" into its move' if at >= 0.5 else "as it sets off"
            return f"{who}, on overwatch, opens fire: {other} comes into range and sight {when}"
        if "EC-MEL-CHICKEN" in event.clauses:
            return "nobody flinches"
        return _about(event, who)
    if kind == "skip":
        return _skip_sentence(event, who)
    if kind in ("shot", "score") or (kind == "condition" and ("bottled" in figures or "fled" in figures)):
        return _gang_sentence(event, names)
    if kind == "condition":
        return _about(event, who)
    if kind == "ruling":  # another rulebook's word on the same ride (entropy3d.game.judging)
        return f"{figures.get('system', 'other rules')}: {event.rules.replace(event.model, who)}"
    if kind == "wreck":
        if figures.get("no_wreck") == "on_foot":
            return f"{who} is out of the game: on foot, no bike to leave as a wreck"
        if "wreck" not in figures:
            return f"{who} is gone over the edge: no wreck on the table"
        moved = float(figures.get("moved_in", 0.0))
        where = "where it fell" if moved < 0.05 else f"{moved:.0f}\" away, where the rivals want it"
        return f"{who} is taken out: the wreck stays on the table {where}"
    if kind == "trap" and "trap" in figures:
        return _trap_sentence(event, names)
    return _about(event, who)


def bust_out(event: Event) -> bool:
    """Whether a bust event took its rider out of the game, as the rules' record says (EC-DICE-4:
    a failed remount, or no wound left to lose)."""
    remount = event.rolls[-1] if event.rolls else None
    if "out_of_game" in event.figures:
        return bool(event.figures["out_of_game"])
    return not (remount and remount.succeeded)


def _trap_sentence(event: Event, names: Names) -> str:
    """A trap laid, ridden over or gone off (EC-ACT-LAYTRAP, EC-TRAP), riders by name and no
    table coordinates: the rules' text says where in inches, for players placing the token."""
    who, figures = names.rider(event.model), event.figures
    if "EC-ACT-LAYTRAP" in event.clauses:
        fuse = figures.get("fuse")
        fused = f", fused for {fuse} activation{'s' if fuse != 1 else ''}" if fuse else ""
        return f"{who} lays {trap_words(figures['trap'])} behind it{fused}"
    name = figures["trap"].replace("_", " ")
    if figures.get("went_off"):
        return f"{who}'s {name} goes off"
    text = f"{who} rides over {names.rider(figures.get('laid_by', ''))}'s {name}"
    if event.rolls:
        text += f": {dice(event.rolls[0])} - {VERDICTS[event.rolls[0].outcome]}"
    lost = int(figures.get("wounds_lost", 0))
    harm = [f"{event.stress_change:+d} stress"] * bool(event.stress_change) + [f"-{lost} wound"] * bool(lost)
    harmed = not event.rolls or not event.rolls[0].succeeded
    return text + (f", {', '.join(harm)}" if harm else "" if harmed else ", unharmed")


def _skip_sentence(event: Event, who: str) -> str:
    """A stop and what it costs, by why the rider stops (its clauses): a stop to recover
    (EC-ACT-STOP), a trap laid (EC-ACT-LAYTRAP), overwatch or a reload (EC-GUN-STOPPED), the
    activation a stopped rider then skips (EC-STOPPED) and what it recovers there
    (EC-STOP-RECOVER), a remount after a bust (EC-DICE-4)."""
    clauses = set(event.clauses)
    if "EC-JUMP-2" in clauses:
        return f"{who} is still in the air: no {'trap' if 'EC-ACT-LAYTRAP' in clauses else 'stop'}"
    if "EC-ACT-STOP" in clauses:
        return f"{who} stops to recover: skips the next action and activation"
    if "EC-ACT-LAYTRAP" in clauses:
        return f"{who} stops to lay the trap: skips the next activation"
    if "EC-GUN-STOPPED" in clauses:
        if "ammo" in event.figures:
            return f"{who} stops to reload ({event.figures['ammo']} shots): skips the next activation"
        if "EC-STOPPED" in clauses:
            return f"{who} goes on overwatch: shoots the first enemy in range, skips the next activation"
        return f"{who} stays on overwatch for one more activation"
    if "EC-STOP-RECOVER" in clauses:
        return f"{who} sits still and recovers{_stress(event.stress_change)}"
    if "EC-STOPPED" in clauses:
        return f"{who} is stopped: skips this activation"
    if "EC-DICE-4" in clauses:
        return f"{who} is remounting after a bust: skips this action"
    return f"{who} skips"


def _about(event: Event, who: str) -> str:
    """An event's own rules text as a sentence about ``who``: "Brakes is bleeding", "Skab is hit:
    drops Prone & Pinned", "Pip lays a molotov at ..." where the text names the model or goes on
    from it; "Skab: Cool check 4+3 needing 8+: ..." where it is a noun phrase."""
    said = event.rules.replace(event.model, who) if event.model else event.rules
    first = said.split(" ", 1)[0]
    if said.startswith(who):
        return said
    if first.islower() and first.endswith("s") and not first.endswith(":"):
        return f"{who} {said}"
    return f"{who}: {said}"


def _gang_sentence(event: Event, names: Names) -> str:
    """A gang battle's shot, score, bottle check or Cool check (GANG-*), gangs and fighters by name."""
    who, figures = names.rider(event.model), event.figures
    if event.kind == "shot":
        cover = figures.get("cover", "none")
        where = "in the open" if cover == "none" else f"in {cover} cover"
        dice = list(figures.get("dice", ()))
        # GANG-SHOOT's improbable shot: a 6, then a second roll at the fighter's BS (never a sum)
        rolled = f"{dice[0] if dice else ''} needing {figures.get('roll_needed')}+" + (
            f" (improbable: a 6, then {dice[1]} at its BS)" if len(dice) == 2 else "")
        hits = int(figures.get("hits", 0))
        verdict = f"{hits} hit{'s' if hits != 1 else ''}" if figures.get("hit") else "missed"
        if figures.get("hit") and "firepower" in figures:  # the die that says how many hits (GANG-AMMO)
            verdict += f" (Firepower {figures['firepower']})"
        return (f"{who} shoots {names.rider(figures.get('target', ''))} with the {figures.get('weapon', 'gun')} "
                f"({where}, {int(figures.get('to_hit_modifier', 0)):+d} to hit): rolled {rolled}: {verdict}")
    if event.kind == "score":
        return f"{names.gang(figures.get('gang', ''))} score {figures.get('points', 0)} for {who} Out of Action"
    if "bottled" in figures:
        out = bool(figures["bottled"])
        return (f"{names.gang(figures['gang'])} bottle check: {figures['die']} + {figures['down']} down "
                f"{'>' if out else '<='} {figures['crew']} in the crew: " + ("BOTTLE OUT" if out else "hold"))
    rolled = "+".join(map(str, figures.get("dice", ())))
    return (f"{who}: Cool check {rolled} needing {figures.get('needed')}+ - "
            + ("fails and flees: OUT OF ACTION" if figures["fled"] else "holds its nerve"))


def _tenacity_sentence(event: Event, names: Names) -> str:
    """A 10acity skirmish's attack, stress, wound, unconsciousness or score (TEN-*), figures by name;
    its prone and full defensive are the rules' own words after the figure's name."""
    who, figures = names.rider(event.model), event.figures
    target = names.rider(figures.get("target", event.piece or ""))
    if event.kind == "shot":
        cover = figures.get("cover", "none")
        where = "in the open" if cover == "none" else f"in {cover} cover"
        if "attack" not in figures:
            return f"{who} attacks {target} blindly with the {figures.get('weapon')}: no target found"
        verdict = "hits" if figures.get("hit") else "misses"
        return (f"{who} attacks {target} with the {figures.get('weapon')} ({where}, "
                f"{int(figures.get('to_hit_modifier', 0)):+d} to attack): {figures['attack']} (dice "
                f"{','.join(map(str, figures.get('attack_dice', ())))}) v {figures.get('defence')} (dice "
                f"{','.join(map(str, figures.get('defence_dice', ())))}) - {verdict}")
    if event.kind == "attack" and "found" in figures:
        return (f"{who} attacks blindly into the soft cover around {target}: {max(figures.get('dice') or [0])} "
                f"needing {figures.get('needed')}+ - " + ("finds it" if figures["found"] else "does not find it"))
    if event.kind == "attack" and "damage" in figures:
        return f"{who} takes {figures['damage']} stress" + (": UNCONSCIOUS" if figures.get("taken_out") else "")
    if event.kind == "condition" and "wounds_left" in figures:
        if figures.get("out_of_action"):
            return f"{who} falls UNCONSCIOUS: out of the skirmish"
        return f"{who} marks a wound to stay conscious ({figures['wounds_left']} left)"
    if event.kind == "score":
        return f"{names.gang(figures.get('gang', ''))} score {figures.get('points', 0)} for {who} unconscious"
    return f"{who} {event.rules}"


def detail(event: Event) -> str:
    """The dice detail under the sentence: clauses and each roll ("EC-COL-HEAD: TN 20, 2+2+5+8
    + stress 0 = 17, failed"), a gang fighter's wound and save rolls ("wound 5 needing 4+, save 2
    needing 5+: unsaved", GANG-WOUND); "" when nothing was rolled and no clause applied."""
    parts = [", ".join(event.clauses)] if event.clauses else []
    for roll in event.rolls:
        tn = f"TN {roll.tn}" + (f" (TN {roll.effective_tn} at max stress)" if roll.tn != roll.effective_tn else "")
        tn = tn + ": " if roll.tn else ""  # an opposed roll with no TN of its own only has to beat the other
        parts.append(f"{tn}{'+'.join(map(str, roll.dice))} + stress {roll.stress} = {roll.total}, "
                     f"{VERDICTS[roll.outcome]}")
    for hit in event.figures.get("rolls", ()):
        if isinstance(hit, Mapping) and "wound" in hit:
            parts.append(_wound_words(hit))
    return "; ".join(parts)


def _wound_words(hit: Mapping) -> str:
    """One hit's wound roll and armour save (GANG-WOUND): "wound 2 needing 4+: no wound", "wound
    5 needing 4+, save 6 needing 5+: saved", "wound 6 needing 2+, no save: unsaved"."""
    words = f"wound {hit['wound']} needing {hit['wound_needed']}+"
    if hit["wound"] < hit["wound_needed"]:
        return f"{words}: no wound"
    if hit.get("save") is None:
        return f"{words}, no save: unsaved"
    return f"{words}, save {hit['save']} needing {hit['save_needed']}+: {'unsaved' if hit['unsaved'] else 'saved'}"


def status_words(status: str, out_banner: str = "OUT OF ACTION") -> str:
    """A model's status for people: "in play", "off the table" (it rode or drove off an open
    edge: a getaway, not a loss), or the game system's own word for one that is out
    (``out_banner``: "wrecked" in a chase, "unconscious" in 10acity, "out of action")."""
    return {"riding": "in play", "escaped": "off the table", "out": out_banner.lower()}.get(
        status, status.replace("_", " "))


def heading_words(facing_deg: float) -> str:
    """A heading in whole degrees, 0-359 ("0°", never "360°" for a heading a hair under 360)."""
    return f"{round(facing_deg) % 360}°"


def conditions_words(conditions: Iterable[str], words: Mapping[str, str]) -> str:
    """A model's conditions for people: each in ``words`` (condition id -> the rulebook's words,
    a game engine's ``condition_words``; else the id with spaces), repeats counted ("Out of Ammo,
    2 x flesh wound"); "no conditions" when it has none."""
    counts: dict[str, int] = {}
    for condition in conditions:
        counts[condition] = counts.get(condition, 0) + 1
    return ", ".join((f"{n} x " if n > 1 else "") + words.get(c, c.replace("_", " "))
                     for c, n in counts.items()) or "no conditions"


def is_key_moment(event: Event) -> bool:
    """A crash, a bust, a jump with air time, a hit or a takedown (a wreck left), a ride off the
    table: worth a held shot."""
    return (event.kind in ("crash", "bust", "cliff_edge", "left_table", "wreck")
            or (event.kind == "jump" and bool(event.figures.get("air_time")))
            or (event.kind == "attack" and any(bool(event.figures.get(k)) for k in HARM)))


def is_routine(event: Event) -> bool:
    """A passed template test that cost nothing: its dice go in the small print only."""
    return (event.kind == "test" and bool(event.rolls) and event.rolls[0].succeeded and not event.stress_change)


def lines(events: Iterable[Event], names: Names) -> list[tuple[str, str]]:
    """(sentence, detail) per event; a routine event has no sentence (""), only its detail."""
    return [("" if is_routine(e) else sentence(e, names), detail(e)) for e in events]


def reading_chars(events: Iterable[Event], names: Names) -> int:
    """How many characters a person must read to follow ``events`` (the sentences; the small
    print is there for those who want it)."""
    return sum(len(s) for s, _ in lines(events, names))


def headline(event: Event, names: Names, verb: str = "shoots") -> str:
    """A shot in the fewest words a stranger needs ("Lyra shoots Skab: 2 hits", "...: missed"):
    who, at whom and what came of it, for a video's large print; the weapon, the cover and the
    dice stay in the small print and on the sight line's label. ``verb``: "attacks" for a blow."""
    figures = event.figures
    target = names.rider(str(figures.get("target") or event.piece or ""))
    if "hit" not in figures:  # no roll to report (no target found): the whole sentence
        return sentence(event, names)
    hits = figures.get("hits")
    result = "missed" if not figures["hit"] else f"{hits} hit{'s' if hits != 1 else ''}" if hits else "hit"
    return f"{names.rider(event.model)} {verb} {target}: {result}"


def found_text(event: Event, names: Names) -> str:
    """What the producer found, with the piece it names by id given its readable name, and the
    other riders and scenery it names ("past roof_barrier" in a sight line) by name too."""
    found = event.found
    if event.piece:
        found = found.replace(f"'{event.piece}'", names.thing(event.piece))
    return names.named_all(found)


def dice_untold(event: Event) -> bool:
    """A 10acity attack or its stress (TEN-ATTACK): its sentence keeps the totals and the faces
    rolled, but only the rules' own words say which face was kept, the skill rank, a natural
    10's extra hero die and the impact dice ("attack 9 (of 8,10,9) +1 -1 = 9 v defence 10 (of
    6,10,10) +1 +10 (critical) = 21")."""
    return "TEN-ATTACK" in event.clauses and event.kind in ("shot", "attack") and bool(event.rules)


def plain_lines(event: Event, names: Names) -> list[str]:
    """An event for a terminal: the sentence, then what the table showed and the dice, indented
    (where the sentence leaves dice untold, the rules' own words with every die)."""
    head = sentence(event, names)
    small = "; ".join(part for part in ((f"{event.producer or 'table'}: {found_text(event, names)}"
                                         if event.found else ""), detail(event)) if part)
    lines = [head] + ([f"  {small}"] if small else [])
    return lines + ([f"  rules: {names.named_all(event.rules)}"] if dice_untold(event) else [])
