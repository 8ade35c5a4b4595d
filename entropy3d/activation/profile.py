"""The profile panel: height (inches) against distance along the path (inches).

It shows the table cut along the path (every surface under it, from the table's one downward
probe :meth:`~entropy3d.scene.build.TableGeometry.surface_stacks`), the ride as the producer found
it (on the wheels, in the air), the flight's take-off, peak and touchdown, the rules' landing at
EC-JUMP-4's distance with the snap to it, the contacts and the destructibles gone through.
:class:`ProfileAxes` is the panel's data-to-pixel transform, so a test can say where a mark must be.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.activation.key import ColourKey, font
from entropy3d.activation.story import RideStory, distances_along
from entropy3d.fonts import covered_by
from entropy3d.scene.probe import points_along
from entropy3d.systems.words import Names

AXIS_COLOUR = (150, 150, 160)
TEXT_COLOUR = (235, 235, 235)
PANEL_COLOUR = (30, 32, 38)
#: radius (pixels) of the take-off, peak and touchdown dots
MARK_RADIUS_PX = 6


@dataclass(frozen=True)
class ProfileAxes:
    """The profile's transform: distance ``s_min``..``s_max`` and height ``z_min``..``z_max``
    (inches) onto the plot box ``left``, ``top``, ``width``, ``height`` (pixels of the whole
    picture; rows grow downward)."""

    left: int
    top: int
    width: int
    height: int
    s_min: float
    s_max: float
    z_min: float
    z_max: float

    @property
    def px_per_in_s(self) -> float:
        return self.width / (self.s_max - self.s_min)

    @property
    def px_per_in_z(self) -> float:
        return self.height / (self.z_max - self.z_min)

    def px(self, s, z) -> np.ndarray:
        """Pixel (column, row) of distance ``s`` and height ``z``, inches (scalars or arrays)."""
        s, z = np.asarray(s, float), np.asarray(z, float)
        return np.stack([self.left + (s - self.s_min) * self.px_per_in_s,
                         self.top + (self.z_max - z) * self.px_per_in_z], axis=-1)

    def distance_at(self, column: float) -> float:
        return self.s_min + (column - self.left) / self.px_per_in_s


def profile_axes(story: RideStory, box: tuple[int, int, int, int], room_right: int = 0) -> ProfileAxes:
    """The axes that frame the whole ride, its rules' landing and the table under it in ``box``
    (left, top, right, bottom) pixels, leaving room for tick labels (and ``room_right`` pixels on
    the right, for the magnified flight)."""
    distances = story.distances
    trajectory = story.trajectory
    far = [float(distances.max()), story.facts.path_length_in]
    heights = [float(trajectory[:, 3].max()), story.end.z, 1.0]
    landing = story.rules_landing()
    if landing is not None:
        far.append(landing.distance_in)
        heights.append(landing.level_in)
    s_max = max(far) + 2.0
    z_max = math.ceil(max(heights) + 1.0)
    left, top, right, bottom = box
    return ProfileAxes(left + 56, top + 34, right - left - 76 - room_right, bottom - top - 80, -1.0, s_max, -0.5,
                       float(z_max))


def _inside_any(points: np.ndarray, parts) -> np.ndarray:
    """Mask of ``points`` (N, 3) inside any of the convex meshes ``parts`` (behind every face)."""
    inside = np.zeros(len(points), bool)
    for part in parts:
        lo, hi = part.bounds
        near = np.all((points >= lo - 1e-6) & (points <= hi + 1e-6), axis=1)
        if not near.any():
            continue
        normals, origins = part.face_normals, part.triangles[:, 0, :]
        depth = np.einsum("nfk,fk->nf", points[near][:, None, :] - origins[None], normals)
        inside[np.flatnonzero(near)[np.all(depth <= 1e-6, axis=1)]] = True
    return inside


def table_section(geometry, story: RideStory, axes: ProfileAxes) -> list[tuple[float, float, float]]:
    """The table cut along the path: (distance, bottom, top) inches of every solid span under one
    point per pixel column. The heights are the table's downward probe's (every surface under the
    point); a span between two of them is solid when its middle lies inside a static piece (two
    pieces sharing a face give one height there, so heights alone cannot say which is which)."""
    s = np.array([axes.distance_at(axes.left + c + 0.5) for c in range(axes.width)])
    xy = points_along(story.path, np.maximum(s, 0.0))
    stacks = geometry.surface_stacks(xy, static_only=True)
    pairs = [(k, float(stack[j]), float(stack[j + 1])) for k, stack in enumerate(stacks)
             for j in range(len(stack) - 1)]
    if not pairs:
        return []
    column = np.array([p[0] for p in pairs])
    middles = np.column_stack([xy[column], [(high + low) / 2 for _, high, low in pairs]])
    parts = [part for piece in geometry.static_pieces for part in piece.parts]
    solid = _inside_any(middles, parts)
    return [(float(s[k]), low, high) for (k, high, low), keep in zip(pairs, solid) if keep]


def _dashed_line(draw, a, b, colour, width: int = 2, dash: float = 8.0) -> None:
    a, b = np.asarray(a, float), np.asarray(b, float)
    length = float(np.linalg.norm(b - a))
    steps = max(1, int(length // dash))
    for k in range(0, steps, 2):
        p = a + (b - a) * k / steps
        q = a + (b - a) * min(k + 1, steps) / steps
        draw.line([tuple(p), tuple(q)], fill=colour, width=width)


def _dot(draw, centre, colour, radius: int = MARK_RADIUS_PX) -> None:
    x, y = (int(round(v)) for v in centre)
    draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)


def _label(draw, at, text: str, colour=TEXT_COLOUR, above: bool = True, within: tuple[int, int] | None = None,
           taken: list[tuple[float, float, float, float]] | None = None) -> None:
    """``text`` centred above (or below) ``at``, in a lighter tint of ``colour``: a mark's own
    colour stays on the mark alone, so the mark can be found by its colour. A label that would
    cover one in ``taken`` (boxes in pixels) goes to the mark's other side, else beside the one
    it meets; its own box joins ``taken``."""
    colour = tuple(int(c + 0.45 * (255 - c)) for c in colour)
    face = font(14)
    x, y = at
    width = draw.textlength(text, font=face)
    left = x - width / 2
    if within is not None:
        left = min(max(left, within[0] + 2), within[1] - width - 2)

    def box(left: float, above: bool) -> tuple[float, float, float, float]:
        top = y - 24 if above else y + 9
        return (left, top, left + width, top + 18)

    placed = box(left, above)
    if (met := covered_by(placed, taken or ())) is not None:
        flipped = box(left, not above)
        placed = flipped if covered_by(flipped, taken or ()) is None else box(met[2] + 6, above)
    draw.text(placed[:2], text, fill=colour, font=face)
    if taken is not None:
        taken.append(placed)


def draw_profile(draw: ImageDraw.ImageDraw, geometry, story: RideStory, key: ColourKey,
                 box: tuple[int, int, int, int], names: Names | None = None, room_right: int = 0) -> ProfileAxes:
    """Draw the profile into ``box`` (left, top, right, bottom) pixels, its plot ``room_right``
    pixels short of the box's right (for :func:`draw_magnified_flight`); returns its axes. What
    the bike hit or smashed is named as the title line names it (``names``: a rider by name,
    scenery by a name read off its id)."""
    names = names or Names()
    axes = profile_axes(story, box, room_right)
    left, top, right, bottom = box
    draw.rectangle(box, fill=PANEL_COLOUR)
    draw.text((left + 10, top + 6), "Profile: height over distance along the path (inches)", fill=TEXT_COLOUR,
              font=font(17, bold=True))
    plot_right, plot_bottom = axes.left + axes.width, axes.top + axes.height
    for z in range(int(math.ceil(axes.z_min)), int(axes.z_max) + 1):
        (_, row), = axes.px([0.0], [z])
        draw.line([(axes.left, row), (plot_right, row)], fill=(48, 50, 58))
        draw.text((axes.left - 30, row - 8), f"{z}\"", fill=AXIS_COLOUR, font=font(13))
    tick = 1 if axes.s_max < 16 else 2 if axes.s_max < 40 else 5
    for s in range(0, int(axes.s_max) + 1, tick):
        (column, _), = axes.px([s], [axes.z_min])
        draw.line([(column, plot_bottom), (column, plot_bottom + 5)], fill=AXIS_COLOUR)
        draw.text((column - 8, plot_bottom + 7), f"{s}\"", fill=AXIS_COLOUR, font=font(13))
    exaggeration = axes.px_per_in_z / axes.px_per_in_s
    caption = "distance along the path" + (f"  (heights drawn x{exaggeration:.1f})" if exaggeration > 1.05 else "")
    draw.text((axes.left, plot_bottom + 26), caption, fill=AXIS_COLOUR, font=font(13))

    section = key.colour("section")
    for distance, low, high in table_section(geometry, story, axes):
        low, high = max(low, axes.z_min), min(high, axes.z_max)
        if high <= low:
            continue
        (column, row_high), (_, row_low) = axes.px([distance, distance], [high, low])
        draw.line([(column, row_high), (column, row_low)], fill=section)
    draw.rectangle([axes.left, axes.top, plot_right, plot_bottom], outline=AXIS_COLOUR)

    _draw_ride(draw, story, key, axes, names)
    return axes


def _draw_ride(draw, story: RideStory, key: ColourKey, axes: ProfileAxes, names: Names) -> None:
    trajectory, distances = story.trajectory, story.distances
    points = axes.px(distances, trajectory[:, 3])
    airborne = story.airborne_rows()
    for k in range(len(points) - 1):
        colour = key.colour("flight" if airborne[k] and airborne[k + 1] else "ridden")
        draw.line([tuple(points[k]), tuple(points[k + 1])], fill=colour, width=3)

    for hit in story.facts.scenery:
        z = float(np.interp(hit.t_s, trajectory[:, 0], trajectory[:, 3]))
        centre = axes.px(hit.progress_in, z + 0.6)
        draw.regular_polygon((*centre, 8), 3, rotation=180, fill=key.colour("smashed"))
        _label(draw, centre, "through " + names.thing(hit.piece_id), key.colour("smashed"))
    for contact in story.facts.contacts:
        x, y = axes.px(contact.progress_in, contact.point[2] + 0.3)
        colour = key.colour("contact")
        draw.line([(x - 7, y - 7), (x + 7, y + 7)], fill=colour, width=3)
        draw.line([(x - 7, y + 7), (x + 7, y - 7)], fill=colour, width=3)
        _label(draw, (x, y), f"hit {names.thing(contact.piece_id)}", colour)

    landing = story.rules_landing()
    moments = {m.name: m for m in story.moments()}
    if landing is not None:
        colour = key.colour("rules landing")
        (column, _), = axes.px([landing.distance_in], [0.0])
        _dashed_line(draw, (column, axes.top), (column, axes.top + axes.height), colour)
        spot = axes.px(landing.distance_in, landing.level_in)
        draw.regular_polygon((*spot, 9), 4, fill=colour)
        _label(draw, (column, axes.top + 24), "rules' landing (EC-JUMP-4)", colour,
               within=(axes.left, axes.left + axes.width))
        came_down = moments.get("touchdown", moments["end"])
        _dashed_line(draw, axes.px(came_down.distance_in, came_down.xyz[2]), spot, key.colour("snap"), 2, 5.0)

    end_distance = float(distances_along(story.path, [story.end.xy])[0])
    ex, ey = axes.px(end_distance, story.end.z)
    if landing is None or landing.carry_in <= 0:
        draw.rectangle([ex - 5, ey - 5, ex + 5, ey + 5], outline=key.colour("end"), width=3)
    taken: list[tuple[float, float, float, float]] = []
    for name in ("take-off", "peak", "touchdown"):
        moment = moments.get(name)
        if moment is None:
            continue
        centre = axes.px(moment.distance_in, moment.xyz[2])
        _dot(draw, centre, key.colour(name))
        text = {"take-off": f"take-off {moment.xyz[2]:.1f}\"", "peak": f"peak {moment.xyz[2]:.1f}\"",
                "touchdown": f"touchdown {moment.distance_in:.1f}\""}[name]
        _label(draw, centre, text, key.colour(name), above=name != "touchdown", taken=taken)


#: a flight drawn less than this many pixels high (or long) in the profile is magnified beside it
FLIGHT_SEEN_PX = 48
#: width (pixels) the magnified flight takes right of the profile's plot
MAGNIFIER_W = 440
MAGNIFIER_FRAME = (200, 200, 210)


def flight_extent(story: RideStory) -> tuple[float, float, float, float] | None:
    """(first, last distance, lowest, highest height), inches, of the ride's rows in the air, or
    None when it never left the ground."""
    rows = np.flatnonzero(story.airborne_rows())
    if not len(rows):
        return None
    s, z = story.distances[rows], story.trajectory[rows, 3]
    return float(s.min()), float(s.max()), float(z.min()), float(z.max())


def needs_magnifier(story: RideStory, axes: ProfileAxes) -> bool:
    """Whether the flight, drawn on ``axes``, is under :data:`FLIGHT_SEEN_PX` high or long: a
    0.11" hop off a kicker was a dozen pixels of arc."""
    extent = flight_extent(story)
    if extent is None:
        return False
    s0, s1, z0, z1 = extent
    return (z1 - z0) * axes.px_per_in_z < FLIGHT_SEEN_PX or (s1 - s0) * axes.px_per_in_s < FLIGHT_SEEN_PX


def _tick_step(span: float, most: int = 6) -> float:
    """The smallest of 0.01, 0.02, 0.05, 0.1 ... inches giving at most ``most`` ticks over ``span``."""
    for step in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 5.0):
        if span / step <= most:
            return step
    return 10.0


def draw_magnified_flight(image, geometry, story: RideStory, key: ColourKey, axes: ProfileAxes,
                          box: tuple[int, int, int, int]) -> ProfileAxes | None:
    """The flight magnified right of the profile's plot (in ``box``, the profile panel), with its
    own inch ticks and how much it is magnified, and a frame round the part of the plot it
    magnifies; returns its axes (pixels of ``image``), or None without a flight."""
    extent = flight_extent(story)
    if extent is None:
        return None
    s0, s1, z0, z1 = extent
    pad_s, pad_z = max(0.3, 0.15 * (s1 - s0)), max(0.02, 0.25 * (z1 - z0))
    left, top = axes.left + axes.width + 34, axes.top
    right, bottom = box[2] - 12, axes.top + axes.height
    plot = ProfileAxes(left + 58, top + 30, right - left - 70, bottom - top - 58, s0 - pad_s, s1 + pad_s,
                       z0 - pad_z, z1 + 2.5 * pad_z)
    draw = ImageDraw.Draw(image)
    (x0, y0), (x1, y1) = axes.px([plot.s_min, plot.s_max], [plot.z_max, plot.z_min])
    draw.rectangle([x0 - 2, y0 - 2, x1 + 2, y1 + 2], outline=MAGNIFIER_FRAME, width=1)
    level = min(max((y0 + y1) / 2, top + 10), bottom - 10)
    draw.line([(x1 + 2, (y0 + y1) / 2), (left, level)], fill=MAGNIFIER_FRAME, width=1)
    draw.rectangle([left, top, right, bottom], fill=PANEL_COLOUR, outline=MAGNIFIER_FRAME)
    zoom_z, zoom_s = plot.px_per_in_z / axes.px_per_in_z, plot.px_per_in_s / axes.px_per_in_s
    draw.text((left + 8, top + 6), f"the flight magnified: heights x{zoom_z:.0f}, lengths x{zoom_s:.1f}",
              fill=TEXT_COLOUR, font=font(14, bold=True))
    step = _tick_step(plot.z_max - plot.z_min)
    for z in np.arange(math.ceil(plot.z_min / step) * step, plot.z_max, step):
        (_, row), = plot.px([plot.s_min], [z])
        draw.line([(plot.left, row), (plot.left + plot.width, row)], fill=(48, 50, 58))
        draw.text((plot.left - 52, row - 8), f"{z:.2f}\"", fill=AXIS_COLOUR, font=font(12))
    step = _tick_step(plot.s_max - plot.s_min, 5)
    for s in np.arange(math.ceil(plot.s_min / step) * step, plot.s_max, step):
        (column, _), = plot.px([s], [plot.z_min])
        draw.text((column - 10, plot.top + plot.height + 6), f"{s:g}\"", fill=AXIS_COLOUR, font=font(12))
    # the data on a layer of the plot's own size, pasted in: what runs past the plot is cut off
    layer = Image.new("RGB", (plot.width, plot.height), PANEL_COLOUR)
    inner = ProfileAxes(0, 0, plot.width, plot.height, plot.s_min, plot.s_max, plot.z_min, plot.z_max)
    for distance, low, high in table_section(geometry, story, inner):
        (column, row_high), (_, row_low) = inner.px([distance, distance], [high, low])
        ImageDraw.Draw(layer).line([(column, row_high), (column, row_low)], fill=key.colour("section"))
    pen = ImageDraw.Draw(layer)
    points, airborne = inner.px(story.distances, story.trajectory[:, 3]), story.airborne_rows()
    for k in range(len(points) - 1):
        colour = key.colour("flight" if airborne[k] and airborne[k + 1] else "ridden")
        pen.line([tuple(points[k]), tuple(points[k + 1])], fill=colour, width=3)
    moments = {m.name: m for m in story.moments()}
    for name in ("take-off", "peak", "touchdown"):
        if name in moments:
            _dot(pen, inner.px(moments[name].distance_in, moments[name].xyz[2]), key.colour(name))
    image.paste(layer, (plot.left, plot.top))
    draw.rectangle([plot.left, plot.top, plot.left + plot.width, plot.top + plot.height], outline=AXIS_COLOUR)
    taken: list[tuple[float, float, float, float]] = []
    launch = moments.get("take-off")
    for name in ("take-off", "peak", "touchdown"):
        moment = moments.get(name)
        if moment is None:
            continue
        rise = "" if launch is None or name == "take-off" else f" ({moment.xyz[2] - launch.xyz[2]:+.2f}\")"
        _label(draw, plot.px(moment.distance_in, moment.xyz[2]), f"{name} {moment.xyz[2]:.2f}\"{rise}",
               key.colour(name), above=name != "touchdown", within=(plot.left, plot.left + plot.width), taken=taken)
    return plot
