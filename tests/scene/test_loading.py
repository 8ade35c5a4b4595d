"""The scene loader: valid scenes load; every kind of bad input names its key path and line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest
import trimesh
import yaml

from entropy3d.errors import SceneError
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry

DATA = Path(__file__).parents[1] / "data"


def write_scene(tmp_path: Path, body: str, name: str = "scene.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[tuple[str, int | None, str]]:
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    assert caught.value.source == str(path)
    return caught.value.problems


def test_small_table_loads_with_models_and_rules():
    table = load_scene(DATA / "small_table.yaml")
    assert [m.id for m in table.models] == ["h1", "k1"]
    assert table.model("k1").bike == "quad"
    assert table.spec.table.edges == {"south": "cliff"}
    assert table.ruleset.scale.metres_per_inch == pytest.approx(1.42)


def test_EC_BASE_bases_come_from_rules_data_in_inches():
    """Clause: EC-BASE — 75 x 42 mm ovals, quads 70 mm round."""
    table = load_scene(DATA / "small_table.yaml")
    oval = table.base_of(table.model("h1"))
    round_ = table.base_of(table.model("k1"))
    assert (oval.length, oval.width) == pytest.approx((75 / 25.4, 42 / 25.4))
    assert round_.is_round and round_.length == pytest.approx(70 / 25.4)


def test_wrong_type_names_key_path_and_line(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        table:
          width: fourty
        """)
    [(key, line, message)] = problems_of(path)
    assert key == "table.width" and line == 3
    assert "valid number" in message and "fourty" in message


def test_missing_field_is_named(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        gangs: {a: {name: A, colour: "#ff0000"}}
        models:
          - {id: m1, gang: a, bike: police, position: [4, 4]}
        """)
    [(key, line, message)] = problems_of(path)
    assert key == "models[0].facing" and line == 4 and "missing" in message


def test_unknown_key_is_rejected_not_ignored(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        buildings:
          - {id: b1, rect: [1, 1, 4, 4], storeys: 2, storys: 3}
        """)
    [(key, line, message)] = problems_of(path)
    assert key == "buildings[0].storys" and line == 3 and "unknown key 'storys'; did you mean 'storeys'?" in message


def test_a_misspelt_key_in_a_list_item_or_at_the_top_gets_the_closest_allowed_key(tmp_path):
    """The fix is named wherever the key stands: in a list's item and at the scene's top level."""
    path = write_scene(tmp_path, """\
        name: Bad
        misson: turf_war
        destructibles:
          - {id: crate_1, kind: crate, position: [4, 4], facng: 30}
        """)
    problems = {key: message for key, _, message in problems_of(path)}
    assert "did you mean 'mission'?" in problems["misson"]
    assert "did you mean 'facing'?" in problems["destructibles[0].facng"]


def test_unknown_terrain_lists_the_allowed_ones(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        zones:
          - {id: z, terrain: lava, rect: [0, 0, 5, 5]}
        """)
    [(key, line, message)] = problems_of(path)
    assert key == "zones[0].terrain" and line == 3
    assert "'lava'" in message and "gravel" in message and "sand" in message


@pytest.mark.parametrize("field, value", [("length", -3), ("width", 0)])
def test_negative_or_zero_size_is_rejected(tmp_path, field, value):
    sizes = {"length": 3, "width": 2}
    sizes[field] = value
    path = write_scene(tmp_path, f"""\
        name: Bad
        ramps:
          - {{id: r, start: [1, 1], heading: 0, length: {sizes['length']}, width: {sizes['width']}, rise: 1}}
        """)
    [(key, line, message)] = problems_of(path)
    assert key == f"ramps[0].{field}" and line == 3 and "greater than 0" in message


def test_empty_rect_is_rejected(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        blocks:
          - {id: b, rect: [10, 10, 5, 15]}
        """)
    [(key, _, message)] = problems_of(path)
    assert key == "blocks[0]" and "no area" in message


def test_references_gang_bike_type_duplicate_ids_and_off_table(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        gangs: {a: {name: A, colour: "#ff0000"}}
        zones:
          - {id: dup, terrain: grass, rect: [0, 0, 5, 5]}
        models:
          - {id: dup, gang: nobody, bike: unicycle, position: [60, 4], facing: 0}
        """)
    found = {key: message for key, _, message in problems_of(path)}
    assert "already used" in found["models[0].id"]
    assert "unknown gang 'nobody'" in found["models[0].gang"]
    assert "unknown bike type 'unicycle'" in found["models[0].bike"] and "cruiser" in found["models[0].bike"]
    assert "off the 48.0x48.0 inch table" in found["models[0].position"]


def test_mesh_that_does_not_exist_names_the_file(tmp_path):
    path = write_scene(tmp_path, """\
        name: Bad
        meshes:
          - {id: statue, file: nothere.stl, units: mm}
        """)
    [(key, line, message)] = problems_of(path)
    assert key == "meshes[0].file" and line == 3 and "'nothere.stl' not found" in message


def test_mesh_that_does_not_parse_names_the_file(tmp_path):
    (tmp_path / "junk.glb").write_bytes(b"glTF this is not a real binary gltf")
    path = write_scene(tmp_path, """\
        name: Bad
        meshes:
          - {id: junk, file: junk.glb, units: mm}
        """)
    [(key, line, message)] = problems_of(path)
    assert key == "meshes[0].file" and line == 3 and "junk.glb" in message


def test_mesh_units_are_required(tmp_path):
    trimesh.creation.box(extents=[10, 10, 10]).export(tmp_path / "cube.stl")
    path = write_scene(tmp_path, """\
        name: Bad
        meshes:
          - {id: cube, file: cube.stl}
        """)
    [(key, _, message)] = problems_of(path)
    assert key == "meshes[0].units" and "missing" in message


def test_yaml_syntax_error_reports_the_line(tmp_path):
    path = write_scene(tmp_path, "name: x\n  bad: [\n")
    [(_, line, message)] = problems_of(path)
    assert line == 2 and "not valid YAML" in message


def test_a_replay_given_for_a_scene_is_named_with_the_scene_it_was_played_on(tmp_path):
    """JSON lines parse as YAML no further than their second line; the error says what the file
    is instead (a replay, from its header) and which scene to give."""
    path = tmp_path / "game.jsonl"
    path.write_text('{"format":"entropy3d-replay","scene":"scenes/crossroads.yaml","type":"header"}\n'
                    '{"type":"turn"}\n')
    [(key, line, message)] = problems_of(path)
    assert (key, line) == ("", 1)
    assert "JSON lines" in message and "'entropy3d-replay'" in message and "'scenes/crossroads.yaml'" in message
    assert "such as that scene" in message
    path.write_text('{"a": 1}\n{"b": 2}\n')
    [(_, _, message)] = problems_of(path)
    assert message == "not YAML but JSON lines; give a YAML file here"


def test_millimetre_stl_lands_at_the_right_size(tmp_path):
    """A 3D-print STL of 50 x 20 x 30 mm placed with `units: mm` is 50/25.4 inches long."""
    part = trimesh.creation.box(extents=[50, 20, 30])
    part.apply_translation([25, 10, 15])  # print bed origin at a corner, as slicers export
    part.export(tmp_path / "barricade.stl")
    path = write_scene(tmp_path, """\
        name: Print
        meshes:
          - {id: barricade, file: barricade.stl, units: mm, position: [10, 20, 0], rotation: [0, 0, 90]}
        """)
    table = load_scene(path)
    mesh = table.meshes["barricade"]
    assert sorted(mesh.extents) == pytest.approx(sorted([50 / 25.4, 20 / 25.4, 30 / 25.4]))
    # rotated 90 degrees about z: the 50 mm length now runs along y, starting at the origin
    assert mesh.extents[1] == pytest.approx(50 / 25.4)
    assert mesh.bounds[0] == pytest.approx([10 - 20 / 25.4, 20, 0])
    geometry = build_table_geometry(table)
    assert geometry.by_id("barricade").top == pytest.approx(30 / 25.4)


def test_gltf_is_turned_z_up(tmp_path):
    tall = trimesh.creation.box(extents=[1, 4, 1])  # 4 m tall along glTF's +y (up)
    tall.apply_translation([0, 2, 0])
    tall.export(tmp_path / "post.glb")
    path = write_scene(tmp_path, """\
        name: Post
        meshes:
          - {id: post, file: post.glb, units: m, position: [5, 5, 0]}
        """)
    mesh = load_scene(path).meshes["post"]
    assert mesh.extents[2] == pytest.approx(4 * 1000 / 25.4)
    assert mesh.bounds[0][2] == pytest.approx(0.0, abs=1e-9)


def test_geometry_heights_follow_levels():
    geometry = build_table_geometry(load_scene(DATA / "small_table.yaml"))
    heights = geometry.surface_height([[5, 5], [5, 17], [13, 20], [20, 20]])
    tower_roof = 0.12 + 3 * 2.1
    assert heights == pytest.approx([tower_roof, 4.0, 1.0 / 3.0, 0.02], abs=1e-6)
    assert geometry.surface_terrain([18, 18]) == "grass"


def test_concave_building_parts_are_convex_and_cover_the_footprint():
    geometry = build_table_geometry(load_scene(DATA / "small_table.yaml"))
    building = geometry.by_id("lshape")
    assert len(building.parts) > 1
    assert all(part.is_convex for part in building.parts)
    assert sum(part.volume for part in building.parts) == pytest.approx(building.mesh.volume)
    # the notch of the L is empty: a point there is outside every part
    notch = np.array([[20.0, 7.0, 1.0]])
    assert not any(part.contains(notch)[0] for part in building.parts)


def test_ramp_colour_defaults_to_kicker_orange_or_its_surface(tmp_path):
    path = write_scene(tmp_path, """\
        name: Ramps
        ramps:
          - {id: kicker, start: [2, 2], heading: 0, length: 3, width: 2, rise: 1}
          - {id: slope, start: [2, 10], heading: 0, length: 12, width: 4, rise: 4, surface: ruins}
          - {id: painted, start: [2, 20], heading: 0, length: 3, width: 2, angle: 20, colour: "#112233"}
        """)
    table = load_scene(path)
    geometry = build_table_geometry(table)
    assert geometry.by_id("kicker").colour == "#c98b2b"
    assert geometry.by_id("slope").colour == table.ruleset.terrain["ruins"].colour
    assert geometry.by_id("painted").colour == "#112233"


@pytest.mark.parametrize("section, entry, key", [
    ("blocks", "{id: b, rect: [0, 0, 5, 5], surface: lava}", "surface"),
    ("buildings", "{id: b, rect: [0, 0, 5, 5], storeys: 1, roof_surface: lava}", "roof_surface"),
    ("ramps", "{id: r, start: [1, 1], heading: 0, length: 3, width: 2, rise: 1, surface: lava}", "surface"),
])
def test_every_terrain_key_is_checked(tmp_path, section, entry, key):
    path = write_scene(tmp_path, f"name: Bad\n{section}:\n  - {entry}\n")
    [(found_key, line, message)] = problems_of(path)
    assert found_key == f"{section}[0].{key}" and line == 3 and "unknown terrain 'lava'" in message


def test_EC_TRAIT_loadout_traits_and_conditions_are_checked_by_name(tmp_path):
    """EC-TRAIT: a played trait loads with its x; an unknown one lists the names; one the rulebook
    leaves vague is refused by name with why; a missing or stray x is named. EC-COND-*: start
    conditions are checked too, and a rider wet from the start sits at 2 stress."""
    good = write_scene(tmp_path, """\
        name: Loadouts
        gangs: {a: {name: A, colour: "#ff0000"}}
        models:
          - {id: k1, gang: a, bike: police, position: [10, 10], facing: 0,
             rider: {weapon: chain, traits: {psychotic: 6, hard_headed: null}, conditions: [wet]}}
        """)
    state = load_scene(good).initial_state()
    assert state.model("k1").trait("psychotic") == (True, 6) and state.model("k1").trait("hard_headed")[0]
    assert state.model("k1").conditions == ("wet",) and state.model("k1").stress == 2
    # a trait the rules data withholds ("implemented: false", as every trait once was): Clutz here
    withheld = yaml.safe_load((Path(__file__).parents[2] / "rules" / "entropy_city.yaml").read_text(encoding="utf-8"))
    withheld["traits"]["clutz"] = {"implemented": False, "why": "withheld for this test"}
    (tmp_path / "withheld.yaml").write_text(yaml.safe_dump(withheld), encoding="utf-8")
    bad = write_scene(tmp_path, """\
        name: Loadouts
        rules: withheld.yaml
        gangs: {a: {name: A, colour: "#ff0000"}}
        models:
          - {id: k1, gang: a, bike: police, position: [10, 10], facing: 0,
             rider: {traits: {berserk: null, clutz: null, pillion: null, hard_headed: 2}, conditions: [soggy]}}
        """, "bad.yaml")
    found = {key: (line, message) for key, line, message in problems_of(bad)}
    assert "unknown trait 'berserk'" in found["models[0].rider.traits.berserk"][1] and "psychotic" in found[
        "models[0].rider.traits.berserk"][1]
    assert "not played yet (withheld for this test)" in found["models[0].rider.traits.clutz"][1]
    assert "takes a number" in found["models[0].rider.traits.pillion"][1]
    assert "takes no number" in found["models[0].rider.traits.hard_headed"][1]
    assert "unknown condition 'soggy'" in found["models[0].rider.conditions[0]"][1]
    assert all(line == 6 for line, _ in found.values())


def test_EC_TRAP_carried_traps_are_checked_by_name(tmp_path):
    path = write_scene(tmp_path, """\
        name: Traps
        gangs: {a: {name: A, colour: "#ff0000"}}
        models:
          - {id: k1, gang: a, bike: police, position: [10, 10], facing: 0, rider: {traps: [molotov, landmine]}}
        """)
    found = {key: message for key, _, message in problems_of(path)}
    assert list(found) == ["models[0].rider.traps[1]"]
    assert "unknown trap 'landmine'" in found["models[0].rider.traps[1]"] and "spike_strip" in found[
        "models[0].rider.traps[1]"]


def test_a_rider_s_name_or_a_misspelt_id_given_for_a_model_points_at_the_id():
    """Commands take model ids; a newcomer types the rider's name from the screen ("Viper") or
    drops the underscore: the refusal names the id to give, then every id with its rider."""
    table = load_scene(Path(__file__).resolve().parents[2] / "scenes" / "crossroads.yaml")
    said = table.no_model("viper")
    assert "Viper is model komodo_1: give the model's id" in said and "komodo_1 (Viper)" in said
    assert "did you mean 'komodo_1'?" in table.no_model("komodo1")
    with pytest.raises(KeyError, match="did you mean 'hades_3'"):
        table.model("hades3")


def test_EC_STOPPED_a_model_set_up_at_speed_0_starts_stopped():
    """Clause: EC-STOPPED. The scene schema says a speed of 0 is stopped: Lovers Point's police
    line is set up at speed 0 (two of its three), so it starts with its stopped token (attacked at
    TN -2 until it first activates), where the riders at speed 1-3 do not; it once started at
    speed 0 unstopped."""
    table = load_scene(Path(__file__).parents[2] / "scenes" / "lovers_point.yaml")
    models = table.initial_state().models.values()
    assert sorted(m.id for m in models if m.stopped) == ["police_1", "police_2"]
    assert all(m.speed == 0 for m in models if m.stopped)


def test_EC_MISSION_PACKAGE_a_package_run_set_up_wrong_is_refused_with_its_key_path_line_and_fix(tmp_path):
    """Clause: EC-MISSION-PACKAGE. Package Run's set-up is checked against the scene and the rules
    data: a carrier that is no model, carriers of two gangs, packages not the rules data's 1, 1
    and 3 VP, the edge a cliff."""
    path = write_scene(tmp_path, """\
        name: Bad run
        mission: package_run
        package_run:
          to: south
          carriers: {k1: 2, h1: 1, ghost: 1}
        table: {width: 24, depth: 24, edges: {south: cliff}}
        gangs: {h: {name: H, colour: "#ff0000"}, k: {name: K, colour: "#00ff00"}}
        models:
          - {id: k1, gang: k, bike: cruiser, position: [20, 12], facing: 180}
          - {id: h1, gang: h, bike: cruiser, position: [4, 12], facing: 0}
        """)
    found = problems_of(path)
    assert ("package_run.carriers.ghost", 5, "no model 'ghost' in the scene; its models: k1, h1") in found
    said = [message for key, line, message in found if key == "package_run.carriers" and line == 5]
    assert any("the carriers are of h and k: one gang runs the packages" in message for message in said)
    assert any("packages worth [1, 1, 2] VP; the rules data's are [1, 1, 3]" in message for message in said)
    assert any(key == "package_run.to" and line == 4 and "the south edge is a cliff" in message
               for key, line, message in found)


def test_EC_MISSION_PACKAGE_a_package_run_is_two_gangs_and_the_carriers_ride_across_the_table(tmp_path):
    """Clause: EC-MISSION-PACKAGE. "reach the enemy table edge": carriers set out on the half of
    the table its edge is on would deliver on their first move, and a third gang would score
    every dropped package too; both are refused with the key, the line and the fix."""
    path = write_scene(tmp_path, """\
        name: Wrong way
        mission: package_run
        package_run:
          to: west
          carriers: {k1: 3, k2: 1, k3: 1}
        table: {width: 24, depth: 24}
        gangs: {h: {name: H, colour: "#ff0000"}, k: {name: K, colour: "#00ff00"}, x: {name: X, colour: "#0000ff"}}
        models:
          - {id: k1, gang: k, bike: cruiser, position: [3, 6], facing: 180}
          - {id: k2, gang: k, bike: cruiser, position: [3, 12], facing: 180}
          - {id: k3, gang: k, bike: cruiser, position: [3, 18], facing: 180}
          - {id: h1, gang: h, bike: cruiser, position: [20, 12], facing: 0}
        """)
    found = problems_of(path)
    assert ("gangs", 7, "Package Run is played by two gangs, the runners and the defenders; this scene has 3 "
            "(EC-MISSION-PACKAGE)") in found
    assert any(key == "package_run.to" and line == 4 and "the carriers set out on the west half of the table "
               "(their mean at (3.0, 12.0))" in message for key, line, message in found)


def test_EC_MISSION_VIP_a_vip_takedown_set_up_wrong_is_refused_with_its_key_path_line_and_fix(tmp_path):
    """Clause: EC-MISSION-VIP. "Each player publicly declares a VIP": the set-up is checked against
    the scene: a VIP that is no model, one riding for another gang, a gang the scene lacks, a gang
    with no VIP."""
    path = write_scene(tmp_path, """\
        name: Bad VIPs
        mission: vip_takedown
        vip_takedown:
          vips: {k: h1, x: ghost}
        table: {width: 24, depth: 24}
        gangs: {h: {name: H, colour: "#ff0000"}, k: {name: K, colour: "#00ff00"}}
        models:
          - {id: k1, gang: k, bike: cruiser, position: [20, 12], facing: 180}
          - {id: h1, gang: h, bike: cruiser, position: [4, 12], facing: 0}
        """)
    found = problems_of(path)
    assert ("vip_takedown.vips.x", 4, "no model 'ghost' in the scene; its models: k1, h1") in found
    assert ("vip_takedown.vips.k", 4, "h1 rides for h, not k: a gang declares one of its own (EC-MISSION-VIP)") \
        in found
    assert ("vip_takedown.vips.x", 4, "no gang 'x' in the scene; its gangs: h, k (EC-MISSION-VIP)") in found
    assert any(key == "vip_takedown.vips" and line == 4 and "h declares no VIP: add `h: MODEL`" in message
               for key, line, message in found)


@pytest.mark.parametrize("mission,setup", [("package_run", "{to: west, carriers: {a: 1}}"),
                                           ("vip_takedown", "{vips: {a: b}}"),
                                           ("grab_n_go", "{items: [{id: p, at: [1, 1]}], exits: {a: west}}"),
                                           ("jailbreak", "{jail: j, openings: [[1, 1]]}"),
                                           ("rescue_survive", "{npcs: [{id: n, gang: h, at: [1, 1], to: [2, 2]}]}"),
                                           ("corners", "{zones: [{id: z, rect: [0, 0, 4, 4]}]}"),
                                           ("hoon_hour", "{checkpoints: [{id: a, at: [1, 1]}, {id: b, at: [5, 5]}]}")])
def test_EC_MISSION_PACKAGE_VIP_GRAB_JAIL_RESCUE_CORNERS_HOON_a_mission_and_its_set_up_come_together(
        tmp_path, mission, setup):
    """Clauses: EC-MISSION-PACKAGE, EC-MISSION-VIP, EC-MISSION-GRAB, EC-MISSION-JAIL,
    EC-MISSION-RESCUE, EC-MISSION-CORNERS, EC-MISSION-HOON. A mission with a set-up of its own
    (Package Run's carriers, VIP Takedown's VIPs, Grab n Go's packages and exits, the jail, the
    NPCs, the corners, the circuit) is refused without it, and the set-up without the mission,
    each with the key, the line and the fix."""
    missing = write_scene(tmp_path, f"name: No set-up\nmission: {mission}\n", "missing.yaml")
    assert any(key == "mission" and line == 2 and f"needs its set-up: add `{mission}:" in message
               for key, line, message in problems_of(missing))
    stray = write_scene(tmp_path, f"name: Stray\n{mission}: {setup}\n", "stray.yaml")
    assert any(key == mission and line == 2 and f"remove it or set `mission: {mission}`" in message
               for key, line, message in problems_of(stray))


def test_EC_MISSION_GRAB_a_grab_n_go_set_up_wrong_is_refused_with_its_key_path_line_and_fix(tmp_path):
    """Clause: EC-MISSION-GRAB. "3 packages at the centre of the board, terrain setup to prevent a
    straight line possible from deployment to the packages": two packages where the rules data
    has three, one off the table, one inside a building, one a rider has a straight line to from
    where it deploys; a gang with no exit edge. The bundled yard passes."""
    path = write_scene(tmp_path, """\
        name: Bad grab
        mission: grab_n_go
        grab_n_go:
          items: [{id: p1, at: [30, 12]}, {id: p2, at: [12, 12]}]
          exits: {h: west}
        table: {width: 24, depth: 24}
        buildings:
          - {id: shed, rect: [10, 10, 14, 14], storeys: 1}
        gangs: {h: {name: H, colour: "#ff0000"}, k: {name: K, colour: "#00ff00"}}
        models:
          - {id: h1, gang: h, bike: cruiser, position: [4, 4], facing: 0}
          - {id: k1, gang: k, bike: cruiser, position: [20, 20], facing: 180}
        """)
    found = problems_of(path)
    said = {key: message for key, _, message in found}
    assert all(line == 4 for key, line, _ in found if key.startswith("grab_n_go.items"))
    assert "2 packages; the rules data's are 3" in said["grab_n_go.items"]
    assert "(30, 12) is off the 24x24 inch table" in said["grab_n_go.items[0].at"]
    assert "p2 lies inside building 'shed'" in said["grab_n_go.items[1].at"]
    assert "k has no deployment edge: add `k: EDGE`" in said["grab_n_go.exits"]
    open_street = write_scene(tmp_path, """\
        name: Straight line
        mission: grab_n_go
        grab_n_go:
          items: [{id: p1, at: [12, 12]}, {id: p2, at: [12, 13]}, {id: p3, at: [12, 14]}]
          exits: {h: west, k: east}
        table: {width: 24, depth: 24}
        gangs: {h: {name: H, colour: "#ff0000"}, k: {name: K, colour: "#00ff00"}}
        models:
          - {id: h1, gang: h, bike: cruiser, position: [4, 12], facing: 0}
          - {id: k1, gang: k, bike: cruiser, position: [20, 12], facing: 180}
        """, "open.yaml")
    straight = [message for key, _, message in problems_of(open_street) if key == "grab_n_go.items[0].at"]
    assert straight == ["h1 has a straight line from where it deploys (4, 12) to p1: \"terrain setup to prevent a "
                        "straight line possible from deployment to the packages\" (EC-MISSION-GRAB): put a building "
                        "across it, or move the package"]
    yard = load_scene(Path(__file__).resolve().parents[1] / "data" / "grab_yard.yaml")
    assert [item.id for item in yard.initial_state().items] == ["package_1", "package_2", "package_3"]
