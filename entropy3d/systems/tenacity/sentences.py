"""10acity's words for its events (TEN-*): an attack and its dice, stress, a wound marked to stay
conscious, a figure falling unconscious, a score, the initiative's advantage die from above; a
move in Entropy City's shared sentences."""

from __future__ import annotations

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.sentences import Names
from entropy3d.systems.entropy_city.sentences import sentence as shared_sentence


def sentence(event: Event, names: Names) -> str:
    """The event in plain words, figures by name."""
    if event.kind == "move":
        return shared_sentence(event, names)
    return _tenacity_sentence(event, names)


def dice_untold(event: Event) -> bool:
    """A 10acity attack or its stress (TEN-ATTACK): its sentence keeps the totals and the faces
    rolled, but only the rules' own words say which face was kept, the skill rank, a natural
    10's extra hero die and the impact dice ("attack 9 (of 8,10,9) +1 -1 = 9 v defence 10 (of
    6,10,10) +1 +10 (critical) = 21")."""
    return "TEN-ATTACK" in event.clauses and event.kind in ("shot", "attack") and bool(event.rules)


def cover_words(figures, owner: str = "the attacker's") -> str:
    """An attack's cover (TEN-COVER) as its sight line's label and its sentence say it: "in the
    open", "in partial hard cover" (the target's), or "hidden by the attacker's soft cover"
    (``figures["cover_at"]``: the attacker's own, a crate it crouches behind, which hides
    the target from it; ``owner`` names the attacker)."""
    cover = str(figures.get("cover", "none"))
    if cover == "none":
        return "in the open"
    # the share seen beside it says how much is hidden; "soft" or "hard" says what it stops
    return f"hidden by {owner} {cover.split()[-1]} cover" if figures.get("cover_at") == "attacker" \
        else f"in {cover} cover"


def _tenacity_sentence(event: Event, names: Names) -> str:
    """A 10acity skirmish's attack, stress, wound, unconsciousness or score (TEN-*), figures by name;
    its prone and full defensive are the rules' own words after the figure's name."""
    who, figures = names.rider(event.model), event.figures
    target = names.rider(figures.get("target", event.piece or ""))
    if event.kind == "shot":
        where = cover_words(figures, f"{who}'s")
        if "attack" not in figures:
            if figures.get("cover_at") == "attacker":
                return f"{who} attacks {target} blindly through the soft cover in front of it: no target found"
            return f"{who} attacks {target} blindly with the {figures.get('weapon')}: no target found"
        verdict = "hits" if figures.get("hit") else "misses"
        return (f"{who} attacks {target} with the {figures.get('weapon')} ({where}, "
                f"{int(figures.get('to_hit_modifier', 0)):+d} to attack): {figures['attack']} (dice "
                f"{','.join(map(str, figures.get('attack_dice', ())))}) v {figures.get('defence')} (dice "
                f"{','.join(map(str, figures.get('defence_dice', ())))}) - {verdict}")
    if event.kind == "attack" and "found" in figures:
        blindly = (f"attacks {target} blindly through the soft cover in front of it"
                   if figures.get("cover_at") == "attacker" else f"attacks blindly into the soft cover around {target}")
        return (f"{who} {blindly}: {max(figures.get('dice') or [0])} "
                f"needing {figures.get('needed')}+ - " + ("finds it" if figures["found"] else "does not find it"))
    if event.kind == "attack" and "damage" in figures:
        return f"{who} takes {figures['damage']} stress" + (": UNCONSCIOUS" if figures.get("taken_out") else "")
    if event.kind == "condition" and "initiative_advantage" in figures:
        count = int(figures["initiative_advantage"])
        return (f"{who} stands higher than {', '.join(names.rider(m) for m in figures.get('above', ()))}: "
                f"its initiative Perception rolled with {count} advantage {'die' if count == 1 else 'dice'}")
    if event.kind == "condition" and "wounds_left" in figures:
        if figures.get("out_of_action"):
            return f"{who} falls UNCONSCIOUS: out of the skirmish"
        return f"{who} marks a wound to stay conscious ({figures['wounds_left']} left)"
    if event.kind == "score":
        return f"{names.gang(figures.get('gang', ''))} score {figures.get('points', 0)} for {who} unconscious"
    return f"{who} {event.rules}"
