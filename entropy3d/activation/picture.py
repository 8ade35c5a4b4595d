"""The picture of one ridden action: a title line in plain words, three panels that share one
colour key (a 3D still, the profile, the table from above) and a legend of every colour used.

``activate --png`` and ``replay-render --png`` both draw it from a
:class:`~entropy3d.activation.story.RideStory`, so a live run and its replay give the same picture.
The file is written atomically (:mod:`entropy3d.outputs`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.activation.key import ColourKey, font
from entropy3d.activation.profile import (
    MAGNIFIER_W,
    ProfileAxes,
    draw_magnified_flight,
    draw_profile,
    needs_magnifier,
    profile_axes,
)
from entropy3d.activation.story import RideStory, distances_along
from entropy3d.activation.topdown_panel import draw_topdown
from entropy3d.geometry import Pose
from entropy3d.outputs import AtomicFile

WIDTH = 1680
BACKGROUND = (18, 19, 23)
TITLE_H = 74
STILL_BOX = (10, TITLE_H + 6, 1010, TITLE_H + 606)
TOPDOWN_BOX = (1020, TITLE_H + 6, WIDTH - 10, TITLE_H + 606)
PROFILE_BOX = (10, TITLE_H + 616, WIDTH - 10, TITLE_H + 1016)
LEGEND_TOP = TITLE_H + 1028
#: room for the whole key (16 entries) in four columns
LEGEND_H = 4 * 22 + 12


@dataclass(frozen=True)
class Picture:
    """What was drawn: the ``image``, the profile's ``axes`` (its data-to-pixel transform), the
    legend's ``legend`` entries (name, rgb, meaning), the ``title`` lines (who and what, the
    outcome) and the seconds the 3D still took."""

    image: Image.Image
    axes: ProfileAxes
    legend: list
    title: tuple[str, str]
    still_s: float


def title_lines(story: RideStory, names=None) -> tuple[str, str]:
    """Who rode what ("Magpie (Mutiny), mutiny_3: s3: straight 16, action 1") and what came of it."""
    from entropy3d.systems.words import Names

    names = names or Names()
    who = names.rider_of_gang(story.model_id)
    who = who if names.rider(story.model_id) == story.model_id else f"{who} [{story.model_id}]"
    return (f"{who}, {story.bike_type}: \"{story.plan}\" (action {story.action_number})",
            story.outcome(names))


#: the moments a ghost is kept for first, when two would stand on one another
GHOST_PRIORITY = ("take-off", "touchdown", "end", "peak", "start")
#: ghosts stand at least this many base lengths apart (a sportsbike's 1.75": 2.2")
GHOST_SPACING_BASES = 1.25


def spaced_ghosts(story: RideStory) -> list[tuple[str, Pose]]:
    """The moments the 3D still shows the bike at, in order along the ride, as (name, pose with z
    the bike's height): each moment's ghost but one that would stand within
    :data:`GHOST_SPACING_BASES` base lengths of a ghost already kept (the moments kept first in
    :data:`GHOST_PRIORITY`): take-off and peak 1.3" apart drew two bikes in one."""
    moments = [(m.name, m.distance_in, Pose(m.xyz[0], m.xyz[1], m.heading_deg, m.xyz[2]))
               for m in story.moments() if m.name != "end"]
    end_distance = float(distances_along(story.path, [story.end.xy])[0])
    moments.append(("end", end_distance, story.end))
    spacing = GHOST_SPACING_BASES * story.base.length
    kept: list[tuple[str, float, Pose]] = []
    for name in GHOST_PRIORITY:
        for moment in (m for m in moments if m[0] == name):
            pose = moment[2]
            if all(math.dist((pose.x, pose.y, pose.z), (k[2].x, k[2].y, k[2].z)) >= spacing for k in kept):
                kept.append(moment)
    return [(name, pose) for name, _, pose in sorted(kept, key=lambda m: m[1])]


def ride_still(story: RideStory, key: ColourKey):
    """The 3D panel's content in the key's colours (:class:`~entropy3d.render.ride_still.RideStill`)."""
    from entropy3d.render.ride_still import RideStill

    trajectory = story.trajectory
    airborne = story.airborne_rows()
    segments, start = [], 0
    for k in range(1, len(trajectory) + 1):
        if k == len(trajectory) or airborne[k] != airborne[start]:
            rows = trajectory[max(0, start - 1):k, 1:4]
            if len(rows) > 1:
                segments.append((rows, key.colour("flight" if airborne[start] else "ridden")))
            start = k
    ghosts = [pose for _, pose in spaced_ghosts(story)]
    marks = [(tuple(c.point), key.colour("contact")) for c in story.facts.contacts]
    snap = None
    landing = story.rules_landing()
    if landing is not None:
        marks.append(((*landing.xy, landing.level_in), key.colour("rules landing")))
        moments = {m.name: m for m in story.moments()}
        came_down = moments.get("touchdown", moments["end"])
        snap = ((came_down.xyz, (*landing.xy, landing.level_in)), key.colour("snap"))
    moved = {pid: (None if spot.removed else (spot.dx, spot.dy)) for pid, spot in story.scenery.items()}
    others = {model_id: pose for pose, _, model_id in story.others}
    return RideStill(story.model_id, segments, ghosts, marks, snap, moved, others)


def draw_picture(table, geometry, story: RideStory, names=None, cliff_edges=(), backend: str | None = None
                 ) -> Picture:
    """Draw the whole picture in memory."""
    from entropy3d.render.ride_still import render_ride_still, ride_camera

    key = ColourKey(story.facts.producer)
    still = ride_still(story, key)
    started = time.perf_counter()
    still_w, still_h = STILL_BOX[2] - STILL_BOX[0], STILL_BOX[3] - STILL_BOX[1]
    still_image = Image.fromarray(render_ride_still(table, geometry, still, (still_w, still_h), backend))
    still_s = time.perf_counter() - started
    shown = ", ".join(name for name, _ in spaced_ghosts(story))
    cut = " (what stood in front cut away)" if ride_camera(still, still_w / still_h, geometry)[1] else ""
    ImageDraw.Draw(still_image).text((10, 8), f"3D: square onto its side{cut}, the bike at {shown}",
                                     fill=(255, 255, 255), font=font(17, bold=True), stroke_width=2,
                                     stroke_fill=(0, 0, 0))

    topdown = draw_topdown(geometry, story, key, (TOPDOWN_BOX[2] - TOPDOWN_BOX[0], TOPDOWN_BOX[3] - TOPDOWN_BOX[1]),
                           cliff_edges)
    image = Image.new("RGB", (WIDTH, LEGEND_TOP + LEGEND_H), BACKGROUND)
    image.paste(still_image, STILL_BOX[:2])
    image.paste(topdown, TOPDOWN_BOX[:2])
    draw = ImageDraw.Draw(image)
    magnified = needs_magnifier(story, profile_axes(story, PROFILE_BOX))
    axes = draw_profile(draw, geometry, story, key, PROFILE_BOX, names, MAGNIFIER_W if magnified else 0)
    if magnified:  # a short or low flight, seen beside the profile at its own scale
        draw_magnified_flight(image, geometry, story, key, axes, PROFILE_BOX)
    heading, outcome = title_lines(story, names)
    draw.text((14, 8), heading, fill=(235, 235, 235), font=font(22, bold=True))
    draw.text((14, 40), outcome, fill=key.colour("rules landing") if story.rules_landing() else (255, 255, 255),
              font=font(21))
    key_title, key_font = "Key (all three panels):", font(15, bold=True)
    draw.text((14, LEGEND_TOP), key_title, fill=(235, 235, 235), font=key_font)
    key.draw_legend(draw, (max(200, round(14 + draw.textlength(key_title, font=key_font) + 16)), LEGEND_TOP,
                           WIDTH - 10, image.size[1]))
    return Picture(image, axes, key.entries(), (heading, outcome), still_s)


def write_picture(path: str | Path, picture: Picture) -> Path:
    """Write the picture as PNG atomically."""
    with AtomicFile(path) as pending:
        picture.image.save(pending.temporary, format="PNG")
    return Path(path)


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    """Every exact colour among the pixels of ``box`` (left, top, right, bottom)."""
    pixels = np.asarray(image.crop(box).convert("RGB")).reshape(-1, 3)
    return {tuple(int(v) for v in row) for row in np.unique(pixels, axis=0)}
