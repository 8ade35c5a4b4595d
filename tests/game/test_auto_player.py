"""The automatic player's judgement (no rules decided here): attacks weighed by their exact odds
with the push that busts it least for what it gains, passes beside a rival that are no collision,
and ways out when every ordinary plan meets a wall."""

from __future__ import annotations

import numpy as np

from entropy3d.game.action_view import ActionView
from entropy3d.game.candidates import escape_plans
from entropy3d.game.players import AttackOption, AutoPlayer, _runs_into
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.attack_odds import shot_odds
from entropy3d.systems.entropy_city.state import ModelState, State
from tests.systems.entropy_city.conftest import load_rules


def _rider(model_id, gang, pose, **changes) -> ModelState:
    fields = dict(id=model_id, gang=gang, bike_type="sportsbike", pose=pose, speed=2, stress=0, wounds=3,
                  max_stress=10, dodge=1)
    return ModelState(**{**fields, **changes})


def _state(*models) -> State:
    return State(2, "turf_war", {m.id: m for m in models}, {}, {"komodo": 0, "hades": 0})


def test_a_reckless_shooter_takes_the_push_that_does_not_bust_it_for_a_long_shot():
    """At speed 3 a pistol needs TN 19 (+1 for a target only moving): pushing to the TN busts a
    third of the time, which costs a wound; the player takes the shot with a careful push, or
    not at all, never with its own reckless one."""
    rules = load_rules()
    state = _state(_rider("k1", "komodo", Pose(10, 10, 0), gun="pistol", ammo=5, speed=3, stress=4),
                   _rider("h1", "hades", Pose(20, 10, 0), only_moved=True))
    player = AutoPlayer(np.random.default_rng(0), rules, daring=1.5)
    assert player.push == "sit-at-tn"
    odds = shot_odds(state, "k1", "h1", "pistol", rules, push=player.push)
    assert odds.attacker_bust > 0.3
    option = AttackOption("pistol", "h1", odds.tn, None, odds)
    choice = player.choose_attack(ActionView(state, state.model("k1"), 0, None, rules), [option])
    assert choice is None or choice.push in ("never", "risk-aware")
    if choice is not None:
        assert choice.odds.attacker_bust < odds.attacker_bust


def test_passing_beside_a_rival_is_no_collision_but_riding_through_it_is():
    """A base passing a rival 2.2" to its side (a chain's strike, EC-MEL-1) does not run into
    it; a path through its centre, or one whose nose stops 0.2" short of its tail, does."""
    rules = load_rules()
    rival = _rider("h1", "hades", Pose(10, 10, 0))
    own = rules.base_for("sportsbike")
    beside = np.column_stack([np.linspace(4, 16, 25), np.full(25, 12.2)])
    through = np.column_stack([np.linspace(4, 16, 25), np.full(25, 10.0)])
    nose_at_its_tail = np.array([[10 - 0.5 * 75 / 25.4 - 0.2, 10.0]])  # the player adds the stopping nose
    assert not _runs_into(beside, own, rival, rules)
    assert _runs_into(through, own, rival, rules) and _runs_into(nose_at_its_tail, own, rival, rules)


def test_a_path_runs_into_a_rival_exactly_where_its_grown_ellipse_says():
    """The quick refusal of points far from a rival (their box beyond the ellipse's longer half
    axis) never refuses a point the ellipse holds: single points around a turned rival, inside
    its grown ellipse, near its edge and out to two and a half times as far (where the box
    refuses them), give the ellipse's own answer."""
    rules = load_rules()
    rival = _rider("h1", "hades", Pose(10, 10, 33.0))
    own = rules.base_for("sportsbike")
    theirs = rules.base_for(rival.bike_type)
    along, across = 0.5 * theirs.length + 0.5 * own.width + 0.3, 0.5 * theirs.width + 0.5 * own.width + 0.3
    rng = np.random.default_rng(4)
    angles = rng.uniform(0.0, 2 * np.pi, 400)
    scale = np.concatenate([rng.uniform(0.9, 1.1, 200), rng.uniform(0.5, 2.5, 200)])
    local = np.column_stack([along * scale * np.cos(angles), across * scale * np.sin(angles)])
    points = rival.pose.to_table(local)
    inside = 0
    for point in points:
        moved = rival.pose.to_local(point[None, :])
        want = bool((moved[:, 0] / along) ** 2 + (moved[:, 1] / across) ** 2 < 1.0)
        assert _runs_into(point[None, :], own, rival, rules) == want
        inside += want
    assert 100 < inside < 250


def test_the_melee_checks_a_player_keeps_give_the_rules_answer_and_follow_the_rival():
    """A chain rider weighing a 3" ride past a rival (EC-MEL-1: 2" reach, half its base beside)
    gets the points a fresh player gets, from the checks it keeps (``_melee_check``, by both
    poses); once the rival has moved 2" further off the path (still near enough for the same
    points of the path to be checked, out of reach now) the same player's kept checks give what a
    fresh player's do: no strike."""
    rules = load_rules()
    rider = _rider("k1", "komodo", Pose(10, 10, 0), weapon="chain")
    within, beyond = _rider("h1", "hades", Pose(11.5, 12.5, 0)), _rider("h1", "hades", Pose(11.5, 14.5, 0))
    player = AutoPlayer(np.random.default_rng(0), rules)

    def chances(who: AutoPlayer, rival: ModelState) -> float:
        state = _state(rider, rival)
        view = ActionView(state, state.model("k1"), 0, None, rules)
        return who._attack_chances(view, [state.model("h1")], view.check("s1: straight 3", table=False))

    reached = chances(player, within)
    assert reached >= 14.0 and reached == chances(AutoPlayer(np.random.default_rng(0), rules), within)
    assert player._reach  # the checks it kept
    assert chances(player, beyond) == 0.0 == chances(AutoPlayer(np.random.default_rng(0), rules), beyond)

def test_escapes_are_u_turns_and_stoppie_pivots_the_rules_accept():
    """A cornered rider looks at chicanes of two templates the same way and stoppie pivots; the
    rules accept some of them for a sportsbike at speed 1."""
    rules = load_rules()
    state = _state(_rider("k1", "komodo", Pose(10, 10, 0), speed=1), _rider("h1", "hades", Pose(40, 40, 0)))
    view = ActionView(state, state.model("k1"), 0, None, rules)
    plans = escape_plans(view)
    assert any(p.startswith("chicane") for p in plans) and any(p.startswith("stoppie") for p in plans)
    legal = [p for p in plans if _legal(view, p)]
    assert any(p.startswith("chicane s1: left tight 3") for p in legal)
    assert any("pivot left 180" in p for p in legal)


def _legal(view, plan) -> bool:
    try:
        view.check(plan, table=False)
    except Exception:
        return False
    return True


def test_EC_MISSION_PACKAGE_a_carrier_rides_off_its_edge_and_keeps_off_the_others():
    """Clause: EC-MISSION-PACKAGE. On the package yard (tests/data/package_yard.yaml, the west
    edge to deliver to), the automatic carrier 4" from the west edge and facing it rides off it
    (before it knew the mission, riding off any edge cost it 60 points and it never did); the one
    4" from the east edge and facing it keeps its package on the table. The rules check both."""
    import dataclasses

    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.transition import Action, check
    from tests.systems.entropy_city.test_missions import PACKAGE_YARD

    table = load_scene(PACKAGE_YARD)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    for seed in range(3):
        player = AutoPlayer(np.random.default_rng(seed), table.ruleset)
        ridden = {}
        for carrier in ("k_fast", "k_lost"):
            plan = player.choose_plan(ActionView(state, state.model(carrier), 0, probe, table.ruleset))
            move = check(state, Action.ride(carrier, plan), table.ruleset, probe).move
            ridden[carrier] = probe.edge_crossed(move.path)
        assert ridden["k_fast"] == ("west", "open"), (seed, ridden)
        assert ridden["k_lost"] is None, (seed, ridden)


def test_EC_MISSION_PACKAGE_a_defender_rides_at_the_carrier_not_the_nearer_rider():
    """Clause: EC-MISSION-PACKAGE. On the package yard a defender facing north, a Komodo rider 5"
    to its east and another 13" to its north-west: when the far one carries a package the
    defender's move ends nearer it than when neither carries (then it rides at the nearer)."""
    import dataclasses

    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.transition import Action, check
    from tests.systems.entropy_city.test_missions import PACKAGE_YARD

    table = load_scene(PACKAGE_YARD)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    start = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    defender = start.model("h1").but(pose=Pose(12, 6, 0, 90))
    near = start.model("k_lost").but(pose=Pose(17, 8, 0, 180), package=0, package_to=None)
    far = start.model("k_slow").but(pose=Pose(6, 18, 0, 0))
    carrying = dataclasses.replace(start, models={m.id: m for m in (defender, near, far)})
    plain = dataclasses.replace(carrying, models={**carrying.models, "k_slow": far.but(package=0, package_to=None)})
    for seed in range(3):
        ends = []
        for state in (carrying, plain):
            player = AutoPlayer(np.random.default_rng(seed), table.ruleset)
            plan = player.choose_plan(ActionView(state, state.model("h1"), 0, probe, table.ruleset))
            end = check(state, Action.ride("h1", plan), table.ruleset, probe).move.end_pose
            ends.append(float(np.hypot(end.x - far.pose.x, end.y - far.pose.y)))
        assert ends[0] < ends[1] - 1.0, (seed, ends)


def test_EC_MISSION_GRAB_riders_go_for_the_packages_and_holders_home_once_held_long_enough():
    """Clause: EC-MISSION-GRAB. On the Grab yard (tests/data/grab_yard.yaml), Ash round the west
    shed at (6, 21) facing east, package_2 9" ahead: the automatic player's move comes within
    pickup reach of it (before it knew the mission it rode at Viper, or anywhere). Holding a
    package 4" from its own west edge and facing it, Ash rides off once it has held it 2 complete
    actions, and keeps it on the table after 1 (off too soon, it is lost)."""
    import dataclasses

    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.probe import SceneProbe
    from entropy3d.systems.entropy_city.items import item_met
    from entropy3d.systems.entropy_city.state import Item
    from entropy3d.systems.entropy_city.transition import Action, check
    from tests.systems.entropy_city.test_grab import YARD

    table = load_scene(YARD)
    geometry = build_table_geometry(table)
    probe = SceneProbe.from_table(table, geometry)
    start = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    rounding = start.with_model(start.model("h1").but(pose=Pose(6, 21, 0)))
    home = start.with_model(start.model("h1").but(pose=Pose(4, 5, 180)))
    for seed in range(3):
        player = AutoPlayer(np.random.default_rng(seed), table.ruleset)
        plan = player.choose_plan(ActionView(rounding, rounding.model("h1"), 0, probe, table.ruleset))
        move = check(rounding, Action.ride("h1", plan), table.ruleset, probe).move
        assert item_met(rounding, rounding.model("h1"), move.path, table.ruleset) is not None, (seed, plan)
        for held, off in ((2, ("west", "open")), (1, None)):
            state = home.with_item(Item("package_2", 4, 5, carrier="h1", held=held))
            plan = player.choose_plan(ActionView(state, state.model("h1"), 0, probe, table.ruleset))
            move = check(state, Action.ride("h1", plan), table.ruleset, probe).move
            assert probe.edge_crossed(move.path) == off, (seed, held, plan)


def test_EC_LAW_a_police_rider_takes_the_long_shot_at_its_npc_push_where_a_gang_rider_would_not():
    """Clause: EC-LAW. The same long pistol shot (TN 19 at speed 3, stress 4): the Law's player
    (demo_players seats the rules data's law.gang with the npc push) takes it, pushing to its NPC
    minimum (rules data `npc:`: it sits on 15, short of the TN), never a careful push; it "attacks
    both all parties" whatever the shot is worth: under one in four to hit."""
    from entropy3d.game.players import demo_players

    rules = load_rules()
    state = _state(_rider("law_1", "law", Pose(10, 10, 0), gun="pistol", ammo=5, speed=3, stress=4, law=True),
                   _rider("h1", "hades", Pose(20, 10, 0), only_moved=True))
    police = demo_players(["hades", "komodo", "law"], rules, np.random.SeedSequence(0))["law"]
    assert police.push == "npc"
    odds = shot_odds(state, "law_1", "h1", "pistol", rules, push=police.push)
    assert odds.hit < 0.25
    option = AttackOption("pistol", "h1", odds.tn, None, odds)
    choice = police.choose_attack(ActionView(state, state.model("law_1"), 0, None, rules), [option])
    assert choice is not None and choice.target == "h1" and choice.push is None  # its own push: npc
