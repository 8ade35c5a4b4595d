"""What a shared page carries (issue 14, part 1), checked without a browser: meshes survive their
compact form, the timeline holds every ridden action where the rules left each bike, and the
words are the plain-words formatter's own."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial import cKDTree

from entropy3d.game.records import action_events
from entropy3d.game.session import play_game
from entropy3d.game.timeline import Timeline
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
from entropy3d.share import page_data, page_html
from entropy3d.share.payload import MeshPacker
from entropy3d.systems.words import Names, lines

SMALL_TABLE = Path(__file__).resolve().parents[1] / "data" / "small_table.yaml"


@pytest.fixture(scope="module")
def game():
    replay = play_game(SMALL_TABLE, seed=5, turns=2, producer="geometric")
    table = load_scene(replay.header.scene)
    return table, build_table_geometry(table), replay


def unpack(packed: dict, q: float) -> tuple[np.ndarray, np.ndarray]:
    positions = np.frombuffer(base64.b64decode(packed["positions"]), "<i2").reshape(-1, 3) * q
    faces = np.frombuffer(base64.b64decode(packed["indices"]), "<u4" if packed["wide"] else "<u2").reshape(-1, 3)
    return positions, faces


def test_meshes_keep_their_shape_within_half_a_quantum(game):
    table, geometry, _ = game
    packer = MeshPacker.for_table(geometry)
    for piece in geometry.pieces:
        positions, faces = unpack(packer.pack(piece.mesh), packer.q)
        assert np.array_equal(faces, piece.mesh.faces)
        assert np.abs(positions - piece.mesh.vertices).max() <= packer.q / 2 + 1e-9
    assert packer.q < 0.005  # inches: finer than any piece's paint


def test_every_ridden_action_is_a_step_ending_where_the_rules_left_the_bike(game):
    table, geometry, replay = game
    data = page_data(table, geometry, replay)
    timeline = Timeline(replay, replay.header.initial)
    assert len(data["steps"]) == len(timeline.steps) > 0
    names = Names.of_table(table)
    for entry, step in zip(data["steps"], timeline.steps):
        activation = replay.activations[step.activation]
        action = activation.actions[step.action]
        assert entry["model"] == activation.model_id
        after = action.model_after.pose
        assert entry["after"] == pytest.approx([after.x, after.y, after.z, after.facing_deg], abs=1e-3)
        trajectory = np.asarray(entry["trajectory"])
        assert trajectory[0, 0] == 0.0 and trajectory[-1, 0] == pytest.approx(action.trajectory[-1, 0], abs=1e-3)
        told = action_events(activation, step.action)
        assert entry["lines"] == [list(pair) for pair in lines(told, names)]
        attack = action.attack.events if action.attack is not None else ()
        assert len(told) == len(action.events) + len(action.rulings) + len(attack) + (
            len(activation.events) if step.action == 0 else 0), "the attack's words are told with its action"
        assert action.plan in entry["title"] and names.rider(activation.model_id) in entry["title"]
        for sight in entry["sight"]:  # EC-LOS-1: only rivals, seen from where the bike ended
            assert table.model(sight["target"]).gang != table.model(activation.model_id).gang
            assert sight["from"][:2] == pytest.approx(entry["after"][:2], abs=1e-3)


def test_a_table_page_has_no_timeline_and_a_json_block_that_cannot_end_its_script(game):
    table, geometry, _ = game
    data = page_data(table, geometry)
    assert data["steps"] == [] and set(data["start"]) == {m.id for m in table.models}
    data["name"] = "</script><b>"
    html = page_html(data)
    block = html.split('id="entropy3d-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(block)["name"] == "</script><b>"
    assert "<title>&lt;/script&gt;&lt;b&gt;</title>" in html


def test_GANG_SHOOT_a_shot_that_rides_nothing_is_a_step_of_the_page_with_its_words():
    """Clause: GANG-SHOOT. A gang fighter's shot is an action of its own that rides nothing: the
    page steps to it (it stood where it shot) and tells it in the rulebook's words, as it does
    every walk; only an activation's start and end are passed over."""
    from entropy3d.share.steps import replay_steps

    scene = Path(__file__).resolve().parents[2] / "scenes" / "systems" / "gang_fight.yaml"
    replay = play_game(scene, seed=7, turns=2, producer="geometric")
    table = load_scene(scene)
    steps = replay_steps(replay, table, build_table_geometry(table))
    names = Names.of_table(table)
    taken = [(activation, k) for activation in replay.activations for k, action in enumerate(activation.actions)
             if action.action.kind != "end"]
    shots = [(activation, k) for activation, k in taken if activation.actions[k].action.kind == "attack"]
    assert shots and len(steps) == len(taken)
    told = [step for step in steps if step["title"].endswith(": attack")]
    assert len(told) == len(shots) and all(not step["trajectory"] for step in told)
    for step, (activation, k) in zip(told, shots):
        assert step["lines"] == [list(pair) for pair in lines(action_events(activation, k), names)]
        stood = activation.actions[k].model_after.pose
        assert " shoots " in step["lines"][0][0] and step["after"][:2] == pytest.approx([stood.x, stood.y], abs=1e-3)


def test_EC_COVER_1_the_page_says_can_shoot_by_the_scenes_rulebook_and_claims_nothing_for_one_without_it():
    """Clause: EC-COVER-1, EC-GUN-2, TAG-TAG. On an Entropy City table a sight line's "can shoot"
    is Entropy City's verdict on what the LOS engine measured (25% seen, the bike itself) for a
    rider with a loaded gun, and never for one with none (a chain, a punch: issue 48 found them
    listed "can shoot"); on a Tag table (a rulebook with no shot) the page claims no shot at all,
    where it used to print Entropy City's verdict for runners."""
    from entropy3d.share.steps import replay_steps
    from entropy3d.systems.entropy_city.combat import shot_in_sight

    crossroads = Path(__file__).resolve().parents[2] / "scenes" / "crossroads.yaml"
    table = load_scene(crossroads)
    replay = play_game(crossroads, seed=7, turns=1, producer="geometric")
    gunned = {model.id for model in table.models if model.rider.gun is not None}
    steps = replay_steps(replay, table, build_table_geometry(table))
    armed = [line for step in steps if step["model"] in gunned for line in step["sight"]]
    unarmed = [line for step in steps if step["model"] not in gunned for line in step["sight"]]
    assert unarmed and not any(line["can_shoot"] for line in unarmed)
    assert armed and {line["can_shoot"] for line in armed} == {True, False}
    # a shot needs 25% seen (the page rounds the percentage), the bike itself (EC-LOS-4) and the
    # target in the gun's range: the rulebook's metres at 1.42 m to the inch (EC-GUN-2)
    reach = {m.id: {"pistol": 50, "shotgun": 60, "sniper_rifle": float("inf")}[m.rider.gun] / 1.42
             for m in table.models if m.rider.gun is not None}
    for step in steps:
        for line in step["sight"] if step["model"] in gunned else ():
            away = float(np.hypot(*np.subtract(line["from"][:2], line["to"][:2])))
            if line["can_shoot"]:
                assert shot_in_sight(line["percent"] / 100, True, table.ruleset) or abs(line["percent"] - 25.0) < 0.1
                assert away <= reach[step["model"]] + 0.01, (step["title"], line)
            else:
                assert line["no_shot"].endswith(("(EC-GUN-2)", "(EC-COVER-1)", "(EC-MEL-DEF)")), line
    assert all(line["no_shot"].endswith("carries no gun (EC-GUN-2)") for line in unarmed)
    yard = Path(__file__).resolve().parents[1] / "data" / "tag_yard.yaml"
    tag_table = load_scene(yard)
    tag_game = play_game(yard, seed=7, turns=3, producer="geometric")
    tag_lines = [line for step in replay_steps(tag_game, tag_table, build_table_geometry(tag_table))
                 for line in step["sight"]]
    assert tag_lines and all(line["can_shoot"] is None for line in tag_lines)


def test_TAG_TAG_a_model_taken_out_leaves_the_page_when_the_action_that_took_it_out_ends():
    """Clause: TAG-TAG, GANG-INJURY. The step of the action that takes a model out names it
    (``taken_out``, which the page hides at the step's end), draws no sight line to it, and no
    later step stands it on the table: Cal, tagged in turn 3, was drawn and offered as a target
    until the next activation."""
    from entropy3d.game.timeline import taken_out_by
    from entropy3d.share.steps import replay_steps

    yard = Path(__file__).resolve().parents[1] / "data" / "tag_yard.yaml"
    table = load_scene(yard)
    steps = replay_steps(play_game(yard, seed=7, turns=3, producer="geometric"), table, build_table_geometry(table))
    [at] = [k for k, step in enumerate(steps) if step["taken_out"]]
    assert steps[at]["taken_out"] == ["blue_1"] and steps[at]["title"].endswith(": tag")
    assert "blue_1" not in {line["target"] for line in steps[at]["sight"]}
    assert all("blue_1" not in step["poses"] for step in steps[at + 1:])
    # on a gang fight every model a step names as taken out is out when its activation ends
    scene = Path(__file__).resolve().parents[2] / "scenes" / "systems" / "gang_fight.yaml"
    replay = play_game(scene, seed=7, turns=2, producer="geometric")
    named = [(activation, m) for activation in replay.activations for j in range(len(activation.actions))
             for m in taken_out_by(activation, j)]
    assert named and all(not activation.state_after.model(m).in_play for activation, m in named)


def unpack_soup(packed: dict, q: float) -> tuple[np.ndarray, np.ndarray]:
    """A baked soup's triangles (N, 3, 3) inches and corner colours (N, 3, 3) bytes."""
    positions = np.frombuffer(base64.b64decode(packed["positions"]), "<i2").reshape(-1, 3, 3) * q
    colours = np.frombuffer(base64.b64decode(packed["colours"]), np.uint8).reshape(-1, 3, 3)
    return positions, colours


def test_the_page_paints_the_table_with_the_films_paint_windows_and_frame():
    """Issue 48: the page's table was plainer than the film's (no windows, no road markings, flat
    colours). It now carries the film's own look, computed once by entropy3d.look: the two plan
    images of paint_table (the same bake, as JPEG), every painted top to be textured from them,
    the walls lit and darkened at their foot as the film bakes them, every building's windows and
    the table's wooden frame."""
    from PIL import Image

    from entropy3d.look.facades import WINDOW_COLOUR, building_windows
    from entropy3d.look.frame import FRAME_COLOUR, frame_meshes
    from entropy3d.look.light import lit_colours
    from entropy3d.look.paint import UP_NORMAL_Z, layer_of, paint_table
    from entropy3d.look.shapes import colour_rgb
    from entropy3d.share.payload import PAINT_TEXELS

    table = load_scene(Path(__file__).resolve().parents[2] / "scenes" / "crossroads.yaml")
    geometry = build_table_geometry(table)
    data = page_data(table, geometry)
    q, carried = data["q"], data["table"]
    paint = paint_table(table.spec, geometry, PAINT_TEXELS)
    for name in ("ground", "raised"):
        head, _, body = carried["paint"][name].partition(",")
        assert head == "data:image/jpeg;base64"
        image = np.asarray(Image.open(io.BytesIO(base64.b64decode(body))).convert("RGB"), np.int16)
        baked = getattr(paint, name).astype(np.int16)
        assert image.shape == baked.shape == (PAINT_TEXELS, PAINT_TEXELS, 3)
        assert np.abs(image - baked).mean() < 2.5, f"the page's {name} image is not the film's paint"

    for layer in ("ground", "raised"):  # every top of a painted piece, in its layer's soup
        tops, light = unpack_soup(carried["painted"][layer], q)
        expected = sum(int((p.mesh.face_normals[:, 2] > UP_NORMAL_Z).sum()) for p in geometry.pieces
                       if layer_of(p) == layer)
        assert len(tops) == expected > 0
        highest = tops[:, :, 2].max(axis=1)  # a ramp's top rises from the ground to a raised top
        assert (highest <= 0.5 + q).all() if layer == "ground" else (highest > 0.5).all()
        assert (light == 255).all() if layer == "ground" else (light > 200).all()  # lit, as white paint is
    baked, colours = unpack_soup(carried["baked"], q)
    soup = cKDTree(baked.reshape(-1, 9))

    def carried_colours(triangles: np.ndarray) -> np.ndarray:
        """The soup's corner colours of each of ``triangles``, which must all be in it."""
        away, found = soup.query(np.asarray(triangles, float).reshape(-1, 9))
        assert away.max() <= 2 * q, "a triangle of the film's table is missing from the page's"
        return colours[found]

    windows = np.concatenate([building_windows(b) for b in table.spec.buildings])
    assert len(windows) > 1000
    pane = np.round(lit_colours(np.array([[0.0, -1.0, 0.0]]), colour_rgb(WINDOW_COLOUR))[0] * 255)
    south = windows[np.cross(windows[:, 1] - windows[:, 0], windows[:, 2] - windows[:, 0])[:, 1] < -1e-6]
    carried_colours(windows)
    assert np.abs(carried_colours(south) - pane).max() <= 1
    wood, _ = frame_meshes(geometry.width, geometry.depth, dict(table.spec.table.edges))
    lip = np.round(lit_colours(np.array([[0.0, 0.0, 1.0]]), colour_rgb(FRAME_COLOUR))[0] * 255)
    for box in wood:
        top = box.triangles[box.face_normals[:, 2] > 0.9]
        assert np.abs(carried_colours(top) - lip).max() <= 1
    # the camera frames the hull: it holds the frame's corners and the tallest roof
    hull = np.asarray(carried["hull"])
    assert hull[:, 2].max() == pytest.approx(geometry.bounds()[1][2], abs=0.01)
    assert hull[:, 0].min() < 0 < geometry.width < hull[:, 0].max()


@pytest.mark.parametrize("scene, laid", [("scenes/crossroads.yaml", True), ("scenes/systems/car_chase.yaml", True),
                                         ("scenes/systems/gang_fight.yaml", False),
                                         ("scenes/systems/rooftop_skirmish.yaml", False),
                                         ("tests/data/tag_yard.yaml", False)])
def test_EC_TMPL_1_turning_templates_are_laid_only_for_a_rulebook_that_turns_on_them(scene, laid):
    """Clause EC-TMPL-1: the page lays the table's turning templates for Entropy City's riders and
    the chase's vehicles (its turns follow their arcs); a gang fighter, a 10acity figure and a tag
    runner pivot, so their page has none to lay (and hides the toggle)."""
    from entropy3d.share.steps import template_lines

    templates = template_lines(load_scene(Path(__file__).parents[2] / scene))
    assert bool(templates) == laid
    if laid:
        assert {name for name, _ in templates} == {"tight", "medium", "wide"}
