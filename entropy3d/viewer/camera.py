"""The viewer's camera, as a mixin of :class:`~entropy3d.viewer.app.Viewer`: the view that fits the
whole table, orbit, zoom, top-down, centring on a model, and the ray under the mouse.

The camera turns about ``centre`` (inches, on the table) at ``distance`` inches, ``yaw`` degrees
about the vertical (0 looks along +y) and ``pitch`` degrees above the table; every change marks the
window ``dirty`` so it draws again (it draws nothing while idle).
"""

from __future__ import annotations

import math

import numpy as np

#: the opening view puts the table's farthest corner this far out from the centre of the frame
#: (1: the edge), leaving the caption and the help lines clear
FIT_EXTENT = 0.8


class ViewerCamera:
    """Camera methods of the viewer (its attributes are set by ``Viewer``)."""

    def _fitting_view(self):
        """Centre, yaw, pitch and distance (inches) that show the whole table and what stands on
        it: the camera moved in until the bounding box's farthest corner is at FIT_EXTENT of the frame."""
        low, high = self.geometry.bounds()
        low[:2], high[:2] = np.minimum(low[:2], 0.0), np.maximum(high[:2], [self.table.width, self.table.depth])
        centre = np.array([(low[0] + high[0]) / 2, (low[1] + high[1]) / 2, 0.0])
        corners = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1]) for z in (low[2], high[2])])
        horizontal, vertical = (math.tan(math.radians(f) / 2) for f in self.base.camLens.getFov())
        yaw, pitch = 0.0, 55.0
        offset = np.array([0.0, -math.cos(math.radians(pitch)), math.sin(math.radians(pitch))])
        right, up = np.array([1.0, 0.0, 0.0]), np.cross(-offset, [1.0, 0.0, 0.0])
        distance = float(np.linalg.norm(high - low))
        for _ in range(8):
            relative = corners - (centre + offset * distance)
            depth = relative @ -offset
            extent = max(np.max(np.abs(relative @ right / depth)) / horizontal,
                         np.max(np.abs(relative @ up / depth)) / vertical)
            distance *= 1.0 + (extent / FIT_EXTENT - 1.0) * 0.8
        return centre, yaw, pitch, distance

    def _zoom(self, factor: float) -> None:
        self.distance = float(np.clip(self.distance * factor, 3.0, 6.0 * max(self.table.width, self.table.depth)))
        self.dirty = True

    def _orbit(self, dyaw: float, dpitch: float) -> None:
        self.yaw += dyaw
        self.pitch = float(np.clip(self.pitch + dpitch, 5.0, 89.5))
        self.dirty = True

    def _top_down(self) -> None:
        if self.pitch >= 89.0:
            self.centre, self.yaw, self.pitch, self.distance = self._fitting_view()
        else:
            self.yaw, self.pitch = 0.0, 89.5
        self.dirty = True

    def _centre(self) -> None:
        """c: the camera turns about the target (where its ray fan ends), else the selection, else
        the active model, where they stand now (a try, a game played here)."""
        _, _, active = self.timeline.poses()
        poses = self.poses()
        focus = self.target or self.selected or active
        self.centre = (np.array([poses[focus].x, poses[focus].y, poses[focus].z]) if focus in poses else
                       self._fitting_view()[0])
        self.dirty = True

    def _place_camera(self) -> None:
        from panda3d.core import Point3

        yaw, pitch = math.radians(self.yaw), math.radians(self.pitch)
        offset = np.array([math.sin(yaw) * math.cos(pitch), -math.cos(yaw) * math.cos(pitch), math.sin(pitch)])
        eye = self.centre + offset * self.distance
        self.base.camera.setPos(*eye)
        self.base.camera.lookAt(Point3(*self.centre), (0, 0, 1))
        self.base.camLens.setNearFar(0.5, 20.0 * max(self.table.width, self.table.depth))
        self.labels.place()

    def _mouse(self):
        watcher = self.base.mouseWatcherNode
        return (watcher.getMouseX(), watcher.getMouseY()) if watcher is not None and watcher.hasMouse() else None

    def mouse_ray(self, where) -> tuple[np.ndarray, np.ndarray]:
        """The segment (start, end; inches) under the mouse at film point ``where``."""
        from panda3d.core import Point2, Point3

        near, far = Point3(), Point3()
        self.base.camLens.extrude(Point2(*where), near, far)
        render = self.base.render
        return (np.array(render.getRelativePoint(self.base.cam, near)),
                np.array(render.getRelativePoint(self.base.cam, far)))
