"""A duel: two kinds of automatic player (:mod:`entropy3d.game.player_kinds`) set against each
other over many games with sides swapped, a measure of play strength (``entropy3d duel``, issue 50).

Game k plays seed ``seed + k // 2``; player A plays the scene's first gang when k is even, its
second when k is odd, B the other (a third gang, such as the Law, plays ``basic``). Each seed is
so played once from each side: the dice and the table's luck fall the same for both players, and
two equal players give A exactly half of each pair (a game of a pair is then the other game
move for move). A's score counts a win 1 and a draw a half; its rate comes with the 95% Wilson
interval of the sweep report (:func:`entropy3d.sweep.report.wilson`) over the games played, which
treats the games as independent and so is, if anything, wider than the paired games need.

The games run on Dask like a sweep's (:func:`entropy3d.sweep.run.dask_client`), a few in flight
at once (:func:`entropy3d.sweep.run.in_flight`); nothing is written to disk.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from entropy3d.sweep.report import wilson


@dataclass(frozen=True)
class DuelJob:
    """One game of a duel: the scene file, seed, turns, producer, and which kind plays each gang
    (``kinds``: (gang, kind) pairs in the scene's order); ``side_a``: the gang player A plays."""

    scene: str
    seed: int
    turns: int
    producer: str
    kinds: tuple[tuple[str, str], ...]
    side_a: str


@dataclass(frozen=True)
class DuelGame:
    """What a worker sends back of one duel game: its job, who its replay header says played
    (``players``, ``kinds:GANG=KIND,...``), the winning gang ('' for a draw) and the seconds it took."""

    job: DuelJob
    players: str
    winner: str
    seconds: float

    @property
    def score_a(self) -> float:
        """Player A's score in this game: 1 for a win, 1/2 for a draw, 0 for a loss."""
        return 0.5 if not self.winner else float(self.winner == self.job.side_a)


def duel_jobs(scene: str, gangs: Sequence[str], player_a: str, player_b: str, games: int, seed: int, turns: int,
              producer: str) -> list[DuelJob]:
    """The ``games`` games of a duel of ``player_a`` against ``player_b`` on ``scene`` (whose gangs
    are ``gangs``, in the scene's order; at least two): see the module's docstring."""
    if len(gangs) < 2:
        raise ValueError(f"{scene} has {len(gangs)} gang(s); a duel needs two")
    jobs = []
    for k in range(games):
        first, second = (player_a, player_b) if k % 2 == 0 else (player_b, player_a)
        kinds = {gangs[0]: first, gangs[1]: second, **{gang: "basic" for gang in gangs[2:]}}
        jobs.append(DuelJob(str(scene), seed + k // 2, turns, producer, tuple(kinds.items()), gangs[k % 2]))
    return jobs


def play_duel_job(job: DuelJob) -> DuelGame:
    """Play one duel game headless (on a worker); physics rides as in a sweep
    (:func:`~entropy3d.sweep.run.play_job`)."""
    import multiprocessing

    from entropy3d.game.session import play_game

    started = time.perf_counter()
    replay = play_game(job.scene, seed=job.seed, turns=job.turns, producer=job.producer, kinds=dict(job.kinds),
                       physics_in_process=multiprocessing.current_process().daemon)
    return DuelGame(job, replay.header.players, replay.end.winner if replay.end is not None else "",
                    time.perf_counter() - started)


def run_duel(jobs: Iterable[DuelJob], client, on_result: Callable[[DuelGame], None] | None = None) -> list[DuelGame]:
    """Play ``jobs`` on ``client``'s cluster, a window of them in flight at once; returns the
    games in the order of the jobs. A game that fails stops the duel with its error (a duel with a
    game left out would not be the sides-swapped count it says)."""
    from distributed import as_completed

    from entropy3d.sweep.run import in_flight

    todo: Iterator[tuple[int, DuelJob]] = iter(enumerate(jobs))
    done: dict[int, DuelGame] = {}
    futures: dict = {}
    running = as_completed()

    def submit_more() -> None:
        for index, job in itertools.islice(todo, max(0, in_flight(client) - len(futures))):
            future = client.submit(play_duel_job, job, pure=False)
            futures[future] = index
            running.add(future)

    try:
        submit_more()
        for future in running:
            index = futures.pop(future)
            done[index] = future.result()
            future.release()
            if on_result is not None:
                on_result(done[index])
            submit_more()
    finally:
        if futures:
            client.cancel(list(futures))
    return [done[index] for index in sorted(done)]


@dataclass(frozen=True)
class DuelTally:
    """Player A's results over a duel's games."""

    wins: int
    draws: int
    losses: int

    @classmethod
    def of(cls, games: Iterable[DuelGame]) -> "DuelTally":
        scores = [game.score_a for game in games]
        return cls(scores.count(1.0), scores.count(0.5), scores.count(0.0))

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> tuple[float, float, float]:
        """(rate, low, high): A's score per game (a draw counts half) and its 95% Wilson interval."""
        return wilson(self.wins + self.draws / 2, self.games)

    def line(self, player_a: str, player_b: str) -> str:
        """e.g. 'basic (A) v basic (B): A won 3, drew 0, lost 1 of 4 games: 75% (95% Wilson interval
        30%-95%; a draw counts half)'."""
        rate, low, high = self.rate
        return (f"{player_a} (A) v {player_b} (B): A won {self.wins}, drew {self.draws}, lost {self.losses} of "
                f"{self.games} game{'s' if self.games != 1 else ''}: {rate:.0%} (95% Wilson interval "
                f"{low:.0%}-{high:.0%}; a draw counts half)")


__all__ = ["DuelGame", "DuelJob", "DuelTally", "duel_jobs", "play_duel_job", "run_duel"]
