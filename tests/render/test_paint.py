"""The painted table (entropy3d.look.paint, drawn by entropy3d.render): materials near their rules colours, soft sun
shadows and ambient occlusion baked in, walls darkening at their foot, contact shadows under
miniatures, gang colours apart from the terrain (issue 43, part 3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.geometry import Pose
from entropy3d.look import paint
from entropy3d.look.paint import WALL_AO_STRENGTH, cut_walls, layer_of, paint_table, wall_shade
from entropy3d.look.shapes import colour_rgb
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from tests.render.conftest import SMALL_TABLE, luminance

TEXELS = 512
SCENE_FOLDER = Path(__file__).parents[2] / "scenes"
SCENES = sorted([*SCENE_FOLDER.glob("*.yaml"), *SCENE_FOLDER.glob("systems/*.yaml")])


@pytest.fixture(scope="module")
def painted(small_table):
    geometry = build_table_geometry(small_table)
    return paint_table(small_table.spec, geometry, TEXELS), geometry


def texel(image: np.ndarray, table_paint, x: float, y: float) -> np.ndarray:
    """The colour (floats 0-1) of the texel under (x, y) inches."""
    column = int(x / table_paint.width * image.shape[1])
    row = int(y / table_paint.depth * image.shape[0])
    return image[row, column].astype(float) / 255


def brightness(rgb: np.ndarray) -> float:
    return float(luminance(np.asarray(rgb)[None, :] * 255)[0])


def test_the_same_table_paints_the_same_bytes(small_table, painted):
    again = paint._bake(small_table.spec, painted[1], TEXELS)
    assert again.ground.tobytes() == painted[0].ground.tobytes()
    assert again.raised.tobytes() == painted[0].raised.tobytes()


def test_each_terrain_is_painted_near_its_rules_colour_and_varied(small_table, painted):
    """A player still tells grass from asphalt: the park's texels average within 0.06 of the
    rules' grass colour in every channel, yet they are not one flat colour."""
    table_paint, _ = painted
    rows, cols = np.mgrid[0:TEXELS, 0:TEXELS]
    x, y = (cols + 0.5) * 24 / TEXELS, (rows + 0.5) * 24 / TEXELS
    inside = (x > 15) & (x < 21) & (y > 15) & (y < 21)  # the park, away from its edges
    grass = table_paint.ground[inside].astype(float) / 255
    assert np.abs(grass.mean(axis=0) - colour_rgb("#4f7a3a")).max() < 0.06
    assert grass.std(axis=0).max() > 0.015


def test_a_sunlit_foot_of_a_wall_is_darker_than_open_ground_and_the_shadow_darker_still(painted):
    """Ambient occlusion and the sun's shadow: asphalt 0.3" south of the L-shaped building's
    sunlit south wall is darker than asphalt 2" clear of it, and asphalt in the building's shadow
    (north-west of it, the sun being in the south-east) darker than the sunlit foot."""
    table_paint, _ = painted
    ground = table_paint.ground
    foot, open_ground = texel(ground, table_paint, 18, 1.7), texel(ground, table_paint, 11, 0.6)
    shaded = texel(ground, table_paint, 13.7, 5)
    assert brightness(foot) < 0.93 * brightness(open_ground)
    assert brightness(shaded) < 0.85 * brightness(foot)


def test_roofs_and_decks_are_painted_on_the_raised_image_and_roads_on_the_ground_one(small_table, painted):
    table_paint, geometry = painted
    layers = {piece.id: layer_of(piece) for piece in geometry.pieces}
    assert layers["tower"] == layers["deck"] == "raised"
    assert layers["main"] == layers["block_a"] == "ground"
    assert layers["bench1"] is None  # destructible scenery moves: never painted in place
    # under the deck (x 2-12, y 15-19) the ground image shows the road and ground, the raised one the deck
    deck_rgb = colour_rgb(geometry.by_id("deck").colour)
    assert np.abs(texel(table_paint.raised, table_paint, 7, 17.5) - deck_rgb).max() < 0.12
    # the ground image there is the table's own ground, no deck: its grass-free asphalt, in shade
    beside = texel(table_paint.ground, table_paint, 7, 23.5)  # the same ground, clear of the deck
    under = texel(table_paint.ground, table_paint, 7, 17.5)
    assert brightness(under) < brightness(beside)  # the deck's shadow and occlusion fall on it
    assert np.abs(under / max(under.sum(), 1e-6) - beside / max(beside.sum(), 1e-6)).max() < 0.05  # same paint


def test_no_texel_is_left_black_around_a_roof(painted):
    """Textures are sampled between texels and averaged into mipmaps: every texel of both images
    carries a painted colour, so a roof's edge never blends into black."""
    table_paint, _ = painted
    for image in (table_paint.ground, table_paint.raised):
        assert image.reshape(-1, 3).sum(axis=1).min() > 30


def test_another_process_paints_the_same_bytes(small_table, painted):
    import hashlib
    import subprocess
    import sys

    script = ("import hashlib; from entropy3d.scene import load_scene; "
              "from entropy3d.scene.build import build_table_geometry; from entropy3d.look.paint import paint_table; "
              f"t = load_scene({str(SMALL_TABLE)!r}); p = paint_table(t.spec, build_table_geometry(t), {TEXELS}); "
              "print(hashlib.sha256(p.ground.tobytes() + p.raised.tobytes()).hexdigest())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    here = hashlib.sha256(painted[0].ground.tobytes() + painted[0].raised.tobytes()).hexdigest()
    assert done.stdout.strip() == here


def test_a_wall_darkens_at_its_foot_and_a_deck_side_high_over_the_road_does_not(painted):
    _, geometry = painted
    tower = geometry.by_id("tower")
    walls = cut_walls(tower.mesh.triangles[tower.mesh.face_normals[:, 2] <= paint.UP_NORMAL_Z])
    normals = np.cross(walls[:, 1] - walls[:, 0], walls[:, 2] - walls[:, 0])
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    upright = np.abs(normals[:, 2]) < 0.1
    shade = wall_shade(walls[upright], normals[upright], geometry).reshape(-1)
    heights = walls[upright].reshape(-1, 3)[:, 2]
    foot = heights < tower.mesh.bounds[0][2] + 1e-6
    assert np.allclose(shade[foot], 1 - WALL_AO_STRENGTH, atol=0.02)
    assert shade[heights > tower.top - 1e-6].min() > 0.99
    assert len(np.unique(np.round(heights, 3))) >= 3  # cut above the foot, so the fade has corners

    deck = geometry.by_id("deck")
    sides = deck.mesh.triangles[np.abs(deck.mesh.face_normals[:, 2]) < 0.1]
    side_normals = deck.mesh.face_normals[np.abs(deck.mesh.face_normals[:, 2]) < 0.1]
    assert wall_shade(sides, side_normals, geometry).min() > 0.99


def test_a_miniature_casts_a_contact_shadow_that_pales_as_it_flies(fresh_view, small_table):
    """Looking straight down on the quad k1: the ring just outside its base is darker than the
    road beyond it; lifted 3" (a jump), the ring is paler."""
    from entropy3d.render.cameras import CameraView

    model = next(m for m in small_table.models if m.id == "k1")
    x, y = model.position[:2]
    fresh_view.set_camera(CameraView((x, y - 0.01, 30.0), (x, y, 0.0), 12.0))
    base = small_table.base_of(model)
    ring_in = 0.5 * base.length * 1.2  # outside the base's outline even 3" nearer the camera
    centre = fresh_view.project([(x, y, 0.0)])[0]

    def ring_and_beyond(image):
        edge = fresh_view.project([(x + ring_in, y, 0.0)])[0]
        beyond = fresh_view.project([(x + 1.4 * base.length, y, 0.0)])[0]
        pick = lambda p: luminance(image)[int(p[1]) - 2:int(p[1]) + 3, int(p[0]) - 2:int(p[0]) + 3].mean()  # noqa: E731
        return pick(edge), pick(beyond)

    assert centre is not None
    standing = ring_and_beyond(fresh_view.render_to_array())
    fresh_view.place_model("k1", Pose(x, y, model.facing, 3.0))
    flying = ring_and_beyond(fresh_view.render_to_array())
    assert standing[0] < 0.85 * standing[1]
    assert flying[0] > standing[0] + 0.3 * (standing[1] - standing[0])


@pytest.mark.parametrize("scene", SCENES, ids=lambda p: p.stem)
def test_every_gang_colour_stands_apart_from_every_painted_terrain_colour(scene):
    """Issue 43: "gang colours that stand apart from every terrain colour", on every bundled
    scene: at least 25 CIE76 units (Lab) from each colour its table paints, and from each other."""
    table = load_scene(scene)
    geometry = build_table_geometry(table)
    terrain = {piece.colour for piece in geometry.pieces if layer_of(piece) is not None}
    gangs = {gang: table.gang_colour(gang) for gang in table.spec.gangs}
    for gang, colour in gangs.items():
        nearest = min(terrain, key=lambda other: lab_distance(colour, other))
        assert lab_distance(colour, nearest) >= 25, f"{scene.name}: {gang} {colour} is close to {nearest}"
        for other, other_colour in gangs.items():
            if other != gang:
                assert lab_distance(colour, other_colour) >= 25, f"{scene.name}: {gang} vs {other}"


def lab_distance(first: str, second: str) -> float:
    """CIE76 colour difference of two "#rrggbb" colours (sRGB, D65)."""
    def lab(hex_colour: str) -> np.ndarray:
        rgb = np.asarray(colour_rgb(hex_colour), float)
        linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
        f = np.where(xyz / (0.95047, 1.0, 1.08883) > 0.008856, np.cbrt(xyz / (0.95047, 1.0, 1.08883)),
                     7.787 * xyz / (0.95047, 1.0, 1.08883) + 16 / 116)
        return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])
    return float(np.linalg.norm(lab(first) - lab(second)))


@pytest.mark.parametrize("shape, size", [((1080, 1920, 3), (1280, 720)), ((1620, 2880, 3), (1920, 1080))])
def test_box_downsampling_in_two_bands_gives_the_bytes_of_one_pass(shape, size):
    from PIL import Image

    from entropy3d.render.renderer import box_downsample

    image = (np.random.default_rng(3).random(shape) * 255).astype(np.uint8)
    whole = np.asarray(Image.fromarray(image).resize(size, Image.BOX))
    assert np.array_equal(box_downsample(image, size), whole)


def test_a_renderer_supersamples_one_and_a_half_times_and_refuses_other_fractions(small_table):
    """Issue 43's anti-aliased edges: 1.5x1.5 samples a pixel, the film's default; the frame
    comes out at the size asked, its building edges with in-between shades a plain frame lacks."""
    from entropy3d.render import TableRenderer

    with TableRenderer(small_table, (240, 160), backend="tiny", supersample=1.5) as smooth, \
            TableRenderer(small_table, (240, 160), backend="tiny", supersample=1) as plain:
        smooth_image, plain_image = smooth.render_to_array(), plain.render_to_array()
    assert smooth_image.shape == plain_image.shape == (160, 240, 3)
    shades = [len(np.unique(image.reshape(-1, 3), axis=0)) for image in (smooth_image, plain_image)]
    assert shades[0] > 1.2 * shades[1]
    with pytest.raises(ValueError, match="whole number from 1, or 1.5"):
        TableRenderer(small_table, (240, 160), backend="tiny", supersample=1.3)
