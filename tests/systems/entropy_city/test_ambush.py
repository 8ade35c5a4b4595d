"""Ambush (EC-TRAIT-AMBUSH): a rider off the table, three tokens, a reveal, a TN 17 test, and a
failed test that gives the ambush control of the turn (entropy3d/systems/entropy_city/ambush.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.errors import IllegalPlanError, SceneError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.ambush import CONTROL, after_own_action, interrupting, spring, tokens
from entropy3d.systems.entropy_city.attacks import melee_setup
from entropy3d.systems.entropy_city.engine import EntropyCityEngine
from entropy3d.systems.entropy_city.state import RIDING, WAITING, ModelState, State
from entropy3d.systems.entropy_city.transition import Action

ROOT = Path(__file__).resolve().parents[3]
YARD = ROOT / "tests" / "data" / "ambush_yard.yaml"
SCRIPT = ROOT / "tests" / "systems" / "data" / "reached" / "ambush_sprung.yaml"


def yard(h1_at=(8.0, 12.0), reveal_on=(), ash_gang="hades") -> State:
    """Ash riding east at ``h1_at``; Viper in ambush, its true token (15, 12) facing west."""
    ash = ModelState("h1", ash_gang, "sportsbike", Pose(*h1_at, 0.0), 1, 0, 3, 10, actions_taken=1)
    viper = ModelState("k1", "komodo", "sportsbike", Pose(15, 12, 180.0), 1, 0, 3, 10, weapon="chain",
                       traits=(("ambush", None),), status=WAITING, decoys=((18.0, 20.0), (26.0, 6.0)),
                       reveal_on=tuple(reveal_on))
    return State(turn=1, mission="turf_war", models={"h1": ash, "k1": viper}, score={"hades": 0, "komodo": 0})


def test_EC_TRAIT_AMBUSH_the_scene_sets_the_ambusher_off_the_table_behind_three_tokens():
    """Clause: EC-TRAIT-AMBUSH. "a rider who is off the table ... you have 3 tokens only one of which
    is the real location": the yard's Viper (traits {ambush: null}, position (15, 14), decoys
    (18, 20) and (26, 6)) starts waiting, not in play; the engine gives it no activation in the
    turn's order, refuses one asked for by name (the command line's `activate -m k1`), and an
    enemy cannot attack it; its tokens read by x then y, (15, 14), (18, 20), (26, 6), so their order
    does not tell the true one."""
    from entropy3d.scene import load_scene

    table = load_scene(YARD)
    state = table.initial_state()
    viper = state.model("k1")
    assert (viper.status, viper.in_play, viper.pose.x, viper.pose.y) == (WAITING, False, 15, 14)
    assert tokens(viper) == [(15.0, 14.0), (18.0, 20.0), (26.0, 6.0)]
    engine = EntropyCityEngine(table.ruleset)
    assert engine.ready(state, "komodo") == ["k2"]
    with pytest.raises(IllegalPlanError) as refused:
        engine.check(state, Action.activate("k1"))
    assert refused.value.clause == "EC-TRAIT-AMBUSH"
    with pytest.raises(IllegalPlanError):
        engine.check(state.with_model(state.model("h1").but(attack_chance="along")),
                     Action.attack("h1", "k1", "chicken"))


def test_EC_TRAIT_AMBUSH_a_scene_ambusher_without_its_three_tokens_is_refused_with_the_fix(tmp_path):
    """Clause: EC-TRAIT-AMBUSH. One decoy where the rulebook gives 3 tokens (the true one and two
    more): the scene is refused naming the key and how many to give."""
    from entropy3d.scene import load_scene

    bad = tmp_path / "yard.yaml"
    bad.write_text(YARD.read_text().replace("decoys: [[18, 20], [26, 6]]", "decoys: [[18, 20]]"))
    with pytest.raises(SceneError) as refused:
        load_scene(bad)
    assert "1 decoys: an ambush has 3 tokens" in str(refused.value) and "give 2" in str(refused.value)


def test_EC_TRAIT_AMBUSH_passed_the_ambusher_comes_on_and_the_rider_rides_on(rules, dice):
    """Clause: EC-TRAIT-AMBUSH. Ash's ride ends at (8, 12), 7" from the true token (within 8):
    Viper is revealed; Ash tests at TN 17 with stress 0, pushing never: 9 + 9 = 18, passed. Viper
    stands on its token (15, 12) facing west, in play, with no activation at once; Ash keeps its
    second action (1 taken) and is not surprised."""
    state, [event] = spring(yard(), "h1", "never", dice([9, 9]), rules)
    viper, ash = state.model("k1"), state.model("h1")
    assert (viper.status, viper.pose.x, viper.pose.y, viper.pose.facing_deg) == (RIDING, 15, 12, 180)
    assert interrupting(state) == [] and (ash.actions_taken, ash.ambushed_by) == (1, None)
    assert (event.figures["surprised"], event.figures["distance_in"], event.clauses) == (False, 7.0,
                                                                                         ("EC-TRAIT-AMBUSH",))


def test_EC_TRAIT_AMBUSH_failed_the_ambush_takes_control_and_its_attacks_surprise(rules, dice):
    """Clause: EC-TRAIT-AMBUSH (and EC-MEL-2). The same reveal, Ash rolls 5 + 2 = 7 < 17: failed
    (no bust: "purely about the surprise"). Ash's activation is over (2 of 2 actions taken, no
    attack left); Viper comes on and is the model to activate at once; Ash, facing east with Viper
    in front of it at (11, 12), is still surprised by Viper's chain (the surprise stress 3 the
    rulebook gives an attack from behind, EC-MEL-2) and by no other rider; once Viper's activation
    at once has begun and ended the surprise is over."""
    state, [event] = spring(yard(), "h1", "never", dice([5, 2]), rules)
    ash = state.model("h1")
    assert (ash.actions_taken, ash.attack_chance, ash.ambushed_by) == (2, None, "k1")
    assert interrupting(state) == ["k1"] and event.figures["surprised"] is True
    close = state.with_model(state.model("k1").but(pose=Pose(11, 12, 180.0)))
    setup = melee_setup(close, "k1", "h1", "chain", "dodge", rules)
    assert (setup.surprise, setup.surprise_stress) == (True, 3)
    begun = after_own_action(close, "k1", "activate")
    assert CONTROL not in begun.model("k1").trait_marks and interrupting(begun) == []
    over = after_own_action(begun, "k1", "end")
    assert over.model("h1").ambushed_by is None
    assert melee_setup(over, "k1", "h1", "chain", "dodge", rules).surprise is False


def test_EC_TRAIT_AMBUSH_no_reveal_past_8_inches_on_a_friend_a_rider_it_waits_not_for_or_on_its_place(rules, dice):
    """Clause: EC-TRAIT-AMBUSH. "If a rider comes within 8 inches of the true token": Ash at (6, 12)
    is 9" away, nothing; a Komodo rider 7" away is no enemy, nothing; Viper's player waiting for
    h2 (`reveal_on: [h2]`) lets Ash by, nothing; Ash stopping 1" from the true token, its base over
    the place Viper's would take, keeps it from coming on there, nothing. No die is rolled in any."""
    for state in (yard(h1_at=(6.0, 12.0)), yard(ash_gang="komodo"), yard(reveal_on=("h2",)),
                  yard(h1_at=(14.0, 12.0))):
        assert spring(state, "h1", "never", dice([]), rules) == (state, [])


def test_EC_TRAIT_AMBUSH_the_scripted_game_ash_fails_and_viper_strikes_at_once(tmp_path):
    """Clause: EC-TRAIT-AMBUSH. The script tests/systems/data/reached/ambush_sprung.yaml on the
    ambush yard, seed 0, worked by hand: the roll-off puts Komodo first, so Jet (k2) rides 4" + 4"
    north; Viper waits and is not in the order (k2, h1). Ash rides 4" east to (8, 12), 7.3" from the
    true token (15, 14) (the square root of 7 * 7 + 2 * 2): Viper springs the ambush; Ash, pushing
    never, rolls 1 + 4 = 5 against TN 17 and fails. Ash's second plan is never ridden (its
    activation is over, 1 action recorded) and Viper activates at once, a third activation in a
    turn of two in the order: it rides 4" west to (11, 14), not yet beside Ash (EC-MEL-1), then 4"
    more to (7, 14), passing Ash 2" to its left; from (9, 14) on that ride, ahead of Ash's middle
    (not behind it), it strikes with its chain at TN 14 + 1 (Ash only moved, EC-MOVE-3) = 15, Ash
    surprised by the ambush all the same (+3 stress, dodge only); 8 + 8 = 16 hits, the chain's 2
    stress: Ash ends on 0 + 3 + 2 = 5 stress, no longer surprised once Viper's activation ends."""
    from entropy3d.game.session import play_game
    from entropy3d.video.ending import game_events

    replay = play_game(None, seed=0, producer="geometric", script=SCRIPT)
    assert [t.order for t in replay.turns] == [("k2", "h1")]
    assert [(a.model_id, len(a.actions)) for a in replay.activations] == [("k2", 2), ("h1", 1), ("k1", 2)]
    [sprung] = [e for e in game_events(replay) if e.figures.get("ambush") == "revealed"]
    assert (sprung.model, sprung.figures["rider"], sprung.figures["surprised"]) == ("k1", "h1", True)
    assert [r.dice for r in sprung.rolls] == [(1, 4)]
    [surprised] = [e for e in game_events(replay) if "EC-TRAIT-AMBUSH" in e.clauses and "EC-MEL-2" in e.clauses]
    assert surprised.model == "h1" and surprised.stress_change == 3
    ash = replay.end.state.model("h1")
    assert (ash.pose.x, ash.pose.y, ash.stress, ash.ambushed_by) == (8, 12, 5, None)
    from entropy3d.scene import load_scene
    from entropy3d.systems import find_system
    from entropy3d.systems.words import Names

    words = Names.of_table(load_scene(YARD))
    told = [find_system("entropy_city").sentence(e, words) for e in (sprung, surprised)]
    assert told == ["Viper springs an ambush on Ash: needs 17, rolls 5 - surprised: the ambush takes the turn",
                    "Ash is surprised by the ambush of Viper, +3 stress"]
    viper = replay.activations[2].actions[1]
    assert (viper.attack.kind, viper.attack.target, [viper.attack.from_pose.x, viper.attack.from_pose.y]) == (
        "chain", "h1", [9, 14])


def test_EC_TRAIT_AMBUSH_the_other_reading_two_activations_at_once_is_an_option_of_the_rules_data(dice):
    """Clause: EC-TRAIT-AMBUSH. "The ambush may use both of its activations": the rules data's
    `control_activations: 2` reads it as two activations back to back. After Ash fails (5 + 2),
    Viper is the model to activate at once; as its first begins it still holds the second; as
    that one begins it holds none; Ash stays surprised until the second ends, not the first."""
    import yaml

    from entropy3d.systems.entropy_city.ruleset import Ruleset
    from tests.systems.entropy_city.conftest import RULES_FILE

    data = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    data["traits"]["ambush"]["control_activations"] = 2
    two = Ruleset.from_mapping(data, str(RULES_FILE))
    state, _ = spring(yard(), "h1", "never", dice([5, 2]), two)
    first = after_own_action(state, "k1", "activate")
    assert interrupting(first) == ["k1"]
    first_over = after_own_action(first, "k1", "end")
    assert first_over.model("h1").ambushed_by == "k1"
    second = after_own_action(first_over, "k1", "activate")
    assert interrupting(second) == []
    assert after_own_action(second, "k1", "end").model("h1").ambushed_by is None


def test_EC_TRAIT_AMBUSH_the_riders_test_is_a_test_like_any_other_stunned_and_stress(rules, dice):
    """Clauses: EC-TRAIT-AMBUSH, EC-COND-STUN, EC-DICE-3. The ambush's TN 17 test is a rider's test
    like a pickup's: a stunned Ash tests at 17 + 3 = 20 (conditions.stun.tn_mod), so 9 + 9 = 18 no
    longer passes and Ash is surprised (it passed at 17); and a pass takes what any pass takes: Ash
    on 10 stress (its maximum) rolling the natural crit 10 + 1 passes whatever the TN and loses
    ``crit_stress_reduction`` (3 by default) stress, 10 -> 7, and being stunned with it (the ambush
    kept 10 and the stun: found by a review of the merged branch)."""
    stunned = yard().with_model(yard().model("h1").but(conditions=("stunned",)))
    state, [event] = spring(stunned, "h1", "never", dice([9, 9]), rules)
    assert event.rolls[0].tn == 20 and event.figures["surprised"] is True
    assert state.model("h1").ambushed_by == "k1"

    at_the_top = yard().with_model(yard().model("h1").but(stress=10, conditions=("stunned",)))
    state, [event] = spring(at_the_top, "h1", "never", dice([10, 1]), rules)
    ash = state.model("h1")
    assert event.figures["surprised"] is False
    assert (ash.stress, ash.conditions) == (10 - int(rules.option("crit_stress_reduction")), ())
    assert int(rules.option("crit_stress_reduction")) == 3
