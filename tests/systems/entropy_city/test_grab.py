"""Grab n Go (entropy_city/grab.py, EC-MISSION-GRAB) and its two actions, Pickup Item and Pass an item
(entropy_city/items.py, EC-ACT-PICKUP, EC-ACT-PASS): the packages on the table, the pickup a ride
attempts, the pass in lieu of an attack, the holder who may not attack, the count of complete
actions, the escape over the holder's own edge and the drop of a holder taken out."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.attack_chances import ALONG_THE_MOVE
from entropy3d.systems.entropy_city.grab import carry_items, grab_set_up_problems
from entropy3d.systems.entropy_city.items import PASS, pick_up
from entropy3d.systems.entropy_city.ruleset import ON_FOOT
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, Item, ModelState, State
from entropy3d.systems.entropy_city.transition import Action, check, resolve
from entropy3d.systems.words import Names

GANG_OF = {"h1": "hades", "h2": "hades", "k1": "komodo", "f1": "komodo"}
NAMES = Names(riders={"h1": "Ash", "h2": "Brakes", "k1": "Viper", "f1": "Hawk"},
              gangs={"hades": "Hades MC", "komodo": "Komodo"}, gang_of=GANG_OF)
YARD = Path(__file__).resolve().parents[2] / "data" / "grab_yard.yaml"


def rider(model_id: str, x: float, y: float, facing: float = 0.0, **changes) -> ModelState:
    bike = ON_FOOT if model_id == "f1" else "sportsbike"
    return ModelState(model_id, GANG_OF[model_id], bike, Pose(x, y, facing, 0.0), 1, 0, 3, 10).but(**changes)


def table(*models: ModelState, items: tuple[Item, ...] = (Item("package_1", 8.0, 11.5),)) -> State:
    return State(turn=2, mission="grab_n_go", models={m.id: m for m in models}, score={"hades": 0, "komodo": 0},
                 items=items, exits={"hades": "west", "komodo": "east"})


def ride_east(y: float = 10.0, x0: float = 2.0, x1: float = 12.0) -> np.ndarray:
    """A ridden trajectory (t, x, y, z, heading) straight east along ``y``, rows half an inch apart."""
    xs = np.arange(x0, x1 + 1e-9, 0.5)
    return np.column_stack([0.1 * np.arange(len(xs)), xs, np.full_like(xs, y), np.zeros_like(xs), np.zeros_like(xs)])


# -- Pickup Item (EC-ACT-PICKUP) ----------------------------------------------------------------


def test_EC_ACT_PICKUP_a_ride_within_1_inch_of_an_item_tries_for_it_and_holds_it_on_a_pass(rules, dice):
    """Clause: EC-ACT-PICKUP. "When driving within 1 inch of an item you attempt to pick it up,
    you may not attack this turn. Add 1 stress." Ash rides east along y 10; package_1 lies at
    (8, 11.5): 1.5" from the path's centre line, 0.67" from the sportsbike base's side (half
    width 0.83"): within 1". No other bike near: TN 14 (rules data actions.pickup.tn). Dice 8+5,
    +1 stress (the pickup's own, taken first) = 14: passed. Ash holds it, stress 1, no attack
    left in this action; the event is timed where the path first came within reach (x 7.0)."""
    start = table(rider("h1", 12.0, 10.0, attack_chance=ALONG_THE_MOVE, only_moved=True), rider("k1", 40, 40))
    state, said = pick_up(start, "h1", ride_east(), "never", dice([8, 5]), rules)
    assert state.item_held_by("h1") == Item("package_1", 12.0, 10.0, carrier="h1", held=0)
    assert state.model("h1").stress == 1 and state.model("h1").attack_chance is None
    assert not state.model("h1").only_moved  # a pickup is more than moving (EC-MOVE-3)
    [event] = said
    assert (event.kind, event.figures["did"], event.figures["tn"], event.rolls[0].total) == \
        ("item", "picked up", 14, 14)
    assert event.t_s == pytest.approx(1.0) and event.figures["at"] == [7.0, 10.0]
    assert find_system("entropy_city").sentence(event, NAMES) == "Ash picks up package 1: needs 14, rolls 14, +1 stress"


def test_EC_ACT_PICKUP_each_bike_within_3_inches_adds_1_to_the_TN_and_a_failure_leaves_the_item(rules, dice):
    """Clause: EC-ACT-PICKUP. "Add 1 to TN for each bike within 3 inches": Viper's base is 1.85"
    from Ash's where Ash reaches the package (+1); Hawk on foot beside it is no bike, Brakes 30"
    away is too far: TN 15. The same 8+5+1 = 14 now fails: the package stays where it lies, Ash
    keeps the stress and still has no attack."""
    start = table(rider("h1", 12.0, 10.0, attack_chance=ALONG_THE_MOVE), rider("k1", 7.0, 13.5),
                  rider("f1", 7.0, 8.5), rider("h2", 7.0, 40.0))
    state, [event] = pick_up(start, "h1", ride_east(), "never", dice([8, 5]), rules)
    assert (event.figures["did"], event.figures["tn"], event.figures["crowd"]) == ("missed", 15, ["k1"])
    assert state.items == start.items and state.model("h1").stress == 1
    assert state.model("h1").attack_chance is None


def test_EC_ACT_PICKUP_a_bust_runs_the_crash_sequence_and_far_items_and_holders_try_nothing(rules, dice):
    """Clause: EC-ACT-PICKUP. A busted pickup is a bust (EC-DICE-4): 4+4+1 = 9, pushing 4 (13) and
    9 (22): bust, a wound lost, remount TN 17-2 = 15 with 8+8+1 = 17: back on, skipping its next
    action; the item stays. A package 2" from the path (1.17" from the base) is not within 1":
    no attempt; a rider already holding one tries for no other."""
    start = table(rider("h1", 12.0, 10.0))
    state, [tried, bust] = pick_up(start, "h1", ride_east(), "sit-at-tn", dice([4, 4, 4, 9, 8, 8]), rules)
    assert tried.figures["did"] == "missed" and tried.rolls[0].outcome.value == "bust"
    assert bust.kind == "bust" and state.model("h1").wounds == 2 and state.model("h1").skip_next_action
    assert state.item_held_by("h1") is None
    far = table(rider("h1", 12.0, 10.0), items=(Item("package_1", 8.0, 12.0),))
    assert pick_up(far, "h1", ride_east(), "never", dice([]), rules) == (far, [])
    holding = table(rider("h1", 12.0, 10.0), items=(Item("package_1", 8.0, 11.5), Item("package_2", 0, 0, "h1")))
    assert pick_up(holding, "h1", ride_east(), "never", dice([]), rules) == (holding, [])


# -- Pass an item (EC-ACT-PASS) -----------------------------------------------------------------


def passing(**receiver) -> State:
    """Ash holding package_1 with its attack along the move to make; Brakes beside it, 0.35"
    between the bases (within 1"); Viper across the street."""
    return table(rider("h1", 10.0, 10.0, attack_chance=ALONG_THE_MOVE), rider("h2", 10.0, 12.0, **receiver),
                 rider("k1", 10.0, 20.0), items=(Item("package_1", 10.0, 10.0, carrier="h1", held=1),))


def test_EC_ACT_PASS_in_lieu_of_the_attack_to_a_friend_within_1_inch(rules, dice):
    """Clause: EC-ACT-PASS. "In lieu of an attack a rider may pass something to a friendly rider,
    must be performed within 1 inch ... Add 1 stress." Ash passes to Brakes (bases 0.35" apart):
    TN 14 (actions.pass.tn), dice 9+4 +1 stress = 14: Brakes holds package_1, its count of complete
    actions from 0; the pass was Ash's attack, so it has none left."""
    state = passing()
    action = check(state, Action.attack("h1", "h2", PASS), rules)
    after, said = resolve(state, action, None, dice([9, 4]), rules)
    assert after.item_held_by("h2") == Item("package_1", 10.0, 12.0, carrier="h2", held=0)
    assert after.item_held_by("h1") is None and after.model("h1").stress == 1
    assert after.model("h1").attack_chance is None and after.model("h1").attacks_made == 1
    assert find_system("entropy_city").sentence(said[0], NAMES) == "Ash passes package 1 to Brakes: needs 14, rolls 14"


def test_EC_ACT_PASS_is_refused_without_an_item_an_attack_a_friend_or_the_reach(rules):
    """Clause: EC-ACT-PASS. Refused, naming the clause: to an enemy, to a friend whose base is 1.95" off (past 1"),
    by a rider holding nothing, by one with no attack to make this action."""
    refusals = {
        "enemy": (passing(), Action.attack("h1", "k1", PASS)),
        "far": (passing().with_model(rider("h2", 10.0, 13.6)), Action.attack("h1", "h2", PASS)),
        "empty": (passing().with_item(Item("package_1", 10.0, 10.0)), Action.attack("h1", "h2", PASS)),
        "spent": (passing().with_model(rider("h1", 10.0, 10.0)), Action.attack("h1", "h2", PASS)),
    }
    said = {}
    for name, (state, action) in refusals.items():
        with pytest.raises(IllegalPlanError) as refused:
            check(state, action, rules)
        said[name] = (refused.value.clause, str(refused.value))
    assert said["enemy"][0] == "EC-ACT-PASS" and "friendly rider" in said["enemy"][1]
    assert said["far"][0] == "EC-ACT-PASS" and "1.95\" away; passing needs 1.0\"" in said["far"][1]
    assert "holds no item" in said["empty"][1] and "in lieu of the attack" in said["spent"][1]


def test_EC_ACT_PASS_a_failure_drops_the_item_where_the_pass_was_tried(rules, dice):
    """Clause: EC-ACT-PASS. "If it fails due to failure to reach the target number the item is
    dropped": 6+4+1 = 11 < 14 (never pushing): package_1 lies on the table at Ash's point of the
    move the pass was made from, (9, 10), for anyone to pick up."""
    state = passing()
    action = check(state, Action.attack("h1", "h2", PASS, push="never", from_pose=Pose(9.0, 10.0, 0.0, 0.0)), rules)
    after, said = resolve(state, action, None, dice([6, 4]), rules)
    assert after.items == (Item("package_1", 9.0, 10.0),) and said[0].figures["did"] == "fumbled"


@pytest.mark.parametrize("d10,crashes", [(7, "h1"), (4, "h2")])
def test_EC_ACT_PASS_a_bust_drops_the_item_and_the_opponents_d10_picks_the_bike_that_crashes(rules, dice, d10,
                                                                                                crashes):
    """Clause: EC-ACT-PASS. "If this test fails by bust your opponent rolls a d10, odds and evens
    determine which bike crashes": Ash starts on 3 stress, +1 for the pass: 9+9+4 = 22 busts at
    once. The d10: odd (7) Ash's bike crashes, even (4) Brakes' (actions.pass.odd_crashes:
    passer); the crash is a bust's crash sequence (a wound lost, remount TN 15, 8+8 + stress:
    back on). The item drops where the pass was tried."""
    state = passing().with_model(rider("h1", 10.0, 10.0, attack_chance=ALONG_THE_MOVE, stress=3))
    action = check(state, Action.attack("h1", "h2", PASS), rules)
    after, said = resolve(state, action, None, dice([9, 9, d10, 8, 8]), rules)
    assert said[0].figures["did"] == "busted" and said[0].figures["d10"] == d10
    assert [e.model for e in said if e.kind == "bust"] == [crashes]
    assert after.model(crashes).wounds == 2 and after.model({"h1": "h2", "h2": "h1"}[crashes]).wounds == 3
    assert after.items == (Item("package_1", 10.0, 10.0),)


# -- Grab n Go (EC-MISSION-GRAB) ----------------------------------------------------------------


def test_EC_MISSION_GRAB_a_holder_makes_no_attack_nor_attacks_back(rules):
    """Clause: EC-MISSION-GRAB. "Characters holding a package cannot perform attacks": Ash, holding
    package_1, is refused an attack on Viper beside it; Viper's attack on Ash is allowed, but not
    with Ash attacking back (EC-MEL-DEF)."""
    state = table(rider("h1", 10.0, 10.0, attack_chance=ALONG_THE_MOVE), rider("k1", 10.0, 11.65,
                                                                              attack_chance=ALONG_THE_MOVE),
                  items=(Item("package_1", 10.0, 10.0, carrier="h1"),))
    with pytest.raises(IllegalPlanError, match="holds package_1: a rider holding a package cannot attack") as refused:
        check(state, Action.attack("h1", "k1", "punch"), rules)
    assert refused.value.clause == "EC-MISSION-GRAB"
    check(state, Action.attack("k1", "h1", "punch"), rules)
    with pytest.raises(IllegalPlanError, match="cannot attack back"):
        check(state, Action.attack("k1", "h1", "punch", defence="attack"), rules)


def test_EC_MISSION_GRAB_a_holder_on_overwatch_does_not_shoot(rules, dice):
    """Clause: EC-MISSION-GRAB (with EC-GUN-STOPPED). "Characters holding a package cannot perform
    attacks": Viper (k1) on overwatch with a pistol at (10, 10), Ash (h1) riding 12" west from
    x = 50 into its 35.2" range in plain sight. Holding nothing, Viper shoots (the reaction's
    event); holding package_2, it lets Ash ride by: no shot, its shot and its watch kept."""
    from tests.systems.entropy_city.test_stopped_guns import SeeingTable, ride, watching

    free = watching()
    free = table(*free.models.values(), items=(Item("package_2", 30.0, 30.0),))
    _, events = ride(free, "s2: straight 12", rules, dice([9, 8, 7, 8]), SeeingTable())
    assert any(e.figures.get("overwatch") for e in events)  # the set-up draws the shot
    holding = table(*free.models.values(), items=(Item("package_2", 10.0, 10.0, carrier="k1", held=1),))
    after, events = ride(holding, "s2: straight 12", rules, dice([9, 8, 7, 8]), SeeingTable())
    assert not any(e.figures.get("overwatch") or "tn" in e.figures for e in events)
    assert after.model("h1").wounds == 3 and after.model("k1").ammo == 10
    assert after.model("k1").overwatch_push == "never"


def moved(state: State, model: ModelState) -> State:
    return state.with_model(model)


def test_EC_MISSION_GRAB_two_complete_actions_held_then_an_escape_over_its_own_edge_scores(rules):
    """Clause: EC-MISSION-GRAB. "Once you have obtained a package you must hold onto it for two
    complete actions then attempt to exit via your own deployment ... One point for each
    successful escape." Ash picked package_1 up; each move it rides after holds it one complete
    action more (1, 2); riding off the west edge (Hades MC's) then escapes with it: +1 VP
    (missions.grab_n_go.escape). The other packages still in play keep the game going."""
    items = (Item("package_1", 5, 5, carrier="h1"), Item("package_2", 20, 20))
    state = table(rider("h1", 5.0, 5.0), rider("k1", 30, 30), items=items)
    for count in (1, 2):
        state, [said] = carry_items(state, state, "move", "h1", [], rules)
        assert said.figures == {"item": "package_1", "did": "held", "held": count, "need": 2}
    off = moved(state, state.model("h1").but(status=ESCAPED, pose=Pose(-1.0, 5.0, 180.0, 0.0)))
    left = Event("left_table", "h1", "off an open edge", figures={"edge": "west"})
    after, [score] = carry_items(state, off, "move", "h1", [left], rules)
    assert after.score == {"hades": 1, "komodo": 0} and after.items[0].fate == "escaped"
    assert find_system("entropy_city").sentence(score, NAMES) == "Ash escapes with package 1: +1 VP to Hades MC"
    assert missions.game_over(after) == ""
    done = after.with_item(Item("package_2", 20, 20, fate="lost"))
    assert missions.game_over(done) == "no package left in play" and missions.winner(done) == "hades"


def test_EC_MISSION_GRAB_off_the_table_too_soon_or_by_another_edge_the_package_is_lost(rules):
    """Clause: EC-MISSION-GRAB. Off its own edge after one complete action, or off Komodo's east
    edge after two: the package is lost with the rider and nobody scores (DECISION)."""
    for held, edge, soon in ((1, "west", True), (2, "east", False)):
        state = table(rider("h1", 5.0, 5.0), items=(Item("package_1", 5, 5, carrier="h1", held=held),))
        off = moved(state, state.model("h1").but(status=ESCAPED))
        left = Event("left_table", "h1", "off", figures={"edge": edge})
        after, [said] = carry_items(state, off, "move", "h1", [left], rules)
        assert after.score == {"hades": 0, "komodo": 0} and after.items[0].fate == "lost"
        assert (said.figures["did"], said.figures["too_soon"]) == ("lost", soon)


def test_EC_MISSION_GRAB_a_holder_taken_out_drops_the_package_where_it_went_out(rules):
    """Clause: EC-MISSION-GRAB. Ash, holding package_1 with one action held, is taken out at
    (14, 6) in Viper's action: the package lies there for anyone, its count gone; Viper's own
    action does not count as one of Ash's."""
    state = table(rider("h1", 14.0, 6.0), rider("k1", 30, 30), items=(Item("package_1", 9, 9, carrier="h1", held=1),))
    out = moved(state, state.model("h1").but(status=OUT))
    after, [said] = carry_items(state, out, "attack", "k1", [], rules)
    assert after.items == (Item("package_1", 14.0, 6.0),) and said.figures["did"] == "dropped"
    assert find_system("entropy_city").sentence(said, NAMES) == "Ash drops package 1 where it went down"


def test_EC_MISSION_GRAB_a_holder_over_the_cliff_edge_loses_the_package_with_it(rules):
    """Clause: EC-MISSION-GRAB, EC-COL-EDGE. Ash, holding package_1, rides over a cliff edge and is
    out of the game past the table's edge (-2, 6): the package goes with it, lost to everyone; it
    was dropped at Ash's pose off the table, where no one could reach it and the game, waiting for
    the last package, could not end (found on review)."""
    state = table(rider("h1", 1.0, 6.0), rider("k1", 30, 30), items=(Item("package_1", 9, 9, carrier="h1", held=1),))
    out = moved(state, state.model("h1").but(status=OUT, pose=Pose(-2.0, 6.0, 180.0)))
    over = Event("cliff_edge", "h1", "over the west cliff edge", clauses=("EC-COL-EDGE",))
    after, [said] = carry_items(state, out, "move", "h1", [over], rules)
    assert after.items[0].fate == "lost" and after.items[0].carrier is not None and said.figures["did"] == "lost"
    assert not [item for item in after.items if item.on_table]
    assert find_system("entropy_city").sentence(said, NAMES) == "Ash goes over the cliff with package 1: it is lost"


def test_EC_MISSION_GRAB_set_up_three_packages_on_the_table_and_each_gang_an_open_edge(rules):
    """Clause: EC-MISSION-GRAB. "3 packages at the centre of the board ... exit via your own
    deployment": the rules data's 3 packages, each id once, on the table; every gang an edge of
    its own, open; two gangs at least."""
    good = [("a", 10, 10), ("b", 12, 10), ("c", 14, 10)]
    assert grab_set_up_problems(good, {"h": "west", "k": "east"}, ["h", "k"], {}, 24, 24, rules) == []
    said = dict(grab_set_up_problems([("a", 10, 10), ("a", 30, 10)], {"h": "west", "x": "east"}, ["h", "k"],
                                     {"west": "cliff"}, 24, 24, rules))
    assert "2 packages; the rules data's are 3" in said["grab_n_go.items"]
    assert "a second package 'a'" in said["grab_n_go.items[1].id"]
    assert "(30, 10) is off the 24x24 inch table" in said["grab_n_go.items[1].at"]
    assert "the west edge is a cliff" in said["grab_n_go.exits.h"]
    assert "no gang 'x'" in said["grab_n_go.exits.x"] and "k has no deployment edge" in said["grab_n_go.exits"]


def test_EC_MISSION_GRAB_the_end_card_says_who_escaped_and_what_is_left(rules):
    """Clause: EC-MISSION-GRAB. The end card: the rule, each gang's points and who escaped with a
    package, and the packages still in play."""
    state = table(rider("h1", 5, 5), rider("k1", 30, 30),
                  items=(Item("package_1", 0, 5, "h1", 2, "escaped"), Item("package_2", 9, 9, "k1"),
                         Item("package_3", 18, 18))).add_score("hades", 1)
    escaped = Event("score", "h1", "escapes", figures={"item": "package_1", "escaped": True, "gangs": ["hades"]})
    rows = find_system("entropy_city").score_lines(state, [escaped], GANG_OF, NAMES, rules)
    assert rows == [("", "Grab n Go: 3 packages; +1 VP for each carried off its own deployment edge"),
                    ("", "after 2 complete actions held"), ("hades", "Hades MC  +1 VP: 1 escaped (Ash)"),
                    ("komodo", "Komodo  +0 VP"), ("", "2 packages still in play (1 held)")]


def test_EC_MISSION_GRAB_a_scripted_game_picks_up_holds_and_escapes_as_worked_out_by_hand(tmp_path):
    """Clauses: EC-MISSION-GRAB, EC-ACT-PICKUP. The Grab yard (tests/data/grab_yard.yaml), seed 1,
    straight rides and default-template turns only (no template test). Turn 1: Ash (sportsbike,
    speed 1: up to 10") at (4, 12) facing north rides 7" north and a tight right turn (radius
    1.91") to (5.9, 20.9) facing east, round the west shed's north end; then 10" east along y
    20.9, passing package_2 at (15, 21) within 1" of its base: the pickup, TN 14 (no bike within
    3": Viper rode off the east edge at once), seed 1's dice 7+6 and the pickup's 1 stress = 14:
    it holds it. Turn 2: a right turn south and 7" down, then 5" and a right turn west: two
    complete actions held. Turn 3: 10" west along y 5.1 below the shed, then 10" more off the
    west edge, Hades MC's own: the escape, Hades MC +1 VP. Nobody is left on the table: the game
    ends there; Hades MC win 1-0 and two packages are still in play."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 3\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 7, right tight 3', 's1: straight 10']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 6']}\n"
                      "  - {turn: 2, model: h1, plans: ['s1: right tight 3, straight 7', "
                      "'s1: straight 5, right tight 3']}\n"
                      "  - {turn: 3, model: h1, plans: ['s1: straight 10', 's1: straight 10']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    events = game_events(replay)
    [pickup] = [e for e in events if e.kind == "item" and e.figures["did"] in ("picked up", "missed")]
    assert (pickup.model, pickup.figures["item"], pickup.figures["tn"], pickup.rolls[0].dice, pickup.rolls[0].total) \
        == ("h1", "package_2", 14, (7, 6), 14)
    assert [e.figures["held"] for e in events if e.kind == "item" and e.figures["did"] == "held"] == [1, 2, 3]
    [escape] = [e for e in events if e.kind == "score"]
    assert escape.figures == {"item": "package_2", "escaped": True, "gangs": ["hades"]}
    assert replay.end.score == {"hades": 1, "komodo": 0} and replay.end.winner == "hades"
    title, lines, _ = result_card(replay, load_scene(YARD), Names.of_table(load_scene(YARD)))
    assert lines[2:5] == ("Hades MC  +1 VP: 1 escaped (Ash)", "Komodo  +0 VP", "2 packages still in play")
