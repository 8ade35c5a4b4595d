"""VIP Takedown (entropy_city/vip.py, clause EC-MISSION-VIP): who took a VIP out, the takedown that
scores and ends the game, and the friend who takes over when a VIP is lost any other way."""

from __future__ import annotations

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.vip import take_down_vips, vip_set_up_problems
from entropy3d.systems.words import Names

GANG_OF = {"k_vip": "komodo", "k2": "komodo", "h_vip": "hades", "h2": "hades", "h3": "hades"}
NAMES = Names(riders={"k_vip": "Viper", "h_vip": "Ash", "h2": "Brakes", "h3": "Rat", "k2": "Scale"},
              gangs={"hades": "Hades MC", "komodo": "Komodo"})


def rider(model_id: str, x: float, y: float, **changes) -> ModelState:
    return ModelState(model_id, GANG_OF[model_id], "cruiser", Pose(x, y, 0.0, 0.0), 2, 0, 3, 21).but(**changes)


def yard(**out) -> tuple[State, State]:
    """Before and after an action: both VIPs and three others in play before; ``out`` names the
    models out of the game after it (as ``model=status``)."""
    models = [rider("k_vip", 10, 10, vip=True), rider("k2", 30, 10), rider("h_vip", 20, 20, vip=True),
              rider("h2", 24, 20), rider("h3", 20, 30)]
    before = State(turn=2, mission="vip_takedown", models={m.id: m for m in models}, score={"hades": 0, "komodo": 0})
    return before, State(2, "vip_takedown", {m.id: m.but(status=out.get(m.id, m.status)) for m in models},
                         score=dict(before.score))


def taken_out_by(victim: str, attacker: str) -> Event:
    return Event("attack", victim, f"{attacker} hits {victim}: -1 wound, taken out", piece=attacker,
                 figures={"wounds_lost": 1, "taken_out": True})


def test_EC_MISSION_VIP_a_vip_that_takes_the_other_out_scores_and_ends_the_game(rules):
    """Clause: EC-MISSION-VIP. "Your mission is to have your VIP take out the other ... by
    attacking them": Viper, Komodo's VIP, takes Ash, Hades' VIP, out with an attack: Komodo +1 VP
    (rules data missions.vip_takedown.takedown), a score event says it, the game is over and
    Komodo win."""
    before, after = yard(h_vip="out")
    state, said = take_down_vips(before, after, "k_vip", [taken_out_by("h_vip", "k_vip")], rules)
    assert state.score == {"hades": 0, "komodo": 1}
    assert state.model("h_vip").vip_taken_by == "k_vip"
    assert [(e.kind, e.model, e.figures["vip"], e.figures["gangs"]) for e in said] == [
        ("score", "h_vip", "taken down", ["komodo"])]
    assert missions.game_over(state) == "a VIP took the other out (k_vip took out h_vip)"
    assert missions.winner(state) == "komodo"
    assert find_system("entropy_city").sentence(said[0], NAMES) == \
        "VIP takedown: Viper takes out the VIP Ash, +1 VP to Komodo"


def test_EC_MISSION_VIP_a_bust_the_other_vip_forced_is_a_takedown(rules):
    """Clause: EC-MISSION-VIP. "... or FORCING them to bust": Ash busts out of the game in Viper's
    action (its attack forced the bust; no attack event took Ash out): Viper took Ash out."""
    before, after = yard(h_vip="out")
    bust = Event("bust", "h_vip", "bust (EC-DICE-4): out of the game")
    state, said = take_down_vips(before, after, "k_vip", [bust], rules)
    assert state.model("h_vip").vip_taken_by == "k_vip" and state.score["komodo"] == 1


def test_EC_MISSION_VIP_a_shot_from_overwatch_in_the_vips_own_ride_is_a_takedown(rules):
    """Clause: EC-MISSION-VIP. Ash rides past Viper on overwatch and is shot out of the game in
    Ash's own action: the attack is Viper's, so Viper took Ash out."""
    before, after = yard(h_vip="out")
    state, _ = take_down_vips(before, after, "h_vip", [taken_out_by("h_vip", "k_vip")], rules)
    assert state.model("h_vip").vip_taken_by == "k_vip"


def test_EC_MISSION_VIP_a_vip_lost_otherwise_is_replaced_by_the_nearest_friend(rules):
    """Clause: EC-MISSION-VIP. "If a VIP is lost as a result not directly linked to the other the
    closest friendly character replaces them immediately": Ash crashes out in its own ride (no
    one's attack): Brakes, 4" away, takes over rather than Rat, 10" away; Scale (not Komodo's VIP)
    taking Ash out is no takedown either. Nobody scores, the game goes on."""
    before, after = yard(h_vip="out")
    state, said = take_down_vips(before, after, "h_vip", [Event("crash", "h_vip", "crashes")], rules)
    assert state.score == {"hades": 0, "komodo": 0} and missions.game_over(state) == ""
    assert state.model("h2").vip and not state.model("h3").vip
    assert [(e.model, e.figures["vip"], e.figures["from"]) for e in said] == [("h2", "takes over", "h_vip")]
    assert find_system("entropy_city").sentence(said[0], NAMES) == "Brakes takes over as VIP from Ash"
    state, _ = take_down_vips(before, after, "k2", [taken_out_by("h_vip", "k2")], rules)
    assert state.model("h2").vip and state.model("h_vip").vip_taken_by is None
    # the new VIP is the one the next takedown counts: Viper taking Brakes out now wins
    then = State(2, "vip_takedown", {**state.models, "h2": state.model("h2").but(status="out")},
                 score=dict(state.score))
    won, _ = take_down_vips(state, then, "k_vip", [taken_out_by("h2", "k_vip")], rules)
    assert won.model("h2").vip_taken_by == "k_vip" and won.score["komodo"] == 1


def test_EC_MISSION_VIP_other_missions_and_models_still_in_play_are_left_alone(rules):
    """Clause: EC-MISSION-VIP. Only a VIP in play before the action and out after it counts; in
    another mission nothing happens."""
    before, after = yard()
    assert take_down_vips(before, after, "k_vip", [], rules) == (after, [])
    turf_before, turf_after = (State(2, "turf_war", s.models, score=s.score) for s in yard(h_vip="out"))
    assert take_down_vips(turf_before, turf_after, "k_vip", [taken_out_by("h_vip", "k_vip")], rules) == \
        (turf_after, [])


def test_EC_MISSION_VIP_set_up_each_gang_declares_one_of_its_own():
    """Clause: EC-MISSION-VIP. "Each player publicly declares a VIP": every gang names one, of its
    own, and the gangs named are the scene's; two gangs at least."""
    gang_of = {"viper": "komodo", "ash": "hades"}
    assert vip_set_up_problems({"komodo": "viper", "hades": "ash"}, gang_of, ["hades", "komodo"]) == []
    said = dict(vip_set_up_problems({"komodo": "ash", "mutiny": "viper"}, gang_of, ["hades", "komodo"]))
    assert "ash rides for hades, not komodo" in said["vip_takedown.vips.komodo"]
    assert "no gang 'mutiny'" in said["vip_takedown.vips.mutiny"]
    assert "hades declares no VIP" in said["vip_takedown.vips"]
    assert "two or more gangs" in dict(vip_set_up_problems({"komodo": "viper"}, gang_of, ["komodo"]))["gangs"]


def test_EC_MISSION_VIP_the_end_card_says_the_vips_and_how_it_ended(rules):
    """Clause: EC-MISSION-VIP. The end card: the mission's rule, each gang's points and its VIPs in
    turn (Ash then Brakes); who took whom out is the game's end reason, not said twice."""
    before, after = yard(h_vip="out")
    state, said = take_down_vips(before, after, "h_vip", [Event("crash", "h_vip", "crashes")], rules)
    final = State(3, "vip_takedown", {**state.models, "h2": state.model("h2").but(status="out", vip_taken_by="k_vip")},
                  score={"hades": 0, "komodo": 1})
    rows = find_system("entropy_city").score_lines(final, said, GANG_OF, NAMES, rules)
    assert rows == [("", "VIP Takedown: +1 VP for the VIP that takes the other out"),
                    ("hades", "Hades MC  +0 VP: VIP Ash then Brakes"), ("komodo", "Komodo  +1 VP: VIP Viper")]


def test_EC_MISSION_VIP_with_no_takedown_the_gang_whose_vip_still_rides_wins(rules):
    """Clause: EC-MISSION-VIP. No VIP took the other out and Hades MC have no rider left to take
    over (DECISION: their VIP is lost for good): Komodo, whose VIP still rides, win, and the end
    card says why; with both VIPs in play it is a draw."""
    before, _ = yard()
    gone = State(6, "vip_takedown", {m.id: m.but(status="out") if m.gang == "hades" else m
                                     for m in before.models.values()}, score={"hades": 0, "komodo": 0})
    assert missions.winner(gone) == "komodo"
    assert find_system("entropy_city").score_lines(gone, [], GANG_OF, NAMES, rules)[-2:] == [
        ("", "no VIP took the other out"), ("", "tie broken: Komodo still has a VIP in play")]
    assert missions.winner(before) == ""


def test_EC_MISSION_VIP_a_scripted_game_hands_the_part_on_as_worked_out_by_hand(tmp_path):
    """Clause: EC-MISSION-VIP. The VIP yard (tests/data/vip_yard.yaml), one turn, straight rides
    only (no template, no dice): Ash, Hades MC's VIP, at (20, 12) facing east rides 6" off the
    east edge: lost, not to Komodo's VIP; Brakes at (16, 16) is about 9" from where Ash left and
    Rat at (4, 20) about 21", so Brakes takes over at once, in the same action's events. The
    others ride 12" west, east and east, meeting nothing. Nobody took a VIP out: 0-0, and both
    gangs still have a VIP in play, so a draw; the film's plate names Brakes as the VIP from then
    on."""
    from pathlib import Path

    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    yard_file = Path(__file__).resolve().parents[2] / "data" / "vip_yard.yaml"
    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {yard_file}\nturns: 1\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h_vip, plans: ['s1: straight 6']}\n"
                      "  - {turn: 1, model: k_vip, plans: ['s1: straight 6', 's1: straight 6']}\n"
                      "  - {turn: 1, model: h2, plans: ['s1: straight 6', 's1: straight 6']}\n"
                      "  - {turn: 1, model: h3, plans: ['s1: straight 6', 's1: straight 6']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    events = game_events(replay)
    [takeover] = [e for e in events if e.kind == "score"]
    assert (takeover.model, takeover.figures["vip"], takeover.figures["from"]) == ("h2", "takes over", "h_vip")
    final = replay.end.state
    assert final.model("h_vip").status == "escaped" and final.model("h2").vip and not final.model("h3").vip
    assert replay.end.score == {"hades": 0, "komodo": 0} and replay.end.winner == ""
    table = load_scene(yard_file)
    names = Names.of_table(table)
    title, lines, _ = result_card(replay, table, names)
    assert lines[:4] == ("VIP Takedown: +1 VP for the VIP that takes the other out",
                         "Hades MC  +0 VP: VIP Ash then Brakes", "Komodo  +0 VP: VIP Viper",
                         "no VIP took the other out")
    assert find_system("entropy_city").plate_note(final.model("h2")) == "VIP"
    assert find_system("entropy_city").plate_note(final.model("h_vip")) == ""
