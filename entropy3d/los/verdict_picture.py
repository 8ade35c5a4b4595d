"""A top-down picture of a line-of-sight verdict, drawn with PIL (no 3D engine needed).

Pieces are filled in their colours, lower first, so a rooftop covers the street under it; raised
decks are drawn see-through so what stands under them still shows. Top-down lines are green
when clear and red when blocked; the true-LOS rays' end points on the target are dots.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.fonts import covered_by, font
from entropy3d.los.results import LosResult
from entropy3d.los.world import LosWorld, Miniature, piece_footprint
from entropy3d.systems.entropy_city.combat import shot_in_sight

CLEAR = (40, 200, 80)
BLOCKED = (225, 50, 40)
BACKGROUND = (24, 26, 30)
#: kinds drawn see-through: they are raised above what they cover
RAISED_KINDS = frozenset({"platform", "railing"})


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))


def _shade(rgb, factor: float) -> tuple[int, int, int]:
    return tuple(int(max(0, min(255, round(c * factor)))) for c in rgb)


class _Canvas:
    """Table inches to pixels (y up on the table, down in the image)."""

    def __init__(self, width_in: float, depth_in: float, pixels_per_inch: float, margin: int = 24):
        self.scale = pixels_per_inch
        self.margin = margin
        self.depth = depth_in
        size = (int(width_in * pixels_per_inch) + 2 * margin, int(depth_in * pixels_per_inch) + 2 * margin + 28)
        self.image = Image.new("RGB", size, BACKGROUND)
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def px(self, points) -> list[tuple[float, float]]:
        points = np.atleast_2d(np.asarray(points, float))[:, :2]
        return [(self.margin + x * self.scale, self.margin + 28 + (self.depth - y) * self.scale) for x, y in points]


def _outline_rings(polygon):
    for part in getattr(polygon, "geoms", [polygon]):
        if not part.is_empty:
            yield np.asarray(part.exterior.coords)


def draw_top_down(world: LosWorld, result: LosResult | None = None, minis: dict[str, Miniature] | None = None,
                  pixels_per_inch: float = 16.0, title: str | None = None) -> Image.Image:
    """The table from above with the miniatures and, when ``result`` is given, its sight lines."""
    table = world.table
    canvas = _Canvas(table.width, table.depth, pixels_per_inch)
    draw = canvas.draw
    minis = minis if minis is not None else world.miniatures()
    ground = next((p for p in world.geometry.pieces if p.kind == "ground"), None)
    draw.rectangle([*canvas.px([[0, table.depth]])[0], *canvas.px([[table.width, 0]])[0]],
                   fill=_rgb(ground.colour) if ground else (60, 62, 66))
    decals = [p for p in world.geometry.pieces if p.kind in ("zone", "road")]
    solids = sorted((p for p in world.pieces if p.kind != "ground"), key=lambda p: p.top)
    for piece in decals + solids:
        raised = piece.kind in RAISED_KINDS
        shade = 1.0 + min(0.35, 0.05 * max(piece.top, 0.0))  # higher is lighter
        fill = (*_shade(_rgb(piece.colour), shade), 110 if raised else 255)
        edge = (*_shade(_rgb(piece.colour), 0.55), 255)
        for ring in _outline_rings(piece_footprint(piece)):
            draw.polygon(canvas.px(ring), fill=fill, outline=edge)

    if result is not None:
        geometry = result.geometry
        for want in (False, True):  # clear lines on top, so a thin gap shows
            for start, end in geometry.lines[geometry.lines_clear == want]:
                draw.line(canvas.px([start, end]), fill=(*(CLEAR if want else BLOCKED), 70), width=1)

    def name(model_id: str) -> str:
        return table.model(model_id).rider.name or model_id

    for model_id, mini in minis.items():
        model = table.model(model_id)
        colour = _rgb(table.gang_colour(model.gang))
        outline = mini.base.outline(mini.pose)
        draw.polygon(canvas.px(outline), fill=(*colour, 255), outline=(250, 250, 250, 255))
        nose = mini.pose.xy + mini.pose.forward * mini.base.length * 0.5
        draw.line(canvas.px([mini.pose.xy, nose]), fill=(250, 250, 250, 255), width=2)
    # riders named beside their bases, the viewer and target first; a name that would cover
    # one already written is left out
    first = [i for i in (result.viewer, result.target) if i in minis] if result is not None else []
    taken: list[tuple[float, float, float, float]] = []
    label = font(13)
    for model_id in first + [i for i in minis if i not in first]:
        x, y = canvas.px([minis[model_id].pose.xy])[0]
        left, top, right, bottom = draw.textbbox((x + 6, y - 20), name(model_id), font=label, stroke_width=2)
        if covered_by((left, top, right, bottom), taken):
            continue
        taken.append((left, top, right, bottom))
        draw.text((x + 6, y - 20), name(model_id), fill=(255, 255, 255, 255), font=label, stroke_width=2,
                  stroke_fill=(0, 0, 0, 255))

    if result is not None:
        geometry = result.geometry
        for end, visible in zip(geometry.ray_ends, geometry.rays_visible):
            x, y = canvas.px([end])[0]
            draw.point((x, y), fill=(*(CLEAR if visible else BLOCKED), 255))
        td, tl = result.top_down, result.true_los
        shoots = shot_in_sight(tl.visible_fraction, tl.bike_seen, table.ruleset)  # EC-COVER-1, the rules' call
        title = title or (f"{name(result.viewer)} -> {name(result.target)}: top-down "
                          f"{'VISIBLE' if td.visible else 'BLOCKED'} ({td.clear_lines}/{td.lines} lines), "
                          f"true LOS {100 * tl.visible_fraction:.0f}% visible"
                          f"{f' ({tl.behind_words(name(result.viewer))})' if tl.rays_behind == tl.rays else ''}"
                          f"{', cover' if tl.cover else ''}, {'can shoot' if shoots else 'no shot'}")
    title = title or table.name
    size = 15  # the largest size at which the title fits the panel
    while size > 10 and draw.textlength(title, font=font(size, bold=True)) > canvas.image.width - 2 * canvas.margin:
        size -= 1
    draw.text((canvas.margin, 6), title, fill=(235, 235, 235, 255), font=font(size, bold=True))
    return canvas.image
