"""Issue 46: the share page draws the car chase's vehicles as their kind: its payload carries the
van mesh's parts for the van and the police car's for the patrol, from the same choice every
picture makes (``miniature_colour_parts``), each on its own oval base."""

from __future__ import annotations

import base64

import numpy as np

from entropy3d.resources import bundled_dir
from entropy3d.scene import load_scene
from entropy3d.scene.miniature import load_model_file, miniature_model_path
from entropy3d.share.payload import MeshPacker, miniatures_payload


def test_the_share_page_carries_the_van_and_police_car_meshes():
    table = load_scene(bundled_dir("scenes") / "systems" / "car_chase.yaml")
    payload = miniatures_payload(table, MeshPacker(48.0))
    kinds = {model["id"]: model["bike"] for model in payload["models"]}
    assert kinds == {"interceptor": "police_car", "rammer": "police_car", "van": "van", "runner": "trailbike"}
    for kind in ("van", "police_car"):
        parts = payload["bikes"][kind]
        authored = load_model_file(miniature_model_path(table.ruleset, kind))
        triangles: dict[str, int] = {}
        for part in parts:
            index_type = np.uint32 if part["mesh"]["wide"] else np.uint16
            count = len(np.frombuffer(base64.b64decode(part["mesh"]["indices"]), index_type)) // 3
            triangles[part["part"]] = triangles.get(part["part"], 0) + count
        assert triangles == {name: len(mesh.faces) for name, mesh in authored.items() if name != "base"}
        assert [p["colour"] for p in parts if p["part"] == "body"] == [None], "the body in the gang colour"
    bases = {model["id"]: model["base"] for model in payload["models"]}
    assert bases["van"] != bases["runner"] and bases["interceptor"] == bases["rammer"] != bases["van"]
