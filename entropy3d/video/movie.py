"""A replay rendered headless into a video: title card, every ridden action, a HUD, the result.

Only the replay is read: trajectories, dice and states were recorded when the game was played,
so rendering never runs physics. Frames come from one reusable
:class:`~entropy3d.render.renderer.TableRenderer` (Panda3D offscreen; this package never imports
panda3d itself), the HUD is drawn with Pillow, MP4 is H.264 through the ffmpeg that ships in
imageio-ffmpeg, GIF is written by Pillow. Output goes to a temporary file beside the target and
is renamed into place only when complete.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from entropy3d.game.replay import Replay
from entropy3d.geometry import Pose
from entropy3d.outputs import AtomicFile
from entropy3d.rules.state import State
from entropy3d.video import hud
from entropy3d.video.director import (
    CameraRig,
    eye_for,
    occluder_mesh,
    overview_eye,
    plan_camera,
    pose_at,
)

FORMATS = (".mp4", ".gif")
MISSION_NAMES = {"turf_war": "Turf War", "lovers_point_brawl": "Lovers Point Brawl"}


@dataclass(frozen=True)
class VideoOptions:
    """How a replay becomes a video.

    size: (width, height) pixels. fps: frames per second of the MP4 (a GIF takes every
    ``fps // gif_fps``-th frame). title_s, turn_s, hold_s, end_s: seconds of the title card, each
    turn's card, the pause after each action and the final card. max_action_s: longest a ride is
    shown (depicted seconds play 1:1 up to this). supersample: anti-aliasing factor of the
    software renderer (1 is fast, 2 is smooth and ~8x slower). backend: render backend.
    """

    size: tuple[int, int] = (1280, 720)
    fps: int = 30
    gif_fps: int = 10
    title_s: float = 2.5
    turn_s: float = 1.0
    hold_s: float = 0.6
    end_s: float = 3.0
    max_action_s: float = 2.0
    supersample: int = 1
    backend: str | None = None


@dataclass(frozen=True)
class Segment:
    """A stretch of the video: kind (title, turn, action, end), how many frames, and for an
    action the activation and action index in the replay."""

    kind: str
    frames: int
    activation: int = -1
    action: int = -1
    turn: int = 0


def plan_segments(replay: Replay, options: VideoOptions) -> list[Segment]:
    """Every segment of the video in order (their frame counts sum to the video's length)."""
    fps = options.fps
    segments = [Segment("title", round(options.title_s * fps))]
    turns = {t.turn: t for t in replay.turns}
    shown_turns: set[int] = set()
    for k, activation in enumerate(replay.activations):
        if activation.turn not in shown_turns and activation.turn in turns:
            segments.append(Segment("turn", round(options.turn_s * fps), turn=activation.turn))
            shown_turns.add(activation.turn)
        for j, action in enumerate(activation.actions):
            if not action.plan or len(action.trajectory) == 0:
                continue
            ride_s = min(float(action.trajectory[-1, 0]), options.max_action_s)
            segments.append(Segment("action", max(1, math.ceil(ride_s * fps)) + round(options.hold_s * fps),
                                    k, j, activation.turn))
    segments.append(Segment("end", round(options.end_s * fps)))
    return segments


def count_frames(replay: Replay, options: VideoOptions) -> int:
    return sum(s.frames for s in plan_segments(replay, options))


def video_duration_s(replay: Replay, options: VideoOptions) -> float:
    """Seconds of video the replay makes."""
    return count_frames(replay, options) / options.fps


class ReplayFilm:
    """Draws the frames of one replay; iterate :meth:`frames` for (H, W, 3) uint8 images."""

    def __init__(self, replay: Replay, options: VideoOptions = VideoOptions(), table=None, geometry=None):
        from entropy3d.render.renderer import TableRenderer
        from entropy3d.scene import load_scene
        from entropy3d.scene.build import build_table_geometry

        self.replay = replay
        self.options = options
        self.table = table if table is not None else load_scene(replay.header.scene)
        self.geometry = geometry if geometry is not None else build_table_geometry(self.table)
        self.renderer = TableRenderer(self.table, options.size, geometry=self.geometry, title="",
                                      supersample=options.supersample, backend=options.backend)
        self.occluders = occluder_mesh(self.geometry)
        self.names = {m.id: (m.rider.name or m.id) for m in self.table.models}
        self.gang_names = {g: spec.name for g, spec in self.table.spec.gangs.items()}
        self.colours = {g: spec.colour for g, spec in self.table.spec.gangs.items()}
        eye, look = overview_eye(self.table.width, self.table.depth)
        self.rig = CameraRig(eye, look)
        self.segments = plan_segments(replay, options)

    def close(self) -> None:
        self.renderer.close()

    # -- scene state ----------------------------------------------------------------------------

    def show_state(self, state: State) -> None:
        """Stand every bike of ``state`` where it is and put scenery where it lies."""
        for bike in state.models.values():
            self.renderer.show_model(bike.id, bike.in_play)
            if bike.in_play:
                self.renderer.place_model(bike.id, bike.pose)
        for piece_id, node in self.renderer.piece_nodes.items():
            move = state.scenery.get(piece_id)
            if move is None:
                continue
            if move.removed:
                node.hide()
                continue
            node.show()
            centre = self.geometry.by_id(piece_id).mesh.bounds.mean(axis=0)
            angle = math.radians(move.turn_deg)
            matrix = np.eye(4)
            matrix[:2, :2] = [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
            matrix[:2, 3] = centre[:2] - matrix[:2, :2] @ centre[:2] + np.array([move.dx, move.dy])
            self.renderer.set_piece_transform(piece_id, matrix)

    def _look(self, eye, look, fov: float = 50.0) -> None:
        from entropy3d.render.cameras import CameraView

        self.renderer.set_camera(CameraView(tuple(map(float, eye)), tuple(map(float, look)), fov))

    def _score(self, state: State) -> tuple[tuple[str, str, int], ...]:
        return tuple((self.gang_names.get(g, g), self.colours.get(g, "#ffffff"), int(state.score.get(g, 0)))
                     for g in self.table.spec.gangs)

    # -- frames ---------------------------------------------------------------------------------

    def frames(self) -> Iterator[np.ndarray]:
        state = self.replay.header.initial
        self.show_state(state)
        shown = -1
        for segment in self.segments:
            if segment.kind == "title":
                yield from self._title(segment, state)
            elif segment.kind == "turn":
                state = self._state_at_turn(segment.turn, state)
                self.show_state(state)
                yield from self._turn_card(segment, state)
            elif segment.kind == "action":
                activation = self.replay.activations[segment.activation]
                if segment.activation != shown:
                    shown = segment.activation
                    self.show_state(activation.state_before)
                yield from self._action(segment)
                state = self._after_action(segment)
            else:
                final = self.replay.end.state if self.replay.end is not None else state
                self.show_state(final)
                yield from self._end(segment, final)

    def _state_at_turn(self, turn: int, fallback: State) -> State:
        for activation in self.replay.activations:
            if activation.turn == turn:
                return activation.state_before
        return fallback

    def _overview_frames(self, count: int, orbit_deg: float) -> Iterator[np.ndarray]:
        width, depth = self.table.width, self.table.depth
        eye, look = overview_eye(width, depth)
        centre = np.array([width / 2, depth / 2, 0.0])
        for i in range(count):
            angle = math.radians(orbit_deg * (i / max(1, count - 1) - 0.5))
            rotation = np.array([[math.cos(angle), -math.sin(angle), 0], [math.sin(angle), math.cos(angle), 0],
                                 [0, 0, 1]])
            self._look(*self.rig.cut(centre + rotation @ (eye - centre), look))
            yield self.renderer.render_to_array()

    def _title(self, segment: Segment, state: State) -> Iterator[np.ndarray]:
        header = self.replay.header
        gangs = list(self.table.spec.gangs)
        lines = (" vs ".join(self.gang_names[g] for g in gangs),
                 f"{MISSION_NAMES.get(self.table.spec.mission, self.table.spec.mission)}  -  "
                 f"{header.turns} turns  -  seed {header.seed}",
                 "Entropy City  |  entropy3d")
        for frame in self._overview_frames(segment.frames, 24.0):
            yield hud.draw_card(frame, header.scene_name, lines)

    def _turn_card(self, segment: Segment, state: State) -> Iterator[np.ndarray]:
        turn = next(t for t in self.replay.turns if t.turn == segment.turn)
        first = self.gang_names.get(turn.first_player, turn.first_player)
        a, b = turn.roll_off[-1]
        lines = (f"roll-off {a} v {b}: {first} chooses to go first (EC-TURN-1)",
                 "order: " + ", ".join(self.names.get(m, m) for m in turn.order[:8]))
        for frame in self._overview_frames(segment.frames, 6.0):
            yield hud.draw_card(frame, f"Turn {turn.turn} of {self.replay.header.turns}", lines, darken=0.4)

    def _action(self, segment: Segment) -> Iterator[np.ndarray]:
        activation = self.replay.activations[segment.activation]
        action = activation.actions[segment.action]
        trajectory = action.trajectory
        bike = activation.state_before.model(activation.model_id)
        colour = self.colours.get(bike.gang, "#ffffff")
        rise = float(trajectory[:, 3].max() - trajectory[0, 3])
        jumped = rise > 0.5 or any(e.kind in ("jump", "landing") for e in action.events)
        plan = plan_camera(self.occluders, trajectory, "chase" if jumped else "drone",
                           (self.table.width, self.table.depth))
        fps = self.options.fps
        ride_s = min(float(trajectory[-1, 0]), self.options.max_action_s)
        ride_frames = max(1, math.ceil(ride_s * fps))
        start = pose_at(trajectory, 0.0)
        self._look(*self.rig.cut(eye_for(start[:3], start[3], plan), start[:3] + [0, 0, 0.5]), plan.fov_deg)
        if len(action.planned_path):
            z = float(trajectory[0, 3]) + 0.05
            self.renderer.add_polyline(np.column_stack([action.planned_path, np.full(len(action.planned_path), z)]),
                                       colour="#ffd31a", width=0.06, name="planned")
        order = [a.model_id for a in self.replay.activations if a.turn == activation.turn]
        heading = (f"Turn {activation.turn}/{self.replay.header.turns}  -  {self.names.get(bike.id, bike.id)} "
                   f"({order.index(activation.model_id) + 1}/{len(order)}), action {action.index + 1}")
        for i in range(segment.frames):
            t = min(i / fps, ride_s) if i < ride_frames else float(trajectory[-1, 0])
            x, y, z, h = pose_at(trajectory, t)
            if i >= ride_frames and action.model_after is not None:  # where the rules put it
                x, y, z, h = (action.model_after.pose.x, action.model_after.pose.y, action.model_after.pose.z,
                              action.model_after.pose.facing_deg)
            self.renderer.place_model(bike.id, Pose(float(x), float(y), float(h) % 360.0, float(z)))
            done = trajectory[trajectory[:, 0] <= t]
            if len(done) >= 2 and i % 2 == 0 and i < ride_frames + 2:
                trail = done[:: max(1, len(done) // 30)]
                trail = np.vstack([trail, done[-1:]]) if trail[-1, 0] != done[-1, 0] else trail
                self.renderer.add_polyline(trail[:, 1:4] + [0, 0, 0.08], colour=colour, width=0.1, name="trail")
            target = np.array([x, y, z + 0.5])
            self._look(*self.rig.follow(eye_for(target, h, plan), target), plan.fov_deg)
            frame = self.renderer.render_to_array()
            holding = i >= ride_frames
            yield hud.draw_hud(frame, self._hud(activation, action, bike, heading, t, holding))
        self.renderer.clear_overlays()

    def _hud(self, activation, action, bike, heading: str, t: float, holding: bool) -> hud.HudInfo:
        state = activation.state_after if holding and action is activation.actions[-1] else activation.state_before
        now = state.model(bike.id)
        stress = action.stress_after if holding else action.stress_before
        lines = [e.text for e in action.events if e.kind in ("move", "test") or e.t_s <= t]
        if holding and action.attack is not None:
            lines.append(action.attack["text"])
        line = hud.BikeLine(bike.id, self.names.get(bike.id, bike.id), self.colours.get(bike.gang, "#ffffff"),
                            action.speed, stress, bike.max_stress, now.wounds,
                            now.status if holding else ("in the air" if bike.air is not None else "riding"))
        score = self._score(activation.state_after if holding else activation.state_before)
        return hud.HudInfo(heading, line, action.plan, tuple(lines), score)

    def _after_action(self, segment: Segment) -> State:
        activation = self.replay.activations[segment.activation]
        action = activation.actions[segment.action]
        last = action is activation.actions[-1] or all(
            not a.plan or len(a.trajectory) == 0 for a in activation.actions[segment.action + 1:])
        if last:
            self.show_state(activation.state_after)
            return activation.state_after
        if action.model_after is not None:
            self.renderer.place_model(activation.model_id, action.model_after.pose)
        return activation.state_before

    def _end(self, segment: Segment, state: State) -> Iterator[np.ndarray]:
        end = self.replay.end
        lines = tuple(f"{name}: {points:+d} VP" for name, _, points in self._score(state))
        colours = tuple(colour for _, colour, _ in self._score(state))
        winner = self.gang_names.get(end.winner, end.winner) if end is not None and end.winner else ""
        title = f"{winner} win" if winner else "A draw"
        reason = (end.reason,) if end is not None else ()
        for frame in self._overview_frames(segment.frames, 18.0):
            yield hud.draw_card(frame, title, lines + reason, colours)


def render_video(replay: Replay, output: str | Path, options: VideoOptions = VideoOptions(), *,
                 progress: Callable[[int, int], None] | None = None, table=None, geometry=None) -> Path:
    """Render ``replay`` into ``output`` (.mp4 or .gif) atomically; returns the path.

    progress: called with (frames done, frames in total) after every frame.
    """
    output = Path(output)
    if output.suffix.lower() not in FORMATS:
        raise ValueError(f"video output must end in {' or '.join(FORMATS)}, got {output.name!r}")
    film = ReplayFilm(replay, options, table, geometry)
    total = sum(s.frames for s in film.segments)
    try:
        with AtomicFile(output) as pending:
            if output.suffix.lower() == ".mp4":
                _write_mp4(film, pending.temporary, options, total, progress)
            else:
                _write_gif(film, pending.temporary, options, total, progress)
    finally:
        film.close()
    return output


def _write_mp4(film: ReplayFilm, path: Path, options: VideoOptions, total: int, progress) -> None:
    import imageio_ffmpeg

    width, height = options.size
    writer = imageio_ffmpeg.write_frames(str(path), (width, height), fps=options.fps, codec="libx264",
                                         pix_fmt_out="yuv420p", quality=7, macro_block_size=1,
                                         ffmpeg_log_level="error", output_params=["-movflags", "+faststart"])
    writer.send(None)
    try:
        for k, frame in enumerate(film.frames(), start=1):
            writer.send(np.ascontiguousarray(frame))
            if progress is not None:
                progress(k, total)
    finally:
        writer.close()


def _write_gif(film: ReplayFilm, path: Path, options: VideoOptions, total: int, progress) -> None:
    from PIL import Image

    step = max(1, round(options.fps / options.gif_fps))
    images = []
    for k, frame in enumerate(film.frames(), start=1):
        if (k - 1) % step == 0:
            images.append(Image.fromarray(frame).quantize(colors=128, method=Image.Quantize.MEDIANCUT))
        if progress is not None:
            progress(k, total)
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], loop=0,
                   duration=round(1000 * step / options.fps), disposal=1)
