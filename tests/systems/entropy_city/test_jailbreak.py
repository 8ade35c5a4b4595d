"""Jailbreak (entropy_city/npc.py, entropy_city/npc_actions.py, EC-MISSION-JAIL): the NPC locked in the jail, the
stop beside its door or window and the NPC's test, the NPC who gives up at 15, the escape through
a road exit with the NPC pillion, the NPC lost off the table elsewhere, dropped by a holder taken
out and picked up again, the end of the game and its card, and a scripted game worked by hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.items import pick_up
from entropy3d.systems.entropy_city.npc import npc_policy, through_road_exit
from entropy3d.systems.entropy_city.npc_actions import carry_npcs, free_the_npc
from entropy3d.systems.entropy_city.ruleset import ON_FOOT
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, Item, ModelState, State
from entropy3d.systems.words import Names

GANG_OF = {"h1": "hades", "h2": "hades", "k1": "komodo"}
NAMES = Names(riders={"h1": "Ash", "h2": "Brakes", "k1": "Viper"}, gangs={"hades": "Hades MC", "komodo": "Komodo"},
              gang_of=GANG_OF)
YARD = Path(__file__).resolve().parents[2] / "data" / "jail_yard.yaml"
#: the yard's jail (15-21 x 14-20), its door on the south wall; the road along y 10 leaves the
#: table west and east through road exits 7.5-12.5" along those edges
PRISONER = Item("prisoner", 18.0, 17.0, locked=True, openings=((18.0, 14.0),))
ROAD_EXITS = (("west", 7.5, 12.5), ("east", 7.5, 12.5))


def rider(model_id: str, x: float, y: float, facing: float = 180.0, **changes) -> ModelState:
    bike = ON_FOOT if model_id == "f1" else "sportsbike"
    return ModelState(model_id, GANG_OF.get(model_id, "komodo"), bike, Pose(x, y, facing, 0.0), 1, 0, 3,
                      10).but(**changes)


def yard(*models: ModelState, items: tuple[Item, ...] = (PRISONER,)) -> State:
    return State(turn=1, mission="jailbreak", models={m.id: m for m in models}, score={"hades": 0, "komodo": 0},
                 items=items, road_exits=ROAD_EXITS)


def stopped_at(state: State, model_id: str, x: float, y: float) -> State:
    """``state`` after ``model_id``'s Stop action ended at (x, y): speed 0, stopped."""
    return state.with_model(state.model(model_id).but(pose=Pose(x, y, 180.0, 0.0), speed=0, stopped=True))


def test_EC_MISSION_JAIL_a_stop_within_4_inches_of_the_door_and_the_NPCs_passed_test_frees_it(rules, dice):
    """Clause: EC-MISSION-JAIL. "rider must perform a successful stop within 4 inches of the door
    or window. Perform a test it for the NPC with TN 16." Ash stops at (19, 10): 4.12" from the
    door at (18, 14), its base's edge (half width 0.83") 3.29" from it: within 4". The NPC's test:
    TN 16, no stress; 6+3 = 9 is under 15, so it adds a die: 6, 15, and sits there ("a minimum to
    roll before giving up ... 15"): 15 < 16, failed: it stays locked in. A second stop: 6+3, then
    8: 17, passed: the NPC rides pillion with Ash, the jail empty."""
    before = yard(rider("h1", 22.0, 10.0), rider("k1", 30, 20))
    after = stopped_at(before, "h1", 19.0, 10.0)
    state, [stays] = free_the_npc(before, after, "h1", "stop", dice([6, 3, 6]), rules)
    assert state.items == (PRISONER,) and stays.figures["did"] == "stays locked"
    assert (stays.rolls[0].dice, stays.rolls[0].total, stays.figures["tn"]) == ((6, 3, 6), 15, 16)
    assert find_system("entropy_city").sentence(stays, NAMES) == \
        "Ash stops by the jail; the prisoner stays locked in: needs 16, rolls 15"
    state, [freed] = free_the_npc(before, after, "h1", "stop", dice([6, 3, 8]), rules)
    assert state.item_held_by("h1") == Item("prisoner", 19.0, 10.0, carrier="h1", openings=((18.0, 14.0),))
    assert freed.figures["did"] == "freed" and freed.rolls[0].total == 17
    assert not [i for i in state.items if i.on_table]  # carried: nobody else picks it up


def test_EC_MISSION_JAIL_the_NPC_sits_on_15_and_a_bust_fails(rules, dice):
    """Clause: EC-MISSION-JAIL. "If an NPC is involved in a test, it must have a minimum to roll
    before giving up. At this time it's 15.": the NPC's push-your-luck adds a die below 15 and
    sits from 15 on (rules data npc: min_roll 15, reading gives_up_at), whatever the TN; 8+7 = 15
    sits and fails TN 16; 9+5 = 14, then 9: 23, a bust: failed (the NPC has no bike to crash)."""
    from entropy3d.systems.entropy_city.dice import PushState
    policy = npc_policy(rules)
    assert policy(PushState(14, 16, 0, 2)) and not policy(PushState(15, 16, 0, 2))
    before = yard(rider("h1", 22.0, 10.0))
    after = stopped_at(before, "h1", 19.0, 10.0)
    for faces, total in (([8, 7], 15), ([9, 5, 9], 23)):
        state, [said] = free_the_npc(before, after, "h1", "stop", dice(faces), rules)
        assert state.items == (PRISONER,) and said.rolls[0].total == total and not said.rolls[0].succeeded


def test_EC_MISSION_JAIL_no_test_without_a_stop_within_reach_by_a_rider_holding_nothing(rules, dice):
    """Clause: EC-MISSION-JAIL. No NPC test (no dice dealt) when the rider ends 5.1" from the door
    (4.27" from its base's edge), when its action was a move and not a stop (it rode by), when it
    stopped to reload (overwatch and reload stop to use a gun) or when the NPC is out already."""
    before = yard(rider("h1", 22.0, 10.0))
    far = stopped_at(before, "h1", 19.0, 9.0)
    assert free_the_npc(before, far, "h1", "stop", dice([]), rules) == (far, [])
    near = stopped_at(before, "h1", 19.0, 10.0)
    for action in ("move", "reload", None):
        assert free_the_npc(before, near, "h1", action, dice([]), rules) == (near, [])
    out = near.with_item(Item("prisoner", 0, 0, carrier="k1", openings=PRISONER.openings))
    assert free_the_npc(before, out, "h1", "stop", dice([]), rules) == (out, [])


def test_EC_MISSION_JAIL_escape_through_a_road_exit_scores_and_ends_the_game(rules):
    """Clause: EC-MISSION-JAIL. "If successful escape the table from any board edge through a road
    exit, with the NPC on friendly bike": Ash holding the NPC rides off the west edge at y 10.2,
    inside the road exit 7.5-12.5: Hades MC +1 VP (missions.jailbreak.escape); the game is over."""
    state = yard(rider("h1", 1.0, 10.0), rider("k1", 30, 20),
                 items=(Item("prisoner", 1, 10, carrier="h1", openings=PRISONER.openings),))
    gone = state.with_model(state.model("h1").but(status=ESCAPED, pose=Pose(-0.5, 10.2, 180.0)))
    left = Event("left_table", "h1", "off the west edge", figures={"edge": "west"})
    ride = np.array([[0.0, 1.0, 10.1, 0, 180], [0.1, -0.4, 10.2, 0, 180]])
    after, [said] = carry_npcs(gone, "h1", "move", [left], ride, rules)
    assert after.score == {"hades": 1, "komodo": 0} and after.items[0].fate == "escaped"
    assert said.figures == {"npc": "prisoner", "escaped": True, "gangs": ["hades"], "points": 1}
    assert find_system("entropy_city").sentence(said, NAMES) == \
        "Ash escapes through a road exit with the prisoner: +1 VP to Hades MC"
    assert missions.game_over(after) == "the NPC escaped" and missions.winner(after) == "hades"
    assert through_road_exit("west", -0.4, 12.5, ROAD_EXITS) and not through_road_exit("west", -0.4, 13.0, ROAD_EXITS)
    assert not through_road_exit("north", 10.0, 24.4, ROAD_EXITS)


def test_EC_MISSION_JAIL_off_the_table_elsewhere_the_NPC_is_lost_and_the_game_ends(rules):
    """Clause: EC-MISSION-JAIL. Off the west edge at y 20 (no road there) the NPC is lost, nobody
    scores; the game ends (DECISION: nothing is left to rescue)."""
    state = yard(rider("h1", 1.0, 20.0), rider("k1", 30, 20),
                 items=(Item("prisoner", 1, 20, carrier="h1", openings=PRISONER.openings),))
    gone = state.with_model(state.model("h1").but(status=ESCAPED))
    left = Event("left_table", "h1", "off the west edge", figures={"edge": "west"})
    after, [said] = carry_npcs(gone, "h1", "move", [left], np.array([[0.0, -0.3, 20.0, 0, 180]]), rules)
    assert after.items[0].fate == "lost" and after.score == {"hades": 0, "komodo": 0}
    assert find_system("entropy_city").sentence(said, NAMES) == "Ash carries the prisoner off the table: it is lost"
    assert missions.game_over(after) == "the NPC is lost"


def test_EC_MISSION_JAIL_a_holder_taken_out_leaves_the_NPC_to_be_picked_up(rules, dice):
    """Clauses: EC-MISSION-JAIL, EC-ACT-PICKUP. Ash, holding the NPC, is taken out at (10, 10):
    the NPC is left standing there; Viper rides east along y 10.5 by it (within 1" of its base)
    and picks it up with 8+5 +1 stress = 14 (TN 14). The last gang on the table rides on while
    the NPC is to be had (the game is not over with Hades MC gone)."""
    state = yard(rider("h1", 10.0, 10.0), rider("k1", 2.0, 10.5, facing=0.0),
                 items=(Item("prisoner", 10, 10, carrier="h1", openings=PRISONER.openings),))
    out = state.with_model(state.model("h1").but(status=OUT))
    after, [dropped] = carry_npcs(out, "k1", "attack", [], None, rules)
    assert after.items[0].on_table and (after.items[0].x, after.items[0].y) == (10.0, 10.0)
    assert dropped.figures["did"] == "dropped" and missions.game_over(after) == ""
    xs = np.arange(2.0, 12.01, 0.5)
    ride = np.column_stack([0.1 * np.arange(len(xs)), xs, np.full_like(xs, 10.5), np.zeros_like(xs), np.zeros_like(xs)])
    moved = after.with_model(after.model("k1").but(pose=Pose(12.0, 10.5, 0.0, 0.0)))
    picked, [event] = pick_up(moved, "k1", ride, "never", dice([8, 5]), rules)
    assert picked.item_held_by("k1").id == "prisoner" and event.figures["did"] == "picked up"


def test_EC_MISSION_JAIL_the_end_card_says_the_rule_who_escaped_and_where_the_NPC_is(rules):
    """Clause: EC-MISSION-JAIL. The end card: the rule, the escape's points, each gang and who
    escaped with the NPC; with the game over by turns, where the NPC still is."""
    state = yard(rider("h1", 5, 5), rider("k1", 30, 20))
    rows = find_system("entropy_city").score_lines(state, [], GANG_OF, NAMES, rules)
    assert rows == [("", "Jailbreak: stop within 4\" of the jail's door or window, the NPC's test TN 16"),
                    ("", "+1 VP to carry it off the table through a road exit"), ("hades", "Hades MC  +0 VP"),
                    ("komodo", "Komodo  +0 VP"), ("", "the NPC is still locked in")]


def test_EC_MISSION_JAIL_a_scripted_game_stops_frees_and_escapes_as_worked_out_by_hand(tmp_path):
    """Clauses: EC-MISSION-JAIL, EC-ACT-STOP. The Jail yard (tests/data/jail_yard.yaml), seed 1,
    geometric. Turn 1: Ash (sportsbike, speed 1: its minimum 3") at (22, 10) facing west stops
    after 3" at (19, 10): 4.12" from the door at (18, 14), its base's edge 3.29" from it, within
    4". The NPC's test, TN 16, no stress: seed 1 deals 9+2 = 11, under 15, so it adds a die: 9,
    20: passed, the NPC climbs on. The stop spends Ash's activation and its next (turn 2,
    recovering). Viper rides 6" and 10" east off the east edge at y 20 (no road there; it carries
    nothing): Komodo has left the table, the game goes on while the NPC is to be had. Turn 3: Ash
    rides 10" and 10" west along y 10, off the west edge at x -1 inside the road exit (7.5-12.5):
    the escape, Hades MC +1 VP, and the game ends there: Hades MC win 1-0."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 3\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['stop s1: straight 3']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 6', 's1: straight 10']}\n"
                      "  - {turn: 3, model: h1, plans: ['s1: straight 10', 's1: straight 10']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    events = game_events(replay)
    [freed] = [e for e in events if e.kind == "item"]
    assert (freed.model, freed.figures["did"], freed.figures["tn"], freed.rolls[0].dice, freed.rolls[0].total) == \
        ("h1", "freed", 16, (9, 2, 9), 20)
    [escape] = [e for e in events if e.kind == "score"]
    assert escape.figures == {"npc": "prisoner", "escaped": True, "gangs": ["hades"], "points": 1}
    assert replay.end.score == {"hades": 1, "komodo": 0} and replay.end.winner == "hades"
    title, lines, _ = result_card(replay, load_scene(YARD), Names.of_table(load_scene(YARD)))
    assert title == "Hades MC win"
    assert lines[2:] == ("Hades MC  +1 VP: Ash escaped with the NPC", "Komodo  +0 VP", "game over: the NPC escaped")
