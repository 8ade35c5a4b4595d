"""How long a game system that plays its own game (a gang battle, a car chase, a skirmish) holds
each action on screen, and which of its lines a stranger must read.

Entropy City's video reads every sentence of an action at the pace's characters a second. A
system's own game says much more per action (a gang shot: the shot with its dice, the ammo
check, the pinning, the wound, the injury dice, the score), so read that way its video ran
about 6 minutes for 3 turns. Here its lines are split: large print, held until read, for what a
stranger needs to follow the game (a shot as "Lyra shoots Skab: 2 hits" beside its sight line's
label; each fighter's first decisive result: Out of Action, a gang bottling out, points scored,
a crash; an action's own event when it is not an attack, e.g. a walk), and one line of small
print, not waited for, with the full sentences and dice for whoever pauses. A quiet move (a
walk with nothing decisive) plays at :data:`QUIET_RATE`. Everything is read off the events'
kinds and figures that every playing system shares (``shot`` with ``target`` and ``hit``;
``taken_out``, ``out_of_action``, ``bottled``; ``score`` with ``points``), so no system is named
here. Seconds throughout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Sequence

from entropy3d.core.event import Event
from entropy3d.game.records import action_events
from entropy3d.game.replay import Replay
from entropy3d.systems import played_system, words
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.transition import END
from entropy3d.video.ending import end_card, game_events
from entropy3d.video.fight import fight_view, label_text
from entropy3d.video.hud import HUD_LINES

#: how many times faster than it happened a quiet move (nothing decisive, no attack) is played
QUIET_RATE = 2.0
#: the least an action with nothing a stranger must read is held: its small print flashes by
QUIET_HOLD_S = 1.0
#: figures that make an event a result a stranger must read: a fighter gone, a gang bottled out
DECISIVE_FIGURES = ("taken_out", "out_of_action", "bottled", "law")  # "law": the Law enters (EC-LAW)


def scored_points(events: Sequence[Event]) -> dict[str, int]:
    """The points the rules' score events among ``events`` say they gave, per gang: their
    ``points`` (a VIP takedown, a skirmish's side scoring), or a package delivered or dropped its
    VP; a package only revealed gives none; and a ride off the table's ``points`` (Lovers Point
    Brawl's escape, its caption says them)."""
    gained: dict[str, int] = {}
    for event in events:
        escaped = event.kind == "left_table" and "points" in event.figures
        if (event.kind != "score" and not escaped) or event.figures.get("revealed"):
            continue
        points = event.figures.get("points", event.figures.get("package", 0))
        gangs = event.figures.get("gangs", [event.figures["gang"]] if "gang" in event.figures else [])
        for gang in gangs:
            gained[gang] = gained.get(gang, 0) + int(points)
    return gained


def told_points(activation, action, shown: Sequence[Event]) -> dict[str, int]:
    """What the viewer has been told of an activation's points while ``action`` plays (the replay
    keeps only the activation's final score): :func:`scored_points` of the earlier actions'
    events and of those of ``action`` ``shown`` so far."""
    earlier = activation.actions.index(action) if action in activation.actions else 0
    return scored_points([e for step in range(earlier) for e in action_events(activation, step)] + list(shown))


def score_base(replay: Replay, activation) -> State:
    """The state whose score the HUD adds ``activation``'s told points to (:func:`told_points`):
    the one before the activation's events, the previous activation's end (the game's start for
    the first). Its ``state_before`` already holds what the turn's opening events scored (a
    bottled gang's fighters fleeing at the start of the Action Phase, GANG-BOTTLE), and adding
    their told points to it counted them twice: gang_fight seed 2's HUD read Orlocks +5 under
    "Vex ... fails and flees: OUT OF ACTION", then +3 and +4."""
    previous = replay.header.initial
    for earlier in replay.activations:
        if earlier is activation:
            return previous
        previous = earlier.state_after
    return activation.state_before


def shown_by(events: Sequence[Event], t: float, always: Collection[Event] = ()) -> list[Event]:
    """The ``events`` of an action a viewer has seen ``t`` seconds into its ride: each once the
    ride reaches its time (``t_s``); a move or a test at once (read as the ride starts), and
    those in ``always`` (the activation's start). An event with no time of its own after one
    timed later (a ram's damage, Wounds and Critical Hit after the contact, a bust after a
    crash) waits for that one: what came of a crash is not told before the crash is seen."""
    shown, reached = [], 0.0
    for event in events:
        follows = reached > event.t_s
        reached = max(reached, event.t_s)
        if event in always or (event.kind in ("move", "test") and not follows) or reached <= t:
            shown.append(event)
    return shown


def seen_model(activation, action, holding: bool) -> ModelState | None:
    """The activating model as a viewer knows it during ``action`` of ``activation`` (after it
    when ``holding``): as the last action before it left it (a figure that stood up in its first
    action is no longer prone while it shoots in its third); None before its first action."""
    actions = activation.actions
    done = actions[:actions.index(action) + (1 if holding else 0)] if action in actions else ()
    return next((step.model_after for step in reversed(done) if step.model_after is not None), None)


def decisive(event: Event) -> bool:
    """A result a stranger must read: a fighter taken out or Out of Action, a gang bottling out,
    points scored (a car getting away), or a key moment other than an attack's harm (a crash, a
    ride off the table, a jump). Points scored for a fighter already said to be out are not said
    again (:meth:`SystemPace.lines` keeps each model's first decisive line)."""
    return (any(bool(event.figures.get(k)) for k in DECISIVE_FIGURES)
            or (event.kind == "score" and bool(event.figures.get("points")))
            or (event.kind != "attack" and words.is_key_moment(event)))


def is_headline_shot(event: Event) -> bool:
    """A shot with a result to tell (its ``target`` and ``hit`` figures)."""
    return event.kind == "shot" and "hit" in event.figures and "target" in event.figures


@dataclass(frozen=True)
class SystemPace:
    """The pace of a system's own game: ``names`` to say who, ``ruleset``, ``on_foot`` (model ids)
    and ``system`` (the :class:`~entropy3d.systems.base.GameSystem`, for its words) to find each
    attack's sight line label as drawn (:func:`~entropy3d.video.fight.fight_view`)."""

    names: words.Names
    ruleset: object
    on_foot: Collection[str] = frozenset()
    system: object = None

    def lines(self, events: Iterable[Event], own: Event | None = None,
              verb: str = "shoots") -> tuple[tuple[str, str], ...]:
        """The HUD's (sentence, detail) lines of ``events``: first one line of small print (every
        sentence not in large print, joined), then the large print in order (each shot's
        headline over its full sentence, each fighter's first decisive result, ``own``). The HUD
        keeps the newest lines, so the small print is the first to give way."""
        large, small, out = [], [], set()
        for event in events:
            full = words.sentence(event, self.names)
            if is_headline_shot(event):
                large.append((words.headline(event, self.names, verb), full))
            elif decisive(event) and event.model not in out:
                out.add(event.model)
                large.append((full, words.detail(event)))
            elif own is not None and event == own:
                large.append((full, words.detail(event)))
            else:
                small.append(full.rstrip("."))  # one sentence's full stop would stand before the "; "
        return ((("", "; ".join(small)),) if small else ()) + tuple(large)

    def label(self, action) -> str:
        """The sight line's label of the action's attack ("" when it made none to film)."""
        view = fight_view(action.attack, self.ruleset, self.on_foot, self.system)
        return "" if view is None else label_text(view)

    def action_lines(self, events, action) -> tuple[tuple[str, str], ...]:
        """The lines of an action's ``events``: its own first event is large print unless it
        attacked (then its shot's headline is) or it is the End Phase's (the fighter's own doing
        is over; only decisive results there, a gang bottling out, are large)."""
        own = action.events[0] if action.events and action.attack is None and action.action.kind != END else None
        view = fight_view(action.attack, self.ruleset, self.on_foot, self.system)
        return self.lines(events, own, "shoots" if view is None or view.gun else "attacks")

    def reading_s(self, lines, label: str, read_cps: float, min_read_s: float, quiet: bool = False) -> float:
        """Seconds to read the large print of ``lines`` and the sight line's ``label`` at
        ``read_cps``; at least ``min_read_s``, or :data:`QUIET_HOLD_S` when there is nothing to
        read or the action is ``quiet`` (a walk's one short line needs no more than its reading)."""
        chars = sum(len(sentence) for sentence, _ in lines) + len(label)
        return max(QUIET_HOLD_S if quiet or not chars else min_read_s, chars / read_cps)

    def revealed(self, lines, seconds: float, read_cps: float) -> tuple[tuple[str, str], ...]:
        """``lines`` as the HUD shows them ``seconds`` into their segment: all at once when its
        newest :data:`~entropy3d.video.hud.HUD_LINES` hold every large line (three fighters
        fleeing); else each large line once those before it are read at ``read_cps``, so each
        stays among the newest long enough to be read (the segment lasts their whole reading)."""
        if sum(1 for sentence, _ in lines if sentence) <= HUD_LINES:
            return tuple(lines)
        shown, start = [], 0.0
        for sentence, detail in lines:
            if sentence:
                if start > seconds:
                    break
                start += len(sentence) / read_cps
            shown.append((sentence, detail))
        return tuple(shown)

    def end_reading_s(self, replay: Replay, read_cps: float) -> float:
        """Seconds to read the end card (:func:`end_card`, the score as the rulebook says it) at ``read_cps``."""
        final = replay.end.state if replay.end is not None else (
            replay.activations[-1].state_after if replay.activations else replay.header.initial)
        gang_of = {m.id: m.gang for m in replay.header.initial.models.values()}
        scoring = self.system.score_lines(final, game_events(replay), gang_of, self.names, self.ruleset)
        title, lines = end_card(replay, self.names, scoring)
        return sum(len(text) for text in (title, *lines)) / read_cps

    def quiet(self, events, action) -> bool:
        """A move with nothing decisive and no attack: played at :data:`QUIET_RATE`."""
        return action.attack is None and len(action.trajectory) > 0 and not any(decisive(e) for e in events)


def system_pace(replay: Replay, table) -> SystemPace | None:
    """The pace of a game of figures held for their large print (``table``: its scene); None for
    a game of riders (:attr:`~entropy3d.systems.base.GameSystem.riders`), every sentence read."""
    system = played_system(table.spec.system)
    if system.riders:
        return None
    on_foot = frozenset(m.id for m in replay.header.initial.models.values() if m.on_foot)
    return SystemPace(words.Names.of_table(table), table.ruleset, on_foot, system)


