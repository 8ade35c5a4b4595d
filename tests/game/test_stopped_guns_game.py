"""Overwatch and reload in a whole game (EC-GUN-STOPPED): the loop, the table's LOS engine and the
script notation, on an open lot with the geometric producer."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.errors import ScriptError
from entropy3d.game.action_view import ActionView
from entropy3d.game.players import AutoPlayer
from entropy3d.game.script import load_script
from entropy3d.game.session import play_game, replay_bytes
from entropy3d.geometry import Pose
from entropy3d.scene import load_scene

SCENE = """name: Open lot
table: {width: 48, depth: 24, ground: asphalt}
gangs:
  hades: {name: Hades MC, colour: "#c0392b"}
  komodo: {name: Komodo, colour: "#27ae60"}
models:
  - {id: h1, gang: hades, bike: cruiser, position: [4, 6], facing: 0, speed: 1}
  - {id: k1, gang: komodo, bike: cruiser, position: [44, 18], facing: 180, rider: {gun: pistol}}
"""

SCRIPT = """scene: open.yaml
turns: 4
fallback: error
push: never
activations:
  - {turn: 1, model: h1, plans: ["s1: straight 5", "s1: straight 5"]}
  - {turn: 1, model: k1, plans: ["overwatch s1: straight 5"]}
  - {turn: 2, model: h1, plans: ["s1: straight 5", "s1: straight 5"]}
  - {turn: 3, model: h1, plans: ["s1: straight 5", "s1: straight 5"]}
  - {turn: 3, model: k1, plans: ["reload s1: left tight 3, straight 2"]}
  - {turn: 4, model: h1, plans: ["s1: straight 5", "s1: straight 5"]}
  - {turn: 4, model: k1, attack: h1 with smg}
"""


def test_EC_GUN_STOPPED_overwatch_and_reload_in_a_scripted_game(tmp_path):
    """k1 stops on overwatch 5" on (a cruiser's minimum at speed 1) with its smg (a pistol has no
    reload); h1's next ride comes into the smg's range and the LOS engine's sight: k1 shoots in
    that ride's transition, at TN 16 + 1 (h1 only moving, EC-MOVE-3). k1 reloads in turn 3
    (stopped, skipping turn 4), and in the skipped activation its scripted shot needs 16 + h1's
    speed 1 + 1 = 18. Same seed, same bytes."""
    (tmp_path / "open.yaml").write_text(SCENE.replace("gun: pistol", "gun: smg"))
    (tmp_path / "script.yaml").write_text(SCRIPT)
    replay = play_game(None, seed=1, producer="geometric", script=tmp_path / "script.yaml")
    rides = [(a.turn, x) for a in replay.activations if a.model_id == "h1" for x in a.actions]
    watched = [(turn, e) for turn, x in rides for e in x.events if e.figures.get("overwatch")]
    assert len(watched) == 1 and watched[0][1].model == "k1" and "EC-GUN-STOPPED" in watched[0][1].clauses
    turn, record = next((t, x) for t, x in rides if any(e.figures.get("overwatch") for e in x.events))
    shot = next(e for e in record.events if "tn" in e.figures)
    assert shot.figures["tn"] == 17 and shot.figures["weapon"] == "smg"
    skipped = next(a for a in replay.activations if a.model_id == "k1" and a.turn == 4)
    (reload_shot,) = skipped.actions
    first = reload_shot.attack.events[0]
    assert reload_shot.attack.kind == "smg" and first.figures["tn"] == 18
    assert reload_shot.index == 0  # the skipped activation's one shot: its action 1 (it read as action 3)
    again = play_game(None, seed=1, producer="geometric", script=tmp_path / "script.yaml")
    assert replay_bytes(again) == replay_bytes(replay)


def test_EC_GUN_STOPPED_automatic_and_scripted_players_choose_to_remain_on_overwatch(tmp_path):
    """The automatic player remains on overwatch while a rival is within its pistol's 35.2" and it
    has a shot; a script says so with `remain_on_overwatch: true` and no plans (a plan with it is
    refused by name)."""
    (tmp_path / "open.yaml").write_text(SCENE)
    table = load_scene(tmp_path / "open.yaml")
    state = table.initial_state()
    watcher = state.model("k1").but(overwatch_push="never", stopped=True, ammo=3)
    player = AutoPlayer(np.random.default_rng(0), table.ruleset)
    near = state.with_model(watcher).with_model(state.model("h1").but(pose=Pose(24, 6, 0)))
    assert player.remain_on_overwatch(ActionView(near, watcher, 0, None, table.ruleset))
    far = state.with_model(watcher)  # h1 at (4, 6): 42" away
    assert not player.remain_on_overwatch(ActionView(far, watcher, 0, None, table.ruleset))
    assert not player.remain_on_overwatch(ActionView(near, watcher.but(ammo=0), 0, None, table.ruleset))
    good = tmp_path / "remain.yaml"
    good.write_text("scene: open.yaml\nactivations:\n  - {turn: 3, model: k1, remain_on_overwatch: true}\n")
    assert load_script(good)[0].activations[0].remain_on_overwatch
    bad = tmp_path / "both.yaml"
    bad.write_text("scene: open.yaml\nactivations:\n  - {turn: 3, model: k1, remain_on_overwatch: true, "
                   "plans: ['s1: straight 5']}\n")
    with pytest.raises(ScriptError, match="remaining on overwatch"):
        load_script(bad)
