"""How a game ended, in words: the end card of the demo video and the last step of the share page.

The title says who won ("Komodo win", "A draw"); the lines explain the score: the mission's
scoring rule and each gang's points with what earned them (Entropy City), or a game system's own
mission and points as they stand; then why the game ended.
"""

from __future__ import annotations

from entropy3d.game.records import action_events
from entropy3d.game.replay import Replay
from entropy3d.rules.state import State
from entropy3d.systems import words

MISSION_NAMES = {"turf_war": "Turf War", "lovers_point_brawl": "Lovers Point Brawl", "gang_fight": "Gang Fight",
                 "getaway": "The Getaway"}


def result_card(replay: Replay, table, names: words.Names, state: State | None = None,
                riders: bool | None = None) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The end card of ``replay`` on ``table`` (its scene): title, lines, and per line the gang
    it is about ('' for none, so a page or a frame can colour it). ``state``: the score as it
    stands (default: the game's last state); ``riders``: whether the scene's rulebook is one of
    riders, whose points the card explains (default: asked of the rulebook,
    :attr:`~entropy3d.systems.base.GameSystem.riders`); else its engine's points as they stand."""
    from entropy3d.systems import played_system

    if state is None:
        state = replay.end.state if replay.end is not None else (
            replay.activations[-1].state_after if replay.activations else replay.header.initial)
    if riders is None:
        riders = played_system(table.spec.system).riders
    if riders:
        scoring = score_lines(replay, table.ruleset, names, state)
    else:  # the rulebook's own mission: its points as they stand
        scoring = system_scoring(state, names, MISSION_NAMES.get(state.mission, state.mission))
    title, lines = end_card(replay, names, scoring)
    return title, lines, tuple(gang for gang, _ in scoring) + ("",) * (len(lines) - len(scoring))


def score_lines(replay: Replay, ruleset, names: words.Names, state: State) -> list[tuple[str, str]]:
    """The end card's explanation of the score: the mission's scoring line, then per gang its
    points and what earned them ("Hades MC  -3 VP: 3 busts x -1"), as (gang id or "", text)."""
    from entropy3d.rules.missions import LOVERS_POINT, TURF_WAR

    mission = LOVERS_POINT if state.mission == LOVERS_POINT else TURF_WAR
    points = dict(ruleset.data(f"missions.{mission}"))
    labels = {"bust": "bust", "taken_out": "rider taken out", "escaped": "escape"}
    rule = ", ".join(f"{p:+d} VP per {labels.get(k, k)}" for k, p in points.items())
    rows = [("", f"{MISSION_NAMES.get(mission, mission)}: {rule}")]
    gang_of = {m.id: m.gang for m in replay.header.initial.models.values()}
    events = [e for a in replay.activations for e in (a.events if not a.actions else ())] + [
        e for a in replay.activations for j in range(len(a.actions)) for e in action_events(a, j)]
    for gang in sorted({m.gang for m in replay.header.initial.models.values()}):
        score = int(state.score.get(gang, 0))
        counts = {"bust": sum(1 for e in events if e.kind == "bust" and gang_of.get(e.model) == gang),
                  "escaped": sum(1 for e in events if e.kind == "left_table" and gang_of.get(e.model) == gang)}
        parts, rest = [], score
        for key in ("bust", "escaped"):
            if points.get(key) and counts[key]:
                parts.append(f"{counts[key]} {labels[key]}{'s' if counts[key] != 1 else ''} x {points[key]:+d}")
                rest -= counts[key] * points[key]
        if rest and points.get("taken_out") and rest % points["taken_out"] == 0:
            taken = rest // points["taken_out"]
            parts.append(f"{taken} rider{'s' if taken != 1 else ''} taken out x {points['taken_out']:+d}")
        elif rest:
            parts.append(f"other {rest:+d}")
        rows.append((gang, f"{names.gang(gang)}  {score:+d} VP" + (f": {', '.join(parts)}" if parts else "")))
    return rows


def system_scoring(state: State, names: words.Names, mission: str) -> list[tuple[str, str]]:
    """A game system's own mission on the end card, as (gang id or "", text): its name
    (``mission``), then each gang's points as they stand."""
    return [("", mission)] + [
        (g, f"{names.gang(g)}  {int(state.score.get(g, 0)):+d} VP") for g in names.gangs]


def end_card(replay: Replay, names: words.Names, scoring) -> tuple[str, tuple[str, ...]]:
    """The end card's title ("Orlocks win", "A draw") and lines: the ``scoring`` texts, then why
    the game ended."""
    end = replay.end
    winner = names.gang(end.winner) if end is not None and end.winner else ""
    reason = (f"game over: {names.named(end.reason)}",) if end is not None else ()
    return (f"{winner} win" if winner else "A draw"), tuple(text for _, text in scoring) + reason
