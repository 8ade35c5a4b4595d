"""TableRenderer: draws a loaded table and its miniatures offscreen, frame after frame.

One renderer holds one offscreen buffer and one scene graph; moving miniatures, cameras and
overlays between frames is cheap, so a video is one renderer and many ``render_to_array()``
calls. The static table comes from ``build_table_geometry`` (what physics and line of sight use
too); the mutable parts (miniature poses, knocked-over scenery, drawn paths) are set by the caller.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from panda3d.core import (
    Camera,
    LMatrix4f,
    NodePath,
    OrthographicLens,
    PerspectiveLens,
    Point3,
    TextNode,
    TransparencyAttrib,
)
from PIL import Image

from entropy3d.geometry import Pose
from entropy3d.look.frame import CLIFF_BOTTOM, FRAME_WIDTH
from entropy3d.look.labels import Plate, draw_legend, draw_name_plates
from entropy3d.look.paint import paint_table, texels_for
from entropy3d.look.shapes import colour_rgb, tube_triangles
from entropy3d.outputs import AtomicFile
from entropy3d.render import cameras
from entropy3d.render.backend import OffscreenTarget, resolve_backend
from entropy3d.render.cameras import CameraView
from entropy3d.render.lighting import add_lights
from entropy3d.render.miniatures import (
    DOWN_RAISE_IN,
    DOWN_ROLL_DEG,
    GHOST_ALPHA,
    WRECK_COLOUR_SCALE,
    WRECK_LEAN_DEG,
    build_miniature_node,
)
from entropy3d.render.nodes import gradient_card, soft_disc_node, unlit_node
from entropy3d.render.table_scene import GridStyle, build_table_node
from entropy3d.scene.build import TableGeometry, build_table_geometry
from entropy3d.scene.table import Table

MAX_SIDE = 4096
#: the fractional supersampling a renderer takes besides whole numbers
SUPERSAMPLES = (1.5,)
#: a miniature's contact shadow on a painted table: its opacity under a standing model, its size
#: as a multiple of the base's, how high (inches) a model flies for it to fade to half, and how
#: far (inches) it floats over the surface to win the depth test
CONTACT_SHADOW_ALPHA = 0.6
CONTACT_SHADOW_SPREAD = 1.5
CONTACT_SHADOW_FADE_IN = 2.0
CONTACT_SHADOW_LIFT_IN = 0.03
SKY_TOP, SKY_BOTTOM = colour_rgb("#dfe3e8"), colour_rgb("#8d949c")


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> (1280, 720); ValueError saying what is wrong otherwise."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT in pixels, e.g. 1280x720")
    width, height = int(parts[0]), int(parts[1])
    check_size((width, height))
    return width, height


def check_size(size: tuple[int, int]) -> None:
    """ValueError unless both sides are whole pixels from 16 to :data:`MAX_SIDE`."""
    width, height = size
    for label, value in (("width", width), ("height", height)):
        if int(value) != value or not 16 <= value <= MAX_SIDE:
            raise ValueError(f"image {label} {value} must be 16 to {MAX_SIDE} pixels")


def write_png_atomic(image: np.ndarray, path: str | Path) -> Path:
    """Write an (H, W, 3) uint8 image as PNG atomically (:class:`~entropy3d.outputs.AtomicFile`), so
    a failed write never leaves a half-written file. The folder must exist."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(f"output folder {folder} does not exist; create it or choose another path")
    with AtomicFile(path, "wb") as output:
        Image.fromarray(image).save(output.stream, format="PNG")
    return path


class TableRenderer:
    """Renders one table offscreen at ``size`` = (width, height) pixels.

    ``backend``: ``tiny`` (software, default), ``gl`` (headless EGL) or ``auto``; see
    :mod:`entropy3d.render.backend`. ``supersample``: draw this many times larger and average
    down, which anti-aliases the software rasteriser (default 2 while that stays within 4096 px);
    a whole number, or 1.5 (2.25 samples a pixel for ~1.8x a plain frame's time where 2 takes
    ~3.8x: a film's default).
    ``painted``: the table painted (:mod:`.paint`: materials, soft shadows, ambient occlusion,
    baked once per table); False draws it in flat colours, the look before (a benchmark's floor).
    The paint carries the shadows, so ``shadows=False`` draws flat colours too.
    """

    def __init__(self, table: Table, size: tuple[int, int] = (1280, 720), *,
                 geometry: TableGeometry | None = None, camera: str | CameraView | None = None,
                 grid: bool = True, shadows: bool = True, title: str | None = None,
                 backend: str | None = None, supersample: float | None = None, bike_models: bool = True,
                 painted: bool = True):
        check_size(size)
        self.table = table
        self.size = (int(size[0]), int(size[1]))
        self.geometry = geometry if geometry is not None else build_table_geometry(table)
        self.backend = resolve_backend(backend)
        if supersample is None:
            supersample = 2 if 2 * max(self.size) <= MAX_SIDE else 1
        if supersample not in SUPERSAMPLES and not (float(supersample).is_integer() and supersample >= 1):
            raise ValueError(f"supersample must be a whole number from 1, or 1.5; got {supersample}")
        while supersample > 1 and round(max(self.size) * supersample) > MAX_SIDE:
            supersample = 1.5 if supersample > 1.5 else 1  # a 4K frame is drawn as large as a buffer goes
        self.supersample = float(supersample) if supersample == 1.5 else int(supersample)
        self.target = OffscreenTarget(self.backend, round(self.size[0] * self.supersample),
                                      round(self.size[1] * self.supersample))
        self.aspect = self.size[0] / self.size[1]
        try:
            self._build(table, camera, grid, shadows, title, bike_models, painted)
        except BaseException:
            self.close()
            raise

    def _build(self, table: Table, camera, grid: bool, shadows: bool, title: str | None, bike_models: bool,
               painted: bool):
        """The scene graph, the three layers (backdrop, table, caption) and the first camera."""
        self.scene = NodePath("scene")
        paint = None
        if painted and shadows:
            paint = paint_table(table.spec, self.geometry, texels_for(round(max(self.size) * self.supersample)))
        table_node, self.piece_nodes = build_table_node(table.spec, self.geometry,
                                                        GridStyle() if grid else None, shadows,
                                                        self.backend, paint)
        table_node.reparent_to(self.scene)
        self._lights = add_lights(self.scene)
        self.overlays = self.scene.attach_new_node("overlays")
        self._overlay_nodes: dict[str, NodePath] = {}

        self.model_nodes: dict[str, NodePath] = {}
        self.model_poses: dict[str, Pose] = {}
        #: the models in play drawn lying down wherever they are placed (:meth:`set_lying`)
        self.lying: set[str] = set()
        self._ghosts: dict[str, NodePath] = {}
        self._contact_shadows: dict[str, NodePath] = {}
        starts = self.geometry.surface_height([m.position[:2] for m in table.models]) if table.models else []
        for model, surface in zip(table.models, starts):
            node = build_miniature_node(table, model, bike_models)
            node.reparent_to(self.scene)
            self.model_nodes[model.id] = node
            if paint is not None:
                base = table.base_of(model)
                shadow = soft_disc_node(f"contact-shadow:{model.id}", (0.0, 0.0, 0.0), CONTACT_SHADOW_ALPHA)
                shadow.set_python_tag("base", (base.length, base.width))
                shadow.reparent_to(self.scene)
                self._contact_shadows[model.id] = shadow
            self.place_model(model.id, table.start_pose(model, float(surface)))

        self._backdrop = self._flat_layer("backdrop", sort=0)
        sky = gradient_card("sky", SKY_TOP, SKY_BOTTOM)
        sky.reparent_to(self._backdrop[0])
        sky.set_scale(self.aspect, 1, 1)

        self._lens = PerspectiveLens()
        self._camera = self.scene.attach_new_node(Camera("camera", self._lens))
        # no depth clear of its own: the buffer's, as the frame starts, holds, as the backdrop
        # writes no depth (a second fill of the depth buffer was 3% of a frame, issue 17)
        self.target.add_layer(self._camera, sort=1)

        self._hud = self._flat_layer("hud", sort=2)
        self._title = TextNode("title")
        self._title.set_text_color(1, 1, 1, 1)
        self._title.set_card_color(0.05, 0.06, 0.08, 0.55)
        self._title.set_card_as_margin(0.4, 0.4, 0.25, 0.2)
        self._title_node = title_node = self._hud[0].attach_new_node(self._title)
        scale = 0.062 * min(1.0, self.aspect / 1.2)  # narrow (portrait) frames get smaller text
        title_node.set_scale(scale)
        title_node.set_pos(-self.aspect + scale, 0, 1.0 - 2 * scale)
        self.set_title(title if title is not None else
                       f"{table.name}  |  {table.width:g} x {table.depth:g} in" + ("  |  grid 1 in" if grid else ""))

        # no camera asked: the default one, framed without the occlusion search (a film or still
        # that sets its own view would pay for it for nothing: ~0.4 s on a 200k-triangle print)
        self.view = self.set_camera(camera if camera is not None else cameras.DEFAULT_CAMERA,
                                    occlusion=camera is not None)

    # ----------------------------------------------------------------- scene set-up
    def _flat_layer(self, name: str, sort: int) -> tuple[NodePath, NodePath]:
        """A 2D layer over the whole frame: x from -aspect to aspect, z from -1 to 1; drawn in
        order, without depth, so it clears none."""
        root = NodePath(name)
        root.set_depth_test(False)
        root.set_depth_write(False)
        lens = OrthographicLens()
        lens.set_film_size(2 * self.aspect, 2)
        lens.set_near_far(-10, 10)
        camera = root.attach_new_node(Camera(f"{name}-camera", lens))
        self.target.add_layer(camera, sort=sort)
        return root, camera

    # ----------------------------------------------------------------- what the caller changes
    @property
    def camera_names(self) -> list[str]:
        """The built-in cameras and the scene's own, by name."""
        return cameras.camera_names(self.table.spec.cameras)

    def set_camera(self, camera: str | CameraView, occlusion: bool = True) -> CameraView:
        """Look through a named camera (built-in or the scene's) or an explicit view; ``occlusion``:
        the ``low`` and ``iso`` cameras pick the view where no piece hides a miniature (else the
        plain framing)."""
        if isinstance(camera, str):
            ids = list(self.model_poses)
            focus = np.array([[p.x, p.y, p.z + cameras.FOCUS_LIFT_IN]
                              for p in self.model_poses.values()]).reshape(-1, 3)
            gangs = {self.table.model(i).gang for i in ids}
            groups = [np.array([k for k, i in enumerate(ids) if self.table.model(i).gang == gang])
                      for gang in sorted(gangs)]
            camera = cameras.resolve_camera(camera, self.table.spec.cameras, self.table.width,
                                            self.table.depth, self._extent, self.aspect, focus,
                                            self._occluders if occlusion and camera in ("low", "iso") else None,
                                            groups)
        position, target = np.asarray(camera.position, float), np.asarray(camera.look_at, float)
        if np.linalg.norm(target - position) < 1e-6:
            raise ValueError(f"{camera!r}: position and look_at are the same point")
        self._camera.set_pos(*position)
        up = (0, 1, 0) if np.linalg.norm(np.cross(target - position, (0, 0, 1))) < 1e-6 else (0, 0, 1)
        self._camera.look_at(Point3(*target), up)
        vertical = camera.fov_deg
        horizontal = math.degrees(2 * math.atan(math.tan(math.radians(vertical) / 2) * self.aspect))
        self._lens.set_fov(horizontal, vertical)
        near, far = self._clip_range(position)
        self._lens.set_near_far(near, far)
        self.view = camera
        return camera

    @functools.cached_property
    def _extent(self) -> np.ndarray:
        """Points a fitted camera keeps in frame: the frame's corners and every piece's corners."""
        w, d, f = self.table.width, self.table.depth, FRAME_WIDTH
        points = [cameras.box_corners((-f, -f, CLIFF_BOTTOM), (w + f, d + f, 0.0))]
        points += [cameras.box_corners(*piece.mesh.bounds) for piece in self.geometry.pieces]
        return np.concatenate(points)

    @functools.cached_property
    def _occluders(self):
        """Every raised static piece as one mesh, for the ``low`` and ``iso`` cameras' visibility tests."""
        return cameras.occluder_mesh(self.geometry)

    @functools.cached_property
    def _table_box(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The box of the table, its frame and every piece (low, high) and its 8 corners, inches:
        the geometry never changes, so it is measured once, not per frame."""
        lo, hi = self.geometry.bounds()
        lo = np.minimum(lo, [-FRAME_WIDTH, -FRAME_WIDTH, CLIFF_BOTTOM])
        hi = np.maximum(hi, [self.table.width + FRAME_WIDTH, self.table.depth + FRAME_WIDTH, 1.0])
        corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        return lo, hi, corners

    def _clip_range(self, eye: np.ndarray) -> tuple[float, float]:
        """Near and far planes hugging the table, so the depth buffer's precision goes where the
        table is (the software rasteriser's depth buffer is coarse)."""
        lo, hi, corners = self._table_box
        nearest = float(np.linalg.norm(eye - np.clip(eye, lo, hi)))
        farthest = float(np.max(np.linalg.norm(corners - eye, axis=1)))
        return max(0.05, 0.7 * nearest), farthest * 1.2 + 1.0

    def set_title(self, text: str) -> None:
        """The caption in the top-left corner ('' hides it)."""
        self._title.set_text(text)
        self._title.set_card_as_margin(0.4, 0.4, 0.25, 0.2) if text else self._title.clear_card()

    def place_model(self, model_id: str, pose: Pose) -> None:
        """Stand a miniature at ``pose`` (x, y, z of the surface, facing), all in inches."""
        node = self._model_node(model_id)
        node.set_pos(pose.x, pose.y, pose.z)
        node.set_hpr(pose.facing_deg, 0, 0)
        node.clear_color_scale()
        node.find("rider").clear_transform()
        self.model_poses[model_id] = pose
        if model_id in self.lying:
            self._lie(node, pose, 1.0)
        self._cast_contact_shadow(model_id, pose.x, pose.y, pose.z, pose.facing_deg)

    def set_lying(self, model_ids) -> None:
        """Draw ``model_ids`` lying down, still in play, wherever :meth:`place_model` puts them (a
        fighter Seriously Injured or pinned: :meth:`~entropy3d.systems.base.GameSystem.lies_down`),
        and every other model standing; takes effect as each is next placed."""
        self.lying = set(model_ids)

    def _cast_contact_shadow(self, model_id: str, x: float, y: float, z: float, facing_deg: float) -> None:
        """Lay a miniature's contact shadow on the static surface under (x, y) below ``z``
        (inches): as wide as its base (:data:`CONTACT_SHADOW_SPREAD`) while it stands there,
        paler and wider the higher it flies, so a jump's height reads off the ground."""
        shadow = self._contact_shadows.get(model_id)
        if shadow is None:
            return
        ground = float(self.geometry.surface_height([(x, y)], below=z + 0.05, static_only=True)[0])
        height = max(z - ground, 0.0)
        fade = 1.0 / (1.0 + height / CONTACT_SHADOW_FADE_IN)
        length, width = shadow.get_python_tag("base")
        spread = CONTACT_SHADOW_SPREAD * (1.0 + 0.35 * (1.0 - fade))
        shadow.show() if not self._model_node(model_id).is_hidden() else shadow.hide()
        shadow.set_pos(x, y, ground + CONTACT_SHADOW_LIFT_IN)
        shadow.set_hpr(facing_deg, 0, 0)
        shadow.set_scale(0.5 * length * spread, 0.5 * width * spread, 1.0)
        shadow.set_alpha_scale(fade)

    def place_wreck(self, model_id: str, pose: Pose) -> None:
        """Show a taken-out rider's miniature as its wreck at ``pose`` (EC-WOUND: scenery from
        then on): burnt to a sooty grey and leaning over; :meth:`place_model` makes it a bike again."""
        node = self._model_node(model_id)
        node.show()
        node.set_pos(pose.x, pose.y, pose.z)
        node.set_hpr(pose.facing_deg, WRECK_LEAN_DEG, 0)
        node.set_color_scale(*WRECK_COLOUR_SCALE)
        node.find("rider").clear_transform()  # a wreck is the whole miniature, its rider with it
        self.model_poses[model_id] = pose
        self._cast_contact_shadow(model_id, pose.x, pose.y, pose.z, pose.facing_deg)

    def show_ghost(self, model_id: str, pose: Pose | None) -> None:
        """A see-through copy of a miniature standing at ``pose`` (where the rules put it, beside
        where physics left it: the rules' snap made visible); None hides it."""
        ghost = self._ghosts.get(model_id)
        if pose is None:
            if ghost is not None:
                ghost.hide()
            return
        if ghost is None:
            ghost = self._ghosts[model_id] = self._model_node(model_id).copy_to(self.scene)
            ghost.set_transparency(TransparencyAttrib.M_alpha)
            ghost.find("rider").clear_transform()  # the rules' pose has him in the seat
        ghost.show()
        ghost.set_pos(pose.x, pose.y, pose.z)
        ghost.set_hpr(pose.facing_deg, 0, 0)
        ghost.clear_color_scale()
        ghost.set_alpha_scale(GHOST_ALPHA)

    def lay_down(self, model_id: str, share: float = 1.0, out: bool = True) -> None:
        """Lay a miniature on its side where it stands, ``share`` of the way down (0 standing, 1
        lying: a fall drawn frame by frame): rolled up to :data:`DOWN_ROLL_DEG` about its facing,
        raised up to its base's half width so the base stays above the ground. One taken ``out``
        that leaves no wreck (a figure on foot) is greyed once down, and :meth:`place_model`
        stands it up; one still in play (a fighter Seriously Injured) keeps its colours and stays
        down wherever it is placed (:attr:`lying`) until :meth:`set_lying` says otherwise."""
        node = self._model_node(model_id)
        node.show()
        self._lie(node, self.model_poses[model_id], share)
        if share >= 1.0 and out:
            node.set_color_scale(*WRECK_COLOUR_SCALE)
        elif share >= 1.0:
            self.lying.add(model_id)

    @staticmethod
    def _lie(node, pose: Pose, share: float) -> None:
        node.set_pos(pose.x, pose.y, pose.z + DOWN_RAISE_IN * share)
        node.set_hpr(pose.facing_deg, 0, DOWN_ROLL_DEG * share)

    def set_model_transform(self, model_id: str, matrix: np.ndarray) -> None:
        """Set a miniature's full 4x4 transform (inches; e.g. a bike tumbling in physics)."""
        self._model_node(model_id).set_mat(_panda_matrix(matrix))
        facing = math.degrees(math.atan2(matrix[1, 0], matrix[0, 0]))
        self._cast_contact_shadow(model_id, float(matrix[0, 3]), float(matrix[1, 3]), float(matrix[2, 3]), facing)

    def throw_rider(self, model_id: str, matrix: np.ndarray | None) -> None:
        """Put a miniature's rider where the 4x4 transform ``matrix`` (inches, the frame his
        body moves by: :func:`entropy3d.physics.tumble.thrown_rider`) puts him, off his bike
        wherever the bike is; None (or :meth:`place_model`) seats him again."""
        node = self._model_node(model_id)
        rider = node.find("rider")
        if matrix is None:
            rider.clear_transform()
            return
        rider.set_mat(self.scene, _panda_matrix(matrix))

    def show_model(self, model_id: str, visible: bool = True) -> None:
        """Show or hide a miniature (e.g. once it is out of the game), its contact shadow with it."""
        node = self._model_node(model_id)
        node.show() if visible else node.hide()
        shadow = self._contact_shadows.get(model_id)
        if shadow is not None:
            shadow.show() if visible else shadow.hide()

    def set_piece_transform(self, piece_id: str, matrix: np.ndarray) -> None:
        """Move a table piece (a destructible knocked about) by a 4x4 transform in inches,
        applied to its mesh as built. Only destructibles move: every other piece carries its
        light baked in (:mod:`.lighting`), which would not turn with it."""
        if piece_id not in self.piece_nodes:
            raise KeyError(f"no piece {piece_id!r}; pieces: {', '.join(self.piece_nodes)}")
        if not self.geometry.by_id(piece_id).dynamic:
            raise ValueError(f"piece {piece_id!r} is not destructible scenery: it never moves")
        self.piece_nodes[piece_id].set_mat(_panda_matrix(matrix))

    def add_polyline(self, points, colour: str = "#ffd31a", width: float = 0.08, name: str | None = None) -> str:
        """Draw a path or sight line through ``points`` (N, 3) inches as an unlit tube ``width``
        inches thick; returns its name for :meth:`remove_overlay`. Same name replaces."""
        name = name or f"line{len(self._overlay_nodes)}"
        self.remove_overlay(name)
        node = unlit_node(name, tube_triangles(np.asarray(points, float), width), (*colour_rgb(colour), 1.0))
        node.reparent_to(self.overlays)
        self._overlay_nodes[name] = node
        return name

    def remove_overlay(self, name: str) -> None:
        node = self._overlay_nodes.pop(name, None)
        if node is not None:
            node.remove_node()

    def clear_overlays(self) -> None:
        for name in list(self._overlay_nodes):
            self.remove_overlay(name)

    def project(self, points) -> np.ndarray:
        """Table points (N, 3) inches to pixel (column, row) in the output image; NaN behind the eye."""
        ndc = cameras.project(self.view, np.asarray(points, float), self.aspect)
        return cameras.to_pixels(ndc, *self.size)

    def _model_node(self, model_id: str) -> NodePath:
        if model_id not in self.model_nodes:
            raise KeyError(f"no model {model_id!r}; models: {', '.join(self.model_nodes)}")
        return self.model_nodes[model_id]

    # ----------------------------------------------------------------- output
    def render_to_array(self) -> np.ndarray:
        """Draw the current state: an (height, width, 3) uint8 image, top row first."""
        image = self.target.render()
        if isinstance(self.supersample, int) and self.supersample > 1:  # each k x k block averaged (exact, fast)
            image = np.array(Image.fromarray(image).reduce(self.supersample))
        elif self.supersample != 1:
            image = box_downsample(image, self.size)
        return image

    def save_png(self, path: str | Path, legend: bool = False, names: bool = False) -> Path:
        """Render and write a PNG atomically (see :func:`write_png_atomic`); with ``legend`` and
        ``names`` labelled as a still is (:meth:`labelled`)."""
        image = self.render_to_array()
        return write_png_atomic(self.labelled(image, legend, names) if legend or names else image, path)

    def labelled(self, image: np.ndarray, legend: bool = True, names: bool = True) -> np.ndarray:
        """``image``, this renderer's frame, as a new array with who is who written on it
        (:mod:`entropy3d.look.labels`): with ``legend`` the scene's gangs by name in their colours
        in the top-right corner, with ``names`` a name plate by each miniature shown in the
        frame, the rider's name on its gang's colour; none over the caption, the legend, another
        plate or a miniature where the frame has room."""
        picture = Image.fromarray(np.asarray(image, dtype=np.uint8))
        taken = [self._caption_box()] if self._title.get_text() else []
        if legend and self.table.spec.gangs:
            draw_legend(picture, [(gang.name, gang.colour) for gang in self.table.spec.gangs.values()], taken)
        if names:
            draw_name_plates(picture, self._plates(), taken)
        return np.asarray(picture)

    def _plates(self) -> list[Plate]:
        """A name plate for each miniature shown whose middle is in the frame, with the box
        (pixels) it fills: its base's reach each way, up to the height of a bike's box
        (:data:`~entropy3d.render.cameras.BIKE_BOX`; a figure on foot is about as tall)."""
        plates = []
        for model_id, pose in self.model_poses.items():
            if self.model_nodes[model_id].is_hidden():
                continue
            model = self.table.model(model_id)
            base = self.table.base_of(model)
            reach = base.radius
            corners = self.project(cameras.box_corners((pose.x - reach, pose.y - reach, pose.z),
                                                       (pose.x + reach, pose.y + reach, pose.z + cameras.BIKE_BOX[2])))
            middle = self.project([(pose.x, pose.y, pose.z + cameras.RIDER_MIDDLE_IN)])[0]
            if not (np.all(np.isfinite(corners)) and 0 <= middle[0] < self.size[0] and 0 <= middle[1] < self.size[1]):
                continue
            plates.append(Plate(model.rider.name or model.id, self.table.gang_colour(model.gang),
                                (*corners.min(axis=0), *corners.max(axis=0))))
        return plates

    def _caption_box(self) -> tuple[float, float, float, float]:
        """The caption's panel in the picture: (left, top, right, bottom) pixels."""
        left, right, bottom, top = self._title.get_card_actual()
        scale, (x, _, z) = self._title_node.get_scale()[0], self._title_node.get_pos()
        width, height = self.size
        column = lambda across: (x + scale * across + self.aspect) / (2 * self.aspect) * width  # noqa: E731
        row = lambda up: (1.0 - (z + scale * up)) / 2 * height  # noqa: E731
        return column(left), row(top), column(right), row(bottom)

    def close(self) -> None:
        """Give the offscreen buffer back (to be reused); the renderer cannot draw after this."""
        self.target.close()

    def __enter__(self) -> "TableRenderer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_BAND_WORKERS: list[ThreadPoolExecutor] = []
_BAND_LOCK = threading.Lock()


def _band_workers() -> ThreadPoolExecutor:
    """The process's two downsampling threads, started on first use (a forked child starts its own)."""
    with _BAND_LOCK:
        if not _BAND_WORKERS:
            _BAND_WORKERS.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="entropy3d-downsample"))
        return _BAND_WORKERS[0]


os.register_at_fork(after_in_child=_BAND_WORKERS.clear)


def box_downsample(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` (rows, columns, 3) shrunk to ``size`` (width, height), each pixel the
    area-weighted mean of the pixels it covers (PIL's box filter). Where both heights are even,
    the middle row of the image falls on the middle row of the result, so its two halves shrink
    apart, on two threads (PIL lets go of the GIL): the same bytes in 9 ms, not 20, for a
    1080-row frame."""
    rows, height = image.shape[0], size[1]
    half = rows // 2
    if height % 2 == 0 and rows % 2 == 0:
        bands = _band_workers().map(
            lambda band: np.asarray(Image.fromarray(band).resize((size[0], height // 2), Image.BOX)),
            (image[:half], image[half:]))
        return np.concatenate(list(bands))
    return np.array(Image.fromarray(image).resize(size, Image.BOX))


def _panda_matrix(matrix: np.ndarray) -> LMatrix4f:
    """A column-vector 4x4 transform (numpy/trimesh convention) as Panda3D's row-vector matrix."""
    m = np.asarray(matrix, float)
    if m.shape != (4, 4):
        raise ValueError(f"a transform must be 4x4, got shape {m.shape}")
    return LMatrix4f(*m.T.ravel())


def render_table(table: Table, output: str | Path, camera: str = cameras.DEFAULT_CAMERA,
                 size: tuple[int, int] = (1280, 720), grid: bool = True, backend: str | None = None,
                 legend: bool = True, names: bool = True) -> Path:
    """Render ``table`` from ``camera`` into the PNG ``output``, with the gang legend and name
    plates unless told not to (:meth:`TableRenderer.labelled`); returns the path written."""
    with TableRenderer(table, size, camera=camera, grid=grid, backend=backend) as renderer:
        return renderer.save_png(output, legend, names)
