"""A figure on foot drawn on its round base (rules data ``on_foot:``): its parts are inside the
solids that sight lines and physics use, and a frame shows its gang's colour where it stands,
on the roof as in the street."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.geometry import Pose
from entropy3d.scene import load_scene
from entropy3d.scene.miniature import BASE_THICKNESS_IN, figure_model, miniature_shape
from entropy3d.systems.entropy_city.ruleset import ON_FOOT
from tests.render.conftest import colour_near

ON_FOOT_TABLE = Path(__file__).parents[1] / "data" / "on_foot_table.yaml"


@pytest.fixture(scope="module")
def foot_table():
    return load_scene(ON_FOOT_TABLE)


def test_the_drawn_figure_stays_inside_what_sight_lines_see(foot_table):
    """The figure's legs, body, head and gun lie within the base's circle and the figure's height,
    and its head's top is the top of the solids line of sight and physics use."""
    ruleset = foot_table.ruleset
    base = ruleset.base_for("on_foot")
    solids = miniature_shape(base, Pose(0.0, 0.0, 0.0, 0.0), ruleset, ON_FOOT)
    parts = figure_model(ruleset, armed=True)
    assert set(parts) == {"legs", "body", "head", "gun"} and "gun" not in figure_model(ruleset)
    every = np.vstack([mesh.vertices for mesh in parts.values()])
    assert np.hypot(every[:, 0], every[:, 1]).max() <= 0.5 * base.length + 1e-9
    top = BASE_THICKNESS_IN + ruleset.figure_height_in
    assert every[:, 2].max() == pytest.approx(top) == solids.rider.bounds[1][2]


def test_figures_on_foot_show_their_gang_colour_on_the_roof_and_in_the_street(foot_table):
    from entropy3d.render import TableRenderer

    with TableRenderer(foot_table, (480, 320), camera="roof", title="", backend="tiny") as renderer:
        image = renderer.render_to_array()
        for model_id in ("sniper", "brawler"):
            pose = renderer.model_poses[model_id]
            pixel = renderer.project([(pose.x, pose.y, pose.z + 0.12 + 0.7)])[0]
            assert colour_near(image, pixel, "#c0392b", radius=5), f"{model_id} at {pixel}"


def test_figures_of_different_heights_are_drawn_at_their_own_heights(foot_table):
    """The drawn figure is cached by its height in the rules data (``on_foot.height_mm``) and
    whether it is armed: a taller figure from other rules data in the same process is drawn
    taller, not as the first one drawn."""
    from entropy3d.render.miniatures import figure_part_arrays
    from entropy3d.systems.entropy_city.ruleset import Ruleset

    ruleset = foot_table.ruleset
    spec = ruleset.spec
    taller = Ruleset.from_spec(spec.model_copy(update={"on_foot": spec.on_foot.model_copy(
        update={"height_mm": spec.on_foot.height_mm + 10.0})}))
    for rules in (ruleset, taller, ruleset):
        for armed in (False, True):
            pieces = figure_part_arrays(rules, armed)
            assert [name for name, *_ in pieces] == list(figure_model(rules, armed))
            top = max(float(triangles[..., 2].max()) for _, _, triangles, _ in pieces)
            assert top == pytest.approx(BASE_THICKNESS_IN + rules.figure_height_in)
