"""What a game leaves behind: one immutable record per turn start, activation and game end.

Records are what the replay file stores (one JSON object per line) and what the video draws;
``to_json`` / ``from_json`` round-trip them exactly, so a replay can be re-rendered without
re-simulating. Lengths are inches, times seconds, headings degrees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from entropy3d.game.ride import RideEvent, roll_to_json  # noqa: F401  (re-exported)
from entropy3d.game.state import MatchState


def trajectory_to_json(trajectory: np.ndarray) -> list[list[float]]:
    """Trajectory rows rounded to 1/1000 s, inch and degree (JSON stays small and exact)."""
    return [[round(float(v), 3) for v in row] for row in np.asarray(trajectory, float)]


@dataclass(frozen=True, eq=False)
class ActionRecord:
    """One action of an activation.

    index: 0 or 1. plan: the canonical plan text ("" when the action was skipped).
    skipped: why the action was skipped ("" when ridden). speed: the declared speed.
    planned_path: (N, 2) the intended path, inches. trajectory: (K, 5) t, x, y, z, heading as
    ridden. stress_before / stress_after: the rider's stress. tests: the tests rolled (dicts).
    events: what happened on the ride. attack: the attack made after the move (dict) or None.
    clauses: rule clauses applied. notes: one-line texts for the HUD.
    """

    index: int
    plan: str
    skipped: str
    speed: int
    planned_path: np.ndarray = field(repr=False)
    trajectory: np.ndarray = field(repr=False)
    stress_before: int = 0
    stress_after: int = 0
    tests: tuple[Mapping[str, Any], ...] = ()
    events: tuple[RideEvent, ...] = ()
    attack: Mapping[str, Any] | None = None
    clauses: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"index": self.index, "plan": self.plan, "skipped": self.skipped, "speed": self.speed,
                "planned_path": [[round(float(x), 3), round(float(y), 3)] for x, y in self.planned_path],
                "trajectory": trajectory_to_json(self.trajectory),
                "stress_before": self.stress_before, "stress_after": self.stress_after,
                "tests": [dict(t) for t in self.tests], "events": [e.to_json() for e in self.events],
                "attack": None if self.attack is None else dict(self.attack),
                "clauses": list(self.clauses), "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: Mapping) -> "ActionRecord":
        return cls(index=int(data["index"]), plan=data["plan"], skipped=data["skipped"], speed=int(data["speed"]),
                   planned_path=np.asarray(data["planned_path"], float).reshape(-1, 2),
                   trajectory=np.asarray(data["trajectory"], float).reshape(-1, 5),
                   stress_before=int(data["stress_before"]), stress_after=int(data["stress_after"]),
                   tests=tuple(data["tests"]), events=tuple(RideEvent.from_json(e) for e in data["events"]),
                   attack=data["attack"], clauses=tuple(data["clauses"]), notes=tuple(data["notes"]))


@dataclass(frozen=True, eq=False)
class TurnRecord:
    """The start of a turn: the roll-off (EC-TURN-1) and the activation order (EC-TURN-2)."""

    turn: int
    roll_off: tuple[tuple[int, int], ...]
    first_player: str
    order: tuple[str, ...]

    def to_json(self) -> dict:
        return {"type": "turn", "turn": self.turn, "roll_off": [list(r) for r in self.roll_off],
                "first_player": self.first_player, "order": list(self.order)}

    @classmethod
    def from_json(cls, data: Mapping) -> "TurnRecord":
        return cls(int(data["turn"]), tuple(tuple(r) for r in data["roll_off"]), data["first_player"],
                   tuple(data["order"]))


@dataclass(frozen=True, eq=False)
class ActivationRecord:
    """One model's activation: its actions and the game state after it.

    state_before: the state when it started (poses to draw the other bikes from).
    skipped: why the whole activation was skipped ("" when it was played).
    """

    turn: int
    model_id: str
    gang: str
    actions: tuple[ActionRecord, ...]
    skipped: str
    state_before: MatchState
    state_after: MatchState

    def to_json(self) -> dict:
        return {"type": "activation", "turn": self.turn, "model": self.model_id, "gang": self.gang,
                "skipped": self.skipped, "actions": [a.to_json() for a in self.actions],
                "state_before": self.state_before.to_json(), "state_after": self.state_after.to_json()}

    @classmethod
    def from_json(cls, data: Mapping) -> "ActivationRecord":
        return cls(int(data["turn"]), data["model"], data["gang"],
                   tuple(ActionRecord.from_json(a) for a in data["actions"]), data["skipped"],
                   MatchState.from_json(data["state_before"]), MatchState.from_json(data["state_after"]))


@dataclass(frozen=True, eq=False)
class EndRecord:
    """The end of the game: why it ended, the score and the winner ("" for a draw)."""

    reason: str
    turns_played: int
    score: Mapping[str, int]
    winner: str
    state: MatchState

    def to_json(self) -> dict:
        return {"type": "end", "reason": self.reason, "turns_played": self.turns_played,
                "score": dict(sorted(self.score.items())), "winner": self.winner, "state": self.state.to_json()}

    @classmethod
    def from_json(cls, data: Mapping) -> "EndRecord":
        return cls(data["reason"], int(data["turns_played"]), dict(data["score"]), data["winner"],
                   MatchState.from_json(data["state"]))
