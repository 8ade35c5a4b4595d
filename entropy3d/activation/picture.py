"""The picture of one ridden action: a title line in plain words, three panels that share one
colour key (a 3D still, the profile, the table from above) and a legend of every colour used.

``activate --png`` and ``replay-render --png`` both draw it from a
:class:`~entropy3d.activation.story.RideStory`, so a live run and its replay give the same picture.
The file is written atomically (:mod:`entropy3d.outputs`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.activation.key import ColourKey, font
from entropy3d.activation.profile import ProfileAxes, draw_profile
from entropy3d.activation.story import RideStory
from entropy3d.activation.topdown import draw_topdown
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
    ghosts = [Pose(m.xyz[0], m.xyz[1], m.heading_deg, m.xyz[2]) for m in story.moments() if m.name != "end"]
    ghosts.append(story.end)
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
    from entropy3d.render.ride_still import render_ride_still

    key = ColourKey(story.facts.producer)
    still = ride_still(story, key)
    started = time.perf_counter()
    still_w, still_h = STILL_BOX[2] - STILL_BOX[0], STILL_BOX[3] - STILL_BOX[1]
    still_image = Image.fromarray(render_ride_still(table, geometry, still, (still_w, still_h), backend))
    still_s = time.perf_counter() - started
    shown = ", ".join(m.name for m in story.moments())
    ImageDraw.Draw(still_image).text((10, 8), f"3D: from the side, the bike at {shown}",
                                     fill=(255, 255, 255), font=font(17, bold=True), stroke_width=2,
                                     stroke_fill=(0, 0, 0))

    topdown = draw_topdown(geometry, story, key, (TOPDOWN_BOX[2] - TOPDOWN_BOX[0], TOPDOWN_BOX[3] - TOPDOWN_BOX[1]),
                           cliff_edges)
    image = Image.new("RGB", (WIDTH, LEGEND_TOP + LEGEND_H), BACKGROUND)
    image.paste(still_image, STILL_BOX[:2])
    image.paste(topdown, TOPDOWN_BOX[:2])
    draw = ImageDraw.Draw(image)
    axes = draw_profile(draw, geometry, story, key, PROFILE_BOX, names)
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
