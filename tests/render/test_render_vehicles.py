"""Issue 46: the film, the stills and the viewer draw the car chase's vehicles as their kind
(``build_miniature_node``, which all three use): the runners' van from the van mesh, the Highway
Patrol's cars from the police car's (light bar and all), the runner's trail bike as a bike."""

from __future__ import annotations

import pytest

from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.miniature import load_model_file, miniature_model_path

CHASE = bundled_dir("scenes") / "systems" / "car_chase.yaml"


@pytest.fixture(scope="module")
def chase():
    return load_scene(CHASE)


def drawn_parts(node) -> dict[str, int]:
    """Triangles drawn per part name under a miniature's node."""
    found: dict[str, int] = {}
    for geom_path in node.find_all_matches("**/+GeomNode"):
        geom_node = geom_path.node()
        geoms = [geom_node.get_geom(k) for k in range(geom_node.get_num_geoms())]
        count = sum(geom.get_primitive(j).get_num_primitives()
                    for geom in geoms for j in range(geom.get_num_primitives()))
        found[geom_path.get_name()] = found.get(geom_path.get_name(), 0) + count
    return found


@pytest.mark.parametrize("model_id, kind", [("van", "van"), ("interceptor", "police_car"), ("runner", "trailbike")])
def test_the_car_chase_draws_each_vehicle_as_its_kind(chase, model_id, kind):
    from entropy3d.render.miniatures import build_miniature_node

    parts = drawn_parts(build_miniature_node(chase, chase.model(model_id)))
    authored = load_model_file(miniature_model_path(chase.ruleset, kind))
    for name, mesh in authored.items():
        if name != "base":  # the base is drawn from the rules' base shape, its rim in the gang colour
            assert parts.get(name) == len(mesh.faces), f"{model_id}: its {name} is the {kind} mesh's"
    if kind == "trailbike":
        assert "rider" in parts and "windows" not in parts
    else:
        assert "rider" not in parts and "bike" not in parts, "no motorcycle under a car or van"
        assert ("lights" in parts) == (kind == "police_car")
