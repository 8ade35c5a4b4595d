"""Plain words for a person: who did what, in one sentence, then the dice detail, in the words of
the rulebook the event belongs to.

The video's HUD, the share page, the viewer, the pictures and the command line tell events with
these. An event's rulebook is the registered game system whose clause prefix its clauses carry
(``GANG-`` for the gang battle; Entropy City, the default, for the rest); each rulebook keeps its
sentences beside its engine (:attr:`~entropy3d.systems.base.GameSystem.sentence`). JSON output
keeps the ids. Pure Python: no engine imports.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from entropy3d.core.event import Event
from entropy3d.systems import DEFAULT_SYSTEM, SYSTEMS, GameSystem
from entropy3d.systems.entropy_city.dice import TestRoll
from entropy3d.systems.entropy_city.sentences import (
    HARM,
    VERDICTS,
    Names,
    bust_out,
    dice,
    escape_points_words,
    piece_name,
)


def rulebook_of(event: Event) -> type[GameSystem]:
    """The game system whose words tell ``event``: the first whose clause prefix one of its clauses
    carries, else the default system (Entropy City). Asked of the registry each time, so a system
    registered later (``SYSTEMS.add``) is found too; the first call imports every system (~30 ms)."""
    default = SYSTEMS.find(DEFAULT_SYSTEM)
    for system in SYSTEMS:
        if system is not default and any(clause.startswith(system.clause_prefix) for clause in event.clauses):
            return system
    return default


def sentence(event: Event, names: Names) -> str:
    """The event in plain words, rider first, in its rulebook's words."""
    return rulebook_of(event).sentence(event, names)


def dice_untold(event: Event) -> bool:
    """Whether the event's sentence leaves dice the rules' own words tell (a 10acity attack: which
    face was kept, the skill rank, a natural 10's hero die): a terminal prints those words too."""
    return rulebook_of(event).dice_untold(event)


def detail(event: Event) -> str:
    """The dice detail under the sentence: clauses and each Entropy City test ("EC-COL-HEAD: TN
    20, 2+2+5+8 + stress 0 = 17, failed"), then the rulebook's own words for its rolls (a gang
    fighter's wound and save); "" when nothing was rolled and no clause applied."""
    parts = [", ".join(event.clauses)] if event.clauses else []
    for roll in event.rolls:
        if not isinstance(roll, TestRoll):
            continue  # another rulebook's dice: its sentence tells them, or its roll details below
        tn = f"TN {roll.tn}" + (f" (TN {roll.effective_tn} at max stress)" if roll.tn != roll.effective_tn else "")
        tn = tn + ": " if roll.tn else ""  # an opposed roll with no TN of its own only has to beat the other
        stat = f" + stat {roll.bonus}" if roll.bonus else ""  # a stat a trait adds (EC-TRAIT)
        parts.append(f"{tn}{'+'.join(map(str, roll.dice))} + stress {roll.stress}{stat} = {roll.total}, "
                     f"{VERDICTS[roll.outcome]}")
    parts += rulebook_of(event).roll_details(event)
    return "; ".join(parts)


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
    table, a destructible knocked aside (EC-DEST-4: the piece flies as the bike hits it): worth a
    held shot."""
    return (event.kind in ("crash", "bust", "cliff_edge", "left_table", "wreck")
            or (event.kind == "jump" and bool(event.figures.get("air_time")))
            or (event.kind == "destructible" and "item_moved_to" in event.figures)
            or (event.kind == "attack" and any(bool(event.figures.get(k)) for k in HARM)))


def may_change_score(event: Event) -> bool:
    """A key moment that can change the score (a takedown, a crash, a bust, a ride off the
    table...): the scoreboard waits for the last of an activation's. A destructible knocked aside
    is a key moment to film, never points."""
    return is_key_moment(event) and event.kind != "destructible"


def rolled_an_attack(event: Event) -> bool:
    """An Entropy City attack's rolls (its attack and defence tests, a game of chicken): what the
    film hears as a blow's crack and names as the hitter. Another rulebook's rolls on an attack
    event are its harm's (a gang wound and save, a 10acity impact, a chase ram's damage d6s), told
    by their shot (kind ``shot``, "hit" in its figures), not an attack of their own."""
    return event.kind == "attack" and any(isinstance(roll, TestRoll) for roll in event.rolls)


def is_routine(event: Event) -> bool:
    """A passed template test that cost nothing (an Entropy City test: another rulebook's roll, a
    chase's maneuvering roll, is news): its dice go in the small print only."""
    return (event.kind == "test" and bool(event.rolls) and isinstance(event.rolls[0], TestRoll)
            and event.rolls[0].succeeded and not event.stress_change)


def lines(events: Iterable[Event], names: Names) -> list[tuple[str, str]]:
    """(sentence, detail) per event; a routine event has no sentence (""), only its detail."""
    return [("" if is_routine(e) else sentence(e, names), detail(e)) for e in events]


def told(event: Event, names: Names) -> str:
    """An event on one line for a caption: its sentence in its rulebook's words, then its clauses
    in brackets ("Rammer: ram at a Top Speed of 110 MPH: ... (SW-RAM)")."""
    return sentence(event, names) + (f" ({', '.join(event.clauses)})" if event.clauses else "")


def reading_chars(events: Iterable[Event], names: Names) -> int:
    """How many characters a person must read to follow ``events`` (the sentences; the small
    print is there for those who want it)."""
    return sum(len(s) for s, _ in lines(events, names))


def headline(event: Event, names: Names, verb: str = "shoots") -> str:
    """A shot in the fewest words a stranger needs ("Lyra shoots Skab: 2 hits", "...: missed"):
    who, at whom and what came of it, for a video's large print; the weapon, the cover and the
    dice stay in the small print and on the sight line's label. ``verb``: "attacks" for a blow;
    an event with a ``verb`` figure of its own says that (a gang fighter "fights" in close combat)."""
    figures = event.figures
    verb = str(figures.get("verb", verb))
    target = names.rider(str(figures.get("target") or event.piece or ""))
    if "hit" not in figures or figures.get("found") is False:  # no roll to report (no target found)
        return sentence(event, names)
    hits = figures.get("hits")
    result = "missed" if not figures["hit"] else f"{hits} hit{'s' if hits != 1 else ''}" if hits else "hit"
    return f"{names.rider(event.model)} {verb} {target}: {result}"


def found_text(event: Event, names: Names) -> str:
    """What the producer found, with the piece it names by id given its readable name, and the
    other riders and scenery it names ("past roof_barrier" in a sight line) by name too."""
    found = event.found
    if event.piece and event.piece not in names.pieces:  # a rider or a wreck; scenery is named_all's
        found = found.replace(f"'{event.piece}'", names.thing(event.piece))
    return names.named_all(found)


def plain_lines(event: Event, names: Names) -> list[str]:
    """An event for a terminal: the sentence, then what the table showed and the dice, indented
    (where the sentence leaves dice untold, the rules' own words with every die)."""
    head = sentence(event, names)
    small = "; ".join(part for part in ((f"{event.producer or 'table'}: {found_text(event, names)}"
                                         if event.found else ""), detail(event)) if part)
    lines = [head] + ([f"  {small}"] if small else [])
    return lines + ([f"  rules: {names.named_all(event.rules)}"] if dice_untold(event) else [])


__all__ = ["HARM", "VERDICTS", "Names", "bust_out", "conditions_words", "detail", "dice", "dice_untold",
           "escape_points_words", "found_text", "headline", "heading_words", "is_key_moment", "is_routine", "lines",
           "may_change_score",
           "piece_name", "plain_lines", "reading_chars", "rulebook_of", "sentence", "status_words", "told"]
