"""The caption's account of an action taken in the viewer, headless: a chase's ram tells many
long events; each is wrapped on lines of its own and the account is cut to a few lines."""

from __future__ import annotations

from entropy3d.viewer.typing_line import TOLD_LINES, TOLD_WIDTH, ViewerTyping


class Taken(ViewerTyping):
    def __init__(self, said):
        self.ridden = [(None, said)]


def test_each_event_of_an_action_taken_is_wrapped_on_lines_of_its_own_and_cut_to_a_few():
    said = [f"Van: takes {k} damage from Rammer against Toughness 5: 3 raises, 3 Wounds, its Handling -3 "
            f"(SW-DMG)" for k in range(8)]
    lines = Taken(said).taken_words().splitlines()
    assert lines[0] == "taken here (u undoes):"
    assert len(lines) == 1 + TOLD_LINES and lines[-1].strip().endswith("more lines")
    assert all(len(line) <= TOLD_WIDTH for line in lines)
    assert lines[1].startswith("  Van: takes 0 damage") and lines[2].startswith("    ")  # wrapped under it
    # a clause is never split at its hyphen (this one straddled the width: "(SW-" / "CRIT)")
    crit = "Van: Critical Hit, 2d6 6+3 = 9: Crew: no crew figure aboard: a Chassis hit. (SW-CRIT)"
    assert "(SW-CRIT)" in Taken([crit]).taken_words()
