"""Each mission's own objective, decided from a game's events (entropy3d.systems.entropy_city.objectives): what a
sweep counts to say how often a mission's point happens (issue 45: "the mission's own objective
achieved in at least a third of games (packages delivered, VIP taken out, NPC rescued)")."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from entropy3d.core.event import Event
from entropy3d.scene import load_scene
from entropy3d.systems.entropy_city.objectives import objective_met, objective_of

DATA = Path(__file__).resolve().parents[2] / "data"


def initial(yard: str):
    return load_scene(DATA / f"{yard}.yaml").initial_state()


def score(clause: str, model: str, **figures) -> Event:
    return Event("score", model, "a score line", clauses=(clause,), figures=figures)


# (yard, the event that reaches its mission's objective, look-alikes of it that do not)
CASES = {
    "package_yard": (score("EC-MISSION-PACKAGE", "k_fast", package=3, delivered=True, gangs=["komodo"]),
                     # a carrier taken out drops its package: the defenders score, nothing is delivered
                     [score("EC-MISSION-PACKAGE", "k_fast", package=3, delivered=False, gangs=["hades"]),
                      score("EC-MISSION-PACKAGE", "k_fast", package=3, revealed=True, gangs=[])]),
    "grab_yard": (score("EC-MISSION-GRAB", "h1", item="p1", escaped=True, gangs=["hades"]),
                  [Event("item", "h1", "lost", clauses=("EC-MISSION-GRAB",),
                         figures={"item": "p1", "did": "lost", "too_soon": True})]),
    "vip_yard": (score("EC-MISSION-VIP", "k_vip", vip="taken down", by="h_vip", gangs=["hades"], points=3),
                 # a VIP out to anyone but the other VIP: its heir takes over, the mission goes on
                 [score("EC-MISSION-VIP", "h2", vip="takes over", gangs=[])]),
    "jail_yard": (score("EC-MISSION-JAIL", "h1", npc="prisoner", escaped=True, gangs=["hades"], points=1),
                  # freed is half of it: the prisoner must get out through a road exit
                  [Event("item", "h1", "freed", clauses=("EC-MISSION-JAIL", "EC-DICE-1"),
                         figures={"did": "freed", "item": "prisoner"}),
                   Event("item", "h1", "lost", clauses=("EC-MISSION-JAIL",),
                         figures={"item": "prisoner", "did": "lost", "npc": True, "edge": "north"})]),
    "rescue_yard": (score("EC-MISSION-RESCUE", "h1", npc="npc_k", delivered=True, rival=True, gangs=["hades"]),
                    [Event("item", "h1", "picked up", clauses=("EC-MISSION-RESCUE",),
                           figures={"did": "picked up", "item": "npc_k"})]),
    "corners_yard": (score("EC-MISSION-CORNERS", "h1", corner="ne", counts={"hades": 1}, gangs=["hades"]),
                     []),
    "hoon_yard": (score("EC-MISSION-HOON", "h1", checkpoint="c3", passed=6, need=6, finished=True),
                  # a checkpoint passed is a lap's part, not the race won
                  [score("EC-MISSION-HOON", "h1", checkpoint="c1", passed=1, need=6, finished=False)]),
    "small_table": (Event("attack", "k1", "hits", piece="h1", figures={"wounds_lost": 1, "taken_out": True}),
                    [Event("attack", "k1", "hits", piece="h1", figures={"wounds_lost": 1, "taken_out": False}),
                     # its own gang's model (a bust of its own): no enemy taken out
                     Event("attack", "k1", "hits", piece="k1", figures={"wounds_lost": 1, "taken_out": True})]),
}


@pytest.mark.parametrize("yard", sorted(CASES))
def test_a_missions_objective_is_its_scoring_event_and_not_a_look_alike(yard):
    """Clauses: EC-MISSION-PACKAGE, EC-MISSION-GRAB, EC-MISSION-VIP, EC-MISSION-JAIL,
    EC-MISSION-RESCUE, EC-MISSION-CORNERS, EC-MISSION-HOON. The event the mission scores its point
    for reaches the objective, among other events and in any place; the events that look like it
    (a drop, a VIP's heir, a prisoner freed but not out, a checkpoint) and no event do not."""
    state = initial(yard)
    reached, look_alikes = CASES[yard]
    move = Event("move", sorted(state.models)[0], "rides 6\"")
    assert objective_met(state, [move, reached, move])
    assert not objective_met(state, [move, *look_alikes])
    assert not objective_met(state, [])


def test_lovers_point_brawls_objective_is_an_escape_off_an_open_edge():
    """Lovers Point Brawl ("two points for every friendly model that escapes"): a rider leaving
    off an open edge; one ridden over the cliff (a cliff_edge event) does not escape."""
    state = dataclasses.replace(initial("small_table"), mission="lovers_point_brawl")
    assert objective_of("lovers_point_brawl").words == "a rider escaped off an open edge"
    assert objective_met(state, [Event("left_table", "h1", "leaves", figures={"edge": "north"})])
    assert not objective_met(state, [Event("cliff_edge", "h1", "over the cliff", figures={"edge": "south"})])


def test_a_mission_scored_as_turf_war_has_turf_wars_objective():
    assert objective_of("no_such_mission") is objective_of("turf_war")


def test_EC_MISSION_JAIL_the_scripted_jailbreak_reaches_its_objective_only_with_the_escape(tmp_path):
    """Clause: EC-MISSION-JAIL. The jail yard's scripted game of tests/systems/entropy_city/test_jailbreak.py
    (seed 1, geometric): Ash stops by the door and frees the prisoner in turn 1 and rides it off the
    west edge through the road exit in turn 3: the objective. The same game stopped after turn 2
    has the prisoner freed but still on the table: not reached."""
    from entropy3d.game.replay import game_events
    from entropy3d.game.session import play_game

    plans = ["  - {turn: 1, model: h1, plans: ['stop s1: straight 3']}\n",
             "  - {turn: 1, model: k1, plans: ['s1: straight 6', 's1: straight 10']}\n",
             "  - {turn: 3, model: h1, plans: ['s1: straight 10', 's1: straight 10']}\n"]
    games = {}
    for turns in (2, 3):
        script = tmp_path / f"run{turns}.yaml"
        script.write_text(f"scene: {DATA / 'jail_yard.yaml'}\nturns: {turns}\nfallback: error\nactivations:\n"
                          + "".join(plans[:turns]))
        replay = play_game(None, seed=1, producer="geometric", script=script)
        games[turns] = objective_met(replay.header.initial, game_events(replay))
    assert games == {2: False, 3: True}
