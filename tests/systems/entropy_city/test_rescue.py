"""Rescue & Survive (entropy_city/npc.py, entropy_city/npc_actions.py, EC-MISSION-RESCUE): each gang's NPC on
foot in a corner, picked up as an item is, delivered to another corner for a point, two for the
rival's; lost off the table, left standing by a holder taken out; the set-up's checks, the end of
the game, its card and a scripted game worked by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.npc import rescue_set_up_problems
from entropy3d.systems.entropy_city.npc_actions import carry_npcs
from entropy3d.systems.entropy_city.state import ESCAPED, OUT, Item, ModelState, State
from entropy3d.systems.words import Names

GANG_OF = {"h1": "hades", "k1": "komodo"}
NAMES = Names(riders={"h1": "Ash", "k1": "Viper"}, gangs={"hades": "Hades MC", "komodo": "Komodo"}, gang_of=GANG_OF)
YARD = Path(__file__).resolve().parents[2] / "data" / "rescue_yard.yaml"
#: the yard's NPCs: Hades MC's from the south-west corner to the south-east, Komodo's from the
#: north-east to the north-west (36 x 24 table)
HADES_NPC = Item("hades_npc", 6.0, 4.0, owner="hades", to=(30.0, 4.0))
KOMODO_NPC = Item("komodo_npc", 30.0, 20.0, owner="komodo", to=(6.0, 20.0))


def rider(model_id: str, x: float, y: float, facing: float = 0.0, **changes) -> ModelState:
    return ModelState(model_id, GANG_OF[model_id], "sportsbike", Pose(x, y, facing, 0.0), 1, 0, 3, 10).but(**changes)


def yard(*models: ModelState, items: tuple[Item, ...] = (HADES_NPC, KOMODO_NPC)) -> State:
    return State(turn=1, mission="rescue_survive", models={m.id: m for m in models},
                 score={"hades": 0, "komodo": 0}, items=items)


def ride(x0: float, x1: float, y: float) -> np.ndarray:
    """A ridden trajectory (t, x, y, z, heading) along ``y`` from ``x0`` to ``x1``, rows half an inch apart."""
    xs = np.arange(x0, x1 + 1e-9, 0.5) if x1 >= x0 else np.arange(x0, x1 - 1e-9, -0.5)
    return np.column_stack([0.1 * np.arange(len(xs)), xs, np.full_like(xs, y), np.zeros_like(xs), np.zeros_like(xs)])


def test_EC_MISSION_RESCUE_a_holder_riding_within_2_inches_of_the_corner_delivers_its_own_NPC(rules):
    """Clause: EC-MISSION-RESCUE. "NPC on foot needs to be collected from one corner and delivered
    to the other": Ash holds Hades MC's NPC and rides east along y 6 to x 28.5: there the path
    passes (30, 4) 2.5" off, its base's edge (half width 0.83") 1.67" off: within
    missions.rescue_survive.deliver_in (2"), delivered: +1 VP (deliver) to Hades MC; the NPC stands at
    (30, 4), out of play. A ride ending at x 27.5 (3.2" off) delivers nothing."""
    state = yard(rider("h1", 28.0, 6.0), rider("k1", 20, 20), items=(replace(HADES_NPC, carrier="h1"), KOMODO_NPC))
    short, none = carry_npcs(state, "h1", "move", [], ride(18.0, 27.5, 6.0), rules)
    assert none == [] and short == state
    after, [said] = carry_npcs(state, "h1", "move", [], ride(18.0, 28.5, 6.0), rules)
    assert after.score == {"hades": 1, "komodo": 0}
    assert after.items[0] == Item("hades_npc", 30.0, 4.0, carrier="h1", fate="delivered", owner="hades",
                                  to=(30.0, 4.0))
    assert said.figures == {"npc": "hades_npc", "delivered": True, "rival": False, "gangs": ["hades"], "points": 1}
    assert find_system("entropy_city").sentence(said, NAMES) == "Ash delivers the hades npc: +1 VP to Hades MC"
    assert missions.game_over(after) == ""  # Komodo's NPC is still to rescue


def test_EC_MISSION_RESCUE_the_rivals_NPC_delivered_scores_the_extra_point_and_the_game_ends(rules):
    """Clause: EC-MISSION-RESCUE. "extra points if they can take it your npc" (DECISION: the
    rival's NPC delivered to its corner): Ash delivers Komodo's NPC at (6, 20): +2 VP
    (deliver_rival) to Hades MC, not to Komodo; with Hades MC's NPC delivered already, no NPC is
    left: the game is over and Hades MC win 3-0."""
    done = Item("hades_npc", 30, 4, carrier="h1", fate="delivered", owner="hades", to=(30.0, 4.0))
    held = Item("komodo_npc", 12, 20, carrier="h1", owner="komodo", to=(6.0, 20.0))
    state = yard(rider("h1", 12.0, 20.0, 180.0), rider("k1", 30, 10), items=(done, held)).add_score("hades", 1)
    after, [said] = carry_npcs(state, "h1", "move", [], ride(12.0, 4.0, 20.0), rules)
    assert after.score == {"hades": 3, "komodo": 0} and said.figures["rival"] and said.figures["points"] == 2
    assert find_system("entropy_city").sentence(said, NAMES) == \
        "Ash delivers the komodo npc (the rival's): +2 VP to Hades MC"
    assert missions.game_over(after) == "no NPC left to rescue" and missions.winner(after) == "hades"


def test_EC_MISSION_RESCUE_off_the_table_the_NPC_is_lost_and_a_holder_taken_out_leaves_it_standing(rules):
    """Clause: EC-MISSION-RESCUE. Ash carries Komodo's NPC off the north edge: lost, nobody
    scores. Viper, holding Hades MC's, is taken out at (20, 6): the NPC is left standing there,
    on the table for a pickup (EC-ACT-PICKUP)."""
    held = Item("komodo_npc", 12, 23, carrier="h1", owner="komodo", to=(6.0, 20.0))
    state = yard(rider("h1", 12.0, 23.0, 90.0), rider("k1", 20, 6), items=(HADES_NPC, held))
    gone = state.with_model(state.model("h1").but(status=ESCAPED))
    left = Event("left_table", "h1", "off the north edge", figures={"edge": "north"})
    after, [said] = carry_npcs(gone, "h1", "move", [left], np.array([[0.0, 12.0, 24.3, 0, 90]]), rules)
    assert after.items[1].fate == "lost" and after.score == {"hades": 0, "komodo": 0}
    assert said.figures["did"] == "lost"
    taken = yard(rider("h1", 2, 2), rider("k1", 20.0, 6.0), items=(Item("hades_npc", 20, 6, carrier="k1",
                                                                        owner="hades", to=(30.0, 4.0)), KOMODO_NPC))
    out = taken.with_model(taken.model("k1").but(status=OUT))
    after, [dropped] = carry_npcs(out, "h1", "attack", [], None, rules)
    assert after.items[0].on_table and (after.items[0].x, after.items[0].y) == (20.0, 6.0)
    assert dropped.figures["did"] == "dropped"


def test_EC_MISSION_RESCUE_a_ride_that_passes_the_destination_and_leaves_the_table_delivers_on_its_way(rules):
    """Clause: EC-MISSION-RESCUE (DECISION: the NPC is set down as its holder's ride passes its
    destination). Ash holds Komodo's NPC and rides west along y 20 from x 12 past (6, 20) and off
    the west edge at x -1: the ride came within 2" of the destination at x 8.5 on (its base's half
    width 0.83" + 2"), so the NPC is delivered (+2 VP, the rival's) though Ash left the table; it
    was called lost before (the leaving was looked at first)."""
    held = Item("komodo_npc", 12, 20, carrier="h1", owner="komodo", to=(6.0, 20.0))
    state = yard(rider("h1", 12.0, 20.0, 180.0), rider("k1", 30, 10), items=(HADES_NPC, held))
    gone = state.with_model(state.model("h1").but(status=ESCAPED))
    left = Event("left_table", "h1", "off the west edge", figures={"edge": "west"})
    after, [said] = carry_npcs(gone, "h1", "move", [left], ride(12.0, -1.0, 20.0), rules)
    assert after.items[1].fate == "delivered" and after.score == {"hades": 2, "komodo": 0}
    assert said.figures["delivered"] and said.figures["rival"]


def test_EC_MISSION_RESCUE_set_up_one_NPC_a_gang_from_a_corner_to_another(rules):
    """Clause: EC-MISSION-RESCUE. Each NPC within 16" (corner_in) of a table corner where it waits
    and where it is delivered, not the same corner; each gang one NPC (npcs_per_gang), of a gang
    the scene has. The yard's set-up passes."""
    good = [("a", "h", (6.0, 4.0), (30.0, 4.0)), ("b", "k", (30.0, 20.0), (6.0, 20.0))]
    assert rescue_set_up_problems(good, ["h", "k"], 36, 24, rules) == []
    bad = [("a", "h", (18.0, 12.0), (40.0, 4.0)), ("a", "h", (2.0, 2.0), (3.0, 3.0)), ("c", "x", (1, 1), (35, 1))]
    found = rescue_set_up_problems(bad, ["h", "k"], 36, 24, rules)
    said = dict(found)
    assert said["rescue_survive.npcs[0].at"].startswith("(18, 12) is 21.6\" from the south-west corner; an NPC is "
                                                         "\"collected from one corner and delivered to the other\"")
    assert said["rescue_survive.npcs[0].to"] == "(40, 4) is off the 36x24 inch table"
    assert "a second NPC 'a'" in said["rescue_survive.npcs[1].id"]
    assert "starts and is delivered at the south-west corner" in said["rescue_survive.npcs[1].to"]
    assert "no gang 'x' in the scene" in said["rescue_survive.npcs[2].gang"]
    assert any(key == "rescue_survive.npcs" and "h has 2 NPCs; each gang rescues 1" in message
               for key, message in found)
    assert any(key == "rescue_survive.npcs" and message.startswith("k has no NPC: add `{id: ID, gang: k, at: [X, Y]")
               for key, message in found)


def test_EC_MISSION_RESCUE_the_end_card_says_who_delivered_what_and_what_is_left(rules):
    """Clause: EC-MISSION-RESCUE. The end card: the rule and its points, each gang with who
    delivered whose NPC, and the NPCs still to rescue."""
    state = yard(rider("h1", 5, 5), rider("k1", 30, 20)).add_score("hades", 2)
    said = Event("score", "h1", "delivers", figures={"npc": "komodo_npc", "delivered": True, "rival": True,
                                                      "gangs": ["hades"], "points": 2})
    rows = find_system("entropy_city").score_lines(state, [said], GANG_OF, NAMES, rules)
    assert rows == [("", "Rescue & Survive: each gang's NPC from its corner to the other"),
                    ("", "+1 VP for your own delivered, +2 VP for the rival's"),
                    ("hades", "Hades MC  +2 VP: Ash delivered the rival's NPC"), ("komodo", "Komodo  +0 VP"),
                    ("", "2 NPCs still to rescue")]


def test_EC_MISSION_RESCUE_a_scripted_game_takes_the_rivals_NPC_to_its_corner_as_worked_out_by_hand(tmp_path):
    """Clauses: EC-MISSION-RESCUE, EC-ACT-PICKUP. The Rescue yard (tests/data/rescue_yard.yaml),
    seed 1, geometric, 2 turns. Turn 1: Viper rides 6" and 10" north off the north edge, holding
    nothing (Komodo has left the table; the game goes on while an NPC is to be rescued). Ash
    (sportsbike) at (34, 20) facing west rides 10" west along y 20: 1.83" short of Komodo's NPC at
    (30, 20) (its base's half width 0.83" and 1"), at x 31.75 on the path's half-inch rows, it
    tries the pickup: TN 14, no bike within 3"; +1 stress, seed 1 deals 9+2 (12, short), then 9:
    21, passed. Then 10" more to x 14. Turn 2: 10" west to x 4, passing (6, 20), the NPC's
    destination, within 2" of the base (its half width 0.83" and 2": 2.83" of the centre, from x
    8.83 on): delivered,
    the rival's NPC: Hades MC +2 VP; 3" more to x 1. The turns run out with Hades MC's own NPC
    still in its corner: Hades MC win 2-0."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 2\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 10', 's1: straight 10']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 6', 's1: straight 10']}\n"
                      "  - {turn: 2, model: h1, plans: ['s1: straight 10', 's1: straight 3']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    events = game_events(replay)
    [pickup] = [e for e in events if e.kind == "item"]
    assert (pickup.model, pickup.figures["item"], pickup.figures["did"], pickup.figures["tn"], pickup.rolls[0].dice,
            pickup.rolls[0].total) == ("h1", "komodo_npc", "picked up", 14, (9, 2, 9), 21)
    assert pickup.figures["at"] == [31.75, 20.0]
    [delivery] = [e for e in events if e.kind == "score"]
    assert delivery.figures == {"npc": "komodo_npc", "delivered": True, "rival": True, "gangs": ["hades"],
                                "points": 2}
    assert replay.end.score == {"hades": 2, "komodo": 0} and replay.end.winner == "hades"
    title, lines, _ = result_card(replay, load_scene(YARD), Names.of_table(load_scene(YARD)))
    assert title == "Hades MC win"
    assert lines[2:] == ("Hades MC  +2 VP: Ash delivered the rival's NPC", "Komodo  +0 VP", "1 NPC still to rescue",
                         "game over: 2 turns played")
