"""The shape of a miniature (bike and rider, a car or van, or a figure on foot) in table inches,
for sight lines and physics, and the mesh every picture draws of it.

Simple solids sized from the rules data: the bike fills most of its base up to
``bike_height_in``; the rider sits from the saddle (three quarters of the bike's height) up to
``rider_height_in`` above it. A vehicle (the rules data's ``vehicles:``) is its bodywork up to its
waist and its glasshouse up to its roof (its mesh in the rounded plan :func:`vehicle_plan`). A figure on
foot stands on its round base, ``figure_height_in`` tall: a body (legs and torso) up to the
shoulders and a head above it. Pictures draw the finer bundled meshes (authored by
``tools/make_models.py`` to the same sizes), but what is *seen* and *hit* is this shape.

Which mesh a miniature shows is decided here and only here (:func:`miniature_model_path`,
:func:`miniature_colour_parts`): the film, the stills, the viewer, the share page and the glTF
export all draw what these give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import trimesh
from shapely.geometry import Polygon

from entropy3d.errors import MeshError
from entropy3d.geometry import BaseShape, Pose
from entropy3d.resources import bundled_dir
from entropy3d.scene.build import oriented_box
from entropy3d.systems.entropy_city.ruleset import ON_FOOT, Ruleset
from entropy3d.systems.entropy_city.vehicledata import VEHICLE_PLAN_POWER, VehicleKind
from entropy3d.units import INCHES_PER_UNIT

BASE_THICKNESS_IN = 0.12
#: height of the saddle (the rider's hips) above the base top, as a fraction of the bike height
SADDLE_FRACTION = 0.75
#: a figure on foot: the shoulders' height as a fraction of the figure's, and the body's and the
#: head's width and depth as fractions of the base's diameter (a person seen from the front is
#: about three times as wide as deep at the shoulders, and its head a third of that wide)
SHOULDER_FRACTION = 0.8
BODY_WIDTH, BODY_DEPTH, HEAD_SIZE = 0.5, 0.3, 0.22
#: node names of a bundled bike file; ``lights`` is only in the police bike
BIKE_MODEL_NODES = ("base", "bike", "metal", "wheels", "rider", "lights")
#: node names of a bundled vehicle file (``vehicle_<kind>.glb``); ``lights`` only on a police car
VEHICLE_MODEL_NODES = ("base", "body", "trim", "windows", "wheels", "lights")
#: the nodes of a bundled file painted in the gang's colour: a bike's bodywork, a vehicle's body
PAINTED_NODES = ("bike", "body")


@dataclass(frozen=True, eq=False)
class MiniatureShape:
    """Meshes of one miniature at a pose, table inches. ``base`` is the flat base disc. For a
    figure on foot ``bike`` is its body (legs and torso: what must be seen, as a rider's bike
    must, EC-LOS-4) and ``rider`` its head, whose top the eye sits just under."""

    bike: trimesh.Trimesh
    rider: trimesh.Trimesh
    base: trimesh.Trimesh

    @property
    def body(self) -> trimesh.Trimesh:
        """Bike and rider together (what the 25% cover rule measures, EC-COVER-1)."""
        return trimesh.util.concatenate([self.bike, self.rider])


def base_disc(base: BaseShape, pose: Pose) -> trimesh.Trimesh:
    """The flat base of a miniature standing at ``pose`` (its bottom at ``pose.z``), table inches:
    an elliptic disc ``BASE_THICKNESS_IN`` thick, ``base.length`` along the facing; a vehicle's
    footprint (a superellipse, :class:`~entropy3d.geometry.BaseShape`) a plate of its plan."""
    if base.power != 2.0:
        plate = trimesh.creation.extrude_polygon(Polygon(base.local_outline(64)), BASE_THICKNESS_IN)
        plate.apply_transform(trimesh.transformations.rotation_matrix(np.radians(pose.facing_deg), [0, 0, 1]))
        plate.apply_translation((pose.x, pose.y, pose.z))
        return plate
    disc = trimesh.creation.cylinder(radius=0.5, height=BASE_THICKNESS_IN, sections=32)
    disc.apply_scale((base.length, base.width, 1.0))
    disc.apply_transform(trimesh.transformations.rotation_matrix(
        pose.facing_deg * 3.141592653589793 / 180.0, [0, 0, 1]))
    disc.apply_translation((pose.x, pose.y, pose.z + BASE_THICKNESS_IN / 2))
    return disc


def vehicle_plan(length: float, width: float, samples: int = 32) -> np.ndarray:
    """A vehicle's outline seen from above, ``length`` along +x and ``width`` across (any unit),
    centred on the origin: (samples, 2) points, counter-clockwise from the nose, of the
    superellipse of power :data:`VEHICLE_PLAN_POWER` (a rectangle with rounded corners): the
    outline of its footprint (:class:`~entropy3d.geometry.BaseShape`), which its mesh is built on."""
    return np.array(BaseShape(float(length), float(width), VEHICLE_PLAN_POWER).local_outline(samples))


def _vehicle_solids(vehicle: VehicleKind, pose: Pose, top: float) -> tuple[trimesh.Trimesh, trimesh.Trimesh]:
    """A vehicle's bodywork (its length and width up to the waist) and glasshouse (over its cabin
    run and width, from the waist to the roof) as boxes at ``pose`` on a base whose top is at
    ``top``: boxes, as a bike's and rider's solids are (sight lines take every miniature's solids
    as two boxes of eight corners), so they reach the plan's rounded corners' bounding box."""
    body = oriented_box((pose.x, pose.y), vehicle.length, vehicle.width, vehicle.waist, pose.facing_deg, top)
    start, stop = vehicle.cabin
    centre = pose.to_table(np.array([[0.5 * (start + stop), 0.0]]))[0]
    cabin = oriented_box((float(centre[0]), float(centre[1])), stop - start, vehicle.cabin_width,
                         vehicle.height - vehicle.waist, pose.facing_deg, top + vehicle.waist)
    return body, cabin


def miniature_shape(base: BaseShape, pose: Pose, ruleset: Ruleset, kind: str | None = None) -> MiniatureShape:
    """The bike, rider and base of a miniature standing at ``pose`` (z = surface height). ``kind``
    is its ``bike_type``: ``on_foot`` gives the body, head and base of a figure on foot; a kind of
    the rules data's ``vehicles:`` its bodywork (as ``bike``), glasshouse (as ``rider``: the
    driver's eye sits under its roof) and base; a bike type, or None, a bike and its rider."""
    disc = base_disc(base, pose)
    top = pose.z + BASE_THICKNESS_IN
    if kind in ruleset.vehicles:
        body, cabin = _vehicle_solids(ruleset.vehicles[kind], pose, top)
        return MiniatureShape(bike=body, rider=cabin, base=disc)
    if kind == ON_FOOT:
        shoulders = SHOULDER_FRACTION * ruleset.figure_height_in
        body = oriented_box((pose.x, pose.y), BODY_DEPTH * base.length, BODY_WIDTH * base.width, shoulders,
                            pose.facing_deg, top)
        head = oriented_box((pose.x, pose.y), HEAD_SIZE * base.length, HEAD_SIZE * base.width,
                            ruleset.figure_height_in - shoulders, pose.facing_deg, top + shoulders)
        return MiniatureShape(bike=body, rider=head, base=disc)
    bike_length = 0.85 * base.length if not base.is_round else 0.8 * base.length
    bike_width = 0.3 * base.width if not base.is_round else 0.6 * base.width
    bike = oriented_box((pose.x, pose.y), bike_length, bike_width, ruleset.bike_height_in,
                        pose.facing_deg, top)
    rider = oriented_box((pose.x, pose.y), 0.3 * base.length, 0.35 * base.width if not base.is_round
                         else 0.3 * base.width, ruleset.rider_height_in, pose.facing_deg,
                         top + SADDLE_FRACTION * ruleset.bike_height_in)
    return MiniatureShape(bike=bike, rider=rider, base=disc)


def figure_model(ruleset: Ruleset, armed: bool = False) -> dict[str, trimesh.Trimesh]:
    """A figure on foot to draw, facing +x with its base's top centre at (0, 0,
    ``BASE_THICKNESS_IN``), table inches: ``legs``, ``body`` (torso and arms, in the gang colour),
    ``head`` and, when ``armed``, a ``gun`` held level across the body. Within the body and head
    solids of :func:`miniature_shape`, which are what sight lines and physics use."""
    height = ruleset.figure_height_in
    shoulders = SHOULDER_FRACTION * height
    hips = 0.45 * height
    top = BASE_THICKNESS_IN

    def rod(radius: float, length: float, at, tilt_deg: float = 0.0, axis=(0, 1, 0)) -> trimesh.Trimesh:
        mesh = trimesh.creation.cylinder(radius=radius, height=length, sections=12)
        if tilt_deg:
            mesh.apply_transform(trimesh.transformations.rotation_matrix(math.radians(tilt_deg), axis))
        mesh.apply_translation(at)
        return mesh

    legs = trimesh.util.concatenate([rod(0.05, hips, (0.0, side * 0.07, top + hips / 2)) for side in (-1, 1)])
    torso = trimesh.creation.box(extents=[0.17, 0.3, shoulders - hips])
    torso.apply_translation((0.0, 0.0, top + (hips + shoulders) / 2))
    arms = [rod(0.04, 0.34, (0.12, side * 0.17, top + shoulders - 0.12), 70.0) for side in (-1, 1)]
    head = trimesh.creation.icosphere(subdivisions=2, radius=0.5 * (height - shoulders))
    head.apply_translation((0.0, 0.0, top + shoulders + 0.5 * (height - shoulders)))
    parts = {"legs": legs, "body": trimesh.util.concatenate([torso] + arms), "head": head}
    if armed:
        parts["gun"] = rod(0.025, 0.5, (0.22, -0.05, top + shoulders - 0.1), 90.0)
    return parts


#: the colours of a figure on foot's parts (None: the gang's colour)
FIGURE_COLOURS = {"legs": (0.2, 0.188, 0.173), "body": None, "head": (0.784, 0.604, 0.471),
                  "gun": (0.114, 0.122, 0.133)}


def figure_colour_parts(ruleset: Ruleset, armed: bool = False
                        ) -> list[tuple[str, tuple[float, float, float] | None, trimesh.Trimesh]]:
    """:func:`figure_model` as ``(name, rgb in 0..1 or None for the gang colour, mesh)`` pieces,
    the form of :func:`model_file_colour_parts`."""
    return [(name, FIGURE_COLOURS[name], mesh) for name, mesh in figure_model(ruleset, armed).items()]


def miniature_model_path(ruleset: Ruleset, kind: str) -> Path | None:
    """The bundled mesh file a miniature of ``kind`` (its ``bike_type``) shows in every picture:
    ``models/vehicle_<kind>.glb`` for a kind of the rules data's ``vehicles:``, else
    ``models/bike_<kind>.glb``; None for a figure on foot, drawn from :func:`figure_model`."""
    if kind == ON_FOOT:
        return None
    return bundled_dir("models") / (f"vehicle_{kind}.glb" if kind in ruleset.vehicles else f"bike_{kind}.glb")


@lru_cache(maxsize=16)
def _model_inches(path: Path) -> tuple[tuple[str, trimesh.Trimesh], ...]:
    if not path.is_file():
        raise MeshError(path, [("", None, f"miniature model {path.name!r} is missing; regenerate the bundled "
                                          "models with `python tools/make_models.py`")])
    scene = trimesh.load_scene(str(path))
    # the files are glTF: Y up, millimetres at model scale -> Z up, table inches
    to_table = trimesh.transformations.rotation_matrix(math.pi / 2, [1, 0, 0])
    to_table = np.diag([INCHES_PER_UNIT["mm"]] * 3 + [1.0]) @ to_table
    nodes = []
    for node in scene.graph.nodes_geometry:
        transform, geometry_name = scene.graph.get(node)
        mesh = scene.geometry[geometry_name].copy()
        mesh.apply_transform(to_table @ transform)
        nodes.append((node, mesh))
    return tuple(nodes)


def load_model_file(path: Path, pose: Pose | None = None) -> dict[str, trimesh.Trimesh]:
    """A bundled miniature mesh file (:func:`miniature_model_path`) as named parts in table
    inches, Z up.

    Keys are node names (:data:`BIKE_MODEL_NODES` or :data:`VEHICLE_MODEL_NODES`; those of
    :data:`PAINTED_NODES` are the bodywork to tint with the gang colour). Without a pose the model
    faces +x with the centre of its base bottom at the origin; with one it stands at ``pose``
    (z = surface height). Faces carry the authored colours. Raises MeshError when it is missing.
    """
    placed = {}
    transform = None
    if pose is not None:
        transform = trimesh.transformations.rotation_matrix(math.radians(pose.facing_deg), [0, 0, 1])
        transform[:3, 3] = [pose.x, pose.y, pose.z]
    for name, mesh in _model_inches(path):
        mesh = mesh.copy()
        if transform is not None:
            mesh.apply_transform(transform)
        placed[name] = mesh
    return placed


def model_file_colour_parts(path: Path) -> list[tuple[str, tuple[float, float, float] | None, trimesh.Trimesh]]:
    """A bundled miniature mesh file (facing +x at the origin, table inches, z up) as ``(node name,
    rgb in 0..1, mesh)`` pieces, one per authored colour; ``rgb`` None marks the bodywork
    (:data:`PAINTED_NODES`), which is painted in the gang's colour. The ``base`` node is left out:
    the base is drawn from the rules' base shape (:func:`miniature_shape`). Raises MeshError
    when the file is missing."""
    pieces = []
    for name, mesh in load_model_file(path).items():
        if name == "base":
            continue
        colours = np.asarray(mesh.visual.face_colors)[:, :3]
        unique, owner = np.unique(colours, axis=0, return_inverse=True)
        groups = [(None, np.arange(len(mesh.faces)))] if name in PAINTED_NODES else \
            [(tuple(rgb / 255.0), np.flatnonzero(owner.ravel() == k)) for k, rgb in enumerate(unique)]
        pieces += [(name, rgb, mesh.submesh([faces], append=True)) for rgb, faces in groups]
    return pieces


def miniature_colour_parts(ruleset: Ruleset, kind: str, armed: bool = False
                           ) -> list[tuple[str, tuple[float, float, float] | None, trimesh.Trimesh]]:
    """What a miniature of ``kind`` (its ``bike_type``) looks like, in every picture: its bundled
    mesh (:func:`model_file_colour_parts` of :func:`miniature_model_path`), or a figure on foot
    (:func:`figure_colour_parts`, ``armed`` with its gun). Raises MeshError when a file is missing."""
    path = miniature_model_path(ruleset, kind)
    return figure_colour_parts(ruleset, armed) if path is None else model_file_colour_parts(path)
