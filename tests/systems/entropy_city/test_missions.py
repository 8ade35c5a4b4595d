"""Entropy City's missions on the end card: the score explained by what earned it (entropy_city/missions.py)."""

from __future__ import annotations

from pathlib import Path

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.words import Names
from tests.systems.entropy_city.conftest import load_rules

NAMES = Names(riders={"viper": "Viper", "rat": "Rat"}, gangs={"hades": "Hades MC", "komodo": "Komodo"})
GANG_OF = {"viper": "komodo", "scale": "komodo", "rat": "hades", "ash": "hades"}


def test_EC_DICE_4_turf_war_explains_busts_and_riders_taken_out(rules):
    """Clause: EC-DICE-4. Turf War's card: the mission's scoring rule from the rules data, then per
    gang its points split into busts (counted from the game's bust events) and riders taken out
    (what the busts leave, in whole take-outs); a gang with nothing scored says only its points."""
    events = [Event("bust", "rat", "busts"), Event("bust", "rat", "busts again"), Event("bust", "ash", "busts"),
              Event("crash", "viper", "crashes")]
    state = State(turn=3, mission="turf_war", models={}, score={"hades": -1, "komodo": 0})
    rows = find_system("entropy_city").score_lines(state, events, GANG_OF, NAMES, rules)
    assert rows == [("", "Turf War: -1 VP per bust, +1 VP per rider taken out"),
                    ("hades", "Hades MC  -1 VP: 3 busts x -1, 2 riders taken out x +1"),
                    ("komodo", "Komodo  +0 VP")]


def test_EC_COL_EDGE_lovers_point_explains_escapes_and_what_no_event_explains(rules):
    """Clause: EC-COL-EDGE. Lovers Point Brawl scores escapes (a model riding off an open edge:
    its ``left_table`` event), not busts; points that neither escapes nor whole take-outs explain
    are said as "other" rather than hidden."""
    events = [Event("left_table", "viper", "rides off"), Event("bust", "rat", "busts")]
    state = State(turn=2, mission="lovers_point_brawl", models={}, score={"hades": 1, "komodo": 3})
    rows = find_system("entropy_city").score_lines(state, events, GANG_OF, NAMES, rules)
    assert rows[0] == ("", "Lovers Point Brawl: +1 VP per rider taken out, +2 VP per escape")
    assert rows[1] == ("hades", "Hades MC  +1 VP: 1 rider taken out x +1")
    assert rows[2] == ("komodo", "Komodo  +3 VP: 1 escape x +2, 1 rider taken out x +1")
    odd = State(turn=2, mission="lovers_point_brawl", models={}, score={"hades": 0, "komodo": 0})
    assert find_system("entropy_city").score_lines(odd, events, GANG_OF, NAMES, rules)[2] == (
        "komodo", "Komodo  +0 VP: 1 escape x +2, other -2")


def test_EC_DICE_4_a_mission_the_rulebook_does_not_write_is_scored_and_named_as_turf_war(rules):
    """Clause: EC-DICE-4. The scene schema's vaguer missions (free_ride) score as Turf War, and the
    card says so rather than naming a scoring rule that does not exist."""
    state = State(turn=1, mission="free_ride", models={}, score={"hades": -1})
    rows = find_system("entropy_city").score_lines(state, [Event("bust", "ash", "busts")], GANG_OF, NAMES, rules)
    assert rows[0][1].startswith("Turf War: ") and rows[1] == ("hades", "Hades MC  -1 VP: 1 bust x -1")


# -- Package Run (EC-MISSION-PACKAGE) ------------------------------------------------------------

PACKAGE_YARD = Path(__file__).resolve().parents[2] / "data" / "package_yard.yaml"


def carrier(model_id: str, gang: str, value: int, **changes) -> ModelState:
    return ModelState(model_id, gang, "sportsbike", Pose(10.0, 10.0, 0.0, 180.0), 1, 0, 3, 21,
                      package=value, package_to="west").but(**changes)


def package_state(*models: ModelState) -> State:
    return State(turn=1, mission="package_run", models={m.id: m for m in models}, score={"hades": 0, "komodo": 0})


def left(model_id: str, edge: str) -> Event:
    return Event("left_table", model_id, "off an open edge: it leaves the table", figures={"edge": edge})


def test_EC_MISSION_PACKAGE_a_carrier_off_its_edge_delivers_and_off_another_drops():
    """Clause: EC-MISSION-PACKAGE. Riding off the enemy edge (west) delivers the package: its VP
    to the carrier's gang, said in a score event; off any other edge the package is dropped: its
    VP to the defenders (DECISION). Either way it is carried no more."""
    state = package_state(carrier("k1", "komodo", 3, status="escaped"), carrier("k2", "komodo", 1, status="escaped"),
                          carrier("h1", "hades", 0))
    after, said = missions.carry_packages(state, [left("k1", "west"), left("k2", "north")])
    assert after.score == {"hades": 1, "komodo": 3}
    assert [(e.model, e.figures["delivered"], e.figures["gangs"]) for e in said] == [
        ("k1", True, ["komodo"]), ("k2", False, ["hades"])]
    assert said[1].rules == "drops its 1 VP package (off the north edge, not the west edge): hades +1 VP"
    assert not after.model("k1").carries_package and after.model("k1").package_fate == "delivered"
    assert after.model("k2").package_fate == "dropped"


def test_EC_MISSION_PACKAGE_a_carrier_out_of_the_game_drops_and_a_bust_only_reveals():
    """Clause: EC-MISSION-PACKAGE, EC-DICE-4. A carrier taken out drops its package (the
    defenders score it); one that busts and rides on keeps it, marked for the tie-break ("only
    revealed when either busting or completing their run": an event says its value), and nobody
    scores."""
    state = package_state(carrier("k1", "komodo", 3, status="out"), carrier("k2", "komodo", 1),
                          carrier("h1", "hades", 0))
    bust = Event("bust", "k2", "bust (EC-DICE-4): loses a wound (2 left), back on, skips its next action")
    after, said = missions.carry_packages(state, [bust])
    assert after.score == {"hades": 3, "komodo": 0}
    assert [e.model for e in said] == ["k1", "k2"] and "out of the game" in said[0].rules
    assert after.model("k2").carries_package and after.model("k2").package_busted
    assert [e.rules for e in said if e.model == "k2"] == ["busts carrying the 1 VP package: its value is known"]
    turf = State(1, "turf_war", state.models)
    assert missions.carry_packages(turf, [bust]) == (turf, [])  # another mission carries no packages


def test_EC_MISSION_PACKAGE_the_game_ends_with_no_package_in_play_and_the_runners_ride_on_alone():
    """Clause: EC-MISSION-PACKAGE. The game ends when no package is left in play; while one is,
    the runners ride on even with no defender left (the one-gang-left end waits for them)."""
    carrying = package_state(carrier("k1", "komodo", 3), carrier("h1", "hades", 0, status="out"))
    assert missions.game_over(carrying) == ""
    done = package_state(carrier("k1", "komodo", 3, package_fate="delivered", status="escaped"),
                         carrier("h1", "hades", 0))
    assert missions.game_over(done) == "no package left in play"
    assert missions.game_over(State(1, "turf_war", carrying.models)) == "only one gang left on the table"


def test_EC_MISSION_PACKAGE_a_tie_takes_packages_delivered_by_busted_carriers_off_the_runners_total():
    """Clause: EC-MISSION-PACKAGE. "Should the game result in a tie players should remove busted
    package carriers from their total": 1 VP each, but the runners' 1 came with a carrier that
    busted on the way, so the defenders win; without the bust it is a draw."""
    busted = carrier("k1", "komodo", 1, package_fate="delivered", package_busted=True, status="escaped")
    state = State(6, "package_run", {"k1": busted, "k2": carrier("k2", "komodo", 1, package_fate="dropped")},
                  score={"hades": 1, "komodo": 1})
    assert missions.winner(state) == "hades"
    clean = State(6, "package_run", {"k1": busted.but(package_busted=False)}, score={"hades": 1, "komodo": 1})
    assert missions.winner(clean) == ""
    # the end card says the delivery was a busted carrier's and why the tie went the defenders' way
    events = [Event("score", "k1", "delivers", figures={"package": 1, "delivered": True, "gangs": ["komodo"]}),
              Event("score", "k2", "drops", figures={"package": 1, "delivered": False, "gangs": ["hades"]})]
    rows = find_system("entropy_city").score_lines(state, events, GANG_OF | {"k1": "komodo", "k2": "komodo"},
                                                   NAMES, load_rules())
    assert rows[2:] == [("hades", "Hades MC  +1 VP: 1 stopped (1)"),
                        ("komodo", "Komodo  +1 VP: 1 delivered (1 busted)"),
                        ("", "tie broken: packages delivered by carriers that busted come off the runners' total")]


def test_EC_MISSION_PACKAGE_a_scripted_package_run_is_scored_as_worked_out_by_hand(tmp_path):
    """Clause: EC-MISSION-PACKAGE. The package yard (tests/data/package_yard.yaml, west edge
    Hades MC's), one turn, straight rides only (no template, no dice):
    - k_fast (3 VP) at x 4 facing west rides 6": over the west edge, delivered: Komodo +3;
    - k_lost (1 VP) at x 20 facing east rides 6": over the east edge, dropped: Hades MC +1;
    - k_slow (1 VP) rides 12" south, still carrying when the turn ends; h1 rides 12" north.
    (The carriers set out with their mean on the east half, as a package run's must.)
    Komodo 3, Hades MC 1: Komodo win; the end card says which packages scored for whom."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {PACKAGE_YARD}\nturns: 1\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: k_fast, plans: ['s1: straight 6']}\n"
                      "  - {turn: 1, model: k_lost, plans: ['s1: straight 6']}\n"
                      "  - {turn: 1, model: k_slow, plans: ['s1: straight 6', 's1: straight 6']}\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 6', 's1: straight 6']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    assert replay.end.score == {"hades": 1, "komodo": 3} and replay.end.winner == "komodo"
    final = replay.end.state
    assert [m.package_fate for m in (final.model("k_fast"), final.model("k_lost"), final.model("k_slow"))] == [
        "delivered", "dropped", None]
    table = load_scene(PACKAGE_YARD)
    title, lines, _ = result_card(replay, table, Names.of_table(table))
    assert title == "Komodo win"
    assert lines[:5] == ("Package Run: packages of 1, 1 and 3 VP",
                         "a package delivered scores for the runners, one dropped for the defenders",
                         "Hades MC  +1 VP: 1 stopped (1)", "Komodo  +3 VP: 1 delivered (3)",
                         "1 package still in play, scoring for nobody")


def test_EC_MISSION_PACKAGE_the_film_names_a_carrier_as_one_while_it_carries():
    """Clause: EC-MISSION-PACKAGE. "Package runners must declare which bikes are holding a
    package": the film's name plate says "package" beside a carrier's name while it carries one
    (not its value, which is hidden), and nothing once delivered or dropped, or for another rider."""
    rulebook = find_system("entropy_city")
    assert rulebook.plate_note(carrier("k1", "komodo", 3)) == "package"
    assert rulebook.plate_note(carrier("k1", "komodo", 3, package_fate="delivered")) == ""
    assert rulebook.plate_note(carrier("h1", "hades", 0)) == ""
    assert find_system("tag").plate_note(carrier("k1", "komodo", 3)) == ""
