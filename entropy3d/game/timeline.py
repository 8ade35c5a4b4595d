"""What the viewer shows at each moment, and the overlays it can draw: pure Python and numpy, no
window, so it is tested headless.

A :class:`Timeline` walks a replay action by action (:func:`is_step`) (``next``/``previous``/``advance``) and says
where every bike stands; without a replay it holds the scene's starting poses. Overlay helpers
return polylines in table inches: turning templates (EC-TMPL-1) and an inch ruler.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropy3d.game.records import action_events
from entropy3d.game.replay import Replay
from entropy3d.geometry import Pose, arc_points, pose_at
from entropy3d.systems.entropy_city.planner import template_radius
from entropy3d.systems.entropy_city.state import State

#: the actions a timeline passes over: an activation's start and end (bookkeeping) and an action
#: the model had to pass (remounting after a bust, a stopped activation)
PASSED = ("activate", "end", "skip")


def is_step(action) -> bool:
    """Whether a replay's action (an :class:`~entropy3d.game.records.ActionRecord`) is a step of
    the timeline: every action a model took, ridden or not (a shot, a tag, a bust before the bike
    moved), and any ride (a move the rules forced on it)."""
    return action.action.kind not in PASSED or bool(len(action.trajectory))


def taken_out_by(activation, index: int) -> tuple[str, ...]:
    """The other models action ``index`` of ``activation`` (an
    :class:`~entropy3d.game.records.ActivationRecord`) takes out of the game: those in play when the
    activation started and out when it ended, each at the first of its actions whose events name
    it (as the model, the piece or the target: a shot, a tag), else at its last action."""
    before, after = activation.state_before, activation.state_after
    gone = [m for m, model in before.models.items()
            if m != activation.model_id and model.in_play and m in after.models and not after.model(m).in_play]
    last = len(activation.actions) - 1

    def named(model_id: str, j: int) -> bool:
        return any(model_id in (e.model, e.piece, e.figures.get("target")) for e in action_events(activation, j))

    return tuple(sorted(m for m in gone if next((j for j in range(last + 1) if named(m, j)), last) == index))


@dataclass(frozen=True)
class Step:
    """One step of a replay (an action :func:`is_step` keeps): indexes into ``replay.activations``
    and its actions."""

    activation: int
    action: int


class Timeline:
    """A position in a replay: the current step and the time ``t`` (seconds) into its ride."""

    def __init__(self, replay: Replay | None, start: State):
        self.replay = replay
        self.start = start
        self.steps: list[Step] = []
        if replay is not None:
            for k, activation in enumerate(replay.activations):
                for j, action in enumerate(activation.actions):
                    if is_step(action):
                        self.steps.append(Step(k, j))
        self.index = -1  # -1: before the first action (the starting poses)
        self.t = 0.0

    @property
    def step(self) -> Step | None:
        return self.steps[self.index] if 0 <= self.index < len(self.steps) else None

    def duration(self) -> float:
        step = self.step
        if step is None:
            return 0.0
        trajectory = self.replay.activations[step.activation].actions[step.action].trajectory
        return float(trajectory[-1, 0]) if len(trajectory) else 0.0

    def next(self) -> None:
        """Jump to the start of the next action (stays on the last one)."""
        if self.index < len(self.steps) - 1:
            self.index += 1
            self.t = 0.0

    def previous(self) -> None:
        """Jump to the start of the previous action (or back to the starting poses)."""
        if self.index >= 0:
            self.index -= 1
            self.t = 0.0

    def advance(self, dt: float) -> bool:
        """Play on by ``dt`` seconds, rolling into the next action; False at the very end."""
        if self.index < 0:
            self.next()
            return bool(self.steps)
        self.t += dt
        if self.t <= self.duration():
            return True
        if self.index < len(self.steps) - 1:
            self.next()
            return True
        self.t = self.duration()
        return False

    def poses(self) -> tuple[dict[str, Pose], set[str], str | None]:
        """(pose of every bike in play, ids of bikes to hide, the active bike's id or None)."""
        step = self.step
        if step is None:
            state = self.start
            return ({b.id: b.pose for b in state.models.values() if b.in_play},
                    {b.id for b in state.models.values() if not b.in_play}, None)
        activation = self.replay.activations[step.activation]
        state = activation.state_before
        poses = {b.id: b.pose for b in state.models.values() if b.in_play}
        gone = {m for j in range(step.action) for m in taken_out_by(activation, j)}  # by its earlier actions
        for model_id in gone:
            poses.pop(model_id, None)
        for earlier in activation.actions[:step.action]:
            if earlier.model_after is not None:
                poses[activation.model_id] = earlier.model_after.pose
        action = activation.actions[step.action]
        if len(action.trajectory):  # else it acts where its earlier actions left it (a shot, a tag)
            x, y, z, h = pose_at(action.trajectory, self.t)
            poses[activation.model_id] = Pose(float(x), float(y), float(h) % 360.0, float(z))
        hidden = {b.id for b in state.models.values() if not b.in_play} | gone
        return poses, hidden, activation.model_id

    def state(self) -> State:
        """The game state the current step starts from (the scene's start before the first)."""
        step = self.step
        return self.start if step is None else self.replay.activations[step.activation].state_before

    def index_at(self, fraction: float) -> int:
        """The action ``fraction`` (0-1) of the way along the replay, to the nearest."""
        return int(round(float(np.clip(fraction, 0.0, 1.0)) * max(len(self.steps) - 1, 0)))

    def seek(self, fraction: float) -> None:
        """Jump to the start of the action ``fraction`` (0-1) of the way along the replay."""
        if self.steps:
            self.index = self.index_at(fraction)
            self.t = 0.0

    def caption(self, names=None) -> str:
        """The moment in words: the action and its last three events so far. ``names`` (a
        :class:`~entropy3d.systems.words.Names`: the viewer's) names the model and tells each
        event in its rulebook's words with its clauses (:func:`~entropy3d.systems.words.told`);
        None: the model's id and the events' own text."""
        step = self.step
        if step is None:
            return "starting positions" + (f" - {len(self.steps)} actions: n to step, space to play"
                                           if self.steps else "")
        activation = self.replay.activations[step.activation]
        action = activation.actions[step.action]
        what = action.plan or action.action.kind.replace("_", " ")  # a shot, a tag: its kind
        who = activation.model_id if names is None else names.rider(activation.model_id)
        lines = [f"turn {activation.turn}, {who}, action {action.index + 1}: {what}  "
                 f"({self.index + 1}/{len(self.steps)}, t {self.t:.2f}s)"]
        shown = [e for e in action_events(activation, step.action) if e.t_s <= self.t or e.kind in ("move", "test")]
        if names is None:
            return "\n".join(lines + [e.text for e in shown][-3:])
        from entropy3d.systems.words import told

        lines += [told(e, names) for e in shown][-3:]
        return "\n".join(lines)


def template_polylines(pose: Pose, ruleset, lift: float = 0.1) -> list[tuple[str, np.ndarray]]:
    """Every turning template (tight, medium, wide; left and right) laid at ``pose`` as
    (name, (N, 3) points in inches): full 90-degree arcs of the rules' arc lengths (EC-TMPL-1)."""
    lines = []
    for template in ("tight", "medium", "wide"):
        length = float(ruleset.data(f"turn_templates.{template}.arc_length_in"))
        radius = template_radius(template, ruleset)
        for left in (True, False):
            points, _ = arc_points(Pose(pose.x, pose.y, pose.facing_deg), radius, length, left, spacing=0.2)
            lines.append((f"{template}-{'left' if left else 'right'}",
                          np.column_stack([points, np.full(len(points), pose.z + lift)])))
    return lines


def ruler_polyline(pose: Pose, length_in: int = 12, tick_in: float = 0.25, lift: float = 0.1) -> list[np.ndarray]:
    """An inch ruler from ``pose`` straight ahead: the rule itself and a tick across it every
    inch (longer every 6"), each as (2, 3) points in inches."""
    ahead, side = pose.forward, pose.left
    start = pose.xy
    z = pose.z + lift
    lines = [np.array([[*start, z], [*(start + ahead * length_in), z]])]
    for inch in range(length_in + 1):
        half = tick_in * (2.0 if inch % 6 == 0 else 1.0)
        centre = start + ahead * inch
        lines.append(np.array([[*(centre - side * half), z], [*(centre + side * half), z]]))
    return lines
