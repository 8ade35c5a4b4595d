"""The gang battle's words for its events (GANG-*): a shot, a score, a bottle check, a Cool check,
a Nerve test, a Rally test, a Run for Cover, a charge, a Fight, a Coup de Grace, a Retreat, a
wound roll and its save; anything else in Entropy
City's shared sentences, a fighter taken out being OUT OF ACTION."""

from __future__ import annotations

from entropy3d.core.event import Event
from entropy3d.core.roll import Roll
from entropy3d.systems.entropy_city.sentences import Names
from entropy3d.systems.entropy_city.sentences import sentence as shared_sentence


def sentence(event: Event, names: Names) -> str:
    """The event in plain words, fighters and gangs by name."""
    figures = event.figures
    if event.kind == "condition" and ("nerve" in figures or "rally" in figures):
        return _nerve_sentence(event, names)
    if figures.get("close_combat") or any(k in figures for k in ("charge", "coup_de_grace", "init", "retreat_dice")):
        return _melee_sentence(event, names)
    if event.kind == "move" and figures.get("run"):
        walked = float(figures.get("length_in", 0.0))
        who = names.rider(event.model)
        if figures.get("retreat"):
            return f"{who} retreats {walked:g}\"" if walked >= 0.05 else f"{who} finds no way to retreat"
        return f"{who} runs for cover {walked:g}\"" if walked >= 0.05 else f"{who} finds no cover to run to"
    if event.kind in ("shot", "score") or (event.kind == "condition" and ("bottled" in figures or "fled" in figures)):
        return _gang_sentence(event, names)
    return shared_sentence(event, names, out_words="OUT OF ACTION")


def roll_details(event: Event) -> list[str]:
    """Each hit's wound roll and armour save, for the dice detail under the sentence: read from the
    event's rolls (a ``wound`` roll, then its ``save`` when one was rolled, GANG-WOUND)."""
    rolls = [r for r in event.rolls if r.purpose in ("wound", "save")]
    return [wound_words(roll, rolls[k + 1] if k + 1 < len(rolls) and rolls[k + 1].purpose == "save" else None)
            for k, roll in enumerate(rolls) if roll.purpose == "wound"]


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


def _melee_sentence(event: Event, names: Names) -> str:
    """A charge, a Fight's attack dice, a Coup de Grace, an INIT test or a Retreat's roll (GANG-CHARGE,
    GANG-CC, GANG-COUP, GANG-RETREAT), fighters by name."""
    who, figures = names.rider(event.model), event.figures
    target = names.rider(str(figures.get("target") or event.piece or ""))
    if event.kind == "move":
        walked = float(figures.get("length_in", 0.0))
        if walked < 0.05:
            return f"{who} charges but the way in is blocked"
        return f"{who} charges {target} {walked:g}\"" + ("" if figures.get("engaged") else ": falls short")
    if figures.get("close_combat"):
        dice = ", ".join("+".join(map(str, d["dice"])) for d in figures.get("attack_dice", ()))
        hits = int(figures.get("hits", 0))
        how = " in reaction" if figures.get("reaction") else " on the charge" if figures.get("charging") else ""
        needed = sorted({d["needed"] for d in figures.get("attack_dice", ())})
        return (f"{who} fights {target}{how}: rolled {dice} needing {'/'.join(f'{n}+' for n in needed)}: "
                + (f"{hits} hit{'s' if hits != 1 else ''}" if hits else "no hit"))
    if "charge" in figures:
        return (f"{who} charges {target}: D3 {figures['die']}, {figures['reach_in']:g}\" of the "
                f"{figures['need_in']}\" needed - " + ("reaches" if figures["reaches"] else "falls short"))
    if "coup_de_grace" in figures:
        return f"{names.rider(figures['by'])} finishes {who} with a Coup de Grace: OUT OF ACTION"
    if "retreat_dice" in figures:
        return f"{who} retreats {figures['retreat_in']}\""
    verdict = ("breaks away" if figures["left"] else "stays Engaged") if "left" in figures else (
        "strikes back" if figures["die"] >= figures["needed"] else "does not strike back")
    return f"{who}: INIT test {figures['die']} needing {figures['needed']}+ - {verdict}"


def _nerve_sentence(event: Event, names: Names) -> str:
    """A Nerve test (GANG-NERVE) or a Rally test (GANG-RALLY), fighters by name."""
    who, figures = names.rider(event.model), event.figures
    bonus = int(figures.get("bonus", 0))
    rolled = "+".join(map(str, figures.get("dice", ()))) + (f" +{bonus}" if bonus else "")
    check = f"Cool check {rolled} needing {figures.get('needed')}+"
    if "rally" in figures:
        return f"{who}: Rally test, {check} - " + ("rallies" if figures["rallied"] else "stays BROKEN")
    return (f"{who}: Nerve test as {names.rider(figures.get('fallen', ''))} goes "
            f"{figures.get('fallen_as', 'down')}, {check} - " + ("BROKEN" if figures["broken"] else "holds"))


def wound_words(wound: Roll, save: Roll | None) -> str:
    """One hit's wound roll and armour save (GANG-WOUND): "wound 2 needing 4+: no wound", "wound
    5 needing 4+, save 6 needing 5+: saved", "wound 6 needing 2+, no save: unsaved" (a save
    past 6+ is not rolled)."""
    words = f"wound {wound.total} needing {wound.needed}+"
    if not wound.succeeded:
        return f"{words}: no wound"
    if save is None:
        return f"{words}, no save: unsaved"
    return f"{words}, save {save.total} needing {save.needed}+: {'saved' if save.succeeded else 'unsaved'}"
