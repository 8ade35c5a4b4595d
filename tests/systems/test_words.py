"""Plain words for a person (issue 13): sentences built from an event's kind, figures and rolls,
names instead of ids; the dice come second."""

from __future__ import annotations

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.systems.entropy_city.dice import Outcome, TestRoll
from entropy3d.systems.gang_battle import wound_and_save_rolls
from entropy3d.systems.words import (
    Names,
    conditions_words,
    detail,
    found_text,
    is_key_moment,
    is_routine,
    may_change_score,
    piece_name,
    plain_lines,
    sentence,
)

NAMES = Names({"hades_3": "Ash", "hades_1": "Brakes"}, {"hades": "Hades MC"}, {"hades_3": "hades", "hades_1": "hades"})


def test_scenery_ids_read_as_names():
    assert piece_name("lamp_ne") == "the north-east street lamp"
    assert piece_name("corner_flats") == "the corner flats"
    assert piece_name("rubble_wall_east") == "the east rubble wall"  # the film said "the rubble wall east"
    assert piece_name("warehouse_b") == "warehouse B"
    assert piece_name("bin_2") == "bin 2"
    assert piece_name("bench1") == "bench 1"
    assert NAMES.thing("hades_1") == "Brakes" and NAMES.rider_of_gang("hades_3") == "Ash (Hades MC)"


def test_EC_TRAIT_a_stat_a_trait_adds_shows_in_the_dice():
    """A clutz's tight turn (EC-TRAIT): 5+5, stress 2 and its dodge 2 added = 14, shown as the
    stat it is, so the sum a person checks adds up (without it: "5+5 + stress 2 = 14")."""
    roll = TestRoll((5, 5), 2, 14, 14, 14, Outcome.SUCCESS, 0, bonus=2)
    event = Event("test", "hades_3", "tight template at speed 3: TN 14", clauses=("EC-TMPL-2",), rolls=(roll,))
    assert detail(event) == "EC-TMPL-2; TN 14: 5+5 + stress 2 + stat 2 = 14, passes"


def test_a_survived_head_on_crash_in_plain_words_then_the_dice():
    """Clause: EC-COL-HEAD. The issue's own example sentence."""
    roll = TestRoll((9, 2, 9), 1, 20, 20, 21, Outcome.SUCCESS, 0)
    event = Event("crash", "hades_3", "head-on crash ...", "rode 3.5\" then hit wall 'corner_flats' at 33°",
                  "physics", ("EC-COL-1", "EC-COL-HEAD"), (roll,), "corner_flats", 0.4, 4,
                  {"kind": "head_on", "tn": 20, "survived": True})
    assert sentence(event, NAMES) == ("Ash hits the corner flats head-on: needs 20, rolls 21 - survives, +4 stress, "
                                      "stops dead, skips next activation")
    assert detail(event) == "EC-COL-1, EC-COL-HEAD; TN 20: 9+2+9 + stress 1 = 21, passes"
    assert is_key_moment(event)
    lines = plain_lines(event, NAMES)
    assert "corner_flats" not in " ".join(lines) and "the corner flats" in lines[1]


def test_a_bust_and_a_skip_name_the_rider():
    """Clause: EC-DICE-4."""
    remount = TestRoll((10, 7), 0, 15, 15, 17, Outcome.SUCCESS, 0)
    bust = Event("bust", "hades_1", "bust ...", clauses=("EC-DICE-4",), rolls=(remount,),
                 figures={"wounds_after": 2, "out_of_game": False})
    assert sentence(bust, NAMES) == "Brakes busts: -1 wound (2 left), remounts (needs 15, rolls 17), skips next action"
    # the remount roll is named: under "busts" a bare "TN 15 ... passes" read as if the bust had passed
    fall = TestRoll((3, 4), 0, 16, 16, 7, Outcome.FAIL, 0)
    thrown = Event("bust", "hades_1", "bust ...", clauses=("EC-DICE-4",), rolls=(fall,),
                   figures={"wounds_after": 1, "out_of_game": True})
    assert sentence(thrown, NAMES) == "Brakes busts and is out of the game: fails to remount (needs 16, rolls 7)"
    last = Event("bust", "hades_1", "bust ...", clauses=("EC-DICE-4",),
                 figures={"wounds_after": 0, "out_of_game": True})
    assert sentence(last, NAMES) == "Brakes busts and is out of the game"
    skip = Event("skip", "hades_1", "remounting ...", clauses=("EC-DICE-4",))
    assert sentence(skip, NAMES) == "Brakes is remounting after a bust: skips this action"


def test_an_attack_and_its_hit_in_plain_words():
    """Clause: EC-MEL-1. A melee attack names both riders and the weapon; the hit names the harm."""
    attack_roll = TestRoll((8, 7), 0, 14, 14, 15, Outcome.SUCCESS, 0)
    dodge = TestRoll((3, 4), 0, 0, 0, 7, Outcome.FAIL, 0)
    attack = Event("attack", "hades_3", "...", clauses=("EC-MEL-1",), rolls=(attack_roll, dodge), piece="hades_1",
                   figures={"weapon": "chain", "tn": 14, "hit": True, "defence": "dodges"})
    assert sentence(attack, NAMES) == "Ash attacks Brakes with the chain: needs 14, rolls 15 - hits"
    assert detail(attack) == "EC-MEL-1; TN 14: 8+7 + stress 0 = 15, passes; 3+4 + stress 0 = 7, fails"
    hit = Event("attack", "hades_1", "...", piece="hades_3",
                figures={"wounds_lost": 1, "headshot": False, "taken_out": False})
    assert sentence(hit, NAMES) == "Brakes is hit by Ash: -1 wound" and is_key_moment(hit)


def test_EC_JUMP_4_a_flight_carried_over_says_where_it_lands():
    """Clause: EC-JUMP-4. A jump still in the air at the end of an action lands in the next one:
    the default demo said "lands 0\" into the next action" of a landing 0.3" into it."""
    def carried(inches):
        return sentence(Event("jump", "hades_1", "...", clauses=("EC-JUMP-4",), figures={"carry_in": inches}),
                        NAMES)
    assert carried(4.4) == "Brakes is still in the air: lands 4\" into the next action"
    assert carried(0.3) == "Brakes is still in the air: lands as the next action starts"
    # and the next action says so when it comes: the default demo said "Pip comes down 0\" on"
    def landed(inches):
        return sentence(Event("landing", "hades_1", "...", clauses=("EC-JUMP-2", "EC-JUMP-4"),
                              figures={"landing_in": inches}), NAMES)
    assert landed(5.2) == "Brakes lands from its jump 5\" into this action"
    assert landed(0.3) == "Brakes lands from its jump as this action starts"


def test_EC_STOPPED_a_stop_says_why_the_rider_stopped():
    """Clause: EC-STOPPED, EC-ACT-STOP, EC-ACT-LAYTRAP, EC-GUN-STOPPED, EC-STOP-RECOVER. The default
    demo said "Ash is stopped after a crash" of a rider going on overwatch, and of Pip laying a
    molotov: a stop says why the rider stopped and what it skips; the activation skipped later
    says only that it is stopped; the recovery gives the stress it sheds."""
    said = [sentence(Event("skip", "hades_3", "...", clauses=clauses, figures=figures, stress_change=change), NAMES)
            for clauses, figures, change in [
                (("EC-GUN-STOPPED", "EC-STOPPED"), {}, 0),
                (("EC-GUN-STOPPED", "EC-STOPPED"), {"ammo": 6}, 0),
                (("EC-GUN-STOPPED",), {}, 0),
                (("EC-ACT-LAYTRAP", "EC-STOPPED"), {}, 0),
                (("EC-ACT-STOP", "EC-STOP-RECOVER", "EC-STOPPED"), {}, 0),
                (("EC-ACT-LAYTRAP", "EC-JUMP-2"), {}, 0),
                (("EC-STOP-RECOVER",), {}, -7),
                (("EC-STOPPED",), {}, 0)]]
    assert said == [
        "Ash goes on overwatch: shoots the first enemy in range, skips the next activation",
        "Ash stops to reload (6 shots): skips the next activation",
        "Ash stays on overwatch for one more activation",
        "Ash stops to lay the trap: skips the next activation",
        "Ash stops to recover: skips the next action and activation",
        "Ash is still in the air: no trap",
        "Ash sits still and recovers, -7 stress",
        "Ash is stopped: skips this activation"]
    assert not any("crash" in words for words in said)


def test_GANG_WOUND_the_small_print_gives_each_hits_wound_roll_and_save():
    """Clause: GANG-WOUND. A gang fighter hit without harm said "no harm" and nothing of the dice:
    the small print gives each hit's wound roll and armour save, as the rulebook orders them."""
    rolls = [{"wound": 2, "wound_needed": 4, "save": None, "save_needed": 6, "unsaved": False},
             {"wound": 5, "wound_needed": 4, "save": 6, "save_needed": 5, "unsaved": False},
             {"wound": 4, "wound_needed": 4, "save": 3, "save_needed": 5, "unsaved": True},
             {"wound": 6, "wound_needed": 2, "save": None, "save_needed": 7, "unsaved": True}]
    hit = Event("attack", "hades_1", "takes 2 wounds (...)", clauses=("GANG-WOUND",), piece="hades_3",
                figures={"wounds_lost": 2, "rolls": rolls, "taken_out": False}, rolls=wound_and_save_rolls(rolls))
    assert sentence(hit, NAMES) == "Brakes is hit by Ash: -2 wounds"
    assert detail(hit) == ("GANG-WOUND; wound 2 needing 4+: no wound; wound 5 needing 4+, save 6 needing 5+: saved; "
                           "wound 4 needing 4+, save 3 needing 5+: unsaved; wound 6 needing 2+, no save: unsaved")


def test_SW_VEH_1_a_passed_maneuvering_roll_is_news_not_a_routine_template_test():
    """Clause: SW-VEH-1. A routine event (an Entropy City template test passed at no cost) keeps
    only its small print; a chase's maneuvering roll that passed carries its dice as rolls now
    (issue 44) and is still said: only Entropy City's tests are routine."""
    rolls = (DiceRoll.against("maneuvering roll, skill die", [5], 4),
             DiceRoll.against("maneuvering roll, wild die", [2], 4))
    maneuver = Event("test", "van", "over 12\": maneuvering roll at +0: d6 5, wild die 2, +0 = 5 vs 4: success: the "
                     "move stands", clauses=("SW-VEH-1",), rolls=rolls, figures={"total": 5, "outcome": "success"})
    assert not is_routine(maneuver)
    template = Event("test", "hades_1", "leans in", clauses=("EC-TMPL-2",), rolls=(TestRoll((5, 5), 2, 12, 12, 12,
                                                                                           Outcome.SUCCESS),))
    assert is_routine(template)


def test_GANG_PIN_conditions_in_the_rulebooks_words_repeats_counted():
    """Clause: GANG-PIN, GANG-INJURY. The ``act`` state line gave condition ids ("out_of_ammo"):
    they are the engine's words, repeats counted; an id it has no words for reads with spaces."""
    from entropy3d.systems.gang_battle.engine import CONDITION_WORDS

    conditions = ("prone", "flesh_wound", "out_of_ammo", "flesh_wound", "on_fire")
    assert conditions_words(conditions, CONDITION_WORDS) == "Prone & Pinned, 2 x flesh wound, Out of Ammo, on fire"
    assert conditions_words((), CONDITION_WORDS) == "no conditions"


def test_EC_WOUND_a_figure_on_foot_taken_out_is_not_said_to_go_over_the_edge():
    """Clause: EC-WOUND. The sniper shot on a roof had no wreck because it is on foot: the video
    said "is gone over the edge"; a rider whose base is off the table still goes over it."""
    on_foot = Event("wreck", "hades_3", "taken out on foot ...", clauses=("EC-WOUND",),
                    figures={"no_wreck": "on_foot"})
    assert sentence(on_foot, NAMES) == "Ash is out of the game: on foot, no bike to leave as a wreck"
    over = Event("wreck", "hades_1", "out over the table's edge ...", clauses=("EC-WOUND",),
                 figures={"no_wreck": "off_table"})
    assert sentence(over, NAMES) == "Brakes is gone over the edge: no wreck on the table"


def test_a_condition_reads_as_a_sentence_whatever_its_rules_text_starts_with():
    """A condition's text that goes on from the model ("is hit: drops Prone & Pinned") read
    "Skab: is hit: ...", and one that names the model read "Brakes: Brakes is bleeding"; a text
    that is a noun phrase keeps the colon ("Ash: Cool check ...")."""
    def said(model: str, text: str) -> str:
        return sentence(Event("condition", model, text), NAMES)

    assert said("hades_3", "is hit: drops Prone & Pinned") == "Ash is hit: drops Prone & Pinned"
    assert said("hades_3", "stands up: no longer Prone & Pinned") == "Ash stands up: no longer Prone & Pinned"
    assert said("hades_1", "hades_1 is bleeding: +1 stress") == "Brakes is bleeding: +1 stress"
    assert said("hades_3", "Cool check 4+3 needing 8+: passes") == "Ash: Cool check 4+3 needing 8+: passes"
    assert said("hades_1", "burning: +1 stress") == "Brakes: burning: +1 stress"


def test_EC_TRAP_a_trap_reads_as_a_sentence_and_never_shows_an_id():
    """Clause: EC-TRAP. Any other event's text went on after "Pip: " as written, ids and all:
    "Pip: lays a molotov ...", "Brakes: hades_1 is out of the game"."""
    def said(model: str, text: str) -> str:
        return sentence(Event("trap", model, text), NAMES)

    assert said("hades_1", "hades_1 is out of the game") == "Brakes is out of the game"
    blast = "caught in the blast: +3 stress, -1 wound"
    assert said("hades_1", blast) == f"Brakes: {blast}"


def test_EC_ACT_LAYTRAP_EC_TRAP_a_trap_is_told_by_who_laid_it_with_no_ids_and_no_coordinates():
    """Clause: EC-ACT-LAYTRAP, EC-TRAP. The video said "Brakes rides over hades_3's caltrops" (the
    layer by id), "Ash lays a caltrops at (4.4, 25.2)" and "the explosive at (4.4, 25.2) goes off":
    the words now come from the event's figures; the rules' text keeps the inches for players."""
    laid = Event("trap", "hades_3", "lays caltrops at (4.4, 25.2)", clauses=("EC-ACT-LAYTRAP", "EC-TRAP"),
                 figures={"trap": "caltrops"})
    assert sentence(laid, NAMES) == "Ash lays caltrops behind it"
    fused = Event("trap", "hades_3", "...", clauses=("EC-ACT-LAYTRAP", "EC-TRAP"),
                  figures={"trap": "explosive", "fuse": 2})
    assert sentence(fused, NAMES) == "Ash lays an explosive behind it, fused for 2 activations"
    failed = TestRoll((3, 4), 0, 14, 14, 7, Outcome.FAIL, 0)
    ridden = Event("trap", "hades_1", "rides over hades_3's caltrops: ...", clauses=("EC-TRAP",), rolls=(failed,),
                   stress_change=2, figures={"trap": "caltrops", "laid_by": "hades_3", "wounds_lost": 0})
    assert sentence(ridden, NAMES) == "Brakes rides over Ash's caltrops: needs 14, rolls 7 - fails, +2 stress"
    passed = TestRoll((9, 8), 0, 16, 16, 17, Outcome.SUCCESS, 0)
    through = Event("trap", "hades_1", "...", clauses=("EC-TRAP",), rolls=(passed,),
                    figures={"trap": "spike_strip", "laid_by": "hades_3", "wounds_lost": 0})
    assert sentence(through, NAMES) == "Brakes rides over Ash's spike strip: needs 16, rolls 17 - passes, unharmed"
    fire = Event("trap", "hades_1", "...", clauses=("EC-TRAP",),
                 figures={"trap": "molotov", "laid_by": "hades_3", "wounds_lost": 0})
    assert sentence(fire, NAMES) == "Brakes rides over Ash's molotov"  # its fire is the next event's
    blast = Event("trap", "hades_3", "the explosive at (4.4, 25.2) goes off", clauses=("EC-TRAP",),
                  figures={"trap": "explosive", "went_off": True})
    assert sentence(blast, NAMES) == "Ash's explosive goes off"


def test_EC_GUN_STOPPED_an_overwatch_shot_says_who_fired_and_why():
    """Clause: EC-GUN-STOPPED, EC-MEL-CHICKEN. A rider on overwatch firing at the first enemy that
    comes into range and sight was told as "nobody flinches" (the words of a game of chicken no
    one lost): the shared page of a seed-7 game said so of Ash shooting Hawk."""
    def trigger(at_in):
        return sentence(Event("attack", "hades_3", "...", clauses=("EC-GUN-STOPPED",), piece="hades_1",
                              figures={"overwatch": True, "at_in": at_in}), NAMES)
    assert trigger(0.0) == "Ash, on overwatch, opens fire: Brakes comes into range and sight as it sets off"
    assert trigger(3.4) == 'Ash, on overwatch, opens fire: Brakes comes into range and sight 3" into its move'
    chicken = Event("attack", "hades_3", "nobody flinches", clauses=("EC-MEL-CHICKEN",))
    assert sentence(chicken, NAMES) == "nobody flinches"


def test_EC_FOOT_MOVE_a_pivot_on_foot_is_a_turn_not_a_walk_of_nothing():
    """Clause: EC-FOOT-MOVE. A rider on foot pivoting where it stands was told "walks 0\" on foot"."""
    def walked(inches):
        return sentence(Event("move", "hades_3", "...", clauses=("EC-FOOT-MOVE",),
                              figures={"length_in": inches, "speed": 0, "walked": True}), NAMES)
    assert walked(0.0) == "Ash turns on the spot, on foot"
    assert walked(2.5) == 'Ash walks 2.5" on foot'


def test_a_systems_own_words_name_riders_and_scenery():
    """A game system's rules text names what it speaks of by id (SW-VEH-2's "Moved into the
    nearest obstacle, corner_flats", REF-COLL's "to brick and yard_wreck"): a player reads names.
    An id inside a longer one (bin in bin_2) is left alone."""
    names = Names({"brick": "Brick"}, {}, {}, ("yard_wreck", "corner_flats", "bin", "bin_2"))
    assert names.named_all("hit yard_wreck (metal): damage to brick and yard_wreck") == (
        "hit the yard wreck (metal): damage to Brick and the yard wreck")
    assert names.named_all("left 'corner_flats' at 2.7\"") == "left the corner flats at 2.7\""
    one_word = Names({}, {}, {}, ("depot", "crate"))  # a name that still holds its id is named once
    assert one_word.named_all("rode 6.8\" then hit wall 'depot' at 0°; went into destructible 'crate'") == (
        "rode 6.8\" then hit wall the depot at 0°; went into destructible the crate")
    hit = Event("crash", "brick", "crashes", found="rode 6.8\" then hit wall 'depot' at 0°", piece="depot")
    assert found_text(hit, one_word) == "rode 6.8\" then hit wall the depot at 0°"
    assert names.named_all("Moved into the nearest obstacle, corner_flats (2.5\" away); bin_2") == (
        "Moved into the nearest obstacle, the corner flats (2.5\" away); bin 2")
    sw = Event("crash", "brick", "Out of Control: Moved into the nearest obstacle, corner_flats",
               clauses=("SW-VEH-2",), piece="corner_flats")
    assert sentence(sw, names) == "Brick: Out of Control: Moved into the nearest obstacle, the corner flats"


def test_EC_WOUND_a_wreck_is_named_as_its_riders():
    """Clause: EC-WOUND. A rider taken out is left as its wreck, scenery with the id
    ``wreck_<model id>``; the default film said "Rat hits wreck hades 2 head-on": it says whose."""
    crash = Event("crash", "hades_3", "hits wreck_hades_1 head-on", clauses=("EC-COL-HEAD",), piece="wreck_hades_1",
                  figures={"kind": "head-on"})
    assert NAMES.thing("wreck_hades_1") == "Brakes's wreck"
    assert "Brakes's wreck" in sentence(crash, NAMES) and "wreck hades" not in sentence(crash, NAMES)
    assert NAMES.thing("wreck_of_a_car") == "the wreck of a car"  # scenery named wreck_ is scenery


def test_what_the_table_found_names_what_it_saw_past():
    """Clause: TEN-COVER. A sight line's finding names the target and what it was seen past by
    id ("runner 79% visible ... past roof_barrier"); the terminal reads names."""
    names = Names({"runner": "Runner"}, {}, {}, ("roof_barrier",))
    event = Event("shot", "guard", "attacks runner ...", "runner 79% visible, 8.5\" away past roof_barrier",
                  "line of sight", ("TEN-COVER",), piece="runner")
    assert found_text(event, names) == "Runner 79% visible, 8.5\" away past the roof barrier"


def test_status_and_heading_words():
    """A model's status in each system's words (SW-CHASE: a vehicle off the table got away, a
    Wrecked one is wrecked; TEN-STRESS: unconscious), and a heading a hair under 360° reads 0°."""
    from entropy3d.systems.words import heading_words, status_words

    assert status_words("escaped", "WRECKED") == "off the table"
    assert status_words("out", "WRECKED") == "wrecked" and status_words("out", "UNCONSCIOUS") == "unconscious"
    assert status_words("riding") == "in play" and status_words("out") == "out of action"
    assert heading_words(359.9996) == "0°" and heading_words(359.4) == "359°" and heading_words(90.2) == "90°"


def test_GANG_INJURY_an_unsaved_hit_on_a_fighter_with_no_wound_left_is_not_no_harm():
    """Clause: GANG-INJURY. "If a fighter gets reduced to '0' then roll an Injury die. Any
    additional damage gets rolled as additional Injury dice." Harl's third hit on Vex (no wound
    left) goes unsaved: an injury die follows (Seriously Injured), so the hit did harm."""
    names = Names({"escher_2": "Vex", "orlock_5": "Harl"})
    rolls = [{"wound": 2, "wound_needed": 3, "save": None, "save_needed": 6, "unsaved": False},
             {"wound": 5, "wound_needed": 3, "save": 4, "save_needed": 6, "unsaved": True}]
    hit = Event("attack", "escher_2", "takes 1 wound (...)", clauses=("GANG-WOUND",), piece="orlock_5",
                figures={"rolls": rolls, "taken_out": False, "wounds_lost": 0})
    assert sentence(hit, names) == "Vex is hit by Harl: no wound left to lose: 1 unsaved hit, an injury die"
    saved = Event("attack", "escher_2", "takes no wound (...)", clauses=("GANG-WOUND",), piece="orlock_5",
                  figures={"rolls": rolls[:1], "taken_out": False, "wounds_lost": 0})
    assert sentence(saved, names) == "Vex is hit by Harl: no harm"


def test_GANG_SHOOT_an_improbable_shot_reads_as_two_rolls_not_a_sum():
    """Clause: GANG-SHOOT. "If a shot is modified past 6+ then it becomes an improbable shot.
    Roll to hit and on a '6' roll you can roll again with unmodified fighter BS." Its two dice
    read "rolled 6 needing 7+ (improbable: a 6, then 4 at its BS)", never "rolled 6+4" (a 10)."""
    names = Names({"orlock_1": "Gorg", "escher_2": "Vex"})
    shot = Event("shot", "orlock_1", "shoots escher_2 ... rolled 6+4 needing 7+ then BS", clauses=("GANG-SHOOT",),
                 figures={"target": "escher_2", "weapon": "autogun", "cover": "full", "to_hit_modifier": -2,
                          "roll_needed": 7, "dice": [6, 4], "hit": True, "hits": 1, "firepower": 2})
    assert sentence(shot, names) == ("Gorg shoots Vex with the autogun (in full cover, -2 to hit): rolled 6 needing 7+ "
                                     "(improbable: a 6, then 4 at its BS): 1 hit (Firepower 2)")


def test_EC_MISSION_RESCUE_EC_MISSION_JAIL_an_npc_is_named_as_a_person_says_it_not_by_its_id():
    """Clauses: EC-MISSION-RESCUE, EC-MISSION-JAIL. The film of rescue_survive (seed 1) said "Viper
    delivers the hades contact (the rival's)": a contact whose id starts with its gang's id reads as
    that gang's ("Hades MC's contact"), in a sentence and in an end reason alike; Jailbreak's
    prisoner stays "the prisoner"."""
    from pathlib import Path

    from entropy3d.scene import load_scene

    scenes = Path(__file__).resolve().parents[2] / "scenes"
    names = Names.of_table(load_scene(scenes / "rescue_survive.yaml"))
    assert names.thing("hades_contact") == "Hades MC's contact"
    assert names.thing("komodo_contact") == "Komodo's contact"
    said = Event("score", "komodo_1", "delivered", figures={"npc": "hades_contact", "delivered": True, "rival": True,
                                                            "gangs": ["komodo"], "points": 2})
    assert sentence(said, names) == "Viper delivers Hades MC's contact (the rival's): +2 VP to Komodo"
    assert names.named("hades_contact was lost") == "Hades MC's contact was lost"
    assert Names.of_table(load_scene(scenes / "jailbreak.yaml")).thing("prisoner") == "the prisoner"


def test_EC_DEST_4_a_destructible_knocked_aside_is_a_key_moment_a_turned_bike_is_not():
    """Clause: EC-DEST-3, EC-DEST-4. A rider through the police line's sawhorse that passes its
    TN 13 test knocks it 4" on (``item_moved_to``, where the rules put it): the film slows and holds
    on that, as on a crash, so the piece is seen flying (video/knocks.py). A failed test (the
    opponent turns the bike 2" and the piece stays) is the rider's setback, told but not a key
    moment; nor is riding into one too slowly (a solid obstacle)."""
    passed = TestRoll((8, 9), 3, 13, 13, 20, Outcome.SUCCESS, 0)
    smashed = Event("destructible", "hades_1", "risk 2: +2 stress, TN 13, ... -> the piece is moved 4\"",
                    clauses=("EC-DEST-3", "EC-DEST-4"), rolls=(passed,), piece="police_sawhorse_west", t_s=0.9,
                    figures={"risk": 2, "tn": 13, "item_moved_in": 4.0, "forced_turn_in": 0.0,
                             "item_moved_to": [0.4, 4.0]})
    failed = Event("destructible", "hades_1", "risk 2: ... -> the opponent turns the bike 2\"",
                   clauses=("EC-DEST-3",), piece="police_sawhorse_west", t_s=0.9,
                   figures={"risk": 2, "tn": 13, "item_moved_in": 0.0, "forced_turn_in": 2.0})
    too_slow = Event("destructible", "hades_1", "not full movement at speed 2+: a solid obstacle",
                     clauses=("EC-DEST-2",), piece="police_sawhorse_west")
    assert is_key_moment(smashed)
    assert not is_key_moment(failed) and not is_key_moment(too_slow)
    # a key moment to film, but never points: the film's scoreboard does not wait for it (film_hud,
    # the short cut's _scored), where a takedown or a crash may change the score
    assert not may_change_score(smashed)
    crash = Event("crash", "hades_1", "head-on crash", clauses=("EC-COL-HEAD",), figures={"kind": "head_on"})
    assert is_key_moment(crash) and may_change_score(crash)


def test_EC_DEST_4_the_words_say_a_piece_knocked_on_ahead_went_ahead():
    """Clause: EC-DEST-4. Where the rider's line is a line of sawhorses across the street (no
    room to either side, the table's answer), the rules knock the piece on ahead
    (``knocked_ahead``): the caption says so, where it said "knocks it aside" over a picture of
    the piece flying on ahead of the bike (Lovers Point seed 1, turn 3). A piece knocked aside
    is still told so."""
    passed = TestRoll((8, 9), 3, 13, 13, 20, Outcome.SUCCESS, 0)
    figures = {"risk": 2, "tn": 13, "item_moved_in": 4.0, "forced_turn_in": 0.0, "item_moved_to": [0.0, 4.0]}
    ahead = Event("destructible", "hades_1", "... -> the piece is moved 4\" on ahead of the rider (EC-DEST-4)",
                  clauses=("EC-DEST-4",), rolls=(passed,), piece="police_sawhorse_west",
                  figures={**figures, "knocked_ahead": True})
    aside = Event("destructible", "hades_1", "... -> the piece is moved 4\" aside to the rider's left (EC-DEST-4)",
                  clauses=("EC-DEST-4",), rolls=(passed,), piece="police_sawhorse_west", figures=figures)
    told = "Brakes smashes into the west police sawhorse: needs 13, rolls 20 - knocks it "
    assert (sentence(ahead, NAMES), sentence(aside, NAMES)) == (told + "on ahead", told + "aside")
