"""The interactive viewer window (Panda3D ShowBase): a table or a replay to explore.

Keys (also shown in the window, h toggles them):

- mouse: left-drag orbit, right-drag pan, wheel zoom; arrows orbit, +/- zoom, c re-centre
- replay: space play/pause, n next action, p previous action, home back to the start
- overlays: l sight lines (EC-LOS-1), t turning templates (EC-TMPL-1), r inch ruler
- q or Esc quit

The table and miniatures are the same scene-graph nodes the headless renderer draws
(:mod:`entropy3d.render`); sight lines come from :mod:`entropy3d.los`. Without a display the
viewer refuses with :class:`DisplayUnavailable` before any window is tried.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import numpy as np

from entropy3d.errors import EntropyError
from entropy3d.geometry import Pose

HELP = ("drag: orbit   right-drag: pan   wheel/+/-: zoom   c: centre   space: play/pause   n/p: next/previous "
        "action   l: sight lines   t: templates   r: ruler   h: help   q: quit")


class DisplayUnavailable(EntropyError, RuntimeError):
    """No display to open a window on."""


def display_problem() -> str:
    """Why no window can open here ("" when a display seems available)."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no display (DISPLAY is not set): `entropy3d view` opens a window. On a headless machine "
                "render instead: `entropy3d demo`, `entropy3d replay-render REPLAY` or `entropy3d render SCENE`")
    return ""


def run_viewer(source: str | Path | None = None, *, screenshot: str | Path | None = None,
               steps: int = 0, overlays: str = "") -> None:
    """Open the viewer on ``source``. With ``screenshot`` it draws offscreen instead (no display
    needed), after ``steps`` presses of n and the overlay keys in ``overlays`` (e.g. "ltr"), saves
    one frame there and returns."""
    if screenshot is None:
        problem = display_problem()
        if problem:
            raise DisplayUnavailable(problem)
    from entropy3d.game.replay import load_source

    table, geometry, replay = load_source(source)
    from panda3d.core import loadPrcFileData

    loadPrcFileData("entropy3d.viewer", f"window-title entropy3d - {table.name}\nwin-size 1280 720\n"
                    "audio-library-name null\nnotify-level error\nsync-video true\n")
    if screenshot is not None:
        loadPrcFileData("entropy3d.viewer.offscreen", "load-display p3tinydisplay\nwin-size 960 540\n")
    from direct.showbase.ShowBase import ShowBase

    try:
        base = ShowBase(windowType="offscreen" if screenshot is not None else "onscreen")
    except Exception as error:  # Panda3D raises a bare Exception when no window opens
        raise DisplayUnavailable(f"could not open a window: {error}") from None
    if base.win is None:
        raise DisplayUnavailable("could not open a window (no graphics pipe)")
    viewer = Viewer(base, table, geometry, replay)
    if screenshot is None:
        base.run()
        return
    for _ in range(steps):
        viewer.timeline.next()
    for key in overlays:
        viewer.toggle(key)
    viewer.refresh()
    viewer.capture(screenshot)
    base.destroy()


def pipe_backend(pipe) -> str:
    """``tiny`` for Panda3D's software pipe, else ``gl``: the ground layers' depth state differs
    (:func:`entropy3d.render.table_scene.ground_layer_state`); with the wrong one an OpenGL window
    draws no roads, zones or grid."""
    return "tiny" if "tiny" in pipe.get_type().get_name().lower() else "gl"


class Viewer:
    """The scene graph, the orbit camera, the replay timeline and the overlays of one window."""

    def __init__(self, base, table, geometry, replay):
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import AmbientLight, DirectionalLight, Point3, TextNode

        from entropy3d.render.miniatures import build_miniature_node
        from entropy3d.render.table_scene import SUN_DIRECTION, GridStyle, build_table_node
        from entropy3d.viewer.timeline import Timeline

        self.base, self.table, self.geometry = base, table, geometry
        base.disableMouse()
        base.setBackgroundColor(0.55, 0.58, 0.62, 1)
        table_node, self.piece_nodes = build_table_node(table.spec, geometry, GridStyle(), True,
                                                        backend=pipe_backend(base.pipe))
        table_node.reparentTo(base.render)
        self.models = {}
        for model in table.models:
            node = build_miniature_node(table, model)
            node.reparentTo(base.render)
            self.models[model.id] = node
        sun = base.render.attachNewNode(DirectionalLight("sun"))
        sun.node().setColor((0.78, 0.75, 0.70, 1))
        sun.lookAt(Point3(*(-SUN_DIRECTION)))
        ambient = base.render.attachNewNode(AmbientLight("ambient"))
        ambient.node().setColor((0.4, 0.41, 0.44, 1))
        base.render.setLight(sun)
        base.render.setLight(ambient)
        self.overlay_root = base.render.attachNewNode("overlays")
        start = replay.header.initial if replay is not None else table.initial_state(geometry.surface_height)
        self.timeline = Timeline(replay, start)
        self.show = {"l": False, "t": False, "r": False}
        self.playing = False
        self._los = None
        self.centre = np.array([table.width / 2, table.depth / 2, 0.0])
        self.yaw, self.pitch, self.distance = -25.0, 52.0, 1.25 * max(table.width, table.depth)
        self._drag = None
        self.caption = OnscreenText(text="", pos=(-1.73, 0.92), scale=0.05, fg=(1, 1, 1, 1), align=TextNode.ALeft,
                                    mayChange=True, shadow=(0, 0, 0, 0.8))
        self.help = OnscreenText(text=HELP, pos=(0, -0.96), scale=0.035, fg=(1, 1, 1, 1), mayChange=True,
                                 shadow=(0, 0, 0, 0.8), wordwrap=100)
        self._bind()
        self.refresh()
        base.taskMgr.add(self._tick, "entropy3d-viewer")

    # -- input ---------------------------------------------------------------------------------

    def _bind(self) -> None:
        accept = self.base.accept
        for key in ("q", "escape"):
            accept(key, sys.exit)
        accept("space", self._toggle_play)
        accept("n", self._step, [1])
        accept("p", self._step, [-1])
        accept("home", self._home)
        for key in "ltr":
            accept(key, self._toggle_and_refresh, [key])
        accept("h", lambda: self.help.hide() if not self.help.isHidden() else self.help.show())
        accept("c", self._centre)
        accept("wheel_up", self._zoom, [0.9])
        accept("wheel_down", self._zoom, [1.1])
        for key, factor in (("+", 0.9), ("=", 0.9), ("-", 1.1)):
            accept(key, self._zoom, [factor])
            accept(f"{key}-repeat", self._zoom, [factor])
        for key, (dyaw, dpitch) in {"arrow_left": (-5, 0), "arrow_right": (5, 0), "arrow_up": (0, 4),
                                    "arrow_down": (0, -4)}.items():
            accept(key, self._orbit, [dyaw, dpitch])
            accept(f"{key}-repeat", self._orbit, [dyaw, dpitch])
        accept("mouse1", self._start_drag, ["orbit"])
        accept("mouse3", self._start_drag, ["pan"])
        accept("mouse1-up", self._end_drag)
        accept("mouse3-up", self._end_drag)

    def _toggle_play(self) -> None:
        self.playing = not self.playing

    def _step(self, direction: int) -> None:
        self.playing = False
        self.timeline.next() if direction > 0 else self.timeline.previous()
        self.refresh()

    def _home(self) -> None:
        self.playing = False
        self.timeline.index, self.timeline.t = -1, 0.0
        self.refresh()

    def toggle(self, key: str) -> None:
        self.show[key] = not self.show[key]

    def _toggle_and_refresh(self, key: str) -> None:
        self.toggle(key)
        self.refresh()

    def _zoom(self, factor: float) -> None:
        self.distance = float(np.clip(self.distance * factor, 3.0, 4.0 * max(self.table.width, self.table.depth)))

    def _orbit(self, dyaw: float, dpitch: float) -> None:
        self.yaw += dyaw
        self.pitch = float(np.clip(self.pitch + dpitch, 5.0, 89.0))

    def _centre(self) -> None:
        poses, _, active = self.timeline.poses()
        self.centre = (np.array([poses[active].x, poses[active].y, poses[active].z]) if active else
                       np.array([self.table.width / 2, self.table.depth / 2, 0.0]))

    def _mouse(self):
        watcher = self.base.mouseWatcherNode
        return (watcher.getMouseX(), watcher.getMouseY()) if watcher is not None and watcher.hasMouse() else None

    def _start_drag(self, mode: str) -> None:
        where = self._mouse()
        self._drag = (mode, where) if where is not None else None

    def _end_drag(self) -> None:
        self._drag = None

    # -- frame ---------------------------------------------------------------------------------

    def _tick(self, task):
        where = self._mouse()
        if self._drag is not None and where is not None:
            mode, last = self._drag
            dx, dy = where[0] - last[0], where[1] - last[1]
            if mode == "orbit":
                self._orbit(-120.0 * dx, -90.0 * dy)
            else:
                yaw = math.radians(self.yaw)
                right = np.array([math.cos(yaw), math.sin(yaw), 0.0])
                forward = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
                self.centre = self.centre - (right * dx + forward * dy) * 0.6 * self.distance
            self._drag = (mode, where)
        if self.playing:
            self.playing = self.timeline.advance(self.base.clock.getDt())
            self.refresh()
        self._place_camera()
        return task.cont

    def _place_camera(self) -> None:
        from panda3d.core import Point3

        yaw, pitch = math.radians(self.yaw), math.radians(self.pitch)
        offset = np.array([math.sin(yaw) * math.cos(pitch), -math.cos(yaw) * math.cos(pitch), math.sin(pitch)])
        eye = self.centre + offset * self.distance
        self.base.camera.setPos(*eye)
        self.base.camera.lookAt(Point3(*self.centre), (0, 0, 1))
        self.base.camLens.setNearFar(0.1, 20.0 * max(self.table.width, self.table.depth))

    def refresh(self) -> None:
        """Put every bike where the timeline says and redraw the overlays and caption."""
        poses, hidden, active = self.timeline.poses()
        for model_id, node in self.models.items():
            if model_id in hidden or model_id not in poses:
                node.hide()
                continue
            pose = poses[model_id]
            node.show()
            node.setPos(pose.x, pose.y, pose.z)
            node.setHpr(pose.facing_deg, 0, 0)
        self.overlay_root.getChildren().detach()
        focus = active or next(iter(poses), None)
        if focus is not None:
            self._draw_overlays(poses, focus)
        self.caption.setText(self.timeline.caption())
        self._place_camera()

    def _lines(self, polylines, colour, width: float = 0.05) -> None:
        """Draw polylines ((N, 3) inches) as thin unlit tubes, the renderer's own overlay shape."""
        from entropy3d.render.nodes import unlit_node
        from entropy3d.render.shapes import tube_triangles

        for k, points in enumerate(polylines):
            node = unlit_node(f"overlay{k}", tube_triangles(np.asarray(points, float), width), colour)
            node.reparentTo(self.overlay_root)

    def _draw_overlays(self, poses: dict[str, Pose], focus: str) -> None:
        from entropy3d.viewer.timeline import ruler_polyline, template_polylines

        pose = poses[focus]
        if self.show["t"]:
            for name, points in template_polylines(pose, self.table.ruleset):
                shade = {"tight": (1, 0.4, 0.3, 1), "medium": (1, 0.8, 0.2, 1), "wide": (0.4, 0.9, 1, 1)}
                self._lines([points], shade[name.split("-")[0]])
        if self.show["r"]:
            self._lines(ruler_polyline(pose), (1, 1, 1, 1))
        if self.show["l"]:
            gang = {m.id: m.gang for m in self.table.models}
            if self._los is None:
                from entropy3d.los import LosWorld

                self._los = LosWorld(self.table, self.geometry)
            everyone = {m.id: poses.get(m.id) for m in self.table.models}
            rivals = [m for m in poses if gang[m] != gang[focus]]
            results = self._los.all_pairs(everyone, [(focus, r) for r in rivals]) if rivals else {}
            for (viewer, target), result in results.items():
                a, b = poses[viewer], poses[target]
                colour = (0.2, 1.0, 0.3, 1) if result.top_down.visible else (1.0, 0.2, 0.2, 1)
                self._lines([np.array([[a.x, a.y, a.z + 1.0], [b.x, b.y, b.z + 1.0]])], colour, 0.08)

    def capture(self, path: str | Path) -> Path:
        """Draw two frames and save the second as an image (PNG)."""
        from panda3d.core import Filename

        for _ in range(2):
            self.base.graphicsEngine.renderFrame()
        path = Path(path)
        if not self.base.win.saveScreenshot(Filename.fromOsSpecific(str(path))):
            raise OSError(f"could not write the screenshot {path}")
        return path
