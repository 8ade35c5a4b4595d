"""A promotional reel of a sweep's most dramatic games, from their stored replays (no physics runs).

For each of the top games (by the sweep's drama score) the reel shows a card saying why it was
picked, then its best moments: the activations holding the most drama (the sweep's ``moments``
table: takedowns, jumps, crashes...), each played as ``entropy3d replay-render`` plays it (same
cameras, slow motion and HUD), in the order they happened, then the game's end card. Frames come
from :class:`~entropy3d.video.movie.ReplayFilm`, one film per game, into one MP4 or GIF.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from entropy3d.game.replay import Replay
from entropy3d.outputs import AtomicFile
from entropy3d.video import hud
from entropy3d.video.encode import write_gif, write_mp4
from entropy3d.video.movie import (
    ReplayFilm,
    Segment,
    VideoOptions,
    plan_segments,
    replay_names,
    system_pace,
)


@dataclass(frozen=True)
class ReelGame:
    """One game of the reel: its replay, its rank (1 = most dramatic), its drama score, the
    activations (indices into the replay) to show and the words of its card (what happened)."""

    replay: Replay
    rank: int
    drama: float
    activations: tuple[int, ...]
    reasons: tuple[str, ...]


def highlight_segments(game: ReelGame, options: VideoOptions, names, pace=None) -> list[Segment]:
    """The replay's video segments cut to the game's chosen activations (less their skipped
    actions, a remount's pause, when the activation has anything else to show), its title and its
    end. ``pace``: a system's own game's (:func:`~entropy3d.video.movie.system_pace`), else None."""
    from entropy3d.systems.entropy_city.transition import SKIP

    activations = game.replay.activations
    chosen = [s for s in plan_segments(game.replay, options, names, pace)
              if s.kind in ("action", "skipped") and s.activation in set(game.activations)]
    lively = {s.activation for s in chosen
              if s.kind == "action" and activations[s.activation].actions[s.action].action.kind != SKIP}
    shown = [s for s in chosen if s.activation not in lively or s.kind != "action"
             or activations[s.activation].actions[s.action].action.kind != SKIP]
    segments = plan_segments(game.replay, options, names, pace)
    return [segments[0], *shown, segments[-1]]


class _HighlightFilm(ReplayFilm):
    """A replay's film cut to chosen activations, opening on the reel's card for the game."""

    def __init__(self, game: ReelGame, of: int, options: VideoOptions):
        super().__init__(game.replay, options)
        self.game, self.of = game, of
        self.segments = highlight_segments(game, options, self.words, self.pace)

    def _title(self, segment: Segment, state) -> Iterator[np.ndarray]:
        header = self.replay.header
        gangs = " vs ".join(self.gang_names[g] for g in self.table.spec.gangs)
        # what a stranger follows: the table, the gangs and why the game was picked (its seed and
        # drama score are the report's, not the film's)
        lines = (f"{header.scene_name}  -  {gangs}", *self.game.reasons)
        for frame in self._overview_frames(segment.frames, 24.0):
            yield hud.card_frame(frame, f"Highlight {self.game.rank} of {self.of}", lines)


def _words_and_pace(game: ReelGame):
    """The names and the pace (None for Entropy City) of a reel game's scene."""
    from entropy3d.game.replay import scene_file
    from entropy3d.scene import load_scene

    table = load_scene(scene_file(game.replay))
    return replay_names(game.replay, table), system_pace(game.replay, table)


class _Reel:
    """The frames of every game's film in turn (each film is opened only while it plays)."""

    def __init__(self, games: list[ReelGame], options: VideoOptions):
        self.games, self.options = games, options
        self.segments = [s for game in games for s in highlight_segments(game, options, *_words_and_pace(game))]

    def laid_frames(self) -> Iterator[np.ndarray | hud.LaidFrame]:
        for game in self.games:
            film = _HighlightFilm(game, len(self.games), self.options)
            try:
                yield from film.laid_frames()
            finally:
                film.close()

    def close(self) -> None:
        pass


def render_reel(games: list[ReelGame], output: str | Path, options: VideoOptions = VideoOptions(), *,
                progress: Callable[[int, int], None] | None = None) -> tuple[Path, int]:
    """Render the reel into ``output`` (.mp4 or .gif) atomically; returns (path, frames)."""
    output = Path(output)
    if not games:
        raise ValueError("a reel needs at least one game")
    reel = _Reel(games, options)
    total = sum(s.frames for s in reel.segments)
    with AtomicFile(output) as pending:
        if output.suffix.lower() == ".mp4":
            write_mp4(reel.laid_frames(), pending.temporary, options, total, progress)
        else:
            write_gif(reel.laid_frames(), pending.temporary, options, total, progress)
    return output, total
