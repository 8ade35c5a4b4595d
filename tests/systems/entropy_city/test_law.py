"""The Law as a neutral NPC side (entropy_city/law.py, EC-LAW): the police wait off the table and enter
from their turn at a rolled entry point, go for whom the aggression reading of the rules data
says, push their luck to the NPC minimum of 15, score nothing, and a game with them on the table
ends when fewer than two of the players' gangs are left."""

from __future__ import annotations

from pathlib import Path

import yaml

from entropy3d.core.event import Event
from entropy3d.geometry import Pose
from entropy3d.systems import find_system
from entropy3d.systems.entropy_city import missions
from entropy3d.systems.entropy_city.dice import NpcMinimum, PushState, policy_named, roll_test
from entropy3d.systems.entropy_city.law import law_enters, law_targets, tally_impact
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import RIDING, WAITING, ModelState, State
from entropy3d.systems.entropy_city.table_marks import Entry, LawPlan
from entropy3d.systems.entropy_city.transition import Action
from entropy3d.systems.words import Names
from tests.systems.entropy_city.test_attacks import attack

RULES_FILE = Path(__file__).resolve().parents[3] / "rules" / "entropy_city.yaml"
YARD = Path(__file__).resolve().parents[2] / "data" / "law_yard.yaml"
GANG_OF = {"h1": "hades", "h2": "hades", "k1": "komodo", "law_1": "law", "law_2": "law"}
THREE_WAYS = LawPlan(2, (Entry(18, 2, 90), Entry(2, 12, 0), Entry(34, 12, 180)))


def rider(model_id: str, x: float, y: float, **changes) -> ModelState:
    bike = "police" if model_id.startswith("law") else "sportsbike"
    model = ModelState(model_id, GANG_OF[model_id], bike, Pose(x, y, 0.0, 0.0), 1, 0, 3, 10)
    if model_id.startswith("law"):
        model = model.but(law=True, status=WAITING)
    return model.but(**changes)


def game(turn: int, *models: ModelState, law: LawPlan = THREE_WAYS) -> State:
    return State(turn=turn, mission="turf_war", models={m.id: m for m in models}, score={"hades": 0, "komodo": 0},
                 law=law)


def test_EC_LAW_the_police_wait_until_their_turn_then_enter_in_file_at_the_rolled_point(rules, dice):
    """Clause: EC-LAW. From turn 2 ("police as neutral NPCs that join from turn 2") the waiting
    police enter at one of the 3 points ("appearing in one of 3 locations"): at turn 1 nothing
    happens and no die is rolled; at turn 2 a d3 rolls 3: the east point (34, 12) facing west,
    law_2 on it and law_1, the first to ride, the rules data's 8" further in (26, 12), at speed 2,
    in play."""
    start = game(1, rider("h1", 10, 20), rider("law_1", 18, 2), rider("law_2", 18, 6))
    assert law_enters(start, dice([]), rules) == (start, [])
    state, [event] = law_enters(game(2, *start.models.values()), dice([3]), rules)
    first, second = state.model("law_1"), state.model("law_2")
    assert (first.pose.x, first.pose.y, first.pose.facing_deg, first.speed, first.status) == (26, 12, 180, 2, RIDING)
    assert (second.pose.x, second.pose.y) == (34, 12) and second.in_play
    assert (event.figures["entry"], event.figures["riders"], event.clauses) == (3, ["law_1", "law_2"], ("EC-LAW",))
    assert event.rules.startswith("law enters at (34, 12), entry 3 of 3, d3 rolled 3")
    names = Names(riders={"law_1": "Officer 1", "law_2": "Officer 2"}, gangs={"law": "the Law"}, gang_of=GANG_OF)
    assert find_system("entropy_city").sentence(event, names) == "the Law rides in at entry 3: Officer 1 and Officer 2"


def test_EC_LAW_a_point_with_a_rider_on_it_is_passed_over_in_the_roll(rules, dice):
    """Clause: EC-LAW (DECISION): Ash stands 1" from the west point (2, 12): the die is a d2 over
    the south and east points; a 1 is the south one (18, 2): law_2 on it, law_1 at (18, 10)."""
    start = game(2, rider("h1", 3, 12), rider("law_1", 18, 2), rider("law_2", 18, 6))
    state, [event] = law_enters(start, dice([1]), rules)
    assert (state.model("law_2").pose.x, state.model("law_2").pose.y) == (18, 2)
    assert (state.model("law_1").pose.x, state.model("law_1").pose.y) == (18, 10)
    assert (event.figures["entry"], event.figures["roll"]) == (1, 1) and "d2 rolled 1" in event.rules


def test_EC_LAW_named_characters_first_then_the_rider_of_most_impact(rules):
    """Clause: EC-LAW, the reading chosen (rules data law.aggression named_then_impact): "initially
    target named characters and then later target whichever models have done the most damage".
    Up to turn 3 (law.named_until_turn) the Law goes for the VIP Ash; from turn 4 for Viper, whose
    attacks took 2 wounds off others (Ash's 1); with no one's impact, every rider."""
    riders = [rider("h1", 10, 10, vip=True, impact=1), rider("k1", 20, 10, impact=2),
              rider("law_1", 5, 5, status=RIDING)]
    assert [m.id for m in law_targets(game(3, *riders), rules)] == ["h1"]
    assert [m.id for m in law_targets(game(4, *riders), rules)] == ["k1"]
    calm = [m.but(impact=0) for m in riders]
    assert [m.id for m in law_targets(game(4, *calm), rules)] == ["h1", "k1"]


def test_EC_LAW_the_other_aggression_readings_are_options_of_the_rules_data(rules):
    """Clause: EC-LAW. `impact`: the most damaging from the start (Viper at turn 2, the VIP
    notwithstanding); `nearest`: every rider (the player rides at the nearest)."""
    riders = [rider("h1", 10, 10, vip=True), rider("k1", 20, 10, impact=2), rider("law_1", 5, 5, status=RIDING)]
    raw = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    for reading, wanted in (("impact", ["k1"]), ("nearest", ["h1", "k1"])):
        other = Ruleset.from_mapping({**raw, "law": {**raw["law"], "aggression": reading}}, "<test>")
        assert [m.id for m in law_targets(game(2, *riders), other)] == wanted


def test_EC_LAW_an_NPC_pushes_its_luck_to_15_and_gives_up_there(rules, dice):
    """Clause: EC-LAW, EC-DICE-5 (DECISION in the rules data's `npc:`: "it must have a minimum to
    roll before giving up. At this time it's 15" read as push-your-luck, `reading: gives_up_at`).
    At TN 12 the dice 6+7 = 13 pass, where a player sitting at the TN stops; the NPC adds a die
    (2): 15, and sits. At TN 17 it sits on 15 too, short: 6+7+2 = 15 fails (no fourth die). The
    other reading (`reading: at_least`) rolls on to 17: 6+7+2+3 = 18."""
    assert policy_named("npc", rules) == NpcMinimum(15, gives_up=True)
    assert NpcMinimum(15)(PushState(13, 12, 0, 2)) and not NpcMinimum(15)(PushState(15, 12, 0, 2))
    assert not NpcMinimum(15)(PushState(15, 17, 0, 3))
    assert roll_test(12, 0, dice([6, 7]), rules, policy_named("sit-at-tn", rules)).dice == (6, 7)
    npc = roll_test(12, 0, dice([6, 7, 2]), rules, policy_named("npc", rules))
    assert (npc.dice, npc.total, npc.succeeded) == ((6, 7, 2), 15, True)
    short = roll_test(17, 0, dice([6, 7, 2]), rules, policy_named("npc", rules))
    assert (short.total, short.succeeded) == (15, False)
    raw = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    other = Ruleset.from_mapping({**raw, "npc": {**raw["npc"], "reading": "at_least"}}, "<test>")
    assert policy_named("npc", other) == NpcMinimum(15, gives_up=False)
    assert roll_test(17, 0, dice([6, 7, 2, 3]), other, policy_named("npc", other)).total == 18


def test_EC_LAW_impact_counts_wounds_dealt_and_riders_taken_out_and_the_law_scores_nothing(rules):
    """Clause: EC-LAW. In Viper's attack its hit takes 1 wound off Ash (Viper's impact 1); in the
    Law's attack its hit takes Ash's last wound: law_1's impact 1 + 1 for the rider taken out, Ash
    marked out by law_1. Brakes busting out in law_1's action (its dodge: no hit) is credited to
    law_1 too (the action's actor, as VIP Takedown credits a forced bust). In Turf War nobody
    scores a rider the Law took out; the Law never wins."""
    start = game(3, rider("h1", 10, 10), rider("h2", 12, 10), rider("k1", 20, 10), rider("law_1", 5, 5, status=RIDING))
    hit = Event("attack", "h1", "hit", piece="k1", figures={"wounds_lost": 1, "taken_out": False})
    after = tally_impact(start, start, "k1", [hit])
    assert (after.model("k1").impact, after.model("h1").impact) == (1, 0)
    out = Event("attack", "h1", "hit", piece="law_1", figures={"wounds_lost": 1, "taken_out": True})
    gone = after.with_model(after.model("h1").but(status="out")).with_model(after.model("h2").but(status="out"))
    done = tally_impact(after, gone, "law_1", [out])
    assert (done.model("law_1").impact, done.model("h1").out_by, done.model("h2").out_by) == (3, "law_1", "law_1")
    assert tally_impact(start, State(3, "turf_war", dict(start.models)), "k1", [hit]).model("k1").impact == 0
    assert missions.law_rows(done, [], GANG_OF, {"law": "the Law"}.get) == [("law", "the Law: took out 2 riders, "
                                                                                    "lost 0")]
    scored = missions.score_taken_out(start, start.model("h1").but(status="out"), "law", rules)
    assert scored.score == {"hades": 0, "komodo": 0}
    assert missions.winner(scored.add_score("law", 5)) == ""


def test_EC_LAW_a_scripted_game_the_police_enter_in_turn_2_and_the_game_ends_with_one_gang_left(tmp_path):
    """Clause: EC-LAW. The Law yard (tests/data/law_yard.yaml), seed 1: turn 1 Ash and Viper ride
    4" + 4" east; the police rider waits off the table and activates not at all. Turn 2 opens with
    law_1 entering at (18, 2) facing north (one point: no roll), at speed 2, so it activates first
    (EC-TURN-2: speed 2 before Ash's and Viper's speed 1 in the roll-off winner's order); it rides
    8" north at speed 2 and 4" at speed 1. Viper rides 10" off the east edge: Hades MC is the only
    players' gang on the table, the Law notwithstanding: the game is over, 0-0, a draw; the card
    gives the Law a row of its own, scoring nothing."""
    from entropy3d.game.session import play_game
    from entropy3d.scene import load_scene
    from entropy3d.video.ending import game_events, result_card

    script = tmp_path / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 3\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 4', 's1: straight 4']}\n"
                      "  - {turn: 2, model: law_1, plans: ['s2: straight 8', 's1: straight 4']}\n"
                      "  - {turn: 2, model: k1, plans: ['s2: straight 10']}\n"
                      "  - {turn: 2, model: h1, plans: ['s1: straight 4', 's1: straight 4']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    assert [t.order for t in replay.turns] == [("k1", "h1"), ("law_1", "h1", "k1")]
    [entry] = [e for e in game_events(replay) if "EC-LAW" in e.clauses]
    assert (entry.model, entry.figures["at"], entry.figures["entry"]) == ("law_1", [18, 2], 1)
    police = replay.end.state.model("law_1")
    assert (police.pose.x, police.pose.y) == (18, 14) and police.law
    assert (replay.end.reason, replay.end.score, replay.end.winner) == ("only one gang left on the table",
                                                                        {"hades": 0, "komodo": 0}, "")
    table = load_scene(YARD)
    _, lines, _ = result_card(replay, table, Names.of_table(table))
    assert lines[1:4] == ("Hades MC  +0 VP", "Komodo  +0 VP", "the Law: took out 0 riders, lost 0")


def test_EC_LAW_a_package_dropped_scores_for_the_defenders_not_the_law(rules):
    """Clauses: EC-LAW, EC-MISSION-PACKAGE. Viper, carrying the 3 VP package, is out of the game
    with a police rider on the table: Hades MC, the defenders, score the 3 VP; the Law nothing."""
    viper = rider("k1", 20, 10, package=3, package_to="west", status="out")
    state = State(turn=3, mission="package_run", models={m.id: m for m in (
        rider("h1", 10, 10), viper, rider("law_1", 5, 5, status=RIDING))}, score={"hades": 0, "komodo": 0},
        law=THREE_WAYS)
    after, [event] = missions.carry_packages(state, [])
    assert after.score == {"hades": 3, "komodo": 0} and event.figures["gangs"] == ["hades"]


def test_EC_LAW_the_engine_gives_a_police_riders_tests_the_NPC_minimum_whatever_its_player_asks(rules, dice):
    """Clause: EC-LAW. "If an NPC is involved in a test, it must have a minimum to roll before giving
    up. At this time it's 15." The rule is the engine's, not the seat's: a script asking "never"
    (no push) for a police rider gets the NPC's push all the same. law_1 (chain, TN 14) attacks Ash
    (dodge 1), both asking "never": Ash dodges 2+2+1 = 5 and sits (its own "never"); law_1's 8+6 =
    14 passes its TN but is under 15: it pushes, a 5: 19, a hit. Turned round, Ash's chain on law_1
    (dodge 1): Ash's 9+8 = 17 sits; law_1 dodges 2+2+1 = 5, pushes under 15: +6 = 11, +3 = 14,
    +2 = 16, and gives up there (16 < 17: hit)."""
    ash = rider("h1", 10.0, 10.0, weapon="chain", dodge=1)
    police = rider("law_1", 10.0, 10.0 + 42 / 25.4 + 0.9, weapon="chain", dodge=1, status=RIDING)
    state = State(turn=2, mission="turf_war", models={"h1": ash, "law_1": police}, score={"hades": 0, "komodo": 0},
                  law=THREE_WAYS)
    _, events = attack(state, Action.attack("law_1", "h1", "chain", "never", "never"), rules, dice([8, 6, 2, 2, 5]))
    swing = events[0]
    assert (swing.rolls[0].dice, swing.rolls[1].dice, swing.figures["hit"]) == ((8, 6, 5), (2, 2), True)
    _, events = attack(state, Action.attack("h1", "law_1", "chain", "never", "never"), rules,
                       dice([9, 8, 2, 2, 6, 3, 2]))
    swing = events[0]
    assert (swing.rolls[0].dice, swing.rolls[1].dice, swing.rolls[1].total) == ((9, 8), (2, 2, 6, 3, 2), 16)
