"""The painted table's glTF parts (entropy3d.export.painted): the paint images embedded once and
shared, and a material whose tops lie in both images split in two."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from entropy3d.export.painted import add_paint_textures, linear
from entropy3d.look.paint import TablePaint


def test_one_material_on_both_levels_gets_a_textured_copy_per_image_and_each_image_is_embedded_once():
    ground = np.zeros((8, 8, 3), np.uint8)
    ground[0] = 255  # the row at y = 0: south, which the file keeps at the image's bottom
    paint = TablePaint(ground=ground, raised=np.full((8, 8, 3), 90, np.uint8), width=48.0, depth=48.0)
    material = {"name": "concrete #9a9890", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}
    tree = {"images": [], "textures": [], "materials": [material],
            "meshes": [{"name": name, "primitives": [{"attributes": {}, "material": 0}]}
                       for name in ("block", "ramp", "kerb", "roof")]}
    buffer_items = {"vertices": b"\0" * 12}
    add_paint_textures(buffer_items, tree, paint, {"block": "ground", "ramp": "raised", "kerb": "ground",
                                                   "roof": "raised"})

    assert [image["name"] for image in tree["images"]] == ["table paint (ground)", "table paint (raised)"]
    assert [image["bufferView"] for image in tree["images"]] == [1, 2] and len(buffer_items) == 3
    assert all(len(item) % 4 == 0 for item in buffer_items.values())
    decoded = np.asarray(Image.open(io.BytesIO(list(buffer_items.values())[1])).convert("RGB"), int)
    assert decoded[-1].mean() > 200 and decoded[:-2].mean() < 40  # south at the bottom, north at the top
    used = [mesh["primitives"][0]["material"] for mesh in tree["meshes"]]
    assert used[0] == used[2] != used[1] == used[3] and len(tree["materials"]) == 2
    textures = [tree["materials"][k]["pbrMetallicRoughness"]["baseColorTexture"]["index"] for k in used]
    assert [tree["images"][tree["textures"][t]["source"]]["name"] for t in textures] == [
        "table paint (ground)", "table paint (raised)", "table paint (ground)", "table paint (raised)"]
    assert {tree["materials"][k]["name"] for k in used} == {"concrete #9a9890"}


def test_colours_are_made_linear_by_the_srgb_curve():
    """glTF factors and vertex colours are linear: sRGB 0.5 is linear 0.214, 1 stays 1, and the
    dark end is the curve's straight part."""
    assert linear([0.0, 0.02, 0.5, 1.0]) == pytest.approx([0.0, 0.02 / 12.92, 0.21404, 1.0], abs=1e-5)
