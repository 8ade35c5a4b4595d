"""Models on foot in the rules engine (rules data ``on_foot:``): their base and height, their walk
(EC-FOOT-MOVE), their place in the activation order (EC-TURN-2), the sniper rifle (EC-GUN-2),
their shots and the attacks they make and take (EC-GUN-1, EC-MEL-1, EC-MEL-CHICKEN)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from entropy3d.core.facts import Sight
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.ruleset import ON_FOOT, Ruleset
from entropy3d.systems.entropy_city.speeds import Activator, activation_order
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from entropy3d.systems.entropy_city.walking import plan_walk
from entropy3d.systems.entropy_city.wrecks import place_wrecks
from tests.systems.entropy_city.test_attacks import armed


def model(model_id, gang, pose, bike_type="police", **changes) -> ModelState:
    fields = dict(id=model_id, gang=gang, bike_type=bike_type, pose=pose, speed=0 if bike_type == ON_FOOT else 2,
                  stress=0, wounds=3, max_stress=10, dodge=1)
    fields.update(changes)
    return ModelState(**fields)


def game(*models) -> State:
    return State(2, "turf_war", {m.id: m for m in models}, {}, {"komodo": 0, "hades": 0})


class SeeingTable:
    """A fake table: every sight line shows ``sight``; walks meet nothing."""

    def __init__(self, sight: Sight | None = None):
        self._sight = sight

    def sight(self, state, viewer, target, viewer_pose):
        return self._sight

    def edge_crossed(self, path):
        return None

    def walk_met(self, path, level, clearance):
        return None


class WalledTable(SeeingTable):
    """A fake table with a wall at x >= ``wall_x`` and a roof edge at y >= ``edge_y``."""

    def __init__(self, wall_x: float, edge_y: float):
        super().__init__()
        self.wall_x, self.edge_y = wall_x, edge_y

    def walk_met(self, path, level, clearance):
        along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])
        into = np.flatnonzero(path[:, 0] + clearance >= self.wall_x)
        off = np.flatnonzero(path[:, 1] >= self.edge_y)
        met = [(float(along[into[0]]), "office", "wall")] if len(into) else []
        met += [(float(along[off[0]]), "roof", "drop")] if len(off) else []
        if not met:
            return None
        at, piece, kind = min(met)
        return piece, kind, at


def test_on_foot_rules_data_a_25mm_round_base_and_a_31mm_figure(rules):
    """Rules data on_foot: (DECISIONs citing "On Foot"): a 25 mm round base, a figure 31 mm tall
    (1.75 m depicted at 1.42 m per inch), and a walk of 4" (option on_foot_move_in, slow)."""
    base = rules.base_for(ON_FOOT)
    assert base.is_round and math.isclose(base.length, 25 / 25.4)
    assert math.isclose(rules.figure_height_in, 31 / 25.4)
    assert rules.walk_in == 4.0
    assert rules.with_option("on_foot_move_in", "skirmish").walk_in == 6.0


def test_a_bike_type_may_not_be_named_on_foot(rules):
    """The name ``on_foot`` is the bike type of a model on foot; rules data giving a bike that
    name is refused, naming the key path."""
    from entropy3d.errors import RulesDataError

    data = rules.spec.model_dump(by_alias=True)
    data["bike_types"][ON_FOOT] = data["bike_types"]["police"]
    with pytest.raises(RulesDataError, match=f"bike_types.{ON_FOOT}"):
        Ruleset.from_mapping(data)


def test_EC_TURN_2_models_on_foot_activate_after_every_bike(rules):
    """Clause: EC-TURN-2. Speed 3, 2, 1, stopped bikes, then models on foot; players keep
    alternating into the band of models on foot."""
    models = [Activator("a_foot", "A", 0, on_foot=True), Activator("b_foot", "B", 0, on_foot=True),
              Activator("a1", "A", 1), Activator("b_stopped", "B", 0), Activator("b3", "B", 3),
              Activator("a_foot2", "A", 0, on_foot=True)]
    assert activation_order(models, "A", rules) == ["b3", "a1", "b_stopped", "a_foot", "b_foot", "a_foot2"]
    assert activation_order(models, "B", rules) == ["b3", "a1", "b_stopped", "a_foot", "b_foot", "a_foot2"]
    no_stop = [m for m in models if m.id != "b_stopped"]
    assert activation_order(no_stop, "A", rules)[2:] == ["b_foot", "a_foot", "a_foot2"]


def test_EC_FOOT_MOVE_a_walk_is_straights_and_pivots_within_its_move(rules):
    """Clause: EC-FOOT-MOVE (rules data on_foot:, "Moving slow"). A walk of 4" with pivots where
    it stands is legal and costs nothing; 5" is too far (6" walks are the skirmish option); no
    templates, no weaves; a model on foot has no speed and a bike does not walk."""
    start = Pose(10, 10, 0)
    move = plan_walk("walk: pivot left 90, straight 3, pivot right 90, straight 1", start, True, rules)
    assert (move.stress, move.tests, move.length_in, move.speed) == (0, (), 4.0, 0)
    assert np.allclose(move.end_pose.xy, (11, 13)) and math.isclose(move.end_pose.facing_deg, 0.0)
    assert move.attacks_allowed == 1
    with pytest.raises(IllegalPlanError, match="EC-FOOT-MOVE.*|too far"):
        plan_walk("walk: straight 5", start, True, rules)
    assert plan_walk("walk: straight 5", start, True, rules.with_option("on_foot_move_in", "skirmish")).length_in == 5
    for plan in ("walk: left tight 3", "walk: straight 2, weave left"):
        with pytest.raises(IllegalPlanError, match="no templates or weaves"):
            plan_walk(plan, start, True, rules)
    with pytest.raises(IllegalPlanError, match="has no speed"):
        plan_walk("s1: straight 4", start, True, rules)
    with pytest.raises(IllegalPlanError, match="only a model on foot walks"):
        plan_walk("walk: straight 2", start, False, rules)


def test_EC_FOOT_MOVE_the_one_path_walks_a_model_on_foot_and_refuses_rides(rules):
    """Clause: EC-FOOT-MOVE, EC-ACT-GUNGHO. check() walks a model on foot; a bike's plan for it
    (gung-ho, a jump, a speed) and a walk for a bike are refused with the clause."""
    state = game(model("f1", "hades", Pose(10, 10, 0, 6.3), ON_FOOT), model("k1", "komodo", Pose(20, 10, 180)))
    checked = check(state, Action.ride("f1", "walk: straight 3"), rules, SeeingTable())
    after, events = resolve(state, checked, None, np.random.default_rng(0), rules)
    assert after.model("f1").pose == state.model("f1").pose  # no facts: nothing walked
    for plan in ("gungho s1: straight 16", "jump s2: straight 9", "s1: straight 4"):
        with pytest.raises(IllegalPlanError) as refused:
            check(state, Action.ride("f1", plan), rules, SeeingTable())
        assert refused.value.clause == "EC-FOOT-MOVE"
    with pytest.raises(IllegalPlanError, match="EC-FOOT-ACT"):
        check(state, Action.ride("f1", "laytrap walk: straight 1"), rules, SeeingTable())
    with pytest.raises(IllegalPlanError, match="only a model on foot walks"):
        check(state, Action.ride("k1", "walk: straight 2"), rules, SeeingTable())


def test_EC_FOOT_MOVE_EC_TER_BUILDING_a_walk_stays_on_its_level(rules):
    """Clause: EC-FOOT-MOVE, EC-TER-BUILDING. A walk into a wall is refused (it walks around it),
    and so is one off the edge of its roof (a model on foot neither jumps nor climbs)."""
    state = game(model("f1", "hades", Pose(10, 10, 0, 6.3), ON_FOOT), model("k1", "komodo", Pose(30, 10, 180)))
    table = WalledTable(wall_x=13.0, edge_y=12.5)
    with pytest.raises(IllegalPlanError, match="EC-TER-BUILDING"):
        check(state, Action.ride("f1", "walk: straight 3"), rules, table)
    with pytest.raises(IllegalPlanError, match="steps off the edge of 'roof'"):
        check(state, Action.ride("f1", "walk: pivot left 90, straight 3"), rules, table)
    assert check(state, Action.ride("f1", "walk: pivot left 90, straight 2"), rules, table).move.length_in == 2


def test_EC_GUN_2_a_sniper_rifle_is_for_models_on_foot_only_and_has_no_range_limit(rules, dice):
    """Clause: EC-GUN-2 ("Sniper: On foot only ... Unlimited range."), EC-GUN-1. A rider on a bike
    may not shoot it; a model on foot hits at 60" (past every other gun's range) at TN 16 (speed 0
    on the listed gun TNs); 17 against a dodge of 7+8+1 = 16 hits for 2 wounds, one round spent;
    against 5+6+1 = 12 it beats the dodge by 3 or more: a headshot (DECISION: the pistol's margin)."""
    sniper = model("f1", "hades", Pose(0, 0, 0, 6.3), ON_FOOT, gun="sniper_rifle", ammo=5)
    target = model("k1", "komodo", Pose(60, 0, 180))
    state = game(sniper, target)
    seen = SeeingTable(Sight(1.0, True, 60.0))
    shot = Action.attack("f1", "k1", "sniper_rifle", "never", "never")
    after, events = resolve(state, check(armed(state, "f1"), shot, rules, seen), None, dice([9, 8, 7, 8]), rules)
    assert events[0].figures["tn"] == 16
    assert after.model("k1").wounds == 1 and after.model("f1").ammo == 4
    headshot, _ = resolve(state, check(armed(state, "f1"), shot, rules, seen), None, dice([9, 8, 5, 6]), rules)
    assert headshot.model("k1").status == "out"
    biker = game(model("f1", "hades", Pose(0, 0, 0), "cruiser", gun="sniper_rifle", ammo=5), target)
    with pytest.raises(IllegalPlanError, match="EC-GUN-2.*|for models on foot only"):
        check(armed(biker, "f1"), shot, rules, seen)


def test_EC_GUN_1_EC_COVER_1_a_model_on_foot_is_shot_like_a_rider(rules, dice):
    """Clause: EC-GUN-1, EC-COVER-1. A rider at speed 2 shoots a model on foot at TN 18; the
    target must be a quarter visible and its body (not only its head) seen; 18 against a dodge of
    8+8+1 = 17 is a pistol hit, 1 wound; a headshot takes it out, and it leaves no wreck."""
    shooter = model("k1", "komodo", Pose(0, 0, 0), "cruiser", gun="pistol", ammo=10)
    state = game(shooter, model("f1", "hades", Pose(10, 0, 180), ON_FOOT))
    shot = Action.attack("k1", "f1", "pistol", "never", "never")
    with pytest.raises(IllegalPlanError, match="EC-COVER-1"):
        check(armed(state, "k1"), shot, rules, SeeingTable(Sight(0.6, False, 10.0)))
    after, events = resolve(state, check(armed(state, "k1"), shot, rules, SeeingTable(Sight(0.6, True, 10.0))), None,
                            dice([9, 9, 8, 8]), rules)
    assert events[0].figures["tn"] == 18 and after.model("f1").wounds == 2
    out, events = resolve(state, check(armed(state, "k1"), shot, rules, SeeingTable(Sight(0.6, True, 10.0))), None,
                          dice([9, 9, 2, 3]), rules)
    out, events = place_wrecks(state, out, rules)  # the opponent's placing, once the shot is resolved
    assert out.model("f1").status == "out" and not out.wrecks  # DECISION: no bike, no wreck (EC-WOUND)
    [wreck] = [e for e in events if e.kind == "wreck"]
    assert "no wreck" in wreck.rules and wreck.figures == {"no_wreck": "on_foot"}


def test_EC_MEL_1_a_model_on_foot_strikes_and_is_struck_but_plays_no_chicken(rules, dice):
    """Clause: EC-MEL-1, EC-WPN, EC-MEL-CHICKEN. A model on foot base to base beside a bike
    stabs with its dagger (TN 14, a wound and bleeding); a rider's chain reaches it when half of
    the figure's base is beside the bike (DECISION: half a bike's base never fits); a game of
    chicken, "a deliberate near miss on the enemy bike", needs two bikes."""
    walker = model("f1", "hades", Pose(10, 10 + 0.5 * 42 / 25.4 + 0.5 * 25 / 25.4 + 0.02, 0), ON_FOOT,
                   weapon="dagger")
    rider = model("k1", "komodo", Pose(10, 10, 0), "police", weapon="chain")
    state = game(walker, rider)
    stab = Action.attack("f1", "k1", "dagger", "never", "never")
    after, events = resolve(state, check(armed(state, "f1"), stab, rules), None, dice([9, 8, 2, 2]), rules)
    assert events[0].figures["tn"] == 14
    assert after.model("k1").wounds == 2 and "bleeding" in after.model("k1").conditions
    lash = Action.attack("k1", "f1", "chain", "never", "never")
    struck, _ = resolve(state, check(armed(state, "k1"), lash, rules), None, dice([9, 8, 2, 2]), rules)
    assert struck.model("f1").stress == 2
    behind = state.with_model(walker.but(pose=Pose(10 - 0.5 * 75 / 25.4 - 0.1, walker.pose.y, 0)))
    with pytest.raises(IllegalPlanError, match="40% of the base is beside"):
        check(armed(behind, "k1"), Action.attack("k1", "f1", "chain"), rules)  # DECISION: half the figure's base beside
    for attacker, target in (("f1", "k1"), ("k1", "f1")):
        with pytest.raises(IllegalPlanError, match="on foot: chicken"):
            check(armed(state, attacker), Action.attack(attacker, target, "chicken"), rules)
