"""A game played in the viewer (issue 47): one side or both by hand, the others by the automatic
players, on the one game loop (:class:`~entropy3d.game.loop.Game`), the geometric producer riding.

The loop runs in a thread of its own; the window stays live and answers the gangs' questions
(:class:`~entropy3d.game.hand.HandSeat`) from the typed plans, checked by the rules' own ``check``
as they are typed. When the game ends, or the window is closed before, the game so far is written
as a replay (``SCENE-played-SEED.jsonl`` in the current folder, the next free name) that `entropy3d
share` and `entropy3d demo --replay` read; one closed early is a replay cut short. No window
here: it is tested headless.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Sequence

from entropy3d.game.hand import GameLeft, HandSeat, Question
from entropy3d.game.records import ActivationRecord, EndRecord, TurnRecord
from entropy3d.game.replay import Replay, write_replay
from entropy3d.systems.entropy_city.state import State


class LiveGame:
    """A game of ``scene`` in which a person plays ``gangs`` (ids), dice and automatic players
    from ``seed``, ``turns`` turns (None: the scene's); the replay goes into ``folder``."""

    def __init__(self, scene: str | Path | None, gangs: Sequence[str], seed: int = 0, turns: int | None = None,
                 folder: str | Path = "."):
        from entropy3d.game.session import setup_game

        self.seats = {gang: HandSeat(gang) for gang in gangs}
        self.game, self.header = setup_game(scene, seed=seed, turns=turns, producer="geometric", hands=self.seats)
        self.folder, self.seed = Path(folder).resolve(), int(seed)
        self.records: list = []
        #: questions answered so far (a front end waits for the next question after this many)
        self.answered = 0
        self.replay_path: Path | None = None
        self.error = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._play, name="entropy3d-live-game", daemon=True)
        self._thread.start()

    def _play(self) -> None:
        try:
            for record in self.game.play():
                with self._lock:
                    self.records.append(record)
                if self._stop.is_set():  # left while the automatic players played: stop at this record
                    break
        except GameLeft:
            pass  # the window closed: the game so far is written, cut short
        except Exception as error:  # told in the window (and the state file), not lost in a thread
            self.error = f"{type(error).__name__}: {error}"
        finally:
            self.game.producer.close()
            try:
                self.replay_path = self._write()
            except OSError as error:
                self.error = self.error or f"could not write the replay: {error}"
            self._done.set()

    def _write(self) -> Path:
        stem = Path(self.header.scene).stem
        path = self.folder / f"{stem}-played-{self.seed}.jsonl"
        k = 1
        while path.exists():
            k += 1
            path = self.folder / f"{stem}-played-{self.seed}-{k}.jsonl"
        with self._lock:
            records = list(self.records)
        return write_replay(path, self.header, records)

    @property
    def done(self) -> bool:
        """The game ended (or was left) and its replay is written (or the error said)."""
        return self._done.is_set()

    @property
    def asked(self) -> int:
        """Questions asked so far, every seat's: a new one since a front end last looked is a change."""
        return sum(seat.asked for seat in self.seats.values())

    def question(self) -> tuple[str, Question] | None:
        """(gang, question) of the seat a person must answer now; None while the game plays on."""
        for gang, seat in self.seats.items():
            asked = seat.question
            if asked is not None:
                return gang, asked
        return None

    def answer(self, text: str) -> bool:
        """Answer the question that waits; False when none does."""
        asked = self.question()
        if asked is None or not self.seats[asked[0]].answer(text):
            return False
        self.answered += 1
        return True

    def close(self) -> str:
        """Leave the game: a question waiting now ends it, and so does the next record the
        automatic players make; waits for the replay and says where it is (or why it is not)."""
        self._stop.set()
        for seat in self.seats.values():
            seat.close()
        if not self._done.wait(120.0):
            return "the game did not stop within 2 minutes: no replay written"
        if self.replay_path is None:
            return f"no replay written: {self.error}"
        return f"the game so far is in {self.replay_path}" + (f" ({self.error})" if self.error else "")

    def replay(self) -> Replay:
        """The game so far as a replay (its end once it ended)."""
        with self._lock:
            records = list(self.records)
        turns = tuple(r for r in records if isinstance(r, TurnRecord))
        activations = tuple(r for r in records if isinstance(r, ActivationRecord))
        end = next((r for r in records if isinstance(r, EndRecord)), None)
        return Replay(self.header, turns, activations, end)

    def state(self) -> State:
        """The game as it stands: the waiting question's, else the last activation's end."""
        asked = self.question()
        if asked is not None:
            return asked[1].state
        with self._lock:
            for record in reversed(self.records):
                if isinstance(record, ActivationRecord):
                    return record.state_after
        return self.header.initial
