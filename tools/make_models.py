"""Author the bundled mesh files in ``models/``: bikes with riders, scenery and a 3D-print piece.

Run ``python tools/make_models.py`` to regenerate every file; the output is deterministic (same
bytes each run), so a diff in ``models/`` means a shape changed.

Conventions of every file written here:

* Lengths are **millimetres at model scale** (a 28-32 mm figure; 1 table inch = 25.4 mm, about
  1.42 m of the depicted city). Scenes place them with ``units: mm``.
* GLB files follow glTF's axis convention, **Y up** (the model's own +x stays +x, its height is
  +y, and its left side, +y in table terms, is -z). ``entropy3d.scene.meshes`` turns Y-up files
  Z-up when it loads them, and :func:`entropy3d.scene.miniature.load_model_file` gives a bike
  in table inches, Z up. Bikes face +x; every origin is on the ground at the centre of the
  model's footprint (bikes: the centre of the bottom of the base; the street lamp: the foot of
  its pole, its arm reaching over +x).
* The STL (``barricade_print_mm.stl``) is Z up, like a slicer expects, and a single closed solid
  (a boolean union), so it could be printed as is.

Bike files (``bike_<type>.glb`` for sportsbike, cruiser, trailbike, quad, scooter, police) hold
these named nodes, so a renderer can colour them separately:

* ``base``   - the flat base: a 75 x 42 mm oval (quads: 70 mm round), 3 mm thick (EC-BASE).
* ``bike``   - painted bodywork (tank, fairing, fenders, seat cowl): tint with the gang colour.
* ``metal``  - frame, forks, handlebars, exhaust, engine: dark metal, not tinted.
* ``wheels`` - tyres and hubs.
* ``rider``  - the seated rider: leathers, arms, legs, helmeted head.
* ``lights`` - police only: the blue and red light bar.

Bikes are sized from the rules data (``rules/entropy_city.yaml``, ``bases:``): the bike reaches
about ``bike_height_mm`` (20) above the base top and the rider's head about ``rider_height_mm``
(24) above the saddle, so that the solids :func:`entropy3d.scene.miniature.miniature_shape`
uses for sight lines and collisions stay close to what is drawn.

Vehicle files (``vehicle_<kind>.glb`` for car, police_car and van: the rules data's ``vehicles:``)
are built from that section's sizes (a car 4.5 x 1.8 x 1.45 m is 81 x 32 x 26 mm), in the plan
:func:`entropy3d.scene.miniature.vehicle_plan` gives the solids sight lines use, with nodes
``base`` (a plate of its plan as thick as a base: its footprint), ``body`` (bodywork and roof,
tinted), ``trim`` (rubbing strip, lamps; a police car's white doors), ``windows``, ``wheels`` and,
on a police car, ``lights``.

Scenery files (GLB, one node per named part): ``bench``, ``cafe_set`` (table and four chairs),
``crate``, ``barrel``, ``jersey_barrier``, ``street_lamp``, ``ruined_wall``, ``car_wreck``
(size class 1), ``truck_wreck`` (size class 2), ``kicker_ramp`` and ``park_tree``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import trimesh
from shapely.geometry import Polygon

from entropy3d.outputs import write_atomic
from entropy3d.scene import load_ruleset
from entropy3d.scene.miniature import vehicle_plan

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
BASE_THICKNESS = 0.12 * 25.4  # mm; the same 0.12" as entropy3d.scene.miniature
BT = BASE_THICKNESS  # z of the base top, where wheels stand
OVAL_BASE = (75.0, 42.0)
ROUND_BASE = 70.0

PAINT = "#b8b8b8"     # neutral bodywork, meant to be tinted by gang colour
METAL = "#3a3c40"
CHROME = "#a9adb3"
TYRE = "#1c1c1e"
HUB = "#7d8288"
LEATHER = "#2b2623"
DENIM = "#2f3f5c"
SKIN = "#c99a7a"
HELMET = "#202226"
BASE_COLOUR = "#4a4a44"

Z_UP_TO_Y_UP = trimesh.transformations.rotation_matrix(-math.pi / 2, [1, 0, 0])


# --- primitives (millimetres, Z up) --------------------------------------------------------------

def paint(mesh: trimesh.Trimesh, colour: str) -> trimesh.Trimesh:
    """Give every face of ``mesh`` one colour ("#rrggbb")."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mesh.visual.face_colors = np.tile([*rgb, 255], (len(mesh.faces), 1))
    return mesh


def box(size, centre, colour, yaw_deg=0.0, pitch_deg=0.0) -> trimesh.Trimesh:
    """A box of ``size`` (x, y, z) turned by pitch (about y) then yaw (about z) round its centre."""
    transform = (trimesh.transformations.rotation_matrix(math.radians(yaw_deg), [0, 0, 1])
                 @ trimesh.transformations.rotation_matrix(math.radians(pitch_deg), [0, 1, 0]))
    transform[:3, 3] = centre
    return paint(trimesh.creation.box(extents=size, transform=transform), colour)


def rod(p0, p1, radius, colour, sections=12) -> trimesh.Trimesh:
    """A cylinder from point ``p0`` to point ``p1``."""
    return paint(trimesh.creation.cylinder(radius=radius, segment=[p0, p1], sections=sections), colour)


def limb(p0, p1, radius, colour) -> trimesh.Trimesh:
    """A capsule (rounded rod) from ``p0`` to ``p1``: arms, legs."""
    ends = [trimesh.creation.icosphere(subdivisions=1, radius=radius).vertices + p for p in (p0, p1)]
    return paint(trimesh.convex.convex_hull(np.vstack(ends)), colour)


def ball(centre, radius, colour, scale=(1.0, 1.0, 1.0)) -> trimesh.Trimesh:
    sphere = trimesh.creation.icosphere(subdivisions=2, radius=radius)
    sphere.apply_scale(scale)
    sphere.apply_translation(centre)
    return paint(sphere, colour)


def hull(points, colour, mirror=True) -> trimesh.Trimesh:
    """Convex hull of (x, y, z) points; with ``mirror`` each point is also taken at -y."""
    points = np.asarray(points, float)
    if mirror:
        points = np.vstack([points, points * [1, -1, 1]])
    return paint(trimesh.convex.convex_hull(points), colour)


def wheel(x, radius, width, colour=TYRE, y=0.0, hub_colour=HUB) -> list[trimesh.Trimesh]:
    """A tyre standing on the base top at ``x`` (axle along y), with a hub."""
    z = BT + radius
    tyre = rod((x, y - width / 2, z), (x, y + width / 2, z), radius, colour, sections=24)
    hub = rod((x, y - width / 2 - 0.3, z), (x, y + width / 2 + 0.3, z), radius * 0.45, hub_colour, 16)
    return [tyre, hub]


def oval_base(length, width) -> trimesh.Trimesh:
    disc = trimesh.creation.cylinder(radius=0.5, height=BASE_THICKNESS, sections=48)
    disc.apply_scale((length, width, 1.0))
    disc.apply_translation((0, 0, BASE_THICKNESS / 2))
    return paint(disc, BASE_COLOUR)


def merged(parts) -> trimesh.Trimesh:
    return trimesh.util.concatenate(list(parts))


# --- riders --------------------------------------------------------------------------------------

def rider(hip, lean_deg, grip, knee, foot, shoulder_width=12.0, colour=LEATHER,
          legs_colour=DENIM, helmet=HELMET) -> list[trimesh.Trimesh]:
    """A seated rider: hips at ``hip`` (x, z), torso leaning ``lean_deg`` forward of upright,
    hands on grips at (x, +-y, z), knees and feet at (x, +-y, z) (mirrored left/right).

    Upright, the top of the helmet is 24 mm above the hips (``rider_height_mm``).
    """
    hx, hz = hip
    torso_length, neck, head_radius = 14.8, 1.8, 3.7
    lean = math.radians(lean_deg)
    sx, sz = hx + torso_length * math.sin(lean), hz + torso_length * math.cos(lean)
    back, front = -math.cos(lean), math.cos(lean)  # torso thickness is across the lean
    parts = [hull([(hx - 3.8, 4.2, hz - 1.0), (hx + 3.2, 4.2, hz - 1.0), (hx - 3.8, 4.2, hz + 3.0),
                   (sx + 3.6 * back, shoulder_width / 2, sz + 3.6 * math.sin(lean)),
                   (sx + 3.0 * front, shoulder_width / 2, sz - 3.0 * math.sin(lean)),
                   (sx - 1.5, shoulder_width / 2 - 1.0, sz + 1.5), (sx + 1.0, shoulder_width / 2 - 1.0, sz + 1.5)],
                  colour)]
    head_x = sx + (neck + head_radius) * math.sin(lean * 0.6)
    head_z = sz + (neck + head_radius) * math.cos(lean * 0.6)
    parts.append(ball((head_x, 0, head_z), head_radius, helmet, scale=(1.1, 0.95, 1.0)))
    parts.append(box((1.2, 5.0, 1.8), (head_x + head_radius * 0.95, 0, head_z + 0.3), "#6f8aa6"))
    for side in (1, -1):
        shoulder = np.array([sx, side * (shoulder_width / 2 - 0.8), sz - 0.8])
        hand = np.array([grip[0], side * grip[1], grip[2]])
        elbow = (shoulder + hand) / 2 + [-1.0, side * 1.6, -1.6]
        parts += [limb(shoulder, elbow, 1.7, colour), limb(elbow, hand, 1.5, colour),
                  ball(hand, 1.5, "#111111")]
        hip_joint = np.array([hx, side * 3.2, hz + 0.5])
        knee_joint = np.array([knee[0], side * knee[1], knee[2]])
        foot_joint = np.array([foot[0], side * foot[1], foot[2]])
        parts += [limb(hip_joint, knee_joint, 2.4, legs_colour), limb(knee_joint, foot_joint, 2.0, legs_colour),
                  box((4.8, 2.6, 2.4), foot_joint + [1.2, 0, -0.3], "#151515")]
    return parts


# --- bikes (each returns {node name: parts}) -----------------------------------------------------

def sportsbike() -> dict[str, list]:
    front, rear, r = 22.0, -21.0, 8.3
    bike = [hull([(29, 2.5, BT + 9), (29, 2.0, BT + 13), (20, 5.5, BT + 6.5), (17, 5.5, BT + 19.5),
                  (14, 3.5, BT + 22.5), (3, 6.0, BT + 19.5), (1, 5.0, BT + 7)], PAINT),
            hull([(1, 4.8, BT + 16), (-9, 4.5, BT + 15.5), (-27, 2.2, BT + 19.5), (-25, 2.0, BT + 16.5),
                  (-4, 4.0, BT + 10)], PAINT),
            hull([(27, 2.0, BT + 18.5), (25, 2.0, BT + 17.5), (28, 2.0, BT + 14)], "#e9f0f5")]
    metal = [rod((front, s * 3.6, BT + r), (15.5, s * 3.6, BT + 19.5), 1.1, CHROME) for s in (1, -1)]
    metal += [rod((rear, s * 3.4, BT + r), (-1, s * 3.4, BT + 10), 1.3, METAL) for s in (1, -1)]
    metal += [rod((12.5, -8.5, BT + 18.5), (12.5, 8.5, BT + 18.5), 0.8, METAL),
              rod((-9, 5.2, BT + 10), (-25, 5.0, BT + 16), 1.9, CHROME),
              box((12, 7, 6), (-2, 0, BT + 8.5), METAL)]
    wheels = wheel(front, r, 4.5) + wheel(rear, r, 5.5)
    body = rider(hip=(-9, BT + 16.5), lean_deg=48, grip=(12.5, 8.0, BT + 18.5),
                 knee=(2.0, 6.8, BT + 13.5), foot=(-7, 6.2, BT + 8.0), colour=LEATHER, legs_colour=LEATHER)
    return {"base": [oval_base(*OVAL_BASE)], "bike": bike, "metal": metal, "wheels": wheels, "rider": body}


def cruiser() -> dict[str, list]:
    front, rear = 26.0, -23.0
    bike = [hull([(1, 4.5, BT + 15), (12, 3.5, BT + 16), (11, 2.5, BT + 19.5), (2, 4.0, BT + 19.0)], PAINT),
            hull([(-15, 5.0, BT + 9), (-30, 4.5, BT + 9), (-31, 4.0, BT + 14), (-22, 5.0, BT + 17.5),
                  (-14, 5.0, BT + 16)], PAINT),
            hull([(20, 3.0, BT + 9), (33, 2.8, BT + 8), (30, 3.0, BT + 16), (22, 3.0, BT + 17)], PAINT),
            hull([(-12, 6.0, BT + 11), (-2, 5.0, BT + 11), (-12, 5.5, BT + 13.5), (-1, 4.5, BT + 13)], "#3a2a1e")]
    metal = [rod((front, s * 3.6, BT + 8), (14.5, s * 3.6, BT + 22), 1.2, CHROME) for s in (1, -1)]
    metal += [rod((14, s * 3.0, BT + 22), (13, s * 10.5, BT + 28), 0.8, CHROME) for s in (1, -1)]
    metal += [rod((13, -10.5, BT + 28), (13, 10.5, BT + 28), 0.8, CHROME),
              rod((-3, 0, BT + 9), (2, 0, BT + 16), 3.2, CHROME), rod((4, 0, BT + 9), (9, 0, BT + 16), 3.2, CHROME),
              box((14, 8, 5), (2, 0, BT + 7), METAL),
              rod((6, 5.5, BT + 6), (-30, 5.8, BT + 8), 1.4, CHROME), rod((8, 6.8, BT + 8), (-30, 6.8, BT + 10.5),
                                                                          1.4, CHROME),
              rod((rear, 3.4, BT + 8), (-8, 3.4, BT + 9), 1.3, METAL),
              rod((rear, -3.4, BT + 8), (-8, -3.4, BT + 9), 1.3, METAL),
              ball((22, 0, BT + 19), 2.6, CHROME)]
    wheels = wheel(front, 8.0, 4.5) + wheel(rear, 8.0, 6.5)
    body = rider(hip=(-9, BT + 13.5), lean_deg=-8, grip=(13, 10.0, BT + 28), knee=(8, 7.5, BT + 17),
                 foot=(17, 7.2, BT + 8.5), shoulder_width=13.5)
    return {"base": [oval_base(*OVAL_BASE)], "bike": bike, "metal": metal, "wheels": wheels, "rider": body}


def trailbike() -> dict[str, list]:
    front, rear = 23.0, -21.0
    bike = [hull([(-20, 3.5, BT + 17), (8, 4.0, BT + 18.5), (10, 5.5, BT + 16), (-2, 5.0, BT + 13),
                  (-27, 2.5, BT + 20.5)], PAINT),
            hull([(21, 2.5, BT + 20.5), (31, 2.0, BT + 19.5), (26, 2.5, BT + 21.5)], PAINT),
            hull([(13, 4.5, BT + 21), (16, 4.5, BT + 14), (15, 1.0, BT + 21.5)], "#efefe6")]
    metal = [rod((front, s * 3.3, BT + 9.5), (13, s * 3.3, BT + 22), 1.1, CHROME) for s in (1, -1)]
    metal += [rod((rear, s * 3.2, BT + 9.5), (-3, s * 3.2, BT + 11), 1.2, METAL) for s in (1, -1)]
    metal += [rod((12, -10.5, BT + 23.5), (12, 10.5, BT + 23.5), 0.8, METAL),
              box((10, 6, 7), (0, 0, BT + 9.5), METAL),
              rod((2, 4.5, BT + 8), (-22, 4.5, BT + 18), 1.5, CHROME)]
    wheels = wheel(front, 10.0, 3.5) + wheel(rear, 9.5, 4.5)
    for x, radius, width in ((front, 10.0, 3.5), (rear, 9.5, 4.5)):  # knobbly tread blocks
        for k in range(14):
            angle = 2 * math.pi * k / 14
            centre = (x + (radius - 0.4) * math.cos(angle), 0, BT + radius + (radius - 0.4) * math.sin(angle))
            wheels.append(box((1.4, width + 0.6, 1.4), centre, TYRE, pitch_deg=-math.degrees(angle)))
    body = rider(hip=(-5, BT + 17.5), lean_deg=18, grip=(12, 10.0, BT + 23.5), knee=(5, 7.0, BT + 15),
                 foot=(-2, 6.5, BT + 8.5), shoulder_width=12.0)
    return {"base": [oval_base(*OVAL_BASE)], "bike": bike, "metal": metal, "wheels": wheels, "rider": body}


def scooter() -> dict[str, list]:
    front, rear, r = 22.5, -21.5, 6.0
    bike = [hull([(-4, 6.5, BT + 8), (-28.5, 5.0, BT + 9), (-29.5, 4.0, BT + 14), (-6, 6.5, BT + 14.5)], PAINT),
            box((18, 11, 2.2), (4, 0, BT + 7), PAINT),
            hull([(12.5, 6.5, BT + 6), (17.5, 5.5, BT + 6), (19.5, 4.5, BT + 19), (14.5, 5.5, BT + 19)], PAINT),
            hull([(19.5, 2.5, BT + 11), (26.5, 2.5, BT + 10), (25.5, 2.5, BT + 14), (19.5, 2.5, BT + 14)], PAINT),
            hull([(-5, 5.0, BT + 14.5), (-24, 4.5, BT + 14.5), (-5, 4.5, BT + 16.3), (-23, 4.0, BT + 16)],
                 "#2a2420")]
    metal = [rod((front, 0, BT + r), (16.5, 0, BT + 21), 1.4, METAL),
             rod((16, -9, BT + 21.5), (16, 9, BT + 21.5), 0.8, METAL),
             box((4, 6, 3), (16.5, 0, BT + 21.5), PAINT),
             ball((18.5, 0, BT + 21.5), 1.6, "#f4f1da"),
             rod((-10, 5.8, BT + 6), (-26.5, 5.5, BT + 8), 1.5, CHROME)]
    wheels = wheel(front, r, 4.0) + wheel(rear, r, 4.5)
    body = rider(hip=(-12, BT + 16.5), lean_deg=-2, grip=(16, 8.5, BT + 21.5), knee=(9, 6.0, BT + 17),
                 foot=(5.5, 4.5, BT + 9.8), shoulder_width=11.5)
    return {"base": [oval_base(*OVAL_BASE)], "bike": bike, "metal": metal, "wheels": wheels, "rider": body}


def police() -> dict[str, list]:
    front, rear, r = 23.0, -22.0, 8.3
    bike = [hull([(27, 3.0, BT + 9), (28, 3.5, BT + 15), (18, 7.5, BT + 7), (16, 8.0, BT + 19),
                  (3, 6.5, BT + 18), (1, 5.0, BT + 8)], PAINT),
            hull([(1, 5.0, BT + 15.5), (-12, 5.0, BT + 15), (-22, 4.0, BT + 17), (-22, 4.0, BT + 12),
                  (-3, 4.5, BT + 9)], PAINT),
            box((13, 5, 9), (-19, 8.0, BT + 13.5), "#eeeeee"),
            box((13, 5, 9), (-19, -8.0, BT + 13.5), "#eeeeee"),
            box((11, 12, 7.5), (-24, 0, BT + 21.0), "#eeeeee"),
            hull([(16, 6.5, BT + 19), (13, 5.5, BT + 27), (12, 5.0, BT + 27.5), (15.5, 6.5, BT + 19.5)],
                 "#c7dbe6")]
    metal = [rod((front, s * 3.8, BT + r), (16, s * 3.8, BT + 19), 1.2, CHROME) for s in (1, -1)]
    metal += [rod((rear, s * 3.6, BT + r), (-2, s * 3.6, BT + 10), 1.3, METAL) for s in (1, -1)]
    metal += [rod((10.5, -9.5, BT + 20.5), (10.5, 9.5, BT + 20.5), 0.8, METAL),
              box((12, 11, 7), (-1, 0, BT + 8.5), METAL),
              rod((-5, 6.0, BT + 6.5), (-27, 6.0, BT + 9), 1.6, CHROME),
              rod((-18, 0, BT + 24.5), (-18, 0, BT + 30), 0.4, METAL)]
    lights = [box((2.2, 5.0, 1.8), (-24, 3.0, BT + 25.8), "#1f4fff"),
              box((2.2, 5.0, 1.8), (-24, -3.0, BT + 25.8), "#ff2020"),
              ball((28.5, 4.0, BT + 14.0), 1.2, "#1f4fff"), ball((28.5, -4.0, BT + 14.0), 1.2, "#ff2020")]
    wheels = wheel(front, r, 5.0) + wheel(rear, r, 6.0)
    body = rider(hip=(-9, BT + 15.5), lean_deg=6, grip=(10.5, 9.0, BT + 20.5), knee=(2, 7.5, BT + 15),
                 foot=(-2, 7.0, BT + 8.0), colour="#1b2a48", legs_colour="#1b2a48", helmet="#f0f0f0")
    return {"base": [oval_base(*OVAL_BASE)], "bike": bike, "metal": metal, "wheels": wheels, "rider": body,
            "lights": lights}


def quad() -> dict[str, list]:
    r, width = 7.0, 7.5
    wheels = []
    for x in (17.0, -17.0):
        for y in (15.5, -15.5):
            wheels += wheel(x, r, width, y=y)
    bike = [hull([(8, 12, BT + 10), (25, 11, BT + 11), (26, 10, BT + 16), (9, 12, BT + 18)], PAINT),
            hull([(-8, 12, BT + 10), (-27, 11, BT + 11), (-27, 10, BT + 17), (-9, 12, BT + 18)], PAINT),
            hull([(8, 6, BT + 9), (-8, 6, BT + 9), (-7, 5, BT + 17.5), (9, 5, BT + 17)], PAINT),
            hull([(5, 4.5, BT + 17), (-13, 4.5, BT + 17), (-13, 4.0, BT + 19), (4, 4.0, BT + 19)], "#2a2420")]
    metal = [rod((11, 0, BT + 17), (10, 0, BT + 22), 1.2, METAL),
             rod((10, -12, BT + 22.5), (10, 12, BT + 22.5), 0.8, METAL),
             rod((-17, -16.5, BT + r), (-17, 16.5, BT + r), 1.3, METAL),
             rod((17, -16.5, BT + r), (17, 16.5, BT + r), 1.3, METAL),
             box((4, 22, 1.2), (-22, 0, BT + 18), METAL), box((4, 22, 1.2), (20, 0, BT + 17), METAL),
             rod((-10, 4.5, BT + 9), (-29, 3.5, BT + 12), 1.6, CHROME)]
    body = rider(hip=(-8, BT + 17.5), lean_deg=10, grip=(10, 11.0, BT + 22.5), knee=(3, 8.5, BT + 17.5),
                 foot=(1, 8.5, BT + 10.5), shoulder_width=12.5)
    return {"base": [oval_base(ROUND_BASE, ROUND_BASE)], "bike": bike, "metal": metal, "wheels": wheels,
            "rider": body}


BIKES = {"sportsbike": sportsbike, "cruiser": cruiser, "trailbike": trailbike, "quad": quad,
         "scooter": scooter, "police": police}


# --- vehicles (sized from the rules data's ``vehicles:``; {node name: parts}) --------------------

GLASS, BUMPER, HEADLAMP, TAIL_LAMP = "#26313b", "#2a2b2e", "#f3e7b0", "#b3261e"


def vehicle(kind: str) -> dict[str, list]:
    """A car, police car or van of the rules data's ``vehicles:`` on a plate of its plan: its bodywork
    (``body``, tinted) in :func:`~entropy3d.scene.miniature.vehicle_plan` up to the waist, the
    glasshouse (``windows``; a van's is glass in the cab only, its load box ``body``) under a
    painted roof, bumpers and lamps (``trim``), four ``wheels`` and, on a police car, the light
    bar and door stripes (``lights``, ``trim``)."""
    ruleset = load_ruleset()
    spec, to_mm = ruleset.spec.vehicles[kind], 25.4 / ruleset.scale.metres_per_inch
    length, width, height, waist = (to_mm * v for v in (spec.length_m, spec.width_m, spec.height_m, spec.waist_m))
    start, stop = (to_mm * v for v in spec.cabin_m)
    van, police = kind == "van", kind == "police_car"

    def ring(plan_length, plan_width, z, x=0.0):
        plan = vehicle_plan(plan_length, plan_width, 32)
        return np.column_stack([plan[:, 0] + x, plan[:, 1], np.full(len(plan), BT + z)])

    clearance, roof = 0.2 * waist, 0.06 * height
    body = [hull(np.vstack([ring(0.94 * length, 0.9 * width, clearance), ring(length, width, 0.45 * waist),
                            ring(0.985 * length, 0.97 * width, waist)]), PAINT, mirror=False)]
    rake = (0.0, 0.12) if van else (0.18, 0.3)  # rear window and windscreen leaning in, shares of the run
    run, cabin_width = stop - start, to_mm * spec.cabin_width_m
    top = (start + rake[0] * run, stop - rake[1] * run)
    roof_ring = ring(top[1] - top[0], 0.94 * cabin_width, height - roof, 0.5 * sum(top))
    glass = hull(np.vstack([ring(run, cabin_width, waist, 0.5 * (start + stop)), roof_ring]), GLASS, False)
    body.append(hull(np.vstack([roof_ring, ring(top[1] - top[0] - 1.0, 0.92 * cabin_width, height,
                                                0.5 * sum(top))]), PAINT, False))
    windows = [glass]
    if van:  # the load box is panels: glass only where the cab is, a little proud of them
        cab = glass.slice_plane([stop - 0.3 * run, 0, 0], [1, 0, 0], cap=True)
        cab.apply_scale((1.0, 1.015, 1.0))
        windows = [paint(cab.slice_plane([0, 0, BT + waist + 1.0], [0, 0, 1], cap=True), GLASS)]
        body.append(paint(glass, PAINT))

    def nose(y):  # how far forward the plan reaches at y (mm): lamps sit on the bodywork
        return 0.5 * length * (1.0 - (2.0 * abs(y) / width) ** 4) ** 0.25 - 0.4

    # a dark rubbing strip round the bumpers and sills, the lamps front and back
    trim = [hull(np.vstack([ring(length, width, z) for z in (0.22 * waist, 0.38 * waist)]), BUMPER, False)]
    trim += [box((1.0, 0.12 * width, 0.1 * waist), (s * (nose(0.36 * width) - 0.1), y * 0.3 * width,
                                                     BT + 0.6 * waist), HEADLAMP if s > 0 else TAIL_LAMP)
             for s in (1, -1) for y in (1, -1)]
    lights = []
    if police:  # white doors and a blue-red light bar on the roof, as a highway patrol car
        trim += [box((0.3 * length, 0.8, 0.45 * waist), (0.0, y * (0.5 * width - 0.45), BT + 0.65 * waist), "#f4f4f4")
                 for y in (1, -1)]
        lights = [box((3.0, 0.3 * cabin_width, 1.6), (0.5 * sum(top), y * 0.17 * cabin_width, BT + height + 0.8),
                      colour) for y, colour in ((1, "#1f4fff"), (-1, "#ff2020"))]
    radius, tyre = to_mm * (0.36 if van else 0.33), to_mm * 0.22  # tyres of a real van and car, metres
    wheels = []
    for x in (0.29 * length, -0.29 * length):  # tyres tucked under the sills: nothing past the plan
        for y in (1, -1):
            wheels += wheel(x, radius, tyre, y=y * (0.45 * width - 0.5 * tyre))
    plate = trimesh.creation.extrude_polygon(Polygon(vehicle_plan(length, width, 64)), BASE_THICKNESS)
    nodes = {"base": [paint(plate, BASE_COLOUR)], "body": body, "trim": trim,
             "windows": windows, "wheels": wheels}
    return nodes | ({"lights": lights} if lights else {})


# --- scenery (each returns {node name: parts}; origin at the centre of the footprint) -----------

WOOD, DARK_WOOD, CONCRETE, RUST, SOOT = "#8a5a32", "#5e3d22", "#a3a097", "#7b4a2a", "#2e2a27"


def bench() -> dict[str, list]:
    """A park bench, 32 x 10 mm, seat 5 mm and back 12 mm high (1.8 m long depicted)."""
    planks = [box((32, 2.6, 0.9), (0, y, 5.2), WOOD) for y in (-3.4, -0.6, 2.2)]
    planks += [box((32, 0.9, 2.4), (0, -4.6, z), WOOD) for z in (8.4, 11.2)]
    frame = []
    for x in (-13, 13):
        frame += [box((1.2, 8.5, 1.0), (x, -0.6, 4.3), METAL), box((1.2, 1.0, 4.3), (x, 3.0, 2.15), METAL),
                  box((1.2, 1.0, 12.0), (x, -4.0, 6.0), METAL)]
    return {"seat": planks, "frame": frame}


def cafe_set() -> dict[str, list]:
    """A round cafe table with four chairs, a 30 x 30 mm footprint."""
    table = [rod((0, 0, 11.5), (0, 0, 12.4), 7.0, "#d9d4c7", sections=24),
             rod((0, 0, 0.6), (0, 0, 11.5), 0.8, METAL), rod((0, 0, 0), (0, 0, 0.6), 3.5, METAL)]
    chairs = []
    for angle in (0, 90, 180, 270):
        a = math.radians(angle)
        cx, cy = 11.0 * math.cos(a), 11.0 * math.sin(a)
        ox, oy = math.cos(a), math.sin(a)
        chairs.append(box((6.5, 6.5, 1.0), (cx, cy, 7.0), "#7a4b2a", yaw_deg=angle))
        chairs.append(box((1.0, 6.5, 7.0), (cx + 3.0 * ox, cy + 3.0 * oy, 10.5), "#7a4b2a", yaw_deg=angle))
        for lx, ly in ((-2.6, -2.6), (-2.6, 2.6), (2.6, -2.6), (2.6, 2.6)):
            px = cx + lx * ox - ly * oy
            py = cy + lx * oy + ly * ox
            chairs.append(rod((px, py, 0), (px, py, 6.5), 0.45, METAL, sections=8))
    return {"table": table, "chairs": chairs}


def crate() -> dict[str, list]:
    """A 21 mm wooden crate (1.2 m depicted) with plank bands."""
    body = [box((20, 20, 20), (0, 0, 10), "#a07840")]
    bands = [box((21, 21, 2.0), (0, 0, z), DARK_WOOD) for z in (1.2, 10, 18.8)]
    bands += [box((2.0, 21, 21), (x, 0, 10.5), DARK_WOOD) for x in (-9.5, 9.5)]
    return {"crate": body + bands}


def barrel() -> dict[str, list]:
    """An 11 mm oil drum, 16 mm tall (0.6 x 0.9 m depicted)."""
    drum = [rod((0, 0, 0), (0, 0, 16), 5.5, "#b3452f", sections=24)]
    rings = [rod((0, 0, z - 0.5), (0, 0, z + 0.5), 5.8, "#5a2a20", sections=24) for z in (0.8, 5.5, 10.5, 15.2)]
    return {"barrel": drum + rings}


def jersey_barrier() -> dict[str, list]:
    """A concrete road barrier, 54 x 11 mm, 15 mm high (3 m x 0.8 m depicted)."""
    profile = np.array([(-5.5, 0), (5.5, 0), (5.5, 1.5), (2.8, 4.5), (1.8, 15), (-1.8, 15), (-2.8, 4.5),
                        (-5.5, 1.5)])
    points = [(x, y, z) for x in (-27, 27) for y, z in profile]
    body = [hull(points, CONCRETE, mirror=False)]
    reflectors = [box((4, 5.2, 1.6), (x, 0, 4.0), "#d6a01e") for x in (-18, 0, 18)]
    return {"barrier": body, "reflectors": reflectors}


def street_lamp() -> dict[str, list]:
    """A street lamp 90 mm tall (5 m depicted) whose arm reaches 16 mm over +x."""
    pole = [rod((0, 0, 0), (0, 0, 4), 2.5, METAL), rod((0, 0, 4), (0, 0, 88), 1.0, METAL),
            rod((0, 0, 86), (14, 0, 89), 0.7, METAL)]
    head = [hull([(11, 2.2, 88), (19, 2.2, 88.5), (19, 1.4, 90.5), (11, 1.4, 90)], "#2a2c30"),
            box((7, 3.4, 0.6), (15, 0, 87.8), "#fff2b0")]
    return {"pole": pole, "lamp": head}


def ruined_wall() -> dict[str, list]:
    """A shelled brick wall 120 x 8 mm, a jagged top up to 62 mm, two empty windows, rubble."""
    tops = [34, 46, 58, 62, 55, 41, 30, 22, 35, 44, 38, 27, 18, 12, 9]
    segment = 120 / len(tops)
    wall = []
    for k, top in enumerate(tops):
        x = -60 + segment * (k + 0.5)
        window = k in (3, 4, 9)
        if window:
            wall += [box((segment, 8, 20), (x, 0, 10), "#8c5a45"),
                     box((segment, 8, top - 34), (x, 0, 34 + (top - 34) / 2), "#8c5a45")]
        else:
            wall.append(box((segment, 8, top), (x, 0, top / 2), "#8c5a45"))
    rubble_rng = np.random.default_rng(7)
    rubble = []
    for _ in range(18):
        size = rubble_rng.uniform(2.5, 6.0, 3)
        x, y = rubble_rng.uniform(-50, 50), rubble_rng.choice([-1, 1]) * rubble_rng.uniform(5, 11)
        rubble.append(box(size, (x, y, size[2] / 2), "#7d736a", yaw_deg=rubble_rng.uniform(0, 90)))
    return {"wall": wall, "rubble": rubble}


def car_wreck() -> dict[str, list]:
    """A burnt-out car 78 x 32 mm, 24 mm high (4.4 x 1.8 m depicted): size class 1."""
    body = [hull([(-39, 15, 5), (39, 15, 5), (39, 15, 11), (34, 15, 14), (-38, 15, 14), (-39, 15, 9)], RUST),
            hull([(-22, 13, 14), (15, 13, 14), (8, 11, 23), (-18, 11, 23.5)], "#5b4334"),
            box((40, 4, 1), (-5, 0, 23.6), SOOT)]
    glass = [hull([(15.2, 11, 14.5), (9, 9.5, 22.5), (9.3, 9.5, 22.5), (15.6, 11, 14.5)], "#1d2226")]
    wheels = []
    for x, y in ((25, 14), (-25, 14), (-25, -14)):  # front right wheel is gone: the car sags
        wheels += wheel(x, 5.5, 4.5, colour=SOOT, y=y, hub_colour=RUST)
        for mesh in wheels[-2:]:
            mesh.apply_translation((0, 0, -BT))
    body.append(box((8, 6, 4), (25, -12, 2), SOOT))
    return {"body": body, "glass": glass, "wheels": wheels}


def truck_wreck() -> dict[str, list]:
    """A burnt-out box truck 135 x 44 mm, 62 mm high (7.6 x 2.5 m depicted): size class 2."""
    cab = [hull([(40, 22, 8), (67, 22, 8), (67, 21, 30), (62, 20, 46), (42, 20, 48), (40, 22, 48)], "#7a3b22")]
    box_body = [box((104, 44, 52), (-14, 0, 36), "#8a8070"),
                box((104, 44, 2), (-14, 0, 62.5), "#5f574c"),
                box((108, 40, 6), (-13, 0, 8), SOOT)]
    glass = [hull([(63, 19, 31), (61, 18.5, 45), (61.6, 18.5, 45), (63.6, 19, 31)], "#15191c")]
    wheels = []
    for x in (52, -20, -42):
        for y in (19.5, -19.5):
            wheels += wheel(x, 8.5, 7, colour=SOOT, y=y, hub_colour=RUST)
            for mesh in wheels[-2:]:
                mesh.apply_translation((0, 0, -BT))
    return {"cab": cab, "body": box_body, "glass": glass, "wheels": wheels}


def kicker_ramp() -> dict[str, list]:
    """A steel jump kicker 76 x 64 mm rising 25 mm along +x (3 x 2.5 x 1 inch)."""
    deck = [hull([(-38, 32, 0), (38, 32, 0), (38, 32, 25.4), (38, 32, 23.8)], "#7c828a")]
    # no painted stripe on the deck: a flat quad, dropped at every load as a stray part (with a
    # warning), and a mesh piece is drawn in its one colour anyway
    sides = [hull([(-38, y - 0.6, 0), (-38, y + 0.6, 0), (38, y - 0.6, 0), (38, y + 0.6, 0),
                   (38, y - 0.6, 26.4), (38, y + 0.6, 26.4), (-38, y - 0.6, 1.0), (-38, y + 0.6, 1.0)],
                  "#4b5057", mirror=False) for y in (31.6, -31.6)]
    return {"deck": deck, "frame": sides}


def park_tree() -> dict[str, list]:
    """A scruffy park tree 95 mm tall (5.3 m depicted), trunk 7 mm, crown 60 mm across."""
    trunk = [rod((0, 0, 0), (0, 0, 52), 3.5, "#5b4330", sections=10),
             rod((0, 0, 40), (10, 6, 62), 1.8, "#5b4330", sections=8),
             rod((0, 0, 44), (-9, -5, 64), 1.8, "#5b4330", sections=8)]
    crown_rng = np.random.default_rng(11)
    crown = []
    for _ in range(9):
        centre = crown_rng.uniform([-16, -16, 58], [16, 16, 80])
        radius = crown_rng.uniform(10, 15)
        shade = crown_rng.choice(["#3e6b2f", "#4a7a35", "#355f2a"])
        crown.append(ball(centre, radius, shade))
    return {"trunk": trunk, "crown": crown}


SCENERY = {"bench": bench, "park_tree": park_tree, "cafe_set": cafe_set, "crate": crate, "barrel": barrel,
           "jersey_barrier": jersey_barrier, "street_lamp": street_lamp, "ruined_wall": ruined_wall,
           "car_wreck": car_wreck, "truck_wreck": truck_wreck, "kicker_ramp": kicker_ramp}


# --- the 3D-print piece --------------------------------------------------------------------------

def barricade_print() -> trimesh.Trimesh:
    """A street barricade for a 3D printer: 50 x 14 mm, 17 mm high, one closed solid (mm, Z up).

    A slab, a row of sandbags, a stack of two tyres at one end and two planks with spikes.
    """
    solids = [trimesh.creation.box(extents=(50, 14, 2), transform=trimesh.transformations.translation_matrix(
        (0, 0, 1)))]
    for k in range(5):
        bag = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
        bag.apply_scale((4.6, 3.6, 2.4))
        bag.apply_translation((-20 + 7.0 * k, 2.0, 3.8))
        solids.append(bag)
        if k < 4:
            top = bag.copy()
            top.apply_translation((3.3, 0, 3.7))
            solids.append(top)
    for level in (0, 1):
        tyre = trimesh.creation.torus(major_radius=4.2, minor_radius=1.7, major_sections=28, minor_sections=12)
        tyre.apply_translation((19.5, -1.0, 3.6 + 3.3 * level))
        solids.append(tyre)
    for angle, y in ((28, -4.0), (-28, -4.6)):
        plank = trimesh.creation.box(extents=(30, 1.4, 2.2))
        plank.apply_transform(trimesh.transformations.rotation_matrix(math.radians(angle), [0, 1, 0]))
        plank.apply_translation((-6, y, 8.5))
        solids.append(plank)
    for x in (-16, -6, 4):
        spike = trimesh.creation.cone(radius=0.9, height=7.0, sections=10)
        spike.apply_transform(trimesh.transformations.rotation_matrix(math.radians(-35), [1, 0, 0]))
        spike.apply_translation((x, -5.2, 2.0))
        solids.append(spike)
    solid = trimesh.boolean.union(solids, engine="manifold")
    solid.apply_translation((0, 0, -solid.bounds[0][2]))
    return solid


# --- writing -------------------------------------------------------------------------------------

def glb_bytes(nodes: dict[str, list]) -> bytes:
    """A GLB (Y up, mm) with one named node and geometry per entry of ``nodes``."""
    scene = trimesh.Scene()
    for name, parts in nodes.items():
        mesh = merged(parts)
        mesh.apply_transform(Z_UP_TO_Y_UP)
        scene.add_geometry(mesh, node_name=name, geom_name=name)
    return scene.export(file_type="glb")


def main(out_dir: Path = MODELS_DIR) -> list[Path]:
    """Write every model to ``out_dir``; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in BIKES.items():
        path = out_dir / f"bike_{name}.glb"
        write_atomic(path, glb_bytes(build()))
        written.append(path)
    for kind in load_ruleset().vehicles:
        path = out_dir / f"vehicle_{kind}.glb"
        write_atomic(path, glb_bytes(vehicle(kind)))
        written.append(path)
    for name, build in SCENERY.items():
        path = out_dir / f"{name}.glb"
        write_atomic(path, glb_bytes(build()))
        written.append(path)
    path = out_dir / "barricade_print_mm.stl"
    write_atomic(path, barricade_print().export(file_type="stl"))
    written.append(path)
    return written


if __name__ == "__main__":
    for written_path in main():
        print(written_path.relative_to(MODELS_DIR.parent))
