"""What a game leaves behind: one immutable record per turn start, activation and game end.

Records are what the replay file stores (one JSON object per line) and what the video draws;
``to_json`` / ``from_json`` round-trip them exactly, so a replay can be re-rendered without
re-simulating. An activation holds its actions, each the one path's triple (the checked
action, the producer's facts, the rules' events), and the states it went between. Lengths are
inches, times seconds, headings degrees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.facts import Facts
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import ModelState, State, pose_from_json, pose_to_json
from entropy3d.systems.entropy_city.transition import SKIP, Action
from entropy3d.systems.rolls import read_roll


@dataclass(frozen=True, eq=False)
class AttackRecord:
    """One attack made (an Entropy City attack along the move, any rulebook's attack action).

    kind: the weapon or the attack's kind (``pistol``, ``chicken``, ``kick``, a rulebook's
    ``shoot``). attacker, target: model ids. events: what the rules decided, in order.
    from_pose / target_pose: where both stood (None in a replay older than the poses being kept).
    visible: the share of the target the LOS engine showed the attacker (0-1), for a shot; None
    where no sight was read.
    """

    kind: str
    attacker: str
    target: str
    events: tuple[Event, ...] = ()
    from_pose: Pose | None = None
    target_pose: Pose | None = None
    visible: float | None = None

    @property
    def text(self) -> str:
        """The rules' words of its events, in order."""
        return "; ".join(e.rules for e in self.events)

    @property
    def clauses(self) -> tuple[str, ...]:
        """Every clause its events name, sorted."""
        return tuple(sorted({c for e in self.events for c in e.clauses}))

    def to_json(self) -> dict:
        data = {"kind": self.kind, "attacker": self.attacker, "target": self.target,
                "events": [e.to_json() for e in self.events], "text": self.text, "clauses": list(self.clauses)}
        if self.from_pose is not None:
            data["from_pose"] = pose_to_json(self.from_pose)
        if self.target_pose is not None:
            data["target_pose"] = pose_to_json(self.target_pose)
        if self.visible is not None:
            data["visible"] = self.visible
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> "AttackRecord":
        def pose(key: str) -> Pose | None:
            return pose_from_json(data[key]) if data.get(key) is not None else None

        return cls(data["kind"], data["attacker"], data["target"],
                   tuple(Event.from_json(e, read_roll) for e in data.get("events", ())), pose("from_pose"),
                   pose("target_pose"),
                   None if data.get("visible") is None else float(data["visible"]))


@dataclass(frozen=True, eq=False)
class ActionRecord:
    """One action of an activation.

    index: 0 or 1 (a forced move keeps the index of the action it ends). action: what was asked
    (plan, push policy). planned_path: (N, 2) the checked path, inches (empty when nothing was
    planned). facts: what the producer found riding it (None when nothing was ridden).
    events: what the rules decided. attack: the attack made (:class:`AttackRecord`; an Entropy City
    attack along the move rides in its move's record) or None.
    stress_before / stress_after: the rider's stress around it, attack included.
    ridden: the bike moved (not busted at a test before it set off). model_after: the model as
    the rules left it (where they put it, which is where the video and viewer show it).
    rulings: what the scene's other game system made of the ride (kind ``ruling``,
    :mod:`entropy3d.game.judging`); empty, and left out of the JSON, on an Entropy City table.
    """

    index: int
    action: Action
    planned_path: np.ndarray = field(repr=False)
    facts: Facts | None
    events: tuple[Event, ...] = ()
    attack: AttackRecord | None = None
    stress_before: int = 0
    stress_after: int = 0
    ridden: bool = False
    model_after: ModelState | None = None
    rulings: tuple[Event, ...] = ()

    @property
    def plan(self) -> str:
        """The canonical plan text ("" for an action with no move)."""
        return "" if self.action.plan is None else str(self.action.plan)

    @property
    def speed(self) -> int:
        return 0 if self.action.plan is None else self.action.plan.speed

    @property
    def skipped(self) -> str:
        """Why the action was skipped ("" when a move was made)."""
        return next((e.rules for e in self.events if e.kind == "skip"), "") if self.action.kind == SKIP else ""

    @property
    def trajectory(self) -> np.ndarray:
        """(K, 5) rows of t, x, y, z, heading as ridden; empty when nothing was ridden."""
        return np.asarray(self.facts.trajectory, float) if self.facts is not None and self.ridden else np.zeros((0, 5))

    @property
    def clauses(self) -> tuple[str, ...]:
        seen: list[str] = []
        for event in self.events:
            seen += [c for c in event.clauses if c not in seen]
        for clause in self.attack.clauses if self.attack is not None else ():
            if clause not in seen:
                seen.append(clause)
        return tuple(seen)

    def to_json(self) -> dict:
        data = {"index": self.index, "action": self.action.to_json(),
                "planned_path": [[round(float(x), 3), round(float(y), 3)] for x, y in self.planned_path],
                "facts": None if self.facts is None else self.facts.to_json(),
                "events": [e.to_json() for e in self.events],
                "attack": None if self.attack is None else self.attack.to_json(),
                "stress_before": self.stress_before, "stress_after": self.stress_after, "ridden": self.ridden,
                "model_after": None if self.model_after is None else self.model_after.to_json()}
        if self.rulings:
            data["rulings"] = [e.to_json() for e in self.rulings]
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> "ActionRecord":
        return cls(index=int(data["index"]), action=Action.from_json(data["action"]),
                   planned_path=np.asarray(data["planned_path"], float).reshape(-1, 2),
                   facts=None if data["facts"] is None else Facts.from_json(data["facts"]),
                   events=tuple(Event.from_json(e, read_roll) for e in data["events"]),
                   attack=None if data["attack"] is None else AttackRecord.from_json(data["attack"]),
                   stress_before=int(data["stress_before"]), stress_after=int(data["stress_after"]),
                   ridden=bool(data["ridden"]),
                   model_after=None if data.get("model_after") is None else ModelState.from_json(data["model_after"]),
                   rulings=tuple(Event.from_json(e, read_roll) for e in data.get("rulings", ())))


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
    """One model's activation: its start events, its actions and the states around it.

    events: what the rules decided as it started (a skipped activation, a recovery).
    state_before: the state when it started (poses to draw the other bikes from).
    skipped: why the whole activation was skipped ("" when it was played).
    """

    turn: int
    model_id: str
    gang: str
    events: tuple[Event, ...]
    actions: tuple[ActionRecord, ...]
    state_before: State
    state_after: State

    @property
    def skipped(self) -> str:
        if self.actions:
            return ""
        if self.events:
            return "; ".join(e.rules for e in self.events)
        return self.state_before.model(self.model_id).status

    def to_json(self) -> dict:
        return {"type": "activation", "turn": self.turn, "model": self.model_id, "gang": self.gang,
                "events": [e.to_json() for e in self.events], "actions": [a.to_json() for a in self.actions],
                "state_before": self.state_before.to_json(), "state_after": self.state_after.to_json()}

    @classmethod
    def from_json(cls, data: Mapping) -> "ActivationRecord":
        return cls(int(data["turn"]), data["model"], data["gang"],
                   tuple(Event.from_json(e, read_roll) for e in data["events"]),
                   tuple(ActionRecord.from_json(a) for a in data["actions"]),
                   State.from_json(data["state_before"]), State.from_json(data["state_after"]))


def action_events(activation: ActivationRecord, index: int) -> tuple[Event, ...]:
    """Everything a person should read during the ``index``-th record of ``activation.actions`` (its
    place in the list, not its ``ActionRecord.index``: a forced move, or gung-ho's attacks after
    the first, share their action's index), in order: the
    activation's start events (before its first action), the action's events, the scene's other
    game system's rulings on the ride and the attack's events. The video, the share page and the
    viewer all tell an action with these."""
    action = activation.actions[index]
    attack = action.attack.events if action.attack is not None else ()
    return (activation.events if index == 0 else ()) + tuple(action.events) + tuple(action.rulings) + attack


@dataclass(frozen=True, eq=False)
class EndRecord:
    """The end of the game: why it ended, the score and the winner ("" for a draw)."""

    reason: str
    turns_played: int
    score: Mapping[str, int]
    winner: str
    state: State

    def to_json(self) -> dict:
        return {"type": "end", "reason": self.reason, "turns_played": self.turns_played,
                "score": dict(sorted(self.score.items())), "winner": self.winner, "state": self.state.to_json()}

    @classmethod
    def from_json(cls, data: Mapping) -> "EndRecord":
        return cls(data["reason"], int(data["turns_played"]), dict(data["score"]), data["winner"],
                   State.from_json(data["state"]))
