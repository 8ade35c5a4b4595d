"""The rules-data schema (entropy3d.systems.entropy_city.rulesdata): every key declared, unknown keys refused with
the key path and the fix, defaults in one place. No files here: mappings only."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from entropy3d.errors import RulesDataError
from entropy3d.systems.entropy_city.combat import attack_stress, attack_tn, check_kick, rider_dodge
from entropy3d.systems.entropy_city.rulesdata import BikeRules
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.speeds import difficult_ignored

RULES_FILE = Path(__file__).resolve().parents[3] / "rules" / "entropy_city.yaml"


@pytest.fixture()
def mapping():
    with open(RULES_FILE, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def refused(mapping) -> list[tuple[str, int | None, str]]:
    with pytest.raises(RulesDataError) as error:
        Ruleset.from_mapping(mapping, "rules.yaml")
    assert error.value.source == "rules.yaml"
    return error.value.problems


def test_a_misspelt_key_is_refused_with_its_path_and_the_fix(mapping):
    """Renaming bike_rules.trailbike.dodge_bonus must not silently take the trailbike's +1 away."""
    rules = mapping["bike_rules"]["trailbike"]
    rules["dodge_bonsu"] = rules.pop("dodge_bonus")
    [(path, line, message)] = refused(mapping)
    assert path == "bike_rules.trailbike.dodge_bonsu"
    assert line is None  # the engine knows no lines; the scene layer adds them
    assert "did you mean 'dodge_bonus'?" in message


def test_an_unknown_key_without_a_close_match_lists_the_allowed_keys(mapping):
    mapping["crash"]["head_on"]["xyz"] = 1
    [(path, _, message)] = refused(mapping)
    assert path == "crash.head_on.xyz"
    assert "tn_base" in message and "skip_next_activation" in message


def test_a_string_where_a_number_is_needed_is_refused(mapping):
    mapping["destructible"]["tn"] = "13"
    mapping["speeds"][2]["max"] = "twelve"
    problems = {path: message for path, _, message in refused(mapping)}
    assert set(problems) == {"destructible.tn", "speeds.2.max"}
    assert "'13'" in problems["destructible.tn"] and "without quotes" in problems["destructible.tn"]


def test_a_missing_key_and_a_bad_list_item_are_named(mapping):
    del mapping["chicken"]["near_miss_in"]
    mapping["actions"]["stoppie"]["speeds"][1] = "fast"
    problems = {path: message for path, _, message in refused(mapping)}
    assert problems["chicken.near_miss_in"] == "required key is missing"
    assert "actions.stoppie.speeds[1]" in problems


def test_bike_rules_for_an_unknown_bike_type_is_refused(mapping):
    mapping["bike_rules"]["trialbike"] = mapping["bike_rules"].pop("trailbike")
    [(path, _, message)] = refused(mapping)
    assert path == "bike_rules.trialbike" and "did you mean 'trailbike'?" in message


def test_an_option_default_must_be_one_of_its_choices(mapping):
    mapping["options"]["gun_tn"]["default"] = "lsited"
    [(path, _, message)] = refused(mapping)
    assert path == "options.gun_tn" and "'lsited'" in message and "listed" in message


def test_a_bike_type_without_bike_rules_has_the_schema_defaults(rules):
    """EC-BIKE-*: police have no bike_rules entry, so no special rules; the defaults are the
    schema's, the one place they live."""
    assert "police" not in rules.data("bike_rules")
    assert rules.bike_rules("police") == BikeRules()
    assert rules.bike_rules("police").dodge_bonus == 0 and rules.bike_rules("police").may_cross_dangerous


def test_EC_BIKE_TRAIL_and_CRUISER_modifiers_come_from_the_validated_data(rules, mapping):
    """Clauses EC-BIKE-TRAIL, EC-BIKE-CRUISER: the combat reads follow the data, not a default."""
    assert rider_dodge(1, "trailbike", rules) == 2 and rider_dodge(1, "police", rules) == 1
    assert attack_tn(14, rules, target_bike="trailbike") == 15
    assert attack_stress(1, "cruiser", 3, rules) == 2
    assert check_kick(1.0, 10.0, "cruiser", False, rules).tn == 16
    assert difficult_ignored("trailbike", rules) and not difficult_ignored("cruiser", rules)
    mapping["bike_rules"]["trailbike"]["dodge_bonus"] = 3
    assert rider_dodge(1, "trailbike", Ruleset.from_mapping(mapping)) == 4


def test_with_option_keeps_data_and_typed_spec_in_step(rules):
    other = rules.with_option("gun_tn", "formula")
    assert other.option("gun_tn")[0] == 15 and other.data("options.gun_tn.default") == "formula"
    assert other.spec.options.gun_tn.default == "formula" and rules.spec.options.gun_tn.default == "listed"


def test_new_data_keys_are_declared_with_their_values(rules):
    """The numbers moved out of code: present, typed, with the agreed names and values."""
    assert rules.data("chicken.near_miss_in") == 1.0
    assert rules.data("ride.step_height_in") == 0.2
    assert rules.data("ride.base_to_base_in") == 0.6
    assert rules.data("destructible.break_delta_v_mps_per_risk") == 16.0
    assert rules.data("missions") == {"turf_war": {"bust": -1, "taken_out": 1},
                                      "lovers_point_brawl": {"taken_out": 1, "escaped": 2},
                                      "package_run": {"packages": [1, 1, 3]},
                                      "vip_takedown": {"takedown": 1},
                                      "grab_n_go": {"packages": 3, "hold_actions": 2, "escape": 1},
                                      "jailbreak": {"centre_in": 8.0, "stop_within_in": 4.0, "npc_tn": 16,
                                                    "escape": 1, "opening_on_wall_in": 0.5},
                                      "rescue_survive": {"npcs_per_gang": 1, "corner_in": 16.0, "deliver_in": 2.0,
                                                         "deliver": 1, "deliver_rival": 2},
                                      "corners": {"score_every": 1, "hold": 1, "parked_count": False},
                                      "hoon_hour": {"checkpoint": 1, "finish": 3, "laps": 1, "radius_in": 3.0}}
    assert rules.data("law.edge_entry_in") == 2.0
    assert rules.data("rider_defaults") == {"wounds": 3, "dodge": 1, "strength": 1, "protection": 0}
    assert rules.spec.ride.step_height_in == 0.2 and rules.spec.missions.lovers_point_brawl.escaped == 2


def test_every_key_of_the_bundled_file_survives_validation(mapping, rules):
    """Nothing in the file is dropped on the way into the Ruleset (the schema declares it all)."""
    def leaves(node, prefix=""):
        if isinstance(node, dict) and node:
            for key, value in node.items():
                yield from leaves(value, f"{prefix}.{key}" if prefix else str(key))
        else:
            yield prefix, node

    for path, value in leaves(copy.deepcopy(mapping)):
        assert rules.data(path) == value, path
