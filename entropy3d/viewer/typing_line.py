"""Typing in the viewer, as a mixin of :class:`~entropy3d.viewer.app.Viewer`: a plan for the
selected model (checked by the rules as it is typed, ridden on Enter), the answers of a game
played here (:class:`~entropy3d.viewer.playing.LiveGame`: the line opens on the model the game
asks about), and the table saved as it stands (s). No Panda3D at import: the window's widgets
are made when a line opens.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

#: characters a line of the caption's account of an action taken here holds, and its lines at most
TOLD_WIDTH, TOLD_LINES = 84, 12
#: a game's questions answered by typing on the line, checked by the rules as typed: an Entropy
#: City plan, any other rulebook's action (:class:`~entropy3d.game.hand.HandPlayer`)
TYPED = ("plan", "action")


def wrapped(text: str, width: int = TOLD_WIDTH) -> list[str]:
    """The lines of ``text``, each longer than ``width`` characters wrapped under itself (two
    spaces further in), never at a clause's hyphen ("(SW-" / "CRIT)")."""
    import textwrap

    lines = []
    for line in text.splitlines():
        indent = line[:len(line) - len(line.lstrip())]
        lines += textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_on_hyphens=False) or [""]
    return lines


class ViewerTyping:
    """Plans, a game's answers and the saved table (attributes set by ``Viewer``)."""

    def _save(self) -> None:
        """Write the table as it stands (tries, facings, the game's speeds, stress and conditions)
        as a scene file in the current folder, ``SCENE-tried.yaml`` (``-tried-2``... when taken),
        which `entropy3d validate` and `entropy3d view` read. Refused while a try stands where its
        model cannot (:attr:`standing`: the viewer's checks, which go beyond validate's of a
        scene's starting positions), or when the file cannot be written (said, not raised)."""
        from entropy3d.outputs import write_atomic
        from entropy3d.scene.saving import free_path, scene_as_it_stands

        self.changed_at = time.perf_counter()
        if self.standing:
            self.save_refused = "; ".join(f"{self.questions.names.rider(m)} cannot stand where it is tried"
                                          for m in sorted(self.standing))
            self.refresh()
            return
        from entropy3d.errors import EntropyError

        path = free_path(Path.cwd(), self.table.source.stem)
        try:
            write_atomic(path, scene_as_it_stands(self.table, self.game_state(), self.poses(), path).encode())
        except (OSError, EntropyError) as error:
            self.save_refused = f"could not write {path}: {error}"
            self.refresh()
            return
        self.saved.append(path)
        self.save_refused = ""
        self.refresh()

    # -- plans -----------------------------------------------------------------------------------

    def _open_plan(self) -> None:
        """A line to type a plan for the selected model in; every key previews it."""
        if self.selected is None:
            self.notice = "e types a plan for the selected model: click a model first"
            self.refresh()
            return
        if self.plan_entry is not None:
            return
        from direct.gui.DirectEntry import DirectEntry

        self.plan_entry = DirectEntry(parent=self.base.a2dBottomLeft, pos=(0.05, 0, 0.3), scale=0.045, width=30,
                                      initialText="", focus=1, command=self.ride_plan, numLines=1)
        self.events.ignoreAll()  # typed letters are the plan, not commands
        self.events.accept("escape", self.close_plan)
        self.events.accept(self.plan_entry.guiItem.getTypeEvent(), self._typed)
        self.events.accept(self.plan_entry.guiItem.getEraseEvent(), self._typed)
        self.events.accept("window-event", self._window_changed)
        self.plan_preview = None
        self.refresh()

    def _typed(self, *_) -> None:
        self.changed_at = time.perf_counter()
        self.preview(self.plan_entry.get())

    def preview(self, text: str, asked=None) -> None:
        """Check ``text`` for the selected model where it stands now, in the scene's rulebook
        (:attr:`rules`), and show the answer; in a game played here, against the game as it stands
        when its question (``asked``: the ``(gang, question)`` waiting, read once by the caller;
        looked up when None) is a plan."""
        from entropy3d.viewer.planning import preview_state

        if asked is None and self.live is not None:
            asked = self.live.question()
        if asked is not None:
            question = asked[1]
            self.plan_preview = (self.rules.preview(question.state, question.model_id, text, activate=False)
                                 if question.kind in TYPED and text.strip() else None)
            self.refresh()
            return
        state = preview_state(self.game_state(), self.timeline.step is None and not self.ridden)
        self.plan_preview = self.rules.preview(state, self.selected, text, seed=len(self.ridden) + 1)
        self.refresh()

    def ride_plan(self, text: str) -> None:
        """Take ``text`` for the selected model as one activation along the one path, in the
        scene's rulebook (geometric producer), and show what happened in its words; u undoes it.
        A refused action stays open with its clause."""
        from entropy3d.systems.words import told
        from entropy3d.viewer.planning import preview_state

        if self.live is not None and not self.live.done:
            asked = self.live.question()  # read once: the game's thread may ask the next any moment
            if asked is None:
                self.notice = "the automatic players are playing: your move comes next"
                self.close_plan()
                return
            self.preview(text, asked)
            # a plan must pass (an empty one too); an action typed in a rulebook's words must pass
            # unless nothing is typed, which ends the model's activation
            must_pass = asked[1].kind == "plan" or asked[1].kind == "action" and text.strip()
            if must_pass and (self.plan_preview is None or self.plan_preview.checked is None):
                self.plan_entry["focus"] = 1  # refused (or empty): the line stays open with the clause
                return
            self.live.answer(text)
            self.close_plan()
            return
        self.preview(text)
        if self.plan_preview.checked is None:
            self.plan_entry["focus"] = 1
            return
        state = preview_state(self.game_state(), self.timeline.step is None and not self.ridden)
        steps = self.rules.ride(state, self.selected, text, seed=len(self.ridden) + 1)
        self.what_if.pop(self.selected, None)
        names = self.questions.names
        said = [told(event, names) for step in steps for event in step.events]
        self.ridden.append((steps[-1].after, said or [f"{names.rider(self.selected)}: {text}"]))
        self.undo.append((None, None))
        self.close_plan()

    def taken_words(self) -> str:
        """The caption's account of the last action taken here: each event's sentence on lines of
        its own (:func:`wrapped`: a chase's ram tells six events, clear of the panel on the
        right), at most :data:`TOLD_LINES` lines, then how many more."""
        lines = wrapped("\n".join("  " + said for said in self.ridden[-1][1]))
        more = len(lines) - TOLD_LINES
        shown = lines[:TOLD_LINES - 1] + [f"  ... {more + 1} more lines"] if more > 0 else lines
        return "\n".join(["taken here (u undoes):", *shown])

    def close_plan(self) -> None:
        if self.plan_entry is not None:
            self.plan_entry.destroy()
            self.plan_entry, self.plan_preview = None, None
            self.events.ignoreAll()
            self._bind()
        self.refresh()

    # -- frame -----------------------------------------------------------------------------------

    def _follow_live(self) -> None:
        """A game played here: when its question or its records change, select the model asked
        about and open the line to answer in; once it ends, its replay is the timeline."""
        from entropy3d.game.timeline import Timeline

        asked = self.live.question()
        seen = (self.live.asked, asked is not None, len(self.live.records), self.live.done)
        if seen == self._live_seen:
            return
        self._live_seen = seen
        self.changed_at = time.perf_counter()
        if self.live.done:
            self.close_plan()
            self.what_if.clear()
            self.ridden.clear()
            self.undo.clear()
            self.timeline = Timeline(self.live.replay(), self.live.header.initial)
            self.timeline.index = len(self.timeline.steps) - 1
            self.timeline.t = self.timeline.duration()
            self._make_slider()
        elif asked is not None:
            self.what_if.clear()
            self.selected, self.target = asked[1].model_id, None
            if self.plan_entry is None:
                self._open_plan()
        self.refresh()

    def live_words(self) -> str:
        """The caption's line of a game played here: whose move, or how it ended."""
        if self.live is None:
            return ""
        if self.live.done:
            end = self.live.replay().end
            said = self.live.error or (end.reason if end is not None else "left before its end")
            return f"game over: {said}; replay written to {self.live.replay_path}"
        asked = self.live.question()
        if asked is None:
            return "the automatic players are playing..."
        gang, question = asked
        names = self.questions.names
        return (f"your move ({names.gang(gang)}): {question.prompt(names.rider(question.model_id))}"
                + ("" if self.plan_entry is not None else "   (e: answer)") + "   Esc: look around the table")

    def _leave_game(self) -> None:
        """The window closes (q, or its close button) with a game played here: the game stops
        and the terminal is told where the game so far is written."""
        print(f"entropy3d view: {self.live.close()}", file=sys.stderr)
