"""Jailbreak's and Rescue & Survive's set-up on the table (scene/npc_set_up.py, EC-MISSION-JAIL,
EC-MISSION-RESCUE): the road exits a table's roads make, each set-up mistake refused with its key
path, line and fix, and the NPCs of the first state."""

from __future__ import annotations

from pathlib import Path

from entropy3d.scene import load_scene
from entropy3d.scene.npc_set_up import road_exits
from entropy3d.systems.entropy_city.state import Item, State
from tests.scene.test_loading import problems_of, write_scene

DATA = Path(__file__).parents[1] / "data"
SCENES = Path(__file__).parents[2] / "scenes"
GANGS = 'gangs: {h: {name: H, colour: "#ff0000"}, k: {name: K, colour: "#00ff00"}}\n'
MODELS = ("models:\n  - {id: h1, gang: h, bike: cruiser, position: [2, 6], facing: 0}\n"
          "  - {id: k1, gang: k, bike: cruiser, position: [22, 6], facing: 180}\n")


def test_EC_MISSION_JAIL_road_exits_are_where_roads_meet_a_table_edge():
    """Clause: EC-MISSION-JAIL ("escape ... through a road exit"; DECISION: the road's width across
    the edge where its centre line ends on it). The crossroads: the main street west and east
    (y 21.5-26.5), the avenue south and north (x 21.5-26.5), the alley south (x 9-12), dock street
    east (y 9-13.5)."""
    table = load_scene(SCENES / "crossroads.yaml")
    assert road_exits(table.spec) == (("west", 21.5, 26.5), ("east", 21.5, 26.5), ("south", 21.5, 26.5),
                                      ("north", 21.5, 26.5), ("south", 9.0, 12.0), ("east", 9.0, 13.5))


def test_EC_MISSION_JAIL_a_jailbreak_set_up_wrong_is_refused_with_its_key_path_line_and_fix(tmp_path):
    """Clause: EC-MISSION-JAIL. "An NPC locked inside a building at the centre of the board ...
    escape the table from any board edge through a road exit": a jail that is no building of the
    scene; a jail 25.5" from the centre of a 48" table (more than missions.jailbreak.centre_in,
    8"); a door 2" off its walls; no road to leave by."""
    path = write_scene(tmp_path, "name: Bad jail\nmission: jailbreak\njailbreak:\n  jail: shed\n"
                                 "  openings: [[4, 4], [1, 1]]\ntable: {width: 48, depth: 48}\n"
                                 "buildings:\n  - {id: shed, rect: [2, 2, 6, 6], storeys: 1}\n"
                                 "  - {id: hut, rect: [10, 10, 12, 12], storeys: 1}\n" + GANGS + MODELS)
    found = problems_of(path)
    said = {key: (line, message) for key, line, message in found}
    assert said["jailbreak.jail"][0] == 4 and "shed stands 25.5\" from the table's centre (24.0, 24.0)" in \
        said["jailbreak.jail"][1] and "within 8\" of it (missions.jailbreak.centre_in" in said["jailbreak.jail"][1]
    assert said["jailbreak.openings[0]"][1] == "(4, 4) is 2.0\" from shed's walls: put each door and window on them " \
                                               "(within 0.5\", missions.jailbreak.opening_on_wall_in)"
    assert "jailbreak.openings[1]" in said  # (1, 1): 1.4" off the walls
    assert "no road leaves the table over an open edge" in said["roads"][1]
    ghost = write_scene(tmp_path, "name: No jail\nmission: jailbreak\njailbreak: {jail: keep, openings: [[4, 4]]}\n"
                                  "roads:\n  - {id: r, points: [[0, 6], [24, 6]]}\n" + GANGS + MODELS, "ghost.yaml")
    assert ("jailbreak.jail", 3, "no building 'keep' in the scene; its buildings: (none: add one under "
                                 "`buildings:`) (EC-MISSION-JAIL)") in problems_of(ghost)


def test_EC_MISSION_JAIL_the_yard_and_the_bundled_scene_lock_the_NPC_in_with_its_openings():
    """Clause: EC-MISSION-JAIL. The Jail yard's first state: the prisoner locked in at the jail's
    centre (18, 17) with its door, the road exits west and east of the road along y 10."""
    state = load_scene(DATA / "jail_yard.yaml").initial_state()
    assert state.items == (Item("prisoner", 18.0, 17.0, locked=True, openings=((18.0, 14.0),)),)
    assert state.road_exits == (("west", 7.5, 12.5), ("east", 7.5, 12.5))
    assert not state.items[0].on_table
    for yard in ("jail_yard", "rescue_yard"):  # a replay's states read back as they were written
        first = load_scene(DATA / f"{yard}.yaml").initial_state()
        assert State.from_json(first.to_json()) == first


def test_EC_MISSION_RESCUE_a_rescue_set_up_wrong_is_refused_with_its_key_path_line_and_fix(tmp_path):
    """Clause: EC-MISSION-RESCUE. An NPC waiting inside a building, one delivered mid-table (33.9"
    from every corner of a 48" table, more than corner_in's 16"), and a gang with no NPC, each with
    its key path and line; the bundled scene's NPCs stand where it says, each with its gang and
    destination."""
    path = write_scene(tmp_path, "name: Bad rescue\nmission: rescue_survive\nrescue_survive:\n  npcs:\n"
                                 "    - {id: n1, gang: h, at: [4, 4], to: [24, 24]}\n"
                                 "table: {width: 48, depth: 48}\n"
                                 "buildings:\n  - {id: shed, rect: [2, 2, 6, 6], storeys: 1}\n" + GANGS + MODELS)
    found = problems_of(path)
    assert ("rescue_survive.npcs[0].at", 5, "(4, 4) is inside building 'shed': put n1 on the street, where a rider "
                                             "rides within reach of it (EC-MISSION-RESCUE)") in found
    assert any(key == "rescue_survive.npcs[0].to" and line == 5 and message.startswith("(24, 24) is 33.9\" from the")
               for key, line, message in found)
    assert any(key == "rescue_survive.npcs" and "k has no NPC" in message for key, _, message in found)
    state = load_scene(SCENES / "rescue_survive.yaml").initial_state()
    assert state.items == (Item("hades_contact", 41.0, 34.0, owner="hades", to=(41.0, 11.25)),
                           Item("komodo_contact", 45.0, 36.0, owner="komodo", to=(37.5, 10.5)))
