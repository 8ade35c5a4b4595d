"""Panda3D nodes the viewer draws over the table: lines drawn on top of the scenery, rings under
models, and text pinned to a table point on screen. Points are table inches."""

from __future__ import annotations

import math

import numpy as np

#: colours (r, g, b, a) of the overlays, one meaning each
CAN_SHOOT = (0.25, 1.0, 0.35, 1.0)
NO_SHOT = (1.0, 0.25, 0.2, 1.0)
SELECTED = (1.0, 0.9, 0.2, 1.0)
ACTIVE = (1.0, 1.0, 1.0, 1.0)
RULER = (1.0, 1.0, 1.0, 1.0)
TARGETED = (0.3, 0.8, 1.0, 1.0)
#: a tried model's start
GHOST = (0.75, 0.75, 0.75, 0.8)
#: the selected model's front half (EC-LOS-2)
FRONT_ARC = (0.55, 0.85, 1.0, 0.9)
#: inches: how far the front half is drawn out from a selected model
FRONT_ARC_IN = 8.0
#: pixels: the least height of a label's text, whatever the window's size
LABEL_MIN_PX = 13


def shot_colour(can_shoot: bool | None) -> tuple:
    """A sight line's colour: green can shoot, red no shot, grey where the rulebook has no shots."""
    return CAN_SHOOT if can_shoot else NO_SHOT if can_shoot is False else GHOST


def on_top(node) -> None:
    """Draw ``node`` over the scenery: no depth test, after everything else, unlit."""
    node.setDepthTest(False)
    node.setDepthWrite(False)
    node.setBin("fixed", 50)
    node.setLightOff()


class LineBatch:
    """Every overlay line of one frame, gathered and built as one node per width (a node per
    line makes each changed frame slower to draw)."""

    def __init__(self):
        self.groups: dict[tuple[float, bool], list[tuple[np.ndarray, tuple]]] = {}

    def add(self, polylines, colour, thickness: float = 2.0, top: bool = True) -> None:
        """Polylines ((N, 3) inches each) ``thickness`` pixels wide; ``top``: over the scenery."""
        self.groups.setdefault((thickness, top), []).extend((np.asarray(p, float), colour) for p in polylines)

    def add_segments(self, segments, colours, thickness: float = 1.0, top: bool = True) -> None:
        """Straight segments ((S, 2, 3) inches), each in its own colour; ``top``: over the scenery
        (else hidden where the scenery is in front, as a ray through a wall is)."""
        self.groups.setdefault((thickness, top), []).extend(zip(np.asarray(segments, float), colours))

    def build(self, parent) -> None:
        from panda3d.core import LineSegs

        for (thickness, top), lines in self.groups.items():
            segments = LineSegs("overlay")
            segments.setThickness(thickness)
            for points, colour in lines:
                segments.setColor(*colour)
                segments.moveTo(*points[0])
                for point in points[1:]:
                    segments.drawTo(*point)
            node = parent.attachNewNode(segments.create())
            if top:
                on_top(node)
        self.groups = {}


def ring_points(centre, radius: float) -> np.ndarray:
    """A circle of ``radius`` inches lying at ``centre`` (the ground under a model), (49, 3)."""
    turn = np.linspace(0.0, 2 * math.pi, 49)
    return np.column_stack([centre[0] + radius * np.cos(turn), centre[1] + radius * np.sin(turn),
                            np.full(len(turn), centre[2] + 0.05)])


def front_half_points(pose, radius: float = FRONT_ARC_IN) -> np.ndarray:
    """The front half a model sees out of (EC-LOS-2), drawn on the ground: the half circle of
    ``radius`` inches in front of its base's centre, closed by the line across the centre at right
    angles to its facing, (34, 3) inches."""
    heading = math.radians(pose.facing_deg)
    turn = np.linspace(heading - math.pi / 2, heading + math.pi / 2, 33)
    points = np.column_stack([pose.x + radius * np.cos(turn), pose.y + radius * np.sin(turn)])
    points = np.vstack([points, points[:1]])
    return np.column_stack([points, np.full(len(points), pose.z + 0.06)])


def ruler_ticks(profile_start, profile_end, lift: float = 0.15) -> tuple[list, list[tuple[int, np.ndarray]]]:
    """A straight ruler from ``profile_start`` to ``profile_end``: the rule, a tick every inch
    (longer every 6") and where each whole inch's number goes, inches."""
    start, end = np.asarray(profile_start, float), np.asarray(profile_end, float)
    length = float(np.linalg.norm(end - start))
    ahead = (end - start) / max(length, 1e-9)
    side = np.cross(ahead, [0.0, 0.0, 1.0])
    side = side / np.linalg.norm(side) if np.linalg.norm(side) > 1e-6 else np.array([1.0, 0.0, 0.0])
    lift_by = np.array([0.0, 0.0, lift])
    lines = [np.array([start + lift_by, end + lift_by])]
    numbers = []
    for inch in range(int(length + 1e-6) + 1):
        half = 0.5 if inch % 6 == 0 else 0.25
        centre = start + ahead * inch + lift_by
        lines.append(np.array([centre - side * half, centre + side * half]))
        numbers.append((inch, centre + side * 0.9))
    return lines, numbers


class ScreenLabels:
    """Text pinned to table points: placed on screen again whenever the camera or the window
    changes, so labels keep their place beside what they name."""

    def __init__(self, base):
        self.base = base
        self.root = base.aspect2d.attachNewNode("labels")
        self.items: list[tuple[object, np.ndarray]] = []
        self.leaders = None
        #: (text, where drawn, the point it names) of the labels shown, each in -1..1 of the window
        self.shown: list[tuple[str, tuple[float, float], tuple[float, float]]] = []

    def clear(self) -> None:
        for node, _ in self.items:
            node.removeNode()
        self.items = []

    def add(self, text: str, point, colour, scale: float = 0.038, background=(0, 0, 0, 0.55),
            give_way: bool = True) -> None:
        """Pin ``text`` to ``point``; ``give_way``: moved down when it would cover a label.
        ``scale``: its height as a share of half the window's shorter side, never under
        :data:`LABEL_MIN_PX` pixels (a small window keeps readable labels)."""
        from panda3d.core import TextNode

        label = TextNode("label")
        label.setText(text)
        label.setTextColor(*colour)
        label.setAlign(TextNode.ACenter)
        label.setCardColor(*background)
        label.setCardAsMargin(0.3, 0.3, 0.15, 0.1)
        label.setCardDecal(True)
        node = self.root.attachNewNode(label)
        node.setScale(scale)
        node.setPythonTag("give_way", give_way)
        node.setPythonTag("scale", scale)
        node.setPythonTag("colour", colour)
        self.items.append((node, np.asarray(point, float)))

    def place(self) -> None:
        """Move every label to where its point is drawn now (hidden when behind the camera), in
        a landscape or a portrait window alike, kept inside the window; a label moved away from its
        point (to clear another, or the window's edge) gets a leader line back to it."""
        from panda3d.core import LineSegs, Point2, Point3

        lens, camera = self.base.camLens, self.base.cam
        aspect = self.base.getAspectRatio()
        # aspect2d spans [-aspect, aspect] x [-1, 1] in a landscape window, [-1, 1] x [-1/aspect,
        # 1/aspect] in a portrait one (a label once stood at the wrong height in a portrait window)
        x_span, y_span = (aspect, 1.0) if aspect >= 1 else (1.0, 1.0 / aspect)
        shorter_px = min(self.base.win.getXSize(), self.base.win.getYSize())
        least = LABEL_MIN_PX / (shorter_px / 2)  # the scale that draws LABEL_MIN_PX-high text
        if self.leaders is not None:
            self.leaders.removeNode()
        leaders = LineSegs("leaders")
        leaders.setThickness(1.5)
        placed: list[tuple[float, float, float, float]] = []  # (left, right, bottom, top) taken
        self.shown = []
        for node, point in self.items:
            film = Point2()
            if not lens.project(camera.getRelativePoint(self.base.render, Point3(*point)), film):
                node.hide()
                continue
            node.show()
            scale = max(float(node.getPythonTag("scale")), least)
            node.setScale(scale)
            half, height = node.node().getWidth() * scale / 2 + 0.01, 1.25 * scale
            anchor_x, anchor_y = film[0] * x_span, film[1] * y_span
            x = float(np.clip(anchor_x, -x_span + half, x_span - half))
            y = float(np.clip(anchor_y, -y_span + height, y_span - height))
            if node.getPythonTag("give_way"):
                while any(x - half < r and x + half > lo and y < t and y + height > b for lo, r, b, t in placed):
                    y -= height  # below the label already there, so none hides another
                placed.append((x - half, x + half, y, y + height))
            node.setPos(x, 0, y)
            if abs(x - anchor_x) > half or abs(y - anchor_y) > 1.5 * height:
                leaders.setColor(*node.getPythonTag("colour"))
                leaders.moveTo(anchor_x, 0, anchor_y)
                leaders.drawTo(x, 0, y + height / 3)
            self.shown.append((node.node().getText(), (x / x_span, y / y_span), (anchor_x / x_span, anchor_y / y_span)))
        self.leaders = self.root.attachNewNode(leaders.create())

    def pixels(self) -> list[dict]:
        """Where each label shown is drawn and the point it names, window pixels (for the state file)."""
        width, height = self.base.win.getXSize(), self.base.win.getYSize()

        def px(xy):
            return [round((xy[0] + 1) / 2 * width, 1), round((1 - xy[1]) / 2 * height, 1)]

        return [{"text": text, "at": px(at), "anchor": px(anchor)} for text, at, anchor in self.shown]


def pixels_of(base, points) -> np.ndarray:
    """Window pixels (x right, y down) where table points are drawn; NaN behind the camera."""
    from panda3d.core import Point2, Point3

    width, height = base.win.getXSize(), base.win.getYSize()
    out = np.full((len(points), 2), np.nan)
    for k, point in enumerate(np.asarray(points, float)):
        film = Point2()
        if base.camLens.project(base.cam.getRelativePoint(base.render, Point3(*point)), film):
            out[k] = [(film[0] + 1) / 2 * width, (1 - film[1]) / 2 * height]
    return out


def table_to_pixels_matrix(base) -> np.ndarray:
    """(4, 4) matrix taking a table point [x, y, z, 1] (inches) to clip space; with the window
    size it gives the pixel any point is drawn at (scripts and tests aim clicks with it)."""
    view = base.render.getMat(base.cam)
    projection = base.camLens.getProjectionMat()
    full = view * projection  # Panda3D multiplies row vectors: point * view * projection
    return np.array([[full.getCell(row, column) for row in range(4)] for column in range(4)])


def pixel_of_point(matrix, window_size, point) -> np.ndarray:
    """Where :func:`table_to_pixels_matrix` puts ``point`` in a window of ``window_size`` pixels."""
    clip = np.asarray(matrix, float) @ np.array([*np.asarray(point, float)[:3], 1.0])
    ndc = clip[:3] / clip[3]
    return np.array([(ndc[0] + 1) / 2 * window_size[0], (1 - ndc[1]) / 2 * window_size[1]])
