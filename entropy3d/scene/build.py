"""The table as geometry: every static or destructible piece as triangle meshes in inches.

:func:`build_table_geometry` turns a :class:`~entropy3d.scene.table.Table` into a
:class:`TableGeometry` that rendering, line of sight and physics all read, so that what you see,
what blocks sight and what a bike hits are the same shapes. Each piece also carries the convex
parts its mesh is the union of (boxes, wedges, prisms), because physics handles convex pieces
smoothly where concave triangle meshes catch on internal edges.
"""

from __future__ import annotations

import math
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import trimesh
from shapely.geometry import Polygon

from entropy3d.errors import GeometryError
from entropy3d.scene.schema import Area, Destructible
from entropy3d.scene.table import Table
from entropy3d.systems.entropy_city.ruleset import Ruleset

#: default [length, width, height] in inches of each destructible kind (1:56 scale)
DESTRUCTIBLE_SIZES: dict[str, tuple[float, float, float]] = {
    "bench": (1.25, 0.4, 0.35),
    "table": (0.9, 0.9, 0.55),
    "chair": (0.35, 0.35, 0.6),
    "crate": (0.6, 0.6, 0.6),
    "barrel": (0.45, 0.45, 0.65),
    "bin": (0.45, 0.45, 0.6),
    "barrier": (1.6, 0.3, 0.6),
}
DESTRUCTIBLE_COLOURS = {"bench": "#8a5a32", "table": "#9c7b55", "chair": "#6f4e37", "crate": "#a07840",
                        "barrel": "#b3452f", "bin": "#4d6b4a", "barrier": "#d6a01e"}
DECAL_HEIGHT = 0.02  # inches: zones and road paint sit this high to avoid z-fighting
KICKER_COLOUR = "#c98b2b"
RAILING_HEIGHT = 0.5
RAILING_THICKNESS = 0.15


#: the kinds of piece a bike rides on: their top is a level of the table; a lamp's or a crate's is not
RIDDEN_KINDS = ("ground", "zone", "road", "block", "building", "platform", "ramp")


@dataclass(frozen=True, eq=False)
class Piece:
    """One piece of the table.

    id: scene id (sub-parts get suffixes, e.g. ``highway_a/pillar2``).
    kind: ground, zone, road, block, building, platform, pillar, railing, ramp, destructible, mesh.
    mesh: triangles in table inches, z up.
    parts: convex meshes whose union is ``mesh`` (for physics).
    terrain: terrain name of its top surface (friction, rules), or None.
    colour: display colour "#rrggbb".
    size_class: EC-LOS-3 class for top-down LOS (0: does not block).
    dynamic: True for destructible scenery, which physics can knock about.
    risk: EC-DEST-1 risk 1-3 for destructibles.
    """

    id: str
    kind: str
    mesh: trimesh.Trimesh = field(repr=False)
    parts: tuple[trimesh.Trimesh, ...] = field(repr=False)
    terrain: str | None
    colour: str
    size_class: int = 0
    dynamic: bool = False
    risk: int | None = None

    @property
    def top(self) -> float:
        """Highest point, inches."""
        return float(self.mesh.bounds[1][2])


def box(min_corner, max_corner) -> trimesh.Trimesh:
    """An axis-aligned box between two corners, inches."""
    lo, hi = np.asarray(min_corner, float), np.asarray(max_corner, float)
    return trimesh.creation.box(extents=hi - lo, transform=trimesh.transformations.translation_matrix((lo + hi) / 2))


def oriented_box(centre_xy, length, width, height, heading_deg, base_z=0.0) -> trimesh.Trimesh:
    """A box ``length`` along the heading, ``width`` across, standing on ``base_z``."""
    transform = trimesh.transformations.rotation_matrix(math.radians(heading_deg), [0, 0, 1])
    transform[:3, 3] = [centre_xy[0], centre_xy[1], base_z + height / 2]
    return trimesh.creation.box(extents=[length, width, height], transform=transform)


def _convex_pieces(corners) -> list[np.ndarray]:
    """A polygon's outline as convex outlines: itself when convex, else its triangles."""
    polygon = Polygon(corners)
    if not polygon.is_valid or polygon.area <= 0:
        raise ValueError(f"polygon {corners} is not a simple outline")
    if math.isclose(polygon.convex_hull.area, polygon.area, rel_tol=1e-9):
        return [np.asarray(polygon.exterior.coords[:-1])]
    vertices, faces = trimesh.creation.triangulate_polygon(polygon, engine="earcut")
    return [vertices[face] for face in faces]


def prism(area: Area, bottom: float, top: float) -> tuple[trimesh.Trimesh, list[trimesh.Trimesh]]:
    """Extrude an outline between two heights; returns (mesh, convex parts)."""
    if area.rect is not None:
        x0, y0, x1, y1 = area.rect
        solid = box((x0, y0, bottom), (x1, y1, top))
        return solid, [solid]
    parts = []
    for outline in _convex_pieces(area.corners()):
        lower = np.column_stack([outline, np.full(len(outline), bottom)])
        upper = np.column_stack([outline, np.full(len(outline), top)])
        parts.append(trimesh.convex.convex_hull(np.vstack([lower, upper])))
    mesh = trimesh.creation.extrude_polygon(Polygon(area.corners()), top - bottom)
    mesh.apply_translation((0, 0, bottom))
    return mesh, parts


def wedge(start_xy, heading_deg, length, width, rise, base_z=0.0) -> trimesh.Trimesh:
    """A ramp: a wedge whose low edge is centred on ``start_xy`` and rises along the heading."""
    h = math.radians(heading_deg)
    fwd = np.array([math.cos(h), math.sin(h)])
    left = np.array([-fwd[1], fwd[0]])
    s = np.asarray(start_xy, float)
    a, b = s + left * width / 2, s - left * width / 2
    c, d = b + fwd * length, a + fwd * length
    points = [(*a, base_z), (*b, base_z), (*c, base_z), (*d, base_z), (*c, base_z + rise), (*d, base_z + rise)]
    return trimesh.convex.convex_hull(np.array(points))


def destructible_mesh(item: Destructible) -> trimesh.Trimesh:
    length, width, height = item.size or DESTRUCTIBLE_SIZES[item.kind]
    if item.kind in ("barrel", "bin"):
        cylinder = trimesh.creation.cylinder(radius=min(length, width) / 2, height=height, sections=16)
        cylinder.apply_translation((item.position[0], item.position[1], item.base_height + height / 2))
        return cylinder
    return oriented_box(item.position, length, width, height, item.facing, item.base_height)


#: a piece with this many triangles or more (a detailed 3D print) is cast in an Embree scene of its
#: own, built at the first ray over its plan box: building a scene costs ~1 s per million
#: triangles (embreex copies them one by one), so a print no ray passes over costs none, and the
#: rest of the table's scene stays small
OWN_RAY_SCENE_MIN_FACES = 20_000
#: inches: crossings of one downward ray this close are one surface (coinciding faces of two pieces)
COINCIDENT_IN = 1e-4
#: inches: a downward ray this far outside a piece's plan box may still be reported on its edge
PLAN_BOX_MARGIN_IN = 1e-6


def _near_on_the_same_ray(rays: np.ndarray, heights: np.ndarray, other_rays: np.ndarray,
                          other_heights: np.ndarray) -> np.ndarray:
    """Per crossing (``rays``, ``heights``), whether one of the other crossings on its ray lies
    within ``COINCIDENT_IN`` of it."""
    order = np.argsort(other_rays, kind="stable")
    sorted_rays, sorted_heights = other_rays[order], other_heights[order]
    first = np.searchsorted(sorted_rays, rays, side="left")
    counts = np.searchsorted(sorted_rays, rays, side="right") - first
    owner = np.repeat(np.arange(len(rays)), counts)
    index = np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    near = np.abs(sorted_heights[index] - heights[owner]) <= COINCIDENT_IN
    return np.bincount(owner[near], minlength=len(rays)) > 0


def level_below(stack: np.ndarray, below: float) -> float:
    """The highest height of ``stack`` (highest first) strictly under ``below``, else 0."""
    under = stack[stack < below]
    return float(under[0]) if len(under) else 0.0


@dataclass(frozen=True, eq=False)
class TableGeometry:
    """All pieces of a table in inches, with cached ray queries over the static ones, and the rules
    data of the table they were built from (e.g. ``ride.step_height_in``)."""

    width: float
    depth: float
    pieces: tuple[Piece, ...]
    ruleset: Ruleset

    def by_id(self, piece_id: str) -> Piece:
        for piece in self.pieces:
            if piece.id == piece_id:
                return piece
        raise KeyError(piece_id)

    @property
    def static_pieces(self) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if not p.dynamic)

    @cached_property
    def _cast_alone(self) -> tuple[int, ...]:
        """Indices of the pieces cast in an Embree scene of their own (``OWN_RAY_SCENE_MIN_FACES``)."""
        return tuple(k for k, piece in enumerate(self.pieces) if len(piece.mesh.faces) >= OWN_RAY_SCENE_MIN_FACES)

    @cached_property
    def _together_meshes(self) -> dict[bool, tuple[trimesh.Trimesh, np.ndarray]]:
        """Per ``static_only``, filled at its first cast: every piece not cast alone (and no
        destructible, with ``static_only``) as one mesh, and the index in ``pieces`` of the piece
        of each of its faces."""
        return {}

    def _together(self, static_only: bool) -> tuple[trimesh.Trimesh, np.ndarray]:
        if static_only not in self._together_meshes:
            chosen = [k for k, piece in enumerate(self.pieces)
                      if k not in self._cast_alone and not (static_only and piece.dynamic)]
            meshes = [self.pieces[k].mesh for k in chosen]
            owners = np.concatenate([np.full(len(m.faces), k) for k, m in zip(chosen, meshes)])
            self._together_meshes[static_only] = (trimesh.util.concatenate(meshes), owners)
        return self._together_meshes[static_only]

    def _alone(self, static_only: bool) -> list[int]:
        return [k for k in self._cast_alone if not (static_only and self.pieces[k].dynamic)]

    @cached_property
    def _cast_tops(self) -> dict[bool, float]:
        """Per ``static_only``, inches: where downward rays start, 1 inch over the highest piece
        they may meet (taken once: a ride's ground profile asks every few steps)."""
        return {static_only: max(piece.top for piece in self.pieces if not (static_only and piece.dynamic)) + 1.0
                for static_only in (False, True)}

    def _under(self, k: int, points: np.ndarray) -> np.ndarray:
        """Indices of the (x, y) ``points`` over the plan box of piece ``k``: the only downward rays
        that can meet it."""
        lo, hi = self.pieces[k].mesh.bounds[:, :2]
        return np.flatnonzero(np.all((points >= lo - PLAN_BOX_MARGIN_IN) & (points <= hi + PLAN_BOX_MARGIN_IN), axis=1))

    @staticmethod
    def _cast_down(mesh: trimesh.Trimesh, points: np.ndarray, top: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hit points, ray index, face) of every surface of ``mesh`` that a ray straight down
        from ``top`` crosses at each (x, y) of ``points``, inches."""
        origins = np.column_stack([points, np.full(len(points), top)])
        directions = np.tile([0.0, 0.0, -1.0], (len(points), 1))
        return mesh.ray.intersects_location(origins, directions, multiple_hits=True)

    def _crossings(self, points: np.ndarray, static_only: bool, top: float | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(height, point index, piece index) of every surface a ray straight down from ``top``
        (default: over the whole table) crosses at each (x, y) of ``points``, inches.

        One Embree scene holds every piece but the detailed prints, each of which has its own,
        built at the first ray over its plan box. Within one scene, coinciding surfaces (a
        print's bottom on the ground) give one crossing; across scenes the rule is the same, and
        the crossing kept is the other piece's, not the print's."""
        top = self._cast_tops[static_only] if top is None else top
        mesh, owners = self._together(static_only)
        locations, rays, faces = self._cast_down(mesh, points, top)
        heights, owners = locations[:, 2], owners[faces]
        for k in self._alone(static_only):
            under = self._under(k, points)
            if len(under) == 0:
                continue
            alone_locations, alone_rays, _ = self._cast_down(self.pieces[k].mesh, points[under], top)
            alone_rays, alone_heights = under[alone_rays], alone_locations[:, 2]
            new = ~_near_on_the_same_ray(alone_rays, alone_heights, rays, heights)
            heights = np.concatenate([heights, alone_heights[new]])
            rays = np.concatenate([rays, alone_rays[new]])
            owners = np.concatenate([owners, np.full(int(new.sum()), k)])
        return heights, rays, owners

    def downward_crossings(self, points: np.ndarray, static_only: bool = False
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(height, point index, piece index) of every surface, static or destructible, that a
        ray straight down crosses at each (x, y) of ``points``, inches: one batch of rays, for
        callers that need to know whose surface each crossing is. static_only: the static pieces
        alone (a crate standing on a roof hides the roof's coinciding surface from the rays)."""
        if len(points) == 0:
            return np.empty(0), np.empty(0, int), np.empty(0, int)
        return self._crossings(np.asarray(points, float), static_only=static_only)

    def _downward_hits(self, points: np.ndarray, static_only: bool) -> tuple[np.ndarray, np.ndarray]:
        """(ray index, height) of every surface hit by one downward ray per point, by ray and
        highest first within a ray."""
        heights, ray_index, _ = self._crossings(points, static_only)
        order = np.lexsort((-heights, ray_index))
        return ray_index[order], heights[order]

    @cached_property
    def _first_hit_casts(self) -> dict[tuple[bool, int | None], tuple]:
        """Per (``static_only``, piece cast alone or None for the rest), filled at its first cast:
        (mesh, its Embree scene or None, the first corner and the normal of every face), taken
        once per table for :meth:`_first_hits`."""
        return {}

    def _first_hits_of(self, key: tuple[bool, int | None], points: np.ndarray, top: float
                       ) -> tuple[np.ndarray, np.ndarray]:
        """(ray index, hit point) of the first surface under each point, in one scene (``key``)."""
        casts = self._first_hit_casts
        if key not in casts:
            static_only, alone = key
            mesh = self._together(static_only)[0] if alone is None else self.pieces[alone].mesh
            casts[key] = (mesh, getattr(mesh.ray, "_scene", None),  # trimesh's Embree scene; None without embreex
                          mesh.triangles[:, 0, :], mesh.face_normals)
        mesh, scene, corners, normals = casts[key]
        origins = np.column_stack([points, np.full(len(points), top)])
        directions = np.tile([0.0, 0.0, -1.0], (len(points), 1))  # unit already, as trimesh makes them
        if scene is None:
            _, rays, hits = mesh.ray.intersects_id(origins, directions, multiple_hits=False, return_locations=True)
            return rays, hits
        faces = scene.run(origins, directions)
        rays = np.flatnonzero(faces != -1)
        faces = faces[rays]
        hits, valid = trimesh.intersections.planes_lines(plane_origins=corners[faces], plane_normals=normals[faces],
                                                        line_origins=origins[rays], line_directions=directions[rays])
        return rays[valid], hits

    def _first_hits(self, points: np.ndarray, static_only: bool) -> tuple[np.ndarray, np.ndarray]:
        """(ray index, hit point in inches) of the first surface under each (x, y) point that has
        one, rays cast straight down from above the table: trimesh's ``intersects_id`` with one hit
        and its locations, to the bit (its Embree query, then its plane intersection of the hit
        faces' planes, on the same arrays), without its set-up for many hits, which was ~2/3 of its
        ~70 us for a ride's ground profile (200 rays). A print cast alone is met first where it is
        higher than the rest by more than ``COINCIDENT_IN`` (the rule of :meth:`_crossings`)."""
        top = self._cast_tops[static_only]
        rays, hits = self._first_hits_of((static_only, None), points, top)
        alone = [(k, under) for k in self._alone(static_only) if len(under := self._under(k, points))]
        if not alone:
            return rays, hits
        best = np.full((len(points), 3), np.nan)
        best[rays] = hits
        for k, under in alone:
            alone_rays, alone_hits = self._first_hits_of((static_only, k), points[under], top)
            alone_rays = under[alone_rays]
            higher = ~(alone_hits[:, 2] <= best[alone_rays, 2] + COINCIDENT_IN)  # NaN: nothing met yet
            best[alone_rays[higher]] = alone_hits[higher]
        rays = np.flatnonzero(~np.isnan(best[:, 2]))
        return rays, best[rays]

    def surface_stacks(self, points_xy, static_only: bool = False) -> list[np.ndarray]:
        """Every surface height (inches) under each (x, y) point, highest first: one downward ray
        per point through the whole table, so a caller walking levels asks once. static_only:
        leave out destructibles, which move, so where one stood is no level to land on."""
        points = np.atleast_2d(np.asarray(points_xy, float))
        ray_index, heights = self._downward_hits(points, static_only)
        starts = np.searchsorted(ray_index, np.arange(len(points) + 1))
        return [heights[a:b] for a, b in zip(starts[:-1], starts[1:])]

    def surface_height(self, points_xy, below: float | np.ndarray = 1000.0, static_only: bool = False) -> np.ndarray:
        """Height (inches) of the highest surface under each (x, y) point that is below ``below``
        (one height, or one per point); 0 where there is none. The one downward surface probe
        (:meth:`surface_stacks`), with :func:`level_below` taken for every point at once (a ride's
        ground profile asks for hundreds of points)."""
        points = np.atleast_2d(np.asarray(points_xy, float))
        below = np.broadcast_to(np.asarray(below, float), (len(points),))
        out = np.zeros(len(points))
        # Most points' answer is the first surface a ray from above meets (a ride's ground
        # profile is mostly open ground): one cast each (a fifth of the multi-hit walk's work)
        # answers them, the hit found as the walk finds it first (the same bits), and a ray that
        # meets nothing has no level (0); only points whose first surface is at or above
        # ``below`` walk every level.
        first_ray, first_hit = self._first_hits(points, static_only)
        low = first_hit[:, 2] < below[first_ray]
        out[first_ray[low]] = first_hit[low, 2]
        rest = first_ray[~low]
        if len(rest):
            ray_index, heights = self._downward_hits(points[rest], static_only)
            under = np.flatnonzero(heights < below[rest][ray_index])
            rays, first = np.unique(ray_index[under], return_index=True)
            out[rest[rays]] = heights[under[first]]
        return out

    def surface_terrain(self, point_xy, below: float = 1000.0) -> str | None:
        """Terrain name of the highest surface under one (x, y) point."""
        heights, _, owners = self._crossings(np.array([point_xy[:2]], float), static_only=False, top=below)
        if len(heights) == 0:
            return None
        return self.pieces[int(owners[int(np.argmax(heights))])].terrain

    def bounds(self) -> np.ndarray:
        """[[x_min, y_min, z_min], [x_max, y_max, z_max]] over every piece."""
        corners = np.array([p.mesh.bounds for p in self.pieces])
        return np.array([corners[:, 0].min(axis=0), corners[:, 1].max(axis=0)])


@contextmanager
def _building(key_path: str):
    """Any geometry library's error while building one piece, as a GeometryError naming it."""
    try:
        yield
    except GeometryError:
        raise
    except Exception as error:  # numpy, qhull, GEOS and trimesh each raise their own classes
        first = (str(error).strip().splitlines() or [""])[0]
        raise GeometryError(key_path, f"cannot build its shape ({type(error).__name__}: {first}); "
                                      "check its outline, sizes and mesh file") from None


_GEOMETRY: "weakref.WeakKeyDictionary[Table, TableGeometry]" = weakref.WeakKeyDictionary()


def build_table_geometry(table: Table) -> TableGeometry:
    """Every piece of ``table`` as meshes in table inches, built once per table (it never changes).
    A piece that cannot be built raises :class:`GeometryError` naming its key path."""
    if table not in _GEOMETRY:
        _GEOMETRY[table] = _build(table)
    return _GEOMETRY[table]


def _build(table: Table) -> TableGeometry:
    spec = table.spec
    terrain = table.ruleset.terrain
    pieces: list[Piece] = []

    def add(piece_id, kind, mesh, parts, surface, colour=None, size_class=0, dynamic=False, risk=None):
        colour = colour or (terrain[surface].colour if surface in terrain else "#808080")
        pieces.append(Piece(piece_id, kind, mesh, tuple(parts), surface, colour, size_class, dynamic, risk))

    ground = box((0, 0, -0.5), (spec.table.width, spec.table.depth, 0.0))
    add("table", "ground", ground, [ground], spec.table.ground)

    for i, zone in enumerate(spec.zones):
        with _building(f"zones[{i}]"):
            mesh, parts = prism(zone, 0.0, DECAL_HEIGHT)
            add(zone.id, "zone", mesh, parts, zone.terrain)

    for i, road in enumerate(spec.roads):
        with _building(f"roads[{i}]"):
            points = np.asarray(road.points, float)
            for k, (p, q) in enumerate(zip(points[:-1], points[1:])):
                delta = q - p
                length = float(np.hypot(*delta))
                heading = math.degrees(math.atan2(delta[1], delta[0]))
                strip = oriented_box((p + q) / 2, length, road.width, DECAL_HEIGHT / 2, heading)
                add(f"{road.id}/{k}" if len(points) > 2 else road.id, "road", strip, [strip],
                    road.surface or spec.table.ground)

    for i, block in enumerate(spec.blocks):
        with _building(f"blocks[{i}]"):
            mesh, parts = prism(block, 0.0, block.curb_height)
            add(block.id, "block", mesh, parts, block.surface)

    for i, building in enumerate(spec.buildings):
        with _building(f"buildings[{i}]"):
            mesh, parts = prism(building, building.base_height, building.height)
            colour = building.colour or ("#6b625a" if building.ruined else "#a89f91")
            add(building.id, "building", mesh, parts, building.roof_surface, colour, building.size_class)

    for i, platform in enumerate(spec.platforms):
        with _building(f"platforms[{i}]"):
            deck, parts = prism(platform, platform.height - platform.thickness, platform.height)
            add(platform.id, "platform", deck, parts, platform.surface,
                size_class=2 if platform.kind == "highway" else 1)
            for k, (px, py) in enumerate(platform.pillars):
                half = platform.pillar_size / 2
                pillar = box((px - half, py - half, 0.0), (px + half, py + half, platform.height - platform.thickness))
                add(f"{platform.id}/pillar{k}", "pillar", pillar, [pillar], "concrete", "#8c8880", size_class=2)
            if platform.railings:
                corners = np.asarray(platform.corners(), float)
                edges = list(zip(corners, np.roll(corners, -1, axis=0)))
                lengths = [float(np.hypot(*(q - p))) for p, q in edges]
                longest = max(lengths)
                centroid = corners.mean(axis=0)
                for k, ((p, q), length) in enumerate(zip(edges, lengths)):
                    if length < 0.99 * longest:
                        continue
                    inward = np.array([-(q - p)[1], (q - p)[0]]) / length
                    if np.dot(centroid - (p + q) / 2, inward) < 0:
                        inward = -inward
                    heading = math.degrees(math.atan2((q - p)[1], (q - p)[0]))
                    rail = oriented_box((p + q) / 2 + inward * RAILING_THICKNESS / 2, length, RAILING_THICKNESS,
                                        RAILING_HEIGHT, heading, platform.height)
                    add(f"{platform.id}/railing{k}", "railing", rail, [rail], "concrete", "#b0aca4")

    for i, ramp in enumerate(spec.ramps):
        with _building(f"ramps[{i}]"):
            mesh = wedge(ramp.start, ramp.heading, ramp.length, ramp.width, ramp.rise_in, ramp.base_height)
            colour = ramp.colour or (KICKER_COLOUR if ramp.surface == "metal" else None)
            add(ramp.id, "ramp", mesh, [mesh], ramp.surface, colour)

    for i, item in enumerate(spec.destructibles):
        with _building(f"destructibles[{i}]"):
            mesh = destructible_mesh(item)
            add(item.id, "destructible", mesh, [mesh.convex_hull], "wood",
                DESTRUCTIBLE_COLOURS.get(item.kind), size_class=0, dynamic=True, risk=item.risk)

    for i, piece in enumerate(spec.meshes):
        with _building(f"meshes[{i}]"):
            mesh = table.meshes.get(piece.id)
            if mesh is None:
                continue
            dynamic = piece.destructible_risk is not None
            parts = [mesh.convex_hull] if dynamic else [mesh]
            add(piece.id, "mesh", mesh, parts, piece.surface, piece.colour, piece.size_class, dynamic,
                piece.destructible_risk)

    return TableGeometry(spec.table.width, spec.table.depth, tuple(pieces), table.ruleset)
