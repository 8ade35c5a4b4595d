"""A replay's film into a file, atomically: MP4 (H.264, with the synthesised sound track when the
options ask for it) or GIF. The film is either cut (:func:`entropy3d.video.cut.film_of`)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from entropy3d.game.replay import Replay
from entropy3d.outputs import AtomicFile
from entropy3d.video.cut import film_of
from entropy3d.video.encode import write_gif, write_mp4
from entropy3d.video.movie import FORMATS, ReplayFilm, VideoOptions


def render_video(replay: Replay, output: str | Path, options: VideoOptions = VideoOptions(), *,
                 progress: Callable[[int, int], None] | None = None, table=None, geometry=None) -> Path:
    """Render ``replay`` into ``output`` (.mp4 or .gif) atomically; returns the path.

    progress: called with (frames done, frames in total) after every frame.
    """
    output = Path(output)
    if output.suffix.lower() not in FORMATS:
        raise ValueError(f"video output must end in {' or '.join(FORMATS)}, got {output.name!r}")
    film = film_of(replay, options, table, geometry)
    total = sum(s.frames for s in film.segments)
    try:
        with AtomicFile(output) as pending:
            if output.suffix.lower() == ".mp4" and options.sound:
                _write_mp4_with_sound(film, pending.temporary, total, progress)
            elif output.suffix.lower() == ".mp4":
                write_mp4(film.laid_frames(), pending.temporary, options, total, progress)
            else:
                write_gif(film.laid_frames(), pending.temporary, options, total, progress)
    finally:
        film.close()
    return output


def _write_mp4_with_sound(film: ReplayFilm, path: Path, total: int, progress) -> None:
    """The film's pictures and its sound track (synthesised from the same segments) into
    ``path``: each first to a temporary file beside it, then muxed; both are removed however it
    ends."""
    from entropy3d.video import sound

    picture, track = AtomicFile(path.with_name(path.stem + ".picture.mp4")), AtomicFile(path.with_suffix(".wav"))
    try:
        write_mp4(film.laid_frames(), picture.temporary, film.options, total, progress)
        sound.write_wav(sound.film_track(film), track.temporary)
        sound.mux(picture.temporary, track.temporary, path)
    finally:
        picture.abort()
        track.abort()
