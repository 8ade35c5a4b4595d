"""A replay rendered headless into a video: title card, every ridden action, a HUD, the result.

Only the replay is read: trajectories, dice and states were recorded when the game was played,
so rendering never runs physics. Frames come from one reusable
:class:`~entropy3d.render.renderer.TableRenderer` (Panda3D offscreen; this package never imports
panda3d itself), the HUD is drawn with Pillow, MP4 is H.264 through the ffmpeg that ships in
imageio-ffmpeg, GIF is written by Pillow. Output goes to a temporary file beside the target and
is renamed into place only when complete.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Iterator, Mapping

import numpy as np

from entropy3d.game.knocks import knocks_in
from entropy3d.game.records import action_events
from entropy3d.game.replay import Replay, scene_file
from entropy3d.geometry import Pose, pose_at
from entropy3d.render.cameras import occluder_mesh, rider_hidden
from entropy3d.systems import find_system, played_system, words
from entropy3d.systems.entropy_city.law import scoring_gangs
from entropy3d.systems.entropy_city.state import State
from entropy3d.video import hud
from entropy3d.video.director import (
    CameraRig,
    craned_up,
    drifted,
    eye_for,
    kept_in_height,
    kept_in_width,
    overview_eye,
    plan_camera,
    shot_fails,
)
from entropy3d.video.ending import result_card
from entropy3d.video.fall import FALL_RATE, FALL_ZOOM, fall_of, falling_frames, playback_frames, tumble_matrix
from entropy3d.video.fight import TAKEDOWN_AFTER, draw_fight, fight_of, stage_fight
from entropy3d.video.film_hud import FilmHud
from entropy3d.video.jumpshot import ProfileInset, flight_window, inset_box, ride_clock
from entropy3d.video.knocks import knock_matrix, spot_matrix
from entropy3d.video.npc_tags import draw_npc_tags
from entropy3d.video.pacing import QUIET_RATE, SystemPace, decisive, system_pace
from entropy3d.video.reveals import reveal_framing, show_revealed

FORMATS = (".mp4", ".gif")


#: reading speed of each --pace: characters a second, the shortest an action is held, the playback
#: rate of a key moment's ride (0.5 is half speed), the extra hold after it and the playback rate
#: of a jump's flight (take-off to touchdown)
PACES = {"fast": {"read_cps": 20.0, "min_read_s": 1.2, "key_rate": 1.0, "key_hold_s": 0.4, "flight_rate": 0.5},
         "normal": {"read_cps": 12.0, "min_read_s": 2.0, "key_rate": 0.5, "key_hold_s": 1.0, "flight_rate": 0.25},
         "slow": {"read_cps": 8.0, "min_read_s": 3.0, "key_rate": 0.35, "key_hold_s": 1.8, "flight_rate": 0.2}}
#: a flight at least this long (seconds) is filmed as a jump even when the rules saw none (a drop)
FILMED_FLIGHT_S = 0.3
#: the band of the frame (bottom, top in -1..1 of its height) a jump is filmed in: under the profile
#: inset, over the HUD's bottom panels
INSET_CLEAR_BAND = (-0.75, 0.3)
#: elevations (degrees) tried in turn for a jump's side camera: the first whose shot shows the table
SIDE_ELEVATIONS_DEG = (22.0, 30.0, 38.0, 48.0, 60.0)
#: pixels the profile inset is drawn at before it is scaled into the frame
INSET_DRAWN_PX = (700, 240)


@dataclass(frozen=True)
class VideoOptions:
    """How a replay becomes a video.

    size: (width, height) pixels. fps: frames per second of the MP4 (a GIF takes every
    ``fps // gif_fps``-th frame). title_s, turn_s, hold_s, end_s: seconds of the title card, each
    turn's card, the least pause after each action and the final card. max_action_s: longest a
    ride is shown (depicted seconds play 1:1 up to this). read_cps, min_read_s: every action stays
    on screen until its sentences can be read at ``read_cps`` characters a second, and at least
    ``min_read_s``. key_rate, key_hold_s: a key moment (crash, bust, jump, ride off the table) is
    played at ``key_rate`` times speed and held ``key_hold_s`` longer; a jump's flight is played at
    ``flight_rate``, filmed from the side with the profile as an inset (see :data:`PACES`).
    supersample: anti-aliasing factor of the software renderer (1: none, fastest; 1.5: the
    demo's default, ~1.8x a plain frame's drawing; 2: finest, ~3.8x). backend: render backend.
    crf: H.264 constant rate factor (higher is smaller) at
    :data:`~entropy3d.video.encode.X264_PRESET`. cut: "full" (every action, its dice and clauses)
    or "short" (the key moments in plain words, :mod:`entropy3d.video.cut`). grid: the inch grid
    on the table, for analysis (a film for people shows the table as painted). max_kbps: the MP4's
    bit rate cap (kilobits a second; None: crf alone decides), which bounds the file's size.
    sound: an MP4 gets the synthesised sound track (:mod:`entropy3d.video.sound`), AAC.
    """

    size: tuple[int, int] = (1280, 720)
    fps: int = 30
    gif_fps: int = 10
    title_s: float = 2.5
    turn_s: float = 1.5
    hold_s: float = 0.6
    end_s: float = 5.0
    max_action_s: float = 2.0
    read_cps: float = PACES["normal"]["read_cps"]
    min_read_s: float = PACES["normal"]["min_read_s"]
    key_rate: float = PACES["normal"]["key_rate"]
    key_hold_s: float = PACES["normal"]["key_hold_s"]
    flight_rate: float = PACES["normal"]["flight_rate"]
    supersample: float = 1
    backend: str | None = None
    crf: int = 32
    cut: str = "full"
    grid: bool = False
    max_kbps: int | None = None
    sound: bool = False

    def paced(self, pace: str) -> "VideoOptions":
        """These options at a named pace of :data:`PACES`."""
        if pace not in PACES:
            raise ValueError(f"pace must be one of {', '.join(PACES)}, got {pace!r}")
        return dataclasses.replace(self, **PACES[pace])


@dataclass(frozen=True)
class Segment:
    """A stretch of the video: kind (title, turn, action, skipped, end), how many frames, for an
    action the activation and action index in the replay (a skipped activation has action -1),
    and for a ride the frames it plays over, its playback rate (0.5: slow motion) and the
    (take-off, touchdown) seconds of a jump's flight, played at the options' ``flight_rate``."""

    kind: str
    frames: int
    activation: int = -1
    action: int = -1
    turn: int = 0
    ride_frames: int = 0
    rate: float = 1.0
    flight: tuple[float, float] | None = None


def reading_s(events, options: VideoOptions, names: words.Names) -> float:
    """Seconds to read ``events``' sentences at the options' pace."""
    return max(options.min_read_s, words.reading_chars(events, names) / options.read_cps)


def plan_segments(replay: Replay, options: VideoOptions, names: words.Names | None = None,
                  pace: SystemPace | None = None) -> list[Segment]:
    """Every segment of the video in order (their frame counts sum to the video's length): every
    activation gets at least one, skipped activations and busts before a ride included. ``pace``:
    a system's own game (:func:`system_pace`), held for its large print only, quiet moves sped up;
    None for Entropy City, every sentence read."""
    fps = options.fps
    names = names if names is not None else words.Names()
    segments = [Segment("title", round(options.title_s * fps))]
    turns = {t.turn: t for t in replay.turns}
    shown_turns: set[int] = set()
    for k, activation in enumerate(replay.activations):
        if activation.turn not in shown_turns and activation.turn in turns:
            segments.append(Segment("turn", round(options.turn_s * fps), turn=activation.turn))
            shown_turns.add(activation.turn)
        if not activation.actions:
            read = (reading_s(activation.events, options, names) if pace is None else
                    pace.reading_s(pace.lines(activation.events), "", options.read_cps, options.min_read_s))
            segments.append(Segment("skipped", round(max(read, options.hold_s) * fps), k, -1, activation.turn))
            continue
        for j, action in enumerate(activation.actions):
            events = action_events(activation, j)
            if pace is None:
                key = any(words.is_key_moment(e) for e in events)
                rate, read = options.key_rate if key else 1.0, reading_s(events, options, names)
            else:
                key = any(decisive(e) for e in events)
                quiet = pace.quiet(events, action)
                rate = options.key_rate if key else QUIET_RATE if quiet else 1.0
                read = pace.reading_s(pace.action_lines(events, action), pace.label(action), options.read_cps,
                                      options.min_read_s, quiet)
            ride_s = min(float(action.trajectory[-1, 0]), options.max_action_s) if len(action.trajectory) else 0.0
            flight = filmed_flight(action, events, ride_s)
            ride_frames = len(ride_clock(ride_s, rate, flight, options.flight_rate, fps))
            hold = options.hold_s + (options.key_hold_s if key else 0.0)
            total_s = max(ride_frames / fps + hold + falling_frames(action, events, rate, fps) / fps, read)
            segments.append(Segment("action", max(ride_frames + 1, round(total_s * fps)), k, j, activation.turn,
                                    ride_frames, rate, flight))
    end_s = options.end_s if pace is None else max(options.end_s, pace.end_reading_s(replay, options.read_cps))
    segments.append(Segment("end", round(end_s * fps)))
    return segments


def filmed_flight(action, events, ride_s: float) -> tuple[float, float] | None:
    """The flight of an action filmed as a jump: the rules saw a jump, or the bike was in the air
    at least :data:`FILMED_FLIGHT_S`; else None."""
    window = flight_window(action, ride_s)
    if window is None:
        return None
    jumped = any(e.kind in ("jump", "landing") for e in events)
    return window if jumped or window[1] - window[0] >= FILMED_FLIGHT_S else None


def replay_names(replay: Replay, table=None) -> words.Names:
    """The rider and gang names of the replay's scene (``table``, else loaded from the header)."""
    from entropy3d.scene import load_scene

    return words.Names.of_table(table if table is not None else load_scene(scene_file(replay)))


class ReplayFilm(FilmHud):
    """Draws the frames of one replay; iterate :meth:`frames` for (H, W, 3) uint8 images.

    hold_drift_deg_s: degrees a second the camera turns about what it looks at while a shot is
    held (0: a held shot is one still picture, drawn once)."""

    hold_drift_deg_s = 0.0

    def __init__(self, replay: Replay, options: VideoOptions = VideoOptions(), table=None, geometry=None):
        from entropy3d.render.renderer import TableRenderer
        from entropy3d.scene import load_scene
        from entropy3d.scene.build import build_table_geometry

        self.replay = replay
        self.options = options
        self.table = table if table is not None else load_scene(scene_file(replay))
        self.geometry = geometry if geometry is not None else build_table_geometry(self.table)
        self.renderer = TableRenderer(self.table, options.size, geometry=self.geometry, title="",
                                      supersample=options.supersample, backend=options.backend, grid=options.grid)
        self.occluders = occluder_mesh(self.geometry)
        self.words = replay_names(replay, self.table)
        self.system = find_system(self.table.spec.system)
        #: a game of riders (Entropy City's) shows speed and stress; another rulebook's figures have none
        #: the rulebook whose game this is (the scene's own, or the one it judges: reference cards)
        self.played = played_system(self.table.spec.system)
        self.riders = self.played.riders
        self.names = dict(self.words.riders)
        self.gang_names = dict(self.words.gangs)
        #: the models on foot: a sight line starts at a standing figure's eye, not a rider's
        self.on_foot = frozenset(m.id for m in replay.header.initial.models.values() if m.on_foot)
        self.colours = {g: spec.colour for g, spec in self.table.spec.gangs.items()}
        #: the gangs the scoreboard and the title card list: not the Law, a neutral side that
        #: scores nothing (EC-LAW; the HUD of hoon_hour said "the Law +0")
        self.scorers = scoring_gangs(list(self.table.spec.gangs), replay.header.initial)
        eye, look = overview_eye(self.table.width, self.table.depth)
        self.rig = CameraRig(eye, look)
        #: a system's own game is held for its large print only (None: Entropy City's, every sentence read)
        self.pace = system_pace(replay, self.table)
        self.segments = plan_segments(replay, options, self.words, self.pace)
        #: per frame showing a bike: (segment index, eye, look, fov, the bike's x, y, z), for the framing test
        self.shots: list[tuple[int, np.ndarray, np.ndarray, float, np.ndarray]] = []

    def close(self) -> None:
        self.renderer.close()

    # -- scene state ----------------------------------------------------------------------------

    def show_state(self, state: State) -> None:
        """Stand every bike of ``state`` where it is (lying if its rules have it down), scenery where it lies."""
        self.renderer.set_lying(bike.id for bike in state.models.values() if self.system.lies_down(bike))
        for bike in state.models.values():
            self.renderer.show_model(bike.id, bike.in_play)
            if bike.in_play:
                self.renderer.place_model(bike.id, bike.pose)
        for wreck in state.wrecks:  # EC-WOUND: the wreck stays on the table
            self.renderer.place_wreck(wreck.model_id, wreck.pose)
        for piece_id, node in self.renderer.piece_nodes.items():
            move = state.scenery.get(piece_id)
            if move is None:
                continue
            if move.removed:
                node.hide()
                continue
            node.show()
            self.renderer.set_piece_transform(piece_id, spot_matrix(self._centre(piece_id), move.dx, move.dy,
                                                                    move.turn_deg))

    def _centre(self, piece_id: str) -> np.ndarray:
        """A table piece's centre as the scene placed it, inches."""
        return self.geometry.by_id(piece_id).mesh.bounds.mean(axis=0)

    def _look(self, eye, look, fov: float = 50.0, subject=None) -> np.ndarray:
        """Point the camera; returns where it looks. In a portrait frame the director's 16:9
        shot is turned as needed to keep ``subject`` (the acting model, inches) in the width; in
        any frame it is tilted as needed to keep it off the top and bottom edges."""
        from entropy3d.render.cameras import CameraView

        if subject is not None and self.renderer.aspect < 1.0:
            look = kept_in_width(eye, look, fov, subject, self.renderer.aspect)
        if subject is not None:
            look = kept_in_height(eye, look, fov, subject, self.renderer.aspect)
        self.renderer.set_camera(CameraView(tuple(map(float, eye)), tuple(map(float, look)), fov))
        return np.asarray(look, float)

    def _score(self, state: State, gained: Mapping[str, int] | None = None) -> tuple[tuple[str, str, int], ...]:
        """The HUD's score: ``state``'s, plus what score events already told gave (``gained``)."""
        gained = gained or {}
        return tuple((self.gang_names.get(g, g), self.colours.get(g, "#ffffff"),
                      int(state.score.get(g, 0)) + int(gained.get(g, 0))) for g in self.scorers)

    # -- frames ---------------------------------------------------------------------------------

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame of the film in order, finished: (height, width, 3) uint8 arrays."""
        return (hud.finished(frame) for frame in self.laid_frames())

    def laid_frames(self) -> Iterator[np.ndarray | hud.LaidFrame]:
        """Every frame of the film in order, a HUD or card still to be laid on (a
        :class:`~entropy3d.video.hud.LaidFrame`, which the MP4 encoder's thread finishes) or
        an array."""
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
            elif segment.kind == "skipped":
                activation = self.replay.activations[segment.activation]
                self.show_state(activation.state_before)
                shown = segment.activation
                yield from self._standing(segment, activation, None)
                self.show_state(activation.state_after)
                state = activation.state_after
            elif segment.kind == "action":
                activation = self.replay.activations[segment.activation]
                if segment.activation != shown:
                    shown = segment.activation
                    self.show_state(activation.state_before)
                action = activation.actions[segment.action]
                if len(action.trajectory):
                    yield from self._action(segment)
                else:
                    yield from self._standing(segment, activation, action)
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
        mission = header.initial.mission
        lines = (" vs ".join(self.gang_names[g] for g in self.scorers),
                 f"{self.played.mission_title(mission)}  -  {header.turns} turns  -  seed {header.seed}",
                 f"{find_system(self.table.spec.system).title}  |  entropy3d")
        for frame in self._overview_frames(segment.frames, 24.0):
            yield hud.card_frame(frame, header.scene_name, lines)

    def _turn_card(self, segment: Segment, state: State) -> Iterator[np.ndarray]:
        turn = next(t for t in self.replay.turns if t.turn == segment.turn)
        first = self.gang_names.get(turn.first_player, turn.first_player)
        a, b = turn.roll_off[-1]
        lines = (self.played.first_roll_line((a, b), first),
                 "order: " + ", ".join(self.names.get(m, m) for m in turn.order[:8]))
        for frame in self._overview_frames(segment.frames, 6.0):
            yield hud.card_frame(frame, f"Turn {turn.turn} of {self.replay.header.turns}", lines, darken=0.4)

    def _heading(self, activation, action) -> str:
        order = [a.model_id for a in self.replay.activations if a.turn == activation.turn]
        place = f" ({order.index(activation.model_id) + 1}/{len(order)})" if activation.model_id in order else ""
        who = self.words.rider_of_gang(activation.model_id)
        step = "" if action is None else f", action {action.index + 1}"
        return f"Turn {activation.turn}/{self.replay.header.turns}  -  {who}{place}{step}"

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
        ride_frames = max(1, segment.ride_frames)
        size = (self.table.width, self.table.depth)
        start = plan.target(pose_at(trajectory, 0.0)[:3] + [0, 0, 0.5], size)
        self._look(*self.rig.cut(eye_for(start, pose_at(trajectory, 0.0)[3], plan), start), plan.fov_deg)
        if len(action.planned_path):
            z = float(trajectory[0, 3]) + 0.05
            self.renderer.add_polyline(np.column_stack([action.planned_path, np.full(len(action.planned_path), z)]),
                                       colour="#ffd31a", width=0.06, name="planned")
        heading = self._heading(activation, action)
        still = _StillCamera()
        clock = ride_clock(ride_s, segment.rate, segment.flight, self.options.flight_rate, fps)
        jump = self._jump_shot(activation, segment, trajectory, ride_s)
        fight, fight_shot = fight_of(action, self.table.ruleset, size, self.occluders,  # an attack: its own shot
                                     self.on_foot, self.system, activation)
        takedown_frame = ride_frames + round(TAKEDOWN_AFTER * (segment.frames - ride_frames))
        told = action_events(activation, segment.action)
        fall = fall_of(action, told)
        fall_frames = falling_frames(action, told, segment.rate, fps)
        played = 0 if fall is None else playback_frames(fall, segment.rate, fps)
        rules_pose = action.model_after.pose if action.model_after is not None else None
        shown: list = []  # models the action brought onto the table (EC-TRAIT-AMBUSH), once it settles
        knocks = [(knock, self._centre(knock.piece_id)) for knock in knocks_in(activation, segment.action)
                  if knock.piece_id in self.renderer.piece_nodes]  # EC-DEST-4: moved as the bike hits them
        for i in range(segment.frames):
            # a ride stopped where it began (a wall 0.2" ahead) has one point and no clock: it holds there
            t = float(clock[min(i, len(clock) - 1)]) if i < ride_frames and len(clock) else float(trajectory[-1, 0])
            x, y, z, h = pose_at(trajectory, t)
            if i >= ride_frames and action.model_after is not None:  # where the rules put it
                x, y, z, h = (action.model_after.pose.x, action.model_after.pose.y, action.model_after.pose.z,
                              action.model_after.pose.facing_deg)
            falling = fall is not None and ride_frames <= i < ride_frames + fall_frames
            if falling:  # knocked off its wheels: physics' fall from the contact, the rules' pose as a
                # ghost beside it, then the bike stood where the rules put it
                played_s = min(i - ride_frames, played) / fps * max(segment.rate, FALL_RATE)
                matrix = tumble_matrix(fall, played_s)
                self.renderer.set_model_transform(bike.id, matrix)
                if action.facts.thrown is not None:  # the rider thrown off, as physics threw him
                    self.renderer.throw_rider(bike.id, tumble_matrix(action.facts.thrown, played_s))
                self.renderer.show_ghost(bike.id, rules_pose)
                x, y, z = matrix[:3, 3]
            else:
                self.renderer.place_model(bike.id, Pose(float(x), float(y), float(h) % 360.0, float(z)))
                if fall is not None:
                    self.renderer.show_ghost(bike.id, None)
            holding = i >= ride_frames
            # a piece hit near the ride's end finishes its hop while the ride holds: its clock runs on
            knock_t = (float(clock[-1]) + (i - ride_frames + 1) * segment.rate / fps) if holding and len(clock) else t
            for knock, centre in knocks:
                self.renderer.set_piece_transform(knock.piece_id, knock_matrix(knock, centre, knock_t))
            if i == ride_frames:  # an ambusher it sprang stands on its token now, in the shot (EC-TRAIT-AMBUSH)
                shown = show_revealed(self.renderer, told, activation.state_after)
            fighting = fight is not None and holding
            done = trajectory[trajectory[:, 0] <= t]
            if len(done) >= 2 and i % 2 == 0 and i < ride_frames + 2 and not fighting:
                trail = done[:: max(1, len(done) // 30)]
                trail = np.vstack([trail, done[-1:]]) if trail[-1, 0] != done[-1, 0] else trail
                self.renderer.add_polyline(trail[:, 1:4] + [0, 0, 0.08], colour=colour, width=0.1, name="trail")
            if jump is None:
                centre, framed = reveal_framing(plan, np.array([x, y, z + 0.5]), shown if holding else ())
                target = framed.target(centre, size)
                eye, look = self.rig.follow(eye_for(target, h, framed), target, self.options.fps)
                if rider_hidden(self.occluders, eye, np.array([x, y, z])):
                    # the plan was checked at a few points of the ride, and the camera lags it:
                    # a wall came between them (a tight turn in a street); look from the planned
                    # eye, or crane up over the rider for the rest of the action when that too is hidden
                    if rider_hidden(self.occluders, eye_for(target, h, plan), np.array([x, y, z])):
                        plan = craned_up(plan)
                    eye, look = self.rig.cut(eye_for(target, h, plan), target)
                fov = plan.fov_deg
            else:
                eye, look, fov = jump[0]
                self.rig.cut(eye, look)
            staged = fighting and stage_fight(self.renderer, fight, i, ride_frames, takedown_frame)
            # a shot filmed by its own camera: that camera frames shooter and target, not the band
            # a jump's camera keeps clear of the profile inset, so the inset goes (it hid the target)
            own_shot = fighting and fight_shot is not None
            if own_shot:
                eye, look, fov = fight_shot
                self.rig.cut(eye, look)
            if holding and self.hold_drift_deg_s:
                eye = drifted(eye, look, self.hold_drift_deg_s * (i - ride_frames + 1) / fps)
            if fall is not None and holding and not own_shot:  # the camera closes in on the crash
                fov *= 1.0 - FALL_ZOOM * min(1.0, (i - ride_frames) / max(1, fall_frames // 3))
            look = self._look(eye, look, fov, np.array([x, y, z], float))
            frame = still.frame(self.renderer, eye, look,
                                moving=i <= ride_frames + 2 or staged or falling or bool(self.hold_drift_deg_s))
            self.shots.append((self.segments.index(segment), eye.copy(), look.copy(), fov,
                               np.array([x, y, z], float)))
            profile = None if jump is None or own_shot else jump[1:]   # the jump's inset and its box
            if fighting:
                frame = draw_fight(frame, fight, self.renderer.project, fight.taken_out and i >= takedown_frame,
                                   None if profile is None else profile[1],
                                   self._plate_boxes(frame, activation, np.array([x, y, z], float), fight))
            frame = self._plates(frame, activation, np.array([x, y, z], float), fight if fighting else None)
            frame = draw_npc_tags(self, frame, activation, segment.action, np.array([x, y, z], float), holding,
                                  self._named(activation, fight if fighting else None))
            frame = hud.hud_frame(frame, self._revealed(self._hud(activation, action, bike, heading, t, holding), i))
            yield frame if profile is None else dataclasses.replace(frame, inset=(profile[0].at(t), profile[1]))
        self.renderer.clear_overlays()
        self.renderer.show_ghost(bike.id, None)

    def _jump_shot(self, activation, segment: Segment, trajectory: np.ndarray, ride_s: float):
        """For a filmed flight: the fixed side camera (eye, look, fov) framing the ride, the profile
        inset and its box in the frame; None for any other ride, or when no side view keeps the
        bike in frame over the table and in sight (the chase camera films it then)."""
        if segment.flight is None:
            return None
        from entropy3d.render.ride_still import side_view

        shown = trajectory[trajectory[:, 0] <= ride_s + 1e-9, 1:4]
        checks = shown[[0, len(shown) // 2, -1]]
        size = (self.table.width, self.table.depth)
        views = (side_view(shown, self.renderer.aspect, 45.0, INSET_CLEAR_BAND, elevation, right)
                 for elevation in SIDE_ELEVATIONS_DEG for right in (False, True))
        for view in views:  # the lowest side view that frames the bike over the table, not the void
            eye, look = np.array(view.position), np.array(view.look_at)
            if not any(shot_fails(eye, look, view.fov_deg, point, size, self.occluders)
                       or rider_hidden(self.occluders, eye, point) for point in checks):
                break
        else:
            return None
        inset = ProfileInset(self.table, self.geometry, activation, segment.action, INSET_DRAWN_PX)
        return (eye, look, view.fov_deg), inset, inset_box(self.options.size)

    def _standing(self, segment: Segment, activation, action) -> Iterator[np.ndarray]:
        """A model that does not move this time (a skipped activation or action, a bust at a test
        before it set off): the drone camera on it while its lines are read. A shot taken where it
        stands (a figure on foot's Shoot) is filmed as a fight: the fight camera on shooter and
        target, the sight line, its label and, for a takedown, the banner."""
        bike = activation.state_before.model(activation.model_id)
        pose = bike.pose
        point = np.array([pose.x, pose.y, pose.z])
        size = (self.table.width, self.table.depth)
        plan = plan_camera(self.occluders, np.array([[0.0, pose.x, pose.y, pose.z, pose.facing_deg]] * 2), "drone",
                           size)
        target = plan.target(point + [0, 0, 0.5], size)
        eye, look, fov = *self.rig.cut(eye_for(target, pose.facing_deg, plan), target), plan.fov_deg
        fight, fight_shot = (None, None) if action is None else fight_of(action, self.table.ruleset, size,
                                                                         self.occluders, self.on_foot, self.system,
                                                                         activation)
        if fight_shot is not None:
            eye, look, fov = fight_shot
            self.rig.cut(eye, look)
        if fight is not None:
            stage_fight(self.renderer, fight, 0, 0, -1)
        shown_look = self._look(eye, look, fov, point)
        frame = self.renderer.render_to_array()
        heading = self._heading(activation, action)
        takedown_frame = round(TAKEDOWN_AFTER * segment.frames)
        held_eye = eye
        for i in range(segment.frames):
            # the takedown is staged as it happens (its wreck placed), whether or not the camera drifts
            # (its line was drawn before the first frame: start -1 draws it no more)
            staged = fight is not None and stage_fight(self.renderer, fight, i, -1, takedown_frame)
            if self.hold_drift_deg_s:  # the camera drifts round the model: not a still picture
                eye = drifted(held_eye, look, self.hold_drift_deg_s * (i + 1) / self.options.fps)
                shown_look = self._look(eye, look, fov, point)
            if self.hold_drift_deg_s or staged:
                frame = self.renderer.render_to_array()
            self.shots.append((self.segments.index(segment), eye.copy(), shown_look.copy(), fov, point))
            plates = self._plate_boxes(frame, activation, point, fight) if fight is not None else []
            shown = frame if fight is None else draw_fight(frame, fight, self.renderer.project,
                                                           fight.taken_out and i >= takedown_frame, keep_clear=plates)
            shown = self._plates(shown, activation, point, fight)
            shown = draw_npc_tags(self, shown, activation, segment.action if action is not None else 0, point,
                                  True, self._named(activation, fight))
            if action is None:
                info = self._skipped_hud(activation, bike, heading)
            else:
                info = self._hud(activation, action, bike, heading, 0.0, i >= segment.frames // 3)
            yield hud.hud_frame(shown, self._revealed(info, i))
        if fight is not None:
            self.renderer.clear_overlays()

    def _plates(self, frame: np.ndarray, activation, at: np.ndarray, fight) -> np.ndarray:
        """The frame with name plates over the models it names; the full cut names them in its
        panels instead, so it draws none."""
        return frame

    def _plate_boxes(self, frame: np.ndarray, activation, at: np.ndarray, fight) -> list:
        """The boxes (pixels) :meth:`_plates` fills on ``frame`` (none in the full cut)."""
        return []

    def _named(self, activation, fight) -> frozenset[str]:
        """The models :meth:`_plates` names on a frame (none in the full cut)."""
        return frozenset()

    def _after_action(self, segment: Segment) -> State:
        activation = self.replay.activations[segment.activation]
        action = activation.actions[segment.action]
        if action is activation.actions[-1]:
            self.show_state(activation.state_after)
            return activation.state_after
        if action.model_after is not None:  # down or up as the action left it (a fighter stood up)
            lying = self.renderer.lying
            (lying.add if self.system.lies_down(action.model_after) else lying.discard)(activation.model_id)
            self.renderer.place_model(activation.model_id, action.model_after.pose)
        return activation.state_before

    def _end(self, segment: Segment, state: State) -> Iterator[np.ndarray]:
        title, lines, gangs = result_card(self.replay, self.table, self.words, state)
        colours = tuple(self.colours.get(g, "") if g else "" for g in gangs)
        for frame in self._overview_frames(segment.frames, 18.0):
            yield hud.card_frame(frame, title, lines, colours)


class _StillCamera:
    """Reuses the last rendered picture while nothing moves (a held shot): the HUD is redrawn on
    it every frame, the 3D scene only when the camera has moved more than ``tolerance`` inches."""

    def __init__(self, tolerance: float = 0.01):
        self.tolerance = tolerance
        self.last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def frame(self, renderer, eye: np.ndarray, look: np.ndarray, moving: bool) -> np.ndarray:
        if not moving and self.last is not None:
            old_eye, old_look, picture = self.last
            if np.abs(eye - old_eye).max() < self.tolerance and np.abs(look - old_look).max() < self.tolerance:
                return picture
        picture = renderer.render_to_array()
        self.last = (np.array(eye), np.array(look), picture)
        return picture
