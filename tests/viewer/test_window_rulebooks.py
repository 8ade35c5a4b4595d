"""The viewer on every rulebook's scene, as a player uses it (a real X window, xdotool's keys): a
model selected, an action typed in the scene's own rulebook's words, previewed and taken with the
engine the game loop plays; the model moves, or its event appears, in that rulebook's clauses."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.viewer.xwindow import ViewerWindow, Xvfb, missing_tools

pytestmark = pytest.mark.skipif(bool(missing_tools()), reason=f"tools/system_deps installs {missing_tools()}")

SYSTEMS = Path(__file__).parents[2] / "scenes" / "systems"
DATA = Path(__file__).parents[1] / "data"
SHOTS = Path(os.environ["ENTROPY3D_VIEWER_SHOTS"]) if os.environ.get("ENTROPY3D_VIEWER_SHOTS") else None


@pytest.fixture(scope="module")
def xvfb():
    server = Xvfb()
    yield server
    server.close()


# (scene, model, an action in its rulebook's words, the clause prefix its events carry, how far
# the model moves, inches; None: it stays and its event names another model)
RULEBOOKS = [
    (SYSTEMS / "car_chase.yaml", "interceptor", "drive: straight 12", "SW-", 12.0),
    (SYSTEMS / "gang_fight.yaml", "escher_1", "shoot", "GANG-", None),
    (SYSTEMS / "rooftop_skirmish.yaml", "sniper", "attack", "TEN-", None),
    (DATA / "tag_yard.yaml", "red_1", "walk: straight 3", "TAG-", 3.0),
    (SYSTEMS / "rooftop_fall.yaml", "jet", "s2: straight 8", "REF-", 8.0),
]


@pytest.mark.parametrize("scene, model, action, prefix, inches", RULEBOOKS,
                         ids=[scene.stem for scene, *_ in RULEBOOKS])
def test_an_action_typed_in_the_window_is_taken_in_the_scenes_rulebook(xvfb, tmp_path, scene, model, action,
                                                                       prefix, inches):
    """Issue 44: e opens the typing line on the selected model; the action in the scene's own
    rulebook's words (a chase's drive, a gang fighter's shot, a 10acity attack, a tag runner's
    walk, an Entropy City ride the reference cards judge) is previewed without a refusal and
    Enter takes it: the model stands where the move ended (or stays, and its event names the
    model it shot), told in that rulebook's clauses; u undoes it."""
    window = ViewerWindow(xvfb, tmp_path / "shown.json", str(scene), extra=("--select", model))
    try:
        start = window.state["poses"][model]
        window.key("e")
        window.wait(lambda s: s["plan_open"])
        window.xdotool("type", "--window", window.window, "--delay", "30", action)
        preview = window.wait(lambda s: s["plan"] is not None and s["plan"]["text"] == action)["plan"]
        assert preview["refusal"] is None, preview
        window.key("Return")
        taken = window.wait(lambda s: not s["plan_open"] and s["ridden"])
        window.settle(0.5)
        image = tmp_path / f"{scene.stem}-taken.png"
        window.screenshot(image)
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(image, SHOTS / image.name)
        said = taken["ridden"][-1]
        assert any(f"({prefix}" in line or f", {prefix}" in line for line in said), said
        now = taken["poses"][model]
        moved = ((now[0] - start[0]) ** 2 + (now[1] - start[1]) ** 2) ** 0.5
        if inches is None:
            assert moved == pytest.approx(0.0, abs=1e-6) and preview["target"] is not None
        else:
            assert moved == pytest.approx(inches, abs=0.05)
            assert preview["end"][:2] == pytest.approx(now[:2], abs=0.05)
        window.key("u")
        window.wait(lambda s: not s["ridden"] and s["poses"][model] == start)
    finally:
        window.close()
