"""The interactive viewer window (Panda3D ShowBase): a table or a replay to explore and question.

Keys and mouse (also shown in the window, h toggles them):

- click a model: select it (a ring and a panel: name, gang, bike, speed, stress, wounds,
  conditions, loadout) and see its sight of every enemy labelled (% visible, cover, can shoot;
  green can shoot, red not: EC-LOS-4, EC-COVER-1; a shot is the rulebook's verdict with what the
  rider carries, its gun's range and shots left, EC-GUN-2, and the panel says why not);
  Tab cycles the models; Esc clears
- click an enemy of the selected model: its ray fan and the pieces in the way; click it again
  to select it
- drag the selected model: try it elsewhere (it stands on the surface under the mouse);
  [ and ] turn it 15 degrees; u undoes the last try
- e: type an action for the selected model in the scene's rulebook's words (an Entropy City
  plan, a chase's "drive: straight 12", a gang fighter's "shoot"), checked as it is typed by the
  engine the game loop plays and taken on Enter as one activation (:mod:`entropy3d.viewer.planning`)
- m then two clicks: measure (straight and along the ground, inches; levels at both ends; between
  two models from base edge to base edge first)
- left-drag elsewhere orbit, right-drag pan, wheel/+/- zoom, arrows orbit, c centre (on the
  target, else the selection), v top-down
- replay: space play/pause, n/p next/previous action, home start, , and . play speed,
  f follow the active model; the slider at the bottom seeks
- s saves the table as it stands (tries, facings, speeds) as a scene file in the current folder
- l sight lines of the active model, t turning templates (EC-TMPL-1), r inch ruler; q quit

The window draws only when something changed (idle, it draws nothing). The table and miniatures
are the same scene-graph nodes the headless renderer draws (:mod:`entropy3d.render`); every answer
comes from :class:`~entropy3d.viewer.questions.TableQuestions` (the LOS engine and the table's
surface probe). Without a display the viewer refuses with :class:`DisplayUnavailable`.
"""

from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from entropy3d.errors import DisplayUnavailable, EntropyError, ViewerUsageError
from entropy3d.geometry import Pose
from entropy3d.viewer.camera import ViewerCamera
from entropy3d.viewer.overlays import ViewerOverlays
from entropy3d.viewer.typing_line import ViewerTyping, wrapped

HELP = ("click: select / target   drag model: what if   [ ]: turn   e: type an action   u: undo   s: save the table   "
        "Tab: next model   Esc: clear   m: measure\n"
        "drag: orbit   right-drag: pan   wheel/+/-: zoom   c: centre   v: top-down   space: play   n/p: step   "
        ", .: speed   f: follow   l t r: sight lines, templates, ruler   h: help   q: quit")
#: degrees one press of [ or ] turns the selected model
TURN_STEP_DEG = 15.0
#: seconds the window sleeps between looks at the mouse and keys while nothing changes
IDLE_SLEEP_S = 1 / 60
#: play speeds offered by , and . (replay seconds per second)
PLAY_SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)


def display_problem() -> str:
    """Why no window can open here ("" when a display seems available)."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no display (DISPLAY is not set): `entropy3d view` opens a window. On a headless machine "
                "render instead: `entropy3d demo`, `entropy3d replay-render REPLAY` or `entropy3d render SCENE`")
    return ""


def run_viewer(source: str | Path | None = None, *, screenshot: str | Path | None = None,
               steps: int = 0, overlays: str = "", state_file: str | Path | None = None,
               select: str | None = None, on_replay=None, play: tuple[str, ...] = (), seed: int = 0,
               turns: int | None = None) -> None:
    """Open the viewer on ``source``. With ``screenshot`` it draws offscreen instead (no display
    needed), after ``steps`` presses of n and the overlay keys in ``overlays`` (e.g. "ltr"), saves
    one frame there and returns. ``state_file``: after every change, write what the window shows
    there as JSON (selection, labels, measure, where models are drawn) for scripts and tests.
    ``select``: a model id selected at the start. ``on_replay``: called with the replay read (None
    for a scene) before the window opens. ``play``: gangs a person plays in a game of the scene
    (the others by the automatic players; dice from ``seed``, ``turns`` turns: the scene's when
    None), written as a replay in the current folder (:class:`~entropy3d.viewer.playing.LiveGame`)."""
    if screenshot is None:
        problem = display_problem()
        if problem:
            raise DisplayUnavailable(problem)
    from entropy3d.game.replay import load_source

    table, geometry, replay = load_source(source)
    if select is not None:
        try:
            table.model(select)
        except KeyError as error:
            raise ViewerUsageError(f"--select: {error.args[0]}") from None
    live = None
    if play:
        from entropy3d.viewer.playing import LiveGame

        if replay is not None:
            raise ViewerUsageError("--play plays a game of a scene: give a scene file, not a replay")
        try:
            live = LiveGame(table.source, play, seed=seed, turns=turns)
        except ValueError as error:
            if isinstance(error, EntropyError):
                raise
            raise ViewerUsageError(f"--play: {error}") from None
    if on_replay is not None:
        on_replay(replay)
    from panda3d.core import loadPrcFileData

    loadPrcFileData("entropy3d.viewer", f"window-title entropy3d - {table.name}\nwin-size 1280 720\n"
                    "audio-library-name null\nnotify-level error\nsync-video true\n"
                    "auto-flip true\n")
    if screenshot is not None:
        loadPrcFileData("entropy3d.viewer.offscreen", "load-display p3tinydisplay\nwin-size 960 540\n")
    from direct.showbase.ShowBase import ShowBase

    try:
        base = ShowBase(windowType="offscreen" if screenshot is not None else "onscreen")
        if base.win is None:
            raise DisplayUnavailable("could not open a window (no graphics pipe)")
    except Exception as error:  # Panda3D raises a bare Exception when no window opens
        if live is not None:
            live.close()  # the game started for the window stops (and writes what it played)
        if isinstance(error, DisplayUnavailable):
            raise
        raise DisplayUnavailable(f"could not open a window: {error}") from None
    viewer = Viewer(base, table, geometry, replay, state_file, live)
    if select is not None:
        viewer.select(select)
    if screenshot is None:
        base.run()
        return
    for _ in range(steps):
        viewer.timeline.next()
    for key in overlays:
        viewer.toggle(key)
    viewer.refresh()
    viewer.capture(screenshot)
    viewer._write_state()
    base.destroy()


def pipe_backend(pipe) -> str:
    """``tiny`` for Panda3D's software pipe, else ``gl``: the ground layers' depth state differs
    (:func:`entropy3d.render.table_scene.ground_layer_state`); with the wrong one an OpenGL window
    draws no roads, zones or grid."""
    return "tiny" if "tiny" in pipe.get_type().get_name().lower() else "gl"


class Viewer(ViewerCamera, ViewerOverlays, ViewerTyping):
    """The scene graph, the orbit camera, the replay timeline, the selection and its questions,
    and the overlays of one window."""

    def __init__(self, base, table, geometry, replay, state_file: str | Path | None = None, live=None):
        from direct.gui.OnscreenText import OnscreenText
        from direct.showbase.DirectObject import DirectObject
        from panda3d.core import TextNode

        from entropy3d.game.timeline import Timeline
        from entropy3d.render.lighting import add_lights
        from entropy3d.render.miniatures import build_miniature_node
        from entropy3d.render.table_scene import GridStyle, build_table_node
        from entropy3d.viewer.marks import LineBatch, ScreenLabels
        from entropy3d.viewer.questions import TableQuestions

        self.base, self.table, self.geometry = base, table, geometry
        self.state_file = Path(state_file) if state_file is not None else None
        base.disableMouse()
        base.setBackgroundColor(0.55, 0.58, 0.62, 1)
        table_node, _ = build_table_node(table.spec, geometry, GridStyle(), True, backend=pipe_backend(base.pipe))
        table_node.flattenStrong()  # the table never moves here: a few big batches draw faster than many
        table_node.reparentTo(base.render)
        self.models = {}
        for model in table.models:
            node = build_miniature_node(table, model)
            node.reparentTo(base.render)
            self.models[model.id] = node
        self.lights = add_lights(base.render)  # the miniatures' (the table's own is baked into it)
        self.overlay_root = base.render.attachNewNode("overlays")
        self.lines = LineBatch()
        self.labels = ScreenLabels(base)
        self.questions = TableQuestions(table, geometry)
        from entropy3d.viewer.planning import SceneRules

        #: the rulebook played here and its engine, the game loop's: a typed action is its
        self.rules = SceneRules(table, geometry)
        start = replay.header.initial if replay is not None else self.rules.initial_state()
        self.timeline = Timeline(replay, start)
        self.show = {"l": False, "t": False, "r": False}
        self.playing, self.speed, self.follow = False, 1.0, False
        self.selected: str | None = None
        self.target: str | None = None
        self.what_if: dict[str, Pose] = {}
        #: why a tried model cannot stand where it is (model id -> words; TableQuestions.standing_problems)
        self.standing: dict[str, str] = {}
        #: the scene files written with s (the table as it stands), in the folder the viewer was started in
        self.saved: list[Path] = []
        #: a game played here (:class:`~entropy3d.viewer.playing.LiveGame`; None: a table or a replay to explore)
        self.live = live
        self._live_seen: tuple | None = None
        if live is not None:
            base.finalExitCallbacks.append(self._leave_game)  # q or the window closed: the game so far is written
        self.save_refused = ""
        self.undo: list[tuple[str | None, Pose | None]] = []  # (model, pose before) or (None, None): a ride
        self.ridden: list[tuple[object, list[str]]] = []  # (state after, event lines) of each action taken here
        self.plan_entry = None
        self.plan_preview = None
        self.measuring: list[np.ndarray] | None = None
        #: the model each measured point is on (None: a point of the table)
        self.measured_models: list[str | None] = []
        #: a word to the user about the last key that could not act (shown in the caption)
        self.notice = ""
        self.measure = None
        self.sight_labels, self.sight_results = [], {}
        self.changed_at = None  # perf_counter of the input that led to the next drawn change
        self.last_response_ms = None
        self.frames_drawn = 0
        self.dirty, self.drawing = True, False
        self.centre, self.yaw, self.pitch, self.distance = self._fitting_view()
        self._drag = None
        # on a dark card: an action's account runs over the light roofs of the table's far side
        self.caption = OnscreenText(text="", parent=base.a2dTopLeft, pos=(0.04, -0.08), scale=0.045,
                                    fg=(1, 1, 1, 1), align=TextNode.ALeft, mayChange=True, shadow=(0, 0, 0, 0.8),
                                    bg=(0, 0, 0, 0.45))
        self.panel = OnscreenText(text="", parent=base.a2dTopRight, pos=(-0.04, -0.08), scale=0.042,
                                  fg=(1, 1, 1, 1), align=TextNode.ARight, mayChange=True, shadow=(0, 0, 0, 0.9))
        self.help = OnscreenText(text=HELP, parent=base.a2dBottomCenter, pos=(0, 0.09), scale=0.033,
                                 fg=(1, 1, 1, 1), mayChange=True, shadow=(0, 0, 0, 0.8))
        self.slider = None
        self._make_slider()
        self.events = DirectObject()
        self._bind()
        self.refresh()
        base.taskMgr.add(self._tick, "entropy3d-viewer")
        base.taskMgr.add(self._after_draw, "entropy3d-viewer-drawn", sort=60)  # after igLoop (50) draws

    # -- input -----------------------------------------------------------------------------------

    def _bind(self) -> None:
        accept = self.events.accept
        accept("q", sys.exit)
        accept("escape", self.clear)
        accept("space", self._toggle_play)
        accept("n", self._step, [1])
        accept("p", self._step, [-1])
        accept("home", self._home)
        for key in "ltr":
            accept(key, self._toggle_and_refresh, [key])
        accept("h", self._toggle_help)
        accept("c", self._centre)
        accept("v", self._top_down)
        accept("f", self._toggle_follow)
        accept("m", self._start_measure)
        accept("tab", self._cycle)
        accept("[", self._turn, [TURN_STEP_DEG])
        accept("]", self._turn, [-TURN_STEP_DEG])
        accept("u", self._undo)
        accept("e", self._open_plan)
        accept("s", self._save)
        accept(",", self._change_speed, [-1])
        accept(".", self._change_speed, [1])
        accept("wheel_up", self._zoom, [0.9])
        accept("wheel_down", self._zoom, [1.1])
        for key, factor in (("+", 0.9), ("shift-=", 0.9), ("=", 0.9), ("-", 1.1)):
            accept(key, self._zoom, [factor])
            accept(f"{key}-repeat", self._zoom, [factor])
        for key, (dyaw, dpitch) in {"arrow_left": (-5, 0), "arrow_right": (5, 0), "arrow_up": (0, 4),
                                    "arrow_down": (0, -4)}.items():
            accept(key, self._orbit, [dyaw, dpitch])
            accept(f"{key}-repeat", self._orbit, [dyaw, dpitch])
        accept("mouse1", self._press_left)
        accept("mouse3", self._start_drag, ["pan"])
        accept("mouse1-up", self._end_drag)
        accept("mouse3-up", self._end_drag)
        accept("window-event", self._window_changed)

    def _window_changed(self, window) -> None:
        """A resized window: the caption, panel and help keep at least LABEL_MIN_PX-high text
        (their scales are shares of half the window's shorter side, too small in a small window)."""
        from entropy3d.viewer.marks import LABEL_MIN_PX

        shorter = min(self.base.win.getXSize(), self.base.win.getYSize())
        least = LABEL_MIN_PX / max(shorter / 2, 1)
        for text, scale in ((self.caption, 0.045), (self.panel, 0.042), (self.help, 0.033)):
            text.setScale(max(scale, least * scale / 0.042))
        self.dirty = True

    def _toggle_help(self) -> None:
        self.changed_at = time.perf_counter()
        self.help.hide() if not self.help.isHidden() else self.help.show()
        self.refresh()

    def _toggle_play(self) -> None:
        self.playing = not self.playing
        self.dirty = True

    def _toggle_follow(self) -> None:
        self.follow = not self.follow
        self.refresh()

    def _change_speed(self, direction: int) -> None:
        k = min(range(len(PLAY_SPEEDS)), key=lambda i: abs(PLAY_SPEEDS[i] - self.speed))
        self.speed = PLAY_SPEEDS[int(np.clip(k + direction, 0, len(PLAY_SPEEDS) - 1))]
        self.refresh()

    def _step(self, direction: int) -> None:
        self.playing = False
        self.timeline.next() if direction > 0 else self.timeline.previous()
        self.what_if.clear()
        self.refresh()

    def _home(self) -> None:
        self.playing = False
        self.timeline.index, self.timeline.t = -1, 0.0
        self.what_if.clear()
        self.refresh()

    def _make_slider(self) -> None:
        """The timeline's slider, for a replay (or a game played here once it ended)."""
        if self.slider is not None or not self.timeline.steps:
            return
        from direct.gui.DirectSlider import DirectSlider

        self.slider = DirectSlider(parent=self.base.a2dBottomCenter, pos=(0, 0, 0.2), scale=0.6, range=(0, 1),
                                   value=1.0 if self.timeline.index > 0 else 0.0,
                                   pageSize=1 / max(1, len(self.timeline.steps) - 1), command=self._seek_from_slider)

    def _seek_from_slider(self) -> None:
        """The slider moved: seek, unless it stands at the action the timeline is at. Its value
        is compared as an action, not as a float: Panda3D keeps it in single precision (3e-9 to
        3e-8 off a step's fraction), so comparing floats found every refresh's own setValue a
        move, and seek, refresh and setValue called each other for good (issue 47: a replay
        froze at its second action)."""
        steps = len(self.timeline.steps)
        fraction = float(self.slider["value"])
        if steps < 2 or self.timeline.index_at(fraction) == max(0, self.timeline.index):
            return  # the slider only shows where the timeline is (refresh set it)
        self.timeline.seek(fraction)
        self.what_if.clear()
        self.refresh()

    def toggle(self, key: str) -> None:
        self.show[key] = not self.show[key]

    def _toggle_and_refresh(self, key: str) -> None:
        self.toggle(key)
        if key == "t" and not self.rules.system.turns_on_templates:
            pivot = f"{self.rules.system.title}: its figures pivot, no turning templates"
            self.notice = pivot if self.show[key] else ""
        self.refresh()

    def select(self, model_id: str | None) -> None:
        """Select a model (None: nothing) and ask what it sees."""
        self.selected, self.target, self.notice = model_id, None, ""
        self.refresh()

    def clear(self) -> None:
        self.measuring, self.measure = None, None
        self.select(None)

    def _cycle(self) -> None:
        ids = list(self.poses())
        if ids:
            self.select(ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0])

    def _turn(self, degrees: float) -> None:
        if self.selected is None:
            return
        self.changed_at = time.perf_counter()
        pose = self.poses()[self.selected]
        self._try(self.selected, Pose(pose.x, pose.y, (pose.facing_deg + degrees) % 360.0, pose.z))

    def _try(self, model_id: str, pose: Pose) -> None:
        """Stand ``model_id`` at ``pose`` to see what changes (undone by u)."""
        self.undo.append((model_id, self.what_if.get(model_id)))
        self.what_if[model_id] = pose
        self.refresh()

    def _undo(self) -> None:
        if self.undo:
            model_id, pose = self.undo.pop()
            if model_id is None:
                self.ridden.pop()
            elif pose is None:
                self.what_if.pop(model_id, None)
            else:
                self.what_if[model_id] = pose
            self.refresh()

    def _start_measure(self) -> None:
        self.measuring, self.measure, self.measured_models = [], None, []
        self.refresh()

    def _press_left(self) -> None:
        where = self._mouse()
        if where is None:
            return
        self.changed_at = time.perf_counter()
        poses = self.poses()
        hit = self.questions.pick(*self.mouse_ray(where), poses)
        if self.measuring is not None:
            if hit is not None:
                point = (np.array([poses[hit.what].x, poses[hit.what].y, poses[hit.what].z])
                         if hit.what in poses else hit.point.copy())
                point[2] = point[2] if hit.what in poses else self.questions.level_at(point)
                self.measuring.append(point)
                self.measured_models.append(hit.what if hit.what in poses else None)
                if len(self.measuring) == 2:
                    both = tuple(self.measured_models) if None not in self.measured_models else None
                    self.measure = self.questions.measure(*self.measuring, models=both, poses=poses)
                    self.measuring = None
                self.refresh()
            return
        if hit is not None and hit.what in poses:
            if (self.selected is not None and hit.what != self.target
                    and hit.what in self.questions.enemies(self.selected, poses)):
                self.target = hit.what  # an enemy's first click shows its ray fan; a second selects it
                self.refresh()
                return
            if hit.what != self.selected:
                self.select(hit.what)
            self._drag = ("move", where, poses[hit.what])
            self.undo.append((hit.what, self.what_if.get(hit.what)))
            return
        self._start_drag("orbit")

    def _start_drag(self, mode: str) -> None:
        where = self._mouse()
        self._drag = (mode, where, None) if where is not None else None

    def _end_drag(self) -> None:
        if self._drag is not None and self._drag[0] == "move" and self.selected is not None:
            if self.what_if.get(self.selected) == self.undo[-1][1]:
                self.undo.pop()  # a click, not a move: nothing to undo
        self._drag = None
        self.dirty = True  # the window tells (its state file) that the drag is over

    def start_poses(self) -> dict[str, Pose]:
        """Where every model in play stands before any try: the game's as it stands (a game
        played here), the timeline's, or the last plan ridden here."""
        if self.live is not None and not self.live.done:
            return {m.id: m.pose for m in self.live.state().models.values() if m.in_play}
        if self.ridden:
            return {m.id: m.pose for m in self.ridden[-1][0].models.values() if m.in_play}
        poses, _, _ = self.timeline.poses()
        return poses

    def poses(self) -> dict[str, Pose]:
        """Where every model in play stands now: :meth:`start_poses` with the tried ones."""
        poses = self.start_poses()
        return {**poses, **{k: v for k, v in self.what_if.items() if k in poses}}

    def game_state(self):
        """The game state now: the timeline's or the last ridden here, with the tried poses."""
        state = (self.live.state() if self.live is not None and not self.live.done
                 else self.ridden[-1][0] if self.ridden else self.timeline.state())
        for model_id, pose in self.what_if.items():
            if model_id in state.models:
                state = state.with_model(state.model(model_id).but(pose=pose))
        return state

    def _tick(self, task):
        if self.live is not None:
            self._follow_live()
        where = self._mouse()
        if self._drag is not None and where is not None and where != self._drag[1]:
            mode, last, pose = self._drag
            dx, dy = where[0] - last[0], where[1] - last[1]
            if mode == "move":
                self._move_selected(where, pose)
            elif mode == "orbit":
                self._orbit(-120.0 * dx, -90.0 * dy)
            else:
                yaw = math.radians(self.yaw)
                right = np.array([math.cos(yaw), math.sin(yaw), 0.0])
                forward = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
                self.centre = self.centre - (right * dx + forward * dy) * 0.6 * self.distance
                self.dirty = True
            self._drag = (mode, where, pose)
        if self.playing:
            self.playing = self.timeline.advance(self.speed * self.base.clock.getDt())
            self.refresh()
        if self.dirty:
            self._place_camera()
        self.base.win.setActive(self.dirty)
        self.frames_drawn += int(self.dirty)
        if not (self.dirty or self.playing or self._drag):
            time.sleep(IDLE_SLEEP_S)  # nothing to draw: look again a frame later, using no CPU meanwhile
        self.drawing, self.dirty = self.dirty, False
        return task.cont

    def _after_draw(self, task):
        """Once a changed frame is drawn: how long since the input that changed it, and the
        state file (so a reader sees the state file only once the window shows it)."""
        if self.drawing:
            if self.changed_at is not None:
                self.last_response_ms = 1000.0 * (time.perf_counter() - self.changed_at)
                self.changed_at = None
            self._write_state()
        self.drawing = False
        return task.cont

    def _move_selected(self, where, start_pose: Pose) -> None:
        self.changed_at = time.perf_counter()
        poses = self.poses()
        hit = self.questions.pick(*self.mouse_ray(where), poses, models=False)
        if hit is not None:
            self.what_if[self.selected] = self.questions.stand(hit.point, start_pose.facing_deg)
            self.refresh()

    def refresh(self) -> None:
        """Put every bike where the timeline and the tries say, ask the selection's questions
        again and redraw the overlays, caption and panel."""
        from entropy3d.viewer.marks import ACTIVE

        poses = self.poses()
        _, hidden, active = self.timeline.poses()
        for model_id, node in self.models.items():
            if model_id in hidden or model_id not in poses:
                node.hide()
                continue
            pose = poses[model_id]
            node.show()
            node.setPos(pose.x, pose.y, pose.z)
            node.setHpr(pose.facing_deg, 0, 0)
        if self.selected not in poses:
            self.selected, self.target = None, None
        self.overlay_root.getChildren().detach()
        self.labels.clear()
        focus = self.selected or active or next(iter(poses), None)  # templates and ruler follow the selection
        if focus is not None:
            self._draw_overlays(poses, focus)
        if active is not None:
            self._ring(active, poses[active], ACTIVE)
            if self.follow:
                self.centre = np.array([poses[active].x, poses[active].y, poses[active].z])
        self._draw_tries(poses)
        self._draw_selection(poses)
        self._draw_measure()
        self._draw_plan(poses)
        self.lines.build(self.overlay_root)
        if self.live is not None and not self.live.done:
            caption = f"a game of {self.table.name}: turn {max(1, self.live.state().turn)} of {self.live.header.turns}"
        elif self.ridden:  # the timeline's moment no longer stands: the plans ridden here moved it on
            caption = f"{len(self.ridden)} action{'s' if len(self.ridden) != 1 else ''} taken here from " + (
                "the starting positions" if self.timeline.step is None else f"action {self.timeline.index + 1}")
        else:
            caption = "\n".join(wrapped(self.timeline.caption(self.questions.names)))
        if self.timeline.steps:
            caption += f"\nplay speed x{self.speed:g}" + ("   following the active model" if self.follow else "")
            if self.slider is not None and len(self.timeline.steps) > 1:
                self.slider.setValue(max(0, self.timeline.index) / (len(self.timeline.steps) - 1))
        if self.ridden:
            caption += "\n" + self.taken_words()
        if self.live is not None:  # wrapped: a question's prompt runs long, clear of the panel on the right
            caption += "\n" + "\n".join(wrapped(self.live_words()))
        if self.notice:
            caption += f"\n{self.notice}"
        if self.save_refused:
            caption += f"\nnot saved: {self.save_refused} (u undoes the try)"
        elif self.saved:
            caption += f"\nsaved the table to {self.saved[-1]} (entropy3d view {self.saved[-1].name} opens it)"
        if self.what_if:
            caption += "\nwhat if: " + ", ".join(self.questions.names.rider(m) for m in sorted(self.what_if)) + \
                " moved (u undoes)"
        self._set_text(self.caption, caption)
        self.dirty = True
        self._place_camera()

    def capture(self, path: str | Path) -> Path:
        """Draw two frames and save the second as an image (PNG)."""
        from panda3d.core import Filename

        self.base.win.setActive(True)
        for _ in range(2):
            self.base.graphicsEngine.renderFrame()
        path = Path(path)
        if not self.base.win.saveScreenshot(Filename.fromOsSpecific(str(path))):
            raise OSError(f"could not write the screenshot {path}")
        return path
