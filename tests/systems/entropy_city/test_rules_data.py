"""The rules data the engine reads: dotted access, conflict options, clear errors."""

from __future__ import annotations

import pytest

from entropy3d.errors import RulesDataError


def test_data_reads_dotted_paths_with_integer_keys(rules):
    assert rules.data("turn_templates.stress.3.wide") == {"instant": 0, "on_fail": 2}
    assert rules.data("dice.bust_over") == 21


def test_missing_data_names_the_key_path(rules):
    with pytest.raises(RulesDataError) as err:
        rules.data("dice.no_such_key")
    assert "dice.no_such_key" in str(err.value)


def test_EC_DICE_3_options_default_and_alternative(rules):
    """Clause: EC-DICE-3. The crit reduction conflict is an option with a default."""
    assert rules.option("crit_stress_reduction") == 3
    assert rules.with_option("crit_stress_reduction", "stress_section").option("crit_stress_reduction") == 2
    assert rules.option("crit_stress_reduction") == 3  # the original is unchanged


def test_unknown_option_choice_is_a_clear_error(rules):
    with pytest.raises(RulesDataError) as err:
        rules.with_option("gun_tn", "made_up").option("gun_tn")
    assert "options.gun_tn" in str(err.value) and "listed" in str(err.value)
