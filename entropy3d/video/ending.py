"""How a game ended, in words: the end card of the demo video and the last step of the share page.

The title says who won ("Komodo win", "A draw"); the lines explain the score as the rulebook
played says it (Entropy City: the mission's scoring rule and each gang's points with what earned
them; by default the mission and the points as they stand); then why the game ended.
"""

from __future__ import annotations

from entropy3d.game.replay import Replay, game_events
from entropy3d.systems import words
from entropy3d.systems.entropy_city.state import State


def result_card(replay: Replay, table, names: words.Names, state: State | None = None
                ) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The end card of ``replay`` on ``table`` (its scene): title, lines, and per line the gang
    it is about ('' for none, so a page or a frame can colour it). ``state``: the score as it
    stands (default: the game's last state). The rulebook played says what the score means
    (:meth:`~entropy3d.systems.base.GameSystem.score_lines`)."""
    from entropy3d.systems import played_system

    if state is None:
        state = replay.end.state if replay.end is not None else (
            replay.activations[-1].state_after if replay.activations else replay.header.initial)
    scoring = played_system(table.spec.system).score_lines(
        state, game_events(replay), {m.id: m.gang for m in replay.header.initial.models.values()}, names,
        table.ruleset)
    title, lines = end_card(replay, names, scoring)
    return title, lines, tuple(gang for gang, _ in scoring) + ("",) * (len(lines) - len(scoring))


def end_card(replay: Replay, names: words.Names, scoring) -> tuple[str, tuple[str, ...]]:
    """The end card's title ("Orlocks win", "A draw") and lines: the ``scoring`` texts, then why
    the game ended."""
    end = replay.end
    winner = names.gang(end.winner) if end is not None and end.winner else ""
    reason = (f"game over: {names.named(end.reason)}",) if end is not None else ()
    return (f"{winner} win" if winner else "A draw"), tuple(text for _, text in scoring) + reason
