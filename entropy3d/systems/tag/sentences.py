"""Tag's words for its events: a tag and its die, a score; a walk in the shared sentences."""

from __future__ import annotations

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.sentences import Names
from entropy3d.systems.entropy_city.sentences import sentence as shared_sentence


def sentence(event: Event, names: Names) -> str:
    """The event in plain words, runners and sides by name."""
    who, figures = names.rider(event.model), event.figures
    if event.kind == "tag":
        verdict = "TAGGED, out of the game" if figures["taken_out"] else "missed"
        return (f"{who} tags {names.rider(figures['target'])}: rolled {figures['die']} needing "
                f"{figures['needed']}+ - {verdict}")
    if event.kind == "score":
        return f"{names.gang(figures['gang'])} score {figures['points']} for tagging {who}"
    return shared_sentence(event, names)
