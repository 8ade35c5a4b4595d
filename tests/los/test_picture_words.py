"""The LOS picture's words (``entropy3d los SCENE VIEWER TARGET --png``): riders by name, in the
project's font, and no name written over another."""

from __future__ import annotations

from pathlib import Path

from PIL import ImageDraw

from entropy3d.fonts import covered_by
from entropy3d.los import LosWorld
from entropy3d.los.verdict_picture import draw_top_down
from entropy3d.scene import load_scene

LOVERS_POINT = Path(__file__).resolve().parents[2] / "scenes" / "lovers_point.yaml"


def test_boxes_that_only_touch_do_not_cover_each_other():
    taken = [(0, 0, 10, 10), (20, 0, 30, 10)]
    assert covered_by((10, 0, 20, 10), taken) is None
    assert covered_by((9, 9, 12, 12), taken) == (0, 0, 10, 10)
    assert covered_by((25, 5, 40, 8), taken) == (20, 0, 30, 10)


def test_EC_LOS_2_the_top_down_picture_names_riders_and_never_writes_a_name_over_another(monkeypatch):
    """Clause: EC-LOS-2. Lovers Point's start puts bikes side by side: the picture's names are the
    riders' ("Brakes", not "hades_1"), the title names viewer and target, and no two names'
    boxes overlap (the default bitmap font wrote "police_1" under "police_2")."""
    table = load_scene(LOVERS_POINT)
    world = LosWorld(table)
    result = world.line_of_sight("hades_1", "hades_2")
    written: list[tuple[str, tuple[float, float, float, float]]] = []
    text = ImageDraw.ImageDraw.text

    def recorded(self, xy, words, *args, **kwargs):
        box = self.textbbox(xy, words, font=kwargs.get("font"), stroke_width=kwargs.get("stroke_width", 0))
        written.append((words, box))
        return text(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    draw_top_down(world, result)
    *names, title = written  # the title is written last, when the verdict is known
    assert title[0].startswith("Brakes -> Tombstone: top-down")
    riders = {m.rider.name for m in table.models}
    assert {"Brakes", "Tombstone"} <= {words for words, _ in names} <= riders
    for k, (_, box) in enumerate(names):
        assert covered_by(box, [other for _, other in names[:k]]) is None
