"""Entropy City's words for its events, and the naming every rulebook's words share.

Where an :class:`~entropy3d.core.event.Event` of Entropy City (EC-*) becomes a sentence a newcomer
can read ("Ash hits the corner flats head-on: needs 20, rolls 17 - crashes"). Sentences are built
from the event's kind, model, piece, rolls and figures, never by parsing its text; ids become
names through a :class:`Names` (riders by name, scenery by a name read off its id). Each other
rulebook keeps its own sentences beside its engine and falls back on these for the kinds it
shares (a walk, a wound); :mod:`entropy3d.systems.words` picks the rulebook of an event. Pure
Python: no engine imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.dice import Outcome, TestRoll
from entropy3d.systems.entropy_city.traps import trap_words

COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "north-east", "nw": "north-west",
           "se": "south-east", "sw": "south-west"}
#: compass words spelt out in an id ("rubble_wall_east"), read before the piece like the short ones
COMPASS.update({word: word for word in ("north", "south", "east", "west")})
#: words of scenery ids that read better spelt out
SPELT = {"lamp": "street lamp", "flats": "flats", "wreck": "wreck"}


def piece_name(piece_id: str) -> str:
    """A readable name for a scenery id: "lamp_ne" -> "the north-east street lamp",
    "rubble_wall_east" -> "the east rubble wall", "corner_flats" -> "the corner flats",
    "warehouse_b" -> "warehouse B", "bin_2" and "bin2" -> "bin 2"."""
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


def possessive(name: str) -> str:
    """"Hades MC's", "Eschers'": a name owning something."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def npc_name(npc_id: str, owner: str | None, owner_name: str | None) -> str:
    """A mission NPC's name as a person says it (EC-MISSION-RESCUE, EC-MISSION-JAIL): an id that
    starts with its owner gang's id says whose it is ("hades_contact" of Hades MC -> "Hades MC's
    contact", not "the hades contact"); any other id reads as scenery does ("prisoner" -> "the
    prisoner")."""
    if owner and owner_name and npc_id.startswith(owner + "_") and len(npc_id) > len(owner) + 1:
        return f"{possessive(owner_name)} {piece_name(npc_id[len(owner) + 1:])[len('the '):]}".rstrip()
    return piece_name(npc_id)


def _whole_ids(ids: Iterable[str]) -> str:
    """A pattern matching any of ``ids`` as a whole word (not inside a longer id: "bin" not in
    "bin_2"), the longest first."""
    return r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?![\w-])"


@dataclass(frozen=True)
class Names:
    """Ids to names: ``riders`` maps a model id to its rider's name, ``gangs`` a gang id to its
    name, ``gang_of`` a model id to its gang id, ``pieces`` the ids of the scene's scenery (each
    read by :func:`piece_name`), ``npcs`` a mission NPC's id to its name (:func:`npc_name`).
    Anything else is scenery too (:func:`piece_name`)."""

    riders: Mapping[str, str] = field(default_factory=dict)
    gangs: Mapping[str, str] = field(default_factory=dict)
    gang_of: Mapping[str, str] = field(default_factory=dict)
    pieces: tuple[str, ...] = ()
    npcs: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of_table(cls, table) -> "Names":
        """The names of a loaded scene's riders and gangs (a rider without a name keeps its id),
        the ids of its scenery and the names of its mission's NPCs (Rescue & Survive's contacts,
        Jailbreak's prisoner)."""
        spec = table.spec
        pieces = tuple(piece.id for group in (spec.blocks, spec.buildings, spec.platforms, spec.ramps,
                                              spec.destructibles, spec.meshes) for piece in group)
        gangs = {g: gang.name for g, gang in spec.gangs.items()}
        owners = {npc.id: npc.gang for npc in (spec.rescue_survive.npcs if spec.rescue_survive else ())}
        if spec.jailbreak is not None:
            owners.setdefault(spec.jailbreak.npc, None)
        return cls({m.id: (m.rider.name or m.id) for m in table.models}, gangs,
                   {m.id: m.gang for m in table.models}, pieces,
                   {npc: npc_name(npc, owner, gangs.get(owner)) for npc, owner in owners.items()})

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
        ids = {**{m: self.rider(m) for m in self.riders}, **{g: self.gang(g) for g in self.gangs}, **self.npcs}
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
        # quoted or bare, in one pass: a piece's name may hold its id ("depot" -> "the depot")
        pieces = _whole_ids(self.pieces)
        return re.sub(f"'{pieces}'|{pieces}", lambda m: piece_name(m.group(1) or m.group(2)), text)

    def thing(self, piece_id: str | None) -> str:
        """A rider's name, a wreck's as its rider's ("Tombstone's wreck", EC-WOUND; the wreck's id
        is ``wreck_<model id>``), or a scenery piece's readable name."""
        if piece_id is None:
            return "something"
        if piece_id in self.riders:
            return self.riders[piece_id]
        if piece_id in self.npcs:
            return self.npcs[piece_id]
        if piece_id.startswith("wreck_") and piece_id[len("wreck_"):] in self.riders:
            return f"{self.riders[piece_id[len('wreck_'):]]}'s wreck"
        return piece_name(piece_id)


#: figures of an attack event that make it a key moment
HARM = ("taken_out", "hit", "wounds_lost")
VERDICTS = {Outcome.CRIT: "a natural 21", Outcome.SUCCESS: "passes", Outcome.FAIL: "fails", Outcome.BUST: "BUST"}



def dice(roll: TestRoll) -> str:
    """"needs 20, rolls 21" (the total includes stress)."""
    over = " (over 21)" if roll.outcome is Outcome.BUST and roll.total > 21 else ""
    return f"needs {roll.effective_tn}, rolls {roll.total}{over}"


def stress_words(change: int) -> str:
    return f", {change:+d} stress" if change else ""


def escape_points_words(event: Event, names: Names) -> str:
    """What a ride off an open edge (a ``left_table`` event) scored, when the mission pays for it
    (Lovers Point Brawl: "two points for every friendly model that escapes"): ": +2 VP to Komodo";
    "" when it scored nothing."""
    points = int(event.figures.get("points", 0))
    if not points:
        return ""
    return f": +{points} VP to " + " and ".join(names.gang(g) for g in event.figures.get("gangs", ()))


def sentence(event: Event, names: Names, out_words: str = "out of the game") -> str:
    """The event in plain words, rider first. ``out_words``: what a model taken out is (another
    rulebook falling back on these sentences says it its own way: "OUT OF ACTION")."""
    who = names.rider(event.model)
    kind, figures, rolls = event.kind, event.figures, event.rolls
    if kind == "move" and figures.get("walked"):
        walked = figures.get("length_in", 0)
        return f"{who} walks {walked:g}\" on foot" if walked >= 0.05 else f"{who} turns on the spot, on foot"
    if kind == "move":
        return f"{who} rides {figures.get('length_in', 0):g}\" at speed {figures.get('speed', 0)}" + stress_words(
            event.stress_change)
    if kind == "test" and rolls and "held_speed" in figures:  # an inebriated rider slowing down (EC-TRAIT)
        held = figures["held_speed"]
        return (f"{who} tries to slow down, drunk: {dice(rolls[0])} - {VERDICTS[rolls[0].outcome]}"
                + (f", stays at speed {held}" if held is not None else "") + stress_words(event.stress_change))
    if kind == "test" and rolls:
        roll = rolls[0]
        return f"{who} leans into the turn: {dice(roll)} - {VERDICTS[roll.outcome]}" + stress_words(event.stress_change)
    if kind == "crash":
        how = "head-on" if figures.get("kind") == "head_on" else "side-on"
        text = f"{who} hits {names.thing(event.piece)} {how}"
        if rolls:
            text += f": {dice(rolls[0])}"
        if figures.get("survived"):
            after = ("stops dead, skips next activation" if figures.get("kind") == "head_on"
                     else "speed 1 for the rest of the activation")
            return text + f" - survives{stress_words(event.stress_change)}, {after}"
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
        then = ("is thrown off line" if not roll.succeeded  # EC-DEST-3; EC-DEST-4: where the rider knocked it
                else "knocks it on ahead" if figures.get("knocked_ahead") else "knocks it aside")
        return (f"{who} smashes into {names.thing(event.piece)}: {dice(roll)} - {then}"
                + stress_words(event.stress_change))
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
        return f"{who} rides off the table and escapes{escape_points_words(event, names)}"
    if kind == "score" and "package" in figures:  # EC-MISSION-PACKAGE
        value, gangs = int(figures["package"]), " and ".join(names.gang(g) for g in figures.get("gangs", ()))
        if figures.get("revealed"):
            return f"{who} busts carrying a {value} VP package: its value is known"
        if figures.get("delivered"):
            return f"{who} delivers a {value} VP package: +{value} VP to {gangs}"
        return f"{who} drops a {value} VP package: +{value} VP to {gangs}"
    if kind == "score" and "npc" in figures:  # EC-MISSION-JAIL, EC-MISSION-RESCUE
        gangs = " and ".join(names.gang(g) for g in figures.get("gangs", ()))
        npc, points = names.thing(figures["npc"]), int(figures.get("points", 1))
        if figures.get("delivered"):
            whose = " (the rival's)" if figures.get("rival") else ""
            return f"{who} delivers {npc}{whose}: +{points} VP to {gangs}"
        return f"{who} escapes through a road exit with {npc}: +{points} VP to {gangs}"
    if kind == "trait" and figures.get("ambush") == "revealed" and rolls:  # EC-TRAIT-AMBUSH
        rider = names.rider(figures["rider"])
        then = "surprised: the ambush takes the turn" if figures.get("surprised") else f"{rider} keeps their nerve"
        return f"{who} springs an ambush on {rider}: {dice(rolls[0])} - {then}"
    if kind == "score" and "law" in figures:  # EC-LAW
        riders = " and ".join(names.rider(m) for m in figures.get("riders", ()))
        return f"the Law rides in at entry {figures['entry']}: {riders}"
    if kind == "score" and "corner" in figures:  # EC-MISSION-CORNERS
        gang = names.gang(figures["gangs"][0])
        return f"{gang} hold {names.thing(figures['corner'])}: +{figures['points']} VP to {gang}"
    if kind == "score" and "checkpoint" in figures:  # EC-MISSION-HOON
        gangs = " and ".join(names.gang(g) for g in figures.get("gangs", ()))
        if figures.get("finished"):
            return f"{who} wins the race: +{figures['points']} VP to {gangs}"
        told = f"{who} passes {names.thing(figures['checkpoint'])} ({figures['passed']} of {figures['need']})"
        return told + (f": +{figures['points']} VP to {gangs}" if figures.get("points") else "")
    if kind == "score" and "item" in figures:  # EC-MISSION-GRAB
        gangs = " and ".join(names.gang(g) for g in figures.get("gangs", ()))
        return f"{who} escapes with {names.thing(figures['item'])}: +1 VP to {gangs}"
    if kind == "item":
        return _item_sentence(event, names)
    if kind == "score" and "vip" in figures:  # EC-MISSION-VIP
        if figures["vip"] == "taken down":
            taker = names.rider(figures["by"])
            return f"VIP takedown: {taker} takes out the VIP {who}, +1 VP to {names.gang(figures['gangs'][0])}" \
                if figures.get("gangs") else f"VIP takedown: {taker} takes out the VIP {who}"
        return f"{who} takes over as VIP from {names.rider(figures['from'])}"
    if kind == "attack":
        other = names.rider(event.piece) if event.piece else "a rival"
        if "weapon" in figures and rolls:
            verdict = "hits" if figures.get("hit") else "misses"
            saved = f" ({other} {figures['defence']})" if figures.get("defence") and not figures.get("hit") else ""
            return f"{who} attacks {other} with the {figures['weapon']}: {dice(rolls[0])} - {verdict}{saved}"
        if "wounds_lost" in figures:
            lost = int(figures["wounds_lost"])
            # an unsaved hit on a fighter with no wound left rolls an injury die instead (GANG-INJURY)
            unsaved = sum(1 for hit in figures.get("rolls", ()) if isinstance(hit, Mapping) and hit.get("unsaved"))
            harm = "a headshot" if figures.get("headshot") else (
                f"-{lost} wound{'s' if lost != 1 else ''}" if lost else
                f"no wound left to lose: {unsaved} unsaved hit{'s' if unsaved != 1 else ''}, "
                f"{'an injury die' if unsaved == 1 else 'injury dice'}" if unsaved else "no harm")
            out = f", {out_words}" if figures.get("taken_out") else ""
            return f"{who} is hit by {other}: {harm}{out}{stress_words(event.stress_change)}"
        if "EC-MEL-2" in event.clauses and not rolls:
            how = "by the ambush of" if "EC-TRAIT-AMBUSH" in event.clauses else "from behind by"
            return f"{who} is surprised {how} {other}{stress_words(event.stress_change)}"
        if len(rolls) == 2:
            target = names.rider(event.piece) if event.piece else "a rival"
            return (f"{who} plays chicken with {target}: {who} rolls {rolls[0].total}, "
                    f"{target} rolls {rolls[1].total}")
        if "winner" in figures:
            role = "wins" if figures["winner"] == event.model else "flinches"
            return f"{who} {role}{stress_words(event.stress_change)}"
        if figures.get("overwatch"):
            at = float(figures.get("at_in", 0.0))
            when = f'{at:.0f}" into its move' if at >= 0.5 else "as it sets off"
            return f"{who}, on overwatch, opens fire: {other} comes into range and sight {when}"
        if "EC-MEL-CHICKEN" in event.clauses:
            return "nobody flinches"
        return about(event, who)
    if kind == "kick":
        return _kick_sentence(event, names)
    if kind == "skip":
        return _skip_sentence(event, who)
    if kind == "condition":
        return about(event, who)
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
    return about(event, who)


def bust_out(event: Event) -> bool:
    """Whether a bust event took its rider out of the game, as the rules' record says (EC-DICE-4:
    a failed remount, or no wound left to lose)."""
    remount = event.rolls[-1] if event.rolls else None
    if "out_of_game" in event.figures:
        return bool(event.figures["out_of_game"])
    return not (remount and remount.succeeded)


def _kick_sentence(event: Event, names: Names) -> str:
    """A landed kick (EC-MEL-KICK): whose bike slid how far, what stopped it, how it turned."""
    figures = event.figures
    kicker = names.rider(event.piece) if event.piece else "a rival"
    whose = "its own bike" if figures.get("own") else f"{names.rider(event.model)}'s bike"
    words = f"{kicker} kicks {whose} {float(figures.get('pushed_in', 0.0)):.1f}\" away"
    if figures.get("stopped_by"):
        words += f", into {names.thing(figures['stopped_by'])}"
    if figures.get("pivoted_deg"):
        words += f", turning it {abs(float(figures['pivoted_deg'])):.0f} degrees"
    return words


def _item_sentence(event: Event, names: Names) -> str:
    """A package picked up, missed, passed, fumbled, dropped, held or lost (EC-ACT-PICKUP,
    EC-ACT-PASS, EC-MISSION-GRAB), riders and packages by name."""
    who, figures = names.rider(event.model), event.figures
    item, did = names.thing(figures.get("item")), figures.get("did")
    roll = f": {dice(event.rolls[0])}" if event.rolls else ""
    to = names.rider(figures.get("to", ""))
    if did == "picked up":
        return f"{who} picks up {item}{roll}{stress_words(event.stress_change)}"
    if did == "missed":
        verdict = " - BUST" if event.rolls and event.rolls[0].outcome is Outcome.BUST else " - misses"
        return f"{who} grabs at {item}{roll}{verdict}"
    if did == "passed":
        return f"{who} passes {item} to {to}{roll}"
    if did == "fumbled":
        return f"{who} fumbles the pass to {to}{roll}: {item} drops"
    if did == "busted":
        crashed = names.rider(figures.get("crashes", ""))
        return f"{who} busts passing {item} to {to}{roll}: the d10 rolls {figures.get('d10')}, {crashed} crashes"
    if did == "dropped":
        return f"{who} drops {item} where it went down"
    if did == "held":
        return f"{who} has held {item} {figures.get('held')} of {figures.get('need')} actions"
    if did == "lost" and figures.get("cliff"):
        return f"{who} goes over the cliff with {item}: it is lost"
    if did == "freed":  # EC-MISSION-JAIL
        return f"{who} stops by the jail; {item} gets out{roll} and climbs on"
    if did == "stays locked":
        return f"{who} stops by the jail; {item} stays locked in{roll}"
    if did == "lost" and figures.get("npc"):
        return f"{who} carries {item} off the table: it is lost"
    if did == "lost":
        how = "too soon" if figures.get("too_soon") else "over another gang's edge"
        return f"{who} carries {item} off the table {how}: it is lost"
    return about(event, who)


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
        return f"{who} sits still and recovers{stress_words(event.stress_change)}"
    if "EC-STOPPED" in clauses:
        return f"{who} is stopped: skips this activation"
    if "EC-DICE-4" in clauses:
        return f"{who} is remounting after a bust: skips this action"
    return f"{who} skips"


def about(event: Event, who: str) -> str:
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
