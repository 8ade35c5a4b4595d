"""What a mission marks on the table (entropy3d.look.mission_marks), painted into the table's plan
images that the film, the stills, the share page and the glTF export all paint from: the films of
corners, hoon_hour, jailbreak and rescue_survive (seed 1) showed none of Corners' zones, Hoon
Hour's checkpoints, Rescue & Survive's drop points or Jailbreak's jail and road exits."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.look.mission_marks import EDGE_IN, FILL_OPACITY, MARK_COLOUR
from entropy3d.look.paint import paint_table
from entropy3d.look.shapes import colour_rgb
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry

DATA = Path(__file__).parents[1] / "data"
SCENES = Path(__file__).parents[2] / "scenes"
TEXELS = 256


def painted(path: Path, **without):
    """The table's paint, and the same table's with the scene keys ``without`` left out (None)."""
    table = load_scene(path)
    geometry = build_table_geometry(table)
    bare = table.spec.model_copy(update=without)
    return table, paint_table(table.spec, geometry, TEXELS), paint_table(bare, geometry, TEXELS)


def plan_grid(table_paint) -> tuple[np.ndarray, np.ndarray]:
    """The x, y inches of every texel's centre."""
    rows, cols = np.mgrid[0:TEXELS, 0:TEXELS]
    return (cols + 0.5) * table_paint.width / TEXELS, (rows + 0.5) * table_paint.depth / TEXELS


def towards(marked: np.ndarray, bare: np.ndarray, colour: str) -> float:
    """How far the mean colour of ``marked`` texels moved from ``bare``'s towards ``colour``
    (0: not at all, 1: all the way)."""
    before, after = bare.reshape(-1, 3).mean(axis=0) / 255, marked.reshape(-1, 3).mean(axis=0) / 255
    target = colour_rgb(colour) - before
    return float(np.dot(after - before, target) / np.dot(target, target))


def test_EC_MISSION_CORNERS_each_zone_is_tinted_and_edged_in_tape_and_nothing_else_changes():
    """Clause: EC-MISSION-CORNERS. Inside each zone of the corners yard the paint moves at least
    FILL_OPACITY of the way to the tape's blue, its edge most of the way; away from the zones not a
    texel changes."""
    table, marked, bare = painted(DATA / "corners_yard.yaml", corners=None)
    x, y = plan_grid(marked)
    anywhere = np.zeros(x.shape, bool)
    for zone in table.spec.corners.zones:
        x0, y0, x1, y1 = zone.rect
        inside = (x > x0 + 1) & (x < x1 - 1) & (y > y0 + 1) & (y < y1 - 1)
        edge = (x > x0) & (x < x1) & (y > y0) & (y < y0 + EDGE_IN)
        assert towards(marked.ground[inside], bare.ground[inside], MARK_COLOUR) > 0.9 * FILL_OPACITY
        assert towards(marked.ground[edge], bare.ground[edge], MARK_COLOUR) > 0.6
        anywhere |= (x > x0 - 0.2) & (x < x1 + 0.2) & (y > y0 - 0.2) & (y < y1 + 0.2)
    assert np.array_equal(marked.ground[~anywhere], bare.ground[~anywhere])


def test_EC_MISSION_HOON_each_checkpoint_is_a_ring_of_its_radius_numbered_in_order():
    """Clause: EC-MISSION-HOON. Each checkpoint of the hoon yard is a tape ring at its radius (a
    base within it passes it), and the ring's middle carries its number or FINISH in white: its
    brightest texels there are far brighter than the bare asphalt's."""
    table, marked, bare = painted(DATA / "hoon_yard.yaml", hoon_hour=None)
    x, y = plan_grid(marked)
    for gate in table.spec.hoon_hour.checkpoints:
        distance = np.hypot(x - gate.at[0], y - gate.at[1])
        ring = (distance > gate.radius - EDGE_IN) & (distance < gate.radius - 0.05)
        assert towards(marked.ground[ring], bare.ground[ring], MARK_COLOUR) > 0.6
        middle = distance < 0.5 * gate.radius
        assert marked.ground[middle].max() > bare.ground[middle].max() + 60


def test_EC_MISSION_HOON_a_checkpoint_without_a_radius_is_ringed_at_the_rules_datas(tmp_path):
    """Clause: EC-MISSION-HOON. A scene's checkpoint may leave out its radius: the rules data's
    ``missions.hoon_hour.radius_in`` (3") is then its size for the race and for the paint. The
    painter read the scene's radius alone, and every picture of such a table (film, share page,
    glTF) failed in shapely (``Point.buffer(None)``) though ``validate`` passed it. The yard's gates
    (2" each) with the first one's radius left out: its ring lies 3" from its centre, the others' 2"."""
    from entropy3d.scene.table import checkpoint_radius_in

    text = (DATA / "hoon_yard.yaml").read_text(encoding="utf-8")
    assert "{id: gate_a, at: [14, 12], radius: 2}" in text
    yard = tmp_path / "hoon_yard.yaml"
    unset = text.replace("{id: gate_a, at: [14, 12], radius: 2}", "{id: gate_a, at: [14, 12]}")
    yard.write_text(unset, encoding="utf-8")
    table, marked, bare = painted(yard, hoon_hour=None)
    x, y = plan_grid(marked)
    first = table.spec.hoon_hour.checkpoints[0]
    assert first.radius is None and checkpoint_radius_in(first, table.ruleset) == 3.0
    distance = np.hypot(x - 14, y - 12)
    ring = (distance > 3.0 - EDGE_IN) & (distance < 3.0 - 0.05)
    assert towards(marked.ground[ring], bare.ground[ring], MARK_COLOUR) > 0.6


def test_EC_MISSION_RESCUE_each_drop_point_is_a_ring_in_its_gangs_colour():
    """Clause: EC-MISSION-RESCUE. Each NPC's destination in rescue_survive is ringed in its own
    gang's colour at the rules' deliver_in (2"): Hades MC's red, Komodo's green."""
    table, marked, bare = painted(SCENES / "rescue_survive.yaml", rescue_survive=None)
    x, y = plan_grid(marked)
    for npc in table.spec.rescue_survive.npcs:
        distance = np.hypot(x - npc.to[0], y - npc.to[1])
        ring = (distance > 2.0 - EDGE_IN) & (distance < 1.95)
        colour = table.spec.gangs[npc.gang].colour
        assert towards(marked.ground[ring], bare.ground[ring], colour) > 0.5
        other = next(g.colour for k, g in table.spec.gangs.items() if k != npc.gang)
        assert towards(marked.ground[ring], bare.ground[ring], colour) > towards(marked.ground[ring],
                                                                                 bare.ground[ring], other)


def test_EC_MISSION_JAIL_the_jails_roof_and_the_road_exits_are_marked():
    """Clause: EC-MISSION-JAIL. The jail yard's jail roof (the raised image) is tinted blue with
    JAIL on it, the reach of its door (the rules' stop_within_in, 4") is tinted on the road, and
    both road exits (the road's width at the west and east edges) carry an EXIT band."""
    table, marked, bare = painted(DATA / "jail_yard.yaml", jailbreak=None)
    x, y = plan_grid(marked)
    roof = (x > 15.5) & (x < 20.5) & (y > 14.5) & (y < 19.5)
    assert towards(marked.raised[roof], bare.raised[roof], MARK_COLOUR) > 0.9 * FILL_OPACITY
    door_x, door_y = table.spec.jailbreak.openings[0]
    reach = (np.hypot(x - door_x, y - door_y) < 3.5) & (y < 13.5)
    assert towards(marked.ground[reach], bare.ground[reach], MARK_COLOUR) > 0.9 * FILL_OPACITY
    for at_edge in (x < 1.0, x > table.spec.table.width - 1.0):
        exit_band = at_edge & (y > 8) & (y < 12)
        assert towards(marked.ground[exit_band], bare.ground[exit_band], MARK_COLOUR) > 0.9 * FILL_OPACITY


@pytest.mark.parametrize("backend", ["tiny"])
def test_EC_MISSION_CORNERS_the_films_renderer_shows_the_zones_in_tape_blue(backend):
    """Clause: EC-MISSION-CORNERS. A frame of the film's renderer (overview camera, 160x96) shows
    each zone of the corners yard blue where it projects (blue over red by 40 of 255), the
    asphalt between them grey."""
    from entropy3d.render import TableRenderer

    table = load_scene(DATA / "corners_yard.yaml")
    with TableRenderer(table, (160, 96), backend=backend, grid=False) as renderer:
        renderer.set_camera("overview")
        for model in table.models:
            renderer.show_model(model.id, False)
        frame = renderer.render_to_array().astype(int)
        zones = [((x0 + x1) / 2, (y0 + y1) / 2 - 2.5, 0.0)  # south of the label
                 for x0, y0, x1, y1 in (z.rect for z in table.spec.corners.zones)]
        between = [(19.0, 4.0, 0.0)]
        for (column, row), blue in zip(renderer.project(zones + between), [True] * len(zones) + [False]):
            r, _, b = frame[int(row), int(column)]
            assert bool(b - r > 40) == blue, (column, row, frame[int(row), int(column)])
