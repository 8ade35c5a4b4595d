"""Physical plausibility of a scene, checked after the schema on the table as geometry.

A scene can be well typed and still impossible: two bases in the same place, a bike inside a
building (a position without z puts it on the roof), a crate inside a wall, a mesh off the table.
:func:`plausibility_problems` finds them from :class:`~entropy3d.scene.build.TableGeometry`, the
shapes physics, line of sight and rendering read, and returns errors and warnings (a warning where
a designer may mean it), each ``(key_path, message)`` with the fix.
"""

from __future__ import annotations

import numpy as np
from shapely.geometry import Polygon

from entropy3d.geometry import Pose
from entropy3d.units import INCHES_PER_UNIT, LENGTH_UNITS

#: kinds of piece a base or a destructible cannot stand inside
SOLID_KINDS = ("building", "platform", "pillar", "railing", "mesh")
#: kinds of piece that are the ground level a position without z stands on
GROUND_KINDS = ("ground", "zone", "road", "block")
#: inches two things may overlap without counting (rounding in a scene file)
TOLERANCE_IN = 0.02
#: inches a model given a z, or a destructible, may stand above what is under it before it floats
FLOAT_IN = 0.1
#: base overlaps smaller than this (square inches) are touching, not overlapping
OVERLAP_AREA_IN2 = 0.01
#: a mesh whose plan, as placed, is more than this many times the table's longer side was read in
#: the wrong ``units`` (a car modelled in millimetres and declared ``m`` is 3,000 inches long)
MESH_TOO_BIG_TABLES = 2.0
#: inches: a mesh whose largest side is smaller than this was most likely read in the wrong
#: ``units`` too (a car modelled in metres and declared ``mm`` is 0.08 inches long)
MESH_TOO_SMALL_IN = 0.1

Finding = tuple[str, str]


def _fmt(value: float) -> str:
    return f"{value:.4g}"


def _where(piece, span=None) -> str:
    lo, hi = piece.mesh.bounds
    heights = f", z {_fmt(span[0])}..{_fmt(span[1])}" if span is not None else ""
    return f"({_fmt(lo[0])}..{_fmt(hi[0])}, {_fmt(lo[1])}..{_fmt(hi[1])}{heights})"


def _size(extent) -> str:
    return " x ".join(_fmt(v) for v in extent)


def misscaled_meshes(table, geometry) -> dict[int, tuple[bool, Finding]]:
    """Mesh pieces whose size says their ``units`` are wrong: piece index -> (an error, not a
    warning; the finding). Too big is an error (the mesh buries the table); too small a warning
    (a designer may mean a pebble). The message gives the sizes in every other unit, so the
    right one can be picked without opening the file."""
    index = {piece.id: k for k, piece in enumerate(geometry.pieces)}
    longer_side = max(table.width, table.depth)
    found = {}
    for i, spec in enumerate(table.spec.meshes):
        if spec.id not in index:
            continue
        lo, hi = geometry.pieces[index[spec.id]].mesh.bounds
        extent = hi - lo
        too_big = max(extent[0], extent[1]) > MESH_TOO_BIG_TABLES * longer_side
        if not too_big and max(extent) >= MESH_TOO_SMALL_IN:
            continue
        now = INCHES_PER_UNIT[spec.units]
        others = ", ".join(f"{unit} {_size(extent * INCHES_PER_UNIT[unit] / now)}"
                           for unit in LENGTH_UNITS if unit != spec.units)
        size = (f"more than {_fmt(MESH_TOO_BIG_TABLES)} times the {_fmt(table.width)}x{_fmt(table.depth)} inch table"
                if too_big else f"smaller than {_fmt(MESH_TOO_SMALL_IN)} inch")
        found[index[spec.id]] = (too_big, (
            f"meshes[{i}].units",
            f"mesh '{spec.id}' is {_size(extent)} inches as placed with units: {spec.units}, {size}: check "
            f"`units` (the same file in {others} inches) and `scale`"))
    return found


def highest_static(geometry, count: int, crossings) -> np.ndarray:
    """Per point of ``TableGeometry.downward_crossings`` (``count`` of them), the height of the highest
    static surface under it (what a position without z stands on; destructibles move, so they are
    no level), NaN where there is none."""
    heights, rays, owners = crossings
    static = ~np.array([piece.dynamic for piece in geometry.pieces], bool)[owners]
    highest = np.full(count, -np.inf)
    np.maximum.at(highest, rays[static], heights[static])
    return np.where(np.isinf(highest), np.nan, highest)


def solid_spans(geometry, points: np.ndarray, crossings=None) -> list[list[tuple[int, float, float]]]:
    """Per point, the (piece index, bottom, top) spans of every solid piece on the vertical line
    through it: the crossings (``TableGeometry.downward_crossings``, cast here unless given) paired
    from the top."""
    crossing_z, rays, owners = crossings if crossings is not None else geometry.downward_crossings(points)
    spans: list[list[tuple[int, float, float]]] = [[] for _ in points]
    hits: dict[tuple[int, int], list[float]] = {}
    for z, ray, owner in zip(crossing_z, rays, owners):
        owner = int(owner)
        if geometry.pieces[owner].kind in SOLID_KINDS or geometry.pieces[owner].kind == "destructible":
            hits.setdefault((int(ray), owner), []).append(float(z))
    for (ray, owner), heights in hits.items():
        heights = sorted(set(np.round(heights, 6)), reverse=True)
        if len(heights) % 2:
            heights.append(float(geometry.pieces[owner].mesh.bounds[0][2]))
        for upper, lower in zip(heights[0::2], heights[1::2]):
            spans[ray].append((owner, lower, upper))
    return spans


def _inside(spans, low: float, high: float, kinds) -> dict[int, tuple[float, float]]:
    """Pieces (of ``kinds``) whose solid span overlaps [low, high] under any point."""
    found: dict[int, tuple[float, float]] = {}
    for point_spans in spans:
        for owner, bottom, top in point_spans:
            if owner not in found and bottom < high - TOLERANCE_IN and top > low + TOLERANCE_IN:
                found[owner] = (bottom, top)
    return {owner: span for owner, span in found.items() if kinds is None or owner in kinds}


def _support(crossings, rays: range, bottom: float, skip: int | None = None) -> tuple[float, int | None]:
    """The highest surface under the points ``rays`` (indices into ``crossings``) at or below
    ``bottom`` (inches, with :data:`TOLERANCE_IN`), and whose it is: the table's top (0, None)
    where nothing is higher. ``skip``: a piece not to stand on (the thing itself)."""
    heights, owners, on = crossings[0], crossings[2], np.isin(crossings[1], np.asarray(rays))
    under = on & (heights <= bottom + TOLERANCE_IN) & (owners != (-1 if skip is None else skip))
    if not under.any():
        return 0.0, None
    k = int(np.argmax(np.where(under, heights, -np.inf)))
    return (float(heights[k]), int(owners[k])) if heights[k] > 0.0 else (0.0, None)


def _standing_on(crossings, static_crossings, rays: range, bottom: float, skip: int | None = None
                 ) -> tuple[float, int | None]:
    """:func:`_support` among every piece (a crate on a crate) and among the static ones alone
    (whose surfaces a crate standing on them hides from the rays of all pieces): the higher."""
    return max(_support(crossings, rays, bottom, skip), _support(static_crossings, rays, bottom, skip),
               key=lambda found: found[0])


def overlapping_buildings(table) -> list[Finding]:
    """Warnings for buildings whose plans overlap at the same heights: 10 buildings laid over each
    other were accepted without a word (issue 49); line of sight, the levels map and the rules'
    building footprints then count the overlap twice. One piece on another (a base_height at the
    other's roof) does not overlap."""
    from shapely.geometry import Polygon

    buildings = table.spec.buildings
    plans = [Polygon(building.corners()) for building in buildings]
    found = []
    for b in range(len(buildings)):
        for a in range(b):
            low, high = max(buildings[a].base_height, buildings[b].base_height), \
                min(buildings[a].height, buildings[b].height)
            if high - low <= TOLERANCE_IN or not plans[a].intersects(plans[b]):
                continue
            area = plans[a].intersection(plans[b]).area
            if area > OVERLAP_AREA_IN2:
                found.append((f"buildings[{b}]",
                               f"building '{buildings[b].id}' overlaps building '{buildings[a].id}' ({_fmt(area)} "
                               f"square inches of their plans, z {_fmt(low)}..{_fmt(high)}): join them into one "
                               "polygon, or move one so they meet at a wall"))
    return found


def _samples(outline: np.ndarray, centre) -> np.ndarray:
    """The centre and the outline pulled in by 3% (a base touching a wall is not inside it)."""
    centre = np.asarray(centre, float)[:2]
    return np.vstack([centre, centre + 0.97 * (outline - centre)])


def plausibility_problems(table, geometry) -> tuple[list[Finding], list[Finding]]:
    """(errors, warnings) of a loaded table and its geometry, each ``(key_path, message)``."""
    errors: list[Finding] = []
    warnings: list[Finding] = []
    ruleset = table.ruleset
    step = float(ruleset.data("ride.step_height_in"))
    bike_height = ruleset.bike_height_in + ruleset.rider_height_in
    index = {piece.id: k for k, piece in enumerate(geometry.pieces)}
    # a mesh in the wrong units is reported as such, and nothing is said to be inside it (its
    # size is wrong, so where things stand against it means nothing)
    misscaled = misscaled_meshes(table, geometry)
    for is_error, finding in misscaled.values():
        (errors if is_error else warnings).append(finding)
    solid = {k for k, p in enumerate(geometry.pieces)
             if p.kind in SOLID_KINDS and not p.dynamic and k not in misscaled}
    debris = {k for k, p in enumerate(geometry.pieces) if p.dynamic and k not in misscaled}

    def describe(owner: int, span=None) -> str:
        piece = geometry.pieces[owner]
        return f"{piece.kind} '{piece.id}' {_where(piece, span)}"

    # Every vertical line any check needs is cast in one batch of rays (a ray's hits do not
    # depend on the others in its batch), then handed out model by model and crate by crate.
    models, destructibles = table.models, table.spec.destructibles
    without_z = [i for i, model in enumerate(models) if len(model.position) != 3]
    outlines = [table.base_of(model).outline(Pose(model.position[0], model.position[1], model.facing), samples=16)
                for model in models]
    crate_bounds = [geometry.pieces[index[item.id]].mesh.bounds for item in destructibles]
    samples = ([_samples(outline, model.position) for model, outline in zip(models, outlines)]
               + [_samples(np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]]), item.position)
                  for item, (lo, hi) in zip(destructibles, crate_bounds)])
    points = np.vstack([np.array([models[i].position[:2] for i in without_z], float).reshape(-1, 2), *samples])
    crossings = geometry.downward_crossings(points)
    standing = dict(zip(without_z, highest_static(geometry, len(points), crossings)))
    heights = [float(model.position[2]) if len(model.position) == 3
               else 0.0 if np.isnan(standing[i]) else float(standing[i]) for i, model in enumerate(models)]
    all_spans = solid_spans(geometry, points, crossings)[len(without_z):]
    ends = np.cumsum([len(group) for group in samples])
    rays_of = [range(len(without_z) + end - len(group), len(without_z) + end) for group, end in zip(samples, ends)]
    placed = [k for k, model in enumerate(models) if len(model.position) == 3] + \
        [len(models) + k for k in range(len(destructibles))]  # the things whose height the scene gives
    on_static = geometry.downward_crossings(points[[r for k in placed for r in rays_of[k]]], static_only=True)
    static_crossings = (on_static[0], np.array([r for k in placed for r in rays_of[k]], int)[on_static[1]]
                        if len(on_static[1]) else on_static[1], on_static[2])
    spans_of = [all_spans[end - len(group):end] for group, end in zip(samples, ends)]
    ground = [p for p in geometry.pieces if p.kind in GROUND_KINDS]

    bases = []
    for i, (model, z, outline, spans) in enumerate(zip(models, heights, outlines, spans_of)):
        path = f"models[{i}].position"
        x, y = model.position[0], model.position[1]
        if i in standing:
            low = max([0.0] + [float(p.mesh.bounds[1][2]) for p in ground
                                if p.kind == "block" and p.mesh.bounds[0][0] <= x <= p.mesh.bounds[1][0]
                                and p.mesh.bounds[0][1] <= y <= p.mesh.bounds[1][1]])
            under = _inside(spans[:1], low, z, solid)
            if under and z > low + step:
                owner, (_, top) = next(iter(under.items()))
                piece = geometry.pieces[owner]
                if piece.kind == "building" and model.on_foot:
                    pass  # a model on foot "within a building" stands on its roof (EC-FOOT-DEPLOY)
                elif piece.kind == "platform":
                    warnings.append((path, f"{model.id} at ({_fmt(x)}, {_fmt(y)}) has no z, so it starts on the "
                                           f"deck of {describe(owner)} at z {_fmt(top)}; write "
                                           f"[{_fmt(x)}, {_fmt(y)}, {_fmt(top)}] to say so, or "
                                           f"[{_fmt(x)}, {_fmt(y)}, {_fmt(low)}] to start under it"))
                else:
                    why = (" (a bike cannot be taken inside a building; a model on foot, `on_foot: true`, would "
                           "stand on its roof)" if piece.kind == "building" and not model.on_foot else "")
                    errors.append((path, f"{model.id} at ({_fmt(x)}, {_fmt(y)}) is inside {describe(owner)}{why}: "
                                         f"move it, or put it on the roof with z: "
                                         f"[{_fmt(x)}, {_fmt(y)}, {_fmt(top)}]"))
                    bases.append(None)
                    continue
        if len(model.position) == 3 and z < -TOLERANCE_IN:
            errors.append((path, f"{model.id} at ({_fmt(x)}, {_fmt(y)}, z {_fmt(z)}) is under the table (its top is "
                                 f"z 0): leave z out to stand it on what is there, or give a z of 0 or more"))
            bases.append(None)
            continue
        if len(model.position) == 3:
            support, owner = _standing_on(crossings, static_crossings, rays_of[i], z)
            if z - support > FLOAT_IN:
                what = "the table" if owner is None else describe(owner)
                warnings.append((path, f"{model.id} at ({_fmt(x)}, {_fmt(y)}, z {_fmt(z)}) floats "
                                       f"{_fmt(z - support)}\" above {what} (top at z {_fmt(support)}) and drops "
                                       f"there at its first ride: write [{_fmt(x)}, {_fmt(y)}, {_fmt(support)}], "
                                       "or leave z out"))
        for owner, (bottom, top) in _inside(spans, z + step, z + bike_height, solid | debris).items():
            if owner in debris:
                warnings.append((path, f"{model.id}'s base at ({_fmt(x)}, {_fmt(y)}) overlaps destructible "
                                       f"'{geometry.pieces[owner].id}'; physics will knock it aside at the first "
                                       "ride: move one of them if you did not mean that"))
                continue
            fix = (f"put it on top with z: [{_fmt(x)}, {_fmt(y)}, {_fmt(top)}]"
                   if top - z < 4 * bike_height else "put it on the level it stands on with z")
            errors.append((path, f"{model.id} at ({_fmt(x)}, {_fmt(y)}, z {_fmt(z)}) is inside "
                                 f"{describe(owner, (bottom, top))}: move it, or {fix}"))
        bases.append((model, Polygon(outline), z))

    police = table.ruleset.data("law.gang") if table.spec.law else None
    for a in range(len(bases)):
        for b in range(a + 1, len(bases)):
            if bases[a] is None or bases[b] is None:
                continue
            (first, outline_a, za), (second, outline_b, zb) = bases[a], bases[b]
            if table.spec.law and (first.gang == police) != (second.gang == police):
                continue  # the Law waits off the table until it enters (EC-LAW, rules.law.law_enters)
            if abs(za - zb) < bike_height and outline_a.intersection(outline_b).area > OVERLAP_AREA_IN2:
                errors.append((f"models[{b}].position",
                               f"{second.id}'s base at ({_fmt(second.position[0])}, {_fmt(second.position[1])}) "
                               f"overlaps {first.id}'s at ({_fmt(first.position[0])}, {_fmt(first.position[1])}): "
                               "move one of them so the bases do not touch"))

    for i, (item, (lo, hi), spans) in enumerate(zip(destructibles, crate_bounds, spans_of[len(models):])):
        # a crate sunk even 0.2" into a roof is inside it (a bike's step up a curb is no excuse here)
        inside = _inside(spans, lo[2], hi[2], solid)
        for owner, (bottom, top) in inside.items():
            errors.append((f"destructibles[{i}].position",
                           f"destructible '{item.id}' at ({_fmt(item.position[0])}, {_fmt(item.position[1])}) is "
                           f"inside {describe(owner, (bottom, top))}: move it, or stand it on top "
                           f"with base_height: {_fmt(top)}"))
        support, owner = _standing_on(crossings, static_crossings, rays_of[len(models) + i], float(lo[2]),
                                      skip=index[item.id])
        if not inside and lo[2] - support > FLOAT_IN:
            what = "the table" if owner is None else describe(owner)
            warnings.append((f"destructibles[{i}].base_height",
                             f"destructible '{item.id}' at ({_fmt(item.position[0])}, {_fmt(item.position[1])}) floats "
                             f"{_fmt(lo[2] - support)}\" above {what} (top at z {_fmt(support)}) and falls there when "
                             f"the game starts: write base_height: {_fmt(support)}"))

    width, depth = table.width, table.depth
    for section in ("zones", "blocks", "buildings", "platforms", "ramps", "meshes"):
        for i, spec in enumerate(getattr(table.spec, section)):
            if spec.id not in index or index[spec.id] in misscaled:
                continue
            lo, hi = geometry.pieces[index[spec.id]].mesh.bounds
            text = f"'{spec.id}' (x {_fmt(lo[0])}..{_fmt(hi[0])}, y {_fmt(lo[1])}..{_fmt(hi[1])})"
            path = f"{section}[{i}]"
            if hi[0] <= 0 or hi[1] <= 0 or lo[0] >= width or lo[1] >= depth:
                errors.append((path, f"{text} is entirely off the {_fmt(width)}x{_fmt(depth)} inch table: move "
                                     f"it onto the table (x 0..{_fmt(width)}, y 0..{_fmt(depth)}); for a mesh, "
                                     "check `units` and `position`"))
            elif hi[2] <= 0:
                errors.append((path, f"{text} is below the table (top at z {_fmt(hi[2])}): raise its position z"))
            elif lo[0] < -TOLERANCE_IN or lo[1] < -TOLERANCE_IN or hi[0] > width + TOLERANCE_IN \
                    or hi[1] > depth + TOLERANCE_IN:
                warnings.append((path, f"{text} reaches past the edge of the {_fmt(width)}x{_fmt(depth)} inch "
                                       "table; bikes cannot ride there"))
    warnings.extend(overlapping_buildings(table))
    return errors, warnings
